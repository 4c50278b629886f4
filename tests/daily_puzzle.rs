//! The daily puzzle through the game service (issue 30), on a database file shared by two
//! services as two processes would share it (SQLite here; `daily_puzzle_postgres` runs the
//! same on PostgreSQL): the day's post claimed once across a restart and two processes, caught
//! up after downtime, claimed again when its poster died, the puzzle never repeated, each
//! person's first attempt counted live, and the daily streak.

mod support;

use std::sync::Arc;
use std::time::Duration;

use cajitas::game::{
    Clock, DAILY_LEASE, GameError, GameService, Lang, ManualClock, ServiceOptions, UserRef, day_of,
};
use cajitas::puzzles::DAILY_RATINGS;
use cajitas::store::PuzzleStatus;
use support::db::{Backend, TestDb};

const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(86_400);
const GUILD: u64 = 900;
/// 2027-01-15 00:00 UTC.
const MIDNIGHT: i64 = 1_800_000_000_000 - 1_800_000_000_000 % 86_400_000;

fn two_processes(tag: &str) -> (TestDb, [GameService; 2], Arc<ManualClock>) {
    let db = TestDb::new(Backend::of_target(env!("CARGO_CRATE_NAME")), tag);
    let clock = Arc::new(ManualClock::new(MIDNIGHT));
    let a = db.open(ServiceOptions::with_clock(clock.clone()));
    let b = db.open(ServiceOptions::with_clock(clock.clone()));
    (db, [a, b], clock)
}

fn user(id: u64, name: &str) -> UserRef {
    UserRef::new(id, name, false)
}

/// Plays `v`'s line (its solver's moves, in UCI) and returns the last answer.
fn solve(
    g: &GameService,
    who: &UserRef,
    v: &cajitas::game::PuzzleView,
) -> cajitas::game::PuzzleView {
    let ch = cajitas::game::ChannelRef {
        guild: Some(GUILD),
        channel: v.daily.as_ref().unwrap().channel,
    };
    let mut last = None;
    for m in v.puzzle.moves[1..].iter().step_by(2) {
        let text = cajitas_rules::Uci::from_move(*m).to_string();
        last = Some(g.puzzles().answer(who, ch, &text, Lang::En).unwrap());
    }
    last.unwrap()
}

#[test]
fn the_daily_post_goes_out_once_across_a_restart_and_two_processes() {
    let (db, [a, b], clock) = two_processes("daily-once");
    assert!(matches!(
        a.daily().configure(GUILD, 77, 24),
        Err(GameError::DailyHourRange)
    ));
    a.daily().configure(GUILD, 77, 9).unwrap();
    assert_eq!(b.daily().setting(GUILD).unwrap().unwrap().hour, 9);
    // Before 09:00 nothing is due.
    clock.advance(8 * HOUR);
    assert!(a.daily().claim_due().unwrap().is_empty());
    assert!(matches!(
        a.puzzles()
            .start_daily(&user(1, "alice"), GUILD, day_of(clock.now_ms()).0),
        Err(GameError::NoDailyPuzzle)
    ));
    // At 09:00 one process claims it, the other finds nothing; the nonce names the day.
    clock.advance(HOUR);
    let posts = a.daily().claim_due().unwrap();
    assert_eq!(posts.len(), 1);
    let post = &posts[0];
    assert_eq!((post.guild, post.channel), (GUILD, 77));
    assert!(DAILY_RATINGS.contains(&post.puzzle.rating));
    assert!(b.daily().claim_due().unwrap().is_empty());
    // Its poster dies before marking it: once the lease lapses, the other process claims
    // it again, with the same puzzle and nonce, and marks it posted.
    clock.advance(DAILY_LEASE / 2);
    assert!(b.daily().claim_due().unwrap().is_empty());
    clock.advance(DAILY_LEASE);
    drop(a);
    let again = b.daily().claim_due().unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].puzzle.id, post.puzzle.id);
    assert_eq!(again[0].nonce, post.nonce);
    b.daily().posted(&again[0], 5555).unwrap();
    // A restarted process finds nothing more to post today.
    let restarted = db.open(ServiceOptions::with_clock(clock.clone()));
    clock.advance(DAILY_LEASE * 3);
    assert!(restarted.daily().claim_due().unwrap().is_empty());
    assert!(b.daily().claim_due().unwrap().is_empty());
    let today = restarted.daily().today(GUILD).unwrap().unwrap();
    assert_eq!(today.message, Some(5555));

    // Down over the next day's 09:00: the post goes out when the bot is back, that day;
    // never the same puzzle twice.
    clock.advance(DAY + 5 * HOUR);
    let late = restarted.daily().claim_due().unwrap();
    assert_eq!(late.len(), 1);
    assert_eq!(late[0].day, post.day + 1);
    assert_ne!(late[0].puzzle.id, post.puzzle.id);
    assert_ne!(late[0].nonce, post.nonce);
    // A day missed whole is not posted the day after.
    restarted.daily().posted(&late[0], 5556).unwrap();
    clock.advance(2 * DAY);
    let posts = restarted.daily().claim_due().unwrap();
    assert_eq!(posts.len(), 1);
    assert_eq!(posts[0].day, post.day + 3);
    // Stopped, nothing more.
    assert!(restarted.daily().stop(GUILD).unwrap());
    clock.advance(DAY);
    assert!(restarted.daily().claim_due().unwrap().is_empty());
}

#[test]
fn each_first_attempt_is_counted_live_and_solved_days_make_a_streak() {
    let (_db, [g, _other], clock) = two_processes("daily-count");
    g.daily().configure(GUILD, 77, 0).unwrap();
    let (alice, bob, carol) = (user(1, "alice"), user(2, "bob"), user(3, "carol"));
    let ch = cajitas::game::ChannelRef {
        guild: Some(GUILD),
        channel: 77,
    };
    for day in 0..3 {
        let posts = g.daily().claim_due().unwrap();
        assert_eq!(posts.len(), 1, "day {day}");
        g.daily().posted(&posts[0], 100 + day).unwrap();
        let today = posts[0].day;
        // alice solves every day; bob fails on day 1, then solves a replay (not counted).
        let v = g.puzzles().start_daily(&alice, GUILD, today).unwrap();
        assert!(v.rated, "a first attempt at the puzzle is rated");
        let done = solve(&g, &alice, &v);
        assert_eq!(done.status, PuzzleStatus::Solved);
        let count = done.daily.as_ref().unwrap();
        assert_eq!((count.solved, count.failed), (1, 0));
        if day == 1 {
            g.puzzles().start_daily(&bob, GUILD, today).unwrap();
            let failed = g.puzzles().solution(&bob, ch).unwrap();
            let count = failed.daily.as_ref().unwrap();
            assert_eq!((count.solved, count.failed), (1, 1));
            let v = g.puzzles().start_daily(&bob, GUILD, today).unwrap();
            assert!(!v.rated);
            let again = solve(&g, &bob, &v);
            assert_eq!(again.status, PuzzleStatus::Solved);
            let count = again.daily.as_ref().unwrap();
            assert_eq!(
                (count.solved, count.failed),
                (1, 1),
                "a replay is not counted"
            );
        }
        clock.advance(DAY);
    }
    // alice solved three days running; bob's first attempt failed.
    assert_eq!(g.daily().streak(alice.id, ch).unwrap(), 3);
    assert_eq!(g.daily().streak(bob.id, ch).unwrap(), 0);
    assert_eq!(g.daily().streak(carol.id, ch).unwrap(), 0);
    // The stats show it, worded once for both fronts.
    let stats = g.ratings().stats(ch, &alice).unwrap();
    assert_eq!(stats.daily_streak, 3);
    use cajitas::i18n::{Presentation, ratings::puzzle_stats_lines};
    let lines = puzzle_stats_lines(Lang::Es, Presentation::Console, &stats);
    assert_eq!(lines.last().unwrap(), "Racha del problema del día: 3 días");
    // Yesterday's streak holds today until today's is solved; a day missed ends it.
    clock.advance(DAY);
    assert_eq!(g.daily().streak(alice.id, ch).unwrap(), 0);
    // A past day's puzzle cannot be started.
    assert!(matches!(
        g.puzzles()
            .start_daily(&carol, GUILD, day_of(clock.now_ms()).0 - 2),
        Err(GameError::NoDailyPuzzle)
    ));
}
