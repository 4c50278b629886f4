//! Saying that a test was skipped, and why, where `cargo test` shows it: straight to the
//! process's stderr. The harness captures `println!` and hides a passing test's output, so a
//! skip printed that way was never seen.

// Each test binary uses some of these.
#![allow(dead_code)]

use std::io::Write;

/// Why the engine tests skip on a machine without an engine.
pub const NO_ENGINE: &str = "no chess engine on this machine (CAJITAS_ENGINE unset, no \
    `stockfish` on PATH, no /usr/games/stockfish); install one with `apt-get install stockfish`";

/// Prints that `test` was skipped because of `why`.
pub fn skipped(test: &str, why: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}
