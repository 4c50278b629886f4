use super::sqlite::{latest_schema_version, migrations};
use super::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn user(id: u64, name: &str) -> UserRow {
    UserRow {
        id,
        name: name.into(),
        is_bot: false,
    }
}

/// A temporary folder holding a test's database, removed (with the database) on drop.
struct TempDb {
    dir: std::path::PathBuf,
    file: std::path::PathBuf,
}

impl std::ops::Deref for TempDb {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.file
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn temp_db(tag: &str) -> TempDb {
    let dir = std::env::temp_dir().join(format!(
        "cajitas-store-{tag}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    TempDb {
        file: dir.join("test.db"),
        dir,
    }
}

fn new_game(tx: &dyn Tx, channel: u64) -> i64 {
    // Ids above 2^63 check the u64 <-> i64 round trip.
    tx.upsert_user(&user(u64::MAX - 1, "alice"), 1).unwrap();
    tx.upsert_user(&user(2, "bob"), 1).unwrap();
    tx.insert_game(&NewGame {
        chess960: None,
        guild: Some(u64::MAX),
        channel,
        white: u64::MAX - 1,
        black: 2,
        start_fen: START,
        now: 1,
        lang: "en",
        thread: None,
        tc: TimeControlRow::default(),
        clock: ClockRow::default(),
        rated: false,
    })
    .unwrap()
}

fn mv(ply: u32, uci: &str) -> MoveRow {
    MoveRow {
        ply,
        uci: uci.into(),
        san: uci.into(),
        user_id: 2,
        played_at: 10 + ply as i64,
    }
}

#[test]
fn migrations_apply_to_an_empty_database_and_are_idempotent() {
    let path = temp_db("migrate");
    {
        let mut s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), latest_schema_version());
        s.migrate().unwrap();
        s.migrate().unwrap();
        assert_eq!(s.schema_version().unwrap(), latest_schema_version());
        s.immediate(|tx| tx.upsert_user(&user(1, "a"), 0)).unwrap();
    }
    // Reopening applies nothing twice and keeps the data.
    let s = SqliteStore::open(&path).unwrap();
    assert_eq!(s.schema_version().unwrap(), latest_schema_version());
    let u = s.read(|tx| tx.user(1)).unwrap();
    assert_eq!(u, Some(user(1, "a")));
    migrations().validate().unwrap();
}

#[test]
fn pragmas_are_set() {
    let path = temp_db("pragmas");
    let s = SqliteStore::open(&path).unwrap();
    assert_eq!(s.pragma("journal_mode").unwrap(), "wal");
    assert_eq!(s.pragma("synchronous").unwrap(), "2"); // FULL
    assert_eq!(s.pragma("foreign_keys").unwrap(), "1");
    assert_eq!(s.pragma("busy_timeout").unwrap(), "5000");
    // The page cache is bounded in KiB (a negative cache_size), not SQLite's 2,000 KiB.
    assert_eq!(s.pragma("cache_size").unwrap(), "-512");
}

#[test]
fn users_are_stored_as_last_seen() {
    let s = SqliteStore::open_in_memory().unwrap();
    s.immediate(|tx| {
        tx.upsert_user(&user(7, "old"), 1)?;
        tx.upsert_user(&user(7, "new"), 2)?;
        assert_eq!(tx.user(7)?.unwrap().name, "new");
        assert_eq!(tx.user(8)?, None);
        Ok::<_, StoreError>(())
    })
    .unwrap();
}

#[test]
fn a_failed_operation_leaves_the_database_as_it_was() {
    let s = SqliteStore::open_in_memory().unwrap();
    let r: Result<(), StoreError> = s.immediate(|tx| {
        tx.upsert_user(&user(1, "a"), 0)?;
        Err(StoreError::Corrupt("the caller refused".into()))
    });
    assert!(r.is_err());
    assert_eq!(s.read(|tx| tx.user(1)).unwrap(), None);
}

#[test]
fn append_move_checks_the_ply() {
    let s = SqliteStore::open_in_memory().unwrap();
    s.immediate(|tx| {
        let g = new_game(tx, 5);
        assert!(tx.append_move(g, 0, &mv(0, "e2e4"), "fen1", &ClockRow::default(), None)?);
        // A second move computed against ply 0 cannot land.
        assert!(!tx.append_move(g, 0, &mv(0, "d2d4"), "fen1b", &ClockRow::default(), None)?);
        assert!(tx.append_move(g, 1, &mv(1, "e7e5"), "fen2", &ClockRow::default(), None)?);
        let game = tx.game(g)?.unwrap();
        assert_eq!(game.ply, 2);
        assert_eq!(game.fen, "fen2");
        assert_eq!(game.guild, Some(u64::MAX));
        assert_eq!(game.white.id, u64::MAX - 1);
        let ucis: Vec<_> = tx.moves(g)?.into_iter().map(|m| m.uci).collect();
        assert_eq!(ucis, ["e2e4", "e7e5"]);
        // Finishing also checks the ply, and a finished game takes no move.
        let end = Ending {
            status: GameStatus::Finished,
            result: "1-0",
            winner: Some(Side::White),
            termination: "resignation",
            claim_move: None,
            now: 99,
        };
        assert!(!tx.finish_game(g, 1, &end)?);
        assert!(tx.finish_game(g, 2, &end)?);
        assert!(!tx.append_move(g, 2, &mv(2, "g1f3"), "x", &ClockRow::default(), None)?);
        let game = tx.game(g)?.unwrap();
        assert_eq!(game.status, GameStatus::Finished);
        assert_eq!(game.winner, Some(Side::White));
        assert_eq!(game.finished_at, Some(99));
        assert_eq!(tx.active_game(5)?, None);
        assert_eq!(tx.last_game(5)?.unwrap().id, g);
        assert_eq!(tx.finished_games(5, 10)?.len(), 1);
        Ok::<_, StoreError>(())
    })
    .unwrap();
}

#[test]
fn one_active_game_and_one_pending_challenge_per_channel() {
    let s = SqliteStore::open_in_memory().unwrap();
    s.immediate(|tx| {
        new_game(tx, 5);
        let second = tx.insert_game(&NewGame {
            chess960: None,
            guild: None,
            channel: 5,
            white: 2,
            black: u64::MAX - 1,
            start_fen: START,
            now: 2,
            lang: "en",
            thread: None,
            tc: TimeControlRow::default(),
            clock: ClockRow::default(),
            rated: false,
        });
        assert!(
            second.is_err(),
            "the unique index refuses a second active game"
        );
        Ok::<_, StoreError>(())
    })
    .unwrap();
    let r: Result<(), StoreError> = s.immediate(|tx| {
        tx.upsert_user(&user(1, "a"), 0)?;
        let c = NewChallenge {
            chess960: None,
            guild: None,
            channel: 9,
            challenger: 1,
            opponent: None,
            colour: ColourPick::Random,
            now: 0,
            expires_at: 10,
            tc: TimeControlRow::default(),
            rated: false,
        };
        let id = tx.insert_challenge(&c)?;
        let p = tx.pending_challenge(9)?.unwrap();
        assert_eq!(p.id, id);
        assert_eq!(p.opponent, None);
        assert_eq!(tx.challenge(id)?.unwrap(), p);
        assert!(tx.insert_challenge(&c).is_err());
        assert!(tx.resolve_challenge(id, ChallengeStatus::Expired, None, None, 11)?);
        assert!(!tx.resolve_challenge(id, ChallengeStatus::Accepted, None, None, 12)?);
        assert_eq!(tx.pending_challenge(9)?, None);
        tx.insert_challenge(&c)?;
        Ok(())
    });
    r.unwrap();
}

#[test]
fn draw_offers_open_and_close() {
    let s = SqliteStore::open_in_memory().unwrap();
    s.immediate(|tx| {
        let g = new_game(tx, 5);
        assert_eq!(tx.open_draw_offer(g)?, None);
        tx.insert_draw_offer(g, Side::White, 0, 3)?;
        assert!(tx.insert_draw_offer(g, Side::Black, 0, 3).is_err());
        let o = tx.open_draw_offer(g)?.unwrap();
        assert_eq!((o.by, o.ply, o.status), (Side::White, 0, OfferStatus::Open));
        assert!(!tx.resolve_draw_offer(g, Some(Side::Black), OfferStatus::Lapsed, 4)?);
        assert!(tx.resolve_draw_offer(g, Some(Side::White), OfferStatus::Declined, 4)?);
        assert_eq!(tx.open_draw_offer(g)?, None);
        Ok::<_, StoreError>(())
    })
    .unwrap();
}

#[test]
fn interactions_are_handled_once() {
    let s = SqliteStore::open_in_memory().unwrap();
    s.immediate(|tx| {
        assert!(tx.mark_interaction(u64::MAX, 1)?);
        assert!(!tx.mark_interaction(u64::MAX, 2)?);
        assert_eq!(tx.prune_interactions(5)?, 1);
        assert!(tx.mark_interaction(u64::MAX, 6)?);
        Ok::<_, StoreError>(())
    })
    .unwrap();
}

#[test]
fn foreign_keys_are_enforced() {
    let s = SqliteStore::open_in_memory().unwrap();
    let r: Result<i64, StoreError> = s.immediate(|tx| {
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
    assert!(r.is_err(), "players must exist");
}

#[test]
fn a_stored_text_this_program_does_not_write_is_a_corrupt_row() {
    let path = temp_db("corrupt");
    let s = SqliteStore::open(&path).unwrap();
    let g = s
        .immediate(|tx| Ok::<_, StoreError>(new_game(tx, 5)))
        .unwrap();
    {
        let raw = rusqlite::Connection::open(&*path).unwrap();
        raw.pragma_update(None, "ignore_check_constraints", "ON")
            .unwrap();
        raw.execute("UPDATE games SET status = 'weird' WHERE id = ?1", [g])
            .unwrap();
    }
    match s.read(|tx| tx.game(g)) {
        Err(StoreError::Corrupt(what)) => assert_eq!(what, r#"GameStatus "weird""#),
        other => panic!("{other:?}"),
    }
    drop(s);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn the_backend_is_chosen_at_run_time() {
    let s: Box<dyn Store> = Box::new(SqliteStore::open_in_memory().unwrap());
    assert_eq!(s.schema_version().unwrap(), latest_schema_version());
    let ids = s
        .immediate(|tx| {
            tx.upsert_user(&user(1, "a"), 0)?;
            let c = |channel| NewChallenge {
                chess960: None,
                guild: None,
                channel,
                challenger: 1,
                opponent: None,
                colour: ColourPick::White,
                now: 0,
                expires_at: 10,
                tc: TimeControlRow::default(),
                rated: false,
            };
            Ok::<_, StoreError>((tx.insert_challenge(&c(1))?, tx.insert_challenge(&c(2))?))
        })
        .unwrap();
    assert!(
        ids.0 >= 1 && ids.1 > ids.0,
        "RETURNING id gives the new ids: {ids:?}"
    );
    let c = s.read(|tx| tx.challenge(ids.1)).unwrap().unwrap();
    assert_eq!((c.channel, c.colour), (2, ColourPick::White));
    // A read never commits, even what it managed to write.
    s.read(|tx| tx.upsert_user(&user(2, "b"), 0)).unwrap();
    assert_eq!(s.read(|tx| tx.user(2)).unwrap(), None);
}

#[test]
fn a_user_is_rewritten_only_when_seen_differently() {
    let path = temp_db("upsert");
    let s = SqliteStore::open(&path).unwrap();
    let updated_at = || -> i64 {
        rusqlite::Connection::open(&*path)
            .unwrap()
            .query_row("SELECT updated_at FROM users WHERE id = 7", [], |r| {
                r.get(0)
            })
            .unwrap()
    };
    s.immediate(|tx| tx.upsert_user(&user(7, "a"), 1)).unwrap();
    s.immediate(|tx| tx.upsert_user(&user(7, "a"), 2)).unwrap();
    assert_eq!(updated_at(), 1, "the same name and flag: no write");
    s.immediate(|tx| {
        tx.upsert_user(
            &UserRow {
                is_bot: true,
                ..user(7, "a")
            },
            3,
        )
    })
    .unwrap();
    assert_eq!(updated_at(), 3);
    drop(s);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
