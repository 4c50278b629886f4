//! Ratings: the leaderboard and the caller's rank among 100,000 rated players of one server,
//! the end of a rated game beside the end of an unrated one (today's cost of ending a game),
//! and the rating chart of 1,000 rated games.
//!
//! `cargo bench --bench ratings` (add `-- --quick` for a short run; `-- leaderboard`, `end`,
//! `discord` or `chart` for one part). Figures are medians. Targets: leaderboard page 1
//! ≤ 5 ms and the rank ≤ 5 ms (each), a rated game's end within 10% of an unrated one's, the
//! chart ≤ 5 ms.
//!
//! A game's end is measured twice:
//! - through the game service, on disk and in `/dev/shm`: wall time, and the thread's CPU
//!   time (fenced by `sched_yield`, which brings `/proc/thread-self/schedstat` up to date, so
//!   each call is timed on its own);
//! - as a user gets it, through the Discord front: the real bot on loopback against the fake
//!   Discord of `tests/support`, from the click on `/resign`'s confirmation to the final
//!   message (result, final board, the game's GIF and, when rated, both rating changes), with
//!   the bot's CPU time over the same span (every thread's `schedstat`). With
//!   `CAJITAS_BENCH_BASELINE_BIN` (a `cajitas` built from an older commit, e.g. 4ce5294 from
//!   before ratings), that bot's ends are measured beside.
//!
//! Measured on the shared 2-core machine under load (figures and both runs in the README,
//! "Ratings"): the whole `/leaderboard` read 3.36 ms CPU (6.05 ms before the index was split
//! at the caller); through Discord a rated end is within 10% of an unrated one on disk and in
//! RAM (−3.2%/+1.4% wall on disk, +0.3%/+6.5% in RAM); through the service alone only while a
//! slow `fdatasync` dominates (+2.0% with a 4 ms one, +70% with a 0.1 ms one, +170% in RAM).

#[path = "../tests/support/bot.rs"]
mod bot;
#[path = "../tests/support/fake_discord.rs"]
mod fake_discord;

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
use fake_discord::{Channel, FakeDiscord, FakeUser};
use serde_json::json;

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
    let store = SqliteStore::open(db).unwrap();
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
    let store = SqliteStore::open(&db).unwrap();
    let pool = GUILD as i64;
    // A month after the players' last games: the RD as of now is tested, and nobody dropped.
    let now = 1_800_000_000_000 + 30 * 86_400_000;
    // The lowest-rated ranked player: the rank counts every other ranked player.
    let (worst, best) = store
        .read(|tx| {
            let total = tx.ranked_count(pool, Speed::Live, now)?;
            let last = tx.leaderboard(pool, Speed::Live, now, total - 1, 1)?;
            let first = tx.leaderboard(pool, Speed::Live, now, 0, 1)?;
            Ok::<_, cajitas::store::StoreError>((last[0].0.clone(), first[0].0.clone()))
        })
        .unwrap();
    let page = time(n, |_| {
        store
            .read(|tx| tx.leaderboard(pool, Speed::Live, now, 0, 10))
            .unwrap()
    });
    let page_cpu = last_cpu();
    let rank_worst = time(n, |_| {
        store.read(|tx| tx.players_above(&worst, now)).unwrap()
    });
    let rank_worst_cpu = last_cpu();
    let rank_best = time(n, |_| {
        store.read(|tx| tx.players_above(&best, now)).unwrap()
    });
    let count = time(n, |_| {
        store
            .read(|tx| tx.ranked_count(pool, Speed::Live, now))
            .unwrap()
    });
    let count_cpu = last_cpu();
    let both = time(n, |_| {
        store
            .read(|tx| tx.ranked_count_and_above(pool, Speed::Live, now, Some(&worst)))
            .unwrap()
    });
    let both_cpu = last_cpu();
    drop(store);
    let svc = GameService::open(&db, ServiceOptions::default()).unwrap();
    let place = ChannelRef {
        guild: Some(GUILD),
        channel: 1,
    };
    // The whole /leaderboard read: page 1, the page count, and the caller's rank (the
    // worst case: the caller is last).
    let whole = time(n, |_| {
        svc.ratings()
            .leaderboard(place, Speed::Live, 0, worst.user_id, None)
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
        "  page count and rank of the last, split at the caller: {:7.3} ms wall, {both_cpu}",
        ms(both)
    );
    println!(
        "  the whole /leaderboard read (page 1, page count, rank of the last): {:.3} ms wall, {whole_cpu} (target <= 5 ms)",
        ms(whole)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// This thread's CPU time, read right after a `sched_yield`: the kernel brings the
/// thread's runtime up to date when it yields, so two fenced reads around one call give that
/// call's CPU time (plus the fence's own, about the same for every call; [`fence_cost`]).
fn cpu_fenced() -> Option<Duration> {
    std::thread::yield_now();
    cpu_now()
}

/// The median CPU time of an empty fenced measure (subtracted from the per-call figures).
fn fence_cost() -> Duration {
    let mut v: Vec<Duration> = (0..200)
        .filter_map(|_| {
            let a = cpu_fenced()?;
            let b = cpu_fenced()?;
            Some(b.saturating_sub(a))
        })
        .collect();
    if v.is_empty() {
        return Duration::ZERO;
    }
    v.sort();
    v[v.len() / 2]
}

/// One kind of game end's figures: median wall and median CPU time of the thread.
struct EndFigures {
    wall: Duration,
    cpu: Option<Duration>,
}

impl EndFigures {
    fn of(wall: Vec<Duration>, cpu: Vec<Duration>) -> EndFigures {
        EndFigures {
            cpu: (!cpu.is_empty()).then(|| median(cpu)),
            wall: median(wall),
        }
    }
}

fn ratio(rated: Duration, base: Duration) -> f64 {
    (ms(rated) / ms(base) - 1.0) * 100.0
}

/// The end of a game (a resignation after 2. Nf3 Nc6) rated or not, alternating, on a real
/// file in `base`, through the game service: medians of `n` of each, wall time and this
/// thread's CPU time (the time the service itself spends; an fsync's wait is not in it).
fn game_end(base: &Path, quick: bool) {
    let dir = fresh_dir(base, "end");
    let clock = Arc::new(ManualClock::new(1_800_000_000_000));
    let svc = GameService::open(
        &dir.join("games.db"),
        ServiceOptions::with_clock(clock.clone()),
    )
    .unwrap();
    let n = if quick { 60 } else { 300 };
    let fence = fence_cost();
    let users: Vec<UserRef> = (0..20)
        .map(|i| UserRef::new(10 + i, &format!("p{i}"), false))
        .collect();
    let (mut rated, mut casual) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
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
        // Rated first in one pair, unrated first in the next.
        let is_rated = (i % 2 == 0) == (i % 4 < 2);
        svc.challenges()
            .challenge_rated(w, ch, None, ColourChoice::White, is_rated)
            .unwrap();
        svc.challenges().accept(b, ch).unwrap();
        for (j, m) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
            svc.play()
                .play_move(if j % 2 == 0 { w } else { b }, ch, m, Lang::En, false)
                .unwrap();
        }
        clock.advance(Duration::from_secs(3600));
        let c0 = cpu_fenced();
        let t0 = Instant::now();
        let v = svc.play().resign(w, ch, None).unwrap().view;
        let dt = t0.elapsed();
        let c1 = cpu_fenced();
        assert_eq!(v.rating_changes.is_empty(), !is_rated);
        let (walls, cpus) = if is_rated { &mut rated } else { &mut casual };
        walls.push(dt);
        if let (Some(a), Some(b)) = (c0, c1) {
            cpus.push((b.saturating_sub(a)).saturating_sub(fence));
        }
    }
    let (r, c) = (
        EndFigures::of(rated.0, rated.1),
        EndFigures::of(casual.0, casual.1),
    );
    println!(
        "  {}: unrated game's end {:.3} ms wall, rated {:.3} ms wall: {:+.1}% (target <= +10%)",
        base.display(),
        ms(c.wall),
        ms(r.wall),
        ratio(r.wall, c.wall)
    );
    if let (Some(rc), Some(cc)) = (r.cpu, c.cpu) {
        println!(
            "  {}: unrated game's end {:.3} ms CPU, rated {:.3} ms CPU: {:+.1}%",
            base.display(),
            ms(cc),
            ms(rc),
            ratio(rc, cc)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bot process's CPU time so far: the sum over its threads (`/proc/PID/task/*/schedstat`).
fn process_cpu(pid: u32) -> Option<Duration> {
    let mut ns = 0u64;
    for t in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let s = std::fs::read_to_string(t.ok()?.path().join("schedstat")).ok()?;
        ns += s.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(ns))
}

/// The ends of one bot's games through the fake Discord: wall times (the confirmation's click
/// sent → the final message received) and the bot's CPU time over the same span.
#[derive(Default)]
struct Ends {
    wall: Vec<Duration>,
    cpu: Vec<Duration>,
}

impl Ends {
    fn figures(self) -> EndFigures {
        EndFigures::of(self.wall, self.cpu)
    }
}

/// The `colour` option's value for white (poise sends choices as their index).
const WHITE: u64 = 0;

/// Games through the real bot (`program`, the bench's own `cajitas` unless given) and the fake
/// Discord, its database in `base`: in each, a challenge (rated or not, alternating; `None`:
/// without the `rated` option, for a bot from before ratings), the accept (the game goes to its
/// thread), 1. e4 e5 2. Nf3 Nc6, then `/resign` and the click on its confirmation. Timed: the
/// click sent → the final message (the result, the final board and the game's GIF, and for a
/// rated game both rating changes). Returns (rated, unrated).
async fn discord_ends(
    base: &Path,
    program: Option<&Path>,
    with_rated: bool,
    n: usize,
) -> (Ends, Ends) {
    let dir = fresh_dir(base, "discord");
    let fake = FakeDiscord::start(5_000).await;
    fake.keep_files(false);
    let options = bot::BotOptions {
        api_base: &fake.base,
        db: &dir.join("cajitas.db"),
        log: dir.join("bot.log"),
        // The shipped default log filter, what users get.
        env: vec![("RUST_LOG", String::new())],
    };
    let bot = match program {
        Some(p) => bot::Bot::start_program(p, options),
        None => bot::Bot::start(options),
    };
    fake.wait_ready(1).await;
    // White among 20 players, Black a new one each game: a challenge pings its opponent, and
    // a pair may ping 5 times in 10 minutes.
    let users: Vec<FakeUser> = (0..20 + 2 * n as u64)
        .map(|i| FakeUser::new(960_000_000_000_000_000 + i, &format!("p{i}")))
        .collect();
    let (mut rated, mut casual) = (Ends::default(), Ends::default());
    for i in 0..2 * n {
        let ch = Channel::new(1_260_000_000_000_000_000 + i as u64);
        let (w, b) = (&users[i % 20], &users[20 + i]);
        let is_rated = with_rated && (i % 2 == 0) == (i % 4 < 2);
        let mut options = vec![
            ("opponent", json!(b.id.to_string())),
            ("colour", json!(WHITE)),
        ];
        if with_rated {
            options.push(("rated", json!(is_rated)));
        }
        let c = fake
            .interact(&ch.command(&fake, w, "en-US", "challenge", &options, &[b]))
            .await;
        assert_eq!(c.callback_type(), Some(4), "{}", c.text());
        let from = fake.request_count();
        let a = fake
            .interact(&ch.command(&fake, b, "en-US", "accept", &[], &[]))
            .await;
        assert!(!a.is_ephemeral(), "{}", a.text());
        let ch = match c.message_id.and_then(|m| fake.thread(m)) {
            Some(t) => {
                fake.post_to(t.id, from).await;
                Channel::thread(t.id, ch.id)
            }
            None => ch,
        };
        for (j, m) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
            let who = if j % 2 == 0 { w } else { b };
            let r = fake
                .interact(&ch.command(&fake, who, "en-US", "move", &[("move", json!(m))], &[]))
                .await;
            assert!(!r.is_ephemeral(), "{}", r.text());
        }
        let ask = fake
            .interact(&ch.command(&fake, w, "en-US", "resign", &[], &[]))
            .await;
        let click = ch.click(&fake, w, "en-US", &ask, &ask.custom_ids()[0]);
        let cpu0 = process_cpu(bot.pid());
        let sent = Instant::now();
        let rx = fake.send_interaction(&click);
        let first = tokio::time::timeout(Duration::from_secs(30), rx)
            .await
            .expect("an answer within 30 s")
            .expect("answered");
        let last = fake.settle(&click, first).await;
        let wall = last.at.duration_since(sent);
        let cpu1 = process_cpu(bot.pid());
        assert!(last.text().contains("resigned"), "{}", last.text());
        assert!(last.file("board.png").is_some() && last.file("game.gif").is_some());
        assert_eq!(
            last.text().contains("→"),
            is_rated,
            "rating changes shown only for a rated game: {}",
            last.text()
        );
        let ends = if is_rated { &mut rated } else { &mut casual };
        ends.wall.push(wall);
        if let (Some(a), Some(b)) = (cpu0, cpu1) {
            ends.cpu.push(b.saturating_sub(a));
        }
        // What follows the reply (the summary in the channel) happens outside the next span.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(bot);
    let _ = std::fs::remove_dir_all(&dir);
    (rated, casual)
}

fn show_ends(what: &str, e: &EndFigures) -> String {
    match e.cpu {
        Some(c) => format!("{what} {:.2} ms wall, {:.2} ms bot CPU", ms(e.wall), ms(c)),
        None => format!("{what} {:.2} ms wall", ms(e.wall)),
    }
}

/// A game's end as a user gets it, through the Discord front; with `CAJITAS_BENCH_BASELINE_BIN`
/// (a `cajitas` built from before ratings), its unrated ends beside.
fn discord_game_end(base: &Path, quick: bool) {
    let n = if quick { 15 } else { 60 };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let baseline = std::env::var_os("CAJITAS_BENCH_BASELINE_BIN").map(PathBuf::from);
    rt.block_on(async {
        let (rated, casual) = discord_ends(base, None, true, n).await;
        let (r, c) = (rated.figures(), casual.figures());
        println!(
            "  {}: {}; {}: {:+.1}% wall{} (target <= +10%)",
            base.display(),
            show_ends("unrated", &c),
            show_ends("rated", &r),
            ratio(r.wall, c.wall),
            match (r.cpu, c.cpu) {
                (Some(rc), Some(cc)) => format!(", {:+.1}% CPU", ratio(rc, cc)),
                _ => String::new(),
            }
        );
        if let Some(program) = &baseline {
            let (_, old) = discord_ends(base, Some(program), false, n).await;
            let old = old.figures();
            println!(
                "  {}: before ratings ({}): {}; rated here vs that: {:+.1}% wall{}",
                base.display(),
                program.display(),
                show_ends("a game's end", &old),
                ratio(r.wall, old.wall),
                match (r.cpu, old.cpu) {
                    (Some(rc), Some(oc)) => format!(", {:+.1}% CPU", ratio(rc, oc)),
                    _ => String::new(),
                }
            );
        }
    });
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
    // `leaderboard`, `end`, `discord`, `chart`: only those parts (all without any).
    let parts: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let part = |name: &str| parts.is_empty() || parts.iter().any(|p| p == name);
    println!("ratings benchmark (medians)");
    let disk = std::env::var_os("CAJITAS_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let shm = Path::new("/dev/shm");
    if part("leaderboard") {
        println!("leaderboard, {PLAYERS} ranked players in one server, on disk:");
        leaderboard(&disk, quick);
    }
    if part("end") {
        println!(
            "a game's end through the game service (one durable commit), rated beside unrated:"
        );
        game_end(&disk, quick);
        if shm.is_dir() {
            game_end(shm, quick);
        }
    }
    if part("discord") {
        println!(
            "a game's end through the Discord front (the bot on loopback: click on /resign's confirmation → the final message with its board and GIF), rated beside unrated:"
        );
        discord_game_end(&disk, quick);
        if shm.is_dir() {
            discord_game_end(shm, quick);
        }
    }
    if part("chart") {
        println!("the rating chart:");
        chart(quick);
    }
}
