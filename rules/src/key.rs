//! The FIDE position key: what article 9.2.3 compares to decide that two positions are the
//! same, with a 64-bit Zobrist hash to make the comparison and hashing cheap.
//!
//! The placement part of the hash can be kept up to date move by move
//! ([`placement_delta`]), which is what [`crate::Game`] does for its repetition count.

use std::hash::{Hash, Hasher};

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::Move;
use crate::types::{Color, File, Role, Square};

/// A position as FIDE 9.2.3 compares it: the same pieces on the same squares, the same
/// side to move, the same castling rights, and the same possibility of capturing en
/// passant. The en passant square counts only when an en passant capture is legal, so a
/// double step that no pawn can answer (or only a pinned one) leaves the key as it was.
///
/// Equal keys mean the same position in that sense, exactly (the hash only speeds up the
/// comparison, it is not trusted alone). `Hash` feeds a single 64-bit Zobrist hash, so keys
/// are cheap in a `HashMap` or `HashSet`. The hash values are not stable across versions of
/// this crate: keep keys in memory, do not store them.
///
/// ```
/// use std::collections::HashMap;
/// use cajitas_rules::{Position, Uci};
///
/// // Knights out and back: the initial position comes round again.
/// let mut pos = Position::new();
/// let mut seen = HashMap::new();
/// *seen.entry(pos.fide_key()).or_insert(0) += 1;
/// for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
///     pos.play(uci.parse::<Uci>().unwrap().to_move(&pos).unwrap());
///     *seen.entry(pos.fide_key()).or_insert(0) += 1;
/// }
/// assert_eq!(seen[&Position::new().fide_key()], 2);
/// // The move counters differ, the key does not.
/// assert_ne!(pos, Position::new());
/// assert_eq!(pos.fide_key(), Position::new().fide_key());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionKey {
    /// The Zobrist hash of everything below (compared first).
    hash: u64,
    /// The squares of each role, both colours (pawn first).
    roles: [Bitboard; 6],
    /// The white pieces (the black ones are the other occupied squares).
    white: Bitboard,
    castling: Bitboard,
    turn: Color,
    /// Some only when an en passant capture is legal.
    ep: Option<Square>,
}

impl Hash for PositionKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Equal keys have equal hashes, as `Hash` requires: the hash is a function of the
        // other fields.
        state.write_u64(self.hash);
    }
}

impl PositionKey {
    /// The key of a position given by parts, `placement` being [`placement_key`] of
    /// `board` (or the same value kept up to date with [`placement_delta`]), and `ep` the
    /// en passant square only when a capture there is legal.
    pub(crate) fn new(
        board: &Board,
        turn: Color,
        castling: Bitboard,
        ep: Option<Square>,
        placement: u64,
    ) -> PositionKey {
        debug_assert_eq!(placement, placement_key(board));
        let mut hash = placement ^ mix(castling.0 ^ 0x5bd1_e995);
        if turn == Color::Black {
            hash ^= ZOBRIST_BLACK;
        }
        if let Some(sq) = ep {
            hash ^= ZOBRIST[12][sq.index()];
        }
        PositionKey {
            hash,
            roles: Role::ALL.map(|role| board.by_role(role)),
            white: board.by_color(Color::White),
            castling,
            turn,
            ep,
        }
    }
}

/// The key of one piece on one square.
fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    ZOBRIST[color.index() * 6 + role.index()][sq.index()]
}

/// The placement part of a key: a table lookup per piece.
pub(crate) fn placement_key(board: &Board) -> u64 {
    let mut k = 0;
    for color in Color::ALL {
        let ours = board.by_color(color);
        for role in Role::ALL {
            for sq in ours & board.by_role(role) {
                k ^= piece_key(color, role, sq);
            }
        }
    }
    k
}

/// How `us` playing `m` changes the placement part of the key: the pieces it lifts and
/// puts down.
pub(crate) fn placement_delta(us: Color, m: Move) -> u64 {
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let mut d = piece_key(us, role, from) ^ piece_key(us, promotion.unwrap_or(role), to);
            if let Some(captured) = capture {
                d ^= piece_key(!us, captured, to);
            }
            d
        }
        Move::EnPassant { from, to } => {
            piece_key(us, Role::Pawn, from)
                ^ piece_key(us, Role::Pawn, to)
                ^ piece_key(!us, Role::Pawn, Square::from_coords(to.file(), from.rank()))
        }
        Move::Castle { king, rook } => {
            let rank = king.rank();
            let (king_to, rook_to) = if rook.index() > king.index() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            piece_key(us, Role::King, king)
                ^ piece_key(us, Role::Rook, rook)
                ^ piece_key(us, Role::King, Square::from_coords(king_to, rank))
                ^ piece_key(us, Role::Rook, Square::from_coords(rook_to, rank))
        }
    }
}

/// SplitMix64's finaliser: a cheap, well-spread 64-bit mix.
const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Random keys per (piece, square), and a 13th row for en passant squares.
static ZOBRIST: [[u64; 64]; 13] = {
    let mut table = [[0u64; 64]; 13];
    let mut i = 0;
    while i < 13 * 64 {
        table[i / 64][i % 64] = mix(i as u64 + 1);
        i += 1;
    }
    table
};

const ZOBRIST_BLACK: u64 = mix(0xb1ac_c0de);
