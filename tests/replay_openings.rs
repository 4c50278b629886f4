//! `cajitas replay`'s `opening` field on twenty real games (issue 29): each game's name in
//! lichess's table, found by its last position there, checked by hand against the table's
//! rows (the row's moves reach a position the game passes through, and no later position of
//! the game, within lichess's 40 plies, is in the table).

#[path = "support/replay.rs"]
mod replay_support;

use replay_support::{lines, replay};
use serde_json::{Value, json};

fn games(path: &str) -> Vec<Value> {
    let out = replay(&[&format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    lines(&out)
}

#[test]
fn twenty_real_games_are_named_as_the_table_names_them() {
    let mut all = games("rules/tests/data/pgn/historical.pgn");
    all.extend(games("tests/data/openings-12.pgn"));
    let expected = [
        // Morphy v Brunswick and Isouard, the Opera Game: 2...d6, and 3...Bg4 is not in the table.
        ("C41", "Philidor Defense"),
        // The Immortal Game: 4...b5.
        (
            "C33",
            "King's Gambit Accepted: Bishop's Gambit, Bryan Countergambit",
        ),
        // The Evergreen Game: 7...d3.
        ("C52", "Italian Game: Evans Gambit, Dufresne Defense"),
        // Byrne v Fischer: 1.Nf3 Nf6 2.c4 g6 is 1.c4 Nf6 2.Nf3 g6; no later position is listed.
        (
            "A15",
            "English Opening: Anglo-Indian Defense, King's Indian Formation",
        ),
        // Kasparov v Topalov: 3...g6; the 150 Attack's row has ...c6 without ...Bg7.
        ("B07", "Pirc Defense"),
        // Réti v Tartakower: 3.Nc3 dxe4 4.Nxe4 is the Main Line's position (3.Nd2 in the table).
        ("B15", "Caro-Kann Defense: Main Line"),
        // Edward Lasker v Thomas: 1.d4 e6.
        ("A40", "Horwitz Defense"),
        // Adams v Torre: 3...exd4.
        ("C41", "Philidor Defense: Exchange Variation"),
        // Legall v Saint Brie: 2...d6, 3.Bc4 Bg4 is not in the table.
        ("C41", "Philidor Defense"),
        // Deep Blue v Kasparov: 3.Nc3 … 5.Ng5 is the table's 3.Nd2 line, transposed.
        (
            "B17",
            "Caro-Kann Defense: Karpov Variation, Modern Variation",
        ),
        // Levitsky v Marshall: 1.d4 e6 2.e4 d5 3.Nc3 c5 is the French's 1.e4 e6 2.d4 d5 3.Nc3 c5.
        ("C10", "French Defense: Marshall Gambit"),
        // Rotlewi v Rubinstein: 5.Nc3 Nf6 is the table's 4.e3 Nf6 5.Nf3 Nc6, transposed.
        ("D32", "Tarrasch Defense: Symmetrical Variation"),
        // Gibaud v Lazard: 2...e5.
        ("A45", "Indian Defense: Lazard Gambit"),
        // Fischer v Fine: 7...dxc3.
        ("C52", "Italian Game: Evans Gambit, Compromised Defense"),
        // Carlsen v Ernst: 8.h5.
        (
            "B19",
            "Caro-Kann Defense: Classical Variation, Spassky Variation",
        ),
        // NN v Greco: 8...Nxc3.
        (
            "C54",
            "Italian Game: Classical Variation, Greco Gambit, Greco Variation",
        ),
        // Greco v NN: 5...g6.
        ("B00", "Owen Defense: Matovinsky Gambit"),
        // Teed v Delmar: 2.Bg5.
        ("A80", "Dutch Defense: Hopton Attack"),
        // Fischer v Spassky, game 6: 1.c4 reaches the table's 1.d4 line at 11...Be6 (ply 22).
        ("D59", "Queen's Gambit Declined: Tartakower Defense"),
        // Capablanca v Marshall: 11...Nf6.
        (
            "C89",
            "Ruy Lopez: Marshall Attack, Original Marshall Attack",
        ),
    ];
    assert_eq!(all.len(), expected.len());
    for (game, (eco, name)) in all.iter().zip(expected) {
        assert!(game.get("error").is_none(), "{game}");
        assert_eq!(
            game["opening"],
            json!({"eco": eco, "name": name}),
            "{}",
            game["san"]
        );
    }
}

#[test]
fn a_game_from_a_setup_has_no_opening() {
    // lichess.pgn's second game starts from a FEN.
    let all = games("rules/tests/data/pgn/lichess.pgn");
    assert!(all[1].get("error").is_none(), "{}", all[1]);
    assert_eq!(all[1]["opening"], Value::Null);
    // Its first, a Vienna game from the start: named.
    assert_eq!(all[0]["opening"]["eco"], "C23");
}

#[test]
fn a_chess960_game_has_no_opening_even_from_518() {
    // #518 is the standard position; the same Vienna moves name an opening only in a
    // standard game.
    let moves = "1. e4 e5 2. Nc3 Nf6 3. f4 *";
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let standard = lines(&replay(&[], moves.as_bytes()));
    assert_eq!(standard[0]["opening"]["eco"], "C29", "{}", standard[0]);
    let text = format!("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n{moves}");
    let c960 = lines(&replay(&[], text.as_bytes()));
    assert!(c960[0].get("error").is_none(), "{}", c960[0]);
    assert_eq!(c960[0]["plies"], 5);
    assert_eq!(c960[0]["opening"], Value::Null, "{}", c960[0]);
}
