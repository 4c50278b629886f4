//! The game service's side of games against the engine, on SQLite (here) and PostgreSQL
//! (`engine_service_postgres`): engine players stored as engines, whose turn it is, the
//! engine's ply-checked moves, granted takebacks, no events and no claims, aborts at any
//! time, games in threads and the last finished game for analysis. (The engine itself, its
//! pool and its player are in `engine_fake` and `engine_stockfish`.)

mod support;

use cajitas::game::{
    ChannelRef, ColourChoice, ENGINE_LEVELS, GameError, GameService, Lang, Place, ServiceOptions,
    UserRef, engine_level_of, engine_user_id,
};
use cajitas::store::StoreExt;
use cajitas_rules::{Color, Position};

fn service() -> GameService {
    support::db::memory_or_postgres(env!("CARGO_CRATE_NAME"), ServiceOptions::default())
}

const CH: ChannelRef = ChannelRef {
    guild: None,
    channel: 5,
};

#[test]
fn the_engine_plays_under_the_name_it_was_given() {
    let ana = UserRef::new(1, "Ana", false);
    let v = service()
        .engine()
        .play_engine(&ana, CH, 2, ColourChoice::White, Lang::En)
        .unwrap();
    assert_eq!(v.player(Color::Black).name, "Stockfish", "the default");
    // Another engine (`CAJITAS_ENGINE=/opt/lc0/lc0`): the game names it, not Stockfish.
    let s = support::db::memory_or_postgres(
        env!("CARGO_CRATE_NAME"),
        ServiceOptions {
            engine_name: cajitas::engine::display_name(std::path::Path::new("/opt/lc0/lc0")),
            ..ServiceOptions::default()
        },
    );
    let v = s
        .engine()
        .play_engine(&ana, CH, 2, ColourChoice::White, Lang::En)
        .unwrap();
    assert_eq!(v.player(Color::Black).name, "Lc0");
}

#[test]
fn engine_ids_are_their_own_and_stored_as_engines() {
    for level in ENGINE_LEVELS {
        assert_eq!(engine_level_of(engine_user_id(level)), Some(level));
    }
    assert_eq!(engine_level_of(42), None);
    assert_eq!(engine_level_of(u64::MAX), None);
    let s = service();
    let ana = UserRef::new(1, "Ana", false);
    let v = s
        .engine()
        .play_engine(&ana, CH, 3, ColourChoice::White, Lang::Es)
        .unwrap();
    assert_eq!(v.engine(), Some((Color::Black, 3)));
    assert_eq!(v.lang, Lang::Es);
    // The store knows the engine as an engine (what ratings ask), and the person as not.
    let levels = s
        .shared_store()
        .lock()
        .unwrap()
        .read(|tx| -> Result<_, GameError> {
            Ok((tx.engine_level(engine_user_id(3))?, tx.engine_level(1)?))
        })
        .unwrap();
    assert_eq!(levels, (Some(3), None));
    assert_eq!(s.engine().engine_games().unwrap(), vec![v.game_id]);
    // One game per channel, as always.
    assert!(matches!(
        s.engine()
            .play_engine(&ana, CH, 1, ColourChoice::Black, Lang::En),
        Err(GameError::GameInProgress)
    ));
    // A bot cannot play it.
    let bot = UserRef::new(2, "Bot", true);
    let other = ChannelRef {
        guild: None,
        channel: 6,
    };
    assert!(matches!(
        s.engine()
            .play_engine(&bot, other, 1, ColourChoice::Black, Lang::En),
        Err(GameError::BotCannotPlay)
    ));
}

#[test]
fn a_game_against_the_engine_has_no_events_no_claims_and_aborts_at_any_time() {
    let s = service();
    let ana = UserRef::new(1, "Ana", false);
    let v = s
        .engine()
        .play_engine(&ana, CH, 4, ColourChoice::White, Lang::En)
        .unwrap();
    s.play().play_move(&ana, CH, "e4", Lang::En, false).unwrap();
    let e5: cajitas_rules::Uci = "e7e5".parse().unwrap();
    let e5 = e5
        .to_move(&s.queries().game(v.game_id).unwrap().position)
        .unwrap();
    let seq = s.engine().engine_turn(v.game_id).unwrap().unwrap().seq;
    s.engine().engine_move(v.game_id, seq, e5).unwrap();
    s.play()
        .play_move(&ana, CH, "Nf3", Lang::En, false)
        .unwrap();
    // No event for the engine's turn: no reminder pings it, and it cannot be claimed.
    let due = s
        .shared_store()
        .lock()
        .unwrap()
        .read(|tx| -> Result<_, GameError> {
            Ok(tx.next_event_due(cajitas::store::EventScope::All)?)
        })
        .unwrap();
    assert_eq!(due, None);
    assert!(matches!(
        s.play().claim_abandoned(&ana, CH, false),
        Err(GameError::ClaimAgainstEngine)
    ));
    let end = s.play().abort(&ana, CH).unwrap().view;
    assert!(end.finished && end.aborted, "{:?}", end.result);
    // Between two people, both having moved, it is too late.
    let bea = UserRef::new(2, "Bea", false);
    s.challenges()
        .start_game(&ana, &bea, CH, &Position::new())
        .unwrap();
    s.play().play_move(&ana, CH, "e4", Lang::En, false).unwrap();
    s.play().play_move(&bea, CH, "e5", Lang::En, false).unwrap();
    assert!(matches!(
        s.play().abort(&ana, CH),
        Err(GameError::AbortTooLate)
    ));
}

#[test]
fn a_game_against_the_engine_in_a_thread_and_the_analysis_of_the_channel() {
    let s = service();
    let ana = UserRef::new(1, "Ana", false);
    let bea = UserRef::new(2, "Bea", false);
    let thread = ChannelRef {
        guild: None,
        channel: 50,
    };
    // A game in the channel itself, finished first.
    s.challenges()
        .start_game(&ana, &bea, CH, &Position::new())
        .unwrap();
    s.play().resign(&bea, CH, None).unwrap();
    // Where games get threads, nothing in the channel is in the way of a new one.
    s.engine()
        .engine_playable(&ana, Place::with_threads(CH))
        .unwrap();
    let v = s
        .engine()
        .play_engine_at(
            &ana,
            Place::with_threads(CH),
            2,
            ColourChoice::White,
            Lang::En,
            Some(50),
        )
        .unwrap();
    assert_eq!((v.channel, v.thread), (5, Some(50)));
    assert_eq!(s.engine().game_place(v.game_id), Some(thread));
    // The game's thread is its game's: no second game there, from the thread itself.
    assert!(matches!(
        s.engine().engine_playable(&ana, Place::thread(thread, 5)),
        Err(GameError::InGameThread { parent: 5 })
    ));
    s.play()
        .play_move(&ana, thread, "e4", Lang::En, false)
        .unwrap();
    let turn = s.engine().engine_turn(v.game_id).unwrap().unwrap();
    assert_eq!(turn.place, thread, "the engine's posts go to the thread");
    // While it is played, the thread has nothing finished; the channel its own game.
    assert!(matches!(
        s.engine().last_finished_game(thread),
        Err(GameError::NoFinishedGame)
    ));
    s.play().resign(&ana, thread, None).unwrap();
    // Now both find the game of the thread, the channel's last finished game.
    assert_eq!(
        s.engine().last_finished_game(thread).unwrap().game_id,
        v.game_id
    );
    assert_eq!(
        s.engine().last_finished_game(CH).unwrap().game_id,
        v.game_id
    );
}

#[test]
fn the_engine_moves_only_on_its_turn_at_its_ply_and_takebacks_are_granted() {
    let s = service();
    let ana = UserRef::new(1, "Ana", false);
    let v = s
        .engine()
        .play_engine(&ana, CH, 5, ColourChoice::White, Lang::En)
        .unwrap();
    let id = v.game_id;
    assert!(
        s.engine().engine_turn(id).unwrap().is_none(),
        "the person moves first"
    );
    let e4 = cajitas_rules::read_move(&Position::new(), "e4", Lang::En).unwrap();
    assert!(matches!(
        s.engine().engine_move(id, 0, e4),
        Err(GameError::PositionChanged)
    ));
    s.play().play_move(&ana, CH, "e4", Lang::En, false).unwrap();
    let turn = s.engine().engine_turn(id).unwrap().unwrap();
    assert_eq!(
        (turn.ply, turn.level, turn.moves.clone()),
        (1, 5, vec!["e2e4".to_owned()])
    );
    let e5 = cajitas_rules::read_move(&turn.position, "e5", Lang::En).unwrap();
    // A stale position is refused; the right one plays.
    assert!(matches!(
        s.engine().engine_move(id, turn.seq - 1, e5),
        Err(GameError::PositionChanged)
    ));
    let after = s.engine().engine_move(id, turn.seq, e5).unwrap().view;
    assert_eq!(after.ply, 2);
    assert!(matches!(
        s.engine().engine_move(id, turn.seq, e5),
        Err(GameError::PositionChanged)
    ));
    // The person takes back without asking: both plies.
    let t = s.play().takeback_request(&ana, CH, None).unwrap();
    assert!(t.granted);
    assert_eq!((t.plies, t.game.ply), (2, 0));
    // With the engine still thinking, one ply.
    s.play().play_move(&ana, CH, "d4", Lang::En, false).unwrap();
    let t = s.play().takeback_request(&ana, CH, None).unwrap();
    assert_eq!((t.plies, t.game.ply), (1, 0));
    // The finished game is there for analysis.
    s.play().resign(&ana, CH, None).unwrap();
    let f = s.engine().last_finished_game(CH).unwrap();
    assert_eq!((f.game_id, f.result.as_str()), (id, "0-1"));
    assert!(s.engine().engine_turn(id).unwrap().is_none());
}

#[test]
fn a_search_of_a_position_taken_back_is_never_played_at_the_same_ply() {
    let s = service();
    let ana = UserRef::new(1, "Ana", false);
    let id = s
        .engine()
        .play_engine(&ana, CH, 5, ColourChoice::White, Lang::En)
        .unwrap()
        .game_id;
    s.play().play_move(&ana, CH, "e4", Lang::En, false).unwrap();
    // The engine starts searching after 1. e4 ...
    let searched = s.engine().engine_turn(id).unwrap().unwrap();
    let reply = cajitas_rules::read_move(&searched.position, "e5", Lang::En).unwrap();
    // ... while the person takes 1. e4 back and plays 1. d4: the same ply, another position.
    assert!(s.play().takeback_request(&ana, CH, None).unwrap().granted);
    s.play().play_move(&ana, CH, "d4", Lang::En, false).unwrap();
    let now = s.engine().engine_turn(id).unwrap().unwrap();
    assert_eq!(now.ply, searched.ply);
    assert_ne!(now.seq, searched.seq);
    // The old search's move (legal here too) is refused; the player looks again.
    assert!(matches!(
        s.engine().engine_move(id, searched.seq, reply),
        Err(GameError::PositionChanged)
    ));
    assert_eq!(s.queries().game(id).unwrap().ply, 1);
    s.engine().engine_move(id, now.seq, reply).unwrap();
}

#[test]
fn a_person_plays_at_most_two_engine_games_per_server_and_is_told_which() {
    let s = service();
    let ana = UserRef::new(1, "Ana", false);
    let bea = UserRef::new(2, "Bea", false);
    let guild = |g: u64, channel: u64| ChannelRef {
        guild: Some(g),
        channel,
    };
    let at = |ch: ChannelRef, thread: u64| {
        move |s: &GameService, who: &UserRef| {
            s.engine().play_engine_at(
                who,
                Place::with_threads(ch),
                8,
                ColourChoice::White,
                Lang::En,
                Some(thread),
            )
        }
    };
    // Two games in their threads of server 7.
    let first = at(guild(7, 70), 701)(&s, &ana).unwrap();
    let second = at(guild(7, 71), 711)(&s, &ana).unwrap();
    // A third is refused, before a thread is opened (the read-only check) and at the start,
    // naming the two games' threads.
    let named = |r: Result<_, GameError>| match r {
        Err(GameError::TooManyEngineGames { limit, places }) => (limit, places),
        other => panic!("not refused: {other:?}"),
    };
    assert_eq!(
        named(
            s.engine()
                .engine_playable(&ana, Place::with_threads(guild(7, 72)))
                .map(|_| ())
        ),
        (2, vec![701, 711])
    );
    assert_eq!(
        named(at(guild(7, 72), 721)(&s, &ana).map(|_| ())),
        (2, vec![701, 711])
    );
    // Another person, and the same person in another server, are not limited by them.
    at(guild(7, 72), 722)(&s, &bea).unwrap();
    at(guild(8, 80), 801)(&s, &ana).unwrap();
    // Once one of them is over, a new one may start.
    s.play().abort(&ana, ChannelRef::new(Some(7), 701)).unwrap();
    let third = at(guild(7, 73), 731)(&s, &ana).unwrap();
    assert_ne!(third.game_id, first.game_id);
    assert_ne!(third.game_id, second.game_id);
    // A server may allow more (CAJITAS_ENGINE_GAMES_PER_USER).
    let generous = support::db::memory_or_postgres(
        env!("CARGO_CRATE_NAME"),
        ServiceOptions {
            engine_games_per_user: 3,
            ..ServiceOptions::default()
        },
    );
    for (ch, thread) in [(90, 901), (91, 911), (92, 921)] {
        at(guild(9, ch), thread)(&generous, &ana).unwrap();
    }
    assert!(matches!(
        at(guild(9, 93), 931)(&generous, &ana),
        Err(GameError::TooManyEngineGames { limit: 3, .. })
    ));
}

#[test]
fn an_analysis_is_stored_per_game_and_budget() {
    let s = service();
    let ana = UserRef::new(1, "Ana", false);
    let bea = UserRef::new(2, "Bea", false);
    s.challenges()
        .start_game(&ana, &bea, CH, &Position::new())
        .unwrap();
    s.play().play_move(&ana, CH, "e4", Lang::En, false).unwrap();
    s.play().resign(&bea, CH, None).unwrap();
    let game = s.engine().last_finished_game(CH).unwrap();
    assert_eq!(
        s.engine()
            .stored_analysis(game.game_id, "nodes=100000")
            .unwrap(),
        None
    );
    s.engine()
        .store_analysis(game.game_id, "nodes=100000", "cp:20 cp:30|e2e4 e7e5")
        .unwrap();
    // The first record of a budget stays (the same budget gives the same record).
    s.engine()
        .store_analysis(game.game_id, "nodes=100000", "cp:0 cp:0|d2d4 d7d5")
        .unwrap();
    assert_eq!(
        s.engine()
            .stored_analysis(game.game_id, "nodes=100000")
            .unwrap()
            .as_deref(),
        Some("cp:20 cp:30|e2e4 e7e5")
    );
    // Another budget is another report.
    assert_eq!(
        s.engine()
            .stored_analysis(game.game_id, "nodes=5000")
            .unwrap(),
        None
    );
    let a = cajitas::engine::Analysis::from_record(
        &game.game,
        &s.engine()
            .stored_analysis(game.game_id, "nodes=100000")
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(a.evals.len(), 2);
}
