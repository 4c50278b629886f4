//! Time controls end to end, the real bot against the fake Discord: the `time` option and the
//! clock on the board; the scheduler's posts after a restart with overdue events (a timeout
//! with the final board and both players mentioned, a reminder that pings only the player to
//! move, a post repeated after a crash and dropped by its nonce), each posted once, all with
//! a nonce.

mod support;

use std::sync::Arc;
use std::time::Duration;

use cajitas::discord::DiscordNotifier;
use cajitas::game::{
    ChannelRef, Clock, ColourChoice, DAY_MS, EventScope, GameService, Lang, ManualClock, Notice,
    Notifier, NotifyError, ServiceOptions, SystemClock, UserRef,
};
use poise::serenity_prelude as serenity;
use serde_json::{Value, json};
use support::bot::{Bot, BotOptions, TempDir};
use support::fake_discord::{Channel, FakeDiscord};
use support::world::{World, alice, bob, field};

const WHITE: u64 = 900_000_000_000_000_001;
const BLACK: u64 = 900_000_000_000_000_002;
const TIMED_OUT: u64 = 1_200_000_000_000_000_101;
const REMINDED: u64 = 1_200_000_000_000_000_102;
const CRASHED: u64 = 1_200_000_000_000_000_103;
const QUIET: u64 = 1_200_000_000_000_000_104;
/// Games that time out while the bot is down before its second and third starts: the posts
/// that show those starts' first rounds are done.
const LATE_2: u64 = 1_200_000_000_000_000_105;
const LATE_3: u64 = 1_200_000_000_000_000_106;

/// Posts through the real notifier, then fails: the event stays unposted, as after a crash
/// between the post and its mark.
#[derive(Debug)]
struct PostThenCrash(DiscordNotifier);

impl Notifier for PostThenCrash {
    fn post(&self, notice: &Notice) -> Result<Option<u64>, NotifyError> {
        self.0.post(notice)?;
        Err(NotifyError::Delivery(
            "crashed before marking it posted".into(),
        ))
    }
    fn post_tournament(
        &self,
        notice: &cajitas::game::TournamentNotice,
    ) -> Result<Option<u64>, NotifyError> {
        self.0.post_tournament(notice)
    }
}

fn ch(channel: u64) -> ChannelRef {
    ChannelRef {
        guild: Some(support::fake_discord::GUILD_ID),
        channel,
    }
}

/// A game in `channel` with `time`, white's e4 and black's e5 played at `at` (Unix ms).
fn game_at(svc: &GameService, clock: &ManualClock, channel: u64, time: &str, at: i64) {
    let (w, b) = (
        UserRef::new(WHITE, "alice", false),
        UserRef::new(BLACK, "bob", false),
    );
    clock.set(at);
    svc.challenges()
        .challenge_timed(
            &w,
            ch(channel),
            None,
            ColourChoice::White,
            time.parse().unwrap(),
        )
        .unwrap();
    svc.challenges().accept(&b, ch(channel)).unwrap();
    svc.play()
        .play_move(&w, ch(channel), "e4", Lang::En, false)
        .unwrap();
    svc.play()
        .play_move(&b, ch(channel), "e5", Lang::En, false)
        .unwrap();
}

fn posts_in(fake: &FakeDiscord, channel: u64) -> Vec<Value> {
    fake.requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == format!("/channels/{channel}/messages"))
        .map(|r| r.message())
        .collect()
}

fn users(m: &Value) -> Vec<String> {
    m["allowed_mentions"]["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_posts_every_overdue_event_once_with_its_nonce() {
    let fake = FakeDiscord::start(500).await;
    let dir = TempDir::new("clocks-e2e");
    let db = dir.path().join("cajitas.db");
    let now = SystemClock.now_ms();
    // The database as a bot that stopped left it: games whose times passed meanwhile.
    let http = serenity::HttpBuilder::new("MTAw.fake00.fakefakefake")
        .proxy(fake.base.as_str())
        .ratelimiter_disabled(true)
        .build();
    let notifier = DiscordNotifier::new(
        Arc::new(http),
        cajitas::render::default_renderer(),
        tokio::runtime::Handle::current(),
    );
    let prep_db = db.clone();
    tokio::task::spawn_blocking(move || {
        let clock = Arc::new(ManualClock::new(now - 3 * DAY_MS));
        let opts = ServiceOptions {
            notifier: Arc::new(PostThenCrash(notifier)),
            ..ServiceOptions::with_clock(clock.clone())
        };
        let svc = GameService::open(&prep_db, opts).unwrap();
        // White's day ran out a day ago.
        game_at(&svc, &clock, TIMED_OUT, "1d", now - 2 * DAY_MS);
        // White's day is 85% gone: a reminder is due, the timeout is not.
        game_at(&svc, &clock, REMINDED, "1d", now - DAY_MS * 85 / 100);
        // Timed out, posted, and the bot crashed before marking it posted.
        game_at(&svc, &clock, CRASHED, "1d", now - 2 * DAY_MS - 1000);
        clock.set(now - DAY_MS / 2);
        let round = svc.clocks().run_round(EventScope::Only(CRASHED)).unwrap();
        // Its overdue reminder (not posted: the game is over) and its timeout.
        assert_eq!((round.claimed, round.posted, round.failed), (2, 0, 1));
        // Nothing due for a week.
        game_at(&svc, &clock, QUIET, "7d", now);
    })
    .await
    .unwrap();
    assert_eq!(fake.created_messages(CRASHED).len(), 1);
    let first_nonce = posts_in(&fake, CRASHED)[0]["nonce"].clone();

    let start = |n: usize| {
        Bot::start(BotOptions {
            api_base: &fake.base,
            db: &db,
            log: dir.path().join(format!("bot-{n}.log")),
            env: vec![],
        })
    };
    let bot = start(1);
    fake.wait_ready(1).await;
    fake.wait_for("the three posts", Duration::from_secs(20), |f| {
        (posts_in(f, TIMED_OUT).len() == 1
            && posts_in(f, REMINDED).len() == 1
            && posts_in(f, CRASHED).len() == 2)
            .then_some(())
    })
    .await;

    // The timeout: the final board, both players mentioned, a nonce enforced.
    let m = &posts_in(&fake, TIMED_OUT)[0];
    let content = m["content"].as_str().unwrap();
    assert!(content.contains("time ran out"), "{content}");
    assert!(content.contains("wins on time"), "{content}");
    assert_eq!(users(m), vec![WHITE.to_string(), BLACK.to_string()]);
    assert_eq!(m["allowed_mentions"]["parse"], json!([]));
    assert_eq!(m["embeds"].as_array().map(Vec::len), Some(1));
    // Its clock is the final one: white, who flagged, has no time left (issue 25, item 4).
    let clock = m["embeds"][0]["fields"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["name"] == "Clock"))
        .and_then(|f| f["value"].as_str())
        .expect("a clock field");
    assert!(clock.contains("White 0 h 0 min · Black 1 d 0 h"), "{clock}");
    // The reminder pings only the player to move (white).
    let m = &posts_in(&fake, REMINDED)[0];
    let content = m["content"].as_str().unwrap();
    assert!(
        content.contains(&format!("<@{WHITE}>, it is your move")),
        "{content}"
    );
    assert!(content.contains("<t:"), "{content}");
    assert_eq!(users(m), vec![WHITE.to_string()]);
    assert_eq!(m["allowed_mentions"]["parse"], json!([]));
    // The crashed post went again with the same nonce, and Discord dropped the repeat.
    let again = &posts_in(&fake, CRASHED)[1];
    assert_eq!(again["nonce"], first_nonce);
    assert_eq!(fake.created_messages(CRASHED).len(), 1);
    // Every scheduled post carries a nonce `cj…` (≤ 25 characters), enforced.
    for channel in [TIMED_OUT, REMINDED, CRASHED] {
        for m in posts_in(&fake, channel) {
            let nonce = m["nonce"].as_str().unwrap();
            assert!(nonce.starts_with("cj") && nonce.len() <= 25, "{nonce}");
            assert_eq!(m["enforce_nonce"], true);
        }
    }
    assert!(posts_in(&fake, QUIET).is_empty());

    // Killed at once (maybe between a post and its mark), then restarted: whatever goes out
    // again carries the same nonce, and nothing is created twice.
    drop(bot);
    timed_out_while_down(&db, now, LATE_2).await;
    let bot = start(2);
    fake.wait_ready(2).await;
    // It posts again whatever the first left unmarked, and the game that timed out while it
    // was down, then marks them: wait for that timeout's post and for the database to say
    // every done event is posted (however loaded the machine). Its first round is over then.
    fake.wait_for("LATE_2's timeout", Duration::from_secs(30), |f| {
        (!posts_in(f, LATE_2).is_empty()).then_some(())
    })
    .await;
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while unposted(&db) > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the second bot left {} events unposted",
            unposted(&db)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for channel in [TIMED_OUT, REMINDED, CRASHED, LATE_2] {
        assert_eq!(fake.created_messages(channel).len(), 1, "{channel}");
        let posts = posts_in(&fake, channel);
        assert!(
            posts.iter().all(|m| m["nonce"] == posts[0]["nonce"]),
            "{posts:?}"
        );
    }
    assert!(posts_in(&fake, QUIET).is_empty());
    // Once marked, a third start posts nothing of it: its first post is the timeout of the
    // game that ran out while it was down, and once that is marked nothing else was posted.
    drop(bot);
    let counts: Vec<usize> = [TIMED_OUT, REMINDED, CRASHED, LATE_2]
        .iter()
        .map(|&c| posts_in(&fake, c).len())
        .collect();
    timed_out_while_down(&db, now, LATE_3).await;
    let bot = start(3);
    fake.wait_ready(3).await;
    fake.wait_for("LATE_3's timeout", Duration::from_secs(30), |f| {
        (!posts_in(f, LATE_3).is_empty()).then_some(())
    })
    .await;
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while unposted(&db) > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the third bot left {} events unposted",
            unposted(&db)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(fake.created_messages(LATE_3).len(), 1);
    let after: Vec<usize> = [TIMED_OUT, REMINDED, CRASHED, LATE_2]
        .iter()
        .map(|&c| posts_in(&fake, c).len())
        .collect();
    drop(bot);
    assert_eq!(counts, after);

    // The database agrees: the timed-out games are over, the reminded one goes on.
    let svc = GameService::open(&db, ServiceOptions::default()).unwrap();
    assert!(svc.queries().board(ch(TIMED_OUT)).unwrap().finished);
    assert!(svc.queries().board(ch(CRASHED)).unwrap().finished);
    assert!(!svc.queries().board(ch(REMINDED)).unwrap().finished);
    assert!(svc.queries().board(ch(LATE_2)).unwrap().finished);
    assert!(svc.queries().board(ch(LATE_3)).unwrap().finished);
}

/// A game in `channel` whose time ran out while the bot was down (white's day ended a day
/// before `now`), written to the bot's database `db` by another service.
async fn timed_out_while_down(db: &std::path::Path, now: i64, channel: u64) {
    let db = db.to_path_buf();
    tokio::task::spawn_blocking(move || {
        let clock = Arc::new(ManualClock::new(now - 2 * DAY_MS));
        let svc = GameService::open(&db, ServiceOptions::with_clock(clock.clone())).unwrap();
        game_at(&svc, &clock, channel, "1d", now - 2 * DAY_MS);
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_option_and_the_clock_on_the_board() {
    let w = World::start("clocks-board", vec![]).await;
    // `time` is the third option; poise sends a choice as its index (5+3 is the ninth).
    let r = w
        .cmd(&alice(), "en-US", "challenge", &[("time", json!(8))])
        .await;
    let text = r.message()["content"].as_str().unwrap().to_owned();
    // The challenge shows each side's time, and the grace of the first moves.
    assert!(
        text.contains(
            "Time control: 5+3 (live). White 5:00 · Black 5:00; each side has 30 s for its first move."
        ),
        "{text}"
    );
    w.cmd(&bob(), "en-US", "accept", &[]).await;
    // The game is played in the thread opened on the challenge message.
    let thread = w
        .fake
        .threads()
        .into_iter()
        .find(|t| Some(t.id) == r.message_id)
        .expect("the game's thread");
    w.play_in(Channel::thread(thread.id, w.parent().id));
    let board = w.cmd(&alice(), "en-US", "board", &[]).await;
    let clock = field(&board, "Clock").expect("a clock field");
    assert!(clock.contains("5+3"), "{clock}");
    assert!(clock.contains("White 5:00"), "{clock}");
    assert!(clock.contains("first move <t:"), "{clock}");
    // The default is 3 days per move, in Spanish too.
    let w2 = World::start("clocks-default", vec![]).await;
    let r = w2.cmd(&alice(), "es-ES", "challenge", &[]).await;
    let text = r.message()["content"].as_str().unwrap().to_owned();
    assert!(
        text.contains("Control de tiempo: 3 días por jugada. Blancas 3 d 0 h · Negras 3 d 0 h."),
        "{text}"
    );
}

/// The scheduler's events that are done (the game changed) but whose post is not marked sent.
fn unposted(db: &std::path::Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn.query_row(
        "SELECT COUNT(*) FROM clock_events WHERE done_at IS NOT NULL AND posted_at IS NULL",
        [],
        |r| r.get(0),
    )
    .unwrap()
}
