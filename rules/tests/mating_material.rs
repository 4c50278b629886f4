//! `Position::insufficient_mating_material` (lichess's rule, scalachess
//! `InsufficientMatingMaterial`): the cases the rule names, and a differential test against
//! shakmaty's `has_insufficient_material(color)`, which implements the same rule, on random
//! sparse positions of kings, minor pieces, pawns and queens.

use cajitas_rules::{Color, Position};
use shakmaty::{CastlingMode, Position as _};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn the_cases_the_rule_names() {
    // A lone king.
    let p = pos("4k3/8/8/8/8/8/q7/4K3 b - - 0 1");
    assert!(p.insufficient_mating_material(Color::White));
    assert!(!p.can_mate(Color::White));
    assert!(p.can_mate(Color::Black));
    // King and knight against king and queens: cannot mate.
    let p = pos("4k3/8/8/8/8/8/q7/3NK3 b - - 0 1");
    assert!(p.insufficient_mating_material(Color::White));
    // ... but against a rook, bishop, knight or pawn it can (a self-block helps).
    for extra in ["r", "b", "n", "p"] {
        let p = pos(&format!("4k3/8/8/7{extra}/8/8/8/3NK3 b - - 0 1"));
        assert!(p.can_mate(Color::White), "{extra}");
    }
    // Two knights can mate (with help).
    assert!(pos("4k3/8/8/8/8/8/q7/2NNK3 b - - 0 1").can_mate(Color::White));
    // King and bishop against king and queen: cannot mate.
    let p = pos("4k3/8/8/8/8/8/q7/2B1K3 b - - 0 1");
    assert!(p.insufficient_mating_material(Color::White));
    // ... unless the other side has a bishop on the opposite colour, a knight or a pawn.
    // c1 and f8 are dark squares, c8 a light one.
    assert!(pos("2b1k3/8/8/8/8/8/8/2B1K3 b - - 0 1").can_mate(Color::White));
    assert!(!pos("4kb2/8/8/8/8/8/8/2B1K3 b - - 0 1").can_mate(Color::White));
    assert!(pos("4k3/8/8/8/8/8/n7/2B1K3 b - - 0 1").can_mate(Color::White));
    assert!(pos("4k3/p7/8/8/8/8/8/2B1K3 b - - 0 1").can_mate(Color::White));
    // Bishops on both colours mate.
    assert!(pos("4k3/8/8/8/8/8/8/2B1KB2 b - - 0 1").can_mate(Color::White));
    // Any pawn, rook or queen mates.
    assert!(pos("4k3/8/8/8/8/8/P7/4K3 b - - 0 1").can_mate(Color::White));
    assert!(pos("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").can_mate(Color::White));
}

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

#[test]
fn random_sparse_positions_agree_with_shakmaty() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let pieces = ['N', 'B', 'P', 'Q', 'R', 'n', 'b', 'p', 'q', 'r'];
    let (mut checked, mut insufficient) = (0, 0);
    while checked < 20_000 {
        let mut board = [None::<char>; 64];
        board[(rng.next() % 64) as usize] = Some('K');
        let bk = (rng.next() % 64) as usize;
        if board[bk].is_some() {
            continue;
        }
        board[bk] = Some('k');
        // Mostly minor pieces, so the rule's interesting cases come up often.
        for _ in 0..(rng.next() % 4) {
            let sq = (rng.next() % 64) as usize;
            let piece = pieces[(rng.next() % pieces.len() as u64) as usize];
            let minor = matches!(piece, 'N' | 'B' | 'n' | 'b') || rng.next().is_multiple_of(3);
            if board[sq].is_none() && minor {
                board[sq] = Some(piece);
            }
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if rng.next().is_multiple_of(2) {
            " w - - 0 1"
        } else {
            " b - - 0 1"
        });
        let Ok(ours) = Position::from_fen(&fen) else {
            continue;
        };
        let Ok(theirs) = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position::<shakmaty::Chess>(CastlingMode::Standard)
        else {
            continue;
        };
        for (c, sc) in [
            (Color::White, shakmaty::Color::White),
            (Color::Black, shakmaty::Color::Black),
        ] {
            let expected = theirs.has_insufficient_material(sc);
            assert_eq!(
                ours.insufficient_mating_material(c),
                expected,
                "{fen} {c:?}"
            );
            insufficient += usize::from(expected);
        }
        checked += 1;
    }
    // The test exercised both answers.
    assert!(insufficient > 1_000, "{insufficient}");
}
