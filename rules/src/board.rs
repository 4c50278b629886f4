//! Piece placement. Its text form, the FEN placement field, is read and written in
//! `fen.rs`.

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Role, Square};

/// Where the pieces stand, and nothing else (no side to move, no castling rights).
///
/// ```
/// use cajitas_rules::{Board, Color, Piece, Role, Square};
/// let mut board = Board::new();
/// assert_eq!(board.piece_at(Square::E1), Some(Piece { color: Color::White, role: Role::King }));
/// assert_eq!(board.king_of(Color::Black), Some(Square::E8));
/// board.remove_piece_at(Square::E2);
/// assert_eq!(board.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR");
/// let parsed: Board = "8/8/8/8/8/8/8/K6k".parse().unwrap();
/// assert_eq!(parsed.occupied().count(), 2);
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    roles: [Bitboard; 6],
    colors: [Bitboard; 2],
    occupied: Bitboard,
}

impl Default for Board {
    /// The initial position.
    fn default() -> Board {
        Board::new()
    }
}

impl Board {
    /// An empty board.
    pub const fn empty() -> Board {
        Board {
            roles: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
        }
    }

    /// The standard initial position.
    pub const fn new() -> Board {
        Board {
            roles: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            colors: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
            occupied: Bitboard(0xffff_0000_0000_ffff),
        }
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The squares of the pieces of this role, both colors.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.roles[role.index()]
    }

    /// The squares of this piece.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.roles[piece.role.index()] & self.colors[piece.color.index()]
    }

    /// All pawns.
    #[inline]
    pub fn pawns(&self) -> Bitboard {
        self.roles[0]
    }
    /// All knights.
    #[inline]
    pub fn knights(&self) -> Bitboard {
        self.roles[1]
    }
    /// All bishops.
    #[inline]
    pub fn bishops(&self) -> Bitboard {
        self.roles[2]
    }
    /// All rooks.
    #[inline]
    pub fn rooks(&self) -> Bitboard {
        self.roles[3]
    }
    /// All queens.
    #[inline]
    pub fn queens(&self) -> Bitboard {
        self.roles[4]
    }
    /// All kings.
    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.roles[5]
    }
    /// Rooks and queens.
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.roles[3] | self.roles[4]
    }
    /// Bishops and queens.
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.roles[2] | self.roles[4]
    }

    /// The square of `color`'s king (the first one, if a malformed board has several).
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.roles[5] & self.colors[color.index()]).first()
    }

    /// The color of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.colors[0].contains(sq) {
            Some(Color::White)
        } else if self.colors[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.roles[r.index()].contains(sq))
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = self.color_at(sq)?;
        Some(Piece { color, role })
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.remove_piece_at(sq);
        self.put(sq, piece.color, piece.role);
    }

    /// Removes and returns the piece on `sq`, if any.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.take(sq, piece.color, piece.role);
        Some(piece)
    }

    /// Puts a piece on an empty square (internal fast path).
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, color: Color, role: Role) {
        let b = Bitboard::from(sq);
        self.roles[role.index()] |= b;
        self.colors[color.index()] |= b;
        self.occupied |= b;
    }

    /// Removes a piece known to stand on `sq` (internal fast path).
    #[inline]
    pub(crate) fn take(&mut self, sq: Square, color: Color, role: Role) {
        let b = Bitboard::from(sq);
        self.roles[role.index()] ^= b;
        self.colors[color.index()] ^= b;
        self.occupied ^= b;
    }

    /// Every piece with its square, from a1 towards h8.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .into_iter()
            .filter_map(move |sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The board mirrored top to bottom with colors swapped.
    pub fn swap_colors_and_flip(&self) -> Board {
        let mut b = Board::empty();
        for (sq, p) in self.iter() {
            b.put(sq.flip_vertical(), p.color.other(), p.role);
        }
        b
    }
}
