//! `cajitas local`'s `play`: a game against the computer through a pipe, as a script would
//! type it. With the real Stockfish (skipped, saying why, where there is none), with the
//! scripted fake engine (always), and without an engine.

#[path = "support/bot.rs"]
mod bot;
#[path = "support/serial.rs"]
mod serial;
#[path = "support/skip.rs"]
mod skip;

use std::path::Path;
use std::process::Output;

#[path = "support/console.rs"]
mod console;

fn local(dir: &Path, env: &[(&str, String)], script: &str) -> Output {
    console::local_with_env(dir, &["--no-png"], env, script)
}

/// The engine's moves in the output, in order ("Stockfish, level 2 plays e5."), for the
/// engine named `name`.
fn engine_moves(stdout: &str, name: &str, level: u8) -> Vec<String> {
    let prefix = format!("{name}, level {level} plays ");
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|m| m.trim_end_matches('.').to_owned())
        .collect()
}

const GAME: &str = "\
play 2 white
move e4
move Nf3
takeback
board
move d4
resign
quit
";

/// The person's e4, Nf3 and d4, each answered by the engine named `name`, a takeback granted
/// at once, the resignation.
fn check_game(out: &Output, name: &str) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    for needle in [
        format!("alice plays the computer ({name}, level 2) as White").as_str(),
        "alice plays e4.",
        "alice took back 2 moves: the computer never minds.",
        "alice plays d4.",
        "alice resigns.",
        format!("Black wins by resignation ({name} wins, 0-1).").as_str(),
    ] {
        assert!(
            stdout.contains(needle),
            "{needle:?} missing:\n{stdout}\n{stderr}"
        );
    }
    // Every move of the person is answered before the next line is read: three replies,
    // none refused.
    assert_eq!(engine_moves(&stdout, name, 2).len(), 3, "{stdout}");
    assert!(!stdout.contains("not your turn"), "{stdout}");
    assert!(!stdout.contains("may claim the game"), "{stdout}");
}

#[test]
fn the_console_plays_the_computer_with_the_fake_engine() {
    let _serial = serial::time_window();
    let dir = bot::TempDir::new("console-engine-fake");
    let script = dir.path().join("uci-script");
    std::fs::write(&script, "ok\n").unwrap();
    let out = local(
        dir.path(),
        &[
            (
                "CAJITAS_ENGINE",
                env!("CARGO_BIN_EXE_cajitas-fake-uci").to_owned(),
            ),
            ("CAJITAS_FAKE_UCI_SCRIPT", script.display().to_string()),
        ],
        GAME,
    );
    check_game(&out, "Cajitas-fake-uci");
}

#[test]
fn the_console_plays_the_computer_with_stockfish() {
    match cajitas::config::EngineSettings::from_env() {
        Ok(s) if s.program.is_some() => {}
        _ => {
            skip::no_engine(
                "the_console_plays_the_computer_with_stockfish",
                skip::NO_ENGINE,
            );
            return;
        }
    }
    let _serial = serial::time_window();
    let dir = bot::TempDir::new("console-engine-stockfish");
    // The engine is found as the bot finds it (PATH, then Debian's path).
    let out = local(dir.path(), &[], GAME);
    check_game(&out, "Stockfish");
}

#[test]
fn without_an_engine_the_console_says_how_to_add_one() {
    let dir = bot::TempDir::new("console-engine-none");
    let out = local(
        dir.path(),
        &[("CAJITAS_ENGINE", "off".into())],
        "play\nplay 9\nboard\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("apt install stockfish"), "{stdout}");
    assert!(
        stdout.contains("play [1-8] [white|black|random]"),
        "{stdout}"
    );
    // Nothing started.
    assert!(!stdout.contains("Game 1 begins"), "{stdout}");
}
