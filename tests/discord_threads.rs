//! End to end (issue 15): a thread per game, opened on the challenge message; two games in
//! one channel that do not see each other; commands typed in the channel; the summary, the
//! GIF and the Rematch button at the end; archived threads; the fallback without the
//! permission; challenges in threads; and the fake's own refusals.

mod support;

use std::time::{Duration, Instant};

use axum::http::Method;
use serde_json::json;
use support::fake_discord::{Channel, Failure, FakeDiscord, FakeUser, Recorded};
use support::world::{
    CHANNEL, WHITE, World, alice, assert_public_board, assert_refused, bob, carol, field,
};

fn dave() -> FakeUser {
    FakeUser::new(900_000_000_000_000_004, "dave")
}

fn erin() -> FakeUser {
    FakeUser::new(900_000_000_000_000_005, "erin")
}

/// `white` challenges `black` in `ch`, playing white, a casual game (so that takebacks are
/// allowed; ratings are tested in `discord_ratings.rs`).
async fn challenge(w: &World, ch: &Channel, white: &FakeUser, black: &FakeUser) -> Recorded {
    let payload = ch.command(
        &w.fake,
        white,
        "en-US",
        "challenge",
        &[
            ("opponent", json!(black.id.to_string())),
            ("colour", json!(WHITE)),
            ("rated", json!(false)),
        ],
        &[black],
    );
    w.fake.interact(&payload).await
}

/// `white` challenges `black` in the channel, `black` types /accept: the game's thread is
/// opened on the challenge message and gets the first board. Returns the thread.
async fn game_in_thread(w: &World, white: &FakeUser, black: &FakeUser) -> Channel {
    let c = challenge(w, &w.parent(), white, black).await;
    assert!(!c.is_ephemeral(), "{}", c.text());
    let message = c.message_id.expect("the challenge is a message");
    let from = w.fake.request_count();
    let acc = w.cmd_in(&w.parent(), black, "en-US", "accept", &[]).await;
    assert!(!acc.is_ephemeral(), "{}", acc.text());
    assert!(
        acc.text().contains(&format!("<#{message}>")),
        "{}",
        acc.text()
    );
    let thread = w
        .fake
        .thread(message)
        .expect("a thread on the challenge message");
    assert_eq!(thread.parent, CHANNEL);
    // White first, each as the server shows them (a nickname, else the display name).
    let shown = |u: &FakeUser| u.nick.clone().unwrap_or_else(|| u.name.clone());
    assert!(
        thread
            .name
            .starts_with(&format!("{} vs {} · ", shown(white), shown(black))),
        "{}",
        thread.name
    );
    assert_eq!(thread.auto_archive, 1440, "a day while playing");
    let board = w.fake.post_to(message, from).await;
    assert_public_board(&board);
    assert!(board.text().contains(&white.mention()), "{}", board.text());
    Channel::thread(message, CHANNEL)
}

/// `/move text` typed by `user` in `ch`.
async fn mv(w: &World, ch: &Channel, user: &FakeUser, text: &str) -> Recorded {
    w.cmd_in(ch, user, "en-US", "move", &[("move", json!(text))])
        .await
}

/// The number of frames of a GIF, read by the `gif` crate's decoder.
fn gif_frames(bytes: &[u8]) -> usize {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut d = opts.read_info(std::io::Cursor::new(bytes)).expect("a GIF");
    let mut n = 0;
    while d.read_next_frame().expect("a frame").is_some() {
        n += 1;
    }
    n
}

/// The GIF attached to `r`, decoded: its frame count.
#[track_caller]
fn attached_gif_frames(r: &Recorded) -> usize {
    let gif = r
        .file("game.gif")
        .unwrap_or_else(|| panic!("no game.gif in {:?}", r.attachments()));
    assert!(gif.data.starts_with(b"GIF89a"), "not a GIF");
    gif_frames(&gif.data)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_in_one_channel_each_in_its_thread_never_see_each_other() {
    let w = World::start("two-games", vec![]).await;
    let t1 = game_in_thread(&w, &alice(), &bob()).await;
    // A second pair, at the same time, in the same channel.
    let t2 = game_in_thread(&w, &carol(), &dave()).await;
    assert_ne!(t1.id, t2.id);
    for (ch, user, text) in [
        (&t1, alice(), "e4"),
        (&t2, carol(), "d4"),
        (&t1, bob(), "e5"),
        (&t2, dave(), "d5"),
        (&t2, carol(), "c4"),
    ] {
        let r = mv(&w, ch, &user, text).await;
        assert_public_board(&r);
        assert!(r.text().contains(text), "{}", r.text());
    }
    // The wrong thread: not their game.
    assert_refused(&mv(&w, &t2, &alice(), "Nf3").await, "not playing");

    // Typed in the channel: the person's one game; the board goes to its thread, the answer
    // is an ephemeral link.
    let from = w.fake.request_count();
    let routed = mv(&w, &w.parent(), &alice(), "Nf3").await;
    assert!(routed.is_ephemeral(), "{}", routed.text());
    assert!(
        routed.text().contains(&format!("<#{}>", t1.id)),
        "{}",
        routed.text()
    );
    let board = w.fake.post_to(t1.id, from).await;
    assert_public_board(&board);
    assert_eq!(field(&board, "Last move").as_deref(), Some("Nf3"));
    // /board typed in the channel by dave: his game, shown in his thread.
    let from = w.fake.request_count();
    let b = w.cmd_in(&w.parent(), &dave(), "en-US", "board", &[]).await;
    assert!(b.is_ephemeral(), "{}", b.text());
    let shown = w.fake.post_to(t2.id, from).await;
    assert_eq!(field(&shown, "Last move").as_deref(), Some("c4"));
    // Someone with no game there gets the links to the threads.
    let none = mv(&w, &w.parent(), &erin(), "e4").await;
    assert_refused(&none, &format!("<#{}>", t1.id));
    assert!(
        none.text().contains(&format!("<#{}>", t2.id)),
        "{}",
        none.text()
    );

    // Neither thread saw the other game: no message in one names the other pair.
    for (thread, others) in [(&t1, [carol(), dave()]), (&t2, [alice(), bob()])] {
        let posts = w.fake.posts_in(thread.id);
        assert!(posts.len() >= 3, "{posts:?}");
        for p in posts {
            for o in &others {
                assert!(
                    !p.text().contains(&o.mention()),
                    "{} in {}",
                    o.name,
                    p.text()
                );
            }
        }
    }
    // The channel itself got no board: the challenges and the answers to /accept only.
    for p in w.fake.posts_in(CHANNEL) {
        assert!(p.file("board.png").is_none(), "{}", p.text());
    }
    assert!(
        w.fake.unknown_requests().is_empty(),
        "{:?}",
        w.fake.unknown_requests()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_leaves_a_summary_a_gif_and_a_rematch_that_opens_a_new_thread() {
    let w = World::start("end", vec![]).await;
    let t = game_in_thread(&w, &alice(), &bob()).await;
    let moves = [
        (alice(), "e4"),
        (bob(), "e5"),
        (alice(), "Bc4"),
        (bob(), "Nc6"),
        (alice(), "Qh5"),
        (bob(), "Nf6"),
    ];
    for (user, text) in moves {
        assert_public_board(&mv(&w, &t, &user, text).await);
    }
    let from = w.fake.request_count();
    let last = mv(&w, &t, &alice(), "Qxf7#").await;
    assert_public_board(&last);
    assert!(last.text().contains("Checkmate"), "{}", last.text());
    // The final message: the analysis link, the Rematch button and the game as a GIF, one
    // frame per position (7 plies + the start).
    assert_eq!(last.link_urls().len(), 1, "{:?}", last.json);
    let rematch = last
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("cj:rm:"))
        .expect("a Rematch button");
    assert_eq!(attached_gif_frames(&last), 8);

    // The channel gets the one-line summary, with the thread's link; the thread then
    // archives an hour after its last message.
    let summary = w.fake.post_to(CHANNEL, from).await;
    assert_eq!(
        summary.content(),
        format!(
            "{} beat {} by checkmate in 4 moves · Bishop's Opening: <#{}>",
            alice().mention(),
            bob().mention(),
            t.id
        )
    );
    assert_eq!(summary.message()["allowed_mentions"]["users"], json!([]));
    w.fake
        .wait_for(
            "the thread's auto-archive at 60 min",
            std::time::Duration::from_secs(20),
            |f| (f.thread(t.id)?.auto_archive == 60).then_some(()),
        )
        .await;

    // bob asks for a rematch: a new challenge, colours swapped, posted in the channel.
    let from = w.fake.request_count();
    let asked = w
        .fake
        .interact(&t.click(&w.fake, &bob(), "en-US", &last, &rematch))
        .await;
    assert!(asked.is_ephemeral(), "{}", asked.text());
    assert!(
        asked.text().contains(&format!("<#{CHANNEL}>")),
        "{}",
        asked.text()
    );
    let posted = w.fake.post_to(CHANNEL, from).await;
    assert!(posted.text().contains("Rematch!"), "{}", posted.text());
    assert!(
        posted.text().contains(&alice().mention()),
        "{}",
        posted.text()
    );
    assert_eq!(
        posted.message()["allowed_mentions"]["users"],
        json!([alice().id.to_string()])
    );
    let ids = posted.custom_ids();
    assert_eq!(ids.len(), 2, "Accept and Decline: {ids:?}");
    // A second Rematch click while it waits: refused.
    let again = w
        .fake
        .interact(&t.click(&w.fake, &bob(), "en-US", &last, &rematch))
        .await;
    assert!(again.is_ephemeral(), "{}", again.text());
    assert_eq!(
        w.fake
            .posts_in(CHANNEL)
            .iter()
            .filter(|p| p.text().contains("Rematch!"))
            .count(),
        1
    );

    // alice accepts with the button: the new game's thread opens on that message, bob white.
    let from = w.fake.request_count();
    let accepted = w
        .fake
        .interact(
            &w.parent()
                .click(&w.fake, &alice(), "en-US", &posted, &ids[0]),
        )
        .await;
    assert_eq!(accepted.callback_type(), Some(7), "{:?}", accepted.json);
    let new_thread = posted.message_id.unwrap();
    assert!(
        accepted.text().contains(&format!("<#{new_thread}>")),
        "{}",
        accepted.text()
    );
    assert_eq!(w.fake.thread(new_thread).unwrap().parent, CHANNEL);
    let board = w.fake.post_to(new_thread, from).await;
    assert_public_board(&board);
    assert_eq!(
        field(&board, "White").as_deref(),
        Some(bob().mention().as_str())
    );
    let t2 = Channel::thread(new_thread, CHANNEL);
    assert_public_board(&mv(&w, &t2, &bob(), "d4").await);
    assert!(
        w.fake.unknown_requests().is_empty(),
        "{:?}",
        w.fake.unknown_requests()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archived_threads_are_reopened_and_the_last_game_stays_reachable_from_the_channel() {
    let w = World::start("archived", vec![]).await;
    let t = game_in_thread(&w, &alice(), &bob()).await;
    assert_public_board(&mv(&w, &t, &alice(), "f3").await);
    // Archived (by time, or by a moderator) during the game: the next post reopens it.
    w.fake.archive_thread(t.id);
    let from = w.fake.request_count();
    let routed = mv(&w, &w.parent(), &bob(), "e5").await;
    assert!(routed.is_ephemeral(), "{}", routed.text());
    let board = w.fake.post_to(t.id, from).await;
    assert_eq!(field(&board, "Last move").as_deref(), Some("e5"));
    assert!(!w.fake.thread(t.id).unwrap().archived);
    assert!(
        w.fake
            .find_request(from, |r| r.method == "PATCH"
                && r.path == format!("/channels/{}", t.id)
                && r.json.as_ref().is_some_and(|j| j["archived"] == false))
            .is_some(),
        "reopened with PATCH archived=false"
    );
    assert_public_board(&mv(&w, &t, &alice(), "g4").await);
    let end = mv(&w, &t, &bob(), "Qh4#").await;
    assert_eq!(attached_gif_frames(&end), 5);

    // After the game the thread is archived: /pgn and /gif typed in the channel still
    // reach the game.
    w.fake.archive_thread(t.id);
    let pgn = w.cmd_in(&w.parent(), &alice(), "en-US", "pgn", &[]).await;
    let text = String::from_utf8(pgn.file("game.pgn").expect("game.pgn").data.clone()).unwrap();
    assert!(text.contains("2. g4 Qh4#"), "{text}");
    let gif = w.cmd_in(&w.parent(), &carol(), "en-US", "gif", &[]).await;
    assert!(!gif.is_ephemeral(), "{}", gif.text());
    assert_eq!(attached_gif_frames(&gif), 5);
    // /gif in the thread too, and during a game: plies + 1 frames.
    assert_eq!(
        attached_gif_frames(&w.cmd_in(&t, &bob(), "en-US", "gif", &[]).await),
        5
    );
    let t2 = game_in_thread(&w, &carol(), &dave()).await;
    assert_public_board(&mv(&w, &t2, &carol(), "e4").await);
    assert_eq!(
        attached_gif_frames(&w.cmd_in(&t2, &carol(), "en-US", "gif", &[]).await),
        2
    );
    // Nothing was posted into the archived thread.
    assert!(w.fake.thread(t.id).unwrap().archived);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_in_a_thread_accepted_and_one_refused_as_stale() {
    let w = World::start("thread-takeback", vec![]).await;
    let t = game_in_thread(&w, &alice(), &bob()).await;
    for (user, text) in [(alice(), "e4"), (bob(), "e5"), (alice(), "Nf3")] {
        assert_public_board(&mv(&w, &t, &user, text).await);
    }
    let ask = w.cmd_in(&t, &alice(), "en-US", "takeback", &[]).await;
    assert_public_board(&ask);
    let ids = ask.custom_ids();
    let accepted = w
        .fake
        .interact(&t.click(&w.fake, &bob(), "en-US", &ask, &ids[0]))
        .await;
    assert_eq!(accepted.callback_type(), Some(7), "{:?}", accepted.json);
    assert!(
        accepted.text().contains("one move taken back"),
        "{}",
        accepted.text()
    );
    assert_public_board(&mv(&w, &t, &alice(), "Nc3").await);
    // bob asks, then moves instead: the request is stale.
    let ask = w.cmd_in(&t, &bob(), "en-US", "takeback", &[]).await;
    let ids = ask.custom_ids();
    assert_public_board(&mv(&w, &t, &bob(), "Nc6").await);
    let stale = w
        .fake
        .interact(&t.click(&w.fake, &alice(), "en-US", &ask, &ids[0]))
        .await;
    assert_refused(&stale, "expired");
    let board = w.cmd_in(&t, &carol(), "en-US", "board", &[]).await;
    assert_eq!(field(&board, "Last move").as_deref(), Some("Nc6"));
    // Everything stayed in the thread.
    assert!(
        w.fake
            .posts_in(CHANNEL)
            .iter()
            .all(|p| p.file("board.png").is_none())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_thread_permission_games_are_played_in_the_channel_said_once() {
    let w = World::start("no-threads", vec![]).await;
    w.fake.deny_threads(CHANNEL);
    let ch = w.parent();
    assert!(!challenge(&w, &ch, &alice(), &bob()).await.is_ephemeral());
    let acc = w.cmd_in(&ch, &bob(), "en-US", "accept", &[]).await;
    assert_public_board(&acc);
    assert!(acc.text().contains("cannot open threads"), "{}", acc.text());
    let refused = w
        .fake
        .find_request(0, |r| r.path.ends_with("/threads"))
        .expect("the bot tried");
    assert_eq!(refused.status, 403);
    assert!(w.fake.threads().is_empty());
    // The game is the channel's, as before threads.
    assert_public_board(&mv(&w, &ch, &alice(), "e4").await);
    let ended = w.cmd_in(&ch, &bob(), "en-US", "abort", &[]).await;
    assert_public_board(&ended);
    // The next game there: no explanation again.
    assert!(!challenge(&w, &ch, &carol(), &dave()).await.is_ephemeral());
    let acc = w.cmd_in(&ch, &dave(), "en-US", "accept", &[]).await;
    assert_public_board(&acc);
    assert!(
        !acc.text().contains("cannot open threads"),
        "{}",
        acc.text()
    );
    // One game at a time in such a channel.
    assert!(!challenge(&w, &ch, &alice(), &bob()).await.is_ephemeral());
    assert_refused(
        &w.cmd_in(&ch, &bob(), "en-US", "accept", &[]).await,
        "already in progress",
    );
    // Without the permission in the interaction's app_permissions, the bot does not even
    // try: in another channel, a game starts in the channel, explained.
    let perms: u64 = "2248473465835073".parse::<u64>().unwrap() & !((1 << 35) | (1 << 38));
    let other = Channel::new(CHANNEL + 7).with_permissions(perms);
    let tries = w
        .fake
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/threads"))
        .count();
    assert!(
        !challenge(&w, &other, &erin(), &carol())
            .await
            .is_ephemeral()
    );
    let acc = w.cmd_in(&other, &carol(), "en-US", "accept", &[]).await;
    assert_public_board(&acc);
    assert!(acc.text().contains("cannot open threads"), "{}", acc.text());
    assert_eq!(
        w.fake
            .requests()
            .iter()
            .filter(|r| r.path.ends_with("/threads"))
            .count(),
        tries
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_inside_threads() {
    let w = World::start("in-threads", vec![]).await;
    let t = game_in_thread(&w, &alice(), &bob()).await;
    // In a game's thread: refused, with a link to the channel.
    let r = challenge(&w, &t, &carol(), &dave()).await;
    assert_refused(&r, &format!("<#{CHANNEL}>"));
    // In another thread (not a game's): the game is played there, without a new thread.
    let other = Channel::thread(1_350_000_000_000_000_001, CHANNEL);
    let threads = w.fake.threads().len();
    assert!(
        !challenge(&w, &other, &carol(), &dave())
            .await
            .is_ephemeral()
    );
    let acc = w.cmd_in(&other, &dave(), "en-US", "accept", &[]).await;
    assert_public_board(&acc);
    assert_eq!(w.fake.threads().len(), threads);
    assert_public_board(&mv(&w, &other, &carol(), "e4").await);
    // Several pending challenges in one channel: one per challenger, the buttons say which.
    let c1 = challenge(&w, &w.parent(), &alice(), &erin()).await;
    let c2 = challenge(&w, &w.parent(), &bob(), &erin()).await;
    assert!(!c1.is_ephemeral() && !c2.is_ephemeral());
    assert_refused(
        &challenge(&w, &w.parent(), &alice(), &carol()).await,
        "already waiting",
    );
    assert_refused(
        &w.cmd_in(&w.parent(), &erin(), "en-US", "accept", &[]).await,
        "several challenges",
    );
    let from = w.fake.request_count();
    let acc = w
        .fake
        .interact(
            &w.parent()
                .click(&w.fake, &erin(), "en-US", &c2, &c2.custom_ids()[0]),
        )
        .await;
    assert!(
        acc.text()
            .contains(&format!("<#{}>", c2.message_id.unwrap())),
        "{}",
        acc.text()
    );
    assert_public_board(&w.fake.post_to(c2.message_id.unwrap(), from).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_and_foreign_names_give_a_valid_thread_name_and_a_gif() {
    let w = World::start("names", vec![]).await;
    // Names Discord allows (32 characters), the font lacks (CJK, emoji).
    let a = FakeUser::new(
        900_000_000_000_000_011,
        "王小明王小明王小明王小明王小明王小明王小明王小明王小明王小明王小",
    );
    let b = FakeUser::new(
        900_000_000_000_000_012,
        "🐉🐉 dragon 🐉🐉 with a long long nam",
    );
    let t = game_in_thread(&w, &a, &b).await;
    let name = w.fake.thread(t.id).unwrap().name;
    assert!(name.chars().count() <= 100, "{name}");
    for (user, text) in [(&a, "f3"), (&b, "e5"), (&a, "g4"), (&b, "Qh4#")] {
        let r = mv(&w, &t, user, text).await;
        assert_public_board(&r);
        if text == "Qh4#" {
            assert_eq!(attached_gif_frames(&r), 5);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_refuses_what_discord_refuses() {
    use poise::serenity_prelude as serenity;
    let fake = FakeDiscord::start(500).await;
    let http = serenity::HttpBuilder::new("MTAw.fake00.fakefakefake")
        .proxy(fake.base.as_str())
        .ratelimiter_disabled(true)
        .build();
    let ch = serenity::ChannelId::new(CHANNEL);
    let m = ch
        .send_message(&http, serenity::CreateMessage::new().content("x"))
        .await
        .unwrap();
    let code = |e: serenity::Error| match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            (r.status_code.as_u16(), r.error.code)
        }
        other => panic!("{other:?}"),
    };
    let long = "x".repeat(101);
    let e = ch
        .create_thread_from_message(&http, m.id, serenity::CreateThread::new(long))
        .await
        .unwrap_err();
    assert_eq!(code(e), (400, 50035));
    let t = ch
        .create_thread_from_message(&http, m.id, serenity::CreateThread::new("a vs b"))
        .await
        .unwrap();
    assert_eq!(t.id.get(), m.id.get(), "the thread's id is the message's");
    let e = ch
        .create_thread_from_message(&http, m.id, serenity::CreateThread::new("again"))
        .await
        .unwrap_err();
    assert_eq!(code(e), (400, 160_004));
    // An unknown message, a withdrawn permission.
    let e = ch
        .create_thread_from_message(&http, 42u64, serenity::CreateThread::new("x"))
        .await
        .unwrap_err();
    assert_eq!(code(e), (404, 10008));
    let m2 = ch
        .send_message(&http, serenity::CreateMessage::new().content("y"))
        .await
        .unwrap();
    fake.deny_threads(CHANNEL);
    let e = ch
        .create_thread_from_message(&http, m2.id, serenity::CreateThread::new("x"))
        .await
        .unwrap_err();
    assert_eq!(code(e), (403, 50013));
    // An archived thread refuses posts until it is reopened.
    fake.archive_thread(t.id.get());
    let e =
        t.id.send_message(&http, serenity::CreateMessage::new().content("z"))
            .await
            .unwrap_err();
    assert_eq!(code(e), (400, 50083));
    t.id.edit_thread(&http, serenity::EditThread::new().archived(false))
        .await
        .unwrap();
    t.id.send_message(&http, serenity::CreateMessage::new().content("z"))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_notifier_posts_the_summary_winds_the_thread_down_and_attaches_the_gif() {
    use cajitas::discord::DiscordNotifier;
    use cajitas::game::{
        ChannelRef, ColourChoice, GameService, Lang, Place, ServiceOptions, UserRef,
    };
    use poise::serenity_prelude as serenity;
    use std::sync::Arc;

    let fake = FakeDiscord::start(500).await;
    let http = Arc::new(
        serenity::HttpBuilder::new("MTAw.fake00.fakefakefake")
            .proxy(fake.base.as_str())
            .ratelimiter_disabled(true)
            .build(),
    );
    // The challenge message and its thread, as the bot makes them.
    let ch = serenity::ChannelId::new(CHANNEL);
    let m = ch
        .send_message(&http, serenity::CreateMessage::new().content("challenge"))
        .await
        .unwrap();
    ch.create_thread_from_message(&http, m.id, serenity::CreateThread::new("alice vs bob"))
        .await
        .unwrap();
    let thread = m.id.get();
    let notifier = Arc::new(DiscordNotifier::new(
        http,
        cajitas::render::default_renderer(),
        tokio::runtime::Handle::current(),
    ));
    let opts = ServiceOptions {
        notifier,
        ..ServiceOptions::default()
    };
    let home = ChannelRef::new(Some(support::fake_discord::GUILD_ID), CHANNEL);
    let in_thread = ChannelRef::new(home.guild, thread);
    let (a, b) = (
        UserRef::new(alice().id, "alice", false),
        UserRef::new(bob().id, "bob", false),
    );
    let from = fake.request_count();
    tokio::task::spawn_blocking(move || {
        let svc = GameService::open_in_memory(opts).unwrap();
        let place = Place::with_threads(home);
        svc.challenges()
            .challenge(&a, place, Some(&b), ColourChoice::White)
            .unwrap();
        svc.challenges()
            .accept_at(&b, place, None, Lang::En, Some(thread))
            .unwrap();
        for (who, mv) in [(&a, "f3"), (&b, "e5"), (&a, "g4"), (&b, "Qh4#")] {
            let r = svc
                .play()
                .play_move(who, in_thread, mv, Lang::En, false)
                .unwrap();
            // The mate's summary, posted by its caller once it committed.
            svc.post_notices(r.notices);
        }
        // A post no interaction caused: the final board with its GIF.
        svc.announce(in_thread).unwrap();
    })
    .await
    .unwrap();
    let summary = fake.post_to(CHANNEL, from).await;
    assert_eq!(
        summary.content(),
        format!(
            "{} beat {} by checkmate in 2 moves · Barnes Opening: Fool's Mate: <#{thread}>",
            bob().mention(),
            alice().mention()
        )
    );
    assert_eq!(fake.thread(thread).unwrap().auto_archive, 60);
    let last = fake.post_to(thread, from).await;
    assert_public_board(&last);
    assert_eq!(attached_gif_frames(&last), 5);
    assert!(last.custom_ids().iter().any(|id| id.starts_with("cj:rm:")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_threads_off_every_game_is_played_in_its_channel() {
    let w = World::start("threads-off", vec![("CAJITAS_THREADS", "off".into())]).await;
    w.start_game().await;
    assert_eq!(w.channel().id, CHANNEL);
    assert_public_board(&w.mv(&alice(), "en-US", "e4").await);
    // One game at a time there, as before threads; nobody asked Discord for a thread.
    assert_refused(
        &challenge(&w, &w.parent(), &carol(), &dave()).await,
        "already in progress",
    );
    assert!(w.fake.threads().is_empty());
    assert!(
        w.fake
            .find_request(0, |r| r.path.ends_with("/threads"))
            .is_none()
    );
    let end = w.cmd(&bob(), "en-US", "resign", &[]).await;
    assert!(end.is_ephemeral(), "{}", end.text());
}

/// The PGN file attached to `r`.
#[track_caller]
fn attached_pgn(r: &Recorded) -> String {
    let file = r
        .file("game.pgn")
        .unwrap_or_else(|| panic!("no game.pgn in {}", r.text()));
    String::from_utf8(file.data.clone()).unwrap()
}

/// `white` and `black` play fool's mate in `t`, `black` mating; returns the final message.
async fn fools_mate(w: &World, t: &Channel, white: &FakeUser, black: &FakeUser) -> Recorded {
    for (user, text) in [(white, "f3"), (black, "e5"), (white, "g4")] {
        assert_public_board(&mv(w, t, user, text).await);
    }
    let last = mv(w, t, black, "Qh4#").await;
    assert_public_board(&last);
    last
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_typed_in_the_channel_reach_the_callers_own_game_never_another_pairs() {
    let w = World::start("own-game", vec![]).await;
    let frank = FakeUser::new(900_000_000_000_000_006, "frank");
    let gus = FakeUser::new(900_000_000_000_000_007, "gus");
    // alice and bob finish in their thread; carol and dave then start in theirs.
    let ab = game_in_thread(&w, &alice(), &bob()).await;
    fools_mate(&w, &ab, &alice(), &bob()).await;
    let cd = game_in_thread(&w, &carol(), &dave()).await;
    assert_public_board(&mv(&w, &cd, &carol(), "d4").await);
    // With one other game running, alice's /pgn and bob's /gif are their own game's.
    let pgn = w.cmd_in(&w.parent(), &alice(), "en-US", "pgn", &[]).await;
    assert!(attached_pgn(&pgn).contains("2. g4 Qh4#"), "{}", pgn.text());
    let gif = w.cmd_in(&w.parent(), &bob(), "en-US", "gif", &[]).await;
    assert_eq!(attached_gif_frames(&gif), 5);
    // With two, the same: no links to the other pairs' threads.
    let ef = game_in_thread(&w, &erin(), &frank).await;
    let pgn = w.cmd_in(&w.parent(), &alice(), "en-US", "pgn", &[]).await;
    assert!(attached_pgn(&pgn).contains("2. g4 Qh4#"), "{}", pgn.text());
    let board = w.cmd_in(&w.parent(), &alice(), "en-US", "board", &[]).await;
    assert_public_board(&board);
    assert_eq!(field(&board, "Last move").as_deref(), Some("Qh4#"));
    // A player of a game in progress gets theirs.
    let pgn = w.cmd_in(&w.parent(), &dave(), "en-US", "pgn", &[]).await;
    assert!(attached_pgn(&pgn).contains("1. d4"), "{}", pgn.text());
    // Someone who never played there: the links to the games in progress.
    let seen = w.cmd_in(&w.parent(), &gus, "en-US", "pgn", &[]).await;
    assert_refused(&seen, &format!("<#{}>", cd.id));
    assert!(
        seen.text().contains(&format!("<#{}>", ef.id)),
        "{}",
        seen.text()
    );
    assert!(
        !seen.text().contains(&format!("<#{}>", ab.id)),
        "{}",
        seen.text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threads_are_named_white_first_with_the_server_nicknames() {
    let w = World::start("thread-names", vec![]).await;
    let ali = alice().with_nick("Ali");
    let bobby = bob().with_nick("Bobby");
    // The server nicknames, White first (game_in_thread checks "Ali vs Bobby · ").
    let t = game_in_thread(&w, &ali, &bobby).await;
    let last = fools_mate(&w, &t, &ali, &bobby).await;
    let rematch = last
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("cj:rm:"))
        .expect("a Rematch button");
    // alice, who had White, asks for the rematch: she has Black now.
    let from = w.fake.request_count();
    let asked = w
        .fake
        .interact(&t.click(&w.fake, &ali, "en-US", &last, &rematch))
        .await;
    assert!(asked.is_ephemeral(), "{}", asked.text());
    let posted = w
        .fake
        .wait_request("the rematch challenge", from, |r| {
            r.method == Method::POST
                && r.path == format!("/channels/{CHANNEL}/messages")
                && r.text().contains("Rematch!")
        })
        .await;
    let ids = posted.custom_ids();
    let accepted = w
        .fake
        .interact(&w.parent().click(&w.fake, &bobby, "en-US", &posted, &ids[0]))
        .await;
    assert_eq!(accepted.callback_type(), Some(7), "{:?}", accepted.json);
    let new_thread = w.fake.thread(posted.message_id.unwrap()).unwrap();
    assert!(
        new_thread.name.starts_with("Bobby vs Ali · "),
        "{}",
        new_thread.name
    );

    // Colours left to chance: the thread names White first once the coin is tossed.
    let c = w
        .fake
        .interact(&w.parent().command(
            &w.fake,
            &carol(),
            "en-US",
            "challenge",
            &[
                ("opponent", json!(dave().id.to_string())),
                ("colour", json!(2)),
                ("rated", json!(false)),
            ],
            &[&dave()],
        ))
        .await;
    let message = c.message_id.expect("the challenge is a message");
    let from = w.fake.request_count();
    let acc = w.cmd_in(&w.parent(), &dave(), "en-US", "accept", &[]).await;
    assert!(!acc.is_ephemeral(), "{}", acc.text());
    let board = w.fake.post_to(message, from).await;
    let (white, black) = if field(&board, "White").as_deref() == Some(carol().mention().as_str()) {
        ("carol", "dave")
    } else {
        ("dave", "carol")
    };
    let want = format!("{white} vs {black} · ");
    w.fake
        .wait_for(
            "the thread named White first",
            Duration::from_secs(10),
            |f| f.thread(message).filter(|t| t.name.starts_with(&want)),
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mates_answer_comes_before_the_channel_summary_posted_once_and_retried() {
    let w = World::start("summary-after", vec![]).await;
    let t = game_in_thread(&w, &alice(), &bob()).await;
    for (user, text) in [(alice(), "f3"), (bob(), "e5"), (alice(), "g4")] {
        assert_public_board(&mv(&w, &t, &user, text).await);
    }
    // The channel's next post is slow (3 s), then fails.
    let channel_posts = format!("/channels/{CHANNEL}/messages");
    w.fake.fail_next(Failure {
        path_contains: channel_posts.clone(),
        status: 500,
        body: json!({"message": "500: Internal Server Error", "code": 0}),
        delay: Duration::from_secs(3),
    });
    let from = w.fake.request_count();
    let began = Instant::now();
    let last = mv(&w, &t, &bob(), "Qh4#").await;
    let waited = began.elapsed();
    assert_public_board(&last);
    assert!(last.text().contains("Checkmate"), "{}", last.text());
    assert!(
        waited < Duration::from_secs(3),
        "the answer waited {waited:?} for the channel's post"
    );
    // The summary: tried again after the failure, posted after the answer, once.
    let summary = w.fake.post_to(CHANNEL, from).await;
    assert!(summary.text().contains("beat"), "{}", summary.text());
    let tries: Vec<Recorded> = w
        .fake
        .requests()
        .into_iter()
        .skip(from)
        .filter(|r| r.method == Method::POST && r.path == channel_posts)
        .collect();
    assert_eq!(tries.len(), 2, "one failure, one success: {tries:?}");
    for r in &tries {
        assert!(
            r.n > last.n,
            "a channel post before the answer: {} < {}",
            r.n,
            last.n
        );
    }
    // The thread's archive edit after it.
    w.fake
        .wait_for(
            "the thread's auto-archive at 60 min",
            Duration::from_secs(20),
            |f| (f.thread(t.id)?.auto_archive == 60).then_some(()),
        )
        .await;
    let summaries = w
        .fake
        .created_messages(CHANNEL)
        .into_iter()
        .filter(|m| m["content"].as_str().is_some_and(|c| c.contains("beat")))
        .count();
    assert_eq!(summaries, 1);
}

// Issue 32: an arena of six played through the fake Discord in virtual time, to the podium.
// The service runs in this process on a manual clock and posts through the bot's real
// notifier: the start, each pairing (a line in the channel pinging both players, the game's
// thread opened on it, White first, the board in it, the game moved into the thread), every
// game played in its thread, and the final standings with the podium.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_of_six_through_discord_in_virtual_time_to_the_podium() {
    use std::sync::Arc;

    use cajitas::discord::DiscordNotifier;
    use cajitas::game::{
        ArenaTerms, ChannelRef, Clock, EventScope, GameService, Lang, ManualClock, ServiceOptions,
        SystemClock, TimeControl, UserRef,
    };
    use poise::serenity_prelude as serenity;
    use support::fake_discord::GUILD_ID;

    let fake = FakeDiscord::start(500).await;
    let dir = support::bot::TempDir::new("arena-e2e");
    let http = serenity::HttpBuilder::new("MTAw.fake00.fakefakefake")
        .proxy(fake.base.as_str())
        .ratelimiter_disabled(true)
        .build();
    let notifier = DiscordNotifier::new(
        Arc::new(http),
        cajitas::render::default_renderer(),
        tokio::runtime::Handle::current(),
    );
    let db = dir.path().join("cajitas.db");
    let users: Vec<UserRef> = (1..=6u64)
        .map(|i| UserRef::new(900_000_000_000_000_000 + i, &format!("player{i}"), false))
        .collect();
    let players = users.clone();
    let (threads_played, podium) = tokio::task::spawn_blocking(move || {
        let clock = Arc::new(ManualClock::new(SystemClock.now_ms()));
        let svc = GameService::open(
            &db,
            ServiceOptions {
                notifier: Arc::new(notifier),
                ..ServiceOptions::with_clock(clock.clone())
            },
        )
        .unwrap();
        let ch = ChannelRef {
            guild: Some(GUILD_ID),
            channel: CHANNEL,
        };
        let terms = ArenaTerms {
            minutes: 30,
            time: TimeControl::Live {
                base_secs: 180,
                increment_secs: 2,
            },
            rated: true,
            starts_in: Some(0),
            name: Some("Friday arena".into()),
        };
        svc.tournaments()
            .create_arena(&players[0], ch, &terms, Lang::En)
            .unwrap();
        for u in &players[1..] {
            svc.tournaments().join(u, ch).unwrap();
        }
        let round = || svc.clocks().run_round(EventScope::All).unwrap();
        round();
        let mut threads = std::collections::HashSet::new();
        // Four waves: each pairs the six (the ones who just met apart), and each game ends
        // within it: White mates in two (fool's mate, reversed) or resigns.
        for wave in 0..4 {
            clock.advance(Duration::from_secs(20));
            assert_eq!(round().paired, 3, "wave {wave}");
            let mut done = std::collections::HashSet::new();
            for u in &players {
                if done.contains(&u.id) {
                    continue;
                }
                let place = svc.tournaments().game_place_of(u.id).unwrap().unwrap();
                assert!(place.channel < 1 << 62, "moved into its thread: {place:?}");
                threads.insert(place.channel);
                let v = svc.queries().board(place).unwrap();
                let (w, b) = (v.white.clone(), v.black.clone());
                done.insert(w.id);
                done.insert(b.id);
                if wave % 2 == 0 {
                    for (who, mv) in [(&w, "e4"), (&b, "g5"), (&w, "d4"), (&b, "f6"), (&w, "Qh5#")]
                    {
                        svc.play()
                            .play_move(who, place, mv, Lang::En, false)
                            .unwrap();
                    }
                } else {
                    svc.play()
                        .play_move(&w, place, "d4", Lang::En, false)
                        .unwrap();
                    svc.play()
                        .play_move(&b, place, "d5", Lang::En, false)
                        .unwrap();
                    svc.play().resign(&w, place, None).unwrap();
                }
            }
        }
        clock.advance(Duration::from_secs(30 * 60));
        assert_eq!(round().paired, 0);
        let s = svc.tournaments().standings(ch).unwrap();
        let podium: Vec<String> = s
            .lines
            .iter()
            .take(3)
            .map(|l| l.user.name.clone())
            .collect();
        (threads, podium)
    })
    .await
    .unwrap();

    // Twelve games, each in its own thread under the channel, named White first.
    assert_eq!(threads_played.len(), 12);
    for t in &threads_played {
        let thread = fake.thread(*t).expect("a thread of the fake");
        assert_eq!(thread.parent, CHANNEL);
        assert!(thread.name.contains(" vs "), "{}", thread.name);
        let posts = fake.posts_in(*t);
        assert!(!posts.is_empty(), "the board in thread {t}");
        assert!(!posts[0].attachments().is_empty(), "a board picture");
    }
    let channel: Vec<String> = fake.posts_in(CHANNEL).iter().map(|r| r.text()).collect();
    let all = channel.join("\n");
    assert!(all.contains("Friday arena has begun"), "{all}");
    let pairings: Vec<&String> = channel
        .iter()
        .filter(|t| t.starts_with("Arena: "))
        .collect();
    assert_eq!(pairings.len(), 12, "{all}");
    for u in &users {
        assert!(
            all.contains(&format!("<@{}>", u.id)),
            "{} pinged: {all}",
            u.name
        );
    }
    let last = channel.last().unwrap();
    assert!(last.contains("[arena] final standings"), "{last}");
    assert!(last.contains(&format!("🥇 {}", podium[0])), "{last}");
    assert!(last.contains("🥈") && last.contains("🥉"), "{last}");
}

/// `/arena SUB` typed by `user` in the channel, with the subcommand's options.
async fn arena_cmd(
    w: &World,
    user: &FakeUser,
    sub: &str,
    options: serde_json::Value,
    manage: bool,
) -> Recorded {
    let mut p = w
        .parent()
        .command(&w.fake, user, "en-US", "arena", &[], &[]);
    p["data"]["options"] = json!([{"type": 1, "name": sub, "options": options}]);
    if manage {
        let all: u64 = support::fake_discord::PERMISSIONS.parse().unwrap();
        p["member"]["permissions"] = json!((all | 1 << 5).to_string());
    }
    w.fake.interact(&p).await
}

// Issue 32: `/arena` through the real bot: made only with Manage Server, joined, paused, the
// standings, one arena per channel, and a bad clock refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arena_commands_through_the_bot() {
    let w = World::start("arena-commands", vec![]).await;
    let opts = json!([
        {"name": "duration", "type": 4, "value": 0},
        {"name": "time", "type": 4, "value": 7},
        {"name": "starts_in", "type": 4, "value": 10},
        {"name": "name", "type": 3, "value": "Friday arena"}
    ]);
    let r = arena_cmd(&w, &alice(), "create", opts.clone(), false).await;
    assert_refused(&r, "Manage Server");
    let made = arena_cmd(&w, &alice(), "create", opts.clone(), true).await;
    let r = made.clone();
    assert!(!r.is_ephemeral(), "{}", r.text());
    assert!(
        r.text()
            .contains("Friday arena: 30 minutes of 3+2, rated, starting in 10 min."),
        "{}",
        r.text()
    );
    let r = arena_cmd(&w, &alice(), "create", opts, true).await;
    assert_refused(&r, "already open here");
    // The live standings post, under the announcement.
    let standings = w
        .fake
        .wait_request("the standings post", 0, |r| {
            r.method == Method::POST
                && r.path == format!("/channels/{CHANNEL}/messages")
                && r.text().contains("Friday arena · starts soon · 1 player")
        })
        .await;
    let standings_id = standings.message_id.expect("a message");
    // A scheduled event for its start, so the members get Discord's reminder.
    let event = w
        .fake
        .wait_request("the scheduled event", 0, |r| {
            r.method == Method::POST && r.path.ends_with("/scheduled-events")
        })
        .await;
    assert!(event.status < 300, "{:?}", event.json);
    let body = event.json.clone().unwrap();
    assert_eq!(body["name"], json!("Friday arena"));
    assert_eq!(body["entity_type"], json!(3));
    assert!(
        body["entity_metadata"]["location"]
            .as_str()
            .unwrap()
            .ends_with(&CHANNEL.to_string())
    );
    let from = w.fake.request_count();
    let r = arena_cmd(&w, &bob(), "join", json!([]), false).await;
    assert!(
        r.text().contains("Friday arena: you are in (2 players)."),
        "{}",
        r.text()
    );
    // Edited in place by the scheduler once bob is in.
    let edit = w
        .fake
        .wait_request("the standings edited", from, |r| {
            r.method == Method::PATCH
                && r.path == format!("/channels/{CHANNEL}/messages/{standings_id}")
        })
        .await;
    assert!(edit.text().contains("2. bob 0"), "{}", edit.text());
    let r = arena_cmd(&w, &carol(), "pause", json!([]), false).await;
    assert_refused(&r, "You are not in this tournament.");
    let r = arena_cmd(&w, &bob(), "pause", json!([]), false).await;
    assert!(
        r.is_ephemeral() && r.text().contains("you are paused"),
        "{}",
        r.text()
    );
    let r = arena_cmd(&w, &carol(), "standings", json!([]), false).await;
    let text = r.text();
    assert!(
        text.contains("Friday arena · starts soon · 2 players"),
        "{text}"
    );
    assert!(
        text.contains("1. alice 0") && text.contains("2. bob 0"),
        "{text}"
    );
    let r = arena_cmd(&w, &bob(), "berserk", json!([]), false).await;
    assert_refused(&r, "no arena game in progress");
    // The announcement's Join button.
    let join = made
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("cj:aj:"))
        .expect("a Join button");
    let r = w.click(&carol(), &made, &join).await;
    assert!(
        r.text().contains("Friday arena: you are in (3 players)."),
        "{}",
        r.text()
    );

    // `/settings arena-role:@hosts`: members with that role may make arenas too.
    const HOSTS: u64 = 1_300_000_000_000_000_007;
    let mut p = w
        .parent()
        .command(&w.fake, &alice(), "en-US", "settings", &[], &[]);
    p["data"]["options"] = json!([{"name": "arena-role", "type": 8, "value": HOSTS.to_string()}]);
    p["data"]["resolved"] = json!({"roles": {HOSTS.to_string(): {
        "id": HOSTS.to_string(), "name": "arena hosts", "color": 0, "hoist": false,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "icon": null, "unicode_emoji": null, "position": 1, "permissions": "0",
        "managed": false, "mentionable": true, "flags": 0}}});
    let all: u64 = support::fake_discord::PERMISSIONS.parse().unwrap();
    p["member"]["permissions"] = json!((all | 1 << 5).to_string());
    let r = w.fake.interact(&p).await;
    assert!(r.text().contains(&format!("<@&{HOSTS}>")), "{}", r.text());
    let other = Channel::new(1_200_000_000_000_000_077);
    let create = |roles: Vec<String>| {
        let mut p = other.command(&w.fake, &carol(), "en-US", "arena", &[], &[]);
        p["data"]["options"] = json!([{"type": 1, "name": "create", "options": [
            {"name": "duration", "type": 4, "value": 1},
            {"name": "time", "type": 4, "value": 8}]}]);
        p["member"]["roles"] = json!(roles);
        p
    };
    let r = w.fake.interact(&create(vec![])).await;
    assert_refused(&r, "arena-role");
    let r = w.fake.interact(&create(vec![HOSTS.to_string()])).await;
    assert!(
        r.text().contains("Arena 5+3: 45 minutes of 5+3, rated"),
        "{}",
        r.text()
    );
}

/// `/roundrobin SUB` typed by `user` in the channel, with the subcommand's options and the
/// users the interaction resolves.
async fn roundrobin_cmd(
    w: &World,
    user: &FakeUser,
    sub: &str,
    options: serde_json::Value,
    resolved: &[&FakeUser],
) -> Recorded {
    let mut p = w
        .parent()
        .command(&w.fake, user, "en-US", "roundrobin", &[], resolved);
    p["data"]["options"] = json!([{"type": 1, "name": sub, "options": options}]);
    w.fake.interact(&p).await
}

/// Waits for the round robin's line of round `round` in the channel (at index `from` or later)
/// and the game's thread opened on it.
async fn round_line(w: &World, from: usize, round: u32) -> (Recorded, Channel) {
    let path = format!("/channels/{CHANNEL}/messages");
    let needle = format!("Round robin, round {round}: ");
    let line = w
        .fake
        .wait_request(&format!("round {round}'s line"), from, |r| {
            r.method == Method::POST && r.path == path && r.text().contains(&needle)
        })
        .await;
    let message = line.message_id.expect("a message");
    let thread = w
        .fake
        .wait_for("its thread", Duration::from_secs(10), |f| f.thread(message))
        .await;
    assert_eq!(thread.parent, CHANNEL);
    // The board is posted in the thread once the game is there: a move typed from then on
    // finds it.
    let board_path = format!("/channels/{message}/messages");
    let board = w
        .fake
        .wait_request(&format!("round {round}'s board"), from, |r| {
            r.method == Method::POST && r.path == board_path
        })
        .await;
    assert!(!board.attachments().is_empty(), "a board picture");
    (line, Channel::thread(message, CHANNEL))
}

// Issue 32: `/roundrobin` through the real bot: made of the players mentioned (in that order),
// each round's game opened in its own thread on its line, pinging both players; the next
// round when a round's last game ends; the standings; one tournament per channel; FIDE's
// withdrawal; a short list refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_through_the_bot_opens_each_rounds_games_in_threads() {
    let w = World::start("roundrobin-commands", vec![]).await;
    let (a, b, c) = (alice(), bob(), carol());
    let opts = |players: String| {
        json!([
            {"name": "players", "type": 3, "value": players},
            {"name": "time", "type": 4, "value": 0},
            {"name": "rated", "type": 5, "value": false}
        ])
    };
    let r = roundrobin_cmd(
        &w,
        &a,
        "create",
        opts(format!("{} {}", a.mention(), b.mention())),
        &[&a, &b],
    )
    .await;
    assert_refused(&r, "3 to 16 players");
    let three = opts(format!("{} {} {}", a.mention(), b.mention(), c.mention()));
    let from = w.fake.request_count();
    let r = roundrobin_cmd(&w, &a, "create", three.clone(), &[&a, &b, &c]).await;
    assert!(!r.is_ephemeral(), "{}", r.text());
    assert!(
        r.text()
            .contains("Round robin 1d: a round robin of 3 players, 3 rounds of 1d, casual."),
        "{}",
        r.text()
    );
    // Three players: FIDE's table for 4, seat 4 the bye. Round 1: 2-3 (alice sits out).
    let (line, t1) = round_line(&w, from, 1).await;
    assert!(
        line.text().contains(&format!(
            "Round robin, round 1: {} (white) vs {} (black).",
            b.mention(),
            c.mention()
        )),
        "{}",
        line.text()
    );
    let r = roundrobin_cmd(&w, &a, "create", three, &[&a, &b, &c]).await;
    assert_refused(&r, "already open here");
    // Played in its thread: bob mates, and round 2 (1-2) opens with the mate.
    let mut from = 0;
    for (who, mv) in [(&b, "e4"), (&c, "g5"), (&b, "d4"), (&c, "f6"), (&b, "Qh5#")] {
        from = w.fake.request_count();
        let r = w
            .cmd_in(&t1, who, "en-US", "move", &[("move", json!(mv))])
            .await;
        assert!(!r.is_ephemeral(), "{}", r.text());
    }
    let (line, _t2) = round_line(&w, from, 2).await;
    assert!(
        line.text().contains(&format!(
            "Round robin, round 2: {} (white) vs {} (black).",
            a.mention(),
            b.mention()
        )),
        "{}",
        line.text()
    );
    let r = roundrobin_cmd(&w, &c, "standings", json!([]), &[]).await;
    let text = r.text();
    assert!(
        text.contains("Round robin 1d · round 2 of 3 · in progress"),
        "{text}"
    );
    assert!(
        text.contains("1. bob 1 0")
            && text.contains("2. alice 0 0")
            && text.contains("2. carol 0 0"),
        "{text}"
    );
    // carol has 1 of her 2 games over: half, so her result stays and her last game is lost
    // by forfeit.
    let r = roundrobin_cmd(&w, &c, "withdraw", json!([]), &[]).await;
    assert!(
        r.text()
            .contains("carol withdrew from Round robin 1d: half of their games or more were over"),
        "{}",
        r.text()
    );
    let r = roundrobin_cmd(&w, &c, "withdraw", json!([]), &[]).await;
    assert_refused(&r, "You are not in this tournament.");
}
