//! The game service's places (issue 15): games in threads of a channel, one game per thread,
//! one pending challenge per challenger per channel, commands typed in the channel resolved
//! to the person's game, challenges in threads, the end-of-game summary and the rematch
//! through the notifier, and games started before migration 0006.

mod support;

use std::sync::Arc;

use cajitas::game::{
    ChannelRef, ColourChoice, GameError, GameService, Lang, NoticeKind, Place, RecordingNotifier,
    ServiceOptions, UserRef,
};

const GUILD: Option<u64> = Some(10);
const CH: ChannelRef = ChannelRef {
    guild: GUILD,
    channel: 100,
};

fn user(id: u64, name: &str) -> UserRef {
    UserRef::new(id, name, false)
}
fn alice() -> UserRef {
    user(1, "alice")
}
fn bob() -> UserRef {
    user(2, "bob")
}
fn carol() -> UserRef {
    user(3, "carol")
}
fn dave() -> UserRef {
    user(4, "dave")
}
fn erin() -> UserRef {
    user(5, "erin")
}

fn at(channel: u64) -> ChannelRef {
    ChannelRef {
        guild: GUILD,
        channel,
    }
}

fn service() -> (GameService, Arc<RecordingNotifier>) {
    let notes = Arc::new(RecordingNotifier::default());
    let opts = ServiceOptions {
        notifier: notes.clone(),
        ..ServiceOptions::default()
    };
    (
        support::db::memory_or_postgres(env!("CARGO_CRATE_NAME"), opts),
        notes,
    )
}

/// `white` challenges `black` in `CH` (a channel with threads); `black` accepts, the front
/// end having opened `thread` for the game.
fn threaded_game(svc: &GameService, white: &UserRef, black: &UserRef, thread: u64) -> i64 {
    let place = Place::with_threads(CH);
    let c = svc
        .challenges()
        .challenge(white, place, Some(black), ColourChoice::White)
        .unwrap();
    let v = svc
        .challenges()
        .accept_at(black, place, Some(c.id), Lang::En, Some(thread))
        .unwrap();
    assert_eq!((v.channel, v.thread), (CH.channel, Some(thread)));
    assert_eq!(v.place(), at(thread));
    assert_eq!(v.home(), CH);
    v.game_id
}

#[test]
fn a_channel_with_threads_holds_many_games_and_one_challenge_per_challenger() {
    let (svc, _) = service();
    let place = Place::with_threads(CH);
    let c1 = svc
        .challenges()
        .challenge(&alice(), place, Some(&bob()), ColourChoice::White)
        .unwrap();
    // One pending challenge per challenger per channel ...
    assert!(matches!(
        svc.challenges()
            .challenge(&alice(), place, Some(&carol()), ColourChoice::White),
        Err(GameError::ChallengePending)
    ));
    // ... but others challenge at the same time.
    let c2 = svc
        .challenges()
        .challenge(&carol(), place, Some(&dave()), ColourChoice::White)
        .unwrap();
    // `/accept` without a button: the challenge addressed to the one accepting.
    let g1 = svc
        .challenges()
        .accept_at(&bob(), place, None, Lang::En, Some(1001))
        .unwrap();
    assert_eq!(g1.white, alice());
    let g2 = svc
        .challenges()
        .accept_at(&dave(), place, Some(c2.id), Lang::En, Some(1002))
        .unwrap();
    assert_ne!(g1.game_id, g2.game_id);
    assert!(matches!(
        svc.challenges().accept_challenge(&bob(), CH, Some(c1.id)),
        Err(GameError::ChallengeClosed("accepted"))
    ));

    // Moves typed in each thread reach that thread's game only.
    svc.play()
        .play_move(&alice(), at(1001), "e4", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(&carol(), at(1002), "d4", Lang::En, false)
        .unwrap();
    // Typed in the channel: the person's one game there (the front end then posts in its thread).
    let r = svc
        .play()
        .play_move(&bob(), CH, "e5", Lang::En, false)
        .unwrap();
    assert_eq!(r.view.game_id, g1.game_id);
    assert!(r.view.elsewhere_than(CH));
    assert_eq!(svc.queries().board(at(1001)).unwrap().sans(), ["e4", "e5"]);
    assert_eq!(svc.queries().board(at(1002)).unwrap().sans(), ["d4"]);
    // A move in the other game's thread is not theirs.
    assert!(matches!(
        svc.play()
            .play_move(&alice(), at(1002), "Nf3", Lang::En, false),
        Err(GameError::NotAPlayer)
    ));
    // Someone with no game there is sent to the threads.
    match svc.play().play_move(&erin(), CH, "e4", Lang::En, false) {
        Err(GameError::GamesInThreads { threads }) => assert_eq!(threads, [1001, 1002]),
        other => panic!("{other:?}"),
    }
    // A player with two games in the channel must say which (by typing in its thread).
    threaded_game(&svc, &alice(), &erin(), 1003);
    match svc.play().play_move(&alice(), CH, "Nf3", Lang::En, false) {
        Err(GameError::SeveralGames { threads }) => assert_eq!(threads, [1001, 1003]),
        other => panic!("{other:?}"),
    }
    svc.play()
        .play_move(&alice(), at(1003), "c4", Lang::En, false)
        .unwrap();
    // One game per thread.
    let c = svc
        .challenges()
        .challenge(&dave(), place, Some(&erin()), ColourChoice::White)
        .unwrap();
    assert!(matches!(
        svc.challenges()
            .accept_at(&erin(), place, Some(c.id), Lang::En, Some(1003)),
        Err(GameError::GameInProgress)
    ));
    // The legal moves (autocomplete) follow the same rule.
    assert_eq!(
        svc.queries().legal_moves_for(&dave(), CH).unwrap().len(),
        20
    );
    assert_eq!(
        svc.queries().legal_moves_for(&erin(), CH).unwrap().len(),
        20
    );
    assert!(
        svc.queries()
            .legal_moves_for(&carol(), CH)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn several_challenges_to_answer_must_be_named() {
    let (svc, _) = service();
    let place = Place::with_threads(CH);
    svc.challenges()
        .challenge(&alice(), place, Some(&erin()), ColourChoice::White)
        .unwrap();
    svc.challenges()
        .challenge(&bob(), place, Some(&erin()), ColourChoice::White)
        .unwrap();
    assert!(matches!(
        svc.challenges()
            .accept_at(&erin(), place, None, Lang::En, Some(7)),
        Err(GameError::SeveralChallenges)
    ));
    assert!(matches!(
        svc.challenges().acceptable(&erin(), place, None),
        Err(GameError::SeveralChallenges)
    ));
    assert!(matches!(
        svc.challenges().decline(&erin(), CH),
        Err(GameError::SeveralChallenges)
    ));
    // Each challenger withdraws their own.
    assert_eq!(
        svc.challenges().cancel(&bob(), CH).unwrap().challenger,
        bob()
    );
    assert!(matches!(
        svc.challenges().cancel(&carol(), CH),
        Err(GameError::NotChallenger)
    ));
    let c = svc.challenges().acceptable(&erin(), place, None).unwrap();
    assert_eq!(c.challenger, alice());
    assert_eq!(c.message, None);
    svc.challenges().set_challenge_message(c.id, 5555).unwrap();
    assert_eq!(
        svc.challenges()
            .acceptable(&erin(), place, None)
            .unwrap()
            .message,
        Some(5555)
    );
}

#[test]
fn challenges_in_threads() {
    let (svc, _) = service();
    threaded_game(&svc, &alice(), &bob(), 1001);
    // In a game's thread: refused, with the channel to go to.
    let in_game_thread = Place::thread(at(1001), CH.channel);
    assert!(matches!(
        svc.challenges()
            .challenge(&carol(), in_game_thread, Some(&dave()), ColourChoice::White),
        Err(GameError::InGameThread { parent: 100 })
    ));
    // In another thread: the game is played in that thread, no new one.
    let other = Place::thread(at(2000), CH.channel);
    svc.challenges()
        .challenge(&carol(), other, Some(&dave()), ColourChoice::White)
        .unwrap();
    // One challenge at a time there, as in a channel without threads.
    assert!(matches!(
        svc.challenges()
            .challenge(&erin(), other, None, ColourChoice::White),
        Err(GameError::ChallengePending)
    ));
    let v = svc
        .challenges()
        .accept_at(&dave(), other, None, Lang::En, None)
        .unwrap();
    assert_eq!((v.channel, v.thread), (CH.channel, Some(2000)));
    assert!(!v.elsewhere_than(at(2000)));
    svc.play()
        .play_move(&carol(), at(2000), "e4", Lang::En, false)
        .unwrap();
    // Now it is a game's thread.
    assert!(matches!(
        svc.challenges()
            .challenge(&erin(), other, Some(&alice()), ColourChoice::White),
        Err(GameError::InGameThread { parent: 100 })
    ));
}

#[test]
fn the_end_of_a_threads_game_posts_its_summary_in_the_channel_after_the_commit() {
    let (svc, notes) = service();
    let id = threaded_game(&svc, &alice(), &bob(), 1001);
    for (who, mv) in [(alice(), "f3"), (bob(), "e5"), (alice(), "g4")] {
        svc.play()
            .play_move(&who, at(1001), mv, Lang::En, false)
            .unwrap();
    }
    assert!(notes.posts().is_empty(), "nothing before the end");
    // A refused move (the database unchanged) posts nothing either.
    assert!(
        svc.play()
            .play_move(&bob(), at(1001), "Qh5", Lang::En, false)
            .is_err()
    );
    assert!(notes.posts().is_empty());
    let end = svc
        .play()
        .play_move(&bob(), at(1001), "Qh4#", Lang::En, false)
        .unwrap();
    assert!(end.view.finished);
    // The move returns its notices; its caller posts them once it committed.
    assert!(notes.posts().is_empty(), "the service posts nothing itself");
    svc.post_notices(end.notices);
    let posts = notes.posts();
    assert_eq!(posts.len(), 1, "{posts:?}");
    assert_eq!(posts[0].kind, NoticeKind::Summary);
    assert_eq!(posts[0].place, CH);
    assert_eq!(posts[0].game.game_id, id);
    assert_eq!(posts[0].game.thread, Some(1001));
    assert!(posts[0].mentions.is_empty(), "a summary pings nobody");

    // After the game: `/pgn` and the board typed in the channel reach it (the last game,
    // the asker's first), while the thread may be archived.
    let (pgn, url) = svc.queries().pgn_and_analysis_for(&alice(), CH).unwrap();
    assert!(pgn.contains("2. g4 Qh4#"), "{pgn}");
    assert!(url.contains("Qh4%23"), "{url}");
    assert!(
        pgn.contains("https://discord.com/channels/10/1001"),
        "{pgn}"
    );
    assert_eq!(svc.queries().board_for(&carol(), CH).unwrap().game_id, id);
    assert_eq!(svc.queries().board(at(1001)).unwrap().game_id, id);
    // /history in the thread lists its channel's games.
    assert_eq!(svc.queries().history(at(1001), 10).unwrap().len(), 1);
    assert_eq!(svc.queries().history(CH, 10).unwrap().len(), 1);

    // A game played in the channel itself (no thread) leaves no summary.
    let plain = at(300);
    svc.challenges()
        .challenge(&carol(), plain, Some(&dave()), ColourChoice::White)
        .unwrap();
    svc.challenges().accept(&dave(), plain).unwrap();
    svc.play()
        .play_move(&carol(), plain, "f3", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(&dave(), plain, "e5", Lang::En, false)
        .unwrap();
    svc.play().resign(&carol(), plain, None).unwrap();
    assert_eq!(notes.posts().len(), 1);
}

/// `white` and `black` play two moves in `thread`, then `white` resigns.
fn finish_in(svc: &GameService, white: &UserRef, black: &UserRef, thread: u64) {
    svc.play()
        .play_move(white, at(thread), "e4", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(black, at(thread), "e5", Lang::En, false)
        .unwrap();
    svc.play().resign(white, at(thread), None).unwrap();
}

#[test]
fn looking_from_the_channel_reaches_the_callers_own_game_never_another_pairs() {
    let (svc, _) = service();
    let frank = user(6, "frank");
    let gus = user(7, "gus");
    // alice and bob finish in their thread; carol and dave then start in theirs.
    let ab = threaded_game(&svc, &alice(), &bob(), 1001);
    finish_in(&svc, &alice(), &bob(), 1001);
    let cd = threaded_game(&svc, &carol(), &dave(), 1002);
    svc.play()
        .play_move(&carol(), at(1002), "d4", Lang::En, false)
        .unwrap();
    // One other game running: alice still gets her own finished game, not carol's.
    assert_eq!(svc.queries().board_for(&alice(), CH).unwrap().game_id, ab);
    let (pgn, _) = svc.queries().pgn_and_analysis_for(&bob(), CH).unwrap();
    assert!(pgn.contains("[White \"alice\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 e5"), "{pgn}");
    assert_eq!(
        svc.engine()
            .last_finished_game_for(&alice(), CH)
            .unwrap()
            .game_id,
        ab
    );
    // Two other games running: the same, not the links to the others' threads.
    threaded_game(&svc, &erin(), &frank, 1003);
    assert_eq!(svc.queries().board_for(&alice(), CH).unwrap().game_id, ab);
    let (pgn, _) = svc.queries().pgn_and_analysis_for(&alice(), CH).unwrap();
    assert!(pgn.contains("[Black \"bob\"]"), "{pgn}");
    // The players of the games in progress get theirs.
    assert_eq!(svc.queries().board_for(&dave(), CH).unwrap().game_id, cd);
    // A spectator: the links to the games in progress ...
    match svc.queries().board_for(&gus, CH) {
        Err(GameError::GamesInThreads { threads }) => assert_eq!(threads, [1002, 1003]),
        other => panic!("{other:?}"),
    }
    // ... and, for the analysis, the channel's last finished game.
    assert_eq!(
        svc.engine()
            .last_finished_game_for(&gus, CH)
            .unwrap()
            .game_id,
        ab
    );
    // In a game's thread: its game, whoever asks.
    assert_eq!(
        svc.queries().board_for(&alice(), at(1002)).unwrap().game_id,
        cd
    );
    // carol and dave finish: alice keeps hers, the spectator gets the channel's last one.
    svc.play().resign(&dave(), at(1002), None).unwrap();
    assert_eq!(svc.queries().board_for(&alice(), CH).unwrap().game_id, ab);
    assert_eq!(
        svc.engine()
            .last_finished_game_for(&alice(), CH)
            .unwrap()
            .game_id,
        ab
    );
    assert_eq!(
        svc.engine()
            .last_finished_game_for(&gus, CH)
            .unwrap()
            .game_id,
        cd
    );
    // Several games of one's own in progress: the links to one's own threads only.
    threaded_game(&svc, &alice(), &gus, 1004);
    assert_eq!(
        svc.queries().board_for(&alice(), CH).unwrap().thread,
        Some(1004)
    );
    threaded_game(&svc, &bob(), &alice(), 1005);
    match svc.queries().board_for(&alice(), CH) {
        Err(GameError::SeveralGames { threads }) => assert_eq!(threads, [1004, 1005]),
        other => panic!("{other:?}"),
    }
    // Analysing: one's own last finished game, while one's games go on.
    assert_eq!(
        svc.engine()
            .last_finished_game_for(&alice(), CH)
            .unwrap()
            .game_id,
        ab
    );
    // /history stays channel-wide.
    assert_eq!(svc.queries().history(CH, 10).unwrap().len(), 2);
}

#[test]
fn a_rematch_swaps_the_colours_and_is_posted_in_the_games_channel() {
    let (svc, notes) = service();
    let id = threaded_game(&svc, &alice(), &bob(), 1001);
    // Not before the game ended, and only for its players.
    assert!(matches!(
        svc.challenges().rematch(&bob(), id, true),
        Err(GameError::PositionChanged)
    ));
    svc.play()
        .play_move(&alice(), at(1001), "e4", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(&bob(), at(1001), "e5", Lang::En, false)
        .unwrap();
    svc.play().resign(&alice(), at(1001), None).unwrap();
    assert!(matches!(
        svc.challenges().rematch(&carol(), id, true),
        Err(GameError::NotAPlayer)
    ));
    let c = svc.challenges().rematch(&bob(), id, true).unwrap();
    assert_eq!(c.challenger, bob());
    assert_eq!(c.opponent, Some(alice()));
    // bob had black: now white.
    assert_eq!(c.colour, ColourChoice::White);
    assert_eq!(c.channel, CH.channel);
    let posts = notes.posts();
    let last = posts.last().unwrap();
    assert_eq!(last.kind, NoticeKind::Rematch(ChallengeViewLike::strip(&c)));
    assert_eq!(last.place, CH);
    assert_eq!(last.mentions, [alice().id]);
    // The message posted is the challenge's: alice's Accept opens the new game's thread on it.
    let message = c.message.expect("the notifier's message id is kept");
    let v = svc
        .challenges()
        .accept_at(
            &alice(),
            Place::with_threads(CH),
            Some(c.id),
            Lang::En,
            Some(message),
        )
        .unwrap();
    assert_eq!(v.white, bob());
    assert_eq!(v.thread, Some(message));
    // A second rematch while one waits: one pending challenge per challenger.
    svc.challenges().rematch(&bob(), id, true).unwrap();
    assert!(matches!(
        svc.challenges().rematch(&bob(), id, true),
        Err(GameError::ChallengePending)
    ));
}

/// The challenge as the notice carries it: before its message id was recorded.
struct ChallengeViewLike;

impl ChallengeViewLike {
    fn strip(c: &cajitas::game::ChallengeView) -> cajitas::game::ChallengeView {
        cajitas::game::ChallengeView {
            message: None,
            ..c.clone()
        }
    }
}

#[test]
fn a_game_started_before_the_threads_migration_keeps_playing_in_its_channel() {
    let dir = std::env::temp_dir().join(format!(
        "cajitas-places-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("old.db");
    {
        // The schema as it was (migrations 0001 to 0005) with a game in progress.
        let conn = rusqlite::Connection::open(&db).unwrap();
        for sql in [
            include_str!("../migrations/0001_initial.sql"),
            include_str!("../migrations/0002_bot_settings.sql"),
            include_str!("../migrations/0003_pings.sql"),
            include_str!("../migrations/0004_game_language.sql"),
            include_str!("../migrations/0005_takebacks.sql"),
        ] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 5).unwrap();
        let start = cajitas_rules::Position::new().fen();
        conn.execute_batch(&format!(
            "INSERT INTO users (id, name, is_bot, updated_at) VALUES (1, 'alice', 0, 0), (2, 'bob', 0, 0);
             INSERT INTO games (guild_id, channel_id, white_id, black_id, start_fen, fen, created_at, updated_at)
             VALUES (10, 100, 1, 2, '{start}', '{start}', 0, 0);"
        ))
        .unwrap();
    }
    let svc = GameService::open(&db, ServiceOptions::default()).unwrap();
    let r = svc
        .play()
        .play_move(&alice(), CH, "e4", Lang::En, false)
        .unwrap();
    assert_eq!(r.view.thread, None);
    assert!(!r.view.elsewhere_than(CH));
    // It is the channel's game: no second game there without threads ...
    assert!(matches!(
        svc.challenges()
            .challenge(&carol(), CH, Some(&dave()), ColourChoice::White),
        Err(GameError::GameInProgress)
    ));
    // ... but games in threads may start beside it.
    threaded_game(&svc, &carol(), &dave(), 1001);
    let r = svc
        .play()
        .play_move(&bob(), CH, "e5", Lang::En, false)
        .unwrap();
    assert_eq!(r.view.sans(), ["e4", "e5"]);
    drop(svc);
    let _ = std::fs::remove_dir_all(&dir);
}
