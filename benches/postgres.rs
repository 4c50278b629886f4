//! Moves per second through the game service on PostgreSQL, with 1 and 2 "processes" (each its
//! own service and store, so its own connections, as separate processes have), 100 games,
//! beside `pgbench -N` (simple updates) with the same number of clients on the same server in
//! the same run; and the same service on SQLite in one process, as the baseline.
//!
//! `cargo bench --bench postgres` (add `-- --quick` for a short run). The server is a
//! throwaway one started from the machine's PostgreSQL binaries (`fsync` on), as in the tests.

#[path = "../tests/support/postgres.rs"]
mod pg;

use std::sync::{Arc, Barrier};
use std::time::Instant;

use cajitas::game::{ChannelRef, ColourChoice, GameService, Lang, ServiceOptions, UserRef};
use cajitas::store::{Database, PostgresStore};
use cajitas_rules::{Position, san};

fn random_script(rng: &mut fastrand::Rng, max_plies: usize) -> Vec<String> {
    let mut pos = Position::new();
    let mut out = Vec::new();
    while out.len() < max_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.usize(..legal.len())];
        out.push(san(&pos, m).to_string());
        pos.play(m);
    }
    out
}

fn players() -> (UserRef, UserRef) {
    (
        UserRef::new(1, "alice", false),
        UserRef::new(2, "bob", false),
    )
}

fn start(svc: &GameService, ch: ChannelRef) {
    let (a, b) = players();
    svc.challenge(&a, ch, None, ColourChoice::White).unwrap();
    svc.accept(&b, ch).unwrap();
}

struct Table {
    ch: ChannelRef,
    script: Vec<String>,
    next: usize,
}

impl Table {
    fn new(svc: &GameService, channel: u64, rng: &mut fastrand::Rng) -> Table {
        let ch = ChannelRef {
            guild: Some(1),
            channel,
        };
        start(svc, ch);
        Table {
            ch,
            script: random_script(rng, 120),
            next: 0,
        }
    }

    fn step(&mut self, svc: &GameService) {
        let (a, b) = players();
        let who = if self.next.is_multiple_of(2) { &a } else { &b };
        let r = svc
            .play_move(who, self.ch, &self.script[self.next], Lang::En, false)
            .unwrap_or_else(|e| panic!("{}: {e}", self.script[self.next]));
        self.next += 1;
        if r.view.finished || self.next == self.script.len() {
            if !r.view.finished {
                svc.resign(&a, self.ch, None).unwrap();
            }
            start(svc, self.ch);
            self.next = 0;
        }
    }
}

/// Moves per second with `services` services (one thread each) sharing `games` games.
fn moves_per_s(services: &[GameService], games: usize, per_game: usize, base: u64) -> f64 {
    let mut rng = fastrand::Rng::with_seed(7);
    let n = services.len();
    let mut tables: Vec<Vec<Table>> = (0..n).map(|_| Vec::new()).collect();
    for g in 0..games {
        tables[g % n].push(Table::new(&services[g % n], base + g as u64, &mut rng));
    }
    let barrier = Arc::new(Barrier::new(n + 1));
    let handles: Vec<_> = tables
        .into_iter()
        .zip(services.iter().cloned())
        .map(|(mut mine, svc)| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                for _ in 0..per_game {
                    for t in mine.iter_mut() {
                        t.step(&svc);
                    }
                }
            })
        })
        .collect();
    barrier.wait();
    let t0 = Instant::now();
    for h in handles {
        h.join().unwrap();
    }
    (games * per_game) as f64 / t0.elapsed().as_secs_f64()
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

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
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
            let services: Vec<GameService> = (0..processes)
                .map(|_| {
                    GameService::with_store(
                        Box::new(PostgresStore::open(&db.url).unwrap()),
                        ServiceOptions::default(),
                    )
                })
                .collect();
            moves.push(moves_per_s(&services, GAMES, per_game, 1_000_000));
            drop(services);
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
        moves.push(moves_per_s(&[svc], GAMES, per_game, 1_000_000));
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
}
