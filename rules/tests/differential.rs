//! Differential test against shakmaty (=0.30.1, a dev-dependency only): thousands of
//! seeded random games, comparing after every move the legal move sets, check, mate,
//! stalemate, insufficient material, the legal en passant square and the FEN.

use cajitas_rules::{Move, Position, Role, Square};
use shakmaty::{CastlingMode, EnPassantMode, Position as _};

const GAMES: u64 = 2_000;
const MAX_PLIES: usize = 200;

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
];

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

/// A comparable key: kind, role, from, to, capture, promotion (roles as 1..=6, 0 = none).
fn key(kind: u32, role: u32, from: u32, to: u32, capture: u32, promotion: u32) -> u32 {
    kind << 28 | role << 24 | from << 16 | to << 8 | capture << 4 | promotion
}

fn r(role: Role) -> u32 {
    role as u32 + 1
}

fn s(sq: Square) -> u32 {
    sq.index() as u32
}

/// The key of our move.
fn ours(m: &Move) -> u32 {
    match *m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => key(
            0,
            r(role),
            s(from),
            s(to),
            capture.map_or(0, r),
            promotion.map_or(0, r),
        ),
        Move::EnPassant { from, to } => key(1, 1, s(from), s(to), 1, 0),
        Move::Castle { king, rook } => key(2, 6, s(king), s(rook), 0, 0),
    }
}

/// The key of shakmaty's move (its roles count from pawn = 1 too).
fn theirs(m: &shakmaty::Move) -> u32 {
    match *m {
        shakmaty::Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => key(
            0,
            role as u32,
            from as u32,
            to as u32,
            capture.map_or(0, |c| c as u32),
            promotion.map_or(0, |p| p as u32),
        ),
        shakmaty::Move::EnPassant { from, to } => key(1, 1, from as u32, to as u32, 1, 0),
        shakmaty::Move::Castle { king, rook } => key(2, 6, king as u32, rook as u32, 0, 0),
        shakmaty::Move::Put { .. } => panic!("no drops in standard chess"),
    }
}

#[test]
fn random_games_agree_with_shakmaty() {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let mut positions = 0u64;
    let mut endings = [0u32; 3]; // mate, stalemate, insufficient material
    for game in 0..GAMES {
        let start = STARTS[(game % STARTS.len() as u64) as usize];
        let mut pos = Position::from_fen(start).unwrap();
        let mut sh: shakmaty::Chess = start
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        for ply in 0..MAX_PLIES {
            positions += 1;
            let ctx = || format!("game {game} ply {ply}: {}", pos.fen());
            let fen_sh = shakmaty::fen::Fen::from_position(&sh, EnPassantMode::PseudoLegal);
            assert_eq!(pos.fen(), fen_sh.to_string(), "{}", ctx());

            let our_moves = pos.legal_moves();
            let mut a: Vec<u32> = our_moves.iter().map(ours).collect();
            let sh_moves = sh.legal_moves();
            let mut b: Vec<u32> = sh_moves.iter().map(theirs).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{}", ctx());
            assert_eq!(pos.count_legal_moves() as usize, a.len(), "{}", ctx());

            assert_eq!(pos.is_check(), sh.is_check(), "{}", ctx());
            assert_eq!(pos.is_checkmate(), sh.is_checkmate(), "{}", ctx());
            assert_eq!(pos.is_stalemate(), sh.is_stalemate(), "{}", ctx());
            assert_eq!(
                pos.has_insufficient_material(),
                sh.is_insufficient_material(),
                "{}",
                ctx()
            );
            assert_eq!(
                pos.legal_ep_square().map(|s| s.to_string()),
                sh.ep_square(EnPassantMode::Legal).map(|s| s.to_string()),
                "{}",
                ctx()
            );
            assert_eq!(pos.checkers().count(), sh.checkers().count(), "{}", ctx());

            if pos.is_checkmate() {
                endings[0] += 1;
                break;
            }
            if pos.is_stalemate() {
                endings[1] += 1;
                break;
            }
            if pos.has_insufficient_material() {
                endings[2] += 1;
                break;
            }
            let i = (rng.next() % our_moves.len() as u64) as usize;
            let m = our_moves[i];
            let key = ours(&m);
            let sm = sh_moves
                .iter()
                .find(|x| theirs(x) == key)
                .cloned()
                .expect("same move sets");
            pos.play(m);
            sh.play_unchecked(sm);
        }
    }
    eprintln!(
        "{positions} positions compared; endings (mate, stalemate, insufficient): {endings:?}"
    );
    assert!(positions > 100_000, "{positions}");
    // The games reach every kind of ending, so those answers were compared both ways.
    assert!(endings.iter().all(|&n| n > 10), "{endings:?}");
}
