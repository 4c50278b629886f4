//! Moves and fixed-capacity move lists.

use std::fmt;
use std::ops::{Deref, DerefMut};

use crate::types::{CastlingSide, File, Role, Square};

/// A move, as the rules understand it.
///
/// ```
/// use cajitas_rules::{CastlingSide, Move, Role, Square};
/// let m = Move::Castle { king: Square::E1, rook: Square::H1 };
/// assert_eq!(m.to(), Square::G1);
/// assert_eq!(m.castling_side(), Some(CastlingSide::KingSide));
/// assert_eq!(m.role(), Role::King);
/// let e4 = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None };
/// assert!(!e4.is_capture());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Any move but en passant and castling (promotions included).
    Normal {
        /// The moving piece.
        role: Role,
        /// Where it starts.
        from: Square,
        /// The role of the captured piece, if any.
        capture: Option<Role>,
        /// Where it lands.
        to: Square,
        /// The promotion piece, for a pawn reaching the last rank.
        promotion: Option<Role>,
    },
    /// An en passant capture.
    EnPassant {
        /// The capturing pawn's square.
        from: Square,
        /// The en passant square, where the pawn lands.
        to: Square,
    },
    /// Castling, given by the ORIGIN squares of the king and the rook.
    Castle {
        /// The king's square.
        king: Square,
        /// The castling rook's square.
        rook: Square,
    },
}

impl Move {
    /// The moving piece (the king for castling).
    #[inline]
    pub const fn role(self) -> Role {
        match self {
            Move::Normal { role, .. } => role,
            Move::EnPassant { .. } => Role::Pawn,
            Move::Castle { .. } => Role::King,
        }
    }

    /// The origin square (the king's for castling).
    #[inline]
    pub const fn from(self) -> Square {
        match self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => from,
            Move::Castle { king, .. } => king,
        }
    }

    /// The destination square; for castling, the KING'S destination (g1, c1, g8 or c8).
    #[inline]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } => to,
            Move::Castle { king, rook } => {
                let file = if rook.index() > king.index() {
                    File::G
                } else {
                    File::C
                };
                Square::from_coords(file, king.rank())
            }
        }
    }

    /// The captured role (a pawn for en passant).
    #[inline]
    pub const fn capture(self) -> Option<Role> {
        match self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            Move::Castle { .. } => None,
        }
    }

    /// `true` for captures, en passant included.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.capture().is_some()
    }

    /// The promotion role, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// `true` for promotions.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.promotion().is_some()
    }

    /// `true` for en passant captures.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        matches!(self, Move::EnPassant { .. })
    }

    /// `true` for castling.
    #[inline]
    pub const fn is_castle(self) -> bool {
        matches!(self, Move::Castle { .. })
    }

    /// The castling side, for castling moves.
    #[inline]
    pub const fn castling_side(self) -> Option<CastlingSide> {
        match self {
            Move::Castle { king, rook } => Some(if rook.index() > king.index() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            }),
            _ => None,
        }
    }

    /// `true` when the move resets the halfmove clock (a pawn move or a capture).
    #[inline]
    pub const fn is_zeroing(self) -> bool {
        matches!(self.role(), Role::Pawn) || self.is_capture()
    }
}

impl fmt::Display for Move {
    /// A long algebraic form for debugging, e.g. `Ng1-f3`, `e7xd8=Q`, `O-O`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Castle { .. } => match self.castling_side() {
                Some(CastlingSide::KingSide) => f.write_str("O-O"),
                _ => f.write_str("O-O-O"),
            },
            _ => {
                if self.role() != Role::Pawn {
                    write!(f, "{}", self.role().upper_char())?;
                }
                let sep = if self.is_capture() { 'x' } else { '-' };
                write!(f, "{}{sep}{}", self.from(), self.to())?;
                if let Some(p) = self.promotion() {
                    write!(f, "={}", p.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

static EMPTY_SLOTS: [Move; MAX_MOVES] = [FILLER; MAX_MOVES];

/// The largest number of legal moves of any chess position is 218; the list holds 256.
/// Validation refuses setups with more material than a game can produce, which could have
/// more (see [`PositionErrorKind::TooMuchMaterial`](crate::PositionErrorKind::TooMuchMaterial)).
pub const MAX_MOVES: usize = 256;

/// A list of moves with a fixed capacity on the stack (no heap allocation).
///
/// ```
/// use cajitas_rules::Position;
/// let moves = Position::new().legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert!(moves.iter().any(|m| m.to().to_string() == "e4"));
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

/// The value unused slots hold. Chosen so that its bytes are (in practice) all zero,
/// which lets the compiler clear a new list with one `memset`.
const FILLER: Move = Move::Normal {
    role: Role::Pawn,
    from: Square::A1,
    capture: Some(Role::Pawn),
    to: Square::A1,
    promotion: Some(Role::Pawn),
};

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        // Copied from a static: one fast memcpy instead of 256 stores.
        MoveList {
            moves: EMPTY_SLOTS,
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// When the list is full (256 moves).
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `f` holds.
    pub fn retain<F: FnMut(&Move) -> bool>(&mut self, mut f: F) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if f(&m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        **self == **other
    }
}

impl Eq for MoveList {}

/// The moves of a [`MoveList`], by value.
#[derive(Clone)]
pub struct MoveListIntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.next < self.list.len {
            let m = self.list.moves[self.next];
            self.next += 1;
            Some(m)
        } else {
            None
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter {
            list: self,
            next: 0,
        }
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for m in iter {
            self.push(m);
        }
    }
}
