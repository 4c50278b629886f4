//! Time controls through the game service, with virtual time (a `ManualClock` moved forward,
//! scheduler rounds run by hand): timeouts, increments, draws on time, reminders, late moves,
//! the first moves' grace, abandoned untimed games. Then the scheduler thread itself: its
//! scope, its sleep and its early wake-up, and one real 1-second live clock running out.

mod support;

use std::sync::Arc;
use std::time::Duration;

use cajitas::game::{
    ChallengeTerms, ChannelRef, Clock, ColourChoice, DAY_MS, EventScope, GameError, GameService,
    GameView, Lang, ManualClock, NoticeKind, RecordingNotifier, Scheduler, ServiceOptions,
    TimeControl, UserRef,
};
use cajitas::store::{ClockRow, MoveRow, NewGame, StoreExt, TimeControlRow};
use cajitas_rules::{Color, DrawReason, Outcome, Position, Uci, WinReason, san};

const T0: i64 = 1_800_000_000_000;

struct World {
    svc: GameService,
    clock: Arc<ManualClock>,
    posts: Arc<RecordingNotifier>,
    white: UserRef,
    black: UserRef,
    ch: ChannelRef,
}

/// Service options at `T0` on a clock the test moves, posting to a notifier it reads.
fn recorded_options() -> (ServiceOptions, Arc<ManualClock>, Arc<RecordingNotifier>) {
    let clock = Arc::new(ManualClock::new(T0));
    let posts = Arc::new(RecordingNotifier::default());
    let opts = ServiceOptions {
        notifier: posts.clone(),
        ..ServiceOptions::with_clock(clock.clone())
    };
    (opts, clock, posts)
}

fn world() -> World {
    let (opts, clock, posts) = recorded_options();
    World {
        svc: support::db::memory_or_postgres(env!("CARGO_CRATE_NAME"), opts),
        clock,
        posts,
        white: UserRef::new(11, "white", false),
        black: UserRef::new(22, "black", false),
        ch: ChannelRef {
            guild: Some(1),
            channel: 500,
        },
    }
}

impl World {
    /// A casual game (takebacks allowed) from a challenge with `time`, white being the
    /// challenger.
    fn start(&self, time: &str) -> GameView {
        self.start_with(time, false)
    }

    /// A game from a challenge with `time`, rated or not, white being the challenger.
    fn start_with(&self, time: &str, rated: bool) -> GameView {
        let tc: TimeControl = time.parse().unwrap();
        let terms = ChallengeTerms {
            colour: ColourChoice::White,
            time: tc,
            rated,
            variant: cajitas::game::Variant::Standard,
        };
        let c = self
            .svc
            .challenges()
            .challenge_with(&self.white, self.ch, Some(&self.black), terms)
            .unwrap();
        assert_eq!(c.time, tc);
        let v = self.svc.challenges().accept(&self.black, self.ch).unwrap();
        assert_eq!(v.clock.control, tc);
        v
    }

    fn mv(&self, who: Color, text: &str) -> Result<GameView, GameError> {
        let u = if who == Color::White {
            &self.white
        } else {
            &self.black
        };
        self.svc
            .play()
            .play_move(u, self.ch, text, Lang::En, false)
            .map(|r| r.view)
    }

    fn advance_ms(&self, ms: i64) {
        self.clock.advance(Duration::from_millis(ms as u64));
    }

    fn round(&self) -> cajitas::game::Round {
        self.svc.clocks().run_round(EventScope::All).unwrap()
    }

    fn board(&self) -> GameView {
        self.svc.queries().board(self.ch).unwrap()
    }

    fn kinds(&self) -> Vec<NoticeKind> {
        self.posts.posts().iter().map(|n| n.kind.clone()).collect()
    }
}

#[test]
fn a_correspondence_game_times_out_after_its_days_per_move() {
    let w = world();
    let v = w.start("2d");
    assert_eq!(v.clock.deadline, Some(T0 + 2 * DAY_MS));
    w.advance_ms(DAY_MS);
    w.mv(Color::White, "e4").unwrap();
    w.advance_ms(DAY_MS);
    let v = w.mv(Color::Black, "e5").unwrap();
    // Each move resets the mover's allowance: white has the full 2 days again.
    assert_eq!(v.clock.deadline, Some(T0 + 4 * DAY_MS));
    assert_eq!(v.clock.white_ms, 2 * DAY_MS);
    w.advance_ms(2 * DAY_MS - 1);
    w.round();
    assert!(!w.board().finished);
    w.advance_ms(1);
    let round = w.round();
    assert_eq!(round.posted, 1, "{round:?}");
    let v = w.board();
    assert_eq!(
        v.outcome,
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: WinReason::Timeout
        })
    );
    // The post: the final board, both players mentioned, a nonce.
    let posts = w.posts.posts();
    let timeouts: Vec<_> = posts
        .iter()
        .filter(|n| n.kind == NoticeKind::TimedOut)
        .collect();
    assert_eq!(timeouts.len(), 1);
    assert!(timeouts[0].game.finished);
    assert_eq!(timeouts[0].mentions, vec![11, 22]);
    assert!(timeouts[0].nonce.as_deref().unwrap().starts_with("cj"));
    // Nothing happens twice.
    w.advance_ms(DAY_MS);
    assert_eq!(w.round(), cajitas::game::Round::default());
    assert_eq!(w.posts.posts().len(), posts.len());
}

#[test]
fn a_rated_game_lost_on_time_shows_both_rating_changes_in_its_final_post() {
    let w = world();
    let v = w.start_with("3+2", true);
    assert!(v.rated);
    for (i, text) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
        let who = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        w.advance_ms(1_000);
        w.mv(who, text).unwrap();
    }
    // White lets the clock run out.
    w.advance_ms(180_000 + 2_000);
    assert_eq!(w.round().posted, 1);
    let posts = w.posts.posts();
    let post = posts
        .iter()
        .find(|n| n.kind == NoticeKind::TimedOut)
        .expect("the timeout's post");
    let shown: Vec<_> = post
        .game
        .rating_changes
        .iter()
        .map(|c| (c.user.id, c.colour, c.diff() > 0))
        .collect();
    assert_eq!(
        shown,
        vec![(11, Color::White, false), (22, Color::Black, true)],
        "white lost on time and black won"
    );
    assert_eq!(
        post.game.rating_changes,
        w.svc.ratings().rating_changes(post.game.game_id).unwrap(),
        "the changes the game recorded"
    );
}

/// A long legal game that does not end by itself, from a seed.
fn long_game(plies: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(16);
    let mut game = cajitas_rules::Game::new();
    let mut out = Vec::new();
    while out.len() < plies {
        let pos = game.position().clone();
        let legal = pos.legal_moves();
        let mut tries: Vec<_> = legal.iter().copied().collect();
        rng.shuffle(&mut tries);
        let m = tries
            .into_iter()
            .find(|&m| {
                let mut g = game.clone();
                g.play(m);
                g.outcome().is_none() && g.position().can_mate(Color::Black)
            })
            .expect("a move that keeps the game going");
        out.push(san(&pos, m).to_string());
        game.play(m);
    }
    out
}

#[test]
fn a_live_clock_counts_increments_over_40_moves_and_times_out() {
    let w = world();
    w.start("3+2");
    let script = long_game(80);
    for (i, text) in script.iter().enumerate() {
        let who = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        // White thinks 3 s per move, black 1 s.
        w.advance_ms(if who == Color::White { 3_000 } else { 1_000 });
        let v = w.mv(who, text).unwrap();
        assert!(!v.finished);
    }
    // Each side's first move is in its grace; the other 39 each use their time and earn 2 s.
    let v = w.board();
    assert_eq!(v.clock.white_ms, 180_000 + 39 * (2_000 - 3_000));
    assert_eq!(v.clock.black_ms, 180_000 + 39 * (2_000 - 1_000));
    assert_eq!(v.clock.deadline, Some(w.clock.now_ms() + 141_000));
    // One millisecond short of white's deadline: nothing.
    w.advance_ms(140_999);
    assert_eq!(w.board().clock.white_ms, 1);
    w.round();
    assert!(!w.board().finished);
    w.advance_ms(1);
    w.round();
    let v = w.board();
    assert_eq!(
        v.outcome,
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: WinReason::Timeout
        }),
        "{:?}",
        v.outcome
    );
    assert_eq!(w.kinds(), vec![NoticeKind::TimedOut]);
}

fn start_from(w: &World, fen: &str, tc: TimeControl) -> GameView {
    w.svc
        .challenges()
        .start_game_timed(
            &w.white,
            &w.black,
            w.ch,
            &Position::from_fen(fen).unwrap(),
            tc,
        )
        .unwrap()
}

#[test]
fn a_flag_against_a_lone_king_is_a_draw() {
    let w = world();
    let minute = TimeControl::Live {
        base_secs: 60,
        increment_secs: 0,
    };
    // Black has only its king: when white's flag falls, black cannot mate.
    start_from(&w, "4k3/8/8/8/8/8/Q7/4K3 w - - 0 1", minute);
    w.mv(Color::White, "Kd1").unwrap();
    w.mv(Color::Black, "Kd8").unwrap();
    w.advance_ms(60_000);
    w.round();
    assert_eq!(
        w.board().outcome,
        Some(Outcome::Draw {
            reason: DrawReason::TimeoutVsInsufficientMaterial
        })
    );
}

#[test]
fn a_flag_with_the_opponents_draw_offer_standing_is_a_draw() {
    let w = world();
    w.start("1d");
    w.mv(Color::White, "e4").unwrap();
    w.mv(Color::Black, "e5").unwrap();
    // Black offers a draw; white lets the clock run out.
    w.svc.play().draw_offer(&w.black, w.ch, None).unwrap();
    w.advance_ms(DAY_MS);
    w.round();
    assert_eq!(
        w.board().outcome,
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
    // White's own offer does not save white.
    let w = world();
    w.start("1d");
    w.mv(Color::White, "e4").unwrap();
    w.mv(Color::Black, "e5").unwrap();
    w.svc.play().draw_offer(&w.black, w.ch, None).unwrap();
    w.mv(Color::White, "Nf3").unwrap();
    w.mv(Color::Black, "Nc6").unwrap();
    w.svc.play().draw_offer(&w.white, w.ch, None).unwrap();
    w.advance_ms(DAY_MS);
    w.round();
    assert_eq!(
        w.board().outcome,
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: WinReason::Timeout
        })
    );
}

#[test]
fn the_80_percent_reminder_goes_out_once_and_only_after_both_moved() {
    let w = world();
    w.start("1d");
    w.mv(Color::White, "e4").unwrap();
    // Only white has moved: no reminder for black, however late.
    w.advance_ms(DAY_MS * 9 / 10);
    w.round();
    assert!(w.posts.posts().is_empty());
    w.mv(Color::Black, "e5").unwrap();
    w.advance_ms(DAY_MS * 8 / 10 - 1);
    w.round();
    assert!(w.posts.posts().is_empty());
    w.advance_ms(1);
    w.round();
    w.round();
    let posts = w.posts.posts();
    assert_eq!(posts.len(), 1);
    assert_eq!(posts[0].kind, NoticeKind::Reminder);
    // Only the player to move is pinged.
    assert_eq!(posts[0].mentions, vec![11]);
    assert!(posts[0].nonce.as_deref().unwrap().starts_with("cj"));
    // Once per move: a new move gets its own.
    w.mv(Color::White, "Nf3").unwrap();
    w.advance_ms(DAY_MS * 8 / 10);
    w.round();
    let posts = w.posts.posts();
    assert_eq!(posts.len(), 2);
    assert_eq!(posts[1].mentions, vec![22]);
    assert_ne!(posts[0].nonce, posts[1].nonce);
    // Then the timeout.
    w.advance_ms(DAY_MS * 2 / 10);
    w.round();
    assert_eq!(
        w.kinds(),
        vec![
            NoticeKind::Reminder,
            NoticeKind::Reminder,
            NoticeKind::TimedOut
        ]
    );
}

#[test]
fn a_move_one_millisecond_after_the_deadline_is_refused_and_the_game_ends_on_time() {
    let w = world();
    w.start("5+3");
    w.mv(Color::White, "e4").unwrap();
    w.mv(Color::Black, "e5").unwrap();
    // One millisecond before: accepted, with 3 s of increment.
    w.advance_ms(300_000 - 1);
    let v = w.mv(Color::White, "Nf3").unwrap();
    assert_eq!(v.clock.white_ms, 1 + 3_000);
    w.advance_ms(300_000 + 1);
    assert!(matches!(
        w.mv(Color::Black, "Nc6"),
        Err(GameError::TimeRanOut { .. })
    ));
    // The ending was committed in the move's transaction, before any scheduler round.
    let v = w.board();
    assert_eq!(
        v.outcome,
        Some(Outcome::Decisive {
            winner: Color::White,
            reason: WinReason::Timeout
        })
    );
    assert_eq!(v.ply, 3);
    // The scheduler posts it, once.
    w.round();
    w.round();
    assert_eq!(w.kinds(), vec![NoticeKind::TimedOut]);
}

#[test]
fn first_moves_have_a_grace_and_a_game_that_never_starts_is_aborted() {
    // Live: 30 s for white's first move, then 30 s for black's; no clock used meanwhile.
    let w = world();
    let v = w.start("3+2");
    assert!(v.clock.grace);
    w.advance_ms(29_000);
    let v = w.mv(Color::White, "e4").unwrap();
    assert_eq!((v.clock.white_ms, v.clock.black_ms), (180_000, 180_000));
    assert!(v.clock.grace);
    w.advance_ms(30_000);
    w.round();
    let v = w.board();
    assert!(v.aborted, "{:?}", v.outcome);
    assert_eq!(v.outcome, None);
    assert_eq!(w.kinds(), vec![NoticeKind::TimedOut]);
    assert!(w.posts.posts()[0].game.aborted);

    // Correspondence: the normal period, but a timeout before both moved aborts.
    let w = world();
    w.start("1d");
    w.mv(Color::White, "e4").unwrap();
    w.advance_ms(DAY_MS);
    w.round();
    assert!(w.board().aborted);
}

#[test]
fn an_abandoned_untimed_game_can_be_claimed_after_7_days() {
    let w = world();
    w.start("untimed");
    w.mv(Color::White, "e4").unwrap();
    w.mv(Color::Black, "e5").unwrap();
    w.advance_ms(6 * DAY_MS);
    assert!(matches!(
        w.svc.play().claim_abandoned(&w.black, w.ch, false),
        Err(GameError::ClaimTooEarly { at_ms, .. }) if at_ms == T0 + 7 * DAY_MS
    ));
    // The reminder at 80% of the 7 days went out, to white only.
    w.round();
    let posts = w.posts.posts();
    assert_eq!(posts.len(), 1);
    assert_eq!(posts[0].kind, NoticeKind::IdleReminder);
    assert_eq!(posts[0].mentions, vec![11]);
    w.advance_ms(DAY_MS);
    assert!(matches!(
        w.svc.play().claim_abandoned(&w.white, w.ch, false),
        Err(GameError::ClaimOwnTurn)
    ));
    let v = w
        .svc
        .play()
        .claim_abandoned(&w.black, w.ch, false)
        .unwrap()
        .view;
    assert_eq!(
        v.outcome,
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: WinReason::Timeout
        })
    );
    w.round();
    assert_eq!(w.posts.posts().len(), 1);

    // Or a draw.
    let w = world();
    w.start("untimed");
    w.mv(Color::White, "e4").unwrap();
    w.advance_ms(3 * DAY_MS);
    w.mv(Color::Black, "e5").unwrap();
    w.advance_ms(7 * DAY_MS);
    let v = w
        .svc
        .play()
        .claim_abandoned(&w.black, w.ch, true)
        .unwrap()
        .view;
    assert!(matches!(v.outcome, Some(Outcome::Draw { .. })));

    // A timed game is not claimed: it ends by itself.
    let w = world();
    w.start("1d");
    assert!(matches!(
        w.svc.play().claim_abandoned(&w.black, w.ch, false),
        Err(GameError::ClaimNotUntimed)
    ));
}

#[test]
fn an_old_game_without_a_clock_is_adopted_at_the_upgrade() {
    let clock = Arc::new(ManualClock::new(T0));
    let db = support::db::TestDb::new(
        support::db::Backend::of_target(env!("CARGO_CRATE_NAME")),
        "adopt",
    );
    let store = db.database().open().unwrap();
    store
        .immediate(|tx| {
            for (id, name) in [(11, "white"), (22, "black")] {
                tx.upsert_user(
                    &cajitas::store::UserRow {
                        id,
                        name: name.into(),
                        is_bot: false,
                    },
                    T0,
                )?;
            }
            let game = tx.insert_game(&NewGame {
                chess960: None,
                guild: Some(1),
                channel: 500,
                white: 11,
                black: 22,
                start_fen: &Position::new().fen(),
                now: T0,
                lang: "en",
                thread: None,
                rated: false,
                tc: TimeControlRow::default(),
                clock: ClockRow::default(),
            })?;
            // 1. e4 e5 were played before the upgrade, with no clock.
            let mut pos = Position::new();
            for (ply, (uci, san, user)) in [("e2e4", "e4", 11), ("e7e5", "e5", 22)]
                .into_iter()
                .enumerate()
            {
                let m = uci.parse::<Uci>().unwrap().to_move(&pos).unwrap();
                pos.play(m);
                let row = MoveRow {
                    ply: ply as u32,
                    uci: uci.into(),
                    san: san.into(),
                    user_id: user,
                    played_at: T0,
                };
                let fen = pos.fen();
                assert!(tx.append_move(
                    game,
                    ply as u32,
                    &row,
                    &fen,
                    &ClockRow::default(),
                    None
                )?);
            }
            Ok::<_, cajitas::store::StoreError>(())
        })
        .unwrap();
    // The upgrade ships a month after the game's last change.
    clock.advance(Duration::from_millis(30 * DAY_MS as u64));
    let upgrade = T0 + 30 * DAY_MS;
    let svc = GameService::with_store(store, ServiceOptions::with_clock(clock.clone()));
    assert_eq!(svc.clocks().adopt_unclocked_games().unwrap(), 1);
    assert_eq!(svc.clocks().adopt_unclocked_games().unwrap(), 0);
    let ch = ChannelRef {
        guild: Some(1),
        channel: 500,
    };
    let v = svc.queries().board(ch).unwrap();
    assert_eq!(v.clock.control, TimeControl::Untimed);
    assert_eq!(v.clock.deadline, Some(upgrade + 7 * DAY_MS));
    // Its reminder is scheduled from the upgrade too.
    assert_eq!(
        svc.clocks().next_due(EventScope::All).unwrap(),
        Some(upgrade + 7 * DAY_MS * 8 / 10)
    );
    let black = UserRef::new(22, "black", false);
    clock.advance(Duration::from_millis(6 * DAY_MS as u64));
    assert!(matches!(
        svc.play().claim_abandoned(&black, ch, false),
        Err(GameError::ClaimTooEarly { .. })
    ));
}

/// A SQLite file at `path` as version `version` of the bot left it: its first `version`
/// migrations applied.
fn old_database(path: &std::path::Path, version: usize) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(path).unwrap();
    for sql in &cajitas::store::sqlite::MIGRATION_FILES[..version] {
        conn.execute_batch(sql).unwrap();
    }
    conn.pragma_update(None, "user_version", version as i64)
        .unwrap();
    conn
}

#[test]
fn migration_0014_drops_the_untimed_reminders_pending_before_both_sides_moved() {
    let dir = support::bot::TempDir::new("clocks-0014");
    let db = dir.join("old.db");
    let idle_at = T0 + 7 * DAY_MS * 8 / 10;
    {
        // The schema as it was (migrations 0001 to 0013): two untimed games whose reminder
        // the earlier version scheduled, one after 1. e4 only, one after 1. e4 e5.
        let conn = old_database(&db, 13);
        let start = Position::new().fen();
        let mut games = String::from(
            "INSERT INTO users (id, name, is_bot, updated_at)
                 VALUES (11, 'white', 0, 0), (22, 'black', 0, 0);",
        );
        for (id, ply) in [(1, 1), (2, 2)] {
            let mut pos = Position::new();
            let mut moves = String::new();
            for (i, (uci, san, user)) in [("e2e4", "e4", 11), ("e7e5", "e5", 22)]
                .into_iter()
                .take(ply)
                .enumerate()
            {
                pos.play(uci.parse::<Uci>().unwrap().to_move(&pos).unwrap());
                moves.push_str(&format!(
                    "INSERT INTO moves (game_id, ply, uci, san, user_id, played_at)
                         VALUES ({id}, {i}, '{uci}', '{san}', {user}, {T0});"
                ));
            }
            let fen = pos.fen();
            games.push_str(&format!(
                "INSERT INTO games (id, guild_id, channel_id, white_id, black_id, start_fen, fen,
                     ply, created_at, updated_at, tc_kind, clock_at, deadline, seq, event_kind,
                     event_due)
                 VALUES ({id}, 1, {id}00, 11, 22, '{start}', '{fen}', {ply}, {T0}, {T0},
                     'untimed', {T0}, {T0} + 7 * {DAY_MS}, {ply}, 'idle_reminder', {idle_at});
                 {moves}"
            ));
        }
        conn.execute_batch(&games).unwrap();
    }
    let (opts, clock, posts) = recorded_options();
    let svc = GameService::open(&db, opts).unwrap();
    // Only the game both sides moved in keeps its reminder.
    assert_eq!(svc.clocks().next_due(EventScope::Only(100)).unwrap(), None);
    assert_eq!(
        svc.clocks().next_due(EventScope::Only(200)).unwrap(),
        Some(idle_at)
    );
    clock.advance(Duration::from_millis(7 * DAY_MS as u64));
    svc.clocks().run_round(EventScope::All).unwrap();
    let posts = posts.posts();
    assert_eq!(
        posts.len(),
        1,
        "{:?}",
        posts.iter().map(|p| &p.kind).collect::<Vec<_>>()
    );
    assert_eq!(posts[0].place.channel, 200);
    drop(svc);
}

#[test]
fn pending_events_from_before_migration_0010_move_into_their_games() {
    let dir = std::env::temp_dir().join(format!(
        "cajitas-clocks-0010-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("old.db");
    let day = DAY_MS;
    let reminder_at = T0 + day * 8 / 10;
    {
        // The schema as it was (migrations 0001 to 0009): a 1-day game after 1. e4 e5 with its
        // pending reminder as a row of clock_events, and a finished game whose timeout was
        // recorded done but not posted yet.
        let conn = old_database(&db, 9);
        let start = Position::new().fen();
        let after = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
        conn.execute_batch(&format!(
            "INSERT INTO users (id, name, is_bot, updated_at)
                 VALUES (11, 'white', 0, 0), (22, 'black', 0, 0);
             INSERT INTO games (id, guild_id, channel_id, white_id, black_id, start_fen, fen, ply,
                 created_at, updated_at, tc_kind, tc_base_ms, white_ms, black_ms, clock_at,
                 deadline, seq)
             VALUES (1, 1, 500, 11, 22, '{start}', '{after}', 2, {T0}, {T0}, 'correspondence',
                 {day}, {day}, {day}, {T0}, {T0} + {day}, 2);
             INSERT INTO moves (game_id, ply, uci, san, user_id, played_at)
                 VALUES (1, 0, 'e2e4', 'e4', 11, {T0}), (1, 1, 'e7e5', 'e5', 22, {T0});
             INSERT INTO clock_events (id, game_id, seq, kind, channel_id, due_at)
                 VALUES (7, 1, 2, 'reminder', 500, {reminder_at});
             INSERT INTO games (id, guild_id, channel_id, white_id, black_id, start_fen, fen, ply,
                 status, result, winner, termination, created_at, updated_at, finished_at,
                 tc_kind, tc_base_ms, seq)
             VALUES (2, 1, 600, 11, 22, '{start}', '{start}', 0, 'aborted', '*', NULL,
                 'aborted', {T0}, {T0}, {T0}, 'correspondence', {day}, 0);
             INSERT INTO clock_events (id, game_id, seq, kind, channel_id, due_at, done_at)
                 VALUES (8, 2, 0, 'timeout', 600, {T0}, {T0});"
        ))
        .unwrap();
    }
    let (opts, clock, posts) = recorded_options();
    let svc = GameService::open(&db, opts).unwrap();
    // The reminder is the game's pending event now, found by the index on the due time ...
    assert_eq!(
        svc.clocks().next_due(EventScope::All).unwrap(),
        Some(reminder_at)
    );
    assert_eq!(
        svc.clocks().next_due(EventScope::Only(500)).unwrap(),
        Some(reminder_at)
    );
    assert_eq!(
        svc.clocks().next_due(EventScope::Except(500)).unwrap(),
        None
    );
    // ... and the done event still waits for its post, with its nonce.
    let round = svc.clocks().run_round(EventScope::All).unwrap();
    assert_eq!((round.claimed, round.posted), (0, 1), "{round:?}");
    assert_eq!(posts.posts()[0].nonce.as_deref(), Some("cj8"));
    // The reminder goes out when due, once, under a new id; then the timeout.
    clock.advance(Duration::from_millis((day * 8 / 10) as u64));
    let round = svc.clocks().run_round(EventScope::All).unwrap();
    assert_eq!((round.claimed, round.posted), (1, 1), "{round:?}");
    assert_eq!(svc.clocks().run_round(EventScope::All).unwrap().posted, 0);
    let reminder = posts.posts()[1].clone();
    assert_eq!(reminder.kind, NoticeKind::Reminder);
    assert_eq!(reminder.mentions, vec![11]);
    assert_eq!(reminder.nonce.as_deref(), Some("cj9"));
    assert_eq!(
        svc.clocks().next_due(EventScope::All).unwrap(),
        Some(T0 + day)
    );
    clock.advance(Duration::from_millis((day * 2 / 10) as u64));
    svc.clocks().run_round(EventScope::All).unwrap();
    let ch = ChannelRef {
        guild: Some(1),
        channel: 500,
    };
    let v = svc.queries().board(ch).unwrap();
    assert!(v.finished);
    assert_eq!(v.ply, 2);
    assert_eq!(posts.posts()[2].kind, NoticeKind::TimedOut);
    assert_eq!(svc.clocks().next_due(EventScope::All).unwrap(), None);
    drop(svc);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_move_and_a_timeout_racing_end_the_game_once() {
    for _ in 0..20 {
        let w = world();
        w.start("3+2");
        w.mv(Color::White, "e4").unwrap();
        w.mv(Color::Black, "e5").unwrap();
        w.advance_ms(180_000);
        let svc = w.svc.clone();
        let scheduler =
            std::thread::spawn(move || svc.clocks().run_round(EventScope::All).unwrap());
        let mv = w.mv(Color::White, "Nf3");
        scheduler.join().unwrap();
        w.round();
        // Whichever came first, the move is refused and the game ended on time, once.
        assert!(
            matches!(mv, Err(GameError::TimeRanOut { .. } | GameError::GameOver)),
            "{mv:?}"
        );
        assert_eq!(w.board().ply, 2);
        assert_eq!(w.kinds(), vec![NoticeKind::TimedOut]);
    }
}

#[test]
fn a_takeback_gives_the_game_a_new_seq_and_replaces_its_event() {
    let w = world();
    w.start("1d");
    w.mv(Color::White, "e4").unwrap();
    w.mv(Color::Black, "e5").unwrap();
    // Both moved: the next event is white's reminder.
    let reminder = T0 + DAY_MS * 8 / 10;
    assert_eq!(
        w.svc.clocks().next_due(EventScope::All).unwrap(),
        Some(reminder)
    );
    w.advance_ms(DAY_MS / 2);
    w.svc.play().takeback_request(&w.black, w.ch, None).unwrap();
    w.svc.play().takeback_accept(&w.white, w.ch, None).unwrap();
    // Black to move again, from now, before both moved: the next event is black's timeout
    // (no reminder before both moved), and the reminder is gone.
    let after = w.svc.clocks().next_due(EventScope::All).unwrap().unwrap();
    assert_eq!(after, T0 + DAY_MS / 2 + DAY_MS);
    w.advance_ms(DAY_MS * 4 / 10);
    w.round();
    assert!(w.posts.posts().is_empty());
    assert_eq!(w.board().clock.deadline, Some(T0 + DAY_MS / 2 + DAY_MS));
}

#[test]
fn an_untimed_game_sends_no_reminder_before_both_sides_moved() {
    let w = world();
    w.start("untimed");
    // Nobody moved, then only white: no reminder is pending, and none goes out.
    assert_eq!(w.svc.clocks().next_due(EventScope::All).unwrap(), None);
    w.mv(Color::White, "e4").unwrap();
    assert_eq!(w.svc.clocks().next_due(EventScope::All).unwrap(), None);
    w.advance_ms(6 * DAY_MS);
    w.round();
    assert!(w.posts.posts().is_empty());
    // Both moved: white's reminder at 80% of the 7 days from black's move.
    w.mv(Color::Black, "e5").unwrap();
    let black_moved = T0 + 6 * DAY_MS;
    let reminder = black_moved + 7 * DAY_MS * 8 / 10;
    assert_eq!(
        w.svc.clocks().next_due(EventScope::All).unwrap(),
        Some(reminder)
    );
    // Black takes the move back: the reminder is gone with it.
    w.svc.play().takeback_request(&w.black, w.ch, None).unwrap();
    w.svc.play().takeback_accept(&w.white, w.ch, None).unwrap();
    assert_eq!(w.board().ply, 1);
    assert_eq!(w.svc.clocks().next_due(EventScope::All).unwrap(), None);
    w.advance_ms(7 * DAY_MS);
    w.round();
    assert!(w.posts.posts().is_empty(), "{:?}", w.kinds());
    // The waiting player's claim ends the game that never started: aborted.
    let v = w
        .svc
        .play()
        .claim_abandoned(&w.white, w.ch, false)
        .unwrap()
        .view;
    assert!(v.aborted);
}

/// A game in `channel`, its timeout due: only a scheduler whose scope holds the channel
/// handles it.
fn only_its_scope(channel: u64) {
    let mut w = world();
    w.ch.channel = channel;
    w.start("1d");
    w.mv(Color::White, "e4").unwrap();
    w.advance_ms(DAY_MS);
    // `cajitas run` skips the channel: nothing happens.
    assert_eq!(
        w.svc
            .clocks()
            .run_round(EventScope::Except(channel))
            .unwrap(),
        cajitas::game::Round::default()
    );
    assert!(!w.board().finished);
    assert_eq!(
        w.svc
            .clocks()
            .next_due(EventScope::Except(channel))
            .unwrap(),
        None
    );
    assert_eq!(
        w.svc.clocks().next_due(EventScope::Only(501)).unwrap(),
        None
    );
    assert_eq!(
        w.svc.clocks().next_due(EventScope::Only(channel)).unwrap(),
        Some(T0 + DAY_MS)
    );
    assert_eq!(
        w.svc.clocks().next_due(EventScope::All).unwrap(),
        Some(T0 + DAY_MS)
    );
    // The channel's own scheduler (`cajitas local`) handles it.
    let round = w.svc.clocks().run_round(EventScope::Only(channel)).unwrap();
    assert_eq!((round.claimed, round.posted), (1, 1));
    assert!(w.board().aborted);
}

#[test]
fn the_scheduler_handles_only_its_scope() {
    only_its_scope(500);
}

#[test]
fn the_consoles_channel_has_its_own_index_and_the_same_scopes() {
    // The console's channel is read through its partial index (migration 0012), by queries
    // that name the channel literally: the same answers as any other channel's.
    let local = cajitas::console::local_channel().channel;
    assert_eq!(local, cajitas::store::LOCAL_CHANNEL_ID);
    only_its_scope(local);
}

fn wait_for(what: &str, cond: impl Fn() -> bool) {
    let start = std::time::Instant::now();
    while !cond() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "waited for {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn the_scheduler_sleeps_until_the_earliest_event_and_a_move_wakes_it_early() {
    let w = world();
    w.start("14d");
    let scheduler = Scheduler::start(w.svc.clone(), EventScope::All);
    wait_for("the plan", || scheduler.planned() == Some(T0 + 14 * DAY_MS));
    let woke = scheduler.wakeups();
    // Nothing is due: it does not wake. A live game in another channel: a deadline in 30 s
    // wakes it to plan again, and that wake-up is the first one since the plan.
    let ch2 = ChannelRef {
        guild: Some(1),
        channel: 501,
    };
    let (c, d) = (UserRef::new(33, "c", false), UserRef::new(44, "d", false));
    w.svc
        .challenges()
        .challenge_timed(&c, ch2, None, ColourChoice::White, "3+2".parse().unwrap())
        .unwrap();
    w.svc.challenges().accept(&d, ch2).unwrap();
    wait_for("the new plan", || scheduler.planned() == Some(T0 + 30_000));
    assert_eq!(scheduler.wakeups(), woke + 1);
    // A later deadline does not wake it: no ring waits for it, and none was counted.
    w.svc
        .play()
        .play_move(&w.white, w.ch, "e4", Lang::En, false)
        .unwrap();
    assert!(!scheduler.ring_pending(), "the move rang the scheduler");
    assert_eq!(scheduler.wakeups(), woke + 1);
    // Virtual time passes; a poke runs the round that aborts the live game: its wake-up is
    // the first one since the move (the move woke nothing).
    w.advance_ms(30_000);
    scheduler.poke();
    wait_for("the abort", || w.svc.queries().board(ch2).unwrap().aborted);
    assert_eq!(scheduler.wakeups(), woke + 2);
    wait_for("the post", || w.posts.posts().len() == 1);
    scheduler.stop();
}

#[test]
fn a_real_one_second_live_clock_runs_out() {
    let posts = Arc::new(RecordingNotifier::default());
    let opts = ServiceOptions {
        notifier: posts.clone(),
        ..ServiceOptions::default()
    };
    let svc = support::db::memory_or_postgres(env!("CARGO_CRATE_NAME"), opts);
    let (white, black) = (
        UserRef::new(11, "white", false),
        UserRef::new(22, "black", false),
    );
    let ch = ChannelRef {
        guild: Some(1),
        channel: 500,
    };
    let one_second = TimeControl::Live {
        base_secs: 1,
        increment_secs: 0,
    };
    let _scheduler = Scheduler::start(svc.clone(), EventScope::All);
    svc.challenges()
        .start_game_timed(&white, &black, ch, &Position::new(), one_second)
        .unwrap();
    let started = std::time::Instant::now();
    svc.play()
        .play_move(&white, ch, "e4", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(&black, ch, "e5", Lang::En, false)
        .unwrap();
    // White's one second runs; nobody moves.
    wait_for("the flag", || !posts.posts().is_empty());
    let elapsed = started.elapsed();
    assert!(elapsed >= Duration::from_millis(1_000), "{elapsed:?}");
    let v = svc.queries().board(ch).unwrap();
    assert_eq!(
        v.outcome,
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: WinReason::Timeout
        })
    );
    assert_eq!(posts.posts()[0].kind, NoticeKind::TimedOut);
}

// Issue 25, item 4: the final clock.
#[test]
fn a_flagged_side_shows_no_time_left() {
    use cajitas::i18n::clock::clock_line;
    // Live: black flags; the scheduler comes 5 s late.
    let w = world();
    w.start("3+2");
    w.mv(Color::White, "e4").unwrap();
    w.mv(Color::Black, "e5").unwrap();
    w.advance_ms(10_000);
    w.mv(Color::White, "Nf3").unwrap();
    w.advance_ms(185_000);
    w.round();
    let v = w.board();
    assert!(v.finished);
    assert_eq!((v.clock.white_ms, v.clock.black_ms), (172_000, 0));
    assert_eq!(
        clock_line(Lang::En, &v.clock).unwrap(),
        "⏱ 3+2 (live) · White 2:52 · Black 0:00"
    );
    // Correspondence: white's day runs out; a move after it is refused and ends the game.
    let w = world();
    w.start("1d");
    w.mv(Color::White, "e4").unwrap();
    w.mv(Color::Black, "e5").unwrap();
    w.advance_ms(DAY_MS + 1);
    assert!(matches!(
        w.mv(Color::White, "Nf3"),
        Err(GameError::TimeRanOut { .. })
    ));
    let v = w.board();
    assert!(v.finished);
    assert_eq!((v.clock.white_ms, v.clock.black_ms), (0, DAY_MS));
    assert_eq!(
        clock_line(Lang::En, &v.clock).unwrap(),
        "⏱ 1 day per move · White 0 h 0 min · Black 1 d 0 h"
    );
    // A game that ends otherwise keeps the clock as it stood at its end: white resigns
    // after an hour of thought.
    let w = world();
    w.start("1d");
    w.mv(Color::White, "e4").unwrap();
    w.mv(Color::Black, "e5").unwrap();
    w.advance_ms(3_600_000);
    w.svc.play().resign(&w.white, w.ch, None).unwrap();
    w.advance_ms(3_600_000);
    let v = w.board();
    assert_eq!(v.clock.white_ms, DAY_MS - 3_600_000);
}

// Issue 25, item 5: a takeback never gives time back.
#[test]
fn a_takeback_charges_the_time_used_and_gives_none_back() {
    let w = world();
    w.start("3+2");
    w.mv(Color::White, "e4").unwrap();
    w.mv(Color::Black, "e5").unwrap();
    w.advance_ms(1_000);
    w.mv(Color::White, "Nf3").unwrap();
    w.advance_ms(1_000);
    let v = w.mv(Color::Black, "Nc6").unwrap();
    assert_eq!((v.clock.white_ms, v.clock.black_ms), (181_000, 181_000));
    // White thinks 2:28: 0:33 left. White asks to take back Nf3 and Nc6; black accepts 2 s
    // later. White is charged the 2:30 their turn took, then the game is rewound: white to
    // move at 0:31 from now, black's time as it was.
    w.advance_ms(148_000);
    assert_eq!(w.board().clock.white_ms, 33_000);
    let t = w.svc.play().takeback_request(&w.white, w.ch, None).unwrap();
    assert_eq!(t.plies, 2);
    w.advance_ms(2_000);
    w.svc.play().takeback_accept(&w.black, w.ch, None).unwrap();
    let v = w.board();
    assert_eq!(v.ply, 2);
    assert_eq!((v.clock.white_ms, v.clock.black_ms), (31_000, 181_000));
    assert_eq!(v.clock.deadline, Some(w.clock.now_ms() + 31_000));
    // White's clock runs on from the takeback.
    w.advance_ms(1_000);
    assert_eq!(w.board().clock.white_ms, 30_000);
    // One ply: white plays, black thinks 5 s, white asks to take the move back and black
    // accepts 1 s later. Black, whose clock was running, is charged the 6 s; white moves
    // again with the time their move left them.
    let v = w.mv(Color::White, "Nf3").unwrap();
    assert_eq!(v.clock.white_ms, 32_000);
    w.advance_ms(5_000);
    let t = w.svc.play().takeback_request(&w.white, w.ch, None).unwrap();
    assert_eq!(t.plies, 1);
    w.advance_ms(1_000);
    w.svc.play().takeback_accept(&w.black, w.ch, None).unwrap();
    let v = w.board();
    assert_eq!(v.ply, 2);
    assert_eq!((v.clock.white_ms, v.clock.black_ms), (32_000, 175_000));
}

// Issue 25, item 6: an operation's time is read once it holds the store.

/// A clock that counts the reads made while nobody holds the service's store.
struct WatchfulClock {
    time: ManualClock,
    store: std::sync::OnceLock<cajitas::store::SharedStore>,
    unheld: std::sync::atomic::AtomicUsize,
}

impl std::fmt::Debug for WatchfulClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WatchfulClock")
            .field("time", &self.time)
            .finish_non_exhaustive()
    }
}

impl Clock for WatchfulClock {
    fn now_ms(&self) -> i64 {
        // `try_lock` never blocks, not even on the thread that holds the lock.
        if self.store.get().is_some_and(|s| s.try_lock().is_ok()) {
            self.unheld
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        self.time.now_ms()
    }
}

#[test]
fn an_operation_reads_the_time_only_while_it_holds_the_store() {
    let clock = Arc::new(WatchfulClock {
        time: ManualClock::new(T0),
        store: std::sync::OnceLock::new(),
        unheld: Default::default(),
    });
    let svc = support::db::memory_or_postgres(
        env!("CARGO_CRATE_NAME"),
        ServiceOptions::with_clock(clock.clone()),
    );
    assert!(clock.store.set(svc.shared_store()).is_ok());
    let (white, black) = (
        UserRef::new(11, "white", false),
        UserRef::new(22, "black", false),
    );
    let ch = ChannelRef {
        guild: Some(1),
        channel: 500,
    };
    let terms = ChallengeTerms {
        colour: ColourChoice::White,
        time: "3+2".parse().unwrap(),
        rated: false,
        variant: cajitas::game::Variant::Standard,
    };
    svc.challenges()
        .challenge_with(&white, ch, Some(&black), terms)
        .unwrap();
    svc.challenges().accept(&black, ch).unwrap();
    for (who, text) in [(&white, "e4"), (&black, "e5"), (&white, "Nf3")] {
        clock.time.advance(Duration::from_secs(3));
        svc.play()
            .play_move(who, ch, text, Lang::En, false)
            .unwrap();
    }
    svc.play().takeback_request(&white, ch, None).unwrap();
    svc.play().takeback_accept(&black, ch, None).unwrap();
    svc.play().resign(&white, ch, None).unwrap();
    assert_eq!(
        clock.unheld.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "the time was read before the operation held the store"
    );
}

/// This thread's id (Linux).
#[cfg(target_os = "linux")]
fn thread_id() -> String {
    let link = std::fs::read_link("/proc/thread-self").unwrap();
    link.file_name().unwrap().to_string_lossy().into_owned()
}

/// Whether thread `tid` of this process sleeps (it waits on a lock).
#[cfg(target_os = "linux")]
fn sleeping(tid: &str) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).unwrap();
    // `pid (comm) S …`: the state follows the last parenthesis.
    stat.rsplit_once(") ")
        .is_some_and(|(_, rest)| rest.starts_with('S'))
}

#[cfg(target_os = "linux")]
#[test]
fn a_move_that_waited_behind_another_operation_is_timed_from_when_it_held_the_game() {
    let w = world();
    w.start("3+2");
    w.mv(Color::White, "e4").unwrap();
    w.mv(Color::Black, "e5").unwrap();
    w.advance_ms(5_000);
    // Black's turn begins now.
    w.mv(Color::White, "Nf3").unwrap();
    // Another operation holds the store; black's move arrives and waits for it.
    let store = w.svc.shared_store();
    let held = store.lock().unwrap();
    let (tid_tx, tid_rx) = std::sync::mpsc::channel();
    let (svc, black, ch) = (w.svc.clone(), w.black.clone(), w.ch);
    let mover = std::thread::spawn(move || {
        tid_tx.send(thread_id()).unwrap();
        svc.play()
            .play_move(&black, ch, "Nc6", Lang::En, false)
            .map(|r| r.view)
    });
    let tid = tid_rx.recv().unwrap();
    wait_for("black's move to wait for the store", || sleeping(&tid));
    // The other operation takes 10 s; then black's move holds the game.
    w.advance_ms(10_000);
    drop(held);
    let v = mover.join().unwrap().unwrap();
    // Black used the 10 s up to the moment the move held the game (and earned 2 s).
    assert_eq!(v.clock.black_ms, 180_000 - 10_000 + 2_000);
    assert_eq!(v.clock.deadline, Some(w.clock.now_ms() + v.clock.white_ms));
}

/// PostgreSQL, shared by several processes: a move that waited for the game's channel, held
/// by another process, is timed from when it held the game, not from when it arrived.
#[test]
fn a_move_that_waited_for_another_process_is_timed_from_when_it_held_the_game() {
    use support::db::{Backend, TestDb};
    if Backend::of_target(env!("CARGO_CRATE_NAME")) != Backend::Postgres {
        return;
    }
    let db = TestDb::new(Backend::Postgres, "held-game");
    let TestDb::Postgres(pg) = &db else {
        unreachable!()
    };
    let clock = Arc::new(ManualClock::new(T0));
    let svc = db.open(ServiceOptions::with_clock(clock.clone()));
    let (white, black) = (
        UserRef::new(11, "white", false),
        UserRef::new(22, "black", false),
    );
    let ch = ChannelRef {
        guild: Some(1),
        channel: 501,
    };
    svc.challenges()
        .challenge_timed(
            &white,
            ch,
            Some(&black),
            ColourChoice::White,
            "3+2".parse().unwrap(),
        )
        .unwrap();
    svc.challenges().accept(&black, ch).unwrap();
    svc.play()
        .play_move(&white, ch, "e4", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(&black, ch, "e5", Lang::En, false)
        .unwrap();
    clock.advance(Duration::from_secs(5));
    // Black's turn begins now.
    svc.play()
        .play_move(&white, ch, "Nf3", Lang::En, false)
        .unwrap();
    // Another process holds the channel's lock (the key of every write on its games).
    let mut other = pg.client();
    let key = ch.channel as i64;
    other
        .execute("SELECT pg_advisory_lock($1)", &[&key])
        .unwrap();
    let mover = {
        let (svc, black) = (svc.clone(), black.clone());
        std::thread::spawn(move || {
            svc.play()
                .play_move(&black, ch, "Nc6", Lang::En, false)
                .map(|r| r.view)
        })
    };
    let waiting = "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted \
                   AND objid = 501 AND database = \
                   (SELECT oid FROM pg_database WHERE datname = current_database())";
    wait_for("black's move to wait for the channel", || {
        db.count(waiting) == 1
    });
    // The other process takes 10 s; then black's move holds the game.
    clock.advance(Duration::from_secs(10));
    other
        .execute("SELECT pg_advisory_unlock($1)", &[&key])
        .unwrap();
    let v = mover.join().unwrap().unwrap();
    assert_eq!(v.clock.black_ms, 180_000 - 10_000 + 2_000);
}
