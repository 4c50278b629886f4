//! Unchecked setups: a position as given (from FEN, a PGN `FEN` tag, or built by hand),
//! before [`crate::Position::from_setup`] validates it.
//!
//! The dependencies point one way: `board` ← `setup` ← `fen` ← `position`.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::types::{Color, Square};

/// A position as given, not yet validated. Only [`crate::Position::from_setup`] turns it
/// into something playable.
///
/// ```
/// use cajitas_rules::{Bitboard, Color, Setup, Square};
/// let setup = Setup::initial();
/// assert_eq!(setup.turn, Color::White);
/// assert_eq!(setup.castling_rights.count(), 4);
/// assert!(setup.castling_rights.contains(Square::H1));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The ROOK squares that may still castle (a1, h1, a8, h8 in standard chess).
    pub castling_rights: Bitboard,
    /// The en passant square as given.
    pub ep_square: Option<Square>,
    /// Halfmoves since the last capture or pawn move.
    pub halfmoves: u32,
    /// The move number, starting at 1 and incremented after black's move.
    pub fullmoves: u32,
}

impl Setup {
    /// The standard initial position.
    pub fn initial() -> Setup {
        Setup {
            board: Board::new(),
            turn: Color::White,
            castling_rights: Bitboard(0x8100_0000_0000_0081),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// An empty board, white to move, no rights.
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::White,
            castling_rights: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::initial()
    }
}
