//! `cajitas replay` on PGN with several games, the FIDE draw statuses and the claimable
//! draws (issue 5).

#[path = "support/replay.rs"]
mod replay_support;

use replay_support::{lines, replay};
use serde_json::{Value, json};

fn one(args: &[&str], stdin: &str) -> Value {
    let out = replay(args, stdin.as_bytes());
    let mut v = lines(&out);
    assert_eq!(v.len(), 1, "{}", String::from_utf8_lossy(&out.stdout));
    v.remove(0)
}

fn data(name: &str) -> String {
    format!("{}/rules/tests/data/pgn/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_pgn_file_with_several_games() {
    let out = replay(&[&data("historical.pgn")], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = lines(&out);
    assert_eq!(games.len(), 8);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["game"], i);
        assert!(g.get("error").is_none(), "{g}");
    }
    assert_eq!(games[0]["status"], "checkmate");
    assert_eq!(games[0]["winner"], "white");
    assert_eq!(games[0]["plies"], 33);
    assert_eq!(games[0]["san"][32], "Rd8#");
    assert_eq!(games[3]["winner"], "black");
    assert_eq!(games[3]["san"][81], "Rc2#");
    assert_eq!(games[4]["status"], "ongoing");
    assert_eq!(games[4]["winner"], Value::Null);

    let out = replay(&[&data("lichess.pgn")], b"");
    assert_eq!(out.status.code(), Some(0));
    let games = lines(&out);
    assert_eq!(games.len(), 4);
    assert_eq!(games[1]["fen"], "R6k/8/6K1/8/8/8/8/8 b - - 1 1");
    assert_eq!(games[3]["status"], "fivefold-repetition");
    assert_eq!(games[3]["winner"], Value::Null);
    assert_eq!(games[3]["claimable"], json!([]));
    assert_eq!(games[3]["plies"], 16);
}

#[test]
fn a_failing_game_is_reported_and_the_next_ones_go_on() {
    let text = "[Event \"1\"]\n\n1. e4 e5 *\n\n[Event \"2\"]\n\n1. e4 e5\n2. Ke3 *\n\n\
                [Event \"3\"]\n\n1. d4 {a comment} d5 (1... Nf6) 1/2-1/2\n";
    let out = replay(&[], text.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let games = lines(&out);
    assert_eq!(games.len(), 3);
    assert_eq!(games[0]["plies"], 2);
    assert_eq!(games[1]["game"], 1);
    assert_eq!(games[1]["ply"], 2);
    assert_eq!(games[1]["input"], "Ke3");
    let error = games[1]["error"].as_str().unwrap();
    assert!(error.starts_with("line 8: 2. Ke3: "), "{error}");
    assert_eq!(games[2]["san"], json!(["d4", "d5"]));

    // Malformed PGN: the line is named.
    let v = one(&[], "[Event \"x\"]\n[White \"unclosed]\n\n1. e4 *\n");
    assert!(v["error"].as_str().unwrap().starts_with("line 2: "), "{v}");
    let v = one(&[], "1. e4 {never closed\n2. d4 *\n");
    assert!(v["error"].as_str().unwrap().starts_with("line 1: "), "{v}");
}

#[test]
fn draw_statuses() {
    let dance = "Nf3 Nf6 Ng1 Ng8 ";
    // Fivefold repetition, and nothing may follow it.
    let v = one(&[], &dance.repeat(4));
    assert_eq!(v["status"], "fivefold-repetition");
    assert_eq!(v["winner"], Value::Null);
    let v = one(&[], &format!("{} e4", dance.repeat(4)));
    assert_eq!(v["ply"], 16);
    assert_eq!(v["input"], "e4");
    assert!(v["error"].as_str().unwrap().contains("fivefold"), "{v}");
    // The 75-move rule, and a mate on the move that reaches it.
    let fen = "7k/8/6K1/8/8/8/8/R7 w - - 149 120";
    assert_eq!(one(&["--fen", fen], "Ra7")["status"], "seventy-five-moves");
    let v = one(&["--fen", fen], "Ra8#");
    assert_eq!(v["status"], "checkmate");
    assert_eq!(v["winner"], "white");
    // The same through PGN with a FEN tag.
    let pgn = format!("[FEN \"{fen}\"]\n\n120. Ra7 *");
    assert_eq!(one(&[], &pgn)["status"], "seventy-five-moves");
}

#[test]
fn claimable_draws() {
    let dance = "Nf3 Nf6 Ng1 Ng8 ";
    // After 7 plies Black can claim by writing ...Ng8; after 8 the position is there a
    // third time: a claim now. Threefold is not automatic.
    let v = one(&[], "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["claimable"], json!(["threefold-repetition"]));
    let v = one(&[], &dance.repeat(2));
    assert_eq!(v["claimable"], json!(["threefold-repetition"]));
    let v = one(&[], "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6");
    assert_eq!(v["claimable"], json!([]));
    // The 50-move rule, now or with a move; and both at once.
    let fen = |h: u32| format!("4k3/8/8/8/8/8/4P3/R3K3 w - - {h} 80");
    assert_eq!(
        one(&["--fen", &fen(100)], "")["claimable"],
        json!(["fifty-moves"])
    );
    assert_eq!(
        one(&["--fen", &fen(99)], "")["claimable"],
        json!(["fifty-moves"])
    );
    assert_eq!(one(&["--fen", &fen(98)], "")["claimable"], json!([]));
    let v = one(&["--fen", &fen(92)], "Ra2 Kd8 Ra1 Ke8 Ra2 Kd8 Ra1");
    assert_eq!(
        v["claimable"],
        json!(["threefold-repetition", "fifty-moves"])
    );
    // The en passant square that no pawn can use does not make a position new.
    let pinned = "6n1/8/8/8/k2p3R/8/4P1K1/8 w - - 0 1";
    let v = one(&["--fen", pinned], "e4 Nf6 Kg1 Ng8 Kg2 Nf6 Kg1 Ng8 Kg2");
    assert_eq!(v["claimable"], json!(["threefold-repetition"]));
}

#[test]
fn bom_crlf_and_latin1_input() {
    let mut bytes = b"\xef\xbb\xbf[Event \"x\"]\r\n[White \"".to_vec();
    bytes.extend_from_slice(b"Ca\xefssa\"]\r\n\r\n1. e4 e5 2. Nf3 1-0\r\n");
    // Not UTF-8 (a Latin-1 byte after a UTF-8 BOM): read as Latin-1, still replayed.
    let out = replay(&[], &bytes);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let bytes = "\u{feff}[Event \"x\"]\r\n\r\n1. e4 {[%clk 0:03:00]} e5 2. Nf3 $1 1-0\r\n";
    let v = one(&[], bytes);
    assert_eq!(v["plies"], 3);
    // Bare move text with a BOM.
    assert_eq!(one(&[], "\u{feff}e4 e5")["plies"], 2);
}

#[test]
fn games_without_tags_are_separated_by_their_results() {
    // Movetext with no tag pairs is still PGN when a result ends one game and more moves
    // follow: two games, not one game of four plies.
    let out = replay(&[], b"1. e4 e5 *\n\n1. d4 d5 1/2-1/2\n");
    assert_eq!(out.status.code(), Some(0));
    let games = lines(&out);
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(games[0]["san"], json!(["e4", "e5"]));
    assert_eq!(games[1]["game"], 1);
    assert_eq!(games[1]["san"], json!(["d4", "d5"]));
    // A result at the very end is just skipped: one game of bare move text.
    let v = one(&[], "1. e4 e5 2. Nf3 1-0\n");
    assert_eq!(v["plies"], 3);
}

/// Issue 25 item 18: a PGN's movetext is standard (English) SAN whatever `--lang` says.
/// `--lang es` once read `R` as the king, so Morphy's Opera Game (12...Rd8 read as Kd8)
/// stopped at "13... Rxd7: Your king would be in check". Every game of a real file full of
/// rook moves replays the same in both languages.
#[test]
fn pgn_is_read_as_standard_san_in_both_languages() {
    let en = replay(&["--lang", "en", &data("historical.pgn")], b"");
    let es = replay(&["--lang", "es", &data("historical.pgn")], b"");
    assert_eq!(
        es.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&es.stdout)
    );
    assert_eq!(en.stdout, es.stdout);
    let games = lines(&es);
    assert_eq!(games.len(), 8);
    assert!(games.iter().all(|g| g.get("error").is_none()), "{games:?}");
    // The Opera Game: 12...Rd8 13.Rxd7 Rxd7 … 17.Rd8#.
    assert_eq!(games[0]["san"][23], "Rd8");
    assert_eq!(games[0]["san"][32], "Rd8#");
    assert_eq!(games[0]["status"], "checkmate");
}

/// Issues 25 and 26: `--lang es` decides the language of the errors (PGN or bare text), and
/// bare move text outside PGN is still read with Spanish letters (`R` rey first).
#[test]
fn errors_are_in_the_language_of_lang_and_bare_text_keeps_its_letters() {
    let pgn = "[Event \"x\"]\n\n1. e4 e5 2. Nf4 *\n";
    let g = one(&["--lang", "es"], pgn);
    assert_eq!(
        g["error"],
        "línea 3: 2. Nf4: Ningún caballo puede llegar a f4. ¿Quisiste decir Cf3, Ce2 o Ch3?"
    );
    let g = one(&["--lang", "en"], pgn);
    assert_eq!(
        g["error"],
        "line 3: 2. Nf4: No knight can reach f4. Did you mean Nf3, Ne2 or Nh3?"
    );
    let g = one(&["--lang", "es"], "e4 e5 Cf4");
    assert_eq!(
        g["error"],
        "Ningún caballo puede llegar a f4. ¿Quisiste decir Cf3, Ce2 o Ch3?"
    );
    // Bare text: where the king and a rook both reach f1, `Rf1` is the king (rey) in
    // Spanish and the rook in English.
    let moves = "e4 e5 Ac4 Ac5 Cf3 Cf6 Rf1";
    assert_eq!(one(&["--lang", "es"], moves)["san"][6], "Kf1");
    assert_eq!(one(&["--lang", "en"], moves)["san"][6], "Rf1");
    // A move after a fivefold repetition, in each language.
    let shuffle = "Nf3 Nf6 Ng1 Ng8 ".repeat(4);
    let g = one(&["--lang", "es"], &format!("{shuffle} e4"));
    assert_eq!(
        g["error"],
        "La partida ya había terminado: tablas por quíntuple repetición de jugadas."
    );
    assert_eq!(g["ply"], 16);
    let g = one(&[], &format!("{shuffle} e4"));
    assert_eq!(
        g["error"],
        "The game was already over: draw by fivefold repetition."
    );
}
