//! `cajitas replay`: the binary reads move text from a file or stdin and prints one JSON line.

#[path = "support/bot.rs"]
mod bot;

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn replay(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cajitas"))
        .arg("replay")
        .args(args)
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A run that fails before reading its input (a bad FEN) may already have closed its
    // standard input: a broken pipe here is that, not a failure of the test.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    serde_json::from_str(stdout.trim()).unwrap()
}

#[test]
fn a_game_from_stdin_in_every_notation() {
    // Move numbers (glued or not), lenient SAN, coordinates, Spanish letters, figurines, a
    // separate e.p., and a result are all taken in stride.
    let text =
        "1. e4 Cf6 2.e5 d5 3. exd6 e.p. 3...exd6 4. \u{2658}f3 d8e7+ 5. Ae2 Cc6 6. O-O Ag4 *";
    let out = replay(&[], text);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["game"], 0);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["winner"], serde_json::Value::Null);
    assert_eq!(v["claimable"], serde_json::json!([]));
    assert_eq!(v["plies"], 12);
    assert_eq!(
        v["san"],
        serde_json::json!([
            "e4", "Nf6", "e5", "d5", "exd6", "exd6", "Nf3", "Qe7+", "Be2", "Nc6", "O-O", "Bg4"
        ])
    );
    assert_eq!(
        v["fen"],
        "r3kb1r/ppp1qppp/2np1n2/8/6b1/5N2/PPPPBPPP/RNBQ1RK1 w kq - 6 7"
    );
}

#[test]
fn checkmate_from_a_file_and_the_spanish_r() {
    let dir = bot::TempDir::new("replay");
    let file = dir.path().join("mate.txt");
    std::fs::write(&file, "f3 e5\ng4 Dh4#\n0-1\n").unwrap();
    let out = replay(&[file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["status"], "checkmate");
    assert_eq!(v["winner"], "black");
    assert_eq!(v["san"][3], "Qh4#");

    // `Rd1` is the king in Spanish, the rook in English.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    let es = json(&replay(&["--fen", fen, "--lang", "es"], "Rd1"));
    assert_eq!(es["san"][0], "Kd1");
    let en = json(&replay(&["--fen", fen], "Rd1"));
    assert_eq!(en["san"][0], "Rd1");
    // Stalemate and dead position.
    let v = json(&replay(&["--fen", "7k/8/6Q1/8/8/8/8/K7 w - - 0 1"], "Qf7"));
    assert_eq!(v["status"], "stalemate");
    let v = json(&replay(
        &["--fen", "8/8/8/8/8/3k4/1q6/K7 w - - 0 1"],
        "Kxb2",
    ));
    assert_eq!(v["status"], "dead-position");
}

#[test]
fn a_bad_move_prints_the_error_line_and_exits_1() {
    let out = replay(&[], "1. e4 e5 2. Nf4");
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(
        v,
        serde_json::json!({
            "game": 0,
            "error": "No knight can reach f4. Did you mean Nf3, Ne2 or Nh3?",
            "ply": 2,
            "input": "Nf4"
        })
    );
    let v = json(&replay(&[], "e4 --"));
    assert_eq!(v["ply"], 1);
    assert_eq!(v["input"], "--");
    assert_eq!(v["error"], "A null move is not a move in a game.");
    let long = "x".repeat(10_000);
    let v = json(&replay(&[], &long));
    assert!(v["input"].as_str().unwrap().chars().count() <= 65);
}

#[test]
fn bad_fen_or_file_exits_2() {
    let out = replay(&["--fen", "not a fen"], "e4");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let out = replay(&["/no/such/file/cajitas"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn chess960_bare_moves_from_a_fen_and_a_pgn_that_says_so() {
    // Chess960 #100: White castles with the king staying on g1, Black mates on g2.
    let fen = "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1";
    let moves = "c3 b6 Ng3 Qd5 O-O Bb7 d4 Qxg2#";
    let out = replay(&["--fen", fen, "--chess960"], moves);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v = json(&out);
    assert_eq!(v["status"], "checkmate", "{v}");
    assert_eq!(v["winner"], "black");
    assert_eq!(v["plies"], 8);
    assert_eq!(v["opening"], serde_json::Value::Null);
    // The king onto its own rook is castling too.
    let out = replay(
        &["--fen", fen, "--chess960"],
        "c3 b6 Ng3 Qd5 g1h1 Bb7 d4 Qxg2#",
    );
    assert_eq!(json(&out)["status"], "checkmate");
    // Without --chess960, KQkq means standard castling rights: this FEN's are refused, and
    // the message says what to add.
    let out = replay(&["--fen", fen], moves);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--chess960"), "{stderr}");
    // Shredder-FEN letters say Chess960 by themselves.
    let shredder = "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w HEhe - 0 1";
    assert_eq!(
        json(&replay(&["--fen", shredder], moves))["status"],
        "checkmate"
    );
    // A PGN game with the Variant tag needs no flag.
    let pgn = format!(
        "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. c3 b6 2. Ng3 Qd5 3. O-O Bb7 4. d4 Qxg2# 0-1\n"
    );
    let v = json(&replay(&[], &pgn));
    assert_eq!(v["status"], "checkmate", "{v}");
    assert_eq!(v["plies"], 8);
}
