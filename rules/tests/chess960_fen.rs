//! Chess960 FEN, line by line from data files: `tests/data/chess960-fen-valid.txt` (X-FEN
//! and Shredder-FEN read, X-FEN and Shredder-FEN written, compared with shakmaty in its
//! Chess960 mode) and `tests/data/chess960-fen-invalid.txt` (each refused, its error saying
//! what is wrong).

use std::path::Path;

use cajitas_rules::{CastlingMode, FenError, Position};
use shakmaty::Position as _;

/// The data lines of a file (comments and blank lines skipped), split on `|`, with their
/// line numbers.
fn lines(name: &str) -> Vec<(usize, Vec<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| (i + 1, l.split('|').map(|p| p.trim().to_string()).collect()))
        .collect()
}

#[test]
fn valid_chess960_fens_read_and_write_as_x_fen_and_shredder_fen() {
    let cases = lines("chess960-fen-valid.txt");
    assert!(cases.len() >= 15, "{} cases", cases.len());
    for (line, parts) in cases {
        let [input, x_fen, shredder] = &parts[..] else {
            panic!("line {line}: expected `input | X-FEN | Shredder-FEN`");
        };
        let pos = Position::from_fen_with(input, CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("line {line}: {input}: {e}"));
        assert_eq!(&pos.fen(), x_fen, "line {line}: X-FEN");
        assert_eq!(&pos.shredder_fen(), shredder, "line {line}: Shredder-FEN");
        for out in [x_fen, shredder] {
            let again = Position::from_fen_with(out, CastlingMode::Chess960)
                .unwrap_or_else(|e| panic!("line {line}: {out}: {e}"));
            assert_eq!(again, pos, "line {line}: {out} reads back differently");
        }
        let sh: shakmaty::Chess = input
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("line {line}: shakmaty refuses {input}: {e}"));
        assert_eq!(
            pos.castling_rights().0,
            u64::from(sh.castles().castling_rights()),
            "line {line}: castling rights"
        );
        let sh_fen = shakmaty::fen::Fen::from_position(&sh, shakmaty::EnPassantMode::Legal);
        assert_eq!(&sh_fen.to_string(), x_fen, "line {line}: shakmaty's X-FEN");
    }
}

#[test]
fn invalid_chess960_fens_say_what_is_wrong() {
    let cases = lines("chess960-fen-invalid.txt");
    assert!(cases.len() >= 10, "{} cases", cases.len());
    for (line, parts) in cases {
        let [input, why] = &parts[..] else {
            panic!("line {line}: expected `input | error text`");
        };
        let err = match Position::from_fen_with(input, CastlingMode::Chess960) {
            Ok(pos) => panic!("line {line}: {input} accepted as {}", pos.fen()),
            Err(e) => e,
        };
        assert!(
            err.to_string().contains(why.as_str()),
            "line {line}: {input}: {err:?} does not say \"{why}\" ({err})"
        );
        // Positions we refuse, shakmaty refuses too (it is more lenient with the letters
        // themselves: it takes a right given twice).
        if let FenError::Position(_) = err {
            let sh = input
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Chess960);
            assert!(sh.is_err(), "line {line}: shakmaty accepts {input}");
        }
    }
}

#[test]
fn standard_mode_refuses_what_only_chess960_allows() {
    let fen = "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1";
    let err = Position::from_fen(fen).unwrap_err().to_string();
    assert!(
        err.contains("without the king and rook on their initial squares"),
        "{err}"
    );
    assert_eq!(
        CastlingMode::implied_by_fen("nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1"),
        CastlingMode::Chess960
    );
    assert_eq!(CastlingMode::implied_by_fen(fen), CastlingMode::Standard);
    assert_eq!(
        CastlingMode::implied_by_fen("8/8/8/8/8/8/8/K6k w - - 0 1"),
        CastlingMode::Standard
    );
}
