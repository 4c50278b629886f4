//! Property tests: whatever text the PGN reader is given, it answers (games or errors with
//! a line inside the text) and never panics.

use cajitas_rules::{Lang, pgn};
use proptest::prelude::*;

/// Pieces of PGN, glued at random: tags, comments, moves, numbers, NAGs, variations, results,
/// and broken versions of each.
fn pgn_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("[Event \"x\"]\n".to_string()),
        Just("[FEN \"7k/8/6K1/8/8/8/8/R7 w - - 0 1\"]\n".to_string()),
        Just("[Site \"a \\\" b\"]".to_string()),
        Just("[Bad".to_string()),
        Just("{ comment }".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("; rest\n".to_string()),
        Just("\n%escape\n".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("$1".to_string()),
        Just("1.".to_string()),
        Just("1...".to_string()),
        Just("e4".to_string()),
        Just("e5".to_string()),
        Just("Nf3".to_string()),
        Just("Ra8#".to_string()),
        Just("O-O".to_string()),
        Just("1-0".to_string()),
        Just("*".to_string()),
        Just("1/2-1/2".to_string()),
        Just("\r\n".to_string()),
        Just("\u{feff}".to_string()),
        "[a-zA-Z0-9+#=!?.\\-]{1,6}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_reader_never_panics(text in pgn_like()) {
        let lines = text.split('\n').count();
        for lang in [Lang::En, Lang::Es] {
            for game in pgn::read_games(&text, lang).unwrap() {
                match game {
                    Ok(g) => {
                        prop_assert!(g.line >= 1 && g.line <= lines);
                        prop_assert!(g.game.ply() <= pgn::MAX_PLIES);
                    }
                    Err(e) => {
                        prop_assert!(e.line >= 1 && e.line <= lines, "{e} in {text:?}");
                        prop_assert!(!e.to_string().is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn arbitrary_bytes_decode_and_read(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = pgn::decode(&bytes);
        let _ = pgn::read_games(&text, Lang::En).unwrap().count();
    }
}
