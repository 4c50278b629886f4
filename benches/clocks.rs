//! The clocks at scale: `cargo bench --bench clocks` (add `-- --quick` for a short run, and
//! `scale` or `burst` for only that part).
//!
//! - 100,000 games with deadlines spread over two weeks, stored on a real SQLite file (WAL,
//!   `synchronous=FULL`).
//! - The next event: the time of one `next_due` at 1,000, 10,000 and 100,000 pending events
//!   (flat: one walk down the `games_event_due` index, O(log n)), with SQLite's query plan.
//! - Idle: the scheduler thread over those 100,000 games with nothing due for the next hour:
//!   its wake-ups per second and the process's CPU time while it sleeps.
//! - 10,000 timeouts due at once: every game ended in the database and its post (the real
//!   Discord notifier: embed, PNG board, nonce) delivered to a fake Discord on loopback that
//!   answers at once (target: at most 10 s).
//!
//! A move's cost with the clock bookkeeping is `cargo bench --bench service` (its games are
//! 3 days per move, the default), compared with the figure before clocks in the README.

#[path = "../tests/support/fake_discord.rs"]
mod fake_discord;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cajitas::discord::DiscordNotifier;
use cajitas::game::{
    Clock, DAY_MS, EventScope, GameService, ManualClock, Scheduler, ServiceOptions, SystemClock,
};
use cajitas::render::{PieceSource, Renderer};
use cajitas::store::{
    ClockKind, ClockRow, EventKind, MoveRow, NewGame, SqliteStore, StoreExt, TimeControlRow,
    UserRow,
};
use cajitas_rules::{Position, Uci};
use poise::serenity_prelude as serenity;

const WHITE: u64 = 900_000_000_000_000_001;
const BLACK: u64 = 900_000_000_000_000_002;
const FIRST_CHANNEL: u64 = 1_200_000_000_000_000_000;
const LIVE: TimeControlRow = TimeControlRow {
    kind: ClockKind::Live,
    base_ms: 180_000,
    inc_ms: 2_000,
};

fn fresh_dir(tag: &str) -> PathBuf {
    let base = std::env::var_os("CAJITAS_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join(format!("cajitas-bench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The position after 1. e4 e5 and its two moves.
fn opening() -> (String, Vec<MoveRow>, String) {
    let mut pos = Position::new();
    let mut moves = Vec::new();
    let mut fens = Vec::new();
    for (ply, (uci, san, user)) in [("e2e4", "e4", WHITE), ("e7e5", "e5", BLACK)]
        .into_iter()
        .enumerate()
    {
        let m = uci.parse::<Uci>().unwrap().to_move(&pos).unwrap();
        pos.play(m);
        moves.push(MoveRow {
            ply: ply as u32,
            uci: uci.into(),
            san: san.into(),
            user_id: user,
            played_at: 0,
        });
        fens.push(pos.fen());
    }
    (Position::new().fen(), moves, fens.pop().unwrap())
}

/// Adds games `from..to` (one channel each) after 1. e4 e5, white to move on a 3+2 clock
/// whose deadline is `deadline(i)`, with their timeout events; one transaction per 10,000.
fn add_games(store: &mut SqliteStore, from: u64, to: u64, now: i64, deadline: impl Fn(u64) -> i64) {
    let (start, moves, fen) = opening();
    let mut i = from;
    while i < to {
        let end = (i + 10_000).min(to);
        store
            .immediate(|tx| {
                for (id, name) in [(WHITE, "alice"), (BLACK, "bob")] {
                    let u = UserRow {
                        id,
                        name: name.into(),
                        is_bot: false,
                    };
                    tx.upsert_user(&u, now)?;
                }
                for k in i..end {
                    let channel = FIRST_CHANNEL + k;
                    let due = deadline(k);
                    let clock = ClockRow {
                        white_ms: 180_000,
                        black_ms: 180_000,
                        clock_at: Some(now),
                        deadline: Some(due),
                        seq: 0,
                    };
                    let game = tx.insert_game(&NewGame {
                        chess960: None,
                        guild: Some(1),
                        channel,
                        white: WHITE,
                        black: BLACK,
                        start_fen: &start,
                        now,
                        lang: "en",
                        thread: None,
                        rated: false,
                        tc: LIVE,
                        clock,
                    })?;
                    tx.append_move(game, 0, &moves[0], "-", &clock, None)?;
                    tx.append_move(game, 1, &moves[1], &fen, &clock, None)?;
                    tx.schedule_event(game, channel, 2, EventKind::Timeout, due)?;
                }
                Ok::<_, cajitas::store::StoreError>(())
            })
            .unwrap();
        i = end;
    }
}

/// The mean time of one `next_due(scope)`, over `n` calls.
fn next_due_cost(svc: &GameService, scope: EventScope, n: u32) -> Duration {
    let t0 = Instant::now();
    for _ in 0..n {
        std::hint::black_box(svc.clocks().next_due(scope).unwrap());
    }
    t0.elapsed() / n
}

/// The process's CPU time so far (user + system), from /proc.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // Linux's USER_HZ is 100.
    Some(Duration::from_millis(ticks * 10))
}

fn query_plans(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    for (label, sql) in [
        (
            "every channel",
            "SELECT event_due FROM games WHERE event_due IS NOT NULL AND 0 IS NOT NULL ORDER BY event_due LIMIT 1",
        ),
        (
            "all but one channel (cajitas run)",
            "SELECT event_due FROM games WHERE event_due IS NOT NULL AND channel_id <> -6584509259560091416 ORDER BY event_due LIMIT 1",
        ),
        (
            "one channel (cajitas local)",
            "SELECT event_due FROM games INDEXED BY games_event_due_local WHERE event_due IS NOT NULL AND channel_id = -6584509259560091416 AND 0 IS NOT NULL ORDER BY event_due LIMIT 1",
        ),
    ] {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let plan: Vec<String> = stmt
            .query_map([], |r| r.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        println!("    plan, {label}: {}", plan.join("; "));
    }
}

fn scale(quick: bool) {
    let n: u64 = if quick { 20_000 } else { 100_000 };
    let dir = fresh_dir("clocks-scale");
    let db = dir.join("clocks.db");
    let now = SystemClock.now_ms();
    let hour = 3_600_000;
    // Deadlines from an hour from now to two weeks from now, spread evenly.
    let spread = move |k: u64| now + hour + (k as i64 * (14 * DAY_MS - hour)) / n as i64;
    let mut store = SqliteStore::open(&db).unwrap();
    println!("next event, one call (mean of 2,000), as the pending events grow:");
    let mut stored = 0;
    let t_all = Instant::now();
    for size in [1_000, 10_000, n] {
        add_games(&mut store, stored, size, now, spread);
        stored = size;
        let svc = GameService::open(&db, ServiceOptions::default()).unwrap();
        let all = next_due_cost(&svc, EventScope::All, 2_000);
        let local_ch = cajitas::store::LOCAL_CHANNEL_ID;
        let run = next_due_cost(&svc, EventScope::Except(local_ch), 2_000);
        let local = next_due_cost(&svc, EventScope::Only(local_ch), 2_000);
        println!(
            "  {size:>7} games: every channel {:>6.1} µs, all but `local` {:>6.1} µs, only `local` {:>6.1} µs",
            all.as_secs_f64() * 1e6,
            run.as_secs_f64() * 1e6,
            local.as_secs_f64() * 1e6
        );
    }
    println!(
        "  ({n} games with their moves and events stored in {:.1} s, in batches of 10,000)",
        t_all.elapsed().as_secs_f64()
    );
    drop(store);
    query_plans(&db);

    // Idle: nothing due for the next hour.
    let svc = GameService::open(&db, ServiceOptions::default()).unwrap();
    let scheduler = Scheduler::start(svc.clone(), EventScope::Except(7));
    let t0 = Instant::now();
    while scheduler.planned().is_none() {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the scheduler never slept"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let start_round = t0.elapsed();
    let idle = Duration::from_secs(if quick { 3 } else { 10 });
    let (w0, c0) = (scheduler.wakeups(), cpu_time());
    std::thread::sleep(idle);
    let (w1, c1) = (scheduler.wakeups(), cpu_time());
    println!(
        "idle over {n} games ({:.0} s, first deadline in an hour): {} wake-ups ({:.2}/s), process CPU {} ms; the start (adopting and catching up) took {} ms",
        idle.as_secs_f64(),
        w1 - w0,
        (w1 - w0) as f64 / idle.as_secs_f64(),
        match (c0, c1) {
            (Some(a), Some(b)) => (b - a).as_millis().to_string(),
            _ => "?".into(),
        },
        start_round.as_millis()
    );
    scheduler.stop();
    drop(svc);
    let _ = std::fs::remove_dir_all(&dir);
}

fn burst(quick: bool) {
    let n: u64 = if quick { 2_000 } else { 10_000 };
    let dir = fresh_dir("clocks-burst");
    let db = dir.join("burst.db");
    let t = 1_800_000_000_000;
    let mut store = SqliteStore::open(&db).unwrap();
    add_games(&mut store, 0, n, t, |_| t + 180_000);
    drop(store);

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let fake = rt.block_on(fake_discord::FakeDiscord::start(41_250));
    fake.keep_files(false);
    let http = serenity::HttpBuilder::new("MTAw.fake00.fakefakefake")
        .proxy(fake.base.as_str())
        .ratelimiter_disabled(true)
        .build();
    // The shipped pieces, unless `CAJITAS_PIECES` names others (as the bot reads it): the
    // same burst drawn with the DejaVu glyphs tells the piece set's share of its cost.
    let renderer: &'static Renderer =
        match PieceSource::from_setting(std::env::var_os("CAJITAS_PIECES").as_deref()) {
            PieceSource::Cajitas => cajitas::render::default_renderer(),
            other => Box::leak(Box::new(Renderer::with_pieces(&other).expect("the pieces"))),
        };
    let notifier = Arc::new(DiscordNotifier::new(
        Arc::new(http),
        renderer,
        rt.handle().clone(),
    ));
    let clock = Arc::new(ManualClock::new(t + 180_000));
    let opts = ServiceOptions {
        notifier,
        ..ServiceOptions::with_clock(clock)
    };
    let svc = GameService::open(&db, opts).unwrap();
    // The renderer's sprites are made once, at the first board.
    renderer
        .prepare(&cajitas::render::RenderOptions::default())
        .unwrap();
    let t0 = Instant::now();
    let round = svc.clocks().run_round(EventScope::All).unwrap();
    let elapsed = t0.elapsed();
    let posts = fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.starts_with("/channels/") && r.status == 200)
        .count();
    let ended = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT COUNT(*) FROM games WHERE status = 'finished' AND termination = 'timeout'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .unwrap();
    println!(
        "{n} timeouts due at once: {} claimed, {ended} games ended on time in the database, {} posts delivered ({posts} received by the fake), {} failed, in {:.2} s ({:.0} timeouts/s; target: 10,000 in <= 10 s)",
        round.claimed,
        round.posted,
        round.failed,
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64()
    );
    assert_eq!(ended as u64, n);
    assert_eq!(posts as u64, n);
    drop(svc);
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    // `scale`, `burst`: only those parts (both without either).
    let only: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| matches!(*a, "scale" | "burst"))
        .collect();
    let part = |name: &str| only.is_empty() || only.contains(&name);
    println!("clocks benchmark (WAL + synchronous=FULL on a file)");
    if part("scale") {
        scale(quick);
    }
    if part("burst") {
        burst(quick);
    }
}
