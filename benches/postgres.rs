//! Moves per second through the game service on PostgreSQL, with 1 and 2 processes (this
//! bench run again as workers, each with its own service and connections, its share of the
//! games set up before a common start), 100 games, beside `pgbench -N` (simple updates) with
//! the same number of clients on the same server in the same run; and the same service on
//! SQLite in one process, as the baseline. Then the real
//! bot through the fake Discord, open loop (100 moves/s over 100 games, interaction sent →
//! callback received, p50 and p99; targets 5 ms and 25 ms with two processes): one process on
//! SQLite, one on PostgreSQL, and two on PostgreSQL holding shards `0-0/2` and `1-1/2`, the
//! games' guilds spread over both.
//!
//! `cargo bench --bench postgres` (add `-- --quick` for a short run). The server is a
//! throwaway one started from the machine's PostgreSQL binaries (`fsync` on), as in the tests.

#[path = "../tests/support/postgres.rs"]
mod pg;

#[path = "support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cajitas::game::{GameService, ServiceOptions};
use cajitas::store::{Database, PostgresStore};
use support::bot::{Bot, BotOptions, TempDir};
use support::fake_discord::FakeDiscord;
use support::{Table, median, ms, parallel_moves_per_s, percentile};

/// The environment variable that makes this bench a worker process: `GAMES PER_GAME BASE
/// INDEX COUNT URL` (see [`worker`]).
const WORKER: &str = "CAJITAS_BENCH_PG_WORKER";

/// A worker process: opens its own service on the database at URL, sets up the games
/// `g < GAMES` with `g % COUNT == INDEX` (channels from BASE), says `ready`, waits for `go`
/// on stdin, plays PER_GAME moves in each, and says `done`.
fn worker(spec: &str) {
    let f: Vec<&str> = spec.splitn(6, ' ').collect();
    let (games, per_game, base, index, count, url): (usize, usize, u64, usize, usize, &str) = (
        f[0].parse().unwrap(),
        f[1].parse().unwrap(),
        f[2].parse().unwrap(),
        f[3].parse().unwrap(),
        f[4].parse().unwrap(),
        f[5],
    );
    let svc = GameService::with_store(
        Box::new(PostgresStore::open(url).unwrap()),
        ServiceOptions::default(),
    );
    let mut rng = fastrand::Rng::with_seed(7 + index as u64);
    let mut mine: Vec<Table> = (0..games)
        .filter(|g| g % count == index)
        .map(|g| Table::new(&svc, base + g as u64, &mut rng))
        .collect();
    println!("ready");
    let mut go = String::new();
    std::io::stdin().read_line(&mut go).unwrap();
    // Anything else (the end of input: the bench stopped) ends the worker without playing.
    if go.trim() != "go" {
        return;
    }
    for _ in 0..per_game {
        for t in mine.iter_mut() {
            t.step(&svc);
        }
    }
    println!("done");
}

/// The worker processes of one measure: killed and waited for if the measure stops half-way
/// (a worker that failed), so none is left behind.
struct Workers(Vec<(std::process::Child, BufReader<std::process::ChildStdout>)>);

impl Drop for Workers {
    fn drop(&mut self) {
        for (child, _) in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Moves per second with `processes` worker processes sharing `games` games on the database
/// at `url`: from the moment every worker has its games and is told to go, to the last one's
/// end.
fn moves_per_s(url: &str, processes: usize, games: usize, per_game: usize, base: u64) -> f64 {
    let mut workers = Workers(Vec::new());
    for index in 0..processes {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .env(
                WORKER,
                format!("{games} {per_game} {base} {index} {processes} {url}"),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        workers.0.push((child, out));
    }
    let mut line = String::new();
    for (_, out) in &mut workers.0 {
        line.clear();
        out.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "ready", "a worker failed to set up");
    }
    let t0 = Instant::now();
    for (child, _) in &mut workers.0 {
        child.stdin.as_mut().unwrap().write_all(b"go\n").unwrap();
    }
    for (child, out) in &mut workers.0 {
        line.clear();
        out.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "done", "a worker failed");
        let _ = child.stdin.take();
    }
    let secs = t0.elapsed().as_secs_f64();
    for (child, _) in &mut workers.0 {
        assert!(child.wait().unwrap().success());
    }
    (games * per_game) as f64 / secs
}

/// `pgbench -N` (simple updates: one row updated, one inserted, per durable transaction)
/// with `clients` clients for `secs` seconds; its tps.
fn pgbench(server: &pg::PgServer, db: &str, clients: usize, secs: u32) -> f64 {
    let bin = server.bin("pgbench").expect("pgbench of the test server");
    let dir = server.dir().expect("a server started by the bench");
    let common = |c: &mut std::process::Command| {
        c.arg("-h").arg(dir).args(["-U", "cajitas"]);
    };
    let mut init = std::process::Command::new(&bin);
    common(&mut init);
    let out = init.args(["-i", "-q", "-s", "1", db]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut run = std::process::Command::new(&bin);
    common(&mut run);
    let out = run
        .args(["-N", "-n", "-M", "prepared", "-c", &clients.to_string()])
        .args(["-j", &clients.to_string(), "-T", &secs.to_string(), db])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("tps = "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no tps in pgbench's output:\n{text}"))
}

/// A deployment of the bot for the open loop.
#[derive(Clone, Copy)]
enum Deployment {
    /// One process on a SQLite file (the default).
    Sqlite,
    /// One process on PostgreSQL.
    Postgres,
    /// Two processes on PostgreSQL, shards `0-0/2` and `1-1/2`, the games' guilds on both.
    PostgresTwoShards,
}

impl Deployment {
    fn label(self) -> &'static str {
        match self {
            Deployment::Sqlite => "SQLite, 1 process",
            Deployment::Postgres => "PostgreSQL, 1 process",
            Deployment::PostgresTwoShards => "PostgreSQL, 2 processes",
        }
    }
}

/// The open-loop latencies (100 moves/s over [`GAMES`] games, `seconds`) of the real bot
/// through the fake Discord, deployed as `d` with the shipped log filter.
async fn open_loop(server: &'static pg::PgServer, d: Deployment, seconds: u64) -> Vec<Duration> {
    let fake = FakeDiscord::start(5_000).await;
    fake.keep_files(false);
    let dir = TempDir::new("pg-open-loop");
    let db = server.database("openloop");
    let bot = |n: usize, env: Vec<(&'static str, String)>| {
        let mut env = env;
        // An empty value removes the variable: the bot runs with its shipped default.
        env.push(("RUST_LOG", String::new()));
        Bot::start(BotOptions {
            api_base: &fake.base,
            db: &dir.path().join("cajitas.db"),
            log: dir.path().join(format!("bot-{n}.log")),
            env,
        })
    };
    let (bots, guilds): (Vec<Bot>, Vec<u64>) = match d {
        Deployment::Sqlite => (vec![bot(0, vec![])], vec![]),
        Deployment::Postgres => (vec![bot(0, vec![("CAJITAS_DB", db.url.clone())])], vec![]),
        Deployment::PostgresTwoShards => (
            ["0-0/2", "1-1/2"]
                .iter()
                .enumerate()
                .map(|(n, shards)| {
                    bot(
                        n,
                        vec![
                            ("CAJITAS_DB", db.url.clone()),
                            ("CAJITAS_SHARDS", (*shards).to_owned()),
                        ],
                    )
                })
                .collect(),
            // A guild on each shard ((guild_id >> 22) % 2).
            vec![100 << 22, 101 << 22],
        ),
    };
    fake.wait_ready(bots.len()).await;
    let mut games = support::games(&guilds);
    support::setup(&fake, &mut games).await;
    let lat = support::open_loop(&fake, &mut games, 100, seconds).await;
    drop(bots);
    lat
}

fn main() {
    if let Ok(spec) = std::env::var(WORKER) {
        return worker(&spec);
    }
    let quick = std::env::args().any(|a| a == "--quick");
    let server = match pg::server() {
        Ok(s) => s,
        Err(why) => {
            println!("postgres bench skipped: no PostgreSQL server ({why})");
            return;
        }
    };
    let (rounds, per_game, secs) = if quick { (1, 10, 3) } else { (3, 30, 5) };
    const GAMES: usize = 100;
    println!("games: {GAMES}, moves per game per round: {per_game}, rounds: {rounds} (medians)");
    println!(
        "{:<10} {:>9} {:>12} {:>22} {:>8}",
        "backend", "processes", "moves/s", "pgbench -N tps (same)", "ratio"
    );
    for processes in [1usize, 2] {
        let mut moves = Vec::new();
        let mut tps = Vec::new();
        for round in 0..rounds {
            let db = server.database(&format!("bench{processes}{round}"));
            moves.push(moves_per_s(&db.url, processes, GAMES, per_game, 1_000_000));
            let bench_db = server.database(&format!("pgbench{processes}{round}"));
            let name = bench_db
                .url
                .split('/')
                .nth(3)
                .unwrap()
                .split('?')
                .next()
                .unwrap()
                .to_owned();
            tps.push(pgbench(server, &name, processes, secs));
        }
        let (m, t) = (median(moves), median(tps));
        println!(
            "{:<10} {:>9} {:>12.0} {:>22.0} {:>7.0}%",
            "postgres",
            processes,
            m,
            t,
            100.0 * m / t
        );
    }
    let mut moves = Vec::new();
    for round in 0..rounds {
        let dir = std::env::temp_dir().join(format!(
            "cajitas-pgbench-sqlite-{}-{round}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let svc = GameService::open_db(
            &Database::Sqlite(dir.join("b.db")),
            ServiceOptions::default(),
        )
        .unwrap();
        moves.push(parallel_moves_per_s(&[svc], GAMES, per_game, 1_000_000));
        let _ = std::fs::remove_dir_all(&dir);
    }
    println!(
        "{:<10} {:>9} {:>12.0} {:>22} {:>8}",
        "sqlite",
        1,
        median(moves),
        "-",
        "-"
    );

    // The bot itself, through the fake Discord: open-loop latency of each deployment.
    let seconds = if quick { 5 } else { 10 };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let deployments = [
        Deployment::Sqlite,
        Deployment::Postgres,
        Deployment::PostgresTwoShards,
    ];
    let lats: Vec<Vec<Duration>> = deployments
        .iter()
        .map(|&d| rt.block_on(open_loop(server, d, seconds)))
        .collect();
    println!();
    println!(
        "the bot through the fake Discord, open loop: 100 moves/s over {GAMES} games for {seconds} s \
         (interaction sent -> callback received)"
    );
    println!(
        "{:<24} {:>22} {:>22} {:>24}",
        "",
        deployments[0].label(),
        deployments[1].label(),
        deployments[2].label()
    );
    for (label, p) in [
        ("p50 (target <= 5 ms)", 0.5),
        ("p99 (target <= 25 ms)", 0.99),
        ("max", 1.0),
    ] {
        println!(
            "{:<24} {:>22} {:>22} {:>24}",
            label,
            ms(percentile(&lats[0], p)),
            ms(percentile(&lats[1], p)),
            ms(percentile(&lats[2], p)),
        );
    }
}
