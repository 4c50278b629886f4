//! Ratings: the leaderboard and the caller's rank among 100,000 rated players of one server,
//! the end of a rated game beside the end of an unrated one (today's cost of ending a game),
//! and the rating chart of 1,000 rated games.
//!
//! `cargo bench --bench ratings` (add `-- --quick` for a short run). Figures are medians.
//! Targets: leaderboard page 1 ≤ 5 ms and the rank ≤ 5 ms (each), a rated game's end
//! within 10% of an unrated one's, the chart ≤ 5 ms.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cajitas::game::ratings::Speed;
use cajitas::game::{
    ChannelRef, ColourChoice, GameService, Lang, ManualClock, ServiceOptions, UserRef,
};
use cajitas::render::chart::{Chart, ChartPoint, ChartSeries, rating_chart};
use cajitas::store::{RatingRow, SqliteStore, StoreExt, UserRow};

const GUILD: u64 = 4242;
const PLAYERS: u64 = 100_000;

fn fresh_dir(base: &Path, tag: &str) -> PathBuf {
    let dir = base.join(format!(
        "cajitas-bench-ratings-{tag}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// This thread's CPU time so far (Linux: `/proc/thread-self/schedstat`, nanoseconds on a
/// CPU), to tell the work from the waiting on a busy machine. It moves at scheduler events
/// only, so it is read around many calls, never one short call.
fn cpu_now() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The mean CPU time per call of the last [`time`] (0 when unknown).
static CPU_PER_CALL_NS: AtomicU64 = AtomicU64::new(0);

fn last_cpu() -> String {
    let ns = CPU_PER_CALL_NS.load(Ordering::Relaxed);
    format!("{:.3} ms CPU", ns as f64 / 1e6)
}

/// The median wall time of `n` calls; the mean CPU time per call goes to [`last_cpu`].
fn time<T>(n: usize, mut f: impl FnMut(usize) -> T) -> Duration {
    let mut times = Vec::with_capacity(n);
    let cpu0 = cpu_now();
    for i in 0..n {
        let t0 = Instant::now();
        std::hint::black_box(f(i));
        times.push(t0.elapsed());
    }
    let per_call = match (cpu0, cpu_now()) {
        (Some(a), Some(b)) => (b - a).as_nanos() as u64 / n as u64,
        _ => 0,
    };
    CPU_PER_CALL_NS.store(per_call, Ordering::Relaxed);
    median(times)
}

/// 100,000 ranked players in one server (and 20,000 unranked ones), in one transaction.
fn fill(db: &Path) {
    let mut store = SqliteStore::open(db).unwrap();
    let mut rng = fastrand::Rng::with_seed(17);
    store
        .immediate(|tx| {
            for i in 0..PLAYERS + 20_000 {
                let id = 1_000_000 + i;
                tx.upsert_user(
                    &UserRow {
                        id,
                        name: format!("player{i}"),
                        is_bot: false,
                    },
                    0,
                )?;
                let ranked = i < PLAYERS;
                tx.put_rating(&RatingRow {
                    pool: GUILD as i64,
                    speed: Speed::Live,
                    user_id: id,
                    rating: 800.0 + rng.f64() * 2000.0,
                    deviation: if ranked {
                        45.0 + rng.f64() * 60.0
                    } else {
                        300.0
                    },
                    volatility: 0.06,
                    games: if ranked { 5 + rng.u32(..200) } else { 2 },
                    rated_at: 1_800_000_000_000,
                })?;
            }
            Ok::<_, cajitas::store::StoreError>(())
        })
        .unwrap();
}

fn leaderboard(base: &Path, quick: bool) {
    let dir = fresh_dir(base, "leaderboard");
    let db = dir.join("ratings.db");
    let t0 = Instant::now();
    fill(&db);
    println!(
        "  filled {PLAYERS} ranked players (+20,000 unranked) in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    let n = if quick { 50 } else { 300 };
    let mut store = SqliteStore::open(&db).unwrap();
    let pool = GUILD as i64;
    // The lowest-rated ranked player: the rank counts every other ranked player.
    let (worst, best) = store
        .read(|tx| {
            let total = tx.ranked_count(pool, Speed::Live)?;
            let last = tx.leaderboard(pool, Speed::Live, total - 1, 1)?;
            let first = tx.leaderboard(pool, Speed::Live, 0, 1)?;
            Ok::<_, cajitas::store::StoreError>((last[0].0.clone(), first[0].0.clone()))
        })
        .unwrap();
    let page = time(n, |_| {
        store
            .read(|tx| tx.leaderboard(pool, Speed::Live, 0, 10))
            .unwrap()
    });
    let page_cpu = last_cpu();
    let rank_worst = time(n, |_| store.read(|tx| tx.players_above(&worst)).unwrap());
    let rank_worst_cpu = last_cpu();
    let rank_best = time(n, |_| store.read(|tx| tx.players_above(&best)).unwrap());
    let count = time(n, |_| {
        store.read(|tx| tx.ranked_count(pool, Speed::Live)).unwrap()
    });
    let count_cpu = last_cpu();
    drop(store);
    let svc = GameService::open(&db, ServiceOptions::default()).unwrap();
    let place = ChannelRef {
        guild: Some(GUILD),
        channel: 1,
    };
    // The whole /leaderboard read: page 1, the page count, and the caller's rank (the
    // worst case: the caller is last).
    let whole = time(n, |_| {
        svc.leaderboard(place, Speed::Live, 0, worst.user_id, None)
            .unwrap()
    });
    let whole_cpu = last_cpu();
    println!(
        "  leaderboard page 1 (10 players):       {:7.3} ms wall, {page_cpu} (target <= 5 ms)",
        ms(page)
    );
    println!(
        "  caller's rank, last of 100,000:         {:7.3} ms wall, {rank_worst_cpu} (target <= 5 ms)",
        ms(rank_worst)
    );
    println!(
        "  caller's rank, first:                   {:7.3} ms wall",
        ms(rank_best)
    );
    println!(
        "  ranked players (page count):            {:7.3} ms wall, {count_cpu}",
        ms(count)
    );
    println!(
        "  the whole /leaderboard read (page 1, page count, rank of the last): {:.3} ms wall, {whole_cpu}",
        ms(whole)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The end of a game (a resignation after 2. Nf3 Nc6) rated or not, alternating, on a real
/// file: medians of `n` of each.
fn game_end(base: &Path, quick: bool) {
    let dir = fresh_dir(base, "end");
    let clock = Arc::new(ManualClock::new(1_800_000_000_000));
    let svc = GameService::open(
        &dir.join("games.db"),
        ServiceOptions::with_clock(clock.clone()),
    )
    .unwrap();
    let n = if quick { 40 } else { 200 };
    let users: Vec<UserRef> = (0..20)
        .map(|i| UserRef::new(10 + i, &format!("p{i}"), false))
        .collect();
    let (mut rated, mut casual) = (Vec::new(), Vec::new());
    for i in 0..2 * n {
        let ch = ChannelRef {
            guild: Some(GUILD),
            channel: 100 + (i % 7) as u64,
        };
        let (w, b) = (&users[i % 20], &users[(i * 7 + 3) % 20]);
        let (w, b) = if w == b {
            (w, &users[(i + 1) % 20])
        } else {
            (w, b)
        };
        let is_rated = i % 2 == 0;
        svc.challenge_rated(w, ch, None, ColourChoice::White, is_rated)
            .unwrap();
        svc.accept(b, ch).unwrap();
        for (j, m) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
            svc.play_move(if j % 2 == 0 { w } else { b }, ch, m, Lang::En, false)
                .unwrap();
        }
        clock.advance(Duration::from_secs(3600));
        let t0 = Instant::now();
        let v = svc.resign(w, ch, None).unwrap();
        let dt = t0.elapsed();
        assert_eq!(v.rating_changes.is_empty(), !is_rated);
        if is_rated { &mut rated } else { &mut casual }.push(dt);
    }
    let (r, c) = (median(rated), median(casual));
    println!(
        "  {}: unrated game's end {:.3} ms, rated game's end {:.3} ms: {:+.1}% (target <= +10%)",
        base.display(),
        ms(c),
        ms(r),
        (ms(r) / ms(c) - 1.0) * 100.0
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn chart(quick: bool) {
    let mut rng = fastrand::Rng::with_seed(3);
    let mut rating = 1500.0;
    let points: Vec<ChartPoint> = (0..1000)
        .map(|i| {
            rating += (rng.f64() - 0.5) * 30.0;
            ChartPoint {
                at_ms: 1_800_000_000_000 + i * 7_200_000,
                rating,
                deviation: (500.0 / (1.0 + i as f64).sqrt()).max(45.0),
            }
        })
        .collect();
    let one = Chart {
        title: "alice".into(),
        y_label: "Rating".into(),
        empty: "No rated games yet".into(),
        series: vec![ChartSeries {
            label: "Correspondence".into(),
            points: points.clone(),
        }],
    };
    let mut two = one.clone();
    two.series.push(ChartSeries {
        label: "Live".into(),
        points: points
            .iter()
            .map(|p| ChartPoint {
                rating: p.rating - 100.0,
                ..*p
            })
            .collect(),
    });
    let n = if quick { 20 } else { 100 };
    let _ = rating_chart(&one);
    let t1 = time(n, |_| rating_chart(&one));
    let c1 = last_cpu();
    let t2 = time(n, |_| rating_chart(&two));
    let c2 = last_cpu();
    let size = rating_chart(&one).len();
    println!(
        "  chart of 1,000 rated games: {:.3} ms wall, {c1} ({} KiB) (target <= 5 ms); two speeds of 1,000: {:.3} ms wall, {c2}",
        ms(t1),
        size / 1024,
        ms(t2)
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    println!("ratings benchmark (medians)");
    let disk = std::env::var_os("CAJITAS_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    println!("leaderboard, {PLAYERS} ranked players in one server, on disk:");
    leaderboard(&disk, quick);
    println!("a game's end (one durable commit), rated beside unrated:");
    game_end(&disk, quick);
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        game_end(shm, quick);
    }
    println!("the rating chart:");
    chart(quick);
}
