//! Human games while the engine thinks, through the fake Discord on loopback: the open-loop
//! latency of 100 moves/s spread over 100 human games (interaction sent → callback received),
//! first with no engine, then while 20 games against level 8 wait for the engine (20 searches
//! of a second each queued on the default pool: the cores less one). Target: p99 ≤ 25 ms
//! while the engine thinks.
//!
//! Run with `cargo bench --bench engine_load` (Stockfish must be installed; without an engine
//! it says so and exits 0).

#[path = "../tests/support/bot.rs"]
mod bot;
#[path = "../tests/support/fake_discord.rs"]
mod fake_discord;

use std::time::{Duration, Instant};

use axum::http::Method;
use bot::{Bot, BotOptions, TempDir};
use fake_discord::{Channel, FakeDiscord, FakeUser};
use serde_json::json;

const GAMES: u64 = 100;
const ENGINE_GAMES: u64 = 20;
/// The `colour` option's value for white (poise sends choices as their index).
const WHITE: u64 = 0;

/// 40 plies without a repetition, an ending or an ambiguous SAN.
const LINE: [&str; 40] = [
    "a3", "a6", "b3", "b6", "c3", "c6", "d3", "d6", "e3", "e6", "f3", "f6", "g3", "g6", "h3", "h6",
    "a4", "a5", "b4", "b5", "c4", "c5", "d4", "d5", "e4", "e5", "f4", "f5", "g4", "g5", "h4", "h5",
    "Nc3", "Nc6", "Nf3", "Nf6", "Ne2", "Ne7", "Ra2", "Ra7",
];

struct Game {
    ch: Channel,
    white: FakeUser,
    black: FakeUser,
    ply: usize,
}

fn games() -> Vec<Game> {
    (0..GAMES)
        .map(|i| Game {
            ch: Channel::new(1_250_000_000_000_000_000 + i),
            white: FakeUser::new(950_000_000_000_000_000 + 2 * i, &format!("w{i}")),
            black: FakeUser::new(950_000_000_000_000_001 + 2 * i, &format!("b{i}")),
            ply: 0,
        })
        .collect()
}

async fn setup(fake: &FakeDiscord, games: &[Game]) {
    for g in games {
        let c = g.ch.command(
            fake,
            &g.white,
            "en-US",
            "challenge",
            &[
                ("opponent", json!(g.black.id.to_string())),
                ("colour", json!(WHITE)),
            ],
            &[&g.black],
        );
        fake.interact(&c).await;
        let a = g.ch.command(fake, &g.black, "en-US", "accept", &[], &[]);
        let r = fake.interact(&a).await;
        assert!(r.file("board.png").is_some(), "game started");
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

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
    let mut games = games();
    setup(&fake, &games).await;
    if engine {
        engine_games(&fake).await;
    }
    let posts_before = fake.request_count();
    let rate_per_s = 100;
    let total = rate_per_s * seconds;
    let interval = Duration::from_nanos(1_000_000_000 / rate_per_s);
    let t0 = tokio::time::Instant::now();
    let mut pending = Vec::new();
    for k in 0..total {
        tokio::time::sleep_until(t0 + interval * k as u32).await;
        let g = &mut games[(k % GAMES) as usize];
        let user = if g.ply.is_multiple_of(2) {
            &g.white
        } else {
            &g.black
        };
        let payload = g.ch.command(
            &fake,
            user,
            "en-US",
            "move",
            &[("move", json!(LINE[g.ply]))],
            &[],
        );
        g.ply += 1;
        let sent = Instant::now();
        let rx = fake.send_interaction(&payload);
        pending.push(tokio::spawn(async move {
            let r = rx.await.expect("answered");
            assert!(!r.is_ephemeral(), "refused: {}", r.text());
            r.at.duration_since(sent)
        }));
    }
    let mut lat = Vec::new();
    for p in pending {
        lat.push(p.await.unwrap());
    }
    lat.sort();
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
