//! Several bot processes: with SQLite a second `cajitas run` on the same file refuses to start
//! (exit 2, before it connects); with PostgreSQL two processes share the database, register
//! the slash commands once between them, hold one shard each (`CAJITAS_SHARDS`, IDENTIFYs
//! taking turns), and a game goes on when either dies. The real bot against the fake Discord,
//! which routes each guild's events to shard `(guild_id >> 22) % total`.

// Each test holds the binary's timing lock for its whole run, across awaits on purpose: the
// tests of this binary run one at a time (each on its own runtime, so no deadlock).
#![allow(clippy::await_holding_lock)]

mod support;

use std::time::Duration;

use support::bot::{Bot, BotOptions, TempDir};
use support::fake_discord::{APP_ID, Channel, FakeDiscord, FakeUser, GatewayEvent};
use support::postgres::{server_or_skip, timing_lock};
use support::world::{HEARTBEAT_MS, WHITE, World, alice, assert_public_board, bob, field};

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

/// Sends `/name options…` as `user` in `ch` and returns the callback.
async fn cmd(
    fake: &FakeDiscord,
    ch: &Channel,
    user: &FakeUser,
    name: &str,
    options: &[(&str, serde_json::Value)],
    mentions: &[&FakeUser],
) -> support::fake_discord::Recorded {
    let payload = ch.command(fake, user, "en-US", name, options, mentions);
    fake.interact(&payload).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_hold_one_shard_each_and_a_game_survives_either_dying() {
    let Some(pg) =
        server_or_skip("two_processes_hold_one_shard_each_and_a_game_survives_either_dying")
    else {
        return;
    };
    let _quiet = timing_lock();
    let db = pg.database("two-shards");
    let fake = FakeDiscord::start(HEARTBEAT_MS).await;
    let dir = TempDir::new("two-shards");
    let mut starts = 0;
    let mut start = |shards: &str| {
        starts += 1;
        Bot::start(BotOptions {
            api_base: &fake.base,
            db: &dir.path().join("unused.db"),
            log: dir.path().join(format!("bot-{starts}.log")),
            env: vec![
                ("CAJITAS_DB", db.url.clone()),
                ("CAJITAS_SHARDS", shards.to_owned()),
            ],
        })
    };
    let a = start("0-0/2");
    let _b = start("1-1/2");
    fake.wait_ready(2).await;

    // Each process identified its own shard; the fake's max_concurrency is 1, so both shards
    // are in bucket 0 and the second IDENTIFY came at least 5 s after the first's READY.
    let ids = fake.identified_shards();
    let mut shards: Vec<[u64; 2]> = ids.iter().map(|(s, _)| *s).collect();
    shards.sort();
    assert_eq!(shards, vec![[0, 2], [1, 2]]);
    let gap = ids[1].1.duration_since(ids[0].1);
    assert!(
        gap >= Duration::from_millis(4_900),
        "IDENTIFYs {gap:?} apart"
    );

    // A guild on each shard ((guild_id >> 22) % 2), a game in each, played at once.
    let ch0 = Channel {
        guild: Some(100 << 22),
        ..in_channel(1_300_000_000_000_000_001)
    };
    let ch1 = Channel {
        guild: Some(101 << 22),
        ..in_channel(1_300_000_000_000_000_002)
    };
    for ch in [&ch0, &ch1] {
        let c = cmd(
            &fake,
            ch,
            &alice(),
            "challenge",
            &[
                ("opponent", serde_json::json!(bob().id.to_string())),
                ("colour", serde_json::json!(WHITE)),
            ],
            &[&bob()],
        )
        .await;
        assert_eq!(c.callback_type(), Some(4), "{:?}", c.json);
        assert_public_board(&cmd(&fake, ch, &bob(), "accept", &[], &[]).await);
    }
    let play = |ch: &Channel, user: FakeUser, text: &'static str| {
        let payload = ch.command(
            &fake,
            &user,
            "en-US",
            "move",
            &[("move", serde_json::json!(text))],
            &[],
        );
        let fake = &fake;
        async move { fake.interact(&payload).await }
    };
    let (r0, r1) = tokio::join!(play(&ch0, alice(), "e4"), play(&ch1, alice(), "d4"));
    assert_eq!(field(&r0, "Last move").as_deref(), Some("e4"));
    assert_eq!(field(&r1, "Last move").as_deref(), Some("d4"));
    // (The fake sent each guild's events only to its shard's connection: each process
    // answered its own guild.)

    // SIGKILL the process of shard 0 right after an acknowledged move, then start it again.
    let r0 = play(&ch0, bob(), "e5").await;
    assert_eq!(field(&r0, "Last move").as_deref(), Some("e5"));
    a.signal("KILL");
    drop(a);
    // Meanwhile shard 1 goes on.
    let r1 = play(&ch1, bob(), "d5").await;
    assert_eq!(field(&r1, "Last move").as_deref(), Some("d5"));
    let _a = start("0-0/2");
    fake.wait_ready(3).await;
    let r0 = play(&ch0, alice(), "Nf3").await;
    assert_eq!(
        field(&r0, "Last move").as_deref(),
        Some("Nf3"),
        "{}",
        r0.text()
    );
    let r1 = play(&ch1, alice(), "c4").await;
    assert_eq!(field(&r1, "Last move").as_deref(), Some("c4"));

    // Nothing acknowledged was lost and nothing was applied twice.
    let mut client = db.client();
    let moves: Vec<(i64, String)> = support::postgres::off_runtime(move || {
        client
            .query(
                "SELECT g.channel_id, string_agg(m.uci, ' ' ORDER BY m.ply)
                 FROM moves m JOIN games g ON g.id = m.game_id GROUP BY g.channel_id ORDER BY 1",
                &[],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect()
    });
    assert_eq!(
        moves,
        vec![
            (ch0.id as i64, "e2e4 e7e5 g1f3".to_owned()),
            (ch1.id as i64, "d2d4 d7d5 c2c4".to_owned()),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_process_runs_two_shards_identifying_in_turn() {
    let Some(pg) = server_or_skip("one_process_runs_two_shards_identifying_in_turn") else {
        return;
    };
    let _quiet = timing_lock();
    let db = pg.database("one-process-two-shards");
    let fake = FakeDiscord::start(HEARTBEAT_MS).await;
    let dir = TempDir::new("two-shards-one-process");
    let _bot = Bot::start(BotOptions {
        api_base: &fake.base,
        db: &dir.path().join("unused.db"),
        log: dir.path().join("bot.log"),
        env: vec![
            ("CAJITAS_DB", db.url.clone()),
            ("CAJITAS_SHARDS", "0-1/2".to_owned()),
        ],
    });
    fake.wait_ready(2).await;
    let ids = fake.identified_shards();
    assert_eq!(
        ids.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        vec![[0, 2], [1, 2]]
    );
    assert!(ids[1].1.duration_since(ids[0].1) >= Duration::from_millis(4_900));
    for (n, guild) in [(1u64, 100u64 << 22), (2, 101 << 22)] {
        let ch = Channel {
            guild: Some(guild),
            ..in_channel(1_300_000_000_000_000_000 + n)
        };
        let c = cmd(
            &fake,
            &ch,
            &alice(),
            "challenge",
            &[
                ("opponent", serde_json::json!(bob().id.to_string())),
                ("colour", serde_json::json!(WHITE)),
            ],
            &[&bob()],
        )
        .await;
        assert_eq!(c.callback_type(), Some(4), "{:?}", c.json);
        assert_public_board(&cmd(&fake, &ch, &bob(), "accept", &[], &[]).await);
    }
}

/// A guild channel where the bot may not open threads: these tests are about processes, so
/// their games stay in the channel, as before threads.
fn in_channel(id: u64) -> Channel {
    let no_threads: u64 =
        support::fake_discord::PERMISSIONS.parse::<u64>().unwrap() & !((1 << 35) | (1 << 38));
    Channel::new(id).with_permissions(no_threads)
}
