//! End-to-end: the real bot through gateway drops, Discord REST failures and shutdown signals.

mod support;

use std::time::Duration;

use serde_json::json;
use support::bot::{Bot, BotOptions, TempDir};
use support::fake_discord::{Channel, Failure, FakeDiscord, FakeUser, GatewayEvent, Recorded};

const HEARTBEAT_MS: u64 = 500;
const CHANNEL: u64 = 1_200_000_000_000_000_001;

fn alice() -> FakeUser {
    FakeUser::new(900_000_000_000_000_001, "alice")
}

async fn start(fake: &FakeDiscord, dir: &TempDir, identifies: usize) -> Bot {
    let bot = Bot::start(BotOptions {
        api_base: &fake.base,
        db: &dir.path().join("cajitas.db"),
        log: dir.path().join("bot.log"),
        env: vec![],
    });
    fake.wait_ready(identifies).await;
    bot
}

async fn help(fake: &FakeDiscord) -> Recorded {
    let payload = Channel::new(CHANNEL).command(fake, &alice(), "en-US", "help", &[], &[]);
    fake.interact(&payload).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gateway_drop_then_resume_keeps_answering() {
    let fake = FakeDiscord::start(HEARTBEAT_MS).await;
    let dir = TempDir::new("resume");
    let _bot = start(&fake, &dir, 1).await;
    assert_eq!(help(&fake).await.callback_type(), Some(4));

    fake.close_gateway(4000);
    let seq = fake
        .wait_for("RESUME after the drop", Duration::from_secs(20), |f| {
            f.gateway_events().iter().find_map(|e| match e {
                GatewayEvent::Resume(s) => Some(*s),
                _ => None,
            })
        })
        .await;
    assert!(
        seq >= 2,
        "resumed from the last sequence number seen: {seq}"
    );
    assert_eq!(
        fake.count(&GatewayEvent::Identify),
        1,
        "resumed, not re-identified"
    );
    let r = help(&fake).await;
    assert_eq!(r.callback_type(), Some(4));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_callback_is_retried_within_the_window() {
    // A time window: not at the same time as the other suites' timed tests.
    let _serial = support::serial::time_window();
    let fake = FakeDiscord::start(HEARTBEAT_MS).await;
    let dir = TempDir::new("retry");
    let bot = start(&fake, &dir, 1).await;

    for (status, body) in [
        (500, json!({"message": "Internal Server Error", "code": 0})),
        (502, json!({"message": "Bad Gateway", "code": 0})),
        (
            429,
            json!({"message": "You are being rate limited.", "retry_after": 0.2, "global": false, "code": 0}),
        ),
    ] {
        fake.fail_next(Failure {
            path_contains: "/callback".into(),
            status,
            body,
            delay: Duration::ZERO,
        });
        let from = fake.requests().len();
        let payload = Channel::new(CHANNEL).command(&fake, &alice(), "en-US", "help", &[], &[]);
        let id = payload["id"].as_str().unwrap().to_string();
        let ok = fake.interact(&payload).await;
        let attempts: Vec<Recorded> = fake
            .requests()
            .into_iter()
            .skip(from)
            .filter(|r| r.path.starts_with(&format!("/interactions/{id}/")))
            .collect();
        assert_eq!(attempts.len(), 2, "one failure, one retry ({status})");
        assert_eq!(attempts[0].status, status);
        assert_eq!(ok.status, 204);
        assert!(
            ok.at.duration_since(attempts[0].at) < Duration::from_millis(2500),
            "retried inside Discord's 3 s window"
        );
        if status == 429 {
            assert!(
                ok.at.duration_since(attempts[0].at) >= Duration::from_millis(200),
                "the 429's retry_after was honoured"
            );
        }
        let log = bot.log_text();
        assert!(
            log.contains(&id) && log.contains("retrying interaction callback"),
            "the failure is logged with the interaction id: {log}"
        );
    }

    // A callback that keeps failing is given up after one retry, and logged.
    for _ in 0..2 {
        fake.fail_next(Failure {
            path_contains: "/callback".into(),
            status: 503,
            body: json!({"message": "unavailable", "code": 0}),
            delay: Duration::ZERO,
        });
    }
    let from = fake.requests().len();
    let payload = Channel::new(CHANNEL).command(&fake, &alice(), "en-US", "help", &[], &[]);
    let id = payload["id"].as_str().unwrap().to_string();
    fake.dispatch("INTERACTION_CREATE", payload);
    fake.wait_for("the failure to be logged", Duration::from_secs(10), |_| {
        bot.log_text()
            .lines()
            .any(|l| l.contains(&id) && l.contains("interaction callback failed"))
            .then_some(())
    })
    .await;
    // Two attempts, then the apology (which Discord accepts again here).
    let apology = fake
        .wait_request("the apology", from, |r| {
            r.path.contains(&id) && r.status == 204
        })
        .await;
    assert!(apology.is_ephemeral() && apology.content().contains("Sorry"));
    let failed: Vec<u16> = fake
        .requests()
        .into_iter()
        .skip(from)
        .filter(|r| r.path.contains(&id) && r.status != 204)
        .map(|r| r.status)
        .collect();
    assert_eq!(failed, [503, 503]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_and_sigint_stop_the_bot_cleanly() {
    for sig in ["TERM", "INT"] {
        let fake = FakeDiscord::start(HEARTBEAT_MS).await;
        let dir = TempDir::new("sigterm");
        let mut bot = start(&fake, &dir, 1).await;
        assert_eq!(help(&fake).await.callback_type(), Some(4));
        bot.signal(sig);
        let code = bot.wait_exit(Duration::from_secs(15));
        assert_eq!(code, Some(0), "exit 0 after SIG{sig}\n{}", bot.log_text());
        let log = bot.log_text();
        assert!(log.contains("shutting down"), "{log}");
        assert!(log.contains("stopped"), "{log}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_lets_the_interactions_in_flight_finish() {
    let fake = FakeDiscord::start(HEARTBEAT_MS).await;
    let dir = TempDir::new("inflight");
    let mut bot = start(&fake, &dir, 1).await;
    // The answer to this interaction takes 800 ms to be accepted by "Discord".
    fake.fail_next(Failure {
        path_contains: "/callback".into(),
        status: 204,
        body: serde_json::Value::Null,
        delay: Duration::from_millis(800),
    });
    let payload = Channel::new(CHANNEL).command(&fake, &alice(), "en-US", "help", &[], &[]);
    let id = payload["id"].as_str().unwrap().to_string();
    let rx = fake.send_interaction(&payload);
    fake.wait_for(
        "the callback to be on its way",
        Duration::from_secs(10),
        |f| f.arrived(&format!("/interactions/{id}/")).then_some(()),
    )
    .await;
    bot.signal("TERM");
    let answered = tokio::time::timeout(Duration::from_secs(10), rx)
        .await
        .expect("the interaction in flight was answered")
        .unwrap();
    assert_eq!(answered.status, 204);
    let code = tokio::task::spawn_blocking(move || {
        let code = bot.wait_exit(Duration::from_secs(15));
        (code, bot)
    })
    .await
    .unwrap();
    assert_eq!(code.0, Some(0), "{}", code.1.log_text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_pieces_folder_stops_the_start_with_a_clear_message() {
    let fake = FakeDiscord::start(HEARTBEAT_MS).await;
    let dir = TempDir::new("pieces");
    let missing = dir.path().join("no-such-pieces");
    let mut bot = Bot::start(BotOptions {
        api_base: &fake.base,
        db: &dir.path().join("cajitas.db"),
        log: dir.path().join("bot.log"),
        env: vec![("CAJITAS_PIECES", missing.display().to_string())],
    });
    let code = tokio::task::spawn_blocking(move || {
        let code = bot.wait_exit(Duration::from_secs(30));
        (code, bot.log_text())
    })
    .await
    .unwrap();
    assert_eq!(code.0, Some(1), "{}", code.1);
    assert!(code.1.contains("CAJITAS_PIECES"), "{}", code.1);
    assert!(!code.1.contains("panicked"), "{}", code.1);
}
