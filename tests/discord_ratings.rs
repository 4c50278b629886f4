//! Ratings through the fake Discord: a rated game from the challenge to the final message
//! showing both changes, `/leaderboard` with its page buttons (the caller's only, refused
//! once a rated game changed the pool) and `/stats` with a rating chart that decodes.

mod support;

use serde_json::json;
use support::fake_discord::{Channel, GUILD_ID, Recorded};
use support::world::{World, alice, assert_public_board, assert_refused, bob, carol, field};

use cajitas::game::ratings::Speed;
use cajitas::store::{RatingRow, SqliteStore, StoreExt, UserRow};

const SCHOLARS: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];

/// alice (white) mates bob, challenged in `ch`; returns the final message.
async fn rated_game(w: &World, ch: &Channel) -> Recorded {
    w.start_game_in(ch, &alice(), &bob()).await;
    // The game is played where it went: its thread.
    let ch = &w.channel();
    let mut last = None;
    for (i, m) in SCHOLARS.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        let r = w
            .fake
            .interact(&ch.command(&w.fake, &who, "en-US", "move", &[("move", json!(m))], &[]))
            .await;
        assert_public_board(&r);
        last = Some(r);
    }
    last.unwrap()
}

fn decodes_as_png(bytes: &[u8]) -> (u32, u32) {
    let mut r = png::Decoder::new(std::io::Cursor::new(bytes.to_vec()))
        .read_info()
        .expect("a PNG header");
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).expect("PNG data");
    (info.width, info.height)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_then_the_leaderboard_and_stats() {
    let w = World::start("ratings", vec![]).await;
    let ch = w.channel();

    // The challenge says it is rated (the default); a casual one says so too.
    let challenge = w
        .fake
        .interact(&ch.command(
            &w.fake,
            &alice(),
            "en-US",
            "challenge",
            &[
                ("opponent", json!(bob().id.to_string())),
                ("rated", json!(false)),
            ],
            &[&bob()],
        ))
        .await;
    assert!(
        challenge.text().contains("Casual (unrated)."),
        "{}",
        challenge.text()
    );
    assert!(
        w.cmd(&alice(), "en-US", "cancel", &[])
            .await
            .text()
            .contains("withdrew")
    );

    let last = rated_game(&w, &ch).await;
    let text = last.text();
    assert!(text.contains("Checkmate"), "{text}");
    let changes = field(&last, "Ratings").unwrap_or_else(|| panic!("no Ratings field: {text}"));
    assert!(
        changes.contains(&format!("{} 1500? → 1739? (+239)", alice().mention())),
        "{changes}"
    );
    assert!(
        changes.contains(&format!("{} 1500? → 1261? (\u{2212}239)", bob().mention())),
        "{changes}"
    );

    // One game: nobody is listed yet; the caller is told what is missing.
    let lb = w.cmd(&alice(), "en-US", "leaderboard", &[]).await;
    assert!(!lb.is_ephemeral());
    let t = lb.text();
    assert!(t.contains("Leaderboard · Correspondence"), "{t}");
    assert!(t.contains("Nobody is on this leaderboard yet"), "{t}");
    assert!(t.contains("1 rated game of the 5 needed"), "{t}");
    assert!(lb.custom_ids().is_empty(), "one page: no buttons");

    // /stats: the ratings, results and the chart, in the asker's language when asked in es.
    let st = w
        .fake
        .interact(&ch.command(
            &w.fake,
            &carol(),
            "en-US",
            "stats",
            &[("user", json!(alice().id.to_string()))],
            &[&alice()],
        ))
        .await;
    let t = st.text();
    assert!(t.contains("Stats · alice"), "{t}");
    assert!(
        t.contains("Correspondence: **1739?** (RD 397), provisional"),
        "{t}"
    );
    assert!(t.contains("With white: +1 =0 −0"), "{t}");
    assert!(t.contains("Streak: 1 win"), "{t}");
    assert!(
        t.contains(&format!("Won against {} · 1739? (+239)", bob().mention())),
        "{t}"
    );
    // The recent game links to its thread (where the helpers played it), not the channel.
    let thread = w.channel();
    assert_ne!(thread.id, ch.id);
    assert!(
        t.contains(&format!(
            "https://discord.com/channels/{GUILD_ID}/{}",
            thread.id
        )),
        "{t}"
    );
    let png = st.file("rating.png").expect("rating.png attached");
    assert_eq!(decodes_as_png(&png.data), (960, 540));
    assert_eq!(st.embeds()[0]["image"]["url"], "attachment://rating.png");
    let mine = w.cmd(&bob(), "en-US", "stats", &[]).await;
    assert!(mine.text().contains("Stats · bob"), "{}", mine.text());
    assert!(mine.text().contains("1261?"), "{}", mine.text());
    let none = w.cmd(&carol(), "en-US", "stats", &[]).await;
    assert!(none.text().contains("no rated games"), "{}", none.text());
    decodes_as_png(&none.file("rating.png").expect("an empty chart").data);
    assert!(
        w.fake.unknown_requests().is_empty(),
        "{:?}",
        w.fake.unknown_requests()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaderboard_pages_are_the_callers_and_refused_when_stale() {
    let w = World::start("leaderboard", vec![]).await;
    // 15 ranked players in this server, stored directly (as if they had played).
    {
        let store = SqliteStore::open(&w.db()).unwrap();
        store
            .immediate(|tx| {
                for i in 0..15u64 {
                    let id = 800_000_000_000_000_000 + i;
                    tx.upsert_user(
                        &UserRow {
                            id,
                            name: format!("player{i}"),
                            is_bot: false,
                        },
                        0,
                    )?;
                    tx.put_rating(&RatingRow {
                        pool: GUILD_ID as i64,
                        speed: Speed::Correspondence,
                        user_id: id,
                        rating: 1600.0 + 10.0 * i as f64,
                        deviation: 60.0,
                        volatility: 0.06,
                        games: 20,
                        rated_at: i64::MAX / 4,
                    })?;
                }
                // carol has the games but not a steady rating (RD 130).
                let carol = carol();
                tx.upsert_user(
                    &UserRow {
                        id: carol.id,
                        name: "carol".into(),
                        is_bot: false,
                    },
                    0,
                )?;
                tx.put_rating(&RatingRow {
                    pool: GUILD_ID as i64,
                    speed: Speed::Correspondence,
                    user_id: carol.id,
                    rating: 1900.0,
                    deviation: 130.0,
                    volatility: 0.06,
                    games: 22,
                    rated_at: i64::MAX / 4,
                })?;
                Ok::<_, cajitas::store::StoreError>(())
            })
            .unwrap();
    }
    let lb = w.cmd(&carol(), "en-US", "leaderboard", &[]).await;
    let t = lb.text();
    assert!(
        t.contains("**1.** <@800000000000000014> · 1740 · 20 games"),
        "{t}"
    );
    assert!(t.contains("**10.** <@800000000000000005>"), "{t}");
    assert!(!t.contains("**11.**"), "{t}");
    assert!(t.contains("Page 1 of 2"), "{t}");
    // Told what is missing: not games (22 of 5 would be nonsense), a steady rating.
    assert!(
        t.contains("You are not listed: your rating is not steady (RD 130 now, under 110 needed)"),
        "{t}"
    );
    assert!(!t.contains("of the 5 needed"), "{t}");
    let ids = lb.custom_ids();
    assert_eq!(ids.len(), 2, "Previous and Next: {ids:?}");
    // Only the caller pages.
    assert_refused(&w.click(&alice(), &lb, &ids[1]).await, "run it yourself");
    let next = w.click(&carol(), &lb, &ids[1]).await;
    assert_eq!(next.callback_type(), Some(7), "{:?}", next.json);
    let t = next.text();
    assert!(t.contains("**11.** <@800000000000000004>"), "{t}");
    assert!(t.contains("**15.** <@800000000000000000>"), "{t}");
    assert!(t.contains("Page 2 of 2"), "{t}");
    // A rated game in the server changes the pool: the old buttons are refused.
    rated_game(&w, &w.channel()).await;
    let stale = w.click(&carol(), &next, &next.custom_ids()[0]).await;
    assert_refused(&stale, "has changed");
    // A fresh /leaderboard pages again.
    let lb = w.cmd(&carol(), "en-US", "leaderboard", &[]).await;
    let next = w.click(&carol(), &lb, &lb.custom_ids()[1]).await;
    assert_eq!(next.callback_type(), Some(7), "{:?}", next.json);
    assert!(
        w.fake.unknown_requests().is_empty(),
        "{:?}",
        w.fake.unknown_requests()
    );
}
