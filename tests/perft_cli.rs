//! `cajitas perft`, run as a program.

use std::process::Command;

fn perft(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cajitas"))
        .arg("perft")
        .args(args)
        .env_remove("DISCORD_TOKEN")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn counts_the_initial_position() {
    let (code, out, err) = perft(&["4"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "nodes 197281\n");
    assert!(err.contains("Mnps"), "timing goes to stderr: {err}");
}

#[test]
fn divide_prints_every_root_move_then_the_total_last() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (code, out, _) = perft(&["3", "--fen", kiwipete, "--divide"]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 49);
    assert_eq!(*lines.last().unwrap(), "nodes 97862");
    let mut sum = 0u64;
    for line in &lines[..48] {
        let (uci, n) = line.split_once(": ").expect("`UCI: count`");
        assert!((4..=5).contains(&uci.len()), "{line}");
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 97862);
    assert!(
        lines.iter().any(|l| l.starts_with("e1g1: ")),
        "castling as e1g1"
    );
    assert!(lines.iter().any(|l| l.starts_with("e1c1: ")));
}

#[test]
fn a_bad_fen_names_the_field_and_exits_2() {
    let (code, out, err) = perft(&["2", "--fen", "8/8/8/8/8/8/8/K6k w XYZ - 0 1"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("castling field"), "{err}");
    let (code, _, err) = perft(&["2", "--fen", "8/8/8/8/8/8/8/K7 w - - 0 1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("black has 0 kings"), "{err}");
    assert!(!err.contains("panicked"));
}
