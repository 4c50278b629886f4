//! Human games while the engine thinks, through the fake Discord on loopback: the open-loop
//! latency of 100 moves/s spread over 100 human games (interaction sent → callback received),
//! first with no engine, then while 20 games against level 8 wait for the engine (20 searches
//! of a second each queued on the default pool: the cores less one). Target: p99 ≤ 25 ms
//! while the engine thinks.
//!
//! Run with `cargo bench --bench engine_load` (Stockfish must be installed; without an engine
//! it says so and exits 0).

#[path = "support/mod.rs"]
mod support;

use std::time::Duration;

use axum::http::Method;
use serde_json::json;
use support::bot::{Bot, BotOptions, TempDir};
use support::fake_discord::{Channel, FakeDiscord, FakeUser};
use support::{GAMES, WHITE, games, percentile, setup};

const ENGINE_GAMES: u64 = 20;

async fn start(engine: &str) -> (FakeDiscord, Bot, TempDir) {
    let fake = FakeDiscord::start(5_000).await;
    fake.keep_files(false);
    let dir = TempDir::new("engine-load");
    let bot = Bot::start(BotOptions {
        api_base: &fake.base,
        db: &dir.path().join("cajitas.db"),
        log: dir.path().join("bot.log"),
        env: vec![("CAJITAS_ENGINE", engine.into())],
    });
    fake.wait_ready(1).await;
    (fake, bot, dir)
}

/// Starts the engine games: each person plays 1. e4 against level 8, queueing a search.
async fn engine_games(fake: &FakeDiscord) {
    for i in 0..ENGINE_GAMES {
        let ch = Channel::new(1_260_000_000_000_000_000 + i);
        let human = FakeUser::new(960_000_000_000_000_000 + i, &format!("h{i}"));
        let p = ch.command(
            fake,
            &human,
            "en-US",
            "play",
            &[("level", json!(8)), ("colour", json!(WHITE))],
            &[],
        );
        let r = fake.interact(&p).await;
        assert!(
            r.file("board.png").is_some(),
            "engine game started: {}",
            r.text()
        );
        let m = ch.command(fake, &human, "en-US", "move", &[("move", json!("e4"))], &[]);
        let r = fake.interact(&m).await;
        assert!(!r.is_ephemeral(), "{}", r.text());
    }
}

/// 100 moves/s over the human games for `seconds`; the sorted latencies, and how many engine
/// moves were posted meanwhile.
async fn open_loop(engine: bool, seconds: u64) -> (Vec<Duration>, usize) {
    let (fake, _bot, _dir) = start(if engine { "" } else { "off" }).await;
    let mut games = games(&[]);
    setup(&fake, &mut games).await;
    if engine {
        engine_games(&fake).await;
    }
    let posts_before = fake.request_count();
    let lat = support::open_loop(&fake, &mut games, 100, seconds).await;
    let engine_posts = fake
        .requests()
        .iter()
        .skip(posts_before)
        .filter(|r| r.method == Method::POST && r.path.starts_with("/channels/1260"))
        .count();
    (lat, engine_posts)
}

fn main() {
    let has_engine = cajitas::config::EngineSettings::from_env()
        .map(|s| s.program.is_some())
        .unwrap_or(false);
    if !has_engine {
        println!(
            "engine_load: SKIPPED, no chess engine on this machine (apt-get install stockfish)"
        );
        return;
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        println!("human games' latency, open loop, 100 moves/s over {GAMES} games, 10 s:");
        println!(
            "{:<44} {:>8} {:>8} {:>8} {:>13}",
            "", "p50", "p99", "max", "engine moves"
        );
        for engine in [false, true] {
            let (lat, posts) = open_loop(engine, 10).await;
            let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
            println!(
                "{:<44} {:>8} {:>8} {:>8} {:>13}",
                if engine {
                    "while 20 games think at level 8"
                } else {
                    "no engine"
                },
                ms(percentile(&lat, 0.5)),
                ms(percentile(&lat, 0.99)),
                ms(*lat.last().unwrap()),
                if engine {
                    posts.to_string()
                } else {
                    "—".into()
                }
            );
            if engine {
                let p99 = percentile(&lat, 0.99);
                println!(
                    "p99 ≤ 25 ms while the engine thinks: {}",
                    if p99 <= Duration::from_millis(25) {
                        "yes"
                    } else {
                        "NO"
                    }
                );
            }
        }
    });
}
