//! `cargo bench --bench arena` (issue 32's measures, with the shipped defaults: a SQLite file,
//! WAL and `synchronous=FULL`):
//! - a wave of 500 waiting players: the pure pairing (`tournament::wave::pair_wave`, lichess's
//!   groups and weighted matching), median and p99 of 50; then the service's whole wave, one
//!   transaction that pairs them and starts their 250 games (target ≤ 50 ms);
//! - a 200-player, 60-minute arena in virtual time with random games (`tests/support/
//!   arena_sim.rs`), its time (target ≤ 30 s), and its final standings compared with those
//!   recomputed from its games.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cajitas::game::tournament::wave::{ColourHistory, Waiting, WaveContext, pair_wave};
use cajitas::game::{
    ArenaTerms, ChannelRef, EventScope, GameService, Lang, ManualClock, RecordingNotifier,
    ServiceOptions, TimeControl, UserRef,
};

#[path = "../tests/support/arena_sim.rs"]
mod arena_sim;

const CH: ChannelRef = ChannelRef {
    guild: Some(10),
    channel: 100,
};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn pure_wave() {
    let mut rng = fastrand::Rng::with_seed(500);
    let players: Vec<Waiting> = (0..500u32)
        .map(|i| Waiting {
            user: u64::from(i) + 1,
            rank: i + 1,
            rating: rng.i32(800..2400),
            colours: ColourHistory {
                strike: rng.i32(-2..=2),
                balance: rng.i32(-3..=3),
            },
            last_opponent: Some(u64::from(rng.u32(1..=500))),
            since: i64::from(i),
        })
        .collect();
    let ctx = WaveContext {
        recently_started: false,
        only_two_active: false,
    };
    let mut times = Vec::new();
    let mut pairs = 0;
    for _ in 0..50 {
        let t = Instant::now();
        pairs = pair_wave(&players, ctx, &mut || rng.bool()).len();
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    assert!(pairs >= 240, "{pairs} pairs of 500");
    println!(
        "pure wave, 500 waiting: {pairs} pairs · median {:.2} ms · p99 {:.2} ms",
        percentile(&times, 0.5),
        percentile(&times, 0.99)
    );
}

fn service_wave(dir: &std::path::Path) {
    let clock = Arc::new(ManualClock::new(1_900_000_000_000));
    let svc = GameService::open(
        &dir.join("wave.db"),
        ServiceOptions::with_clock(clock.clone()),
    )
    .unwrap();
    let users: Vec<UserRef> = (1..=500u64)
        .map(|i| UserRef::new(i, &format!("p{i}"), false))
        .collect();
    let terms = ArenaTerms {
        minutes: 60,
        time: TimeControl::Live {
            base_secs: 180,
            increment_secs: 2,
        },
        rated: true,
        starts_in: Some(0),
        name: None,
    };
    svc.tournaments()
        .create_arena(&users[0], CH, &terms, Lang::En)
        .unwrap();
    for u in &users[1..] {
        svc.tournaments().join(u, CH).unwrap();
    }
    // Started; the first wave after lichess's first 15 s (the weighted matching, not the
    // opening's neighbour pairing).
    svc.clocks().run_round(EventScope::All).unwrap();
    use cajitas::game::Clock;
    let started = clock.now_ms();
    clock.set(started + 16_000);
    let t = Instant::now();
    let round = svc.clocks().run_round(EventScope::All).unwrap();
    let ms = t.elapsed().as_secs_f64() * 1e3;
    assert_eq!(round.paired, 250);
    println!(
        "service wave, 500 waiting: 250 games started in one transaction · {ms:.1} ms (target ≤ 50 ms)"
    );
}

fn simulated_arena(dir: &std::path::Path) {
    let clock = Arc::new(ManualClock::new(1_900_000_000_000));
    let notifier = Arc::new(RecordingNotifier::default());
    let svc = GameService::open(
        &dir.join("sim.db"),
        ServiceOptions {
            notifier: notifier.clone(),
            ..ServiceOptions::with_clock(clock.clone())
        },
    )
    .unwrap();
    let plan = arena_sim::Plan {
        players: 200,
        minutes: 60,
        seed: 200,
        extra_moves: 12,
    };
    let t = Instant::now();
    let out = arena_sim::play(&[(svc, notifier)], &clock, CH, plan);
    let secs = t.elapsed().as_secs_f64();
    let equal = out
        .kept
        .iter()
        .all(|(user, points)| out.recomputed[user] == *points);
    assert!(equal, "the standings differ from the games");
    println!(
        "simulated arena, 200 players × 60 min: {} games, {} moves, {} waves that paired · {secs:.1} s in all (target ≤ 30 s) · final standings equal to those recomputed from the games: {equal}",
        out.games, out.moves, out.waves
    );
    println!(
        "  of which the scheduler's rounds (start, waves and their games, end): {:.1} s; the rest is the simulated players' moves and results, each a durable transaction",
        out.rounds_time.as_secs_f64()
    );
    println!(
        "  podium: {:?}",
        out.kept.iter().take(3).collect::<Vec<_>>()
    );
}

fn main() {
    let dir = std::env::temp_dir().join(format!("cajitas-bench-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    pure_wave();
    service_wave(&dir);
    simulated_arena(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    std::thread::sleep(Duration::from_millis(1));
}
