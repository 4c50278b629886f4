//! `CAJITAS_METRICS`: the real bot against the fake Discord serves Prometheus metrics, and a
//! scrape over HTTP shows what happened (interactions by command and outcome, the first
//! callback's latency, the moves, the games in progress, REST failures, the engine's queue,
//! the gateway latency of shard 0). Off by default; a bad address stops the bot with exit 2.

mod support;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use support::fake_discord::{Channel, Failure};
use support::world::{World, alice, assert_refused, bob};

/// One sample: the metric's name and its labels, sorted.
type Series = (String, BTreeMap<String, String>);

/// `GET path` on `addr`: the status code, the `Content-Type` and the body.
async fn get(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: test\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut raw = String::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_string(&mut raw))
        .await
        .expect("the endpoint answers and closes")
        .unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a head and a body");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let content_type = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Type: "))
        .unwrap_or_default()
        .to_string();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .expect("a Content-Length")
        .parse()
        .unwrap();
    assert_eq!(length, body.len(), "Content-Length matches the body");
    (status, content_type, body.to_string())
}

/// Parses the text exposition format: every sample line, checked for its shape; every
/// metric has its `# TYPE` before its samples.
fn parse(text: &str) -> Vec<(Series, f64)> {
    let mut typed = std::collections::HashSet::new();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').unwrap();
            assert!(
                ["counter", "gauge", "histogram", "summary"].contains(&kind),
                "{line}"
            );
            typed.insert(name.to_string());
            continue;
        }
        if line.starts_with("# HELP ") {
            continue;
        }
        assert!(!line.starts_with('#'), "unknown comment: {line}");
        let (series, value) = line.rsplit_once(' ').unwrap();
        let value: f64 = value
            .parse()
            .unwrap_or_else(|_| panic!("not a number: {line}"));
        let (name, labels) = match series.split_once('{') {
            Some((name, rest)) => {
                let inner = rest.strip_suffix('}').unwrap_or_else(|| panic!("{line}"));
                let labels = inner
                    .split("\",")
                    .map(|kv| {
                        let (k, v) = kv.split_once("=\"").unwrap_or_else(|| panic!("{line}"));
                        (k.to_string(), v.trim_end_matches('"').to_string())
                    })
                    .collect();
                (name.to_string(), labels)
            }
            None => (series.to_string(), BTreeMap::new()),
        };
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':'),
            "{line}"
        );
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| name.strip_suffix(s).filter(|f| typed.contains(*f)))
            .unwrap_or(&name);
        assert!(typed.contains(family), "no # TYPE before {line}");
        out.push(((name, labels), value));
    }
    out
}

/// The value of `name` with exactly `labels`, if present.
fn value(samples: &[(Series, f64)], name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let want: BTreeMap<String, String> = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    samples
        .iter()
        .find(|((n, l), _)| n == name && *l == want)
        .map(|(_, v)| *v)
}

/// The sum of every sample of `name` whose labels include `labels`.
fn sum(samples: &[(Series, f64)], name: &str, labels: &[(&str, &str)]) -> f64 {
    samples
        .iter()
        .filter(|((n, l), _)| {
            n == name
                && labels
                    .iter()
                    .all(|(k, v)| l.get(*k).map(String::as_str) == Some(*v))
        })
        .map(|(_, v)| v)
        .sum()
}

/// The address the bot logged for its metrics (it was asked for port 0: any free port).
async fn metrics_addr(w: &World) -> SocketAddr {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let log = w.bot().log_text();
        if let Some(rest) = log.split("metrics served at http://").nth(1) {
            return rest.split('/').next().unwrap().parse().unwrap();
        }
        assert!(
            Instant::now() < deadline,
            "no metrics address logged:\n{log}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The TCP ports `pid` listens on: its socket inodes matched against the kernel's tables of
/// listening sockets (state 0A).
fn listening_ports(pid: u32) -> Vec<u16> {
    let inodes: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter_map(|l| {
            l.to_str()?
                .strip_prefix("socket:[")?
                .strip_suffix(']')
                .map(str::to_owned)
        })
        .collect();
    let mut ports = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let text = std::fs::read_to_string(table).unwrap_or_default();
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() > 9 && f[3] == "0A" && inodes.iter().any(|i| i == f[9]) {
                let port = f[1].rsplit(':').next().unwrap();
                ports.push(u16::from_str_radix(port, 16).unwrap());
            }
        }
    }
    ports
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_shows_the_interactions_moves_games_and_gateway() {
    let w = World::start(
        "metrics",
        vec![
            ("CAJITAS_METRICS", "127.0.0.1:0".into()),
            ("CAJITAS_ENGINE", "off".into()),
        ],
    )
    .await;
    let addr = metrics_addr(&w).await;
    assert!(addr.ip().is_loopback() && addr.port() != 0, "{addr}");
    assert_eq!(listening_ports(w.bot().pid()), vec![addr.port()]);

    // A game: the challenge, the accept, three moves; a move that is not one, and a move out
    // of turn, are refused.
    w.start_game().await;
    for (user, text) in [(alice(), "e4"), (bob(), "e5"), (alice(), "Nf3")] {
        let r = w.mv(&user, "en-US", text).await;
        assert!(!r.is_ephemeral(), "{text}: {}", r.text());
    }
    assert_refused(&w.mv(&bob(), "en-US", "zz9").await, "e2e4");
    let out_of_turn = w.mv(&alice(), "en-US", "d4").await;
    assert!(out_of_turn.is_ephemeral(), "{}", out_of_turn.text());

    // /help whose first callback gets a 429, then a 500: retried, answered, both counted.
    for (status, body) in [
        (
            429,
            json!({"message": "You are being rate limited.", "retry_after": 0.1, "global": false, "code": 0}),
        ),
        (500, json!({"message": "oops", "code": 0})),
    ] {
        w.fake.fail_next(Failure {
            path_contains: "/callback".into(),
            status,
            body,
            delay: Duration::ZERO,
        });
        let help = w
            .fake
            .interact(&Channel::new(1_200_000_000_000_000_009).command(
                &w.fake,
                &alice(),
                "en-US",
                "help",
                &[],
                &[],
            ))
            .await;
        assert!(help.content().contains("/move"), "{}", help.content());
    }

    // The gateway latency appears after the first heartbeat's ACK (the fake's heartbeat is
    // short); a scrape refreshes the sampled values at most once a second.
    let deadline = Instant::now() + Duration::from_secs(20);
    let (content_type, samples) = loop {
        let (status, content_type, body) = get(addr, "/metrics").await;
        assert_eq!(status, 200, "{body}");
        let samples = parse(&body);
        if value(
            &samples,
            "cajitas_gateway_latency_seconds",
            &[("shard", "0")],
        )
        .is_some()
        {
            break (content_type, samples);
        }
        assert!(
            Instant::now() < deadline,
            "no gateway latency for shard 0:\n{body}"
        );
        tokio::time::sleep(Duration::from_millis(1100)).await;
    };
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );

    let interactions = |command: &str, outcome: &str| {
        value(
            &samples,
            "cajitas_interactions_total",
            &[("command", command), ("outcome", outcome)],
        )
        .unwrap_or(0.0)
    };
    assert_eq!(interactions("challenge", "ok"), 1.0);
    assert_eq!(interactions("accept", "ok"), 1.0);
    assert_eq!(interactions("move", "ok"), 3.0);
    assert_eq!(interactions("move", "refused"), 2.0);
    assert_eq!(interactions("help", "ok"), 2.0);
    assert_eq!(interactions("move", "failed"), 0.0);
    let answered = sum(&samples, "cajitas_interactions_total", &[]);
    assert_eq!(answered, 9.0);

    assert_eq!(
        value(&samples, "cajitas_moves_total", &[("by", "player")]),
        Some(3.0)
    );
    assert_eq!(sum(&samples, "cajitas_moves_total", &[]), 3.0);
    assert_eq!(value(&samples, "cajitas_active_games", &[]), Some(1.0));
    assert_eq!(
        value(&samples, "cajitas_engine_queue_depth", &[]),
        Some(0.0)
    );
    let latency = value(
        &samples,
        "cajitas_gateway_latency_seconds",
        &[("shard", "0")],
    )
    .unwrap();
    assert!((0.0..5.0).contains(&latency), "{latency}");

    // Every interaction's first callback, as a histogram with its buckets.
    let h = "cajitas_interaction_first_callback_seconds";
    assert_eq!(value(&samples, &format!("{h}_count"), &[]), Some(answered));
    let inf = value(&samples, &format!("{h}_bucket"), &[("le", "+Inf")]);
    assert_eq!(inf, Some(answered));
    let within_3s = value(&samples, &format!("{h}_bucket"), &[("le", "3")]).unwrap();
    assert_eq!(
        within_3s, answered,
        "every first callback within Discord's 3 s"
    );
    let buckets = samples
        .iter()
        .filter(|((n, _), _)| *n == format!("{h}_bucket"))
        .count();
    assert!(buckets >= 10, "{buckets} buckets");
    let sum_secs = value(&samples, &format!("{h}_sum"), &[]).unwrap();
    assert!(sum_secs > 0.0 && sum_secs < 3.0 * answered, "{sum_secs}");

    // The injected failures, by call and status.
    let rest = |status: &str| {
        value(
            &samples,
            "cajitas_rest_errors_total",
            &[("call", "callback"), ("status", status)],
        )
    };
    assert_eq!(rest("429"), Some(1.0));
    assert_eq!(rest("500"), Some(1.0));

    // Only /metrics is served.
    let (status, _, _) = get(addr, "/").await;
    assert_eq!(status, 404);
    let (status, _, _) = get(addr, "/metrics/../secret").await;
    assert_eq!(status, 404);
}

/// Idle sockets do not hold the endpoint: 64 connections that send nothing are open, and a
/// scrape is still answered within a second. (A slot used to be taken before `accept` and
/// kept for a 5 s read timeout, so 8 silent connections delayed a scrape by about 5 s and 64
/// by 40 s.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_is_answered_while_64_idle_connections_are_open() {
    let w = World::start(
        "metrics-idle",
        vec![("CAJITAS_METRICS", "127.0.0.1:0".to_owned())],
    )
    .await;
    let addr = metrics_addr(&w).await;
    // (On the way: a bot on a new database file says so on its first line, and its log file
    // has no colour codes.)
    let log = w.bot().log_text();
    let first = log.lines().next().unwrap_or_default();
    assert!(first.contains("no database file there"), "{log}");
    assert!(
        !log.contains('\u{1b}'),
        "colour codes in the log file: {log}"
    );
    let mut idle = Vec::new();
    for _ in 0..64 {
        idle.push(tokio::net::TcpStream::connect(addr).await.unwrap());
    }
    // Long enough for the endpoint to have accepted them all.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    let (status, _, body) = get(addr, "/metrics").await;
    let took = started.elapsed();
    assert_eq!(status, 200, "{body}");
    assert!(
        took < Duration::from_secs(1),
        "a scrape took {took:?} behind 64 idle connections"
    );
    // The idle ones are closed after the short header timeout, without an answer.
    let mut first = idle.swap_remove(0);
    let mut rest = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), first.read_to_end(&mut rest))
        .await
        .expect("an idle connection is closed");
    assert!(rest.is_empty(), "{rest:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_off_by_default() {
    let w = World::start("nometrics", vec![("CAJITAS_METRICS", String::new())]).await;
    w.start_game().await;
    w.mv(&alice(), "en-US", "e4").await;
    let log = w.bot().log_text();
    assert!(!log.contains("metrics served"), "{log}");
    assert_eq!(
        listening_ports(w.bot().pid()),
        Vec::<u16>::new(),
        "the bot listens on nothing"
    );
}

/// `cajitas run` with `CAJITAS_METRICS=value`: its exit code and stderr.
fn run_with_metrics(value: &str) -> (Option<i32>, String) {
    let dir = support::bot::TempDir::new("badmetrics");
    let out = Command::new(env!("CARGO_BIN_EXE_cajitas"))
        .arg("run")
        .current_dir(dir.path())
        .env("DISCORD_TOKEN", "MTAw.fake00.fakefakefake")
        // Nothing listens there: the bot never gets as far as connecting.
        .env("DISCORD_API_BASE", "http://127.0.0.1:9")
        .env("CAJITAS_DB", dir.path().join("c.db"))
        .env("CAJITAS_METRICS", value)
        .env_remove("DISCORD_GUILD_ID")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_bad_metrics_address_exits_2() {
    for bad in ["localhost:9100", "127.0.0.1", "127.0.0.1:70000", "metrics"] {
        let (code, err) = run_with_metrics(bad);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(err.contains("CAJITAS_METRICS"), "{bad}: {err}");
        assert!(
            err.contains("127.0.0.1:9100"),
            "the message shows an example: {err}"
        );
    }
    // A taken port stops the bot too, before it connects anywhere.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let (code, err) = run_with_metrics(&addr);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("cannot serve the metrics") && err.contains(&addr),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scheduler_lag_of_an_overdue_timeout_is_seen() {
    use cajitas::game::{
        ChannelRef, Clock, ColourChoice, DAY_MS, GameService, Lang, ManualClock, ServiceOptions,
        SystemClock, UserRef,
    };
    let fake = support::fake_discord::FakeDiscord::start(300).await;
    let dir = support::bot::TempDir::new("metrics-lag");
    let db = dir.path().join("cajitas.db");
    let now = SystemClock.now_ms();
    // The database as a bot that stopped two days ago left it: white's day ran out a day ago.
    let prep = db.clone();
    tokio::task::spawn_blocking(move || {
        let clock = Arc::new(ManualClock::new(now - 2 * DAY_MS));
        let svc = GameService::open(&prep, ServiceOptions::with_clock(clock)).unwrap();
        let (w, b) = (
            UserRef::new(900_000_000_000_000_001, "alice", false),
            UserRef::new(900_000_000_000_000_002, "bob", false),
        );
        let ch = ChannelRef {
            guild: Some(support::fake_discord::GUILD_ID),
            channel: 1_200_000_000_000_000_301,
        };
        svc.challenges()
            .challenge_timed(&w, ch, None, ColourChoice::White, "1d".parse().unwrap())
            .unwrap();
        svc.challenges().accept(&b, ch).unwrap();
        svc.play().play_move(&w, ch, "e4", Lang::En, false).unwrap();
        svc.play().play_move(&b, ch, "e5", Lang::En, false).unwrap();
    })
    .await
    .unwrap();
    let bot = support::bot::Bot::start(support::bot::BotOptions {
        api_base: &fake.base,
        db: &db,
        log: dir.path().join("bot.log"),
        env: vec![
            ("CAJITAS_METRICS", "127.0.0.1:0".into()),
            ("CAJITAS_ENGINE", "off".into()),
        ],
    });
    fake.wait_ready(1).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let addr: SocketAddr = loop {
        let log = bot.log_text();
        if let Some(rest) = log.split("metrics served at http://").nth(1) {
            break rest.split('/').next().unwrap().parse().unwrap();
        }
        assert!(Instant::now() < deadline, "{log}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let h = "cajitas_scheduler_lag_seconds";
    let samples = loop {
        let (status, _, body) = get(addr, "/metrics").await;
        assert_eq!(status, 200);
        let samples = parse(&body);
        if value(&samples, &format!("{h}_count"), &[("kind", "timeout")]).is_some()
            && value(&samples, "cajitas_active_games", &[]) == Some(0.0)
        {
            break samples;
        }
        assert!(Instant::now() < deadline, "no timeout handled:\n{body}");
        tokio::time::sleep(Duration::from_millis(1100)).await;
    };
    // The timeout fell due a day before the bot started, and was handled at its start.
    assert_eq!(
        value(&samples, &format!("{h}_count"), &[("kind", "timeout")]),
        Some(1.0)
    );
    let lag = value(&samples, &format!("{h}_sum"), &[("kind", "timeout")]).unwrap();
    let day = (DAY_MS / 1000) as f64;
    assert!(lag >= day && lag < day + 60.0, "{lag}");
    let bucket = |le: &str| {
        value(
            &samples,
            &format!("{h}_bucket"),
            &[("kind", "timeout"), ("le", le)],
        )
    };
    assert_eq!(bucket("3600"), Some(0.0));
    assert_eq!(bucket("+Inf"), Some(1.0));
    // Its reminder (due at 80% of the day) was handled in the same round, later still.
    let reminder = value(&samples, &format!("{h}_sum"), &[("kind", "reminder")]).unwrap();
    assert!(reminder > lag, "{reminder} {lag}");
    drop(bot);
}

/// Scrapes `addr` until `ready` holds for the samples (at most 20 s); returns them.
async fn scrape_until(
    addr: SocketAddr,
    ready: impl Fn(&[(Series, f64)]) -> bool,
) -> Vec<(Series, f64)> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, _, body) = get(addr, "/metrics").await;
        assert_eq!(status, 200, "{body}");
        let samples = parse(&body);
        if ready(&samples) {
            return samples;
        }
        assert!(Instant::now() < deadline, "never ready:\n{body}");
        tokio::time::sleep(Duration::from_millis(1100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_s_moves_are_counted_apart() {
    // The scripted fake engine of the tests: it plays legal moves at once.
    let dir = support::bot::TempDir::new("metrics-uci");
    let script = dir.path().join("script");
    std::fs::write(&script, "ok\n").unwrap();
    let w = World::start(
        "metrics-engine",
        vec![
            ("CAJITAS_FAKE_UCI_SCRIPT", script.display().to_string()),
            ("CAJITAS_METRICS", "127.0.0.1:0".into()),
            (
                "CAJITAS_ENGINE",
                env!("CARGO_BIN_EXE_cajitas-fake-uci").into(),
            ),
            ("CAJITAS_ENGINE_PROCESSES", "1".into()),
        ],
    )
    .await;
    let addr = metrics_addr(&w).await;
    let from = w.fake.request_count();
    let r = w
        .cmd(
            &alice(),
            "en-US",
            "play",
            &[("level", json!(5)), ("colour", json!(0))],
        )
        .await;
    assert!(!r.is_ephemeral(), "{}", r.text());
    // The game is played in the thread opened on /play's answer, once its first board is there.
    let thread = r.message_id.expect("/play answers with a message");
    w.fake.post_to(thread, from).await;
    w.play_in(Channel::thread(thread, w.parent().id));
    let e4 = w.mv(&alice(), "en-US", "e4").await;
    assert!(!e4.is_ephemeral(), "{}", e4.text());
    let samples = scrape_until(addr, |s| {
        value(s, "cajitas_moves_total", &[("by", "engine")]).is_some()
    })
    .await;
    assert_eq!(
        value(&samples, "cajitas_moves_total", &[("by", "engine")]),
        Some(1.0)
    );
    assert_eq!(
        value(&samples, "cajitas_moves_total", &[("by", "player")]),
        Some(1.0)
    );
    assert_eq!(
        value(
            &samples,
            "cajitas_interactions_total",
            &[("command", "play"), ("outcome", "ok")]
        ),
        Some(1.0)
    );
    assert_eq!(value(&samples, "cajitas_active_games", &[]), Some(1.0));
    assert_eq!(
        value(&samples, "cajitas_engine_queue_depth", &[]),
        Some(0.0)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_shard_has_its_gateway_latency() {
    let w = World::start(
        "metrics-shards",
        vec![
            ("CAJITAS_METRICS", "127.0.0.1:0".into()),
            ("CAJITAS_ENGINE", "off".into()),
            ("CAJITAS_SHARDS", "0-1/2".into()),
        ],
    )
    .await;
    let addr = metrics_addr(&w).await;
    let latency = |s: &[(Series, f64)], shard: &str| {
        value(s, "cajitas_gateway_latency_seconds", &[("shard", shard)])
    };
    let samples = scrape_until(addr, |s| {
        latency(s, "0").is_some() && latency(s, "1").is_some()
    })
    .await;
    let shards: Vec<&str> = samples
        .iter()
        .filter(|((n, _), _)| n == "cajitas_gateway_latency_seconds")
        .map(|((_, l), _)| l["shard"].as_str())
        .collect();
    assert_eq!(shards.len(), 2, "{shards:?}");
}
