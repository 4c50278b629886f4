//! A scripted fake UCI engine for the engine room's failure tests (`tests/engine_fake.rs`).
//! Test-only: built as the binary `cajitas-fake-uci` so that integration tests find it as
//! `CARGO_BIN_EXE_cajitas-fake-uci` (cargo builds a package's binaries before its tests),
//! and it plays legal moves with the rules crate when it behaves.
//!
//! `cajitas-fake-uci SCRIPT` (or `CAJITAS_FAKE_UCI_SCRIPT=SCRIPT cajitas-fake-uci`, as the
//! bot starts it through `CAJITAS_ENGINE`): SCRIPT is a file of behaviours, one per line, taken in turn by
//! each `go` across restarts (a counter is kept in `SCRIPT.count`); after the last line, the
//! last behaviour repeats. Behaviours:
//! - `ok`: an `info` line, then the first legal move;
//! - `crash`: an `info` line, then the process exits mid-search;
//! - `hang`: never answers (and ignores `stop`), until its input closes;
//! - `illegal`: answers `bestmove a1a1`;
//! - `garbage`: answers `bestmove ???`;
//! - `long`: prints a 1 MB line, then behaves like `ok`;
//! - `setoption name UCI_Chess960 value true|false` is honoured as a real engine does: a
//!   Chess960 FEN is read (and castling written as the king taking its rook) only with it on;
//! - `think`: like a real engine without its work: an `info` line per depth spread over the
//!   `go` command's `movetime` or its `nodes` at 1 M nodes a second, whichever ends first (asleep meanwhile, using no CPU), then the first legal move
//!   (for `benches/engine_load.rs`, to tell the bot's own engine handling from the
//!   engine's CPU).

use std::io::{BufRead, Write};
use std::path::PathBuf;

use cajitas_rules::{CastlingMode, Position, Uci};

fn next_behaviour(script: &std::path::Path) -> String {
    let lines: Vec<String> = std::fs::read_to_string(script)
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect();
    let counter = script.with_extension("count");
    let n: usize = std::fs::read_to_string(&counter)
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0);
    let _ = std::fs::write(&counter, (n + 1).to_string());
    lines
        .get(n)
        .or(lines.last())
        .cloned()
        .unwrap_or_else(|| "ok".into())
}

fn position_of(cmd: &str, mode: CastlingMode) -> Option<Position> {
    let (head, moves) = match cmd.split_once(" moves ") {
        Some((h, m)) => (h, m),
        None => (cmd, ""),
    };
    let head = head.trim_start_matches("position").trim();
    let mut pos = if head == "startpos" {
        Position::new()
    } else {
        Position::from_fen_with(head.strip_prefix("fen")?.trim(), mode).ok()?
    };
    for w in moves.split_whitespace() {
        let m = w.parse::<Uci>().ok()?.to_move(&pos).ok()?;
        pos.play(m);
    }
    Some(pos)
}

fn main() {
    // The script from the command line, or (for the bot, which starts its engine without
    // arguments) from CAJITAS_FAKE_UCI_SCRIPT.
    let script = PathBuf::from(
        std::env::args()
            .nth(1)
            .or_else(|| std::env::var("CAJITAS_FAKE_UCI_SCRIPT").ok())
            .expect("usage: cajitas-fake-uci SCRIPT (or CAJITAS_FAKE_UCI_SCRIPT)"),
    );
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut pos = Position::new();
    // Set by `hang`: every later command goes unanswered, until the input closes (its bot
    // died or dropped it), when the process ends rather than outliving the bot.
    let mut hanging = false;
    let mut mode = CastlingMode::Standard;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if hanging {
            continue;
        }
        let cmd = line.trim();
        let say = |out: &mut std::io::Stdout, text: &str| {
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
        };
        if cmd == "uci" {
            say(&mut out, "id name CajitasFake");
            say(&mut out, "uciok");
        } else if cmd == "isready" {
            say(&mut out, "readyok");
        } else if cmd == "quit" {
            return;
        } else if let Some(value) = cmd.strip_prefix("setoption name UCI_Chess960 value ") {
            mode = if value.trim() == "true" {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
        } else if cmd.starts_with("position") {
            if let Some(p) = position_of(cmd, mode) {
                pos = p;
            }
        } else if cmd.starts_with("go") {
            let behaviour = next_behaviour(&script);
            let first = pos.legal_moves().first().copied();
            let best = first.map_or("(none)".to_owned(), |m| pos.uci(m).to_string());
            match behaviour.as_str() {
                "crash" => {
                    say(&mut out, "info depth 1 score cp 0");
                    std::process::exit(3);
                }
                "hang" => hanging = true,
                "illegal" => say(&mut out, "bestmove a1a1"),
                "think" => {
                    let arg = |name: &str| -> Option<u64> {
                        cmd.split_whitespace()
                            .skip_while(|w| *w != name)
                            .nth(1)
                            .and_then(|n| n.parse().ok())
                    };
                    // A node budget takes the time a real engine's 1 M nodes a second would;
                    // with a move time too, whichever ends first.
                    let ms: u64 = match (arg("movetime"), arg("nodes").map(|n| n / 1000)) {
                        (Some(t), Some(n)) => t.min(n),
                        (t, n) => t.or(n).unwrap_or(1000),
                    };
                    const DEPTHS: u64 = 20;
                    for depth in 1..=DEPTHS {
                        std::thread::sleep(std::time::Duration::from_millis(ms / DEPTHS));
                        say(
                            &mut out,
                            &format!(
                                "info depth {depth} seldepth {depth} multipv 1 score cp 20 nodes 1000 nps 100000 time {} pv {best}",
                                ms * depth / DEPTHS
                            ),
                        );
                    }
                    say(&mut out, &format!("bestmove {best}"));
                }
                "garbage" => say(&mut out, "bestmove ???"),
                "long" => {
                    let junk = "x".repeat(1 << 20);
                    say(&mut out, &format!("info string {junk}"));
                    say(&mut out, "info depth 1 score cp 7");
                    say(&mut out, &format!("bestmove {best}"));
                }
                _ => {
                    say(&mut out, "info depth 1 score cp 7");
                    say(&mut out, &format!("bestmove {best}"));
                }
            }
        }
    }
}
