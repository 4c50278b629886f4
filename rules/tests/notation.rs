//! Tables for the notation layer: SAN writing, SAN/UCI parsing, and the move reader (every
//! accepted form, both languages, each error kind, the suggestions).

use cajitas_rules::{
    CastleProblem, CastlingSide, IllegalReason, Lang, Malformed, Position, ReadErrorKind, Role,
    San, SanPlus, Square, Uci, read_move, san,
};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const CASTLES: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const PROMO: &str = "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1";
const EP: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
const FILES: &str = "7k/8/8/8/2p5/2nP4/1P6/4B2K w - - 0 1";
const ROOK_KING: &str = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
const TWO_KNIGHTS: &str = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci_move(p: &Position, uci: &str) -> cajitas_rules::Move {
    uci.parse::<Uci>()
        .unwrap()
        .to_move(p)
        .unwrap_or_else(|_| panic!("{uci} illegal"))
}

#[test]
fn san_writing() {
    let table: &[(&str, &str, &str)] = &[
        (START, "g1f3", "Nf3"),
        (START, "e2e4", "e4"),
        (START, "b1c3", "Nc3"),
        // File disambiguation.
        (TWO_KNIGHTS, "b1d2", "Nbd2"),
        (TWO_KNIGHTS, "f1d2", "Nfd2"),
        ("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"),
        ("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "h1d1", "Rhd1"),
        // Rank disambiguation.
        ("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"),
        ("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3", "R5a3"),
        ("4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1", "g1f3", "N1f3"),
        // Both.
        ("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Qa1b2"),
        // A pinned knight is no alternative.
        ("4k3/4r3/8/7N/8/8/4N3/4K3 w - - 0 1", "h5g3", "Ng3"),
        // Castling, with check.
        (CASTLES, "e1g1", "O-O"),
        (CASTLES, "e1c1", "O-O-O"),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+"),
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O+"),
        // Promotions.
        (PROMO, "e7e8q", "e8=Q"),
        (PROMO, "e7e8n", "e8=N"),
        (PROMO, "e7d8q", "exd8=Q"),
        (PROMO, "e7d8r", "exd8=R"),
        ("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+"),
        // En passant, captures, king moves.
        (EP, "e5d6", "exd6"),
        (EP, "e1d2", "Kd2"),
        ("4k3/8/8/8/8/8/4p3/4K3 w - - 0 1", "e1e2", "Kxe2"),
        (
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
            "e4d5",
            "exd5",
        ),
        // Check and mate.
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h8", "Rh8+"),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
            "d8h4",
            "Qh4#",
        ),
        ("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8#"),
    ];
    for &(fen, uci, expected) in table {
        let p = pos(fen);
        let m = uci_move(&p, uci);
        assert_eq!(san(&p, m), expected, "{fen} {uci}");
        // Parsing the SAN back gives the move.
        let parsed: SanPlus = expected.parse().unwrap();
        assert_eq!(parsed.san.to_move(&p), Ok(m), "{fen} {expected}");
        assert_eq!(parsed.to_string(), expected);
        assert_eq!(SanPlus::from_move(&p, m), parsed);
    }
}

#[test]
fn san_and_uci_syntax() {
    for ok in [
        "e4", "exd5", "Nf3", "Nbd2", "R1a3", "Qa1b2", "Kxe2", "e8=Q", "exd8=N", "O-O", "O-O-O",
        "0-0", "Nxe5", "e8Q",
    ] {
        assert!(ok.parse::<San>().is_ok(), "{ok}");
    }
    for bad in [
        "", "e9", "i4", "Nf", "nf3", "e4+", "xe4", "ed5", "e2e4", "Nf3=Q", "O-O-O-O", "Zf3", "--",
        "Pe4", "♘f3", "e4 ", "e8=K",
    ] {
        assert!(bad.parse::<San>().is_err(), "{bad:?}");
    }
    assert_eq!("e4+".parse::<SanPlus>().unwrap().to_string(), "e4+");
    assert!("e4++".parse::<SanPlus>().is_err());
    for ok in ["e2e4", "e7e8q", "a7b8n", "e1g1"] {
        assert_eq!(ok.parse::<Uci>().unwrap().to_string(), ok);
    }
    for bad in [
        "", "e2e", "e2e4q5", "e7e8Q", "e7e8k", "0000", "e2e9", "é2e4",
    ] {
        assert!(bad.parse::<Uci>().is_err(), "{bad:?}");
    }
    // UCI of a castle is the king's move; the king-takes-rook form is read as castling.
    let p = pos(CASTLES);
    let oo = uci_move(&p, "e1g1");
    assert_eq!(oo.castling_side(), Some(CastlingSide::KingSide));
    assert_eq!(uci_move(&p, "e1h1"), oo);
    assert_eq!(Uci::from_move(oo).to_string(), "e1g1");
    assert_eq!(
        Uci::from_move(uci_move(&p, "e1a1")).to_string(),
        "e1c1",
        "long castling"
    );
}

/// (FEN, text, language, the move expected as UCI).
#[test]
fn reading_every_form() {
    use Lang::{En, Es};
    let table: &[(&str, &str, Lang, &str)] = &[
        // English SAN and its tolerances.
        (START, "e4", En, "e2e4"),
        (START, " e4 ", En, "e2e4"),
        (START, "\te4\n", En, "e2e4"),
        (START, "e4!", En, "e2e4"),
        (START, "e4!?", En, "e2e4"),
        (START, "e4??", En, "e2e4"),
        (START, "e4+", En, "e2e4"),
        (START, "e4 !!", En, "e2e4"),
        (START, "Nf3", En, "g1f3"),
        (START, "Nf3#", En, "g1f3"),
        (START, "Nxf3", En, "g1f3"),
        (START, "N-f3", En, "g1f3"),
        (START, "Ng1f3", En, "g1f3"),
        (START, "Ng1-f3", En, "g1f3"),
        (START, "Ngf3", En, "g1f3"),
        (START, "N1f3", En, "g1f3"),
        (START, "Pe4", En, "e2e4"),
        (START, "pe4", En, "e2e4"),
        // Lower case pieces.
        (START, "nf3", En, "g1f3"),
        (START, "nc3", Es, "b1c3"),
        // Coordinates.
        (START, "e2e4", En, "e2e4"),
        (START, "e2-e4", En, "e2e4"),
        (START, "e2xe4", En, "e2e4"),
        (START, "E2E4", En, "e2e4"),
        (START, "g1f3", Es, "g1f3"),
        (START, "g1-f3", En, "g1f3"),
        // Spanish letters, in both languages.
        (START, "Cf3", Es, "g1f3"),
        (START, "Cf3", En, "g1f3"),
        (START, "cf3", Es, "g1f3"),
        (START, "Cc3", Es, "b1c3"),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Dd4", Es, "d1d4"),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Dd4", En, "d1d4"),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Qd4", Es, "d1d4"),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "dd4", Es, "d1d4"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ta5", Es, "a1a5"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "ta5", En, "a1a5"),
        ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "Ag5", Es, "c1g5"),
        ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "ag5", Es, "c1g5"),
        ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "Kf2", Es, "e1f2"),
        // Figurines, either colour's glyph.
        (START, "\u{2658}f3", En, "g1f3"),
        (START, "\u{265E}f3", En, "g1f3"),
        (START, "\u{265E}\u{FE0F}f3", En, "g1f3"),
        (START, "\u{2659}e4", En, "e2e4"),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "\u{2658}f6",
            Es,
            "g8f6",
        ),
        // Files first: pawn captures, then the piece.
        (FILES, "bxc3", En, "b2c3"),
        (FILES, "bc3", En, "b2c3"),
        (FILES, "b:c3", En, "b2c3"),
        (FILES, "Bxc3", En, "e1c3"),
        (FILES, "bd2", En, "e1d2"),
        (FILES, "dc4", En, "d3c4"),
        (FILES, "dxc4", Es, "d3c4"),
        (FILES, "dc4", Es, "d3c4"),
        (FILES, "ad2", Es, "e1d2"),
        (FILES, "Ad2", En, "e1d2"),
        // The R clash: the hint first, then the other reading.
        (ROOK_KING, "Rd1", En, "a1d1"),
        (ROOK_KING, "Rd1", Es, "e1d1"),
        (ROOK_KING, "rd1", Es, "e1d1"),
        (ROOK_KING, "Ra2", En, "a1a2"),
        (ROOK_KING, "Ra2", Es, "a1a2"),
        (ROOK_KING, "Re2", En, "e1e2"),
        (ROOK_KING, "Re2", Es, "e1e2"),
        (ROOK_KING, "Rb1", Es, "a1b1"),
        (ROOK_KING, "Td1", Es, "a1d1"),
        (ROOK_KING, "Kd1", En, "e1d1"),
        // Castling, every form.
        (CASTLES, "O-O", En, "e1g1"),
        (CASTLES, "0-0", En, "e1g1"),
        (CASTLES, "o-o", Es, "e1g1"),
        (CASTLES, "O-O+", En, "e1g1"),
        (CASTLES, "e1g1", En, "e1g1"),
        (CASTLES, "e1h1", En, "e1g1"),
        (CASTLES, "O-O-O", En, "e1c1"),
        (CASTLES, "0-0-0", Es, "e1c1"),
        (CASTLES, "o-o-o", En, "e1c1"),
        (CASTLES, "e1c1", En, "e1c1"),
        (CASTLES, "e1a1", En, "e1c1"),
        (CASTLES, "Kf1", En, "e1f1"),
        // Promotion, every form and letter.
        (PROMO, "e8=Q", En, "e7e8q"),
        (PROMO, "e8Q", En, "e7e8q"),
        (PROMO, "e8q", En, "e7e8q"),
        (PROMO, "e8=D", Es, "e7e8q"),
        (PROMO, "e8D", En, "e7e8q"),
        (PROMO, "e8(Q)", En, "e7e8q"),
        (PROMO, "e8/Q", En, "e7e8q"),
        (PROMO, "e8=\u{2655}", En, "e7e8q"),
        (PROMO, "e8=R", En, "e7e8r"),
        (PROMO, "e8=R", Es, "e7e8r"),
        (PROMO, "e8T", Es, "e7e8r"),
        (PROMO, "e8=B", En, "e7e8b"),
        (PROMO, "e8=A", Es, "e7e8b"),
        (PROMO, "e8N", En, "e7e8n"),
        (PROMO, "e8=C", Es, "e7e8n"),
        (PROMO, "e7e8q", En, "e7e8q"),
        (PROMO, "e7e8Q", En, "e7e8q"),
        (PROMO, "e7e8=Q", En, "e7e8q"),
        (PROMO, "exd8=Q+", En, "e7d8q"),
        (PROMO, "ed8Q", En, "e7d8q"),
        (PROMO, "e7d8R", En, "e7d8r"),
        (PROMO, "e7d8n", Es, "e7d8n"),
        // En passant.
        (EP, "exd6", En, "e5d6"),
        (EP, "exd6 e.p.", En, "e5d6"),
        (EP, "exd6e.p.", En, "e5d6"),
        (EP, "exd6ep", En, "e5d6"),
        (EP, "exd6 ep", Es, "e5d6"),
        (EP, "ed6", En, "e5d6"),
        (EP, "e5d6", En, "e5d6"),
        (EP, "e5xd6 e.p.+", En, "e5d6"),
    ];
    let mut failures = Vec::new();
    for &(fen, text, lang, expected) in table {
        let p = pos(fen);
        let want = uci_move(&p, expected);
        match read_move(&p, text, lang) {
            Ok(m) if m == want => {}
            other => failures.push(format!("{fen} {text:?} {lang:?}: {other:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn reason(fen: &str, text: &str, lang: Lang) -> IllegalReason {
    match read_move(&pos(fen), text, lang) {
        Err(e) => match e.kind {
            ReadErrorKind::Illegal { reason } => reason,
            other => panic!("{fen} {text:?}: {other:?}"),
        },
        Ok(m) => panic!("{fen} {text:?} read as {m:?}"),
    }
}

fn message(fen: &str, text: &str, lang: Lang) -> String {
    read_move(&pos(fen), text, lang).unwrap_err().to_string()
}

#[test]
fn malformed_inputs() {
    let p = Position::new();
    let table: &[(&str, Malformed)] = &[
        ("", Malformed::Empty),
        ("   ", Malformed::Empty),
        ("--", Malformed::NullMove),
        ("Z0", Malformed::NullMove),
        ("0000", Malformed::NullMove),
        ("Zf3", Malformed::UnknownPiece { letter: 'Z' }),
        ("Nf", Malformed::NoDestination),
        ("castle", Malformed::NoDestination),
        (
            "e4 please",
            Malformed::TrailingText {
                text: "please".into(),
            },
        ),
        ("N@f3", Malformed::Unreadable),
        ("e4e4e4", Malformed::Unreadable),
        ("+", Malformed::Unreadable),
        ("e.p.", Malformed::NoDestination),
    ];
    for (text, want) in table {
        let err = read_move(&p, text, Lang::En).unwrap_err();
        assert_eq!(
            err.kind,
            ReadErrorKind::Malformed {
                problem: want.clone()
            },
            "{text:?}"
        );
    }
    let long = "e4".repeat(20);
    let err = read_move(&p, &long, Lang::En).unwrap_err();
    assert_eq!(
        err.kind,
        ReadErrorKind::Malformed {
            problem: Malformed::TooLong { max: 32 }
        }
    );
    assert!(err.suggestions.is_empty());
    // A megabyte of input is refused without trouble.
    assert!(read_move(&p, &"N".repeat(1 << 20), Lang::En).is_err());
    assert_eq!(
        message(START, "--", Lang::En),
        "A null move is not a move in a game."
    );
    assert_eq!(
        message(START, "Zf3", Lang::En),
        "'Z' is not a piece letter (use K Q R B N, or R D T A C in Spanish). Did you mean Nf3, f3 or e3?"
    );
}

#[test]
fn illegal_reasons() {
    use CastlingSide::{KingSide, QueenSide};
    use Lang::{En, Es};
    let t = |fen: &str, text: &str, lang: Lang, want: IllegalReason, msg: &str| {
        assert_eq!(reason(fen, text, lang), want, "{fen} {text:?}");
        let full = message(fen, text, lang);
        assert!(
            full.starts_with(msg),
            "{fen} {text:?}: {full:?} should start {msg:?}"
        );
    };
    t(
        START,
        "Nf4",
        En,
        IllegalReason::CannotReach {
            role: Role::Knight,
            from_file: None,
            from_rank: None,
            to: Square::F4,
        },
        "No knight can reach f4.",
    );
    t(
        START,
        "Ngf4",
        En,
        IllegalReason::CannotReach {
            role: Role::Knight,
            from_file: Some(cajitas_rules::File::G),
            from_rank: None,
            to: Square::F4,
        },
        "No knight on the g-file can reach f4.",
    );
    t(
        START,
        "e5",
        En,
        IllegalReason::CannotReach {
            role: Role::Pawn,
            from_file: None,
            from_rank: None,
            to: Square::E5,
        },
        "No pawn can reach e5.",
    );
    t(
        START,
        "Qd4",
        En,
        IllegalReason::CannotReach {
            role: Role::Queen,
            from_file: None,
            from_rank: None,
            to: Square::D4,
        },
        "No queen can reach d4.",
    );
    t(
        START,
        "Nd2",
        En,
        IllegalReason::OwnPieceThere {
            square: Square::D2,
            role: Role::Pawn,
        },
        "Your own pawn stands on d2.",
    );
    t(
        START,
        "e3e4",
        En,
        IllegalReason::EmptySquare { square: Square::E3 },
        "There is no piece on e3.",
    );
    t(
        START,
        "e7e5",
        En,
        IllegalReason::NotYourPiece {
            square: Square::E7,
            role: Role::Pawn,
        },
        "The pawn on e7 is not yours.",
    );
    t(
        START,
        "Ne2e4",
        En,
        IllegalReason::WrongPiece {
            square: Square::E2,
            found: Role::Pawn,
            named: Role::Knight,
        },
        "The piece on e2 is a pawn, not a knight.",
    );
    t(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "Qd4",
        En,
        IllegalReason::NoSuchPiece { role: Role::Queen },
        "You have no queen.",
    );
    t(
        "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
        "Nc3",
        En,
        IllegalReason::Pinned {
            role: Role::Knight,
            square: Square::E2,
        },
        "The knight on e2 is pinned.",
    );
    t(
        "4k3/8/8/8/1b6/8/8/4K1N1 w - - 0 1",
        "Nf3",
        En,
        IllegalReason::InCheck,
        "You are in check.",
    );
    t(
        "4k3/3r4/8/8/8/8/8/4K3 w - - 0 1",
        "Kd1",
        En,
        IllegalReason::KingWouldBeInCheck,
        "Your king would be in check.",
    );
    // En passant exposing the king along the rank.
    t(
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
        "exd6",
        En,
        IllegalReason::KingWouldBeInCheck,
        "Your king would be in check.",
    );
    // Castling.
    let castle = |side, problem| IllegalReason::Castle { side, problem };
    t(
        "r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1",
        "O-O",
        En,
        castle(KingSide, CastleProblem::KingMoved),
        "Cannot castle: the king has moved.",
    );
    t(
        "r3k2r/8/8/8/8/8/8/R4K1R w - - 0 1",
        "O-O-O",
        En,
        castle(QueenSide, CastleProblem::KingMoved),
        "Cannot castle: the king has moved.",
    );
    t(
        "r3k2r/8/8/8/8/8/8/R3K2R w Q - 0 1",
        "O-O",
        En,
        castle(KingSide, CastleProblem::RookMoved),
        "Cannot castle kingside: the rook has moved.",
    );
    t(
        START,
        "O-O",
        En,
        castle(KingSide, CastleProblem::PiecesInTheWay),
        "Cannot castle kingside: there are pieces in the way.",
    );
    t(
        "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1",
        "O-O",
        En,
        castle(KingSide, CastleProblem::OutOfCheck),
        "Cannot castle out of check.",
    );
    for text in ["O-O", "0-0", "e1g1", "e1h1"] {
        t(
            "4k3/5r2/8/8/8/8/8/R3K2R w KQ - 0 1",
            text,
            En,
            castle(KingSide, CastleProblem::ThroughAttackedSquare),
            "Cannot castle through an attacked square.",
        );
    }
    t(
        "4k3/6r1/8/8/8/8/8/R3K2R w KQ - 0 1",
        "o-o",
        Es,
        castle(KingSide, CastleProblem::IntoCheck),
        "Cannot castle into check.",
    );
    // `Kg1` is a king move, never castling: it says so, and suggests O-O.
    let err = read_move(&pos(CASTLES), "Kg1", En).unwrap_err();
    assert_eq!(err.suggestions[0], "O-O");
    // Promotions.
    t(
        START,
        "e4=Q",
        En,
        IllegalReason::NotAPromotion,
        "Only a pawn reaching the last rank can promote.",
    );
    t(
        PROMO,
        "e8=K",
        En,
        IllegalReason::CannotPromoteTo { role: Role::King },
        "A pawn cannot promote to a king",
    );
    // No legal move at all.
    t(
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "e4",
        En,
        IllegalReason::NoLegalMoves,
        "There are no legal moves: the game is over.",
    );
    // `cf3` in English is a pawn reading only.
    assert!(matches!(
        reason(START, "cf3", En),
        IllegalReason::CannotReach {
            role: Role::Pawn,
            ..
        }
    ));
}

#[test]
fn ambiguous_and_incomplete() {
    let err = read_move(&pos(TWO_KNIGHTS), "Nd2", Lang::En).unwrap_err();
    assert_eq!(
        err.kind,
        ReadErrorKind::Ambiguous {
            candidates: vec!["Nbd2".parse().unwrap(), "Nfd2".parse().unwrap()]
        }
    );
    assert_eq!(err.suggestions, ["Nbd2", "Nfd2"]);
    assert_eq!(err.to_string(), "Ambiguous: it could be Nbd2 or Nfd2.");

    // A pawn capture without its file is refused (issue 12, item 20), the captures first
    // among the suggestions; it was an ambiguity between them.
    let two_pawns = "1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1";
    let err = read_move(&pos(two_pawns), "xb8=Q", Lang::En).unwrap_err();
    assert_eq!(
        err.kind,
        ReadErrorKind::Illegal {
            reason: IllegalReason::PawnCaptureWithoutFile { to: Square::B8 }
        }
    );
    assert_eq!(err.suggestions[..2], ["axb8=Q", "cxb8=Q"]);
    assert_eq!(
        read_move(&pos(two_pawns), "axb8Q", Lang::En).map(|m| m.from()),
        Ok(Square::A7)
    );

    let err = read_move(&pos(PROMO), "e8", Lang::En).unwrap_err();
    assert_eq!(
        err.kind,
        ReadErrorKind::IncompletePromotion {
            to: Square::E8,
            choices: Role::PROMOTIONS.to_vec()
        }
    );
    assert_eq!(err.suggestions, ["e8=Q", "e8=R", "e8=B"]);
    assert_eq!(
        err.to_string(),
        "A pawn reaching e8 must promote: choose a queen, rook, bishop or knight."
    );
    let err = read_move(&pos(PROMO), "exd8", Lang::En).unwrap_err();
    assert_eq!(err.suggestions, ["exd8=Q", "exd8=R", "exd8=B"]);
    let err = read_move(&pos(PROMO), "e7e8", Lang::Es).unwrap_err();
    assert!(matches!(
        err.kind,
        ReadErrorKind::IncompletePromotion { .. }
    ));
}

#[test]
fn suggestions_are_ranked_and_legal() {
    let err = read_move(&pos(START), "Nf4", Lang::En).unwrap_err();
    assert_eq!(err.suggestions, ["Nf3", "Nh3", "Nc3"]);
    assert_eq!(
        err.to_string(),
        "No knight can reach f4. Did you mean Nf3, Nh3 or Nc3?"
    );
    // A Spanish letter is compared as its English letter.
    let err = read_move(&pos(START), "Cf4", Lang::Es).unwrap_err();
    assert_eq!(err.suggestions, ["Nf3", "Nh3", "Nc3"]);
    let err = read_move(&pos(START), "e5", Lang::En).unwrap_err();
    assert_eq!(err.suggestions, ["e4", "e3", "d4"]);
    // Pinned: the other knight's move to the square is first.
    let err = read_move(&pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"), "Nc3", Lang::En).unwrap_err();
    for s in &err.suggestions {
        let m = s
            .to_string()
            .parse::<San>()
            .unwrap()
            .to_move(&pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"));
        assert!(m.is_ok(), "{s}");
    }
    // At most three, all legal, for a pile of wrong inputs.
    let p = pos(CASTLES);
    for text in [
        "Kg1", "Ra9", "xx", "O-O-O-O", "Qd4", "e4", "Rh9", "Ke3", "hh",
    ] {
        let err = read_move(&p, text, Lang::En).unwrap_err();
        assert!(err.suggestions.len() <= 3, "{text}");
        for s in &err.suggestions {
            assert!(
                s.to_string().parse::<San>().unwrap().to_move(&p).is_ok(),
                "{text}: {s}"
            );
        }
    }
}

/// Issue 12, item 20: a pawn capture written without its file was read as the capture
/// (`c4` as `dxc4` when no pawn could go straight to c4, `f6` as `exf6` en passant). A
/// player who types `c4` means a pawn going to c4 on its file: the text is refused, and the
/// capture comes first among the suggestions. python-chess and shakmaty refuse it too.
#[test]
fn a_pawn_capture_without_its_file_is_refused() {
    use Lang::{En, Es};
    let no_file = |to| IllegalReason::PawnCaptureWithoutFile { to };
    // The c-pawn is blocked on c3; the d3 pawn could take on c4.
    let blocked = "4k3/8/8/8/2p5/2PP4/8/4K3 w - - 0 1";
    let en_passant = "4k3/8/8/4Pp2/8/8/8/4K3 w - f6 0 1";
    for (fen, text, lang, to, first) in [
        (blocked, "c4", En, Square::C4, "dxc4"),
        (blocked, "c4", Es, Square::C4, "dxc4"),
        (blocked, "c4+", En, Square::C4, "dxc4"),
        (blocked, "xc4", En, Square::C4, "dxc4"),
        (blocked, "Pxc4", En, Square::C4, "dxc4"),
        (blocked, "Pc4", En, Square::C4, "dxc4"),
        (blocked, "\u{2659}c4", En, Square::C4, "dxc4"),
        (FILES, "c4", En, Square::C4, "dxc4"),
        (FILES, "c3", En, Square::C3, "bxc3"),
        (en_passant, "f6", En, Square::F6, "exf6"),
        (en_passant, "f6 e.p.", En, Square::F6, "exf6"),
        (en_passant, "xf6", Es, Square::F6, "exf6"),
    ] {
        let err = read_move(&pos(fen), text, lang).unwrap_err();
        assert_eq!(
            err.kind,
            ReadErrorKind::Illegal {
                reason: no_file(to)
            },
            "{fen} {text:?}"
        );
        assert_eq!(
            err.suggestions.first().map(San::to_string).as_deref(),
            Some(first),
            "{fen} {text:?}"
        );
        assert!(
            err.to_string().contains(&format!("Did you mean {first}")),
            "{fen} {text:?}: {err}"
        );
    }
    assert_eq!(
        message(blocked, "c4", En),
        "No pawn can move straight to c4, and a pawn capture names the pawn's file. \
         Did you mean dxc4 or d4?"
    );
    // With the file, or as coordinates, the captures are read as before.
    for (fen, text, uci) in [
        (blocked, "dxc4", "d3c4"),
        (blocked, "dc4", "d3c4"),
        (blocked, "d3c4", "d3c4"),
        (blocked, "Pdxc4", "d3c4"),
        (en_passant, "exf6", "e5f6"),
        (en_passant, "ef6", "e5f6"),
        (en_passant, "e5f6", "e5f6"),
    ] {
        let p = pos(fen);
        assert_eq!(
            read_move(&p, text, En),
            Ok(uci_move(&p, uci)),
            "{fen} {text:?}"
        );
    }
    // Two pawns could take: neither is guessed (this was an ambiguity before).
    let two = "4k3/8/8/8/8/1p6/P1P5/4K3 w - - 0 1";
    let err = read_move(&pos(two), "b3", En).unwrap_err();
    assert_eq!(
        err.kind,
        ReadErrorKind::Illegal {
            reason: no_file(Square::B3)
        }
    );
    assert_eq!(err.suggestions[..2], ["axb3", "cxb3"]);
    // A pawn that can go straight to the square still does, with a capture beside it.
    let p = pos("4k3/8/8/8/2p5/8/2PP4/4K3 w - - 0 1");
    assert_eq!(read_move(&p, "c3", En), Ok(uci_move(&p, "c2c3")));
    assert_eq!(read_move(&p, "d3", En), Ok(uci_move(&p, "d2d3")));
    assert_eq!(read_move(&p, "d4", En), Ok(uci_move(&p, "d2d4")));
    // When no pawn can capture there either, it says no pawn can reach the square.
    assert!(matches!(
        reason(START, "e5", En),
        IllegalReason::CannotReach {
            role: Role::Pawn,
            ..
        }
    ));
}
