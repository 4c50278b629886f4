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

/// Set (to anything but empty or `0`) where the real engine must be tested (`.ci/run` sets
/// it): a test that would be skipped for want of an engine fails instead.
pub const REQUIRE_ENGINE_VAR: &str = "CAJITAS_REQUIRE_ENGINE";

/// Says that `test`, which needs the real engine, was skipped because of `why` (no engine,
/// or unusable engine settings); under [`REQUIRE_ENGINE_VAR`], fails the test instead.
pub fn no_engine(test: &str, why: &str) {
    assert!(
        !std::env::var(REQUIRE_ENGINE_VAR).is_ok_and(|v| !matches!(v.trim(), "" | "0")),
        "{test}: {why}; and {REQUIRE_ENGINE_VAR} is set: the engine must be tested here"
    );
    skipped(test, why);
}
