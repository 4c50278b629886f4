//! FEN: round trips, leniency, every parse error (naming its field) and every
//! validation error and warning.

use cajitas_rules::{
    Bitboard, Color, Fen, FenError, FenField, Position, PositionErrorKind, PositionWarning, Square,
};

const ROUND_TRIP: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 99 150",
    "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
];

#[test]
fn fen_round_trips_through_setup_and_position() {
    for fen in ROUND_TRIP {
        let parsed: Fen = fen.parse().unwrap();
        assert_eq!(parsed.to_string(), *fen);
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.fen(), *fen);
        assert_eq!(Position::from_setup(pos.to_setup()).unwrap(), pos);
    }
}

#[test]
fn position_fen_round_trips_along_games() {
    let mut pos = Position::new();
    let mut seed = 0x1234_5678_u64;
    for _ in 0..400 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = Position::new();
            continue;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        pos.play(moves[(seed % moves.len() as u64) as usize]);
        let again = Position::from_fen(&pos.fen()).unwrap();
        assert_eq!(again, pos, "{}", pos.fen());
    }
}

#[test]
fn lenient_on_clocks() {
    let full = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let no_clocks = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let no_fullmove = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0";
    let zero = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0";
    for f in [
        no_clocks,
        no_fullmove,
        zero,
        "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq - 0 1 ",
    ] {
        assert_eq!(f.parse::<Fen>().unwrap().to_string(), full, "{f}");
    }
    let shredder: Fen = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1".parse().unwrap();
    assert_eq!(shredder.to_string(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

fn parse_err(fen: &str) -> (FenField, String) {
    let e = fen.parse::<Fen>().unwrap_err();
    (e.field, e.to_string())
}

#[test]
fn every_parse_error_names_its_field_and_why() {
    let cases: &[(&str, FenField, &str)] = &[
        ("", FenField::Whole, "empty"),
        (
            "8/8/8/8/8/8/8/K6k w - - 0 1 extra",
            FenField::Whole,
            "7 fields",
        ),
        (
            "8/8/8/8/8/8/K6k w - - 0 1",
            FenField::Placement,
            "expected 8 ranks",
        ),
        (
            "8/8/8/8/8/8/8/K6kk w - - 0 1",
            FenField::Placement,
            "more than 8",
        ),
        (
            "8/8/8/8/8/8/8/K5k w - - 0 1",
            FenField::Placement,
            "7 squares",
        ),
        ("8/8/8/8/8/8/8/K6x w - - 0 1", FenField::Placement, "'x'"),
        (
            "8/8/8/8/8/8/8/K33k w - - 0 1",
            FenField::Placement,
            "empty-square count",
        ),
        (
            "8/8/8/8/8/8/8/K9k w - - 0 1",
            FenField::Placement,
            "empty-square count",
        ),
        ("8/8/8/8/8/8/8/K6k", FenField::Turn, "missing"),
        ("8/8/8/8/8/8/8/K6k W - - 0 1", FenField::Turn, "neither"),
        ("8/8/8/8/8/8/8/K6k w", FenField::Castling, "missing"),
        ("8/8/8/8/8/8/8/K6k w KX - 0 1", FenField::Castling, "'X'"),
        ("8/8/8/8/8/8/8/K6k w KK - 0 1", FenField::Castling, "twice"),
        ("8/8/8/8/8/8/8/K6k w -", FenField::EnPassant, "missing"),
        (
            "8/8/8/8/8/8/8/K6k w - e9 0 1",
            FenField::EnPassant,
            "not a square",
        ),
        (
            "8/8/8/8/8/8/8/K6k w - e4 0 1",
            FenField::EnPassant,
            "third or sixth",
        ),
        (
            "8/8/8/8/8/8/8/K6k w - - -1 1",
            FenField::Halfmoves,
            "whole number",
        ),
        (
            "8/8/8/8/8/8/8/K6k w - - x 1",
            FenField::Halfmoves,
            "whole number",
        ),
        (
            "8/8/8/8/8/8/8/K6k w - - 0 one",
            FenField::Fullmoves,
            "whole number",
        ),
    ];
    for &(fen, field, why) in cases {
        let (got_field, msg) = parse_err(fen);
        assert_eq!(got_field, field, "{fen}: {msg}");
        assert!(msg.contains(why), "{fen}: {msg:?} should say {why:?}");
        assert!(
            msg.contains(&field.to_string()),
            "{msg} should name the field"
        );
    }
    let long = format!("{} w - - 0 1", "8/".repeat(200));
    assert_eq!(parse_err(&long).0, FenField::Whole);
}

fn position_errors(fen: &str) -> Vec<PositionErrorKind> {
    match Position::from_fen(fen) {
        Err(FenError::Position(e)) => e.errors,
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

#[test]
fn every_validation_error() {
    use PositionErrorKind::*;
    assert_eq!(
        position_errors("8/8/8/8/8/8/8/K7 w - - 0 1"),
        vec![KingCount {
            color: Color::Black,
            count: 0
        }]
    );
    assert_eq!(
        position_errors("k7/8/8/8/8/8/8/K6K w - - 0 1"),
        vec![KingCount {
            color: Color::White,
            count: 2
        }]
    );
    assert_eq!(
        position_errors("k6P/8/8/8/8/8/8/K6p w - - 0 1"),
        vec![PawnsOnBackRank(Bitboard::from(Square::H1) | Square::H8)]
    );
    assert_eq!(
        position_errors("k7/8/8/8/8/8/8/K6r b - - 0 1"),
        vec![OppositeCheck]
    );
    assert_eq!(
        position_errors("4k3/8/8/8/8/8/8/4K2R w Q - 0 1"),
        vec![InvalidCastlingRights(Bitboard::from(Square::A1))]
    );
    // The king is not on e1: no right is valid.
    assert_eq!(
        position_errors("4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1"),
        vec![InvalidCastlingRights(
            Bitboard::from(Square::A1) | Square::H1
        )]
    );
    // No black pawn on d5 after a supposed d7-d5.
    assert_eq!(
        position_errors("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1"),
        vec![InvalidEpSquare(Square::D6)]
    );
    // Wrong side: e3 is white's double step, but white is to move.
    assert_eq!(
        position_errors("4k3/8/8/8/3pP3/8/8/4K3 w - e3 0 1"),
        vec![InvalidEpSquare(Square::E3)]
    );
}

#[test]
fn every_reason_is_reported_at_once() {
    let errors = position_errors("8/8/8/8/8/8/8/P6r w K e6 0 1");
    assert_eq!(errors.len(), 5, "{errors:?}");
    let text = FenError::Position(cajitas_rules::PositionError { errors }).to_string();
    for why in [
        "white has 0 kings",
        "black has 0 kings",
        "a1",
        "castling",
        "e6",
    ] {
        assert!(text.contains(why), "{text}");
    }
}

#[test]
fn ep_square_kept_when_a_pawn_is_ready_even_if_pinned() {
    // The c4 pawn may not take d3: with c4 and d4 gone, the a4 rook would check g4.
    let pos = Position::from_fen("8/8/8/8/R1pP2k1/8/8/4K3 b - d3 0 1").unwrap();
    assert_eq!(pos.ep_square(), Some(Square::D3));
    assert_eq!(pos.legal_ep_square(), None);
    assert!(pos.fen().contains(" d3 "));
    // No black pawn beside d4: the square is dropped.
    let pos = Position::from_fen("4k3/8/8/8/3P4/8/8/4K3 b - d3 0 1").unwrap();
    assert_eq!(pos.ep_square(), None);
    assert!(pos.fen().contains(" - "));
}

#[test]
fn every_warning() {
    let check = |fen: &str| Position::from_fen(fen).unwrap().warnings();
    // Two rooks checking along one file.
    assert!(matches!(
        check("4R3/8/8/4k3/8/8/8/4R2K b - - 0 1")[..],
        [PositionWarning::ImpossibleCheck(_)]
    ));
    // Three checkers.
    assert!(matches!(
        check("3R4/8/5N2/3k4/8/1B6/8/7K b - - 0 1")[..],
        [PositionWarning::ImpossibleCheck(_)]
    ));
    // Two knights checking.
    assert!(matches!(
        check("8/8/2N5/4k3/8/3N4/8/7K b - - 0 1")[..],
        [PositionWarning::ImpossibleCheck(_)]
    ));
    // A legal double check (knight and a discovered bishop) is fine.
    assert!(check("8/8/8/4k3/8/3N4/1B6/7K b - - 0 1").is_empty());
    let double = Position::from_fen("8/8/8/4k3/8/3N4/1B6/7K b - - 0 1").unwrap();
    assert_eq!(double.checkers().count(), 2);
    // Strict validation turns warnings into errors; lenient keeps playing.
    let fen: Fen = "4R3/8/8/4k3/8/8/8/4R2K b - - 0 1".parse().unwrap();
    let err = Position::from_setup_strict(fen.0.clone()).unwrap_err();
    assert!(matches!(err.errors[0], PositionErrorKind::Warning(_)));
    assert!(Position::from_setup(fen.0).is_ok());
    assert!(Position::new().warnings().is_empty());
}

#[test]
fn huge_clocks_never_overflow() {
    let mut pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 4294967295 4294967295").unwrap();
    let m = pos.legal_moves()[0];
    pos.play(m);
    assert_eq!(pos.halfmoves(), u32::MAX);
    let m = pos.legal_moves()[0];
    pos.play(m);
    assert_eq!(pos.fullmoves(), u32::MAX);
}

/// Issue 12, item 8: a side with more material than a game can produce is refused, as
/// shakmaty refuses it: more than 16 pieces, more than 8 pawns, or more pieces beyond the
/// initial set than missing pawns. This also keeps every playable position within the
/// move list (at most 218 legal moves; the list holds 256): the FEN below has far more and
/// once panicked move generation.
#[test]
fn more_material_than_a_game_can_produce_is_an_error() {
    use PositionErrorKind::TooMuchMaterial;
    use cajitas_rules::MaterialExcess::*;
    let too_much = |color, excess| TooMuchMaterial { color, excess };
    let issue = "QQQQQQnk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";
    assert_eq!(
        position_errors(issue),
        vec![too_much(Color::White, TooManyPieces { count: 27 })]
    );
    let text = Position::from_fen(issue).unwrap_err().to_string();
    assert_eq!(
        text,
        "illegal position: white has 27 pieces, more than the 16 a side starts with"
    );
    // Nine white pawns.
    assert_eq!(
        position_errors("4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1"),
        vec![too_much(Color::White, TooManyPawns { count: 9 })]
    );
    // Two queens with eight pawns still on the board: no pawn can have promoted.
    let fen = "k7/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1";
    assert_eq!(
        position_errors(fen),
        vec![too_much(
            Color::White,
            TooManyPromoted {
                promoted: 1,
                missing_pawns: 0
            }
        )]
    );
    assert!(
        Position::from_fen(fen)
            .unwrap_err()
            .to_string()
            .contains("white has 1 piece more than the initial set"),
        "{}",
        Position::from_fen(fen).unwrap_err()
    );
    // Two light-squared black bishops (b7 and d5) with eight pawns.
    assert_eq!(
        position_errors("4k3/1b6/pppppppp/3b4/8/8/8/4K3 b - - 0 1"),
        vec![too_much(
            Color::Black,
            TooManyPromoted {
                promoted: 1,
                missing_pawns: 0
            }
        )]
    );
    // Both sides at once, with the other errors.
    let errors =
        position_errors("QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/qqqqqqqq/qqqqqqqq/qqqqqqqq w - - 0 1");
    assert_eq!(errors.len(), 4, "{errors:?}");
    assert!(errors.contains(&too_much(Color::White, TooManyPieces { count: 24 })));
    assert!(errors.contains(&too_much(Color::Black, TooManyPieces { count: 24 })));

    // At the limits: nine queens, two of each other piece, no pawn, and the position with
    // the most legal moves known (218).
    let most = Position::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
    assert_eq!(most.legal_moves().len(), 218);
    assert_eq!(cajitas_rules::perft(&most, 1), 218);
    // Eight pawns and the initial pieces; seven pawns and one extra queen.
    assert!(Position::from_fen(Fen::INITIAL).is_ok());
    assert!(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNQ w Qkq - 0 1").is_ok());
}
