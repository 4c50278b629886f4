//! An arena played out in virtual time by simulated players, through the service's public
//! API, by one or two services on one database (two processes): every wave run by the
//! scheduler's rounds, every game given a few random legal moves, a random length and a
//! random result (a resignation, a draw, a mate-less win), some players going berserk.
//!
//! It checks, as it goes, that nobody is ever paired while they play (two processes never
//! pair one player twice), and at the end returns the standings the service kept and those
//! recomputed from the games it saw, with lichess's sheet (`tournament::sheet`), from scratch.
//! `tests/game_service.rs` runs a small one on both backends; `benches/arena.rs` a large one.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use cajitas::game::tournament::sheet::{GameResult, Sheet, SheetGame};
use cajitas::game::{
    ArenaTerms, ChannelRef, EventScope, GameService, Lang, ManualClock, NoticeKind,
    RecordingNotifier, TimeControl, UserRef,
};
use cajitas_rules::SanPlus;

/// What a simulation does.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// How many players join.
    pub players: u64,
    /// The arena's length, in minutes (30, 45, 60 or 90).
    pub minutes: u32,
    /// The random seed.
    pub seed: u64,
    /// The most moves a game gets after the first two.
    pub extra_moves: u32,
}

/// What came of it.
#[derive(Debug)]
pub struct Outcome {
    /// The standings the service kept: (user, points), by rank.
    pub kept: Vec<(u64, i32)>,
    /// Recomputed from the games: user → points.
    pub recomputed: HashMap<u64, i32>,
    /// Games played.
    pub games: usize,
    /// Pairing waves that paired someone.
    pub waves: usize,
    /// Moves played.
    pub moves: usize,
    /// The time spent in the scheduler's rounds (starts, waves with their games, the end).
    pub rounds_time: Duration,
}

struct Live {
    place: ChannelRef,
    white: UserRef,
    black: UserRef,
    ends_at: i64,
    plies: u32,
}

/// Plays `plan` with `services` (each with its own recording notifier, all on one database
/// and `clock`): the arena is made in `ch` by the first player at the clock's time.
pub fn play(
    services: &[(GameService, Arc<RecordingNotifier>)],
    clock: &ManualClock,
    ch: ChannelRef,
    plan: Plan,
) -> Outcome {
    use cajitas::game::Clock;
    let mut rng = fastrand::Rng::with_seed(plan.seed);
    let users: Vec<UserRef> = (1..=plan.players)
        .map(|i| UserRef::new(1_000 + i, &format!("p{i}"), false))
        .collect();
    let svc = &services[0].0;
    let terms = ArenaTerms {
        minutes: plan.minutes,
        time: TimeControl::Live {
            base_secs: 180,
            increment_secs: 2,
        },
        rated: true,
        starts_in: Some(0),
        name: None,
    };
    svc.tournaments()
        .create_arena(&users[0], ch, &terms, Lang::En)
        .unwrap();
    for u in &users[1..] {
        svc.tournaments().join(u, ch).unwrap();
    }
    let end = clock.now_ms() + i64::from(plan.minutes) * 60_000;
    let mut live: HashMap<i64, Live> = HashMap::new();
    let mut seen_posts = vec![0usize; services.len()];
    let mut busy: HashSet<u64> = HashSet::new();
    // Each player's games in the order played: the sheet's input.
    let mut sheets: HashMap<u64, Vec<SheetGame>> = HashMap::new();
    let mut berserk: HashSet<(i64, u64)> = HashSet::new();
    let (mut games, mut waves, mut moves) = (0, 0, 0);
    let mut rounds_time = Duration::ZERO;
    loop {
        let round_started = std::time::Instant::now();
        // Every service runs a round at once, as two processes' schedulers would.
        let rounds: Vec<usize> = std::thread::scope(|s| {
            let handles: Vec<_> = services
                .iter()
                .map(|(svc, _)| {
                    s.spawn(move || {
                        svc.clocks()
                            .run_round(EventScope::All)
                            .expect("a round")
                            .paired
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        rounds_time += round_started.elapsed();
        if rounds.iter().sum::<usize>() > 0 {
            waves += 1;
        }
        // The new pairings: nobody already playing, the game started.
        for (i, (_, notifier)) in services.iter().enumerate() {
            let posts = notifier.posts();
            for n in &posts[seen_posts[i]..] {
                if !matches!(n.kind, NoticeKind::Paired { .. }) {
                    continue;
                }
                let v = &n.game;
                for u in [&v.white, &v.black] {
                    assert!(busy.insert(u.id), "{} paired while playing", u.name);
                }
                let mut g = Live {
                    place: n.place,
                    white: v.white.clone(),
                    black: v.black.clone(),
                    ends_at: clock.now_ms() + rng.i64(20_000..170_000),
                    plies: 0,
                };
                for side in [&g.white, &g.black] {
                    if rng.u8(..10) == 0 {
                        svc.tournaments().berserk(side).unwrap();
                        berserk.insert((v.game_id, side.id));
                        // Half the clock: the game ends before a berserk side could flag.
                        g.ends_at = g.ends_at.min(clock.now_ms() + rng.i64(20_000..80_000));
                    }
                }
                // Both first moves at once: nobody loses for not starting.
                for _ in 0..2 {
                    moves += play_random(svc, &mut g, &mut rng);
                }
                live.insert(v.game_id, g);
            }
            seen_posts[i] = posts.len();
        }
        // The games whose time came end: a few more moves, then a result.
        let now = clock.now_ms();
        let mut due: Vec<i64> = live
            .iter()
            .filter(|(_, g)| g.ends_at <= now)
            .map(|(id, _)| *id)
            .collect();
        due.sort_unstable();
        for id in due {
            let mut g = live.remove(&id).unwrap();
            for _ in 0..rng.u32(0..=plan.extra_moves) {
                if play_random(svc, &mut g, &mut rng) == 0 {
                    break;
                }
                moves += 1;
            }
            let view = svc.queries().board(g.place).unwrap();
            let finished = if view.finished {
                view
            } else {
                match rng.u8(..3) {
                    0 => svc.play().resign(&g.white, g.place, None).unwrap().view,
                    1 => svc.play().resign(&g.black, g.place, None).unwrap().view,
                    _ => {
                        let offer = svc.play().draw_offer(&g.white, g.place, None).unwrap();
                        if offer.view.finished {
                            offer.view
                        } else {
                            svc.play()
                                .draw_accept(&g.black, g.place, None)
                                .unwrap()
                                .view
                        }
                    }
                }
            };
            let winner = finished.outcome.and_then(|o| o.winner());
            for (u, colour) in [
                (&g.white, cajitas_rules::Color::White),
                (&g.black, cajitas_rules::Color::Black),
            ] {
                let result = match winner {
                    None => GameResult::Draw,
                    Some(w) if w == colour => GameResult::Win,
                    Some(_) => GameResult::Loss,
                };
                sheets.entry(u.id).or_default().push(SheetGame {
                    result,
                    plies: finished.ply,
                    berserk: berserk.contains(&(id, u.id)),
                });
                busy.remove(&u.id);
            }
            games += 1;
        }
        if now > end && live.is_empty() {
            break;
        }
        clock.advance(Duration::from_secs(3));
    }
    let standings = svc.tournaments().standings(ch).unwrap();
    let kept = standings
        .lines
        .iter()
        .map(|l| (l.user.id, l.score))
        .collect();
    let recomputed = users
        .iter()
        .map(|u| {
            let sheet = Sheet::of(sheets.remove(&u.id).unwrap_or_default());
            (u.id, sheet.total() as i32)
        })
        .collect();
    Outcome {
        kept,
        recomputed,
        games,
        waves,
        moves,
        rounds_time,
    }
}

/// Plays one random legal move for the side to move; 0 when the game is over.
fn play_random(svc: &GameService, g: &mut Live, rng: &mut fastrand::Rng) -> usize {
    let v = svc.queries().board(g.place).unwrap();
    if v.finished {
        return 0;
    }
    let legal = v.position.legal_moves();
    if legal.is_empty() {
        return 0;
    }
    let m = legal[rng.usize(..legal.len())];
    let san = SanPlus::from_move(&v.position, m).to_string();
    let mover = if v.to_move == cajitas_rules::Color::White {
        &g.white
    } else {
        &g.black
    };
    svc.play()
        .play_move(mover, g.place, &san, Lang::En, false)
        .unwrap();
    g.plies += 1;
    1
}
