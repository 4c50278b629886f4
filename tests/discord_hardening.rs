//! End-to-end regressions of the hardening issue: lifecycle (signals before the gateway
//! connected, interactions during a drain, a dropped connection while replying), where the
//! bot may send its token, what reaches the logs, whom a message may ping, and the replies
//! of draw offers.

mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::bot::{Bot, BotOptions, TempDir};
use support::fake_discord::{DROP_CONNECTION, Failure, Recorded};
use support::world::{OFFER, World, alice, assert_public_board, assert_refused, bob, carol};

fn start_unreachable(dir: &TempDir, env: Vec<(&'static str, String)>) -> Bot {
    Bot::start(BotOptions {
        // Nothing listens on port 1: the gateway can never connect.
        api_base: "http://127.0.0.1:1",
        db: &dir.path().join("cajitas.db"),
        log: dir.path().join("bot.log"),
        env,
    })
}

async fn wait_log(bot: &Bot, needle: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !bot.log_text().contains(needle) {
        assert!(
            std::time::Instant::now() < deadline,
            "{needle:?} not logged:\n{}",
            bot.log_text()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn exit_code(mut bot: Bot, within: Duration) -> (Option<i32>, String) {
    tokio::task::spawn_blocking(move || {
        let t0 = std::time::Instant::now();
        let code = bot.wait_exit(within);
        let log = bot.log_text();
        (code, format!("exited after {:?}\n{log}", t0.elapsed()))
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signal_before_the_gateway_connected_stops_the_bot() {
    for sig in ["TERM", "INT"] {
        let dir = TempDir::new("early-signal");
        let bot = start_unreachable(&dir, vec![]);
        // Signals are listened for from here on, before anything slow.
        wait_log(&bot, "listening for SIGTERM and SIGINT").await;
        // Let it try (and fail) to reach the gateway for a moment.
        tokio::time::sleep(Duration::from_millis(500)).await;
        bot.signal(sig);
        let (code, log) = exit_code(bot, Duration::from_secs(15)).await;
        assert_eq!(code, Some(0), "SIG{sig}: {log}");
        assert!(log.contains("stopped"), "{log}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_signal_ends_the_drain_at_once() {
    // A time window (the second signal's exit within 3 s): not at the same time as the
    // other suites' timed tests. Taken before the bot starts, never inside its drain.
    let _serial = support::serial::time_window();
    let mut w = World::start("second-signal", vec![]).await;
    // An interaction whose answer "Discord" holds for 30 s keeps the drain waiting.
    w.fake.fail_next(Failure {
        path_contains: "/callback".into(),
        status: 204,
        body: Value::Null,
        delay: Duration::from_secs(30),
    });
    let payload = w
        .channel()
        .command(&w.fake, &alice(), "en-US", "help", &[], &[]);
    let id = payload["id"].as_str().unwrap().to_string();
    let _rx = w.fake.send_interaction(&payload);
    w.fake
        .wait_for("the callback on its way", Duration::from_secs(10), |f| {
            f.arrived(&format!("/interactions/{id}/")).then_some(())
        })
        .await;
    let bot = w.bot.take().unwrap();
    bot.signal("TERM");
    wait_log(&bot, "shutting down").await;
    let t0 = std::time::Instant::now();
    bot.signal("TERM");
    let (code, log) = exit_code(bot, Duration::from_secs(5)).await;
    assert!(t0.elapsed() < Duration::from_secs(3), "{log}");
    assert_eq!(code, Some(143), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interactions_during_the_drain_are_told_to_retry_and_change_nothing() {
    let mut w = World::start("drain", vec![]).await;
    w.fake.fail_next(Failure {
        path_contains: "/callback".into(),
        status: 204,
        body: Value::Null,
        delay: Duration::from_millis(2500),
    });
    let slow = w
        .channel()
        .command(&w.fake, &alice(), "en-US", "help", &[], &[]);
    let slow_id = slow["id"].as_str().unwrap().to_string();
    let slow_rx = w.fake.send_interaction(&slow);
    w.fake
        .wait_for(
            "the slow callback on its way",
            Duration::from_secs(10),
            |f| {
                f.arrived(&format!("/interactions/{slow_id}/"))
                    .then_some(())
            },
        )
        .await;
    w.bot().signal("TERM");
    wait_log(w.bot(), "shutting down").await;

    // A challenge arriving now is answered, ephemerally, and not applied.
    let late = w.channel().command(
        &w.fake,
        &bob(),
        "en-US",
        "challenge",
        &[("opponent", json!(alice().id.to_string()))],
        &[&alice()],
    );
    let r = w.fake.interact(&late).await;
    assert_refused(&r, "Restarting: try again in a few seconds");
    let answered = tokio::time::timeout(Duration::from_secs(10), slow_rx)
        .await
        .expect("the interaction in flight was answered")
        .unwrap();
    assert_eq!(answered.status, 204);
    let bot = w.bot.take().unwrap();
    let (code, log) = exit_code(bot, Duration::from_secs(15)).await;
    assert_eq!(code, Some(0), "{log}");

    // After the restart, there is no challenge to accept: nothing was applied.
    w.restart().await;
    let acc = w.cmd(&alice(), "en-US", "accept", &[]).await;
    assert_refused(&acc, "no pending challenge");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_dropped_while_replying_is_retried_once_and_the_move_applied_once() {
    let w = World::start("dropped", vec![]).await;
    w.start_game().await;
    w.fake.fail_next(Failure {
        path_contains: "/callback".into(),
        status: DROP_CONNECTION,
        body: Value::Null,
        delay: Duration::ZERO,
    });
    let from = w.fake.requests().len();
    let payload = w.channel().command(
        &w.fake,
        &alice(),
        "en-US",
        "move",
        &[("move", json!("e4"))],
        &[],
    );
    let id = payload["id"].as_str().unwrap().to_string();
    let token = payload["token"].as_str().unwrap().to_string();
    let r = w.fake.interact(&payload).await;
    assert_public_board(&r);
    assert!(r.text().contains("e4"), "{}", r.text());
    let attempts: Vec<u16> = w
        .fake
        .requests()
        .into_iter()
        .skip(from)
        .filter(|q| q.path.starts_with(&format!("/interactions/{id}/")))
        .map(|q| q.status)
        .collect();
    assert_eq!(attempts, [DROP_CONNECTION, 204], "dropped, then retried");
    let log = w.bot().log_text();
    assert!(log.contains("retrying interaction callback"), "{log}");
    // The interaction token never reaches the log, not even inside an HTTP error's URL.
    assert!(!log.contains(&token), "token in the log:\n{log}");

    // The move was applied once: black is to move, and e4 is played once in the history.
    let b = w
        .cmd(&bob(), "en-US", "move", &[("move", json!("e5"))])
        .await;
    assert_public_board(&b);
    let h = w.cmd(&alice(), "en-US", "board", &[]).await;
    assert!(h.text().contains("alice"), "{}", h.text());
    let pgn = w.cmd(&alice(), "en-US", "pgn", &[]).await;
    let text = pgn.text()
        + &pgn
            .files
            .iter()
            .map(|f| String::from_utf8_lossy(&f.data).into_owned())
            .collect::<String>();
    assert!(text.contains("1. e4 e5"), "{text}");
    assert!(!text.contains("2. e4"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_is_sent_only_to_loopback_unless_a_proxy_is_trusted() {
    // Each of these is refused by the check, yet would reach only this machine if it were
    // not (0.0.0.0 and an IPv4-mapped ::1 connect locally): the test never sends traffic
    // anywhere else, even against a bot without the check.
    for (base, trusted, want) in [
        ("https://127.0.0.1:1", "", Some(2)),
        ("http://0.0.0.0:1", "", Some(2)),
        ("http://[::ffff:127.0.0.1]:1", "0", Some(2)),
        ("http://user@127.0.0.1:1", "", Some(2)),
    ] {
        let dir = TempDir::new("api-base");
        let bot = Bot::start(BotOptions {
            api_base: base,
            db: &dir.path().join("cajitas.db"),
            log: dir.path().join("bot.log"),
            env: vec![("CAJITAS_API_BASE_TRUSTED", trusted.to_string())],
        });
        let (code, log) = exit_code(bot, Duration::from_secs(15)).await;
        assert_eq!(code, want, "{base}: {log}");
        assert!(
            log.contains("DISCORD_API_BASE"),
            "names the variable: {log}"
        );
        assert!(log.contains("CAJITAS_API_BASE_TRUSTED"), "{log}");
    }
    // A trusted proxy is accepted, with a warning at start.
    let dir = TempDir::new("api-base-trusted");
    let bot = Bot::start(BotOptions {
        api_base: "https://127.0.0.1:1",
        db: &dir.path().join("cajitas.db"),
        log: dir.path().join("bot.log"),
        env: vec![("CAJITAS_API_BASE_TRUSTED", "1".into())],
    });
    wait_log(&bot, "trusted proxy").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    bot.signal("TERM");
    let (code, log) = exit_code(bot, Duration::from_secs(15)).await;
    assert_eq!(code, Some(0), "{log}");
}

/// Every message the bot sent: callbacks, followups and channel posts with a body.
fn sent_messages(w: &World, from: usize) -> Vec<(String, Value)> {
    w.fake
        .requests()
        .into_iter()
        .skip(from)
        .filter(|r| r.method == "POST" || r.method == "PATCH")
        .filter_map(|r| {
            let m = r.message();
            (!m.is_null() && m.get("content").is_some()).then(|| (r.path.clone(), m))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_message_says_whom_it_may_ping() {
    let w = World::start("mentions", vec![]).await;
    let from = w.fake.requests().len();
    // An open challenge pings nobody; a game pings its two players only.
    let open = w.cmd(&alice(), "en-US", "challenge", &[]).await;
    assert!(!open.is_ephemeral(), "{}", open.text());
    // Nobody but its author closes an open challenge: it has Accept, and no Decline.
    assert_eq!(open.custom_ids().len(), 1, "{:?}", open.custom_ids());
    w.cmd(&alice(), "en-US", "cancel", &[]).await;
    w.start_game().await;
    w.mv(&alice(), "en-US", "e4").await;
    w.cmd(&bob(), "en-US", "draw", &[("action", json!(OFFER))])
        .await;
    w.cmd(&carol(), "en-US", "move", &[("move", json!("e5"))])
        .await;
    w.cmd(&alice(), "en-US", "help", &[]).await;
    let players = [alice().id.to_string(), bob().id.to_string()];
    let sent = sent_messages(&w, from);
    assert!(sent.len() >= 6, "{sent:?}");
    for (path, m) in &sent {
        let am = &m["allowed_mentions"];
        assert_eq!(am["parse"], json!([]), "{path}: {m}");
        assert_eq!(am["roles"], json!([]), "{path}: {m}");
        for u in am["users"].as_array().expect("users listed") {
            assert!(
                players.contains(&u.as_str().unwrap().to_string()),
                "{path}: only the players may be pinged: {m}"
            );
        }
    }
    let (_, open_msg) = &sent[0];
    assert_eq!(open_msg["allowed_mentions"]["users"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sixth_ping_in_ten_minutes_is_refused_and_the_count_survives_a_restart() {
    let mut w = World::start("pings", vec![]).await;
    let challenge = |w: &World| {
        let payload = w.channel().command(
            &w.fake,
            &alice(),
            "en-US",
            "challenge",
            &[("opponent", json!(bob().id.to_string()))],
            &[&bob()],
        );
        let fake = w.fake.clone();
        async move { fake.interact(&payload).await }
    };
    for i in 0..3 {
        let c = challenge(&w).await;
        assert!(!c.is_ephemeral(), "challenge {i}: {}", c.text());
        w.cmd(&alice(), "en-US", "cancel", &[]).await;
    }
    let mut bot = w.bot.take().unwrap();
    bot.signal("TERM");
    tokio::task::spawn_blocking(move || bot.wait_exit(Duration::from_secs(15)))
        .await
        .unwrap();
    w.restart().await;
    for i in 3..5 {
        let c = challenge(&w).await;
        assert!(!c.is_ephemeral(), "challenge {i}: {}", c.text());
        w.cmd(&alice(), "en-US", "cancel", &[]).await;
    }
    let sixth: Recorded = challenge(&w).await;
    assert_refused(&sixth, "Try again in");
    // Someone else may still challenge bob.
    let other = w.channel().command(
        &w.fake,
        &carol(),
        "en-US",
        "challenge",
        &[("opponent", json!(bob().id.to_string()))],
        &[&bob()],
    );
    let r = w.fake.interact(&other).await;
    assert!(!r.is_ephemeral(), "{}", r.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_offer_meeting_the_standing_offer_replies_with_the_draw() {
    let w = World::start("offer-meets", vec![]).await;
    w.start_game().await;
    let o = w
        .cmd(&alice(), "en-US", "draw", &[("action", json!(OFFER))])
        .await;
    assert!(o.text().contains("offers a draw"), "{}", o.text());
    let r = w
        .cmd(&bob(), "en-US", "draw", &[("action", json!(OFFER))])
        .await;
    assert_public_board(&r);
    let text = r.text();
    assert!(!text.contains("do you accept"), "{text}");
    assert!(text.to_lowercase().contains("agreement"), "{text}");
    assert!(text.contains("1/2-1/2") || text.contains("½"), "{text}");
    assert!(
        r.custom_ids().iter().all(|id| id.starts_with("cj:rm:")),
        "no buttons on a finished game but Rematch: {:?}",
        r.custom_ids()
    );
}
