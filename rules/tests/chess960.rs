//! Chess960 castling against shakmaty (=0.30.1, a dev-dependency only) in its
//! `CastlingMode::Chess960`: positions with odd castling (the king or the rook not moving,
//! the two swapping, the other rook in the way, attacked squares), their move sets and perft,
//! and seeded random games from Chess960 start positions compared move by move.

use cajitas_rules::{
    CastleProblem, CastlingMode, CastlingSide, Color, IllegalReason, Lang, Move, Position,
    ReadErrorKind, Square, Uci, perft, read_move, san,
};
use shakmaty::{EnPassantMode, Position as _};

/// Positions whose castling only the 960 rule decides, each with the castling moves (in
/// UCI, king takes rook) that are legal for the side to move.
const ODD_CASTLING: &[(&str, &[&str])] = &[
    // The king on b1 castles long: it moves to c1, the rook from a1 to d1.
    ("4k3/8/8/8/8/8/8/RK5R w AH - 0 1", &["b1a1", "b1h1"]),
    // A rook on the king's destination: the king goes to g1, the rook from g1 to f1.
    ("4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", &["e1g1"]),
    // The king does not move (g1 with the rook on h1; c1 with the rook on a1).
    ("4k3/8/8/8/8/8/8/6KR w H - 0 1", &["g1h1"]),
    ("4k3/8/8/8/8/8/8/R1K5 w A - 0 1", &["c1a1"]),
    // The rook does not move (f1 and d1).
    ("4k3/8/8/8/8/8/8/3RKR2 w DF - 0 1", &["e1d1", "e1f1"]),
    // King and rook swap squares: f1/g1 and d1/c1.
    ("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", &["f1g1"]),
    ("4k3/8/8/8/8/8/8/2RK4 w C - 0 1", &["d1c1"]),
    // The other rook on the king's destination blocks long castling; short castling with
    // it goes over the whole rank.
    ("4k3/8/8/8/8/8/8/RKR5 w AC - 0 1", &["b1c1"]),
    // The other rook on the castling rook's destination blocks.
    ("4k3/8/8/8/8/8/8/1K3RR1 w G - 0 1", &[]),
    // An attacked rook square does not matter, only the king's path.
    ("r3k3/8/8/8/8/8/8/RK6 w A - 0 1", &["b1a1"]),
    ("4k2r/8/8/8/8/8/8/1K5R w H - 0 1", &["b1h1"]),
    ("4k3/8/8/8/8/8/3r4/1K5R w H - 0 1", &[]),
    // The landing square is attacked once the castling rook is lifted (x-ray along the rank).
    ("4k3/8/8/8/8/8/8/5KRr w G - 0 1", &[]),
    // A rook behind the king's start square attacks the landing square once the king is lifted.
    ("4k3/8/8/8/8/8/8/rRK2R2 w F - 0 1", &["c1f1"]),
    ("3k4/8/8/8/8/8/8/r1K1R3 w E - 0 1", &[]),
    // A rook pinned along the rank: castling lifts it and leaves the king (staying on c1) in check.
    ("4k3/8/8/8/8/8/8/qRK5 w B - 0 1", &[]),
    // Black, the same rules on the eighth rank.
    ("rk5r/8/8/8/8/8/8/4K3 b ah - 0 1", &["b8a8", "b8h8"]),
    ("4k1r1/8/8/8/8/8/8/4K3 b g - 0 1", &["e8g8"]),
    ("5kr1/8/8/8/8/8/8/4K3 b g - 0 1", &["f8g8"]),
    ("5kr1/8/8/8/8/8/8/4K1Q1 b g - 0 1", &[]),
    // In check: no castling.
    ("4k3/8/8/8/8/8/8/RK4r1 w A - 0 1", &[]),
];

/// Chess960 start positions and middlegames from them (Shredder-FEN, so the castling rooks
/// are named).
const STARTS: &[&str] = &[
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
    "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1",
    "rkrbbqnn/pppppppp/8/8/8/8/PPPPPPPP/RKRBBQNN w CAca - 0 1",
    "bbnrkrqn/pppppppp/8/8/8/8/PPPPPPPP/BBNRKRQN w FDfd - 0 1",
    "qnrbbknr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBKNR w HChc - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
];

fn ours(fen: &str) -> Position {
    Position::from_fen_with(fen, CastlingMode::Chess960).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn theirs(fen: &str) -> shakmaty::Chess {
    fen.parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("shakmaty refuses {fen}: {e}"))
}

fn our_ucis(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.uci(m).to_string())
        .collect();
    v.sort();
    v
}

fn their_ucis(pos: &shakmaty::Chess) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Chess960).to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn odd_castling_is_legal_exactly_when_the_960_rule_says() {
    for &(fen, expected) in ODD_CASTLING {
        let pos = ours(fen);
        let mut castles: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.is_castle())
            .map(|&m| pos.uci(m).to_string())
            .collect();
        castles.sort();
        assert_eq!(castles, expected, "{fen}");
        assert_eq!(our_ucis(&pos), their_ucis(&theirs(fen)), "{fen}");
    }
}

#[test]
fn castling_moves_king_and_rook_to_their_squares() {
    // Swap: king f1, rook g1 → king g1, rook f1.
    let mut pos = ours("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    pos.play(Move::Castle {
        king: Square::F1,
        rook: Square::G1,
    });
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // The king stays on g1, the rook jumps from h1 to f1.
    let mut pos = ours("4k3/8/8/8/8/8/8/6KR w H - 0 1");
    pos.play(Move::Castle {
        king: Square::G1,
        rook: Square::H1,
    });
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // The king on b1 castles long past the rook's square.
    let mut pos = ours("4k3/8/8/8/8/8/8/RK5R w AH - 0 1");
    let m = Move::Castle {
        king: Square::B1,
        rook: Square::A1,
    };
    assert_eq!(m.castling_side(), Some(CastlingSide::QueenSide));
    assert_eq!(m.to(), Square::C1);
    pos.play(m);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/2KR3R b - - 1 1");
}

#[test]
fn castling_rights_are_rook_squares_on_either_side_of_the_king() {
    let pos = ours("nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1");
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            assert!(pos.has_castling_right(color, side));
        }
    }
    assert_eq!(
        pos.castling_rook(Color::White, CastlingSide::KingSide),
        Some(Square::G1)
    );
    // A rook moving loses its right only; the king moving loses both.
    let mut p = ours("nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/1RKBBQRN w GBgb - 0 1");
    p.play(uci(&p, "b1a1"));
    assert!(!p.has_castling_right(Color::White, CastlingSide::QueenSide));
    assert!(p.has_castling_right(Color::White, CastlingSide::KingSide));
    assert_eq!(
        p.fen(),
        "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/R1KBBQRN b Kkq - 1 1"
    );
    let mut p = ours("nrkbbqrn/pppppppp/8/8/8/8/PPP1PPPP/NRKBBQRN w GBgb - 0 1");
    p.play(uci(&p, "c1d2"));
    assert_eq!(p.castling_rights().count(), 2);
    assert!(!p.has_castling_right(Color::White, CastlingSide::KingSide));
}

fn uci(pos: &Position, text: &str) -> Move {
    text.parse::<cajitas_rules::Uci>()
        .unwrap()
        .to_move(pos)
        .unwrap_or_else(|_| panic!("{text} in {}", pos.fen()))
}

#[test]
fn the_repetition_key_tells_castling_rooks_apart() {
    // The same placement, the right on the g-rook or on the h-rook... which only Chess960
    // can have: two rooks on the king side, the right on one of them.
    let g = ours("4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
    let h = ours("4k3/8/8/8/8/8/8/4K1RR w H - 0 1");
    let none = ours("4k3/8/8/8/8/8/8/4K1RR w - - 0 1");
    assert_eq!(g.board(), h.board());
    assert_ne!(g.fide_key(), h.fide_key());
    assert_ne!(g.fide_key(), none.fide_key());
    assert_ne!(h.fide_key(), none.fide_key());
    assert_eq!(
        g.fide_key(),
        ours("4k3/8/8/8/8/8/8/4K1RR w G - 0 1").fide_key()
    );
}

/// Full boards with odd castling: the king not moving (g1 with the rook on h1), king and
/// rook swapping (f1/g1, d1/c1), the other rook on the king's destination with a long
/// castling path on the other side, rooks attacked on open files.
const ODD_FULL: &[&str] = &[
    "bbq2rkr/pppppppp/8/8/8/8/PPPPPPPP/BB3RKR w HFhf - 0 1",
    "rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w CAca - 0 1",
    "r4kr1/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 w GAga - 0 1",
    "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R w HChc - 0 1",
    "1r2k1r1/p4ppp/8/8/8/8/P4PPP/1R2K1R1 w GBgb - 0 1",
    "1r2k1r1/p4ppp/8/8/8/8/P4PPP/1R2K1R1 b GBgb - 0 1",
    "rk5r/p1pppppp/8/1p6/1P6/8/P1PPPPPP/RK5R w HAha - 0 1",
];

#[test]
fn odd_castling_perft_agrees_with_shakmaty() {
    for fen in ODD_CASTLING
        .iter()
        .map(|c| c.0)
        .chain(ODD_FULL.iter().copied())
    {
        let (a, b) = (ours(fen), theirs(fen));
        for depth in 1..=4 {
            assert_eq!(
                perft(&a, depth),
                shakmaty::perft(&b, depth),
                "{fen} depth {depth}"
            );
        }
    }
}

/// A small xorshift generator: seeded, reproducible, no dependency.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// Plays seeded random games from `starts`, comparing move sets, UCI, FEN and check after
/// every ply; returns the positions compared and the castling moves played.
fn random_games(starts: &[String], games: u64, seed: u64) -> (u64, u64) {
    let mut rng = XorShift(seed);
    let (mut positions, mut castles) = (0, 0);
    for game in 0..games {
        let start = &starts[(game % starts.len() as u64) as usize];
        let mut pos = ours(start);
        let mut sh = theirs(start);
        for ply in 0..200 {
            positions += 1;
            let ctx = || format!("game {game} ply {ply}: {}", pos.fen());
            let fen_sh = shakmaty::fen::Fen::from_position(&sh, EnPassantMode::Legal);
            // shakmaty writes the en passant square only when a capture is legal.
            let mut ours_fen = pos.fen();
            if pos.ep_square().is_some() && pos.legal_ep_square().is_none() {
                ours_fen = ours_fen.replacen(&format!(" {}", pos.ep_square().unwrap()), " -", 1);
            }
            assert_eq!(ours_fen, fen_sh.to_string(), "{}", ctx());
            let a = our_ucis(&pos);
            assert_eq!(a, their_ucis(&sh), "{}", ctx());
            assert_eq!(pos.is_check(), sh.is_check(), "{}", ctx());
            if a.is_empty() || pos.has_insufficient_material() {
                break;
            }
            let moves = pos.legal_moves();
            // Castle whenever possible half the time, so castling happens often.
            let castle = moves.iter().copied().find(|m| m.is_castle());
            let m = match castle {
                Some(c) if rng.next().is_multiple_of(2) => c,
                _ => moves[(rng.next() % moves.len() as u64) as usize],
            };
            castles += u64::from(m.is_castle());
            let uci = pos.uci(m).to_string();
            every_notation_reads(&pos, m);
            let sm = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&sh)
                .unwrap_or_else(|e| panic!("{}: shakmaty refuses {uci}: {e}", ctx()));
            pos.play(m);
            sh.play_unchecked(sm);
        }
    }
    (positions, castles)
}

#[test]
fn random_chess960_games_agree_with_shakmaty() {
    let starts: Vec<String> = STARTS.iter().map(|s| s.to_string()).collect();
    let (positions, castles) = random_games(&starts, 300, 0x9e37_79b9_7f4a_7c15);
    eprintln!("{positions} positions compared, {castles} castling moves played");
    assert!(positions > 10_000, "{positions}");
    assert!(castles > 100, "{castles}");
}

/// The texts a player may type for `m` (castling in every notation) all read as `m`.
fn every_notation_reads(pos: &Position, m: Move) {
    let mut texts = vec![san(pos, m).to_string(), pos.uci(m).to_string()];
    if let Move::Castle { king, rook } = m {
        let (o, zero) = match m.castling_side() {
            Some(CastlingSide::KingSide) => ("O-O", "0-0"),
            _ => ("O-O-O", "0-0-0"),
        };
        texts.extend([
            o.to_string(),
            zero.to_string(),
            o.to_lowercase(),
            format!("{king}{rook}"),
            format!("{king}-{rook}"),
            format!("K{rook}"),
            format!("Kx{rook}"),
            format!("K{king}{rook}"),
            format!(
                "{}{rook}",
                if pos.turn() == Color::White {
                    '♔'
                } else {
                    '♚'
                }
            ),
            format!("R{rook}"),
        ]);
    }
    for (i, text) in texts.iter().enumerate() {
        // English SAN (`Rf2`) is not Spanish (`R` is the king there); the rest is both.
        let langs: &[Lang] = if i == 0 {
            &[Lang::En]
        } else {
            &[Lang::En, Lang::Es]
        };
        for &lang in langs {
            match read_move(pos, text, lang) {
                Ok(got) => assert_eq!(got, m, "{text} ({lang:?}) in {}", pos.fen()),
                Err(e) => panic!("{text} ({lang:?}) in {}: {e}", pos.fen()),
            }
        }
    }
    let uci: Uci = pos.uci(m).to_string().parse().unwrap();
    assert_eq!(uci.to_move(pos), Ok(m), "{uci} in {}", pos.fen());
}

#[test]
fn castling_reads_in_every_notation() {
    let pos = ours("4k3/8/8/8/8/8/8/RK5R w AH - 0 1");
    let short = Move::Castle {
        king: Square::B1,
        rook: Square::H1,
    };
    let long = Move::Castle {
        king: Square::B1,
        rook: Square::A1,
    };
    assert_eq!(san(&pos, short).to_string(), "O-O");
    assert_eq!(san(&pos, long).to_string(), "O-O-O");
    assert_eq!(pos.uci(short).to_string(), "b1h1");
    assert_eq!(pos.uci(long).to_string(), "b1a1");
    every_notation_reads(&pos, short);
    every_notation_reads(&pos, long);
    // The king's destination, two files or more away, castles too.
    assert_eq!(read_move(&pos, "b1g1", Lang::En), Ok(short));
    // One file away it is the king's own move, not castling.
    let step = read_move(&pos, "b1c1", Lang::En).unwrap();
    assert!(!step.is_castle());
    assert_eq!("b1c1".parse::<Uci>().unwrap().to_move(&pos), Ok(step));
    // King f1, rook h1: `f1g1` is the king's step; castling is `f1h1` or O-O.
    let pos = ours("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    for text in ["f1g1", "Kg1"] {
        assert!(
            !read_move(&pos, text, Lang::En).unwrap().is_castle(),
            "{text}"
        );
    }
    assert!(
        "f1g1"
            .parse::<Uci>()
            .unwrap()
            .to_move(&pos)
            .is_ok_and(|m| !m.is_castle())
    );
    for text in ["f1h1", "Kh1", "O-O", "0-0"] {
        assert!(
            read_move(&pos, text, Lang::En).unwrap().is_castle(),
            "{text}"
        );
    }
    // Standard chess is as before: `Kh1` is no castling there.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    assert!(read_move(&pos, "Kh1", Lang::En).is_err());
    assert!(read_move(&pos, "e1h1", Lang::En).unwrap().is_castle());
}

#[test]
fn illegal_castling_in_chess960_says_why() {
    let reason = |fen: &str, text: &str| match read_move(&ours(fen), text, Lang::En) {
        Err(e) => match e.kind {
            ReadErrorKind::Illegal { reason } => reason,
            other => panic!("{fen} {text}: {other:?}"),
        },
        Ok(m) => panic!("{fen} {text}: read as {m:?}"),
    };
    let castle = |side, problem| IllegalReason::Castle { side, problem };
    use CastlingSide::{KingSide, QueenSide};
    let through = "4k3/8/8/8/8/8/3r4/1K5R w H - 0 1";
    for text in ["O-O", "b1h1", "Kh1", "Kxh1"] {
        assert_eq!(
            reason(through, text),
            castle(KingSide, CastleProblem::ThroughAttackedSquare),
            "{text}"
        );
    }
    assert_eq!(
        reason("4k3/8/8/8/8/8/8/5KRr w G - 0 1", "O-O"),
        castle(KingSide, CastleProblem::IntoCheck)
    );
    assert_eq!(
        reason("4k3/8/8/8/8/8/8/RKR5 w AC - 0 1", "O-O-O"),
        castle(QueenSide, CastleProblem::PiecesInTheWay)
    );
    assert_eq!(
        reason("4k3/8/8/8/8/8/8/RK4r1 w A - 0 1", "O-O-O"),
        castle(QueenSide, CastleProblem::OutOfCheck)
    );
    assert_eq!(
        reason("4k3/8/8/8/8/8/8/RK5R w A - 0 1", "O-O"),
        castle(KingSide, CastleProblem::RookMoved)
    );
    assert_eq!(
        reason("4k3/8/8/8/8/8/8/RK5R w - - 0 1", "O-O"),
        castle(KingSide, CastleProblem::KingMoved)
    );
}

#[test]
fn the_960_start_positions_are_scharnagls_as_shakmaty_has_them() {
    use cajitas_rules::Chess960;
    use std::collections::HashSet;
    let mut fens = HashSet::new();
    for n in 0..Chess960::COUNT {
        let start = Chess960::new(n).unwrap();
        assert_eq!(start.number(), n);
        let pos = Chess960::position(n).unwrap();
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
        assert_eq!(pos.castling_rights().count(), 4, "{n}");
        let board_fen = pos.fen().split(' ').next().unwrap().to_string();
        assert_eq!(
            board_fen,
            shakmaty::Board::chess960(n).board_fen().to_string(),
            "{n}"
        );
        assert_eq!(Chess960::of(pos.board()), Some(start), "{n}");
        // Shakmaty in Chess960 mode reads the same start, with the same moves.
        assert_eq!(
            our_ucis(&pos),
            their_ucis(&theirs(&pos.shredder_fen())),
            "{n}"
        );
        fens.insert(board_fen);
    }
    assert_eq!(fens.len(), 960);
    assert_eq!(
        Chess960::position(518).unwrap().fen(),
        Position::new().fen()
    );
    assert_eq!(Chess960::STANDARD.number(), 518);
    for (n, rank) in [
        (0, "BBQNNRKR"),
        (1, "BQNBNRKR"),
        (518, "RNBQKBNR"),
        (959, "RKRNNQBB"),
    ] {
        let pos = Chess960::position(n).unwrap();
        assert!(
            pos.fen().contains(&format!("/{rank} w")),
            "{n}: {}",
            pos.fen()
        );
    }
    assert!(Chess960::position(960).is_none());
    assert_eq!(Chess960::from_seed(959).number(), 959);
    assert_eq!(
        Chess960::from_seed(u64::MAX).number(),
        (u64::MAX % 960) as u32
    );
    // A board that is no start position.
    let pos = ours("bbqnnrkr/pppppppp/8/8/8/5N2/PPPPPPPP/BBQN1RKR b KQkq - 1 1");
    assert_eq!(Chess960::of(pos.board()), None);
}

#[test]
fn random_games_from_every_kind_of_start_agree_with_shakmaty() {
    use cajitas_rules::Chess960;
    // Every 7th start position: 138 of them, all king files and rook placements.
    let starts: Vec<String> = (0..960)
        .step_by(7)
        .map(|n| Chess960::position(n).unwrap().shredder_fen())
        .collect();
    let (positions, castles) = random_games(&starts, 276, 0x2545_f491_4f6c_dd1d);
    eprintln!("{positions} positions compared, {castles} castling moves played");
    assert!(positions > 20_000, "{positions}");
    assert!(castles > 200, "{castles}");
}

#[test]
fn start_positions_perft_agrees_with_shakmaty() {
    use cajitas_rules::Chess960;
    // 40 start positions, every 24th, at depth 4 (tests/data/chess960.epd has the
    // published counts for one middlegame of each start).
    let mut nodes = 0;
    for n in (0..960).step_by(24) {
        let pos = Chess960::position(n).unwrap();
        let sh = theirs(&pos.shredder_fen());
        let got = perft(&pos, 4);
        assert_eq!(got, shakmaty::perft(&sh, 4), "start {n}: {}", pos.fen());
        nodes += got;
    }
    assert!(nodes > 40 * 100_000, "{nodes}");
}
