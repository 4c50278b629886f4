//! Moves per second through the game service on a real SQLite file (WAL + synchronous=FULL),
//! beside the raw SQLite commit rate measured in the same run.
//!
//! `cargo bench --bench service` (add `-- --quick` for a short run). Each figure is the median
//! of several rounds. Every move is one durable transaction (an fsync), so the raw commit rate
//! of the disk is the ceiling; the ratio says how much of it the service keeps.

#[path = "support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cajitas::game::{GameService, ServiceOptions};
use support::{Table, median};

fn fresh_dir(base: &Path, tag: &str) -> PathBuf {
    let dir = base.join(format!("cajitas-bench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The raw commit rate of SQLite on this machine: opens (creating it) a database at `path`
/// with the store's settings (WAL, `synchronous=FULL`, foreign keys, busy timeout) and commits
/// `n` one-row `BEGIN IMMEDIATE` transactions into a table shaped like the store's handled
/// interactions (a `WITHOUT ROWID` key and an index on the time). Returns commits per second.
fn raw_commits_per_s(path: &Path, n: u64) -> f64 {
    use rusqlite::{Connection, TransactionBehavior, params};
    let mut conn = Connection::open(path).unwrap();
    conn.busy_timeout(cajitas::store::sqlite::BUSY_TIMEOUT)
        .unwrap();
    let _mode: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .unwrap();
    conn.pragma_update(None, "synchronous", "FULL").unwrap();
    conn.pragma_update(None, "foreign_keys", "ON").unwrap();
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS commits (id INTEGER PRIMARY KEY, at INTEGER NOT NULL)
             WITHOUT ROWID;
         CREATE INDEX IF NOT EXISTS commits_at ON commits (at);",
    )
    .unwrap();
    let base: i64 = conn
        .query_row("SELECT coalesce(max(id), 0) FROM commits", [], |r| r.get(0))
        .unwrap();
    let t0 = Instant::now();
    for i in 1..=n as i64 {
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .unwrap();
        tx.prepare_cached(
            "INSERT INTO commits (id, at) VALUES (?1, ?2) ON CONFLICT (id) DO NOTHING",
        )
        .unwrap()
        .execute(params![base + i, 0])
        .unwrap();
        tx.commit().unwrap();
    }
    n as f64 / t0.elapsed().as_secs_f64()
}

fn sequential_moves_per_s(svc: &GameService, channel: u64, n: usize, seed: u64) -> f64 {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut table = Table::new(svc, channel, &mut rng);
    let mut total = Duration::ZERO;
    for _ in 0..n {
        total += table.step(svc);
    }
    n as f64 / total.as_secs_f64()
}

fn parallel_moves_per_s(svc: &GameService, games: usize, per_game: usize) -> f64 {
    let base = 1_000_000 + fastrand::u64(..1_000_000) * 1000;
    // Two worker threads on one service.
    support::parallel_moves_per_s(&[svc.clone(), svc.clone()], games, per_game, base)
}

/// Medians of (raw commits/s, sequential moves/s, parallel moves/s) with the files in `base`.
fn measure(base: &Path, quick: bool) -> (f64, f64, f64) {
    let (rounds, raw_n, seq_n, per_game) = if quick {
        (3, 300, 300, 3)
    } else {
        (5, 1000, 1000, 10)
    };
    let dir = fresh_dir(base, "service");
    let svc = GameService::open(&dir.join("service.db"), ServiceOptions::default()).unwrap();
    let mut raw = Vec::new();
    let mut seq = Vec::new();
    let mut par = Vec::new();
    for round in 0..rounds {
        // Interleaved, so that a noisy moment of the shared machine hits all three alike.
        raw.push(raw_commits_per_s(&dir.join("raw.db"), raw_n));
        seq.push(sequential_moves_per_s(
            &svc,
            1 + round as u64,
            seq_n,
            round as u64,
        ));
        par.push(parallel_moves_per_s(&svc, 100, per_game));
    }
    drop(svc);
    let _ = std::fs::remove_dir_all(&dir);
    (median(raw), median(seq), median(par))
}

fn report(label: &str, (raw, seq, par): (f64, f64, f64)) {
    println!("{label}");
    println!(
        "  {:<46} {:>9.0} commits/s   (peer: 100%)",
        "raw SQLite: one-row IMMEDIATE commits", raw
    );
    println!(
        "  {:<46} {:>9.0} moves/s     ({:.0}% of raw)",
        "service: one game, sequential",
        seq,
        100.0 * seq / raw
    );
    println!(
        "  {:<46} {:>9.0} moves/s     ({:.0}% of raw)",
        "service: 100 games, 2 worker threads",
        par,
        100.0 * par / raw
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 3 } else { 5 };
    println!(
        "game service benchmark: WAL + synchronous=FULL, every move one durable commit; medians of {rounds} rounds"
    );
    let disk = std::env::var_os("CAJITAS_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    report(
        &format!("on disk ({}):", disk.display()),
        measure(&disk, quick),
    );
    // The same on a RAM file system, where fsync costs nothing: the service's own CPU cost.
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        report(
            "in RAM (/dev/shm, fsync is free: the service's CPU ceiling):",
            measure(shm, quick),
        );
    }
    println!("target: >= 2000 moves/s and >= 50% of the raw commit rate (on disk)");
}
