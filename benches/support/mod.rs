//! What the benches share (each includes this module with `#[path = "support/mod.rs"]`): the
//! service-level game tables of `service` and `postgres`, and the games through the fake
//! Discord of `discord`, `engine_load` and `postgres` (the test support's fake and bot
//! runner, their games set up, the open loop of moves at a fixed rate).

#![allow(dead_code)]

#[path = "../../tests/support/bot.rs"]
pub mod bot;
#[path = "../../tests/support/fake_discord.rs"]
pub mod fake_discord;

use std::time::{Duration, Instant};

use cajitas::game::{ChannelRef, ColourChoice, GameService, Lang, UserRef};
use cajitas_rules::{Position, san};
use fake_discord::{Channel, FakeDiscord, FakeUser, Recorded};
use serde_json::json;

// ---- the service, directly -------------------------------------------------------------

/// A random legal game, as SAN texts (stops before the position has no legal move).
pub fn random_script(rng: &mut fastrand::Rng, max_plies: usize) -> Vec<String> {
    let mut pos = Position::new();
    let mut out = Vec::new();
    while out.len() < max_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.usize(..legal.len())];
        out.push(san(&pos, m).to_string());
        pos.play(m);
    }
    out
}

/// The two players of every table.
pub fn players() -> (UserRef, UserRef) {
    (
        UserRef::new(1, "alice", false),
        UserRef::new(2, "bob", false),
    )
}

/// Starts a game between the two players. The challenge is open: a named one pings the
/// opponent, and the ping limit (5 per 10 minutes) would refuse the sixth game.
pub fn start(svc: &GameService, ch: ChannelRef) {
    let (a, b) = players();
    svc.challenges()
        .challenge(&a, ch, None, ColourChoice::White)
        .unwrap();
    svc.challenges().accept(&b, ch).unwrap();
}

/// A channel playing a random script, game after game.
pub struct Table {
    ch: ChannelRef,
    script: Vec<String>,
    next: usize,
}

impl Table {
    /// Starts a game in `channel`.
    pub fn new(svc: &GameService, channel: u64, rng: &mut fastrand::Rng) -> Table {
        let ch = ChannelRef {
            guild: Some(1),
            channel,
        };
        start(svc, ch);
        Table {
            ch,
            script: random_script(rng, 120),
            next: 0,
        }
    }

    /// Plays the next move of the script; starts a new game when the game or the script
    /// ends. Returns the time of the move itself.
    pub fn step(&mut self, svc: &GameService) -> Duration {
        let (a, b) = players();
        let who = if self.next.is_multiple_of(2) { &a } else { &b };
        let t0 = Instant::now();
        let r = svc
            .play()
            .play_move(who, self.ch, &self.script[self.next], Lang::En, false)
            .unwrap_or_else(|e| panic!("{}: {e}", self.script[self.next]));
        let dt = t0.elapsed();
        self.next += 1;
        if r.view.finished || self.next == self.script.len() {
            if !r.view.finished {
                svc.play().resign(&a, self.ch, None).unwrap();
            }
            start(svc, self.ch);
            self.next = 0;
        }
        dt
    }
}

/// Moves per second of `services` (one thread each) sharing `games` games in the channels
/// from `base`, `per_game` moves each.
pub fn parallel_moves_per_s(
    services: &[GameService],
    games: usize,
    per_game: usize,
    base: u64,
) -> f64 {
    let mut rng = fastrand::Rng::with_seed(7);
    let n = services.len();
    let mut tables: Vec<Vec<Table>> = (0..n).map(|_| Vec::new()).collect();
    for g in 0..games {
        tables[g % n].push(Table::new(&services[g % n], base + g as u64, &mut rng));
    }
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(n + 1));
    let handles: Vec<_> = tables
        .into_iter()
        .zip(services.iter().cloned())
        .map(|(mut mine, svc)| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                for _ in 0..per_game {
                    for t in mine.iter_mut() {
                        t.step(&svc);
                    }
                }
            })
        })
        .collect();
    barrier.wait();
    let t0 = Instant::now();
    for h in handles {
        h.join().unwrap();
    }
    (games * per_game) as f64 / t0.elapsed().as_secs_f64()
}

/// The median.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

// ---- the bot, through the fake Discord ---------------------------------------------------

/// The games of a bench through the fake Discord.
pub const GAMES: u64 = 100;
/// The `colour` option's value for white (poise sends choices as their index).
pub const WHITE: u64 = 0;

/// 40 plies without a repetition, an ending or an ambiguous SAN: pawns one step, then one more,
/// then knights and rooks.
pub const LINE: [&str; 40] = [
    "a3", "a6", "b3", "b6", "c3", "c6", "d3", "d6", "e3", "e6", "f3", "f6", "g3", "g6", "h3", "h6",
    "a4", "a5", "b4", "b5", "c4", "c5", "d4", "d5", "e4", "e5", "f4", "f5", "g4", "g5", "h4", "h5",
    "Nc3", "Nc6", "Nf3", "Nf6", "Ne2", "Ne7", "Ra2", "Ra7",
];

/// A game played through the fake: its channel (its thread once it has one), its players, and
/// how many plies were sent.
pub struct Game {
    pub ch: Channel,
    pub white: FakeUser,
    pub black: FakeUser,
    pub ply: usize,
}

/// [`GAMES`] games in guild channels; with `guilds`, spread over those guilds in turn (one per
/// shard, for several processes).
pub fn games(guilds: &[u64]) -> Vec<Game> {
    (0..GAMES)
        .map(|i| {
            let mut ch = Channel::new(1_250_000_000_000_000_000 + i);
            if !guilds.is_empty() {
                ch.guild = Some(guilds[i as usize % guilds.len()]);
            }
            Game {
                ch,
                white: FakeUser::new(950_000_000_000_000_000 + 2 * i, &format!("w{i}")),
                black: FakeUser::new(950_000_000_000_000_001 + 2 * i, &format!("b{i}")),
                ply: 0,
            }
        })
        .collect()
}

/// Challenges and accepts each game; a game whose challenge opened a thread is then played
/// there.
pub async fn setup(fake: &FakeDiscord, games: &mut [Game]) {
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
        let challenge = fake.interact(&c).await;
        let from = fake.request_count();
        let a = g.ch.command(fake, &g.black, "en-US", "accept", &[], &[]);
        let r = fake.interact(&a).await;
        // Each game in its thread (opened on the challenge message), which gets the board.
        match challenge.message_id.and_then(|m| fake.thread(m)) {
            Some(t) => {
                let board = fake.post_to(t.id, from).await;
                assert!(board.file("board.png").is_some(), "game started");
                let guild = g.ch.guild;
                g.ch = Channel::thread(t.id, g.ch.id);
                g.ch.guild = guild;
            }
            None => assert!(r.file("board.png").is_some(), "game started"),
        }
    }
}

/// The `/move` of the game's next ply, as the player to move.
pub fn move_payload(fake: &FakeDiscord, g: &Game) -> serde_json::Value {
    let user = if g.ply.is_multiple_of(2) {
        &g.white
    } else {
        &g.black
    };
    g.ch.command(
        fake,
        user,
        "en-US",
        "move",
        &[("move", json!(LINE[g.ply]))],
        &[],
    )
}

/// A move's answer: the public board, with its PNG.
pub fn check_move(r: &Recorded) {
    assert_eq!(r.callback_type(), Some(4), "{}", r.text());
    assert!(!r.is_ephemeral(), "refused: {}", r.text());
    assert!(r.files.iter().any(|f| f.data.starts_with(b"\x89PNG")));
}

/// The `p` quantile of sorted latencies.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// Moves at a fixed rate, open loop: `rate_per_s` for `seconds`, spread over `games` in turn,
/// each checked; the latencies (interaction sent on the gateway → callback received), sorted.
pub async fn open_loop(
    fake: &FakeDiscord,
    games: &mut [Game],
    rate_per_s: u64,
    seconds: u64,
) -> Vec<Duration> {
    let total = rate_per_s * seconds;
    let interval = Duration::from_nanos(1_000_000_000 / rate_per_s);
    let t0 = tokio::time::Instant::now();
    let mut pending = Vec::new();
    let n = games.len() as u64;
    for k in 0..total {
        tokio::time::sleep_until(t0 + interval * k as u32).await;
        let g = &mut games[(k % n) as usize];
        let payload = move_payload(fake, g);
        g.ply += 1;
        let sent = Instant::now();
        let rx = fake.send_interaction(&payload);
        pending.push(tokio::spawn(async move {
            let r = rx.await.expect("answered");
            check_move(&r);
            r.at.duration_since(sent)
        }));
    }
    let mut lat = Vec::new();
    for p in pending {
        lat.push(p.await.unwrap());
    }
    lat.sort();
    lat
}

/// A duration in milliseconds, two decimals.
pub fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}
