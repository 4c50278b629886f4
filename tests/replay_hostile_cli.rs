//! `cajitas replay` on hostile input (issue 12): the process answers with JSON lines and
//! exits normally, never crashes, and never echoes an unbounded amount of the input.

#[path = "support/replay.rs"]
mod replay_support;

use std::process::Output;

use replay_support::{lines, replay};

/// Exit 0 or 1 (a game failed): anything else (a signal, exit 101 or 134) is a crash.
fn assert_exits_normally(out: &Output) {
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "status {:?}, stderr {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Item 6: `1.1.1.…e4` (100,000 glued move numbers) once overflowed the stack: exit 134.
#[test]
fn glued_move_numbers_do_not_crash_the_process() {
    let text = format!("{{c}} {}e4 *\n", "1.".repeat(100_000));
    let out = replay(&[], text.as_bytes());
    assert_exits_normally(&out);
    let games = lines(&out);
    assert_eq!(games.len(), 1, "{games:?}");
    // Read fine (one move number, then e4), or an error line for that game.
    match games[0].get("error") {
        None => assert_eq!(games[0]["san"], serde_json::json!(["e4"])),
        Some(e) => assert!(e.as_str().is_some_and(|e| !e.is_empty()), "{e}"),
    }
}

/// Item 9: a 1 MB token once gave a 1 MB `error` field (the `input` field was already
/// capped). Both are capped alike now, in PGN and in bare move text.
#[test]
fn a_huge_token_gives_a_short_line() {
    let long = "N".repeat(1 << 20);
    for text in [
        format!("[Event \"x\"]\n1. e4 {long} *\n"),
        format!("[Event \"x\"]\n1. f3 e5 2. g4 Qh4# 3. {long} 0-1\n"),
        format!("[Variant \"{long}\"]\n1. e4 *\n"),
        format!("1. e4 {long}\n"),
    ] {
        let out = replay(&[], text.as_bytes());
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout.len() < 1000,
            "{} bytes of output",
            out.stdout.len()
        );
        let games = lines(&out);
        assert_eq!(games.len(), 1);
        let input = games[0]["input"].as_str().unwrap();
        assert!(input.ends_with('\u{2026}'), "{input}");
        assert!(!games[0]["error"].as_str().unwrap().is_empty());
    }
}
