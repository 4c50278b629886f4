//! End-to-end: moves typed as plain messages (CAJITAS_MESSAGE_MOVES=1), off by default.

mod support;

use support::fake_discord::Recorded;
use support::world::{World, alice, assert_public_board, bob, carol, field};

/// The bot's posts where the game is played (its thread), after the game's first board.
fn channel_posts(w: &World) -> Vec<Recorded> {
    let path = format!("/channels/{}/messages", w.channel().id);
    let mut posts: Vec<Recorded> = w
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == path)
        .collect();
    if w.channel().parent.is_some() {
        posts.remove(0);
    }
    posts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn message_moves_are_played_and_chatter_is_ignored() {
    let w = World::start("messages", vec![("CAJITAS_MESSAGE_MOVES", "1".into())]).await;
    w.start_game().await;
    let say = |user, text: &str| {
        let m = w.channel().message(&w.fake, &user, text);
        w.fake.dispatch("MESSAGE_CREATE", m);
    };
    let from = w.fake.request_count();
    say(alice(), "e4");
    let post = w.fake.post_to(w.channel().id, from).await;
    let post = Recorded {
        json: Some(serde_json::json!({"type": 4, "data": post.json.clone().unwrap()})),
        path: "/interactions/0/0/callback".into(),
        ..post
    };
    assert_public_board(&post);
    assert!(post.text().contains("e4"), "{}", post.text());

    // Chatter, a move by someone not playing, and a move out of turn: all ignored, silently.
    say(bob(), "good luck!");
    say(carol(), "e5");
    say(alice(), "d4");
    let board = w.cmd(&bob(), "en-US", "board", &[]).await;
    assert_eq!(field(&board, "Last move").as_deref(), Some("e4"));
    assert_eq!(channel_posts(&w).len(), 1);
    say(bob(), "e7e5");
    let second = w
        .fake
        .wait_for("bob's move", std::time::Duration::from_secs(20), |_| {
            channel_posts(&w).get(1).cloned()
        })
        .await;
    // The second post is bob's move, played as e5, and nothing else was posted.
    assert_eq!(
        field(&second, "Last move").as_deref(),
        Some("e5"),
        "{}",
        second.text()
    );
    assert_eq!(channel_posts(&w).len(), 2);
    let board = w.cmd(&alice(), "en-US", "board", &[]).await;
    assert_eq!(field(&board, "Last move").as_deref(), Some("e5"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn message_moves_are_off_by_default() {
    let w = World::start("nomessages", vec![]).await;
    w.start_game().await;
    let m = w.channel().message(&w.fake, &alice(), "e4");
    let id = m["id"].as_str().unwrap().to_owned();
    w.fake.dispatch("MESSAGE_CREATE", m);
    // Events are handled concurrently: wait until the bot says it let this message be.
    w.fake
        .wait_for(
            "the message handled",
            std::time::Duration::from_secs(20),
            |_| {
                w.bot()
                    .log_text()
                    .lines()
                    .any(|l| l.contains("message not read") && l.contains(&id))
                    .then_some(())
            },
        )
        .await;
    let board = w.cmd(&bob(), "en-US", "board", &[]).await;
    assert_eq!(field(&board, "Last move").as_deref(), Some("—"));
    assert!(channel_posts(&w).is_empty());
}
