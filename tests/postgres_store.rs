//! What only PostgreSQL needs testing for: migrations under an advisory lock, several
//! processes (here: several stores, each with its own connections, as separate processes
//! have) racing on one game and one interaction id. Every test runs on the real server of
//! `tests/support/postgres.rs`, or says it was skipped.

mod support;

use std::sync::{Arc, Barrier};
use std::time::Duration;

use cajitas::game::{
    ChannelRef, ColourChoice, GameError, GameService, Lang, ServiceOptions, UserRef,
};
use cajitas::store::postgres::{latest_schema_version, locks};
use cajitas::store::{PostgresStore, Store, StoreExt};

use support::postgres::{server_or_skip, timing_lock};

const CH: ChannelRef = ChannelRef {
    guild: Some(10),
    channel: 20,
};

fn alice() -> UserRef {
    UserRef::new(1, "alice", false)
}
fn bob() -> UserRef {
    UserRef::new(2, "bob", false)
}

#[test]
fn a_process_starting_while_another_migrates_waits_for_it() {
    let Some(pg) = server_or_skip("a_process_starting_while_another_migrates_waits_for_it") else {
        return;
    };
    let _quiet = timing_lock();
    let db = pg.database("migrate-lock");
    // Another process holds the migrations' lock (as while it migrates).
    let mut other = db.client();
    other
        .execute(
            "SELECT pg_advisory_lock($1, $2)",
            &[&locks::CLASS, &locks::MIGRATIONS],
        )
        .unwrap();
    let url = db.url.clone();
    let opening = std::thread::spawn(move || PostgresStore::open(&url).map(|s| s.schema_version()));
    // The server shows the opening process waiting for that lock.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let waiting: i64 = other
            .query_one(
                "SELECT count(*) FROM pg_locks
                 WHERE locktype = 'advisory' AND NOT granted
                   AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                   AND classid::int8 = $1 AND objid::int8 = $2 AND objsubid = 2",
                &[&i64::from(locks::CLASS), &i64::from(locks::MIGRATIONS)],
            )
            .unwrap()
            .get(0);
        if waiting == 1 {
            break;
        }
        assert!(!opening.is_finished(), "it must wait for the lock");
        assert!(
            std::time::Instant::now() < deadline,
            "the opening process never waited for the migrations' lock"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!opening.is_finished(), "it must wait for the lock");
    let tables: i64 = other
        .query_one(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = 'games'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(tables, 0, "nothing migrated while the lock is held");
    other
        .execute(
            "SELECT pg_advisory_unlock($1, $2)",
            &[&locks::CLASS, &locks::MIGRATIONS],
        )
        .unwrap();
    let version = opening.join().unwrap().unwrap().unwrap();
    assert_eq!(version, latest_schema_version());
}

#[test]
fn processes_starting_at_once_migrate_once() {
    let Some(pg) = server_or_skip("processes_starting_at_once_migrate_once") else {
        return;
    };
    let db = pg.database("migrate-once");
    let barrier = Arc::new(Barrier::new(4));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let url = db.url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                PostgresStore::open(&url).map(|s| s.schema_version().unwrap())
            })
        })
        .collect();
    for h in handles {
        // Without the lock, all but one would fail on "relation already exists".
        assert_eq!(h.join().unwrap().unwrap(), latest_schema_version());
    }
    let mut c = db.client();
    let rows: i64 = c
        .query_one("SELECT count(*) FROM schema_migrations", &[])
        .unwrap()
        .get(0);
    assert_eq!(rows as usize, latest_schema_version());
    // Opening again applies nothing.
    let mut s = PostgresStore::open(&db.url).unwrap();
    s.migrate().unwrap();
    assert_eq!(s.schema_version().unwrap(), latest_schema_version());
}

/// Two processes' services on the database at `url`, and the id of a game alice (White) and
/// bob play in `CH`, started through the first.
fn two_processes_with_a_game(url: &str) -> (GameService, GameService, i64) {
    let open = || {
        GameService::with_store(
            Box::new(PostgresStore::open(url).unwrap()),
            ServiceOptions::default(),
        )
    };
    let (a, b) = (open(), open());
    a.challenges()
        .challenge(&alice(), CH, Some(&bob()), ColourChoice::White)
        .unwrap();
    let game = a.challenges().accept(&bob(), CH).unwrap().game_id;
    (a, b, game)
}

#[test]
fn racing_moves_from_two_processes_on_one_game_land_once() {
    let Some(pg) = server_or_skip("racing_moves_from_two_processes_on_one_game_land_once") else {
        return;
    };
    let db = pg.database("race-processes");
    let (a, b, _) = two_processes_with_a_game(&db.url);
    // Ten rounds: at each ply both processes send the move of the player to move at once.
    for round in 0..10u32 {
        let mover = if round % 2 == 0 { alice() } else { bob() };
        let text = ["Nf3", "Nf6", "Ng1", "Ng8"][(round % 4) as usize];
        let moves = [text, text];
        let barrier = Arc::new(Barrier::new(2));
        let results: Vec<Result<_, GameError>> = [(a.clone(), moves[0]), (b.clone(), moves[1])]
            .into_iter()
            .map(|(svc, text)| {
                let barrier = barrier.clone();
                let mover = mover.clone();
                std::thread::spawn(move || {
                    barrier.wait();
                    svc.play()
                        .play_move_at(&mover, CH, text, Lang::En, false, Some(round))
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect();
        let landed = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(landed, 1, "round {round}: {results:?}");
        for r in &results {
            if let Err(e) = r {
                // Its ply is gone: refused by the ply check, or as no longer its turn.
                assert!(
                    matches!(e, GameError::PositionChanged | GameError::NotYourTurn),
                    "{e:?}"
                );
            }
        }
        assert_eq!(a.queries().board(CH).unwrap().ply, round + 1);
        assert_eq!(b.queries().board(CH).unwrap().ply, round + 1);
    }
    let moves: i64 = db
        .client()
        .query_one("SELECT count(*) FROM moves", &[])
        .unwrap()
        .get(0);
    assert_eq!(moves, 10);
}

#[test]
fn an_interaction_is_handled_by_one_process_only() {
    let Some(pg) = server_or_skip("an_interaction_is_handled_by_one_process_only") else {
        return;
    };
    let db = pg.database("interactions");
    for id in 0..20u64 {
        let barrier = Arc::new(Barrier::new(3));
        let firsts: usize = (0..3)
            .map(|_| {
                let url = db.url.clone();
                let barrier = barrier.clone();
                std::thread::spawn(move || {
                    let s = PostgresStore::open(&url).unwrap();
                    barrier.wait();
                    s.immediate(|tx| tx.mark_interaction(1_000 + id, 5))
                        .unwrap()
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| usize::from(h.join().unwrap()))
            .sum();
        assert_eq!(firsts, 1, "interaction {id}");
    }
}

#[test]
fn a_challenge_race_in_one_channel_is_a_clean_refusal() {
    // Two processes challenge in the same channel at once: the channel's lock makes the second
    // see the first's challenge and refuse it as SQLite would, instead of failing on the
    // unique index.
    let Some(pg) = server_or_skip("a_challenge_race_in_one_channel_is_a_clean_refusal") else {
        return;
    };
    let db = pg.database("challenge-race");
    let open = || {
        GameService::with_store(
            Box::new(PostgresStore::open(&db.url).unwrap()),
            ServiceOptions::default(),
        )
    };
    let (a, b) = (open(), open());
    for round in 0..10 {
        let barrier = Arc::new(Barrier::new(2));
        let results: Vec<_> = [(a.clone(), alice()), (b.clone(), bob())]
            .into_iter()
            .map(|(svc, who)| {
                let barrier = barrier.clone();
                std::thread::spawn(move || {
                    barrier.wait();
                    svc.challenges()
                        .challenge(&who, CH, None, ColourChoice::Random)
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect();
        assert_eq!(
            results.iter().filter(|r| r.is_ok()).count(),
            1,
            "round {round}: {results:?}"
        );
        for r in &results {
            if let Err(e) = r {
                assert!(!matches!(e, GameError::Failed(_)), "{e:?}");
            }
        }
        // Whoever made it withdraws it.
        if a.challenges().cancel(&alice(), CH).is_err() {
            b.challenges().cancel(&bob(), CH).unwrap();
        }
    }
}

#[test]
fn the_postgres_schema_has_every_table_and_column_of_sqlite() {
    // `cajitas migrate` reads the tables to copy from both schemas (`store::copy::
    // schema_tables`), which fails where they differ: so both schemas stay twins.
    let Some(pg) = server_or_skip("the_postgres_schema_has_every_table_and_column_of_sqlite")
    else {
        return;
    };
    let db = pg.database("schema");
    drop(PostgresStore::open(&db.url).unwrap());
    let dir = support::bot::TempDir::new("schema");
    let file = dir.join("schema.db");
    drop(cajitas::store::sqlite::SqliteStore::open(&file).unwrap());
    let sqlite = rusqlite::Connection::open(&file).unwrap();
    let mut c = db.client();
    let tables = cajitas::store::copy::schema_tables(&sqlite, &mut c).unwrap();
    let sqlite_tables: i64 = sqlite
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        tables.len() as i64,
        sqlite_tables - cajitas::store::copy::DERIVED.len() as i64
    );
    let table = |name: &str| tables.iter().find(|t| t.name == name).unwrap();
    use cajitas::store::copy::Col;
    assert_eq!(table("games").identity.as_deref(), Some("id"));
    assert_eq!(table("ratings").identity, None);
    assert_eq!(table("ratings").key, ["pool", "speed", "user_id"]);
    assert!(table("pings").key.is_empty());
    let col = |t: &str, c: &str| table(t).columns.iter().find(|(n, _)| n == c).unwrap().1;
    assert_eq!(col("games", "rated"), Col::Bool);
    assert_eq!(col("games", "ply"), Col::I32);
    assert_eq!(col("ratings", "rating"), Col::F64);
    assert_eq!(col("moves", "san"), Col::Text);
    // A column only one schema has is named.
    c.batch_execute("ALTER TABLE games ADD COLUMN only_here INTEGER")
        .unwrap();
    let e = cajitas::store::copy::schema_tables(&sqlite, &mut c)
        .unwrap_err()
        .to_string();
    assert!(e.contains("games.only_here"), "{e}");
}

#[test]
fn a_notification_wakes_the_other_processes_listening() {
    let Some(pg) = server_or_skip("a_notification_wakes_the_other_processes_listening") else {
        return;
    };
    let db = pg.database("notify");
    let a = PostgresStore::open(&db.url).unwrap();
    let b = PostgresStore::open(&db.url).unwrap();
    let wakeups = b
        .coordination()
        .unwrap()
        .listen("cajitas_deadline")
        .unwrap();
    assert_eq!(
        wakeups.wait(Duration::from_millis(100)),
        None,
        "nothing yet"
    );
    let coord = a.coordination().unwrap();
    coord.notify("cajitas_deadline", "game 7").unwrap();
    assert_eq!(
        wakeups.wait(Duration::from_secs(5)).as_deref(),
        Some("game 7")
    );
    // Other topics do not wake it; a topic is a plain name.
    coord.notify("cajitas_other", "x").unwrap();
    assert_eq!(wakeups.wait(Duration::from_millis(300)), None);
    assert!(coord.notify("bad topic; DROP TABLE games", "x").is_err());
    assert!(b.coordination().unwrap().listen("Bad").is_err());
    // A NOTIFY inside a transaction arrives when it commits, never when it rolls back.
    let mut c = db.client();
    let mut tx = c.transaction().unwrap();
    tx.execute("SELECT pg_notify('cajitas_deadline', 'rolled back')", &[])
        .unwrap();
    tx.rollback().unwrap();
    let mut tx = c.transaction().unwrap();
    tx.execute("SELECT pg_notify('cajitas_deadline', 'committed')", &[])
        .unwrap();
    assert_eq!(
        wakeups.wait(Duration::from_millis(300)),
        None,
        "not before the commit"
    );
    tx.commit().unwrap();
    assert_eq!(
        wakeups.wait(Duration::from_secs(5)).as_deref(),
        Some("committed")
    );
}

#[test]
fn store_rows_round_trip_and_failures_leave_nothing() {
    use cajitas::store::{
        ClockKind, ClockRow, Ending, GameStatus, MoveRow, NewGame, Side, StoreError,
        TimeControlRow, UserRow,
    };
    let Some(pg) = server_or_skip("store_rows_round_trip_and_failures_leave_nothing") else {
        return;
    };
    let db = pg.database("rows");
    let s = PostgresStore::open(&db.url).unwrap();
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // Ids above 2^63 (Discord snowflakes are u64) come back as they went in.
    let big = UserRow {
        id: u64::MAX - 1,
        name: "alice".into(),
        is_bot: true,
    };
    let g = s
        .immediate(|tx| {
            tx.upsert_user(&big, 1)?;
            tx.upsert_user(
                &UserRow {
                    id: 2,
                    name: "bob".into(),
                    is_bot: false,
                },
                1,
            )?;
            tx.insert_game(&NewGame {
                chess960: None,
                guild: Some(u64::MAX),
                channel: u64::MAX - 5,
                white: u64::MAX - 1,
                black: 2,
                start_fen: START,
                now: 1,
                lang: "es",
                thread: Some(u64::MAX - 7),
                tc: TimeControlRow {
                    kind: ClockKind::Live,
                    base_ms: 180_000,
                    inc_ms: 2_000,
                },
                clock: ClockRow {
                    white_ms: 180_000,
                    black_ms: 180_000,
                    clock_at: Some(1),
                    deadline: Some(30_001),
                    seq: 0,
                },
                rated: true,
            })
        })
        .unwrap();
    // A thread's game is found by its thread, not by its channel.
    assert_eq!(s.read(|tx| tx.active_game(u64::MAX - 5)).unwrap(), None);
    let row = s.read(|tx| tx.active_game(u64::MAX - 7)).unwrap().unwrap();
    assert_eq!(
        (row.id, row.guild, row.white.clone()),
        (g, Some(u64::MAX), big.clone())
    );
    assert_eq!(
        (
            row.channel,
            row.thread,
            row.tc.kind,
            row.tc.inc_ms,
            row.rated
        ),
        (
            u64::MAX - 5,
            Some(u64::MAX - 7),
            ClockKind::Live,
            2_000,
            true
        )
    );
    assert_eq!(
        (row.clock.clock_at, row.clock.deadline, row.clock.seq),
        (Some(1), Some(30_001), 0)
    );
    let in_threads = s.read(|tx| tx.active_thread_games(u64::MAX - 5)).unwrap();
    assert_eq!(in_threads.len(), 1);
    assert_eq!(
        (row.status, row.ply, row.lang.as_str()),
        (GameStatus::Active, 0, "es")
    );
    // The ply check, and a finished game's ending.
    let m = MoveRow {
        ply: 0,
        uci: "e2e4".into(),
        san: "e4".into(),
        user_id: u64::MAX - 1,
        played_at: 5,
    };
    let clock = ClockRow {
        white_ms: 179_000,
        black_ms: 180_000,
        clock_at: Some(5),
        deadline: Some(180_005),
        seq: 0,
    };
    s.immediate(|tx| {
        assert!(tx.append_move(g, 0, &m, "fen1", &clock, None)?);
        assert!(
            !tx.append_move(g, 0, &m, "fen1", &clock, None)?,
            "stale ply"
        );
        tx.insert_draw_offer(g, Side::White, 1, 6)?;
        assert!(!tx.finish_game(g, 0, &ending())?, "stale ply");
        assert!(tx.finish_game(g, 1, &ending())?);
        Ok::<_, StoreError>(())
    })
    .unwrap();
    fn ending() -> Ending<'static> {
        Ending {
            status: GameStatus::Finished,
            result: "0-1",
            winner: Some(Side::Black),
            termination: "resignation",
            claim_move: None,
            now: 9,
        }
    }
    let row = s.read(|tx| tx.game(g)).unwrap().unwrap();
    assert_eq!(
        (row.status, row.winner, row.finished_at),
        (GameStatus::Finished, Some(Side::Black), Some(9))
    );
    assert_eq!(
        (row.clock.white_ms, row.clock.deadline, row.clock.seq),
        (179_000, Some(180_005), 1),
        "the move's clock, and seq grew"
    );
    assert_eq!(s.read(|tx| tx.open_draw_offer(g)).unwrap(), None, "lapsed");
    assert_eq!(s.read(|tx| tx.moves(g)).unwrap(), vec![m]);
    // A failed operation leaves the database as it was.
    let r: Result<(), StoreError> = s.immediate(|tx| {
        tx.upsert_user(
            &UserRow {
                id: 77,
                name: "x".into(),
                is_bot: false,
            },
            0,
        )?;
        Err(StoreError::Corrupt("the caller refused".into()))
    });
    assert!(r.is_err());
    assert_eq!(s.read(|tx| tx.user(77)).unwrap(), None);
    // Foreign keys hold.
    let r = s.immediate(|tx| {
        tx.insert_game(&NewGame {
            chess960: None,
            guild: None,
            channel: 1,
            white: 100,
            black: 101,
            start_fen: START,
            now: 0,
            lang: "en",
            thread: None,
            tc: TimeControlRow::default(),
            clock: ClockRow::default(),
            rated: false,
        })
    });
    assert!(matches!(r, Err(StoreError::Postgres(_))), "{r:?}");
    // A stored text this program does not write is a corrupt row, not a panic.
    let mut c = db.client();
    c.batch_execute("ALTER TABLE games DROP CONSTRAINT games_status_check")
        .unwrap();
    c.execute("UPDATE games SET status = 'weird' WHERE id = $1", &[&g])
        .unwrap();
    match s.read(|tx| tx.game(g)) {
        Err(StoreError::Corrupt(what)) => assert_eq!(what, r#"GameStatus "weird""#),
        other => panic!("{other:?}"),
    }
}

#[test]
fn two_schedulers_claim_each_due_event_once() {
    use cajitas::game::{EventScope, ManualClock, RecordingNotifier, TimeControl};
    let Some(pg) = server_or_skip("two_schedulers_claim_each_due_event_once") else {
        return;
    };
    let db = pg.database("schedulers");
    const T0: i64 = 1_800_000_000_000;
    const GAMES: u64 = 30;
    let clock = Arc::new(ManualClock::new(T0));
    let process = || {
        let posts = Arc::new(RecordingNotifier::default());
        let opts = ServiceOptions {
            notifier: posts.clone(),
            ..ServiceOptions::with_clock(clock.clone())
        };
        let svc = GameService::open_db(&cajitas::store::Database::Postgres(db.url.clone()), opts)
            .unwrap();
        (svc, posts)
    };
    let (a, posts_a) = process();
    let (b, posts_b) = process();
    // A live game (3+2) in each channel, both sides have moved: the clock runs for white.
    for n in 0..GAMES {
        let ch = ChannelRef {
            guild: Some(10),
            channel: 1_000 + n,
        };
        // Other players in each game: the challenges of one pair are limited.
        let (w, bl) = (
            UserRef::new(100 + 2 * n, "w", false),
            UserRef::new(101 + 2 * n, "b", false),
        );
        let live: TimeControl = "3+2".parse().unwrap();
        a.challenges()
            .challenge_timed(&w, ch, Some(&bl), ColourChoice::White, live)
            .unwrap();
        a.challenges().accept(&bl, ch).unwrap();
        a.play().play_move(&w, ch, "e4", Lang::En, false).unwrap();
        b.play().play_move(&bl, ch, "e5", Lang::En, false).unwrap();
    }
    clock.advance(Duration::from_secs(600));
    // Both processes' schedulers run at once, several rounds each.
    let barrier = Barrier::new(2);
    let claimed: Vec<usize> = std::thread::scope(|s| {
        [&a, &b]
            .map(|svc| {
                let barrier = &barrier;
                s.spawn(move || {
                    barrier.wait();
                    (0..5)
                        .map(|_| svc.clocks().run_round(EventScope::All).unwrap().claimed)
                        .sum::<usize>()
                })
            })
            .map(|h| h.join().unwrap())
            .to_vec()
    });
    assert_eq!(
        claimed.iter().sum::<usize>(),
        GAMES as usize,
        "each timeout claimed once: {claimed:?}"
    );
    let mut c = db.client();
    let one =
        |c: &mut postgres::Client, sql: &str| -> i64 { c.query_one(sql, &[]).unwrap().get(0) };
    assert_eq!(
        one(
            &mut c,
            "SELECT count(*) FROM games WHERE status = 'finished' AND termination IS NOT NULL"
        ),
        GAMES as i64
    );
    assert_eq!(
        one(
            &mut c,
            "SELECT count(*) FROM clock_events WHERE kind = 'timeout' AND done_at IS NOT NULL"
        ),
        GAMES as i64
    );
    assert_eq!(
        one(
            &mut c,
            "SELECT count(*) FROM games WHERE event_due IS NOT NULL"
        ),
        0
    );
    // Every timeout was posted, by one process only (each post is claimed), and marked
    // posted.
    let mut nonces: Vec<String> = posts_a
        .posts()
        .into_iter()
        .chain(posts_b.posts())
        .filter_map(|n| n.nonce)
        .collect();
    nonces.sort();
    let posted = nonces.len();
    nonces.dedup();
    assert_eq!(posted, nonces.len(), "a timeout was posted twice");
    assert_eq!(nonces.len(), GAMES as usize);
    assert_eq!(
        one(
            &mut c,
            "SELECT count(*) FROM clock_events WHERE posted_at IS NULL"
        ),
        0
    );
}

#[test]
fn a_new_deadline_wakes_the_other_processes() {
    use cajitas::game::TimeControl;
    let Some(pg) = server_or_skip("a_new_deadline_wakes_the_other_processes") else {
        return;
    };
    let db = pg.database("deadline");
    let listener = PostgresStore::open(&db.url).unwrap();
    let wakeups = listener.coordination().unwrap().listen_deadlines().unwrap();
    let svc = GameService::open_db(
        &cajitas::store::Database::Postgres(db.url.clone()),
        ServiceOptions::default(),
    )
    .unwrap();
    let live: TimeControl = "3+2".parse().unwrap();
    svc.challenges()
        .challenge_timed(&alice(), CH, Some(&bob()), ColourChoice::White, live)
        .unwrap();
    let v = svc.challenges().accept(&bob(), CH).unwrap();
    // The game's first event, announced with its due time once the accept committed.
    let payload = wakeups
        .wait(Duration::from_secs(5))
        .expect("a notification");
    let due: i64 = payload.parse().unwrap();
    assert!(due > 0, "{payload}");
    let mut c = db.client();
    let stored: i64 = c
        .query_one("SELECT event_due FROM games WHERE id = $1", &[&v.game_id])
        .unwrap()
        .get(0);
    assert_eq!(due, stored);
    // A move writes the next event with itself (one statement): announced as well.
    svc.play()
        .play_move(&alice(), CH, "e4", Lang::En, false)
        .unwrap();
    let payload = wakeups
        .wait(Duration::from_secs(5))
        .expect("a notification after the move");
    let (due, seq): (i64, i64) = {
        let row = c
            .query_one(
                "SELECT event_due, seq FROM games WHERE id = $1",
                &[&v.game_id],
            )
            .unwrap();
        (row.get(0), row.get(1))
    };
    assert_eq!(payload, due.to_string());
    assert_eq!(seq, 1, "the event belongs to the move's seq");
}

#[test]
fn a_deadline_set_by_another_process_wakes_this_scheduler() {
    use cajitas::game::TimeControl;
    let Some(pg) = server_or_skip("a_deadline_set_by_another_process_wakes_this_scheduler") else {
        return;
    };
    let db = pg.database("follow");
    let open = || {
        GameService::open_db(
            &cajitas::store::Database::Postgres(db.url.clone()),
            ServiceOptions::default(),
        )
        .unwrap()
    };
    let (a, b) = (open(), open());
    // Process A's scheduler, with nothing to do, sleeps without a plan.
    let sched = support::postgres::idle_following_scheduler(a, &db.url);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    // Process B starts a live game: A learns of its first deadline.
    let live: TimeControl = "3+2".parse().unwrap();
    b.challenges()
        .challenge_timed(&alice(), CH, Some(&bob()), ColourChoice::White, live)
        .unwrap();
    b.challenges().accept(&bob(), CH).unwrap();
    let mut c = db.client();
    let due: i64 = c
        .query_one(
            "SELECT event_due FROM games WHERE event_due IS NOT NULL",
            &[],
        )
        .unwrap()
        .get(0);
    while sched.planned() != Some(due) {
        assert!(
            std::time::Instant::now() < deadline + Duration::from_secs(5),
            "A's plan: {:?}, the deadline: {due}",
            sched.planned()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    sched.stop();
}

/// Records the posts, slowly (a post is a request to Discord): two schedulers claiming at the
/// same time overlap.
#[derive(Debug, Default)]
struct SlowPosts(cajitas::game::RecordingNotifier);

impl cajitas::game::Notifier for SlowPosts {
    fn post(
        &self,
        notice: &cajitas::game::Notice,
    ) -> Result<Option<u64>, cajitas::game::NotifyError> {
        std::thread::sleep(Duration::from_millis(3));
        self.0.post(notice)
    }
    fn post_tournament(
        &self,
        notice: &cajitas::game::TournamentNotice,
    ) -> Result<Option<u64>, cajitas::game::NotifyError> {
        self.0.post_tournament(notice)
    }
}

/// Fails every post: the events stay done and unposted, as a process that could not reach
/// Discord leaves them.
#[derive(Debug)]
struct Unreachable;

impl cajitas::game::Notifier for Unreachable {
    fn post(&self, _: &cajitas::game::Notice) -> Result<Option<u64>, cajitas::game::NotifyError> {
        Err(cajitas::game::NotifyError::Delivery("unreachable".into()))
    }
    fn post_tournament(
        &self,
        _: &cajitas::game::TournamentNotice,
    ) -> Result<Option<u64>, cajitas::game::NotifyError> {
        Err(cajitas::game::NotifyError::Delivery("unreachable".into()))
    }
}

/// Two processes' schedulers race over the same done events: each is posted exactly once
/// between them (not once per process, deduplicated later by its nonce), and the posts a dead
/// process claimed go out, once, when its claim lapses.
fn posts_are_claimed_once(db: &cajitas::store::Database) {
    use cajitas::game::{Clock, EventScope, ManualClock, TimeControl};
    const T0: i64 = 1_800_000_000_000;
    const GAMES: u64 = 40;
    const DEAD: usize = 5;
    let clock = Arc::new(ManualClock::new(T0));
    let service = |notifier: Arc<dyn cajitas::game::Notifier>| {
        let opts = ServiceOptions {
            notifier,
            ..ServiceOptions::with_clock(clock.clone())
        };
        GameService::open_db(db, opts).unwrap()
    };
    // A process that ends the games on time but cannot post: its failed posts may be tried
    // again by anyone 30 s later.
    let unlucky = service(Arc::new(Unreachable));
    for n in 0..GAMES {
        let ch = ChannelRef {
            guild: Some(10),
            channel: 3_000 + n,
        };
        let (w, bl) = (
            UserRef::new(500 + 2 * n, "w", false),
            UserRef::new(501 + 2 * n, "b", false),
        );
        let live: TimeControl = "3+2".parse().unwrap();
        unlucky
            .challenges()
            .challenge_timed(&w, ch, Some(&bl), ColourChoice::White, live)
            .unwrap();
        unlucky.challenges().accept(&bl, ch).unwrap();
        unlucky
            .play()
            .play_move(&w, ch, "e4", Lang::En, false)
            .unwrap();
        unlucky
            .play()
            .play_move(&bl, ch, "e5", Lang::En, false)
            .unwrap();
    }
    clock.advance(Duration::from_secs(600));
    let round = unlucky.clocks().run_round(EventScope::All).unwrap();
    assert_eq!(
        (round.claimed, round.posted, round.failed),
        (GAMES as usize, 0, GAMES as usize)
    );
    drop(unlucky);
    let a_posts = Arc::new(SlowPosts::default());
    let b_posts = Arc::new(SlowPosts::default());
    let (a, b) = (service(a_posts.clone()), service(b_posts.clone()));
    // Not before the retry time.
    assert_eq!(
        a.clocks().run_round(EventScope::All).unwrap(),
        Default::default()
    );
    clock.advance(Duration::from_secs(31));
    // A process claims a few posts and dies before posting them.
    let now = clock.now_ms();
    let lease = 60_000;
    let raw = db.open().unwrap();
    let dead: Vec<i64> = raw
        .immediate(|tx| tx.claim_posts(EventScope::All, now, now + lease, DEAD))
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(dead.len(), DEAD);
    let race = || {
        let barrier = Barrier::new(2);
        std::thread::scope(|s| {
            [&a, &b]
                .map(|svc| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        barrier.wait();
                        (0..4)
                            .map(|_| svc.clocks().run_round(EventScope::All).unwrap().posted)
                            .sum::<usize>()
                    })
                })
                .map(|h| h.join().unwrap())
                .iter()
                .sum::<usize>()
        })
    };
    let nonces = || {
        let mut n: Vec<String> = a_posts
            .0
            .posts()
            .into_iter()
            .chain(b_posts.0.posts())
            .map(|n| n.nonce.expect("a scheduled post has a nonce"))
            .collect();
        n.sort();
        n
    };
    assert_eq!(race(), GAMES as usize - DEAD);
    let posted = nonces();
    let mut unique = posted.clone();
    unique.dedup();
    assert_eq!(posted, unique, "a post went out twice");
    assert_eq!(posted.len(), GAMES as usize - DEAD);
    for id in &dead {
        assert!(!posted.contains(&cajitas::game::nonce(*id)));
    }
    // The dead claim wakes a scheduler when it lapses.
    let wake = raw.read(|tx| tx.next_post_due(EventScope::All)).unwrap();
    assert_eq!(wake, Some(now + lease));
    assert_eq!(race(), 0, "a live claim is left alone");
    clock.advance(Duration::from_millis(lease as u64));
    assert_eq!(race(), DEAD);
    let posted = nonces();
    let mut unique = posted.clone();
    unique.dedup();
    assert_eq!(posted, unique, "a post went out twice");
    assert_eq!(posted.len(), GAMES as usize);
    assert_eq!(
        raw.read(|tx| tx.next_post_due(EventScope::All)).unwrap(),
        None,
        "every post marked posted"
    );
    drop(raw);
}

#[test]
fn two_schedulers_post_each_done_event_exactly_once_and_a_dead_claim_lapses() {
    let Some(pg) =
        server_or_skip("two_schedulers_post_each_done_event_exactly_once_and_a_dead_claim_lapses")
    else {
        return;
    };
    let db = pg.database("post-claims");
    posts_are_claimed_once(&cajitas::store::Database::Postgres(db.url.clone()));
}

#[test]
fn with_sqlite_the_same_post_claims_hold() {
    let dir = support::bot::TempDir::new("post-claims");
    posts_are_claimed_once(&cajitas::store::Database::Sqlite(dir.path().join("c.db")));
}

#[test]
fn connections_the_server_closed_are_replaced_without_failing_an_operation() {
    let Some(pg) =
        server_or_skip("connections_the_server_closed_are_replaced_without_failing_an_operation")
    else {
        return;
    };
    let db = pg.database("closed-connections");
    let svc = GameService::with_store(
        Box::new(PostgresStore::open(&db.url).unwrap()),
        ServiceOptions::default(),
    );
    svc.challenges()
        .challenge(&alice(), CH, Some(&bob()), ColourChoice::White)
        .unwrap();
    svc.challenges().accept(&bob(), CH).unwrap();
    svc.play()
        .play_move(&alice(), CH, "e4", Lang::En, false)
        .unwrap();
    // The server ends every idle connection of the service's pool (as a restart or an idle
    // timeout would); the pool does not test a connection before lending it.
    let mut admin = db.client();
    let others: Vec<i32> = admin
        .query(
            "SELECT pid FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let ended: Vec<i32> = others
        .into_iter()
        .filter(|pid| {
            admin
                .query_one("SELECT pg_terminate_backend($1)", &[pid])
                .unwrap()
                .get(0)
        })
        .collect();
    assert!(!ended.is_empty(), "the pool kept a connection");
    // Until the server says they are gone.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while admin
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1)",
            &[&ended],
        )
        .unwrap()
        .get::<_, i64>(0)
        > 0
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the terminated connections {ended:?} stayed"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // Each operation still lands: its BEGIN found the connection closed and began on a new one.
    svc.play()
        .play_move(&bob(), CH, "e5", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(&alice(), CH, "Nf3", Lang::En, false)
        .unwrap();
    assert_eq!(svc.queries().board(CH).unwrap().ply, 3);
}

#[test]
fn coordination_locks_held_while_shards_identify_leave_the_games_their_connections() {
    use cajitas::store::NamedLock;
    let Some(pg) = server_or_skip(
        "coordination_locks_held_while_shards_identify_leave_the_games_their_connections",
    ) else {
        return;
    };
    let db = pg.database("lock-connections");
    let store = PostgresStore::open(&db.url).unwrap();
    let coordination = store.coordination().unwrap();
    let svc = GameService::with_store(Box::new(store), ServiceOptions::default());
    // A process of a large bot identifying shards of several buckets at once, and
    // registering its commands: more locks than the store keeps connections.
    let mut held: Vec<_> = (0..8)
        .map(|bucket| coordination.lock(NamedLock::Identify(bucket)).unwrap())
        .collect();
    held.push(coordination.lock(NamedLock::CommandRegistration).unwrap());
    // Every session holds its own lock: another process finds each of them taken.
    let other = PostgresStore::open(&db.url)
        .unwrap()
        .coordination()
        .unwrap();
    for bucket in 0..8 {
        assert!(
            other
                .try_lock(NamedLock::Identify(bucket))
                .unwrap()
                .is_none(),
            "bucket {bucket} is held"
        );
    }
    // Meanwhile games go on: each operation gets a connection of the store's own.
    svc.challenges()
        .challenge(&alice(), CH, Some(&bob()), ColourChoice::White)
        .expect("a challenge while the locks are held");
    svc.challenges().accept(&bob(), CH).unwrap();
    svc.play()
        .play_move(&alice(), CH, "e4", Lang::En, false)
        .unwrap();
    assert_eq!(svc.queries().board(CH).unwrap().ply, 1);
    // Dropped, each lock is free again, for this process and the others.
    held.clear();
    for bucket in 0..8 {
        assert!(
            other
                .try_lock(NamedLock::Identify(bucket))
                .unwrap()
                .is_some(),
            "bucket {bucket} was released"
        );
    }
}

#[test]
fn two_games_of_one_player_ending_at_once_read_the_rating_one_after_the_other() {
    use cajitas::game::ratings::Speed;
    use cajitas::store::{RatingRow, UserRow};
    use std::sync::mpsc::channel;
    let Some(pg) = server_or_skip(
        "two_games_of_one_player_ending_at_once_read_the_rating_one_after_the_other",
    ) else {
        return;
    };
    let db = pg.database("rating-race");
    let (a, b) = (
        PostgresStore::open(&db.url).unwrap(),
        PostgresStore::open(&db.url).unwrap(),
    );
    a.immediate(|tx| {
        for id in [1, 2, 3] {
            let name = format!("p{id}");
            tx.upsert_user(
                &UserRow {
                    id,
                    name,
                    is_bot: false,
                },
                0,
            )?;
        }
        Ok::<_, cajitas::store::StoreError>(())
    })
    .unwrap();
    // Player 1 ends a game against 2 (process a) and one against 3 (process b) at once, in
    // two channels: b reads player 1's rating while a's transaction, which read it first, is
    // still open.
    let (a_read, a_has_read) = channel();
    let (b_read, b_has_read) = channel::<()>();
    let first = std::thread::spawn(move || {
        a.immediate(|tx| {
            let [before, _] = tx.rating_pair(10, Speed::Live, [1, 2])?;
            assert!(before.is_none(), "player 1's first rated game");
            a_read.send(()).unwrap();
            // With the lock, b cannot read before this commits: it waits here in vain.
            let b_went_first = b_has_read.recv_timeout(Duration::from_millis(500)).is_ok();
            tx.put_rating(&RatingRow {
                pool: 10,
                speed: Speed::Live,
                user_id: 1,
                rating: 1600.0,
                deviation: 300.0,
                volatility: 0.09,
                games: 1,
                rated_at: 1_800_000_000_000,
            })?;
            Ok::<_, cajitas::store::StoreError>(b_went_first)
        })
        .unwrap()
    });
    a_has_read.recv().unwrap();
    let [seen, _] = b
        .immediate(|tx| {
            let pair = tx.rating_pair(10, Speed::Live, [1, 3]);
            let _ = b_read.send(());
            pair
        })
        .unwrap();
    let b_went_first = first.join().unwrap();
    assert!(
        !b_went_first,
        "b read player 1's rating inside a's transaction"
    );
    let seen = seen.expect("b reads the rating a wrote");
    assert_eq!((seen.games, seen.rating), (1, 1600.0));
}

#[test]
fn two_processes_claiming_one_engine_move_at_once_get_it_once() {
    let Some(pg) = server_or_skip("two_processes_claiming_one_engine_move_at_once_get_it_once")
    else {
        return;
    };
    let db = pg.database("engine-claim-race");
    let (a, b, game) = two_processes_with_a_game(&db.url);
    for seq in 0..20i64 {
        let barrier = Arc::new(Barrier::new(2));
        let won: Vec<bool> = [(a.clone(), 1u64), (b.clone(), 2u64)]
            .into_iter()
            .map(|(svc, owner)| {
                let barrier = barrier.clone();
                std::thread::spawn(move || {
                    barrier.wait();
                    svc.engine()
                        .claim_engine_turn(game, seq, owner, Duration::from_secs(90))
                        .unwrap()
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect();
        assert_eq!(won.iter().filter(|w| **w).count(), 1, "seq {seq}: {won:?}");
    }
}

#[test]
fn an_engine_move_a_dead_process_claimed_is_played_by_another_once_the_claim_lapses() {
    use cajitas::engine::player::CLAIM_LEASE;
    use cajitas::engine::uci::EngineCommand;
    use cajitas::engine::{EnginePlayer, Pool, PoolConfig};
    use cajitas::game::ManualClock;
    let Some(pg) = server_or_skip(
        "an_engine_move_a_dead_process_claimed_is_played_by_another_once_the_claim_lapses",
    ) else {
        return;
    };
    let db = pg.database("engine-claim-lapse");
    let clock = Arc::new(ManualClock::new(1_800_000_000_000));
    let open = || {
        GameService::with_store(
            Box::new(PostgresStore::open(&db.url).unwrap()),
            ServiceOptions::with_clock(clock.clone()),
        )
    };
    // The person opens against level 4 (every move searched) through a process without an
    // engine player; a process that then died had claimed the engine's reply.
    let front = open();
    let human = alice();
    let game = front
        .engine()
        .play_engine(&human, CH, 4, ColourChoice::White, Lang::En)
        .unwrap()
        .game_id;
    front
        .play()
        .play_move(&human, CH, "e4", Lang::En, false)
        .unwrap();
    let seq = front.engine().engine_turn(game).unwrap().unwrap().seq;
    assert!(
        front
            .engine()
            .claim_engine_turn(game, seq, 999, CLAIM_LEASE)
            .unwrap()
    );
    // Another process's player, with a working engine, looks every 200 ms.
    let dir = std::env::temp_dir().join(format!("cajitas-claim-lapse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("script");
    std::fs::write(&script, "ok").unwrap();
    let pool = Pool::new(PoolConfig {
        command: EngineCommand {
            program: env!("CARGO_BIN_EXE_cajitas-fake-uci").into(),
            args: vec![script.display().to_string()],
            nice: false,
        },
        processes: 1,
        hash_mb: 16,
        threads: 1,
        margin: Duration::from_millis(400),
    });
    let player = EnginePlayer::prepare();
    let other = GameService::with_store(
        Box::new(PostgresStore::open(&db.url).unwrap()),
        ServiceOptions {
            engine_turns: Some(player.turns()),
            ..ServiceOptions::with_clock(clock.clone())
        },
    );
    let _player = player.start(other.clone(), pool, Duration::from_millis(200));
    let ply_within = |ply: u32, within: Duration| {
        let end = std::time::Instant::now() + within;
        loop {
            let now = other.queries().game(game).unwrap().ply;
            if now >= ply || std::time::Instant::now() >= end {
                return now;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    // While the claim holds, the other player leaves the move alone.
    assert_eq!(
        ply_within(2, Duration::from_millis(1500)),
        1,
        "searched a claimed move"
    );
    // The claim lapses: its next look plays the move.
    clock.advance(CLAIM_LEASE);
    assert_eq!(
        ply_within(2, Duration::from_secs(15)),
        2,
        "the lapsed move was not played"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scheduler_round_takes_the_ratings_of_its_games_in_one_order_with_everyone_else() {
    use cajitas::game::ratings::Speed;
    use cajitas::game::{ChallengeTerms, EventScope, ManualClock, TimeControl};
    let Some(pg) = server_or_skip(
        "a_scheduler_round_takes_the_ratings_of_its_games_in_one_order_with_everyone_else",
    ) else {
        return;
    };
    let db = pg.database("rating-lock-order");
    let t0 = 1_800_000_000_000;
    let clock = Arc::new(ManualClock::new(t0));
    let svc = GameService::with_store(
        Box::new(PostgresStore::open(&db.url).unwrap()),
        ServiceOptions::with_clock(clock.clone()),
    );
    let key = |user: u64| locks::rating_key(10, Speed::Live.as_str(), user);
    // Player b's key sorts after player c's: a person's game of b against c, ending now,
    // takes c's rating first and then waits for b's.
    let (b, c) = (100u64..)
        .flat_map(|b| [(b, b + 1), (b + 1, b)])
        .find(|&(b, c)| key(c) < key(b))
        .unwrap();
    let (e, f) = (200u64, 201u64);
    // Two rated live games in two channels: b's times out first, then c's.
    for (white, black, channel) in [(b, e, 21u64), (c, f, 22u64)] {
        let ch = ChannelRef {
            guild: Some(10),
            channel,
        };
        let (w, k) = (
            UserRef::new(white, &format!("p{white}"), false),
            UserRef::new(black, &format!("p{black}"), false),
        );
        let terms = ChallengeTerms {
            colour: ColourChoice::White,
            time: "3+2".parse::<TimeControl>().unwrap(),
            rated: true,
            variant: cajitas::game::Variant::Standard,
        };
        svc.challenges()
            .challenge_with(&w, ch, Some(&k), terms)
            .unwrap();
        svc.challenges().accept(&k, ch).unwrap();
        for (i, text) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
            let mover = if i % 2 == 0 { &w } else { &k };
            svc.play()
                .play_move(mover, ch, text, Lang::En, false)
                .unwrap();
        }
        clock.advance(Duration::from_secs(1));
    }
    clock.advance(Duration::from_secs(200));
    // The person's transaction holds c's rating (and, as every rated end, all ratings
    // shared), about to ask for b's.
    let mut person = db.client();
    let mut tx = person.transaction().unwrap();
    tx.execute(
        "SELECT pg_advisory_xact_lock_shared($1, $2), pg_advisory_xact_lock($3, $4)",
        &[
            &locks::CLASS,
            &locks::RATINGS,
            &locks::RATINGS_CLASS,
            &key(c),
        ],
    )
    .unwrap();
    let round = {
        let svc = svc.clone();
        std::thread::spawn(move || svc.clocks().run_round(EventScope::All))
    };
    let mut watcher = db.client();
    let mut waiting = || -> i64 {
        watcher
            .query_one(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
                &[],
            )
            .unwrap()
            .get(0)
    };
    let start = std::time::Instant::now();
    while waiting() == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the round never waited for c's rating"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The round waits for c's rating; b's must be free, or the person's game and the round
    // would each wait for the other.
    let b_free: bool = tx
        .query_one(
            "SELECT pg_try_advisory_xact_lock($1, $2)",
            &[&locks::RATINGS_CLASS, &key(b)],
        )
        .unwrap()
        .get(0);
    assert!(
        b_free,
        "the round holds b's rating while it waits for c's: crossing order"
    );
    tx.commit().unwrap();
    let done = round.join().unwrap().unwrap();
    assert_eq!(done.claimed, 2);
    for user in [b, c, e, f] {
        let n: i64 = db
            .client()
            .query_one(
                "SELECT count(*) FROM rating_history WHERE user_id = $1",
                &[&(user as i64)],
            )
            .unwrap()
            .get(0);
        assert_eq!(n, 1, "player {user}'s game was rated once");
    }
}
