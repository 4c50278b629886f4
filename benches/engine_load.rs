//! Human games while the engine thinks, through the fake Discord on loopback: the open-loop
//! latency of 100 moves/s spread over 100 human games, each in its own thread (interaction
//! sent → callback received), in three runs side by side:
//!
//! 1. no engine;
//! 2. 20 games against level 8 waiting for the scripted fake engine, which answers like
//!    Stockfish (an `info` line per depth over the move's second) but sleeps instead of
//!    searching: everything the *bot* does for the engine games (the pool, its reader
//!    threads, the player, the engine's moves written and posted), without the engine's CPU;
//! 3. 20 games against level 8 waiting for Stockfish (20 searches of a second each queued on
//!    the default pool: the cores less one), under `chrt --idle 0` and `nice -n 19`.
//!
//! Target: p99 ≤ 25 ms in run 3. To tell the machine's noise from the bot's, each run also
//! prints the load average before and after, and for its 10 s window the CPU time of the bot
//! process (and of its engine-related threads), of its engine processes, of this bench (the
//! fake Discord and its clients) and of everything else on the machine (other users'
//! builds), from `/proc`.
//!
//! Run with `cargo bench --bench engine_load` (Stockfish must be installed for run 3;
//! without it run 3 says it was skipped).

#[path = "support/mod.rs"]
mod support;

use std::time::Duration;

use axum::http::Method;
use serde_json::json;
use support::bot::{Bot, BotOptions, TempDir};
use support::fake_discord::{Channel, FakeDiscord, FakeUser};
use support::{GAMES, WHITE, games, percentile, setup};

const ENGINE_GAMES: u64 = 20;
const SECONDS: u64 = 10;

/// Which engine a run has.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Engine {
    Off,
    /// The fake engine, thinking without CPU.
    Sleeping,
    Stockfish,
}

impl Engine {
    fn label(self) -> &'static str {
        match self {
            Engine::Off => "no engine",
            Engine::Sleeping => "20 games wait for a sleeping fake engine",
            Engine::Stockfish => "20 games think at level 8 (Stockfish)",
        }
    }
}

async fn start(engine: Engine, dir: &TempDir) -> (FakeDiscord, Bot) {
    let fake = FakeDiscord::start(5_000).await;
    fake.keep_files(false);
    let env = match engine {
        Engine::Off => vec![("CAJITAS_ENGINE", "off".to_owned())],
        Engine::Sleeping => {
            let script = dir.path().join("fake-uci-script");
            std::fs::write(&script, "think\n").unwrap();
            vec![
                (
                    "CAJITAS_ENGINE",
                    env!("CARGO_BIN_EXE_cajitas-fake-uci").to_owned(),
                ),
                ("CAJITAS_FAKE_UCI_SCRIPT", script.display().to_string()),
            ]
        }
        Engine::Stockfish => vec![("CAJITAS_ENGINE", String::new())],
    };
    let bot = Bot::start(BotOptions {
        api_base: &fake.base,
        db: &dir.path().join("cajitas.db"),
        log: dir.path().join("bot.log"),
        env,
    });
    fake.wait_ready(1).await;
    (fake, bot)
}

/// Starts the engine games: each person types `/play` at level 8 as White (the game opens
/// in its thread), then 1. e4 there, queueing a search. Returns the games' threads.
async fn engine_games(fake: &FakeDiscord) -> Vec<u64> {
    let mut threads = Vec::new();
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
        let from = fake.request_count();
        let r = fake.interact(&p).await;
        let thread = r.message_id.expect("/play's answer");
        let board = fake.post_to(thread, from).await;
        assert!(board.file("board.png").is_some(), "engine game started");
        let m = Channel::thread(thread, ch.id).command(
            fake,
            &human,
            "en-US",
            "move",
            &[("move", json!("e4"))],
            &[],
        );
        let r = fake.interact(&m).await;
        assert!(!r.is_ephemeral(), "{}", r.text());
        threads.push(thread);
    }
    threads
}

/// Clock ticks per second of `/proc`'s CPU times.
const TICKS: f64 = 100.0;

/// (user + system) CPU ticks of process `pid` (all its threads), from `/proc/PID/stat`.
fn cpu_ticks(pid: u32) -> u64 {
    stat_ticks(&format!("/proc/{pid}/stat"))
}

fn stat_ticks(path: &str) -> u64 {
    let Ok(text) = std::fs::read_to_string(path) else {
        return 0;
    };
    // After the command name in parentheses: state is field 3, utime 14, stime 15.
    let Some(rest) = text.rsplit_once(')').map(|(_, r)| r) else {
        return 0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let n = |i: usize| {
        f.get(i - 3)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    n(14) + n(15)
}

/// The bot's threads whose work is the engine's (`cajitas-engine*`, `cajitas-uci-read`):
/// their CPU ticks.
fn engine_thread_ticks(pid: u32) -> u64 {
    let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .filter(|t| {
            std::fs::read_to_string(t.path().join("comm"))
                .is_ok_and(|c| c.starts_with("cajitas-engine") || c.starts_with("cajitas-uci"))
        })
        .map(|t| stat_ticks(&t.path().join("stat").display().to_string()))
        .sum()
}

/// The processes whose parent is `pid` (the bot's engines: `chrt` and `nice` exec the
/// engine, so the child is the engine), and their CPU ticks, dead ones excluded.
fn children_ticks(pid: u32) -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| {
            std::fs::read_to_string(format!("/proc/{p}/stat"))
                .ok()
                .and_then(|t| {
                    let rest = t.rsplit_once(')')?.1.to_owned();
                    rest.split_whitespace().nth(1)?.parse::<u32>().ok()
                })
                == Some(pid)
        })
        .map(cpu_ticks)
        .sum()
}

/// The machine's busy and total CPU ticks (all cores), from `/proc/stat`.
fn machine_ticks() -> (u64, u64) {
    let text = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let v: Vec<u64> = text
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .skip(1)
        .filter_map(|n| n.parse().ok())
        .collect();
    let total: u64 = v.iter().take(8).sum();
    let idle = v.get(3).copied().unwrap_or(0) + v.get(4).copied().unwrap_or(0);
    (total - idle, total)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The time the bot's threads spent runnable but waiting for a core, in ns (the sum of
/// the second field of `/proc/PID/task/*/schedstat`): what the machine's contention cost
/// it, whoever the contention came from.
fn runqueue_wait_ns(pid: u32) -> u64 {
    let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum()
}

/// The share of the last 10 s in which some task waited for a core (Linux's pressure
/// stall information, `/proc/pressure/cpu`, "some avg10"), in %.
fn cpu_pressure() -> String {
    std::fs::read_to_string("/proc/pressure/cpu")
        .ok()
        .and_then(|t| {
            let line = t.lines().next()?.to_owned();
            let v = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("avg10="))?;
            Some(format!("{v}%"))
        })
        .unwrap_or_else(|| "?".into())
}

/// CPU use over a window, in seconds of CPU.
struct Cpu {
    /// Seconds the bot's threads waited for a core.
    bot_waited: f64,
    bot: f64,
    bot_engine_threads: f64,
    engines: f64,
    bench: f64,
    others: f64,
    /// All cores' seconds in the window (2 cores × 10 s = 20).
    capacity: f64,
}

struct Snapshot {
    waited_ns: u64,
    bot: u64,
    bot_engine: u64,
    engines: u64,
    bench: u64,
    busy: u64,
    total: u64,
}

fn snapshot(bot: u32) -> Snapshot {
    let (busy, total) = machine_ticks();
    Snapshot {
        waited_ns: runqueue_wait_ns(bot),
        bot: cpu_ticks(bot),
        bot_engine: engine_thread_ticks(bot),
        engines: children_ticks(bot),
        bench: cpu_ticks(std::process::id()),
        busy,
        total,
    }
}

fn cpu_between(a: &Snapshot, b: &Snapshot) -> Cpu {
    let s = |x: u64, y: u64| y.saturating_sub(x) as f64 / TICKS;
    let bot = s(a.bot, b.bot);
    // An engine process restarted meanwhile loses its earlier ticks: never negative.
    let engines = s(a.engines, b.engines);
    let bench = s(a.bench, b.bench);
    let busy = s(a.busy, b.busy);
    Cpu {
        bot_waited: b.waited_ns.saturating_sub(a.waited_ns) as f64 / 1e9,
        bot,
        bot_engine_threads: s(a.bot_engine, b.bot_engine),
        engines,
        bench,
        others: (busy - bot - engines - bench).max(0.0),
        capacity: s(a.total, b.total),
    }
}

struct Run {
    lat: Vec<Duration>,
    engine_posts: usize,
    load_before: String,
    load_after: String,
    /// CPU pressure at the end of the window.
    pressure: String,
    cpu: Cpu,
}

/// 100 moves/s over the human games for [`SECONDS`].
async fn open_loop(engine: Engine) -> Run {
    let dir = TempDir::new("engine-load");
    let (fake, bot) = start(engine, &dir).await;
    let mut games = games(&[]);
    setup(&fake, &mut games).await;
    let threads = if engine == Engine::Off {
        Vec::new()
    } else {
        engine_games(&fake).await
    };
    let posts_before = fake.request_count();
    let load_before = loadavg();
    let before = snapshot(bot.pid());
    let lat = support::open_loop(&fake, &mut games, 100, SECONDS).await;
    let after = snapshot(bot.pid());
    let load_after = loadavg();
    let pressure = cpu_pressure();
    let engine_posts = fake
        .requests()
        .iter()
        .skip(posts_before)
        .filter(|r| {
            r.method == Method::POST
                && threads
                    .iter()
                    .any(|t| r.path == format!("/channels/{t}/messages"))
        })
        .count();
    drop(bot);
    Run {
        lat,
        engine_posts,
        load_before,
        load_after,
        pressure,
        cpu: cpu_between(&before, &after),
    }
}

fn main() {
    let stockfish = cajitas::config::EngineSettings::from_env()
        .map(|s| s.program.is_some())
        .unwrap_or(false);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        println!(
            "human games' latency, open loop, 100 moves/s over {GAMES} games (each in its thread), {SECONDS} s; \
             CPU seconds in the window (of {} cores × {SECONDS} s)",
            std::thread::available_parallelism().map_or(1, |n| n.get())
        );
        println!(
            "{:<42} {:>9} {:>9} {:>9} {:>6} {:>16} {:>16} {:>6} | {:>6} {:>6} {:>8} {:>7} {:>6} {:>6}",
            "",
            "p50",
            "p99",
            "max",
            "moves",
            "load before",
            "load after",
            "psi",
            "waited",
            "bot",
            "(engine)",
            "engines",
            "bench",
            "others"
        );
        let mut p99_with_engine = None;
        for engine in [Engine::Off, Engine::Sleeping, Engine::Stockfish] {
            if engine == Engine::Stockfish && !stockfish {
                println!(
                    "{:<42} SKIPPED: no Stockfish on this machine (apt-get install stockfish)",
                    engine.label()
                );
                continue;
            }
            let run = open_loop(engine).await;
            let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
            let c = &run.cpu;
            println!(
                "{:<42} {:>9} {:>9} {:>9} {:>6} {:>16} {:>16} {:>6} | {:>6.2} {:>6.2} {:>8.2} {:>7.2} {:>6.2} {:>6.2}  (of {:.1})",
                engine.label(),
                ms(percentile(&run.lat, 0.5)),
                ms(percentile(&run.lat, 0.99)),
                ms(*run.lat.last().unwrap()),
                if engine == Engine::Off {
                    "—".to_owned()
                } else {
                    run.engine_posts.to_string()
                },
                run.load_before,
                run.load_after,
                run.pressure,
                c.bot_waited,
                c.bot,
                c.bot_engine_threads,
                c.engines,
                c.bench,
                c.others,
                c.capacity,
            );
            if engine == Engine::Stockfish {
                p99_with_engine = Some(percentile(&run.lat, 0.99));
            }
        }
        if let Some(p99) = p99_with_engine {
            println!(
                "p99 ≤ 25 ms while the engine thinks: {}",
                if p99 <= Duration::from_millis(25) {
                    "yes"
                } else {
                    "NO"
                }
            );
        }
        println!(
            "moves: engine moves posted in the window; psi: the share of the last 10 s in which \
             some task waited for a core; CPU seconds: waited: the bot's threads runnable but \
             waiting for a core; bot: the bot process's CPU, (engine): its engine threads' part; \
             engines: its engine processes; bench: the fake Discord and its clients; others: the \
             rest of the machine"
        );
    });
}
