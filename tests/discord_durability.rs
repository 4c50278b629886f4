//! End-to-end: nothing is lost under restarts, redeliveries and load (the real bot against
//! the fake Discord).

mod support;

use std::time::Duration;

use cajitas::game::{ChannelRef, GameService, ServiceOptions};
use serde_json::json;
use support::fake_discord::{APP_ID, Channel, FakeUser};
use support::world::{WHITE, World, alice, assert_public_board, bob, field};

fn cref(ch: &Channel) -> ChannelRef {
    ChannelRef {
        guild: ch.guild,
        channel: ch.id,
    }
}

/// Opens the bot's database (after the bot stopped) through the service.
fn open(w: &World) -> GameService {
    GameService::open(&w.db(), ServiceOptions::default()).expect("open the database")
}

fn integrity_ok(w: &World) {
    let store = cajitas::store::SqliteStore::open(&w.db()).unwrap();
    assert_eq!(store.pragma("integrity_check").unwrap(), "ok");
}

/// Plays `text` as `user` and returns the SAN acknowledged.
async fn play(w: &World, user: &FakeUser, text: &str) -> String {
    let r = w.mv(user, "en-US", text).await;
    assert_public_board(&r);
    field(&r, "Last move").expect("last move")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_after_sigterm_and_sigkill_loses_nothing() {
    let mut w = World::start("restart", vec![]).await;
    w.start_game().await;
    let mut acknowledged = Vec::new();
    acknowledged.push(play(&w, &alice(), "e4").await);
    acknowledged.push(play(&w, &bob(), "e5").await);

    // SIGTERM: a clean stop, exit 0.
    w.bot().signal("TERM");
    assert_eq!(w.bot_mut().wait_exit(Duration::from_secs(15)), Some(0));
    w.bot = None;
    w.restart().await;
    let board = w.cmd(&alice(), "en-US", "board", &[]).await;
    assert_eq!(field(&board, "Last move").as_deref(), Some("e5"));
    assert_eq!(field(&board, "Move").as_deref(), Some("2"));
    acknowledged.push(play(&w, &alice(), "Nf3").await);
    acknowledged.push(play(&w, &bob(), "Nc6").await);

    // SIGKILL right after a move was acknowledged.
    acknowledged.push(play(&w, &alice(), "Bb5").await);
    w.bot().signal("KILL");
    w.bot_mut().wait_exit(Duration::from_secs(15));
    w.bot = None;
    w.restart().await;
    let board = w.cmd(&bob(), "en-US", "board", &[]).await;
    assert_eq!(field(&board, "Last move").as_deref(), Some("Bb5"));
    acknowledged.push(play(&w, &bob(), "a6").await);

    w.bot().signal("TERM");
    assert_eq!(w.bot_mut().wait_exit(Duration::from_secs(15)), Some(0));
    w.bot = None;
    integrity_ok(&w);
    let game = open(&w)
        .queries()
        .board(cref(&Channel::new(support::world::CHANNEL)))
        .unwrap();
    assert_eq!(game.sans(), acknowledged);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redelivered_interaction_is_applied_once() {
    let mut w = World::start("redelivery", vec![]).await;
    w.start_game().await;
    let payload = w.channel().command(
        &w.fake,
        &alice(),
        "en-US",
        "move",
        &[("move", json!("e4"))],
        &[],
    );
    let first = w.fake.interact(&payload).await;
    assert_public_board(&first);
    // The same INTERACTION_CREATE again (as around a resume): no second move, no second
    // answer. A later interaction is answered, so the duplicate was processed by then.
    let from = w.fake.requests().len();
    w.fake.dispatch("INTERACTION_CREATE", payload.clone());
    let board = w.cmd(&bob(), "en-US", "board", &[]).await;
    assert_eq!(field(&board, "Last move").as_deref(), Some("e4"));
    let id = payload["id"].as_str().unwrap();
    assert!(
        !w.fake
            .requests()
            .iter()
            .skip(from)
            .any(|r| r.path.contains(id)),
        "the duplicate got no answer"
    );
    assert!(
        w.bot()
            .log_text()
            .contains("redelivered interaction ignored")
    );

    // Also across a restart (the ids are kept in the database).
    w.bot().signal("TERM");
    w.bot_mut().wait_exit(Duration::from_secs(15));
    w.bot = None;
    w.restart().await;
    let from = w.fake.requests().len();
    w.fake.dispatch("INTERACTION_CREATE", payload.clone());
    let board = w.cmd(&bob(), "en-US", "board", &[]).await;
    assert_eq!(field(&board, "Move").as_deref(), Some("1"));
    assert!(
        !w.fake
            .requests()
            .iter()
            .skip(from)
            .any(|r| r.path.contains(id))
    );
    // Ignored as already handled, not refused as a move out of turn (alice's e4 would be
    // refused now anyway): the restarted bot's own log says so, for this interaction.
    let log = w.bot().log_text();
    assert!(
        log.lines()
            .any(|l| l.contains("redelivered interaction ignored") && l.contains(id)),
        "{log}"
    );
    w.bot().signal("TERM");
    w.bot_mut().wait_exit(Duration::from_secs(15));
    w.bot = None;
    let game = open(&w)
        .queries()
        .board(cref(&Channel::new(support::world::CHANNEL)))
        .unwrap();
    assert_eq!(game.sans(), ["e4"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_games_at_once_lose_and_duplicate_nothing() {
    let mut w = World::start("fifty", vec![]).await;
    const GAMES: u64 = 50;
    const LINE: [&str; 8] = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"];
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..GAMES {
        let fake = w.fake.clone();
        tasks.spawn(async move {
            let ch = Channel::new(1_250_000_000_000_000_000 + i);
            let white = FakeUser::new(950_000_000_000_000_000 + 2 * i, &format!("w{i}"));
            let black = FakeUser::new(950_000_000_000_000_001 + 2 * i, &format!("b{i}"));
            let challenge = ch.command(
                &fake,
                &white,
                "en-US",
                "challenge",
                &[
                    ("opponent", json!(black.id.to_string())),
                    ("colour", json!(WHITE)),
                ],
                &[&black],
            );
            let c = fake.interact(&challenge).await;
            assert!(!c.is_ephemeral());
            let from = fake.request_count();
            let accept = ch.command(&fake, &black, "en-US", "accept", &[], &[]);
            assert!(!fake.interact(&accept).await.is_ephemeral());
            // Each game in its thread, opened on the challenge message.
            let thread = c.message_id.unwrap();
            assert_public_board(&fake.post_to(thread, from).await);
            let ch = Channel::thread(thread, ch.id);
            let mut sans = Vec::new();
            for (k, mv) in LINE.iter().enumerate() {
                let user = if k.is_multiple_of(2) { &white } else { &black };
                let p = ch.command(&fake, user, "en-US", "move", &[("move", json!(mv))], &[]);
                let r = fake.interact(&p).await;
                assert_public_board(&r);
                sans.push(field(&r, "Last move").unwrap());
            }
            (ch, sans)
        });
    }
    let results = tasks.join_all().await;
    w.bot().signal("TERM");
    assert_eq!(w.bot_mut().wait_exit(Duration::from_secs(15)), Some(0));
    w.bot = None;
    integrity_ok(&w);
    let svc = open(&w);
    for (ch, sans) in results {
        assert_eq!(sans, LINE);
        let game = svc.queries().board(cref(&ch)).unwrap();
        assert_eq!(game.sans(), LINE, "channel {}", ch.id);
    }
    let callbacks = w
        .fake
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/callback"))
        .count();
    assert_eq!(
        callbacks as u64,
        GAMES * (2 + LINE.len() as u64),
        "one answer each"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_only_when_they_changed() {
    let registrations = |w: &World| {
        w.fake
            .requests()
            .iter()
            .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
            .count()
    };
    let mut w = World::start("register", vec![]).await;
    w.fake
        .wait_request("registration", 0, |r| {
            r.method == "PUT" && r.path == format!("/applications/{APP_ID}/commands")
        })
        .await;
    // Restart with the same commands: READY is processed (application info asked again),
    // but nothing is registered.
    for _ in 0..2 {
        w.bot().signal("TERM");
        w.bot_mut().wait_exit(Duration::from_secs(15));
        w.bot = None;
        w.restart().await;
        // A command answered proves the setup finished.
        let r = w.cmd(&alice(), "en-US", "help", &[]).await;
        assert_eq!(r.callback_type(), Some(4));
        assert_eq!(registrations(&w), 1);
    }
    // The stored hash says an older command set was registered: register again, once.
    w.bot().signal("TERM");
    w.bot_mut().wait_exit(Duration::from_secs(15));
    w.bot = None;
    let books = cajitas::discord::Bookkeeping::new(
        open(&w).shared_store(),
        std::sync::Arc::new(cajitas::game::SystemClock),
    );
    books
        .set_setting(
            cajitas::discord::COMMANDS_HASH_KEY_GLOBAL,
            "an older command set",
        )
        .unwrap();
    w.restart().await;
    let r = w.cmd(&alice(), "en-US", "help", &[]).await;
    assert_eq!(r.callback_type(), Some(4));
    assert_eq!(registrations(&w), 2);
    // A guild registration is a different scope.
    w.bot().signal("TERM");
    w.bot_mut().wait_exit(Duration::from_secs(15));
    w.bot = None;
    w.env
        .push(("DISCORD_GUILD_ID", "1100000000000000001".into()));
    w.restart().await;
    w.fake
        .wait_request("guild registration", 0, |r| {
            r.method == "PUT"
                && r.path == format!("/applications/{APP_ID}/guilds/1100000000000000001/commands")
        })
        .await;
}
