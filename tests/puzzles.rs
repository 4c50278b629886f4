//! Puzzles through the game service (issue 30): starting one (by id, by theme, around a
//! rating, never one already seen), answering in any notation, a wrong move, a hint, the
//! solution, the ply-checked answer, and the puzzle rating against a Glicko-2 computed by hand.

mod support;

use std::sync::Arc;
use std::time::Duration;

use cajitas::game::ratings::{Glicko, PARAMS};
use cajitas::game::server_puzzles::{FoundLine, MAX_TRIES, RETRY_AFTER, SEARCH_LEASE};
use cajitas::game::{
    ChannelRef, ColourChoice, GameError, GameService, Lang, ManualClock, PuzzleOrigin,
    PuzzleRequest, PuzzleSource, PuzzleView, ServiceOptions, UserRef,
};
use cajitas::puzzles;
use cajitas::store::{AttemptStep, PuzzleStatus, StoreExt};
use cajitas_rules::{Color, Position, Role, Square, Uci};

const DAY: Duration = Duration::from_secs(86_400);
const GUILD: u64 = 900;

fn svc() -> (GameService, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(1_800_000_000_000));
    let svc = support::db::memory_or_postgres(
        env!("CARGO_CRATE_NAME"),
        ServiceOptions::with_clock(clock.clone()),
    );
    (svc, clock)
}

fn alice() -> UserRef {
    UserRef::new(1, "alice", false)
}

fn ch(channel: u64) -> ChannelRef {
    ChannelRef {
        guild: Some(GUILD),
        channel,
    }
}

fn by_id(id: &str) -> PuzzleRequest {
    PuzzleRequest {
        id: Some(id.to_string()),
        ..PuzzleRequest::default()
    }
}

fn start(g: &GameService, id: &str) -> PuzzleView {
    g.puzzles().start(&alice(), ch(10), &by_id(id)).unwrap()
}

fn answer(g: &GameService, text: &str) -> PuzzleView {
    g.puzzles()
        .answer(&alice(), ch(10), text, Lang::En)
        .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-4
}

#[test]
fn three_rated_attempts_match_a_glicko2_computed_by_hand() {
    let (g, clock) = svc();
    // Computed outside the program (the paper's steps with lichess's τ 0.75, no rating
    // period added by a game, RD within 45..=500, volatility at most 0.1, at most ±700 a
    // game; the deviation widened by 0.21436 periods a day idle), against each puzzle's own
    // rating and deviation:
    //   1. 000rZ (633/93) solved, at once:      1500/500      -> 1510.744326/485.069894
    //   2. 001KR (588/81) failed, a day later:   RD 485.123901 -> 810.744326/475.208647
    //      (the −700 cap of one game)
    //   3. 002Q2 (911/78) solved, 2 days later: RD 475.319110 -> 1116.027644/292.975823
    let hand = [
        (1500.0, 500.0, 1510.744326, 485.069894),
        (1510.744326, 485.123901, 810.744326, 475.208647),
        (810.744326, 475.319110, 1116.027644, 292.975823),
    ];

    let v = start(&g, "000rZ");
    assert!(v.rated);
    assert_eq!(v.solver, Color::Black);
    assert_eq!(v.to_move(), Color::Black);
    let v = answer(&g, "Qxh2#");
    assert_eq!(v.status, PuzzleStatus::Solved);
    let c1 = v.change.unwrap();

    clock.advance(DAY);
    start(&g, "001KR");
    // A wrong (legal) move fails; the solution is the line's move.
    let v = answer(&g, "h3");
    assert_eq!(v.status, PuzzleStatus::Failed);
    assert_eq!(v.played.as_deref(), Some("h3"));
    assert_eq!(v.solution, ["Rf8#"]);
    let c2 = v.change.unwrap();

    clock.advance(2 * DAY);
    start(&g, "002Q2");
    let v = answer(&g, "f5g3");
    assert_eq!(v.status, PuzzleStatus::Solved);
    let c3 = v.change.unwrap();

    for (c, (rb, db, ra, da)) in [c1, c2, c3].iter().zip(hand) {
        assert!(close(c.before.rating, rb), "{c:?} vs {rb}");
        assert!(close(c.before.deviation, db), "{c:?} vs {db}");
        assert!(close(c.after.rating, ra), "{c:?} vs {ra}");
        assert!(close(c.after.deviation, da), "{c:?} vs {da}");
    }
    assert_eq!(c2.diff(), 811 - 1511);
    let (now, attempts) = g.puzzles().rating(alice().id, ch(11)).unwrap();
    assert_eq!(attempts, 3);
    assert!(close(now.rating, 1116.027644));
    assert!(now.provisional());
    // Another server's pool is apart.
    let (other, n) = g
        .puzzles()
        .rating(
            alice().id,
            ChannelRef {
                guild: Some(901),
                channel: 10,
            },
        )
        .unwrap();
    assert_eq!((other.rounded(), n), (1500, 0));
    // /stats and the console's stats show it, worded once for both.
    let stats = g.ratings().stats(ch(12), &alice()).unwrap();
    let (shown, n) = stats.puzzles.unwrap();
    assert_eq!((shown.rounded(), n), (1116, 3));
    // Its chart: a puzzle line of the three ratings after each attempt, beside no game line.
    let after: Vec<i64> = stats
        .puzzle_history
        .iter()
        .map(|p| p.rating.round() as i64)
        .collect();
    assert_eq!(after, [1511, 811, 1116]);
    let chart = cajitas::render::chart::Chart::of_stats(&stats, Lang::Es);
    assert_eq!(chart.series.len(), 1);
    assert_eq!(chart.series[0].label, "Problemas");
    assert_eq!(chart.series[0].points.len(), 3);
    use cajitas::i18n::{Presentation, ratings::puzzles_line};
    assert_eq!(
        puzzles_line(Lang::En, Presentation::Console, shown, n),
        "1116? (RD 293), provisional · 3 rated attempts"
    );
    assert_eq!(
        puzzles_line(Lang::Es, Presentation::Discord, shown, n),
        "**1116?** (RD 293), provisional · 3 intentos puntuados"
    );
    let elsewhere = ChannelRef {
        guild: Some(901),
        channel: 10,
    };
    assert_eq!(
        g.ratings().stats(elsewhere, &alice()).unwrap().puzzles,
        None
    );
}

#[test]
fn a_hint_a_replay_and_an_abandoned_puzzle_are_not_rated() {
    let (g, _clock) = svc();
    // A hint names the piece and unrates the attempt.
    let v = start(&g, "002X3"); // ...Rxa3, then Qa8+ Qb8 Qxb8#
    assert!(v.rated);
    let v = g.puzzles().hint(&alice(), ch(10)).unwrap();
    let h = v.hint.unwrap();
    assert_eq!((h.role, h.from), (Role::Queen, Square::G2));
    assert!(v.hinted && !v.rated);
    // A Spanish answer is read; the opponent's reply comes back.
    let v = g
        .puzzles()
        .answer(&alice(), ch(10), "Da8+", Lang::Es)
        .unwrap();
    assert_eq!(v.status, PuzzleStatus::Playing);
    assert_eq!(v.played.as_deref(), Some("Qa8+"));
    assert_eq!(v.reply.as_deref(), Some("Qb8"));
    let v = answer(&g, "Qxb8#");
    assert_eq!(v.status, PuzzleStatus::Solved);
    assert_eq!(v.change, None);
    assert_eq!(g.puzzles().rating(alice().id, ch(10)).unwrap().1, 0);

    // A replay of a puzzle seen is not rated, solved or not.
    let v = start(&g, "002X3");
    assert!(!v.rated);
    let v = g.puzzles().solution(&alice(), ch(10)).unwrap();
    assert_eq!(v.status, PuzzleStatus::Failed);
    assert_eq!(v.solution, ["Qa8+", "Qb8", "Qxb8#"]);
    assert_eq!(v.change, None);

    // A puzzle left for another is abandoned, unrated, and seen: later it is not rated.
    assert!(start(&g, "000rZ").rated);
    assert!(start(&g, "001KR").rated);
    assert!(matches!(
        g.puzzles().answer(&alice(), ch(11), "Rf8#", Lang::En),
        Err(GameError::NoPuzzle)
    ));
    assert!(!start(&g, "000rZ").rated);
    assert_eq!(g.puzzles().rating(alice().id, ch(10)).unwrap().1, 0);
}

#[test]
fn refusals_change_nothing_and_an_answer_is_ply_checked() {
    let (g, _clock) = svc();
    let me = alice();
    let p = g.puzzles();
    assert!(matches!(
        p.answer(&me, ch(10), "e4", Lang::En),
        Err(GameError::NoPuzzle)
    ));
    assert!(matches!(p.hint(&me, ch(10)), Err(GameError::NoPuzzle)));
    assert!(matches!(p.solution(&me, ch(10)), Err(GameError::NoPuzzle)));
    assert!(matches!(
        p.start(&me, ch(10), &by_id("nope0")),
        Err(GameError::UnknownPuzzle(id)) if id == "nope0"
    ));
    assert!(matches!(
        p.start(&me, ch(10), &by_id(&"x".repeat(10_000))),
        Err(GameError::TooLong { .. })
    ));
    let themed = |theme: &str| PuzzleRequest {
        theme: Some(theme.to_string()),
        ..PuzzleRequest::default()
    };
    assert!(matches!(
        p.start(&me, ch(10), &themed("flying")),
        Err(GameError::UnknownTheme(t)) if t == "flying"
    ));
    assert!(matches!(
        p.start(&me, ch(10), &themed(&"é".repeat(5_000))),
        Err(GameError::TooLong { .. })
    ));
    let rated_at = |r: i32| PuzzleRequest {
        rating: Some(r),
        ..PuzzleRequest::default()
    };
    assert!(matches!(
        p.start(&me, ch(10), &rated_at(9_999)),
        Err(GameError::PuzzleRatingRange { .. })
    ));

    let v = start(&g, "002X3");
    // An unreadable or illegal move is refused and fails nothing.
    for bad in ["", "xyz", "Ke5", &"a".repeat(100)] {
        assert!(p.answer(&me, ch(10), bad, Lang::En).is_err(), "{bad}");
    }
    assert_eq!(
        p.open(&me, ch(10)).unwrap().unwrap().status,
        PuzzleStatus::Playing
    );
    // An answer written against a ply that moved on matches nothing.
    answer(&g, "Qa8+");
    let store = g.shared_store();
    let stale = store.lock().unwrap().immediate(|tx| {
        tx.advance_puzzle_attempt(
            v.attempt_id,
            1,
            &AttemptStep {
                ply: 3,
                hinted: false,
                status: PuzzleStatus::Solved,
                change: None,
            },
            0,
        )
    });
    assert!(!stale.unwrap());
    let open = p.open(&me, ch(10)).unwrap().unwrap();
    assert_eq!(open.status, PuzzleStatus::Playing);
    assert_eq!(open.position.fen(), {
        let puzzle = puzzles::shared().get("002X3").unwrap();
        let mut pos = puzzle.start.clone();
        for &m in &puzzle.moves[..3] {
            pos.play(m);
        }
        pos.fen()
    });
}

#[test]
fn a_chosen_puzzle_is_unseen_of_its_theme_and_near_the_rating_asked() {
    let (g, _clock) = svc();
    let me = alice();
    let req = PuzzleRequest {
        theme: Some("FORK".to_string()),
        rating: Some(1500),
        id: None,
        ..PuzzleRequest::default()
    };
    // Without a rating asked, the solver's own (1500 at first) is the window's centre.
    let v = g
        .puzzles()
        .start(&me, ch(12), &PuzzleRequest::default())
        .unwrap();
    assert!((v.puzzle.rating - 1500).abs() <= 100, "{}", v.puzzle.rating);
    let mut seen = vec![v.puzzle.id.clone()];
    for _ in 0..5 {
        let v = g.puzzles().start(&me, ch(10), &req).unwrap();
        assert!(v.puzzle.has_theme("fork"));
        assert!(v.rated);
        assert!(!seen.contains(&v.puzzle.id), "{} twice", v.puzzle.id);
        seen.push(v.puzzle.id.clone());
        g.puzzles().solution(&me, ch(10)).unwrap();
    }
}

/// Answers `v`'s puzzle with its whole line (in UCI) and returns the last answer's view.
fn solve(g: &GameService, v: &PuzzleView) -> PuzzleView {
    let mut last = None;
    for m in v.puzzle.moves[1..].iter().step_by(2) {
        let text = cajitas_rules::Uci::from_move(*m).to_string();
        last = Some(answer(g, &text));
    }
    last.unwrap()
}

/// A legal move of `v`'s board that is neither the line's next move nor a mate.
fn wrong(v: &PuzzleView) -> String {
    let expected = v.puzzle.moves[1];
    let m = v
        .position
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| {
            let mut after = v.position.clone();
            after.play(m);
            m != expected && !after.is_checkmate()
        })
        .unwrap();
    cajitas_rules::Uci::from_move(m).to_string()
}

#[test]
fn a_puzzle_streak_climbs_unrated_without_hints_until_the_first_mistake() {
    let (g, _clock) = svc();
    let p = g.puzzles();
    let me = alice();
    let v = p.start_streak(&me, ch(10)).unwrap();
    let s = v.streak.unwrap();
    assert_eq!((s.solved, s.ended, s.best, s.ladder), (0, false, 0, 149));
    assert!(!v.rated, "a streak is unrated");
    assert!((v.puzzle.rating - 1050).abs() < 300, "{}", v.puzzle.rating);
    // No hints, and the refusal changes nothing.
    assert!(matches!(
        p.hint(&me, ch(10)),
        Err(GameError::NoHintInStreak)
    ));
    assert_eq!(
        p.open(&me, ch(10)).unwrap().unwrap().attempt_id,
        v.attempt_id
    );

    // Solved: the next puzzle of the ladder starts at once, no harder than the one after.
    let done = solve(&g, &v);
    assert_eq!(done.status, PuzzleStatus::Solved);
    assert_eq!(done.change, None);
    assert_eq!(done.streak.unwrap().solved, 1);
    let second = *done.next.unwrap();
    assert_ne!(second.puzzle.id, v.puzzle.id);
    assert_eq!(second.status, PuzzleStatus::Playing);
    assert_eq!(
        p.open(&me, ch(10)).unwrap().unwrap().attempt_id,
        second.attempt_id
    );
    let third = *solve(&g, &second).next.unwrap();
    assert_eq!(third.streak.unwrap().solved, 2);

    // The first mistake ends the run: its score is the puzzles solved.
    let v = answer(&g, &wrong(&third));
    assert_eq!(v.status, PuzzleStatus::Failed);
    assert!(v.next.is_none());
    let s = v.streak.unwrap();
    assert_eq!((s.solved, s.ended, s.best), (2, true, 2));
    assert!(p.open(&me, ch(10)).unwrap().is_none());
    assert_eq!(p.best_streak(me.id, ch(11)).unwrap(), 2);

    // A worse run keeps the best; giving up ends a run; another puzzle in its place too.
    let v = p.start_streak(&me, ch(10)).unwrap();
    solve(&g, &v);
    let v = p.solution(&me, ch(10)).unwrap();
    let s = v.streak.unwrap();
    assert_eq!((s.solved, s.ended, s.best), (1, true, 2));
    let v = p.start_streak(&me, ch(10)).unwrap();
    let next = *solve(&g, &v).next.unwrap();
    let next = *solve(&g, &next).next.unwrap();
    solve(&g, &next);
    assert_eq!(p.best_streak(me.id, ch(10)).unwrap(), 3);
    // The stats show the best streak, worded once for both fronts.
    let stats = g.ratings().stats(ch(12), &me).unwrap();
    assert_eq!(stats.puzzle_streak, 3);
    use cajitas::i18n::{Presentation, ratings::puzzle_stats_lines};
    assert_eq!(
        puzzle_stats_lines(Lang::En, Presentation::Console, &stats),
        ["Best Puzzle Streak: 3"]
    );
    assert_eq!(
        puzzle_stats_lines(Lang::Es, Presentation::Discord, &stats),
        ["Mejor racha de problemas: 3"]
    );
    p.start(&me, ch(10), &by_id("000rZ")).unwrap();
    assert!(p.open(&me, ch(10)).unwrap().unwrap().streak.is_none());
    assert!(matches!(
        p.start_streak(&me, ch(10)).unwrap().streak,
        Some(s) if s.solved == 0 && s.best == 3
    ));
    // Nothing of it touched the puzzle rating; another server has no streak.
    assert_eq!(p.rating(me.id, ch(10)).unwrap().1, 0);
    let elsewhere = ChannelRef {
        guild: Some(901),
        channel: 10,
    };
    assert_eq!(p.best_streak(me.id, elsewhere).unwrap(), 0);
}

#[test]
fn the_puzzle_leaderboards_list_steady_ratings_and_streak_records() {
    use cajitas::game::{PuzzleBoard, PuzzleScore};
    use cajitas::i18n::{Presentation, puzzles::board_text};
    use cajitas::store::PuzzleRatingRow;
    let (g, clock) = svc();
    let p = g.puzzles();
    let (a, b, c) = (
        alice(),
        UserRef::new(2, "bob", false),
        UserRef::new(3, "carol", false),
    );
    // Streaks: alice 2, bob 1, carol none solved (not listed).
    let v = p.start_streak(&a, ch(10)).unwrap();
    let next = *solve(&g, &v).next.unwrap();
    solve(&g, &next);
    let v = p.start_streak(&b, ch(10)).unwrap();
    for m in v.puzzle.moves[1..].iter().step_by(2) {
        let text = cajitas_rules::Uci::from_move(*m).to_string();
        p.answer(&b, ch(10), &text, Lang::En).unwrap();
    }
    p.start_streak(&c, ch(10)).unwrap();
    p.solution(&c, ch(10)).unwrap();
    let board = p
        .leaderboard(ch(11), PuzzleBoard::Streaks, 0, c.id)
        .unwrap();
    let lines: Vec<(u64, &str, PuzzleScore)> = board
        .entries
        .iter()
        .map(|e| (e.rank, e.user.name.as_str(), e.score))
        .collect();
    assert_eq!(
        lines,
        [
            (1, "alice", PuzzleScore::Streak(2)),
            (2, "bob", PuzzleScore::Streak(1))
        ]
    );
    assert_eq!(board.me, None);
    let text = board_text(Lang::En, Presentation::Console, &board);
    assert_eq!(text.title, "Leaderboard · Puzzle Streak");
    assert_eq!(text.lines, ["1. alice  2", "2. bob  1"]);
    assert_eq!(text.standing, "You have no Puzzle Streak record here yet.");
    let mine = p
        .leaderboard(ch(11), PuzzleBoard::Streaks, 0, b.id)
        .unwrap();
    assert_eq!(mine.me.unwrap().rank, 2);

    // Ratings: listed with 5 rated attempts and an RD under 110 as of now.
    let store = g.shared_store();
    let now = 1_800_000_000_000;
    store
        .lock()
        .unwrap()
        .immediate(|tx| -> Result<(), cajitas::store::StoreError> {
            for (user, rating, deviation, attempts) in [
                (&a, 1700.0, 80.0, 5),
                (&b, 1900.0, 80.0, 4),
                (&c, 1600.0, 100.0, 9),
            ] {
                tx.upsert_user(
                    &cajitas::store::UserRow {
                        id: user.id,
                        name: user.name.clone(),
                        is_bot: false,
                    },
                    now,
                )?;
                let row = PuzzleRatingRow {
                    rating,
                    deviation,
                    volatility: 0.09,
                    attempts,
                    rated_at: now,
                };
                tx.puzzle_rating_for_update(GUILD as i64, user.id, &row)?;
                tx.put_puzzle_rating(GUILD as i64, user.id, &row)?;
            }
            Ok(())
        })
        .unwrap();
    let board = p
        .leaderboard(ch(11), PuzzleBoard::Ratings, 0, b.id)
        .unwrap();
    let names: Vec<&str> = board.entries.iter().map(|e| e.user.name.as_str()).collect();
    assert_eq!(names, ["alice", "carol"], "bob has 4 rated attempts");
    assert!(matches!(
        board.mine,
        Some(PuzzleScore::Rating { attempts: 4, .. })
    ));
    let es = board_text(Lang::Es, Presentation::Discord, &board);
    assert_eq!(es.title, "Clasificación · Problemas");
    assert_eq!(es.lines[0], "**1.** <@1> · 1700 · 5 intentos puntuados");
    assert_eq!(
        es.standing,
        "Aún no apareces: 4 intentos puntuados de los 5 necesarios, y una puntuación de \
         problemas estable (RD menor que 110)."
    );
    // Sixty days without attempts widen carol's RD past 110 (100 → 115, by the volatility
    // 0.09 over 12.9 rating periods), not alice's (80 → 98): carol leaves the list.
    clock.advance(60 * DAY);
    let board = p
        .leaderboard(ch(11), PuzzleBoard::Ratings, 0, a.id)
        .unwrap();
    let names: Vec<&str> = board.entries.iter().map(|e| e.user.name.as_str()).collect();
    assert_eq!(names, ["alice"]);
    assert_eq!(board.me.unwrap().rank, 1);
}

// Puzzles from the server's own games: the searches queued when a game ends, claimed by one
// process at a time, and the found puzzles stored with their source (migration 0023).

fn bob() -> UserRef {
    UserRef::new(2, "bob", false)
}

/// The Opera game (Morphy against the Duke of Brunswick and Count Isouard, Paris 1858): 33
/// plies, mate.
const OPERA: &[&str] = &[
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3",
    "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7",
    "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
];

/// Alice (White) against Bob in `ch`, `moves` played; returns the game's id.
fn played(g: &GameService, ch: ChannelRef, moves: &[&str]) -> i64 {
    g.challenges()
        .challenge_rated(&alice(), ch, Some(&bob()), ColourChoice::White, false)
        .unwrap();
    let id = g.challenges().accept(&bob(), ch).unwrap().game_id;
    for m in moves {
        let who = g.queries().board(ch).unwrap().player_to_move().clone();
        g.play()
            .play_move(&who, ch, m, Lang::En, false)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    id
}

/// The puzzle of the Opera game's end, written by hand as the finder writes one: from
/// before 15...Nxd7, the line 16. Qb8+ Nxb8 17. Rd8#.
fn opera_line(game: &cajitas_rules::Game) -> FoundLine {
    let mut pos = game.start().clone();
    let mut ucis = Vec::new();
    let mut fen = String::new();
    for (i, &m) in game.moves().iter().enumerate() {
        if i == 29 {
            fen = pos.fen();
        }
        if i >= 29 {
            ucis.push(Uci::from_move(m).to_string());
        }
        pos.play(m);
    }
    FoundLine {
        id: "cOpera29".into(),
        ply: 29,
        fen,
        moves: ucis.join(" "),
        themes: vec![
            "mate".into(),
            "mateIn2".into(),
            "middlegame".into(),
            "short".into(),
        ],
    }
}

#[test]
fn a_finished_game_is_queued_claimed_by_one_process_and_its_puzzles_stored_with_their_source() {
    let (g, clock) = svc();
    let sp = g.server_puzzles();
    let id = played(&g, ch(20), OPERA);
    // Mate ended it: the search was queued in the same transaction.
    let queued = sp.search_of(id).unwrap().unwrap();
    assert_eq!(
        (queued.status, queued.tries, queued.owner),
        ("pending", 0, None)
    );
    // A short game, and an aborted one, are not searched.
    let short = played(
        &g,
        ch(21),
        &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6"],
    );
    g.play().resign(&bob(), ch(21), None).unwrap();
    assert_eq!(sp.search_of(short).unwrap(), None);
    let aborted = played(&g, ch(22), &["e4"]);
    g.play().abort(&alice(), ch(22)).unwrap();
    assert_eq!(sp.search_of(aborted).unwrap(), None);

    // Process 1 claims it; process 2 finds nothing to claim and cannot store it.
    let search = sp.claim(1).unwrap().expect("the game is pending");
    assert_eq!(search.game_id, id);
    assert_eq!(
        (search.white.clone(), search.black.clone()),
        (alice(), bob())
    );
    assert_eq!((search.pool, search.thread), (GUILD as i64, None));
    assert_eq!(search.game.moves().len(), OPERA.len());
    assert!(sp.claim(2).unwrap().is_none());
    let line = opera_line(&search.game);
    assert_eq!(
        sp.store(&search, 2, std::slice::from_ref(&line)).unwrap(),
        None
    );
    assert!(sp.renew(id, 1).unwrap());
    assert!(!sp.renew(id, 2).unwrap());

    // Process 1 dies: once its claim lapses, process 2 takes the search over, and process
    // 1's late finding is refused (nothing written).
    clock.advance(SEARCH_LEASE + Duration::from_secs(1));
    let again = sp
        .claim(2)
        .unwrap()
        .expect("the lapsed claim is taken again");
    assert_eq!(again.game_id, id);
    assert_eq!(
        sp.store(&search, 1, std::slice::from_ref(&line)).unwrap(),
        None
    );
    assert!(!sp.renew(id, 1).unwrap());
    assert_eq!(sp.of_pool(GUILD as i64).unwrap(), []);

    // Process 2 stores it; a finding that does not replay is left out.
    let mut broken = line.clone();
    broken.id = "cBroken1".into();
    broken.moves = "f6d7 b3b8 d7b8".into();
    assert_eq!(
        sp.store(&again, 2, &[line.clone(), broken]).unwrap(),
        Some(1)
    );
    let done = sp.search_of(id).unwrap().unwrap();
    assert_eq!((done.status, done.found), ("done", Some(1)));
    assert!(sp.claim(1).unwrap().is_none());
    let stored = sp.of_pool(GUILD as i64).unwrap();
    assert_eq!(stored.len(), 1);
    let p = &stored[0];
    assert_eq!((p.id.as_str(), p.game_id, p.ply), ("cOpera29", id, 29));
    assert_eq!(
        (p.white.name.as_str(), p.black.name.as_str()),
        ("alice", "bob")
    );
    assert_eq!(
        (p.guild, p.thread, p.game_url.as_str()),
        (Some(GUILD), None, "")
    );
    assert_eq!(p.fen, line.fen);
    assert_eq!(p.moves, "f6d7 b3b8 d7b8 d1d8");
    assert_eq!(p.themes, "mate mateIn2 middlegame short");
    assert_eq!(
        (p.rating, p.deviation, p.volatility, p.plays),
        (1500.0, 500.0, 0.09, 0)
    );
    assert!(Position::from_fen(&p.fen).is_ok());
    // Another pool has none.
    assert_eq!(sp.of_pool(GUILD as i64 + 1).unwrap(), []);
}

#[test]
fn a_failed_search_is_tried_again_later_then_given_up() {
    let (g, clock) = svc();
    let sp = g.server_puzzles();
    let id = played(&g, ch(30), OPERA);
    for tries in 1..=MAX_TRIES {
        let search = sp.claim(7).unwrap().expect("pending");
        assert_eq!(search.game_id, id);
        assert!(sp.failed(id, 7).unwrap());
        let s = sp.search_of(id).unwrap().unwrap();
        assert_eq!(s.tries, tries);
        // Not before its retry time.
        assert!(sp.claim(7).unwrap().is_none());
        clock.advance(RETRY_AFTER);
        if tries < MAX_TRIES {
            assert_eq!(s.status, "pending");
        } else {
            assert_eq!(s.status, "failed");
            assert!(sp.claim(7).unwrap().is_none());
        }
    }
}

#[test]
fn a_server_puzzle_is_offered_to_the_other_players_named_by_its_game_and_rated_as_their_opponent() {
    let (g, _clock) = svc();
    let sp = g.server_puzzles();
    played(&g, ch(40), OPERA);
    let search = sp.claim(1).unwrap().unwrap();
    let line = opera_line(&search.game);
    assert_eq!(sp.store(&search, 1, &[line]).unwrap(), Some(1));
    let (carol, dave) = (
        UserRef::new(3, "carol", false),
        UserRef::new(4, "dave", false),
    );
    let from = |source| PuzzleRequest {
        source,
        ..PuzzleRequest::default()
    };

    // Its own players are never offered it, nor given it by id.
    assert!(matches!(
        g.puzzles()
            .start(&alice(), ch(41), &from(PuzzleOrigin::Server)),
        Err(GameError::NoPuzzleLeft)
    ));
    assert!(matches!(
        g.puzzles().start(&bob(), ch(41), &by_id("cOpera29")),
        Err(GameError::UnknownPuzzle(_))
    ));
    // Another server does not have it.
    let elsewhere = ChannelRef {
        guild: Some(GUILD + 1),
        channel: 41,
    };
    assert!(matches!(
        g.puzzles()
            .start(&carol, elsewhere, &from(PuzzleOrigin::Server)),
        Err(GameError::NoPuzzleLeft)
    ));

    // Carol gets it, its start line naming the game; she solves it, rated.
    let v = g
        .puzzles()
        .start(&carol, ch(41), &from(PuzzleOrigin::Server))
        .unwrap();
    assert_eq!(v.puzzle.id, "cOpera29");
    assert!(v.rated);
    let source = v.source.clone().unwrap();
    assert_eq!(
        source,
        PuzzleSource {
            white: "alice".into(),
            black: "bob".into(),
            move_number: 16,
            thread_url: None,
        }
    );
    let en = cajitas::i18n::puzzles::start_lines(Lang::En, &v);
    assert_eq!(
        en,
        [
            "Puzzle cOpera29 · rating 1500 · White to move",
            "From alice vs bob, move 16",
            "[puzzle] Nxd7",
        ]
    );
    let es = cajitas::i18n::puzzles::start_lines(Lang::Es, &v);
    assert_eq!(es[1], "De alice contra bob, jugada 16");
    let linked = PuzzleSource {
        thread_url: Some("https://discord.com/channels/900/77".into()),
        ..source
    };
    assert_eq!(
        cajitas::i18n::puzzles::source_line(Lang::En, &linked),
        "From alice vs bob, move 16 · https://discord.com/channels/900/77"
    );
    let v = g
        .puzzles()
        .answer(&carol, ch(41), "Qb8+", Lang::En)
        .unwrap();
    assert_eq!(v.reply.as_deref(), Some("Nxb8"));
    assert!(v.source.is_some());
    let v = g
        .puzzles()
        .answer(&carol, ch(41), "Rd8#", Lang::En)
        .unwrap();
    assert_eq!(v.status, PuzzleStatus::Solved);
    let change = v.change.unwrap();
    // Both sides rated by hand: Carol won against the puzzle, the puzzle lost against her.
    let start = PARAMS.start;
    let carol_after = PARAMS.rate_against(start, start, 1.0);
    assert!(close(change.after.rating, carol_after.rating));
    let puzzle_after: Glicko = PARAMS.rate_against(start, start, 0.0);
    let p = &sp.of_pool(GUILD as i64).unwrap()[0];
    assert!(
        close(p.rating, puzzle_after.rating),
        "{} vs {}",
        p.rating,
        puzzle_after.rating
    );
    assert!(close(p.deviation, puzzle_after.deviation));
    assert!(close(p.volatility, puzzle_after.volatility));
    assert_eq!(p.plays, 1);
    // A replay is not rated, and moves neither rating.
    g.puzzles()
        .start(&carol, ch(41), &by_id("cOpera29"))
        .unwrap();
    g.puzzles().solution(&carol, ch(41)).unwrap();
    assert_eq!(sp.of_pool(GUILD as i64).unwrap()[0].plays, 1);

    // By default the server's puzzle comes first when it is near enough (Dave is 1500, the
    // puzzle now below it by less than the window); once seen, lichess's follow.
    assert!((1500.0 - p.rating).abs() <= cajitas::game::SERVER_WINDOW);
    let v = g
        .puzzles()
        .start(&dave, ch(42), &PuzzleRequest::default())
        .unwrap();
    assert_eq!(v.puzzle.id, "cOpera29");
    let v = g
        .puzzles()
        .start(&dave, ch(42), &PuzzleRequest::default())
        .unwrap();
    assert_eq!((v.puzzle.id.len(), v.source), (5, None));
    // Asked around a rating far from it, and asked for lichess's, the server's is not given.
    let far = PuzzleRequest {
        rating: Some(2800),
        ..PuzzleRequest::default()
    };
    let erin = UserRef::new(5, "erin", false);
    let v = g.puzzles().start(&erin, ch(43), &far).unwrap();
    assert!(v.source.is_none());
    let v = g
        .puzzles()
        .start(&erin, ch(43), &from(PuzzleOrigin::Lichess))
        .unwrap();
    assert!(v.source.is_none() && v.puzzle.id.len() == 5);
}

#[test]
fn a_puzzle_moved_into_its_thread_is_answered_there_with_its_streak() {
    let (g, _clock) = svc();
    let v = g
        .puzzles()
        .start(&alice(), ch(60), &by_id("002X3"))
        .unwrap();
    let moved = g
        .puzzles()
        .move_to_thread(&alice(), ch(60), v.attempt_id, 61)
        .unwrap();
    assert_eq!(
        (moved.attempt_id, moved.puzzle.id.as_str()),
        (v.attempt_id, "002X3")
    );
    assert!(g.puzzles().open(&alice(), ch(60)).unwrap().is_none());
    // Moved once: a second move finds nothing in the channel.
    assert!(matches!(
        g.puzzles()
            .move_to_thread(&alice(), ch(60), v.attempt_id, 62),
        Err(GameError::NoPuzzle)
    ));
    let a = g
        .puzzles()
        .answer(&alice(), ch(61), "Qa8+", Lang::En)
        .unwrap();
    assert_eq!(a.reply.as_deref(), Some("Qb8"));
    // A streak's run moves with its first puzzle: the next one starts in the thread.
    let s = g.puzzles().start_streak(&alice(), ch(70)).unwrap();
    let s = g
        .puzzles()
        .move_to_thread(&alice(), ch(70), s.attempt_id, 71)
        .unwrap();
    assert!(s.streak.is_some());
    let solved = solve_in(&g, ch(71), &s);
    let next = solved.next.expect("the run's next puzzle");
    assert_eq!(
        g.puzzles()
            .open(&alice(), ch(71))
            .unwrap()
            .unwrap()
            .attempt_id,
        next.attempt_id
    );
}

fn solve_in(g: &GameService, at: ChannelRef, v: &PuzzleView) -> PuzzleView {
    let mut last = None;
    for &m in v.puzzle.moves[1..].iter().step_by(2) {
        let text = Uci::from_move(m).to_string();
        last = Some(g.puzzles().answer(&alice(), at, &text, Lang::En).unwrap());
    }
    last.unwrap()
}
