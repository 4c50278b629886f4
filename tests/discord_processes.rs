//! Several bot processes: with SQLite a second `cajitas run` on the same file refuses to start
//! (exit 2, before it connects); with PostgreSQL two processes share the database, register
//! the slash commands once between them, hold one shard each (`CAJITAS_SHARDS`, IDENTIFYs
//! taking turns), and a game goes on when either dies; under load (games on both shards
//! played at once, timeouts and reminders falling due) a SIGKILL of one process loses no
//! acknowledged move, applies none twice, and posts no timeout or reminder twice. The real
//! bot against the fake Discord, which routes each guild's events to shard
//! `(guild_id >> 22) % total`.

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
                env: vec![
                    ("CAJITAS_DB", db.url.clone()),
                    ("CAJITAS_SHARDS", "0-0/1".to_owned()),
                    ("RUST_LOG", "serenity=debug,cajitas=debug".to_owned()),
                ],
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

/// SIGTERM stops a bot on PostgreSQL cleanly, as on SQLite: exit 0, no panic. (Its pools'
/// connections used to be closed on a runtime thread, where the blocking client panics:
/// "Cannot start a runtime from within a runtime", and the process aborted with 134.) One
/// process runs a shard of its own, so it holds the coordination locks' pool too, and has
/// played: the store's pool has connections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_a_bot_on_postgres_with_exit_0_and_no_panic() {
    let Some(pg) = server_or_skip("sigterm_stops_a_bot_on_postgres_with_exit_0_and_no_panic")
    else {
        return;
    };
    let _quiet = timing_lock();
    let db = pg.database("sigterm");
    let fake = FakeDiscord::start(HEARTBEAT_MS).await;
    let mut processes = Processes::new(&fake, "sigterm", &db.url);
    for shards in ["0-0/1", ""] {
        let mut bot = processes.start(shards);
        fake.wait_ready(processes.starts).await;
        let ch = in_channel(1_300_000_000_000_000_010 + processes.starts as u64);
        let c = cmd(
            &fake,
            &ch,
            &alice(),
            "challenge",
            &[("opponent", serde_json::json!(bob().id.to_string()))],
            &[&bob()],
        )
        .await;
        assert_eq!(c.callback_type(), Some(4), "{:?}", c.json);
        bot.signal("TERM");
        let (code, log) = tokio::task::spawn_blocking(move || {
            let code = bot.wait_exit(Duration::from_secs(30));
            (code, bot.log_text())
        })
        .await
        .unwrap();
        assert_eq!(code, Some(0), "CAJITAS_SHARDS={shards:?}: {log}");
        assert!(log.contains("stopped"), "{log}");
        assert!(!log.contains("panicked"), "{log}");
    }
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
    let mut processes = Processes::new(&fake, "two-shards", &db.url);
    let mut start = |shards: &str| processes.start(shards);
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
    let mut processes = Processes::new(&fake, "two-shards-one-process", &db.url);
    let _bot = processes.start("0-1/2");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_identify_after_a_lost_session_waits_for_the_bucket_another_process_holds() {
    use cajitas::store::postgres::locks;
    let Some(pg) = server_or_skip(
        "an_identify_after_a_lost_session_waits_for_the_bucket_another_process_holds",
    ) else {
        return;
    };
    let _quiet = timing_lock();
    let db = pg.database("reidentify-lock");
    let fake = FakeDiscord::start(HEARTBEAT_MS).await;
    let mut processes = Processes::new(&fake, "reidentify-lock", &db.url);
    let _bot = processes.start("0-0/1");
    fake.wait_ready(1).await;
    // Another process takes bucket 0 (it waits for the bot's spacing after its READY).
    let url = db.url.clone();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let (held_tx, held) = tokio::sync::oneshot::channel();
    let other = tokio::task::spawn_blocking(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.execute(
            "SELECT pg_advisory_lock($1, $2)",
            &[&locks::CLASS, &locks::IDENTIFY_BASE],
        )
        .unwrap();
        held_tx.send(()).unwrap();
        released.recv().unwrap();
        c.execute(
            "SELECT pg_advisory_unlock($1, $2)",
            &[&locks::CLASS, &locks::IDENTIFY_BASE],
        )
        .unwrap();
    });
    held.await.unwrap();
    // Discord drops the bot's session: serenity's shard runner IDENTIFYs again on a new
    // connection, by itself.
    let connected = fake.count(&GatewayEvent::Connected);
    fake.invalidate_session();
    // The new connection is up and heartbeating: its IDENTIFY went out before its first
    // heartbeat, and waits at the relay.
    fake.wait_for(
        "the new connection's heartbeats",
        Duration::from_secs(30),
        |f| {
            let events = f.gateway_events();
            let mut opened = events
                .iter()
                .enumerate()
                .filter(|(_, e)| **e == GatewayEvent::Connected)
                .map(|(i, _)| i);
            let new = opened.nth(connected)?;
            let beats = events[new..]
                .iter()
                .filter(|e| **e == GatewayEvent::Heartbeat)
                .count();
            (beats >= 3).then_some(())
        },
    )
    .await;
    assert_eq!(
        fake.count(&GatewayEvent::Identify),
        1,
        "the bot identified again while another process held the bucket"
    );
    let freed = std::time::Instant::now();
    release.send(()).unwrap();
    other.await.unwrap();
    fake.wait_ready(2).await;
    let (_, again) = fake.identified_shards()[1];
    assert!(
        again >= freed,
        "the second IDENTIFY came before the bucket was free"
    );
}

/// A guild channel where the bot may not open threads: these tests are about processes, so
/// their games stay in the channel, as before threads.
fn in_channel(id: u64) -> Channel {
    let no_threads: u64 =
        support::fake_discord::PERMISSIONS.parse::<u64>().unwrap() & !((1 << 35) | (1 << 38));
    Channel::new(id).with_permissions(no_threads)
}

/// The pause of a mover after each acknowledged move: the games last about 10 s, long enough
/// for the kill to land in the middle of them.
const MOVE_GAP: Duration = Duration::from_millis(500);

/// The line every game of the load test follows: (SAN as typed, UCI as stored).
const LINE: [(&str, &str); 16] = [
    ("e4", "e2e4"),
    ("e5", "e7e5"),
    ("Nf3", "g1f3"),
    ("Nc6", "b8c6"),
    ("Bc4", "f1c4"),
    ("Bc5", "f8c5"),
    ("c3", "c2c3"),
    ("Nf6", "g8f6"),
    ("d3", "d2d3"),
    ("d6", "d7d6"),
    ("O-O", "e1g1"),
    ("O-O", "e8g8"),
    ("Re1", "f1e1"),
    ("a6", "a7a6"),
    ("h3", "h2h3"),
    ("h6", "h7h6"),
];

/// Whether interactions may be sent to a shard: false from just before its process is killed
/// until its successor is ready (the fake would write them into a dead connection). Movers
/// hold the read lock while they hand an interaction over, so none slips past the kill.
type Gate = std::sync::Arc<tokio::sync::RwLock<bool>>;

/// How many moves the game in `channel` has in the database.
async fn plies(url: &str, channel: u64) -> i64 {
    let url = url.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.query_one(
            "SELECT count(m.ply) FROM games g LEFT JOIN moves m ON m.game_id = g.id
             WHERE g.channel_id = $1",
            &[&(channel as i64)],
        )
        .unwrap()
        .get(0)
    })
    .await
    .unwrap()
}

/// The answer to an interaction within `wait` (the callback, or the followup after a
/// defer), or `None`: the process died with it, or it was too slow.
async fn answer(
    fake: &FakeDiscord,
    payload: &serde_json::Value,
    rx: tokio::sync::oneshot::Receiver<support::fake_discord::Recorded>,
    from: usize,
    wait: Duration,
) -> Option<support::fake_discord::Recorded> {
    let deadline = tokio::time::Instant::now() + wait;
    let r = tokio::time::timeout_at(deadline, rx).await.ok()?.ok()?;
    if r.callback_type() != Some(5) {
        return Some(r);
    }
    let token = payload["token"].as_str().unwrap();
    let followup = format!("/webhooks/{APP_ID}/{token}");
    loop {
        if let Some(f) = fake.find_request(from, |q| {
            q.method == "POST" && q.path == followup && q.status < 300
        }) {
            return Some(support::fake_discord::Recorded {
                json: Some(serde_json::json!({"type": 4, "data": f.json.clone()})),
                ..f
            });
        }
        if tokio::time::Instant::now() > deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What a mover saw of its game's moves.
#[derive(Debug, Default)]
struct Played {
    /// The plies whose move was acknowledged (the board came back with it).
    acked: Vec<usize>,
    /// The plies whose answer was lost (the process died, or it was slow) but which the
    /// database holds: applied, never acknowledged.
    unacked_applied: Vec<usize>,
    /// Moves whose answer was lost and which the database did not hold: sent again.
    resent: usize,
}

/// The moves of each shard's games acknowledged so far, and sent but not answered yet.
#[derive(Debug, Default)]
struct Progress {
    acked: [std::sync::atomic::AtomicUsize; 2],
    in_flight: [std::sync::atomic::AtomicUsize; 2],
}

/// Plays [`LINE`] in `ch` (on `shard`), a move every [`MOVE_GAP`] after the last answer,
/// through `gate`: a move whose answer is lost is looked up in the database once its shard is
/// back, and sent again only if absent.
async fn play_line(
    fake: &FakeDiscord,
    (shard, ch): (usize, &Channel),
    players: [&FakeUser; 2],
    gate: &Gate,
    url: &str,
    progress: &Progress,
) -> Played {
    use std::sync::atomic::Ordering::SeqCst;
    let mut played = Played::default();
    for (ply, (san, _)) in LINE.iter().enumerate() {
        let mut tries = 0;
        loop {
            tries += 1;
            assert!(tries < 30, "ply {ply} of {} never landed", ch.id);
            let payload = ch.command(
                fake,
                players[ply % 2],
                "en-US",
                "move",
                &[("move", serde_json::json!(san))],
                &[],
            );
            let sent = {
                let open = gate.read().await;
                (*open).then(|| (fake.request_count(), fake.send_interaction(&payload)))
            };
            let Some((from, rx)) = sent else {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            };
            progress.in_flight[shard].fetch_add(1, SeqCst);
            let got = answer(fake, &payload, rx, from, Duration::from_secs(10)).await;
            progress.in_flight[shard].fetch_sub(1, SeqCst);
            match got {
                Some(r) if field(&r, "Last move").as_deref() == Some(*san) => {
                    played.acked.push(ply);
                    progress.acked[shard].fetch_add(1, SeqCst);
                    tokio::time::sleep(MOVE_GAP).await;
                    break;
                }
                _ => {
                    // Lost (or refused because it already landed): ask the database once the
                    // shard is back.
                    while !*gate.read().await {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    if plies(url, ch.id).await > ply as i64 {
                        played.unacked_applied.push(ply);
                        break;
                    }
                    played.resent += 1;
                }
            }
        }
    }
    played
}

/// A game for the scheduler: its channel and time control.
struct Timed {
    channel: u64,
    control: &'static str,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_load_loses_nothing_acknowledged_and_posts_each_timeout_once() {
    use cajitas::game::{
        ChannelRef, Clock, ColourChoice, GameService, Lang, ManualClock, ServiceOptions,
        SystemClock, TimeControl, UserRef,
    };
    let Some(pg) =
        server_or_skip("sigkill_mid_load_loses_nothing_acknowledged_and_posts_each_timeout_once")
    else {
        return;
    };
    let _quiet = timing_lock();
    let db = pg.database("sigkill-load");
    let fake = FakeDiscord::start(HEARTBEAT_MS).await;
    let mut processes = Processes::new(&fake, "sigkill-load", &db.url);
    let mut start = |shards: &str| processes.start(shards);
    let a = start("0-0/2");
    let _b = start("1-1/2");
    fake.wait_ready(2).await;
    let guilds = [100u64 << 22, 101 << 22];

    // Three games per shard, played by the bots.
    const PER_SHARD: u64 = 3;
    let mut games = Vec::new();
    for s in 0..2u64 {
        for n in 0..PER_SHARD {
            let k = s * PER_SHARD + n;
            let ch = Channel {
                guild: Some(guilds[s as usize]),
                ..in_channel(1_310_000_000_000_000_000 + k)
            };
            let w = FakeUser::new(910_000_000_000_000_000 + 2 * k, "white");
            let b = FakeUser::new(910_000_000_000_000_001 + 2 * k, "black");
            let c = cmd(
                &fake,
                &ch,
                &w,
                "challenge",
                &[
                    ("opponent", serde_json::json!(b.id.to_string())),
                    ("colour", serde_json::json!(WHITE)),
                ],
                &[&b],
            )
            .await;
            assert_eq!(c.callback_type(), Some(4), "{:?}", c.json);
            assert_public_board(&cmd(&fake, &ch, &b, "accept", &[], &[]).await);
            games.push((s as usize, ch, w, b));
        }
    }

    // Games whose timeouts and reminders fall due around the kill: live games timing out,
    // correspondence games due a reminder, untimed games due their idle reminder. A third
    // process makes them with a manual clock set back, so that their deadlines are near in
    // real time; its deadlines' NOTIFY wakes the bots' schedulers.
    let mut timed = Vec::new();
    for (i, control) in ["3+2", "1d", "untimed"].iter().cycle().take(21).enumerate() {
        timed.push(Timed {
            channel: 1_320_000_000_000_000_000 + i as u64,
            control,
        });
    }
    let url = db.url.clone();
    let first_due = SystemClock.now_ms() + 4_000;
    let timed_ids: Vec<(u64, &'static str)> =
        timed.iter().map(|t| (t.channel, t.control)).collect();
    tokio::task::spawn_blocking(move || {
        let clock = std::sync::Arc::new(ManualClock::new(0));
        let svc = GameService::open_db(
            &cajitas::store::Database::Postgres(url.clone()),
            ServiceOptions::with_clock(clock.clone()),
        )
        .unwrap();
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        // Both sides moved at `at`: returns when the game's pending event falls due.
        let mut make = |i: usize, channel: u64, control: &str, early: i64, at: i64| -> i64 {
            let tc: TimeControl = if control == "untimed" {
                TimeControl::Untimed
            } else {
                control.parse().unwrap()
            };
            let ch = ChannelRef {
                guild: Some([100u64 << 22, 101 << 22][i % 2]),
                channel,
            };
            let w = UserRef::new(920_000_000_000_000_000 + 2 * i as u64, "w", false);
            let b = UserRef::new(920_000_000_000_000_001 + 2 * i as u64, "b", false);
            // Until black's move, at the real time (no first-move grace runs out); black's
            // move at `at` (a first move uses no clock, so it may be "before" white's).
            clock.set(early);
            svc.challenges()
                .challenge_timed(&w, ch, Some(&b), ColourChoice::White, tc)
                .unwrap();
            svc.challenges().accept(&b, ch).unwrap();
            svc.play().play_move(&w, ch, "e4", Lang::En, false).unwrap();
            clock.set(at);
            svc.play().play_move(&b, ch, "e5", Lang::En, false).unwrap();
            c.query_one(
                "SELECT event_due FROM games WHERE channel_id = $1 AND status = 'active'",
                &[&(channel as i64)],
            )
            .unwrap()
            .get(0)
        };
        // A first game of each control, its last move a year from now, measures how long
        // after the last move its event falls due (none of them is due during the test).
        let later = SystemClock.now_ms() + 365 * cajitas::game::DAY_MS;
        let delays: Vec<(&str, i64)> = ["3+2", "1d", "untimed"]
            .iter()
            .enumerate()
            .map(|(k, control)| {
                let channel = 1_330_000_000_000_000_000 + k as u64;
                (
                    *control,
                    make(100 + k, channel, control, later, later) - later,
                )
            })
            .collect();
        for (i, &(channel, control)) in timed_ids.iter().enumerate() {
            let delay = delays.iter().find(|(c, _)| *c == control).unwrap().1;
            let due = first_due + 300 * i as i64;
            let early = SystemClock.now_ms() - 1_000;
            assert_eq!(make(i, channel, control, early, due - delay), due);
        }
    })
    .await
    .unwrap();
    let last_due = first_due + 300 * (timed.len() as i64 - 1);

    // Load: every game of both shards played at once, while the events fall due; the
    // process of shard 0 is killed in the middle of it all, and started again.
    let gates: [Gate; 2] = [Default::default(), Default::default()];
    for g in &gates {
        *g.write().await = true;
    }
    let progress = Progress::default();
    let movers = games.iter().map(|(s, ch, w, b)| {
        let (fake, gate, url, progress) = (&fake, &gates[*s], db.url.as_str(), &progress);
        async move {
            let played = play_line(fake, (*s, ch), [w, b], gate, url, progress).await;
            (ch.id, played)
        }
    });
    let killer = async {
        use std::sync::atomic::Ordering::SeqCst;
        // The first events due, the others not yet; shard 0's games a third played.
        let kill_at = first_due + 1_000;
        let third = PER_SHARD as usize * LINE.len() / 3;
        while SystemClock.now_ms() < kill_at || progress.acked[0].load(SeqCst) < third {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // ... and a move of shard 0 sent, not answered yet.
        let at_kill = loop {
            let mut open = gates[0].write().await;
            if progress.in_flight[0].load(SeqCst) > 0 {
                *open = false;
                a.signal("KILL");
                break (
                    SystemClock.now_ms(),
                    progress.acked[0].load(SeqCst),
                    progress.in_flight[0].load(SeqCst),
                );
            }
            drop(open);
            tokio::time::sleep(Duration::from_millis(2)).await;
        };
        drop(a);
        tokio::time::sleep(Duration::from_millis(500)).await;
        let a = start("0-0/2");
        fake.wait_ready(3).await;
        *gates[0].write().await = true;
        (a, at_kill)
    };
    let (played, (_a, (killed_at, acked_at_kill, in_flight_at_kill))) =
        tokio::join!(poise::futures_util::future::join_all(movers), killer);
    eprintln!(
        "killed {} ms after the first event fell due ({} ms before the last), with {acked_at_kill} \
         of shard 0's {} moves acknowledged and {in_flight_at_kill} in flight",
        killed_at - first_due,
        last_due - killed_at,
        PER_SHARD as usize * LINE.len(),
    );
    // Mid-load: events due on both sides of the kill, shard 0's games neither unplayed nor
    // over.
    assert!(first_due < killed_at && killed_at < last_due);
    assert!(acked_at_kill > 0 && acked_at_kill < PER_SHARD as usize * LINE.len());

    // Every event falls due and is posted (a post the killed process had claimed waits for
    // its claim to lapse, 60 s).
    let url = db.url.clone();
    let pending = move || {
        let url = url.clone();
        support::postgres::off_runtime(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            let n: i64 = c
                .query_one(
                    "SELECT count(*) FROM clock_events e JOIN games g ON g.id = e.game_id
                     WHERE g.channel_id BETWEEN 1320000000000000000 AND 1329999999999999999
                       AND e.due_at <= $1 AND (e.done_at IS NULL OR e.posted_at IS NULL)",
                    &[&last_due],
                )
                .unwrap()
                .get(0);
            n
        })
    };
    let waiting = std::time::Instant::now();
    let deadline = waiting + Duration::from_secs(90);
    while pending() > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "events still unposted after 90 s"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }

    eprintln!(
        "every due event posted {:?} after the games ended",
        waiting.elapsed()
    );
    let mut client = db.client();
    let (moves, events, endings) = support::postgres::off_runtime(move || {
        let moves: Vec<(i64, i32, String)> = client
            .query(
                "SELECT g.channel_id, m.ply, m.uci FROM moves m JOIN games g ON g.id = m.game_id
                 ORDER BY 1, 2",
                &[],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect();
        let events: Vec<(i64, i64, String, bool)> = client
            .query(
                "SELECT e.id, g.channel_id, e.kind, e.done_at IS NOT NULL
                 FROM clock_events e JOIN games g ON g.id = e.game_id
                 WHERE e.due_at <= $1 ORDER BY e.id",
                &[&last_due],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
            .collect();
        let endings: Vec<(i64, String, Option<String>)> = client
            .query(
                "SELECT channel_id, status, termination FROM games ORDER BY channel_id",
                &[],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect();
        (moves, events, endings)
    });

    // Nothing acknowledged was lost, nothing applied twice: each played game holds the line,
    // each ply once, every acknowledged ply among them.
    for (channel, p) in &played {
        let mine: Vec<&(i64, i32, String)> =
            moves.iter().filter(|m| m.0 == *channel as i64).collect();
        // (A ply is the primary key with its game: one row each.)
        let line: Vec<&str> = LINE.iter().map(|(_, uci)| *uci).collect();
        let stored: Vec<&str> = mine.iter().map(|m| m.2.as_str()).collect();
        assert_eq!(stored, line, "the moves of {channel} ({p:?})");
        let mut seen: Vec<usize> = p.acked.iter().chain(&p.unacked_applied).copied().collect();
        seen.sort();
        assert_eq!(
            seen,
            (0..LINE.len()).collect::<Vec<_>>(),
            "{channel}: {p:?}"
        );
    }
    let unacked: usize = played.iter().map(|(_, p)| p.unacked_applied.len()).sum();
    eprintln!(
        "moves acknowledged: {}, applied without an answer: {unacked}, lost and sent again: {}",
        played.iter().map(|(_, p)| p.acked.len()).sum::<usize>(),
        played.iter().map(|(_, p)| p.resent).sum::<usize>()
    );

    // Every due event was done once; every due timeout ended its game once, on time.
    let timed_channels: Vec<u64> = timed.iter().map(|t| t.channel).collect();
    for &channel in &timed_channels {
        let evs: Vec<_> = events.iter().filter(|e| e.1 == channel as i64).collect();
        assert_eq!(evs.len(), 1, "{channel}: {evs:?}");
        assert!(evs[0].3, "{channel}: {evs:?} not done");
        let ending = endings.iter().find(|e| e.0 == channel as i64).unwrap();
        if evs[0].2 == "timeout" {
            assert_eq!(ending.1, "finished", "{ending:?}");
            assert_eq!(ending.2.as_deref(), Some("timeout"), "{ending:?}");
        } else {
            assert_eq!(ending.1, "active", "{ending:?}");
        }
    }
    assert_eq!(
        events.iter().filter(|e| e.2 == "timeout").count(),
        timed.iter().filter(|t| t.control == "3+2").count()
    );

    // Each post went out once: created once (by nonce and by content), and attempted once,
    // or twice with the same nonce when the killed process had sent it without marking it.
    let mut repeats = 0;
    for (id, channel, kind, _) in events
        .iter()
        .filter(|e| timed_channels.contains(&(e.1 as u64)))
    {
        let channel = *channel as u64;
        let nonce = cajitas::game::nonce(*id);
        let attempts: Vec<serde_json::Value> = fake
            .requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path == format!("/channels/{channel}/messages"))
            .map(|r| r.message())
            .collect();
        let created = fake.created_messages(channel);
        assert_eq!(created.len(), 1, "{kind} in {channel}: {created:?}");
        assert_eq!(created[0]["nonce"], serde_json::json!(nonce));
        assert!(
            attempts
                .iter()
                .all(|m| m["nonce"] == serde_json::json!(nonce)),
            "{attempts:?}"
        );
        let contents: Vec<&str> = attempts
            .iter()
            .map(|m| m["content"].as_str().unwrap_or(""))
            .collect();
        assert!(contents.iter().all(|c| *c == contents[0]), "{contents:?}");
        match attempts.len() {
            1 => {}
            2 => repeats += 1,
            n => panic!("{kind} in {channel} posted {n} times: {attempts:?}"),
        }
    }
    eprintln!(
        "events posted: {}, repeated (same nonce, dropped by Discord): {repeats}",
        timed_channels.len()
    );
    assert!(repeats <= 1, "{repeats} posts repeated");
}

/// Bot processes on one PostgreSQL database, started one after another (a restart is a new
/// process), each holding the shards it is given and logging to a file of its own.
struct Processes<'a> {
    fake: &'a FakeDiscord,
    dir: TempDir,
    url: String,
    starts: usize,
}

impl<'a> Processes<'a> {
    fn new(fake: &'a FakeDiscord, tag: &str, url: &str) -> Self {
        Processes {
            fake,
            dir: TempDir::new(tag),
            url: url.to_owned(),
            starts: 0,
        }
    }

    /// Starts a process holding `shards` (`CAJITAS_SHARDS`).
    fn start(&mut self, shards: &str) -> Bot {
        self.starts += 1;
        Bot::start(BotOptions {
            api_base: &self.fake.base,
            db: &self.dir.path().join("unused.db"),
            log: self.dir.path().join(format!("bot-{}.log", self.starts)),
            env: vec![
                ("CAJITAS_DB", self.url.clone()),
                ("CAJITAS_SHARDS", shards.to_owned()),
            ],
        })
    }
}
