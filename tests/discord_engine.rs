//! End to end through the fake Discord: `/play` against the real engine (its moves posted in
//! the channel, takebacks without asking, a restart while it is the engine's turn),
//! `/analysis` with its deferred, edited reply and chart, and both commands on a bot without
//! an engine. Tests that need the engine say they were skipped, and why, where there is none.

#[path = "support/serial.rs"]
mod serial;
mod support;

use std::time::Duration;

use axum::http::Method;
use serde_json::json;
use support::fake_discord::{APP_ID, Recorded};
use support::world::{World, alice, assert_public_board, assert_refused, bob, field};

fn have_engine(test: &str) -> bool {
    match cajitas::config::EngineSettings::from_env() {
        Ok(s) if s.program.is_some() => true,
        _ => {
            println!(
                "SKIPPED {test}: no chess engine on this machine; install one with \
                 `apt-get install stockfish`"
            );
            false
        }
    }
}

/// The next channel message (an engine's move or notice) from request `from` on.
async fn channel_post(w: &World, from: usize) -> Recorded {
    let path = format!("/channels/{}/messages", w.channel().id);
    w.fake
        .wait_request("a channel message", from, |r| {
            r.method == Method::POST && r.path == path
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_an_engine_play_and_analysis_say_how_to_add_one() {
    let w = World::start("no-engine", vec![("CAJITAS_ENGINE", "off".into())]).await;
    for cmd in ["play", "analysis"] {
        let r = w.cmd(&alice(), "en-US", cmd, &[]).await;
        assert_refused(&r, "apt install stockfish");
        let r = w.cmd(&alice(), "es-ES", cmd, &[]).await;
        assert_refused(&r, "motor");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_with_a_takeback_and_an_analysis() {
    if !have_engine("a_game_against_the_computer_with_a_takeback_and_an_analysis") {
        return;
    }
    let _serial = serial::time_window();
    let w = World::start("play", vec![("CAJITAS_ENGINE_PROCESSES", "1".into())]).await;
    // Nothing finished here yet: nothing to analyse.
    assert_refused(
        &w.cmd(&alice(), "en-US", "analysis", &[]).await,
        "nothing to analyse",
    );
    let r = w
        .cmd(
            &alice(),
            "en-US",
            "play",
            &[("level", json!(4)), ("colour", json!(0))],
        )
        .await;
    assert_public_board(&r);
    let black = field(&r, "Black").unwrap();
    assert!(
        black.contains("Stockfish") && black.contains("level 4"),
        "{black}"
    );
    assert!(r.content().contains("Unrated"), "{}", r.content());

    // The person moves; the engine answers with a post in the channel.
    let n = w.fake.request_count();
    let m = w.mv(&alice(), "en-US", "e4").await;
    assert_public_board(&m);
    let post = channel_post(&w, n).await;
    assert!(post.file("board.png").is_some());
    let footer = post.json.as_ref().unwrap()["embeds"][0]["footer"]["text"].to_string();
    assert!(footer.contains('2'), "the engine's move is ply 2: {footer}");

    // A takeback needs no asking: both plies go, and it is the person's move again.
    let t = w.cmd(&alice(), "en-US", "takeback", &[]).await;
    assert_public_board(&t);
    assert!(t.content().contains("took back"), "{}", t.content());
    assert!(
        t.custom_ids().is_empty(),
        "no buttons: {:?}",
        t.custom_ids()
    );

    // Play on a little, then resign and analyse.
    let n = w.fake.request_count();
    w.mv(&alice(), "en-US", "d4").await;
    channel_post(&w, n).await;
    let ask = w.cmd(&alice(), "en-US", "resign", &[]).await;
    let confirm = ask.custom_ids();
    let resigned = w.click(&alice(), &ask, &confirm[0]).await;
    assert!(resigned.text().contains("resigned"), "{}", resigned.text());

    let payload = w
        .channel()
        .command(&w.fake, &alice(), "en-US", "analysis", &[], &[]);
    let token = payload["token"].as_str().unwrap().to_string();
    let n = w.fake.request_count();
    let callback = w.fake.send_interaction(&payload);
    let edit = format!("/webhooks/{APP_ID}/{token}/messages/@original");
    let done = w
        .fake
        .wait_for("the analysis", Duration::from_secs(60), |f| {
            f.requests().into_iter().skip(n).find(|r| {
                r.method == Method::PATCH
                    && r.path == edit
                    && r.files.iter().any(|f| f.filename == "analysis.png")
            })
        })
        .await;
    // The first answer was a defer (a "thinking" state), then edits of it.
    let first = callback.await.unwrap();
    assert_eq!(first.callback_type(), Some(5), "{:?}", first.json);
    let embed = &done.json.as_ref().unwrap()["embeds"][0];
    assert!(
        embed["title"].as_str().unwrap().contains("Analysis"),
        "{embed}"
    );
    assert!(
        embed["description"].as_str().unwrap().contains("White"),
        "{embed}"
    );
    let png = &done
        .files
        .iter()
        .find(|f| f.filename == "analysis.png")
        .unwrap()
        .data;
    assert!(png.starts_with(b"\x89PNG"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_an_engine_whose_turn_it_is_moves_at_once() {
    if !have_engine("after_a_restart_an_engine_whose_turn_it_is_moves_at_once") {
        return;
    }
    let _serial = serial::time_window();
    let mut w = World::start("restart", vec![("CAJITAS_ENGINE_PROCESSES", "1".into())]).await;
    // Level 8 thinks a second: the bot is killed while the engine, White, thinks.
    let r = w
        .cmd(
            &alice(),
            "en-US",
            "play",
            &[("level", json!(8)), ("colour", json!(1))],
        )
        .await;
    assert_public_board(&r);
    w.bot().signal("KILL");
    w.bot_mut().wait_exit(Duration::from_secs(10));
    w.bot = None;
    let before = w.fake.request_count();
    let posted_before = w
        .fake
        .find_request(0, |r| {
            r.method == Method::POST && r.path.ends_with("/messages")
        })
        .is_some();
    w.restart().await;
    if posted_before {
        println!("the engine moved before the kill; the restart has nothing to do");
        return;
    }
    let post = channel_post(&w, before).await;
    assert!(post.file("board.png").is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_that_fails_twice_is_announced_in_the_embed_and_retried_on_the_next_command() {
    let _serial = serial::time_window();
    // The fake engine crashes on its first two searches, then plays.
    let dir = std::env::temp_dir().join(format!("cajitas-e2e-fake-uci-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("script");
    std::fs::write(&script, "crash\ncrash\nok\n").unwrap();
    let w = World::start(
        "engine-fails",
        vec![
            (
                "CAJITAS_ENGINE",
                env!("CARGO_BIN_EXE_cajitas-fake-uci").into(),
            ),
            ("CAJITAS_FAKE_UCI_SCRIPT", script.display().to_string()),
        ],
    )
    .await;
    let r = w
        .cmd(
            &alice(),
            "en-US",
            "play",
            &[("level", json!(5)), ("colour", json!(0))],
        )
        .await;
    assert_public_board(&r);
    let n = w.fake.request_count();
    w.mv(&alice(), "en-US", "e4").await;
    // The wait is announced: in the embed, to the person, with the board.
    let post = channel_post(&w, n).await;
    let json = post.json.clone().unwrap();
    let description = json["embeds"][0]["description"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(description.contains("engine is unavailable"), "{json}");
    assert!(post.file("board.png").is_some());
    assert_eq!(
        json["allowed_mentions"]["users"],
        json!([alice().id.to_string()]),
        "{json}"
    );
    // The person's next command (any, here /board) makes the engine try again: it plays.
    let n = w.fake.request_count();
    let b = w.cmd(&alice(), "en-US", "board", &[]).await;
    assert_public_board(&b);
    let moved = channel_post(&w, n).await;
    let footer = moved.json.as_ref().unwrap()["embeds"][0]["footer"]["text"].to_string();
    assert!(
        footer.contains('2'),
        "the engine's reply is ply 2: {footer}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_reply_shows_its_progress_at_most_every_two_seconds() {
    if !have_engine("the_analysis_reply_shows_its_progress_at_most_every_two_seconds") {
        return;
    }
    let _serial = serial::time_window();
    let w = World::start(
        "analysis-progress",
        vec![("CAJITAS_ENGINE_PROCESSES", "1".into())],
    )
    .await;
    // 40 plies between two people (about 4 s of analysis), then a resignation.
    const LINE: [&str; 40] = [
        "a3", "a6", "b3", "b6", "c3", "c6", "d3", "d6", "e3", "e6", "f3", "f6", "g3", "g6", "h3",
        "h6", "a4", "a5", "b4", "b5", "c4", "c5", "d4", "d5", "e4", "e5", "f4", "f5", "g4", "g5",
        "h4", "h5", "Nc3", "Nc6", "Nf3", "Nf6", "Ne2", "Ne7", "Ra2", "Ra7",
    ];
    w.start_game().await;
    for (i, m) in LINE.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        assert_public_board(&w.mv(&who, "en-US", m).await);
    }
    let ask = w.cmd(&alice(), "en-US", "resign", &[]).await;
    w.click(&alice(), &ask, &ask.custom_ids()[0]).await;

    let payload = w
        .channel()
        .command(&w.fake, &bob(), "es-ES", "analysis", &[], &[]);
    let token = payload["token"].as_str().unwrap().to_string();
    let n = w.fake.request_count();
    let callback = w.fake.send_interaction(&payload);
    let edit = format!("/webhooks/{APP_ID}/{token}/messages/@original");
    w.fake
        .wait_for("the analysis", Duration::from_secs(90), |f| {
            f.requests().into_iter().skip(n).find(|r| {
                r.method == Method::PATCH
                    && r.path == edit
                    && r.files.iter().any(|f| f.filename == "analysis.png")
            })
        })
        .await;
    assert_eq!(callback.await.unwrap().callback_type(), Some(5));
    let edits: Vec<Recorded> = w
        .fake
        .requests()
        .into_iter()
        .skip(n)
        .filter(|r| r.method == Method::PATCH && r.path == edit)
        .collect();
    let progress: Vec<String> = edits
        .iter()
        .filter_map(|r| r.json.as_ref()?["content"].as_str().map(String::from))
        .filter(|c| c.starts_with("Analizando"))
        .collect();
    assert!(!progress.is_empty(), "no progress shown: {edits:?}");
    assert!(
        progress.iter().all(|p| p.ends_with("/41 posiciones")),
        "{progress:?}"
    );
    for pair in edits.windows(2) {
        let gap = pair[1].at.duration_since(pair[0].at);
        // The final answer may follow a progress edit at once; progress edits never do.
        if pair[1].files.is_empty() {
            assert!(gap >= Duration::from_millis(1900), "edits {gap:?} apart");
        }
    }
    // The final answer, in Spanish: counts per side and the chart.
    let last = edits.last().unwrap();
    let embed = &last.json.as_ref().unwrap()["embeds"][0];
    assert!(
        embed["title"].as_str().unwrap().starts_with("Análisis"),
        "{embed}"
    );
    assert!(
        embed["description"].as_str().unwrap().contains("Blancas"),
        "{embed}"
    );
}
