//! The Discord side of the outbound port: a post made by a test (no interaction), through the
//! real notifier, against the fake Discord.

mod support;

use std::sync::Arc;

use cajitas::discord::DiscordNotifier;
use cajitas::game::{
    ChannelRef, GameService, Notice, NoticeKind, Notifier, ServiceOptions, UserRef,
};
use poise::serenity_prelude as serenity;
use support::fake_discord::FakeDiscord;

const CHANNEL: u64 = 1_200_000_000_000_000_077;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_becomes_a_channel_message_with_the_board() {
    let fake = FakeDiscord::start(500).await;
    let http = serenity::HttpBuilder::new("MTAw.fake00.fakefakefake")
        .proxy(fake.base.as_str())
        .ratelimiter_disabled(true)
        .build();
    let notifier = Arc::new(DiscordNotifier::new(
        Arc::new(http),
        cajitas::render::default_renderer(),
        tokio::runtime::Handle::current(),
    ));
    let opts = ServiceOptions {
        notifier: notifier.clone(),
        ..ServiceOptions::default()
    };
    let ch = ChannelRef {
        guild: Some(1),
        channel: CHANNEL,
    };
    let (alice, bob) = (
        UserRef::new(900_000_000_000_000_001, "alice", false),
        UserRef::new(900_000_000_000_000_002, "bob", false),
    );
    // The service and the notifier block: off the runtime's workers.
    let view = tokio::task::spawn_blocking(move || {
        let svc = GameService::open_in_memory(opts).unwrap();
        svc.challenges()
            .start_game(&alice, &bob, ch, &cajitas_rules::Position::new())
            .unwrap();
        let view = svc.announce(ch).unwrap();
        // A notice with a nonce carries it, enforced.
        notifier
            .post(&Notice {
                place: ch,
                kind: NoticeKind::GameState,
                game: view.clone(),
                mentions: vec![view.black.id],
                nonce: Some("cj1z".into()),
            })
            .unwrap();
        view
    })
    .await
    .unwrap();
    let posts: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == format!("/channels/{CHANNEL}/messages"))
        .collect();
    assert_eq!(posts.len(), 2, "{:?}", fake.requests());
    let first = &posts[0];
    assert_eq!(first.status, 200);
    let png = first.file("board.png").expect("the board is attached");
    assert!(png.data.starts_with(b"\x89PNG"));
    let m = first.message();
    assert!(m["content"].as_str().unwrap().contains("to move"), "{m}");
    assert_eq!(m["embeds"].as_array().map(Vec::len), Some(1), "{m}");
    assert_eq!(m["allowed_mentions"]["parse"], serde_json::json!([]));
    assert_eq!(
        m["allowed_mentions"]["users"],
        serde_json::json!([view.white.id.to_string(), view.black.id.to_string()])
    );
    assert!(m.get("nonce").is_none_or(|n| n.is_null()), "{m}");
    let second = posts[1].message();
    assert_eq!(second["nonce"], "cj1z");
    assert_eq!(second["enforce_nonce"], true);
    assert_eq!(
        second["allowed_mentions"]["users"],
        serde_json::json!([view.black.id.to_string()])
    );
}
