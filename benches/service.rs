//! Moves per second through the game service on a real SQLite file (WAL + synchronous=FULL),
//! beside the raw SQLite commit rate measured in the same run.
//!
//! `cargo bench --bench service` (add `-- --quick` for a short run). Each figure is the median
//! of several rounds. Every move is one durable transaction (an fsync), so the raw commit rate
//! of the disk is the ceiling; the ratio says how much of it the service keeps. The sequential
//! game also reports its thread's CPU time per move, which a busy shared machine does not
//! inflate: the figure to compare builds with (`-- --ram` or `-- --disk` runs one half).
//!
//! The move's cost before clocks and since, measured side by side (CPU time per move in RAM,
//! 2026-11-30; the README's "Clocks at scale" has the tables): 24.4 µs before clocks (3ec2b2e),
//! 41.0 µs with clocks (370f8a0), 32.4 µs with the pending event in the games row and 256
//! prepared statements (migration 0010); then, beside 3ec2b2e at 23.2 µs, 22.4–22.8 µs with the
//! cached game no longer copied per operation and the next event in the move's own UPDATE.

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

/// This thread's CPU time so far (Linux: `/proc/thread-self/schedstat`, nanoseconds on a
/// CPU); `None` where the file does not exist. The kernel updates it at scheduler events, so
/// only a long stretch of work is timed by it.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// One game after another in one thread: (moves per second of the moves' wall time, CPU
/// time per move in µs). The CPU time is the thread's over the whole run, so it includes the
/// game starts and resignations (one every ~60 moves): it leaves out what the wall time
/// holds of other processes on a shared machine and of waiting for the disk.
fn sequential_moves(svc: &GameService, channel: u64, n: usize, seed: u64) -> (f64, f64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut table = Table::new(svc, channel, &mut rng);
    let mut total = Duration::ZERO;
    let cpu0 = thread_cpu();
    for _ in 0..n {
        total += table.step(svc);
    }
    let cpu = match (cpu0, thread_cpu()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => total,
    };
    (
        n as f64 / total.as_secs_f64(),
        cpu.as_secs_f64() * 1e6 / n as f64,
    )
}

fn parallel_moves_per_s(svc: &GameService, games: usize, per_game: usize) -> f64 {
    let base = 1_000_000 + fastrand::u64(..1_000_000) * 1000;
    // Two worker threads on one service.
    support::parallel_moves_per_s(&[svc.clone(), svc.clone()], games, per_game, base)
}

/// Medians of (raw commits/s, sequential moves/s, sequential CPU µs per move, parallel
/// moves/s) with the files in `base`; `seq_n` moves per sequential round.
fn measure(base: &Path, quick: bool, seq_n: usize) -> (f64, f64, f64, f64) {
    let (rounds, raw_n, per_game) = if quick { (3, 300, 3) } else { (5, 1000, 10) };
    let seq_n = if quick { seq_n / 3 } else { seq_n };
    let dir = fresh_dir(base, "service");
    let svc = GameService::open(&dir.join("service.db"), ServiceOptions::default()).unwrap();
    let mut raw = Vec::new();
    let mut seq = Vec::new();
    let mut cpu = Vec::new();
    let mut par = Vec::new();
    for round in 0..rounds {
        // Interleaved, so that a noisy moment of the shared machine hits all three alike.
        raw.push(raw_commits_per_s(&dir.join("raw.db"), raw_n));
        let (rate, us) = sequential_moves(&svc, 1 + round as u64, seq_n, round as u64);
        seq.push(rate);
        cpu.push(us);
        par.push(parallel_moves_per_s(&svc, 100, per_game));
    }
    drop(svc);
    let _ = std::fs::remove_dir_all(&dir);
    (median(raw), median(seq), median(cpu), median(par))
}

fn report(label: &str, (raw, seq, cpu, par): (f64, f64, f64, f64)) {
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
        "  {:<46} {:>9.1} µs CPU   ({:.1} µs wall)",
        "  the same, per move",
        cpu,
        1e6 / seq
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
    // `--ram` or `--disk` runs only one half (to alternate builds side by side).
    let only_ram = std::env::args().any(|a| a == "--ram");
    let only_disk = std::env::args().any(|a| a == "--disk");
    if !only_ram {
        report(
            &format!("on disk ({}):", disk.display()),
            measure(&disk, quick, 1000),
        );
    }
    // The same on a RAM file system, where fsync costs nothing: the service's own CPU cost.
    // Ten times the moves, for the CPU clock's coarse steps.
    let shm = Path::new("/dev/shm");
    if shm.is_dir() && !only_disk {
        report(
            "in RAM (/dev/shm, fsync is free: the service's CPU ceiling):",
            measure(shm, quick, 10_000),
        );
    }
    println!("target: >= 2000 moves/s and >= 50% of the raw commit rate (on disk)");
}
