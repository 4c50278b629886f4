//! End to end through the fake Discord: `/play` against the real engine (its game in a thread
//! of its own, opened on `/play`'s answer, its moves posted there, takebacks without asking,
//! a restart while it is the engine's turn), the fallback to the channel without the thread
//! permission, the summary in the channel at the end, `/analysis` (typed in the thread or in
//! the channel) with its deferred, edited reply and chart, the engine's failures announced
//! and retried in the thread (on the next command, and by the timed retry), and both
//! commands on a bot without an engine. Tests that need the real engine say they were
//! skipped, and why, where there is none; the others use the scripted fake engine.

mod support;

use std::sync::Arc;
use std::time::Duration;

use axum::http::Method;
use poise::serenity_prelude as serenity;
use serde_json::json;
use support::fake_discord::{APP_ID, Channel, GUILD_ID, Recorded};
use support::world::{CHANNEL, World, alice, assert_public_board, assert_refused, bob, field};

fn have_engine(test: &str) -> bool {
    match cajitas::config::EngineSettings::from_env() {
        Ok(s) if s.program.is_some() => true,
        _ => {
            support::skip::no_engine(test, support::skip::NO_ENGINE);
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

/// The fake engine, following `script` (one behaviour per search, see `tests/fake_uci`), in
/// a directory of its own: the bot's environment for it.
fn fake_engine(tag: &str, script: &str) -> (std::path::PathBuf, Vec<(&'static str, String)>) {
    let dir =
        std::env::temp_dir().join(format!("cajitas-e2e-fake-uci-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("script");
    std::fs::write(&path, script).unwrap();
    let env = vec![
        (
            "CAJITAS_ENGINE",
            env!("CARGO_BIN_EXE_cajitas-fake-uci").into(),
        ),
        ("CAJITAS_FAKE_UCI_SCRIPT", path.display().to_string()),
    ];
    (dir, env)
}

/// The name the fake engine plays under: its program's (`cajitas-fake-uci`), as any engine
/// other than Stockfish plays under its own.
const FAKE_NAME: &str = "Cajitas-fake-uci";

/// `/play` typed by alice in the helpers' channel, where games get threads: the answer
/// links to the game's thread, opened on the answer itself, and the thread gets the first
/// board. The helpers then play in the thread. Returns the first board and the index of the
/// first request after it.
async fn play_in_thread(w: &World, options: &[(&str, serde_json::Value)]) -> (Recorded, usize) {
    let payload = w
        .parent()
        .command(&w.fake, &alice(), "en-US", "play", options, &[]);
    let token = payload["token"].as_str().unwrap().to_string();
    let from = w.fake.request_count();
    let answer = w.fake.interact(&payload).await;
    assert!(!answer.is_ephemeral(), "{}", answer.text());
    let message = answer.message_id.expect("the answer is a message");
    let board = w.fake.post_to(message, from).await;
    assert_public_board(&board);
    let thread = w.fake.thread(message).expect("a thread on /play's answer");
    assert_eq!(thread.parent, CHANNEL);
    // "alice vs Stockfish, level 4", or the fake engine's name: White first.
    let black = options.contains(&("colour", json!(1)));
    assert!(
        thread.name.contains(", level ")
            && if black {
                thread.name.contains(" vs alice · ")
            } else {
                thread.name.starts_with("alice vs ")
            },
        "{}",
        thread.name
    );
    assert_eq!(thread.auto_archive, 1440, "a day while playing");
    // The answer, edited once the game began, links to the thread.
    let edit = format!("/webhooks/{APP_ID}/{token}/messages/@original");
    let edited = w
        .fake
        .wait_request("the answer linking the thread", from, |r| {
            r.method == Method::PATCH && r.path == edit
        })
        .await;
    let linked = edited.json.as_ref().unwrap()["content"].to_string();
    assert!(linked.contains(&format!("<#{message}>")), "{linked}");
    assert!(
        w.fake
            .posts_in(CHANNEL)
            .iter()
            .all(|r| r.file("board.png").is_none()),
        "no board in the channel"
    );
    w.play_in(Channel::thread(message, CHANNEL));
    let after = w.fake.request_count().max(board.n + 1);
    (board, after)
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
    let _serial = support::serial::time_window();
    let w = World::start("play", vec![("CAJITAS_ENGINE_PROCESSES", "1".into())]).await;
    // Nothing finished here yet: nothing to analyse.
    assert_refused(
        &w.cmd(&alice(), "en-US", "analysis", &[]).await,
        "nothing to analyse",
    );
    let (r, _) = play_in_thread(&w, &[("level", json!(4)), ("colour", json!(0))]).await;
    let black = field(&r, "Black").unwrap();
    assert!(
        black.contains("Stockfish") && black.contains("level 4"),
        "{black}"
    );
    assert!(r.text().contains("Unrated"), "{}", r.text());

    // The person moves; the engine answers with a post in the game's thread.
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
        .wait_for("the analysis", Duration::from_secs(300), |f| {
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
    let _serial = support::serial::time_window();
    // The fake engine, White, never answers its first search: the bot is killed while it
    // "thinks" (and holds the move's claim), then restarted with an engine that answers.
    let (dir, mut env) = fake_engine("restart", "hang\n");
    env.push(("CAJITAS_ENGINE_PROCESSES", "1".into()));
    let mut w = World::start("restart", env).await;
    let (_, after_board) = play_in_thread(&w, &[("level", json!(8)), ("colour", json!(1))]).await;
    let searched = dir.join("script.count");
    let until = std::time::Instant::now() + Duration::from_secs(20);
    while !searched.exists() {
        assert!(
            std::time::Instant::now() < until,
            "the engine never searched"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    w.bot().signal("KILL");
    w.bot_mut().wait_exit(Duration::from_secs(10));
    w.bot = None;
    let before = w.fake.request_count();
    let thread = w.channel().id;
    assert!(
        w.fake
            .find_request(after_board, |r| {
                r.method == Method::POST && r.path.ends_with("/messages")
            })
            .is_none(),
        "a hanging engine cannot have moved"
    );
    std::fs::write(dir.join("script"), "ok\n").unwrap();
    w.restart().await;
    // At once (the dead process's claim on the move is its own file's, forgotten at the
    // start), the catch-up move goes to the game's thread.
    let post = w.fake.post_to(thread, before).await;
    assert!(post.file("board.png").is_some());
    let footer = post.json.as_ref().unwrap()["embeds"][0]["footer"]["text"].to_string();
    assert!(
        footer.contains("ply 1"),
        "the engine's first move: {footer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_that_fails_twice_is_announced_in_the_embed_and_retried_on_the_next_command() {
    let _serial = support::serial::time_window();
    // The fake engine crashes on its first two searches, then plays.
    let (dir, env) = fake_engine("fails", "crash\ncrash\nok\n");
    let w = World::start("engine-fails", env).await;
    play_in_thread(&w, &[("level", json!(5)), ("colour", json!(0))]).await;
    let n = w.fake.request_count();
    w.mv(&alice(), "en-US", "e4").await;
    // The wait is announced in the game's thread: in the embed, to the person, with the
    // board.
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
    // The person's next command (any, here /board, typed in the channel: it is answered
    // in the thread) makes the engine try again: it plays, in the thread.
    let n = w.fake.request_count();
    let b = w.cmd_in(&w.parent(), &alice(), "en-US", "board", &[]).await;
    assert!(b.is_ephemeral(), "{}", b.text());
    let moved = w
        .fake
        .wait_request("the engine's move in the thread", n, |r| {
            r.method == Method::POST
                && r.path == format!("/channels/{}/messages", w.channel().id)
                && r.json.as_ref().is_some_and(|j| {
                    j["embeds"][0]["footer"]["text"]
                        .as_str()
                        .is_some_and(|f| f.ends_with("ply 2"))
                })
        })
        .await;
    let footer = moved.json.as_ref().unwrap()["embeds"][0]["footer"]["text"].to_string();
    assert!(
        footer.contains('2'),
        "the engine's reply is ply 2: {footer}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// 40 plies of a game between two people.
const LINE: [&str; 40] = [
    "a3", "a6", "b3", "b6", "c3", "c6", "d3", "d6", "e3", "e6", "f3", "f6", "g3", "g6", "h3", "h6",
    "a4", "a5", "b4", "b5", "c4", "c5", "d4", "d5", "e4", "e5", "f4", "f5", "g4", "g5", "h4", "h5",
    "Nc3", "Nc6", "Nf3", "Nf6", "Ne2", "Ne7", "Ra2", "Ra7",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_reply_shows_its_progress_at_most_every_two_seconds() {
    if !have_engine("the_analysis_reply_shows_its_progress_at_most_every_two_seconds") {
        return;
    }
    let _serial = support::serial::time_window();
    let w = World::start(
        "analysis-progress",
        vec![("CAJITAS_ENGINE_PROCESSES", "1".into())],
    )
    .await;
    // 40 plies between two people (about 4 s of analysis on a quiet machine), then a
    // resignation.
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
        .wait_for("the analysis", Duration::from_secs(300), |f| {
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

/// `/analysis` typed by bob in `ch`: the final answer's embed (the analysis found a game),
/// in an edit of the deferred reply or, for a game analysed before, in the answer itself.
async fn analysis_in(w: &World, ch: &Channel) -> serde_json::Value {
    let payload = ch.command(&w.fake, &bob(), "en-US", "analysis", &[], &[]);
    let n = w.fake.request_count();
    let callback = w.fake.send_interaction(&payload);
    let (done, _) = analysis_answer(w, &payload, n, Duration::from_secs(300)).await;
    let _ = callback.await.unwrap();
    done.embeds()[0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_is_played_in_its_thread_and_ends_with_the_summary() {
    let _serial = support::serial::time_window();
    let (dir, env) = fake_engine("thread", "ok\n");
    let w = World::start("engine-thread", env).await;
    play_in_thread(&w, &[("level", json!(5)), ("colour", json!(0))]).await;
    let thread = w.channel();

    // A move in the thread: the engine answers there.
    let n = w.fake.request_count();
    assert_public_board(&w.mv(&alice(), "en-US", "e4").await);
    let reply = w.fake.post_to(thread.id, n).await;
    assert!(reply.file("board.png").is_some());
    let footer = reply.json.as_ref().unwrap()["embeds"][0]["footer"]["text"].to_string();
    assert!(footer.contains("ply 2"), "{footer}");

    // A move typed in the channel: the person's one game, answered in its thread, where
    // the engine answers too.
    let n = w.fake.request_count();
    let routed = w
        .cmd_in(
            &w.parent(),
            &alice(),
            "en-US",
            "move",
            &[("move", json!("d4"))],
        )
        .await;
    assert!(routed.is_ephemeral(), "{}", routed.text());
    assert!(
        routed.text().contains(&format!("<#{}>", thread.id)),
        "{}",
        routed.text()
    );
    let engine_reply = w
        .fake
        .wait_request("the engine's second move", n, |r| {
            r.method == Method::POST
                && r.path == format!("/channels/{}/messages", thread.id)
                && r.json.as_ref().is_some_and(|j| {
                    j["embeds"][0]["footer"]["text"]
                        .as_str()
                        .is_some_and(|f| f.ends_with("ply 4"))
                })
        })
        .await;
    assert!(engine_reply.file("board.png").is_some());
    assert!(
        w.fake
            .posts_in(CHANNEL)
            .iter()
            .all(|r| r.file("board.png").is_none()),
        "no board in the channel"
    );

    // The person resigns in the thread: the channel gets the one-line summary with the
    // link, and the thread archives an hour after its last message.
    let n = w.fake.request_count();
    let ask = w.cmd(&alice(), "en-US", "resign", &[]).await;
    let resigned = w.click(&alice(), &ask, &ask.custom_ids()[0]).await;
    assert!(resigned.text().contains("resigned"), "{}", resigned.text());
    let summary = w.fake.post_to(CHANNEL, n).await;
    let text = summary.json.as_ref().unwrap()["content"].to_string();
    assert!(
        text.contains(FAKE_NAME) && text.contains(&format!("<#{}>", thread.id)),
        "{text}"
    );
    w.fake
        .wait_for(
            "the thread's shorter archiving",
            Duration::from_secs(10),
            |f| f.thread(thread.id).filter(|t| t.auto_archive == 60),
        )
        .await;

    // /analysis finds the game, typed in its thread or in the channel.
    for ch in [thread.clone(), w.parent()] {
        let embed = analysis_in(&w, &ch).await;
        let title = embed["title"].as_str().unwrap();
        assert!(
            title.contains("alice") && title.contains(FAKE_NAME),
            "{title} (typed in {})",
            ch.id
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_thread_permission_a_game_against_the_computer_is_played_in_the_channel() {
    let _serial = support::serial::time_window();
    let (dir, env) = fake_engine("no-thread", "ok\n");
    let w = World::start("engine-no-thread", env).await;
    w.fake.deny_threads(CHANNEL);
    let payload = w.parent().command(
        &w.fake,
        &alice(),
        "en-US",
        "play",
        &[("level", json!(2)), ("colour", json!(0))],
        &[],
    );
    let token = payload["token"].as_str().unwrap().to_string();
    let from = w.fake.request_count();
    w.fake.interact(&payload).await;
    // The answer becomes the game's first board, saying why it is played here.
    let edit = format!("/webhooks/{APP_ID}/{token}/messages/@original");
    let board = w
        .fake
        .wait_request("the first board", from, |r| {
            r.method == Method::PATCH && r.path == edit
        })
        .await;
    assert!(board.file("board.png").is_some(), "{:?}", board.json);
    let content = board.json.as_ref().unwrap()["content"].to_string();
    assert!(content.contains("cannot open threads"), "{content}");
    assert!(w.fake.threads().is_empty());
    // The engine answers in the channel.
    let n = w.fake.request_count();
    assert_public_board(&w.mv(&alice(), "en-US", "e4").await);
    let reply = channel_post(&w, n).await;
    assert!(reply.file("board.png").is_some());
    // A second game here: refused, and the answer announcing it goes.
    let again = w
        .parent()
        .command(&w.fake, &alice(), "en-US", "play", &[], &[]);
    let again_token = again["token"].as_str().unwrap().to_string();
    let n = w.fake.request_count();
    w.fake.interact(&again).await;
    w.fake
        .wait_request("the opening answer deleted", n, |r| {
            r.method == Method::DELETE
                && r.path == format!("/webhooks/{APP_ID}/{again_token}/messages/@original")
        })
        .await;
    let refusal = w.fake.followup(&again_token, n).await;
    let json = refusal.json.clone().unwrap();
    assert_eq!(json["flags"], json!(64), "ephemeral: {json}");
    assert!(
        json["content"].as_str().unwrap().contains("in progress"),
        "{json}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_engine_is_retried_by_the_timer_and_moves_in_the_games_thread() {
    use cajitas::engine::{EngineCommand, EnginePlayer, Pool, PoolConfig};
    use cajitas::game::{ChannelRef, ColourChoice, GameService, Lang, Place, ServiceOptions};

    let _serial = support::serial::time_window();
    const THREAD: u64 = 1_200_000_000_000_000_777;
    // Two failed searches (the game waits, announced), two more at the first retry (still
    // waiting, not announced again), then a move at the next.
    let (dir, env) = fake_engine("retry", "crash\ncrash\ncrash\ncrash\nok\n");
    let fake = support::fake_discord::FakeDiscord::start(5_000).await;
    let http = serenity::HttpBuilder::new("MTAw.fake00.fakefakefake")
        .proxy(fake.base.as_str())
        .ratelimiter_disabled(true)
        .build();
    let notifier = cajitas::discord::DiscordNotifier::new(
        Arc::new(http),
        cajitas::render::default_renderer(),
        tokio::runtime::Handle::current(),
    );
    let db = dir.join("cajitas.db");
    let player = EnginePlayer::prepare();
    let svc = GameService::open(
        &db,
        ServiceOptions {
            notifier: Arc::new(notifier),
            engine_turns: Some(player.turns()),
            ..ServiceOptions::default()
        },
    )
    .unwrap();
    let pool = Pool::new(PoolConfig {
        command: EngineCommand {
            program: env[0].1.clone().into(),
            args: vec![env[1].1.clone()],
            nice: false,
        },
        processes: 1,
        hash_mb: 16,
        threads: 1,
        margin: Duration::from_secs(2),
    });
    let player = player.start(svc.clone(), pool, Duration::from_millis(300));
    let ana = cajitas::game::UserRef::new(alice().id, "alice", false);
    let (s, a) = (svc.clone(), ana.clone());
    let id = tokio::task::spawn_blocking(move || {
        let channel = ChannelRef::new(Some(GUILD_ID), CHANNEL);
        let v = s
            .engine()
            .play_engine_at(
                &a,
                Place::with_threads(channel),
                5,
                ColourChoice::White,
                Lang::En,
                Some(THREAD),
            )
            .unwrap();
        assert_eq!((v.thread, v.channel), (Some(THREAD), CHANNEL));
        s.play()
            .play_move(
                &a,
                ChannelRef::new(Some(GUILD_ID), THREAD),
                "e4",
                Lang::En,
                false,
            )
            .unwrap();
        v.game_id
    })
    .await
    .unwrap();
    let waits = fake.post_to(THREAD, 0).await;
    let description = waits.json.as_ref().unwrap()["embeds"][0]["description"].to_string();
    assert!(
        description.contains("engine is unavailable"),
        "{description}"
    );
    let moved = fake.post_to(THREAD, waits.n + 1).await;
    let footer = moved.json.as_ref().unwrap()["embeds"][0]["footer"]["text"].to_string();
    assert!(
        footer.ends_with("ply 2\""),
        "one announcement, then the move: {footer}"
    );
    assert!(fake.posts_in(CHANNEL).is_empty(), "nothing in the channel");
    assert!(!player.is_waiting(id));
    let ply = tokio::task::spawn_blocking(move || svc.queries().game(id).unwrap().ply)
        .await
        .unwrap();
    assert_eq!(ply, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The answer to `payload` with the analysis chart: the callback itself, or an edit of the
/// deferred reply; and the edits before it.
async fn analysis_answer(
    w: &World,
    payload: &serde_json::Value,
    n: usize,
    within: Duration,
) -> (Recorded, Vec<Recorded>) {
    let token = payload["token"].as_str().unwrap().to_string();
    let edit = format!("/webhooks/{APP_ID}/{token}/messages/@original");
    let callback = format!(
        "/interactions/{}/{token}/callback",
        payload["id"].as_str().unwrap()
    );
    let is_ours =
        |r: &Recorded| (r.method == Method::PATCH && r.path == edit) || r.path == callback;
    let done = w
        .fake
        .wait_for("the analysis", within, |f| {
            f.requests()
                .into_iter()
                .skip(n)
                .find(|r| is_ours(r) && r.files.iter().any(|f| f.filename == "analysis.png"))
        })
        .await;
    let before = w
        .fake
        .requests()
        .into_iter()
        .skip(n)
        .filter(|r| is_ours(r) && r.n < done.n)
        .collect();
    (done, before)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_wait_their_turn_one_per_person_and_a_game_analysed_once_answers_at_once() {
    if !have_engine(
        "analyses_wait_their_turn_one_per_person_and_a_game_analysed_once_answers_at_once",
    ) {
        return;
    }
    let _serial = support::serial::time_window();
    let w = World::start(
        "analysis-queue",
        vec![
            ("CAJITAS_ENGINE_PROCESSES", "1".into()),
            ("CAJITAS_ANALYSES", "1".into()),
            ("CAJITAS_ANALYSIS_NODES", "50000".into()),
        ],
    )
    .await;
    w.start_game().await;
    for (i, m) in LINE.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        assert_public_board(&w.mv(&who, "en-US", m).await);
    }
    let ask = w.cmd(&alice(), "en-US", "resign", &[]).await;
    w.click(&alice(), &ask, &ask.custom_ids()[0]).await;

    // Bob asks first: his analysis runs.
    let n = w.fake.request_count();
    let bob_asked = std::time::Instant::now();
    let bobs = w
        .channel()
        .command(&w.fake, &bob(), "en-US", "analysis", &[], &[]);
    let bob_callback = w.fake.send_interaction(&bobs);
    assert_eq!(bob_callback.await.unwrap().callback_type(), Some(5));
    // Bob again while his runs: refused, privately.
    let again = w.cmd(&bob(), "en-US", "analysis", &[]).await;
    assert!(again.is_ephemeral(), "{}", again.text());
    assert!(
        again
            .text()
            .contains("already have an analysis in progress"),
        "{}",
        again.text()
    );
    // Alice asks meanwhile: hers waits its turn and says so.
    let n_alice = w.fake.request_count();
    let alices = w
        .channel()
        .command(&w.fake, &alice(), "en-US", "analysis", &[], &[]);
    let alice_callback = w.fake.send_interaction(&alices);
    assert_eq!(alice_callback.await.unwrap().callback_type(), Some(5));
    let (bob_done, _) = analysis_answer(&w, &bobs, n, Duration::from_secs(300)).await;
    let bobs_took = bob_asked.elapsed();
    let (alice_done, alice_edits) =
        analysis_answer(&w, &alices, n_alice, Duration::from_secs(300)).await;
    assert!(
        alice_edits
            .iter()
            .any(|r| r.content().contains("Your analysis is next")),
        "alice was not told her place: {:?}",
        alice_edits
            .iter()
            .map(Recorded::content)
            .collect::<Vec<_>>()
    );
    // The same game at the same budget: the same report.
    assert_eq!(bob_done.embeds(), alice_done.embeds());
    // Carol asks once both are done: the stored report answers at once, with no progress.
    let n_carol = w.fake.request_count();
    let carols = w.channel().command(
        &w.fake,
        &support::world::carol(),
        "en-US",
        "analysis",
        &[],
        &[],
    );
    let t0 = std::time::Instant::now();
    let carol_callback = w.fake.send_interaction(&carols);
    let (carol_done, carol_edits) =
        analysis_answer(&w, &carols, n_carol, Duration::from_secs(10)).await;
    let _ = carol_callback.await;
    // No engine: far quicker than bob's analysis of the same game was (a ratio, not a
    // deadline, so that a busy machine slows both alike).
    assert!(
        t0.elapsed() < bobs_took / 2,
        "{:?} against {bobs_took:?}",
        t0.elapsed()
    );
    assert!(
        carol_edits
            .iter()
            .all(|r| !r.content().starts_with("Analysing")),
        "a stored report needs no engine"
    );
    assert_eq!(carol_done.embeds(), bob_done.embeds());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rematch_of_a_game_against_the_computer_is_a_new_game_colours_swapped() {
    let _serial = support::serial::time_window();
    let (dir, env) = fake_engine("rematch", "ok\n");
    let w = World::start("engine-rematch", env).await;
    play_in_thread(&w, &[("level", json!(5)), ("colour", json!(0))]).await;
    let thread = w.channel();
    let n = w.fake.request_count();
    assert_public_board(&w.mv(&alice(), "en-US", "e4").await);
    w.fake.post_to(thread.id, n).await;
    let ask = w.cmd(&alice(), "en-US", "resign", &[]).await;
    let resigned = w.click(&alice(), &ask, &ask.custom_ids()[0]).await;
    let rematch = resigned
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("cj:rm:"))
        .expect("a Rematch button");

    // Rematch: a new game at the same level, alice Black, in a thread of its own opened on
    // a post in the channel; no challenge to the computer.
    let from = w.fake.request_count();
    let answer = w.click(&alice(), &resigned, &rematch).await;
    assert!(answer.is_ephemeral(), "{}", answer.text());
    let opening = w
        .fake
        .wait_request("the new game's opening post", from, |r| {
            r.method == Method::POST
                && r.path == format!("/channels/{CHANNEL}/messages")
                && r.text().contains("plays the computer")
        })
        .await;
    let message = opening.message_id.expect("a message");
    assert!(
        answer.text().contains(&format!("<#{message}>")),
        "{}",
        answer.text()
    );
    let new_thread = w
        .fake
        .thread(message)
        .expect("a thread on the opening post");
    assert!(
        new_thread
            .name
            .starts_with(&format!("{FAKE_NAME}, level 5 vs alice · ")),
        "{}",
        new_thread.name
    );
    let board = w.fake.post_to(message, from).await;
    assert_public_board(&board);
    let white = field(&board, "White").unwrap_or_default();
    assert!(white.contains(FAKE_NAME) && white.contains('5'), "{white}");
    assert_eq!(
        field(&board, "Black").as_deref(),
        Some(alice().mention().as_str())
    );
    // The computer, White, moves first, in the new thread.
    w.fake
        .wait_request("the computer's first move", from, |r| {
            r.method == Method::POST
                && r.path == format!("/channels/{message}/messages")
                && r.json.as_ref().is_some_and(|j| {
                    j["embeds"][0]["footer"]["text"]
                        .as_str()
                        .is_some_and(|f| f.ends_with("ply 1"))
                })
        })
        .await;
    assert!(
        !w.fake
            .posts_in(CHANNEL)
            .iter()
            .any(|p| p.custom_ids().iter().any(|id| id.starts_with("cj:ca:"))),
        "no challenge was posted"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
