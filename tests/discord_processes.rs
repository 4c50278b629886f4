//! Several bot processes: with SQLite a second `cajitas run` on the same file refuses to start
//! (exit 2, before it connects); with PostgreSQL two processes share the database and
//! register the slash commands once between them. The real bot against the fake Discord.

// Each test holds the binary's timing lock for its whole run, across awaits on purpose: the
// tests of this binary run one at a time (each on its own runtime, so no deadlock).
#![allow(clippy::await_holding_lock)]

mod support;

use std::time::Duration;

use support::bot::{Bot, BotOptions, TempDir};
use support::fake_discord::{APP_ID, FakeDiscord, GatewayEvent};
use support::postgres::{server_or_skip, timing_lock};
use support::world::{HEARTBEAT_MS, World, alice};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_bot_on_the_same_sqlite_file_exits_2_before_connecting() {
    let _quiet = timing_lock();
    let w = World::start("one-process", vec![]).await;
    let identifies = w.fake.count(&GatewayEvent::Identify);
    let mut second = Bot::start(BotOptions {
        api_base: &w.fake.base,
        db: &w.db(),
        log: w.dir.path().join("second.log"),
        env: vec![],
    });
    let code = tokio::task::spawn_blocking(move || {
        let code = second.wait_exit(Duration::from_secs(20));
        (code, second.log_text())
    })
    .await
    .unwrap();
    assert_eq!(code.0, Some(2), "{}", code.1);
    assert!(
        code.1
            .contains("another `cajitas run` is already using the database"),
        "{}",
        code.1
    );
    assert!(code.1.contains("CAJITAS_SHARDS"), "{}", code.1);
    assert_eq!(
        w.fake.count(&GatewayEvent::Identify),
        identifies,
        "the second process never connected"
    );
    // The first one still plays.
    let board = w.cmd(&alice(), "en-US", "help", &[]).await;
    assert!(board.status < 300, "{board:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_on_postgres_register_the_commands_once() {
    let Some(pg) = server_or_skip("two_bots_on_postgres_register_the_commands_once") else {
        return;
    };
    let _quiet = timing_lock();
    let db = pg.database("two-bots");
    let fake = FakeDiscord::start(HEARTBEAT_MS).await;
    let dir = TempDir::new("two-bots");
    // Both start at once: without the registration lock, both would find no registration
    // recorded and both would register.
    let bots: Vec<Bot> = (0..2)
        .map(|i| {
            Bot::start(BotOptions {
                api_base: &fake.base,
                db: &dir.path().join("unused.db"),
                log: dir.path().join(format!("bot-{i}.log")),
                env: vec![("CAJITAS_DB", db.url.clone())],
            })
        })
        .collect();
    fake.wait_ready(2).await;
    let registered = |fake: &FakeDiscord| {
        fake.requests()
            .iter()
            .filter(|r| r.method == "PUT" && r.path == format!("/applications/{APP_ID}/commands"))
            .count()
    };
    // Give the second process's setup time to finish (it waits for the first's lock).
    for _ in 0..100 {
        let done = bots.iter().all(|b| {
            let log = b.log_text();
            log.contains("registered the slash commands")
                || log.contains("slash commands unchanged")
        });
        if done {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for b in &bots {
        let log = b.log_text();
        assert!(
            log.contains("registered the slash commands")
                || log.contains("slash commands unchanged"),
            "{log}"
        );
        assert!(!log.contains("pa55"), "{log}");
    }
    assert_eq!(registered(&fake), 1);
    let mut client = db.client();
    let stored: i64 = support::postgres::off_runtime(move || {
        client
            .query_one(
                "SELECT count(*) FROM bot_settings WHERE key = 'discord.commands_hash.global'",
                &[],
            )
            .unwrap()
            .get(0)
    });
    assert_eq!(stored, 1);
}
