//! Property tests: whatever a player types, the reader answers without panicking, with a legal
//! move or an error whose suggestions (at most three) are legal; the strict parsers never panic.

use cajitas_rules::{Lang, Position, San, SanPlus, Uci, read_move};
use proptest::prelude::*;

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
];

fn check(text: &str, fen_index: usize, lang: Lang) {
    let pos = Position::from_fen(FENS[fen_index]).unwrap();
    match read_move(&pos, text, lang) {
        Ok(m) => assert!(pos.is_legal(m), "{text:?} gave an illegal move"),
        Err(e) => {
            assert!(e.suggestions.len() <= 3);
            for s in &e.suggestions {
                let m = s.to_string().parse::<San>().unwrap().to_move(&pos);
                assert!(m.is_ok(), "{text:?}: suggestion {s} is not legal");
            }
            assert!(!e.to_string().is_empty());
        }
    }
    let _ = text.parse::<San>();
    let _ = text.parse::<SanPlus>();
    let _ = text.parse::<Uci>();
}

fn lang() -> impl Strategy<Value = Lang> {
    prop_oneof![Just(Lang::En), Just(Lang::Es)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn any_string_is_answered(text in any::<String>(), i in 0..FENS.len(), lang in lang()) {
        check(&text, i, lang);
    }

    #[test]
    fn move_like_strings_are_answered(
        text in "[ a-hKQRBNDTACPkqrnptxX:=+#!?Oo0()/.1-9@\u{2654}-\u{265F}\u{FE0F}-]{0,14}",
        i in 0..FENS.len(),
        lang in lang(),
    ) {
        check(&text, i, lang);
    }
}
