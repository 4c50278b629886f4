//! `cajitas migrate --from FILE.db --to postgres://…` on a database with 1,000 games and every
//! kind of record: the copy is checked (counts, every game replayed on both sides), running it
//! again changes nothing, an interrupted copy finishes when run again, a copy that does not
//! match is reported, and the bot's service goes on with the migrated games. On the real
//! PostgreSQL server of `tests/support/postgres.rs`, or skipped.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use cajitas::game::ratings::Speed;
use cajitas::game::{
    ChannelRef, ColourChoice, GameService, Lang, ServiceOptions, TimeControl, UserRef,
};
use cajitas::store::{
    ClockRow, MoveRow, NewGame, PostgresStore, RatingRow, SqliteStore, StoreError, StoreExt,
    TimeControlRow, UserRow,
};
use cajitas_rules::{Position, Uci};

use support::bot::TempDir;
use support::postgres::server_or_skip;

const GAMES: u64 = 1_000;
/// The players of a leaderboard written into the source (pool 7, live), and when.
const RANKED: u64 = 300;
const RATED_AT: i64 = 1_800_000_000_000;
const DAY_MS: i64 = 86_400_000;

fn migrate(from: &Path, to: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cajitas"))
        .args(["migrate", "--from"])
        .arg(from)
        .args(["--to", to])
        .args(extra)
        .env_remove("CAJITAS_DB")
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn user(id: u64) -> UserRef {
    UserRef::new(id, &format!("player{id}"), false)
}

fn ch(n: u64) -> ChannelRef {
    ChannelRef {
        guild: Some(7),
        channel: n,
    }
}

/// A SQLite deployment: a few games played through the service (every ending, offers,
/// takebacks, a pending challenge, pings, settings) and 1,000 games in progress written
/// through the store in one transaction, each with a few legal moves.
fn source(dir: &Path) -> std::path::PathBuf {
    let file = dir.join("cajitas.db");
    let svc = GameService::open(&file, ServiceOptions::default()).unwrap();
    let (a, b) = (user(1), user(2));
    // Checkmate, in a rated game (ratings and their history).
    svc.challenges()
        .challenge_rated(&a, ch(1), Some(&b), ColourChoice::White, true)
        .unwrap();
    svc.challenges().accept(&b, ch(1)).unwrap();
    for (who, m) in [(&b, "f3"), (&a, "e5"), (&b, "g4"), (&a, "Qh4#")]
        .into_iter()
        .enumerate()
        .map(|(i, (_, m))| (if i % 2 == 0 { &a } else { &b }, m))
    {
        svc.play()
            .play_move(who, ch(1), m, Lang::En, false)
            .unwrap();
    }
    // Resignation after a takeback (a casual game) and a declined draw offer (other players:
    // the pings of one pair are limited).
    let (a, b) = (user(11), user(12));
    svc.challenges()
        .challenge_rated(&a, ch(2), Some(&b), ColourChoice::White, false)
        .unwrap();
    svc.challenges().accept(&b, ch(2)).unwrap();
    svc.play()
        .play_move(&a, ch(2), "e4", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(&b, ch(2), "e5", Lang::En, false)
        .unwrap();
    svc.play().takeback_request(&b, ch(2), None).unwrap();
    svc.play().takeback_accept(&a, ch(2), None).unwrap();
    svc.play()
        .play_move(&b, ch(2), "c5", Lang::En, false)
        .unwrap();
    svc.play().draw_offer(&a, ch(2), None).unwrap();
    svc.play().draw_decline(&b, ch(2), None).unwrap();
    svc.play().resign(&a, ch(2), None).unwrap();
    // A draw by agreement, and an open offer in a game in progress.
    let (a, b) = (user(21), user(22));
    svc.challenges()
        .challenge(&a, ch(3), Some(&b), ColourChoice::Black)
        .unwrap();
    svc.challenges().accept(&b, ch(3)).unwrap();
    svc.play()
        .play_move(&b, ch(3), "d4", Lang::En, false)
        .unwrap();
    svc.play().draw_offer(&a, ch(3), None).unwrap();
    svc.play().draw_accept(&b, ch(3), None).unwrap();
    // A correspondence game in progress (its clock and pending event).
    let (a, b) = (user(31), user(32));
    svc.challenges()
        .challenge_timed(
            &a,
            ch(4),
            Some(&b),
            ColourChoice::White,
            TimeControl::Correspondence { days: 3 },
        )
        .unwrap();
    svc.challenges().accept(&b, ch(4)).unwrap();
    svc.play()
        .play_move(&a, ch(4), "Nf3", Lang::En, false)
        .unwrap();
    svc.play().draw_offer(&a, ch(4), None).unwrap();
    // A pending challenge.
    svc.challenges()
        .challenge(&user(3), ch(5), None, ColourChoice::Random)
        .unwrap();
    drop(svc);

    let store = SqliteStore::open(&file).unwrap();
    store
        .immediate(|tx| {
            tx.set_setting("commands_hash", "abc", 1)?;
            tx.mark_interaction(99, 1)?;
            // An engine as a player (its kind and level).
            tx.upsert_engine(u64::MAX - 3, "Stockfish level 3", 3, 1)?;
            let ucis = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"];
            for g in 0..GAMES {
                let (w, bl) = (1_000 + 2 * g, 1_001 + 2 * g);
                for id in [w, bl] {
                    let u = UserRow {
                        id,
                        name: format!("p{id}"),
                        is_bot: id % 7 == 0,
                    };
                    tx.upsert_user(&u, 5)?;
                }
                let id = tx.insert_game(&NewGame {
                    chess960: None,
                    guild: Some(7),
                    channel: 10_000 + g,
                    white: w,
                    black: bl,
                    start_fen: &Position::new().fen(),
                    now: 10,
                    lang: if g % 2 == 0 { "en" } else { "es" },
                    // Every other game in a thread of its own.
                    thread: (g % 2 == 1).then_some(20_000 + g),
                    tc: TimeControlRow::default(),
                    clock: ClockRow::default(),
                    rated: false,
                })?;
                let mut pos = Position::new();
                for (ply, uci) in ucis.iter().take((g % 5) as usize + 1).enumerate() {
                    let mv = uci.parse::<Uci>().unwrap().to_move(&pos).unwrap();
                    let san = cajitas_rules::san(&pos, mv).to_string();
                    pos.play(mv);
                    let m = MoveRow {
                        ply: ply as u32,
                        uci: (*uci).to_owned(),
                        san,
                        user_id: if ply % 2 == 0 { w } else { bl },
                        played_at: 20 + ply as i64,
                    };
                    assert!(tx.append_move(
                        id,
                        ply as u32,
                        &m,
                        &pos.fen(),
                        &ClockRow::default(),
                        None
                    )?);
                }
            }
            // A leaderboard: players of every kind around its thresholds (games, RD, and when
            // inactivity takes them off it), whose cells the target's triggers rebuild.
            let mut rng = fastrand::Rng::with_seed(18);
            for i in 0..RANKED {
                tx.put_rating(&RatingRow {
                    pool: 7,
                    speed: Speed::Live,
                    user_id: 1_000 + i,
                    rating: 1_200.0 + rng.f64() * 800.0,
                    deviation: 45.0 + rng.f64() * 75.0,
                    volatility: 0.06,
                    games: rng.u32(3..30),
                    rated_at: RATED_AT - rng.i64(0..300 * DAY_MS),
                })?;
            }
            Ok::<_, StoreError>(())
        })
        .unwrap();
    file
}

/// The copy's leaderboard counts as its source's: the same cells, the same ranked count and
/// the same ranks, at moments from before the players' last games to after most dropped off.
fn same_leaderboard(file: &Path, url: &str) {
    let sqlite = SqliteStore::open(file).unwrap();
    let pg = PostgresStore::open(url).unwrap();
    let cells = "SELECT pool, speed, epoch, band, n FROM leaderboard_cells ORDER BY 1, 2, 3, 4";
    let source: Vec<(i64, String, i64, i64, i64)> = rusqlite::Connection::open(file)
        .unwrap()
        .prepare(cells)
        .unwrap()
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let target: Vec<(i64, String, i64, i64, i64)> = postgres::Client::connect(url, postgres::NoTls)
        .unwrap()
        .query(cells, &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
        .collect();
    assert_eq!(source, target);
    assert!(!source.is_empty());
    let mut ranked_somewhere = false;
    for days in [-400, -30, 0, 10, 60, 200, 400] {
        let now = RATED_AT + days * DAY_MS;
        for user in [1_000, 1_001, 1_050, 1_150, 1_299] {
            let a = sqlite
                .read(|tx| {
                    let r = tx.rating(7, Speed::Live, user)?.unwrap();
                    tx.ranked_count_and_above(7, Speed::Live, now, Some(&r))
                })
                .unwrap();
            let b = pg
                .read(|tx| {
                    let r = tx.rating(7, Speed::Live, user)?.unwrap();
                    tx.ranked_count_and_above(7, Speed::Live, now, Some(&r))
                })
                .unwrap();
            assert_eq!(a, b, "at {now}, player {user}");
            ranked_somewhere |= a.0 > 0;
        }
    }
    assert!(ranked_somewhere);
}

#[test]
fn migrate_copies_every_row_checks_it_and_is_idempotent() {
    let Some(pg) = server_or_skip("migrate_copies_every_row_checks_it_and_is_idempotent") else {
        return;
    };
    let dir = TempDir::new("migrate");
    let file = source(&dir.0);
    let db = pg.database("migrate");

    let first = migrate(&file, &db.url, &[]);
    let out = text(&first);
    assert!(first.status.success(), "{out}");
    assert!(out.contains("done: every row copied and checked"), "{out}");
    assert!(
        out.contains(&format!(
            "games replayed on both sides to the same PGN: {}",
            GAMES + 4
        )),
        "{out}"
    );
    assert!(!out.contains("DIFFERENT"), "{out}");
    same_leaderboard(&file, &db.url);

    // The tables of threads, clocks, ratings and engines came along.
    {
        let mut c = db.client();
        for (sql, want) in [
            // The rated checkmate: both players' ratings and changes.
            ("SELECT count(*) FROM ratings WHERE user_id IN (1, 2)", 2),
            (
                "SELECT count(*) FROM rating_history WHERE user_id IN (1, 2)",
                2,
            ),
            (
                "SELECT count(*) FROM users WHERE kind = 'engine' AND engine_level = 3",
                1,
            ),
            (
                "SELECT count(*) FROM games WHERE thread_id IS NOT NULL",
                GAMES as i64 / 2,
            ),
            (
                "SELECT count(*) FROM games WHERE tc_kind = 'correspondence' AND white_id = 31",
                1,
            ),
        ] {
            let n: i64 = c.query_one(sql, &[]).unwrap().get(0);
            assert_eq!(n, want, "{sql}");
        }
        let n: i64 = c
            .query_one(
                "SELECT count(*) FROM games WHERE event_kind IS NOT NULL AND event_due IS NOT NULL",
                &[],
            )
            .unwrap()
            .get(0);
        assert!(
            n >= 1,
            "the correspondence game's pending event, in its row"
        );
    }

    // Run again: nothing is copied twice, the check passes again.
    let again = migrate(&file, &db.url, &[]);
    let out = text(&again);
    assert!(again.status.success(), "{out}");
    assert!(out.contains("rows inserted: 0,"), "{out}");

    // The bot goes on on PostgreSQL: a migrated game takes a move, and a new game gets an id
    // after the copied ones (the identity sequence was moved past them).
    let svc = GameService::open_db(
        &cajitas::store::Database::Postgres(db.url.clone()),
        ServiceOptions::default(),
    )
    .unwrap();
    let before = svc.queries().board(ch(4)).unwrap();
    assert_eq!(before.ply, 1);
    assert!(before.draw_offer_by.is_some(), "the open offer was copied");
    svc.play()
        .play_move(&user(32), ch(4), "Nf6", Lang::En, false)
        .unwrap();
    svc.challenges().accept(&user(4), ch(5)).unwrap();
    let new_id = svc.queries().board(ch(5)).unwrap().game_id;
    assert_eq!(new_id, GAMES as i64 + 5);
    assert_eq!(
        svc.queries().board(ch(1)).unwrap().result,
        "0-1",
        "the finished game is finished there too"
    );

    // A copy that no longer matches its source is reported (a row the source does not have).
    db.client()
        .execute(
            "INSERT INTO bot_settings (key, value, updated_at) VALUES ('extra', 'x', 1)",
            &[],
        )
        .unwrap();
    let bad = migrate(&file, &db.url, &[]);
    let out = text(&bad);
    assert_eq!(bad.status.code(), Some(1), "{out}");
    assert!(out.contains("DIFFERENT"), "{out}");
}

#[test]
fn an_interrupted_migrate_finishes_when_run_again() {
    let Some(pg) = server_or_skip("an_interrupted_migrate_finishes_when_run_again") else {
        return;
    };
    let dir = TempDir::new("migrate-resume");
    let file = source(&dir.0);
    let db = pg.database("migrate_resume");

    // Stopped halfway: inside the moves table (users ~2,000 rows, games 1,004, moves ~3,000).
    let stopped = migrate(&file, &db.url, &["--stop-after", "4500"]);
    let out = text(&stopped);
    assert_eq!(stopped.status.code(), Some(3), "{out}");
    let mut c = db.client();
    let count = |c: &mut postgres::Client, t: &str| -> i64 {
        c.query_one(&format!("SELECT count(*) FROM {t}"), &[])
            .unwrap()
            .get(0)
    };
    let games = count(&mut c, "games");
    let moves = count(&mut c, "moves");
    assert_eq!(
        games,
        GAMES as i64 + 4,
        "the games were copied before it stopped"
    );
    assert!(moves > 0, "it stopped inside the moves");
    assert_eq!(count(&mut c, "challenges"), 0, "and before the challenges");

    let resumed = migrate(&file, &db.url, &[]);
    let out = text(&resumed);
    assert!(resumed.status.success(), "{out}");
    assert!(out.contains("done: every row copied and checked"), "{out}");
    let total_moves = count(&mut c, "moves");
    assert!(total_moves > moves);
    let inserted: u64 = out
        .split("rows inserted: ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap();
    let skipped: u64 = out
        .split("already there: ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap();
    assert_eq!(skipped, 4500, "{out}");
    assert!(inserted > 0, "{out}");
    same_leaderboard(&file, &db.url);
}

#[test]
fn migrate_refuses_a_target_that_is_not_postgres() {
    let dir = TempDir::new("migrate-bad");
    let out = migrate(&dir.0.join("x.db"), "other.db", &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("must be a PostgreSQL URL"));
    let out = migrate(
        &dir.0.join("missing.db"),
        "postgres://u:pa55@127.0.0.1:1/x",
        &[],
    );
    // A source that does not exist is refused before anything is opened.
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("no such database file"),
        "{}",
        text(&out)
    );
    assert!(!text(&out).contains("pa55"), "{}", text(&out));
    assert!(!dir.0.join("missing.db").exists(), "no file is created");
}

/// `cajitas local` on the same PostgreSQL database as the bot (`CAJITAS_DB` a URL): its games
/// land there, and a database it cannot open is named without the URL's password.
#[test]
fn the_console_plays_on_postgresql_and_never_prints_the_password() {
    let Some(pg) = server_or_skip("the_console_plays_on_postgresql_and_never_prints_the_password")
    else {
        return;
    };
    let db = pg.database("console");
    let dir = TempDir::new("console-postgres");
    let local = |url: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cajitas"))
            .args(["local", "--no-png"])
            .current_dir(&*dir)
            .env("CAJITAS_DB", url)
            .env_remove("DISCORD_TOKEN")
            .env_remove("CAJITAS_ENGINE")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"challenge bob white\nas bob\naccept\nas alice\nmove e4\nquit\n")
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let out = local(&db.url);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("alice plays e4."), "{}", text(&out));
    // The move is in PostgreSQL, not in a SQLite file named after the URL.
    let plies: i64 = db
        .client()
        .query_one("SELECT count(*) FROM moves", &[])
        .unwrap()
        .get(0);
    assert_eq!(plies, 1);
    assert_eq!(
        std::fs::read_dir(&*dir).unwrap().count(),
        0,
        "no file written"
    );

    // A server that is not there, with a password in the URL.
    let out = local("postgres://cajitas:s3cret-pw@127.0.0.1:1/nothing");
    assert_ne!(out.status.code(), Some(0));
    let all = text(&out);
    assert!(
        !all.contains("s3cret-pw"),
        "the password was printed: {all}"
    );
    assert!(all.contains("127.0.0.1:1/nothing"), "{all}");
}

/// `cajitas ARGS` in `dir` with `env` (and no `CAJITAS_DB` of the test's own): its output and
/// how long it took.
fn cajitas_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (Output, std::time::Duration) {
    let started = std::time::Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cajitas"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("CAJITAS_DB")
        .env_remove("RUST_LOG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (out, started.elapsed())
}

/// A wrong password is reported with the server's reason (SQLSTATE 28P01, "password
/// authentication failed for user …"), never the password, within 2 s (it was "timed out
/// waiting for connection: db error" after the pool's 10 s). A libpq keyword/value string is a
/// PostgreSQL database (it was a SQLite file named after the whole string, password included),
/// for `CAJITAS_DB` and `migrate --to` alike, and its password is never printed. The server's
/// notices ("relation … already exists, skipping" at every start) are not logged at INFO.
#[test]
fn a_wrong_password_says_why_at_once_and_keyword_value_strings_are_postgresql() {
    let Some(pg) = server_or_skip(
        "a_wrong_password_says_why_at_once_and_keyword_value_strings_are_postgresql",
    ) else {
        return;
    };
    let db = pg.database("password");
    let name = db
        .url
        .split("///")
        .nth(1)
        .unwrap()
        .split('?')
        .next()
        .unwrap();
    let Some(url) = pg.password_user("cajitas_pw", "right-pa55", name) else {
        support::postgres::skipped(
            "a_wrong_password_says_why_at_once_and_keyword_value_strings_are_postgresql",
            "not a server the tests started",
        );
        return;
    };
    let socket = pg.dir().unwrap().display().to_string();
    let dir = TempDir::new("password");
    let rebuild = |db: &str, log: &str| {
        cajitas_in(
            &dir,
            &["ratings", "rebuild"],
            &[("CAJITAS_DB", db), ("RUST_LOG", log)],
        )
    };
    let keywords =
        |password: &str| format!("host={socket} user=cajitas_pw password={password} dbname={name}");
    for wrong in [format!("{url}&password=wr0ng-pa55"), keywords("wr0ng-pa55")] {
        let (out, took) = rebuild(&wrong, "");
        let all = text(&out);
        assert_eq!(out.status.code(), Some(1), "{all}");
        assert!(took < std::time::Duration::from_secs(2), "{took:?}: {all}");
        assert!(
            all.contains("password authentication failed for user \"cajitas_pw\"")
                && all.contains("28P01"),
            "{all}"
        );
        assert!(
            !all.contains("wr0ng-pa55"),
            "the password was printed: {all}"
        );
        assert!(!all.contains("r2d2") && !all.contains("timed out"), "{all}");
    }
    // The right password, as a keyword/value string: twice, the second start finding the
    // schema there (the server's notice is not logged at INFO).
    for _ in 0..2 {
        let (out, _) = rebuild(&keywords("right-pa55"), "info");
        let all = text(&out);
        assert_eq!(out.status.code(), Some(0), "{all}");
        assert!(all.contains("Ratings rebuilt"), "{all}");
        assert!(
            !all.contains("right-pa55"),
            "the password was printed: {all}"
        );
        assert!(
            !all.contains("NOTICE") && !all.contains("already exists"),
            "{all}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&*dir).unwrap().count(),
        0,
        "no file named after the string"
    );
    // `migrate --to` takes it too, and prints where it copies without the password.
    let source = dir.join("source.db");
    drop(SqliteStore::open(&source).unwrap());
    let out = migrate(&source, &keywords("right-pa55"), &[]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(all.contains("done: every row copied and checked"), "{all}");
    assert!(all.contains(&format!("dbname={name}")), "{all}");
    assert!(
        !all.contains("right-pa55"),
        "the password was printed: {all}"
    );
    let out = migrate(&source, &keywords("wr0ng-pa55"), &[]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(
        all.contains("28P01") && !all.contains("wr0ng-pa55"),
        "{all}"
    );
}
