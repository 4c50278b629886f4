//! Pure chess rules for Cajitas: no I/O, no async, no Discord, no database.
//!
//! A [`Setup`] (from FEN, say) becomes a [`Position`] only through validation; a
//! position lists its legal moves and plays them.
//!
//! ```
//! use cajitas_rules::{perft, Position};
//! let mut pos = Position::new();
//! let first = pos.legal_moves()[0];
//! pos.play(first);
//! assert_eq!(perft(&Position::new(), 2), 400);
//! ```

#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
mod fen;
mod game;
mod messages;
mod moves;
mod outcome;
pub mod pgn;
mod position;
mod read;
mod san;
mod types;
mod uci;

pub use bitboard::{Bitboard, IntoIter as BitboardIter};
pub use board::Board;
pub use fen::{Fen, FenError, FenField, MAX_FEN_LEN, ParseFenError, Setup};
pub use game::{ClaimError, Game, PlayError};
pub use moves::{MAX_MOVES, Move, MoveList, MoveListIntoIter};
pub use outcome::{DrawClaim, DrawReason, Outcome, WinReason};
pub use position::{
    IllegalMoveError, Position, PositionError, PositionErrorKind, PositionWarning, perft,
};
pub use read::{
    CastleProblem, IllegalReason, Lang, MAX_INPUT_CHARS, Malformed, MoveText, Pattern, ReadError,
    ReadErrorKind, Reading, read_move,
};
pub use san::{ParseSanError, San, SanError, SanPlus, Suffix, san};
pub use types::{CastlingSide, Color, File, ParseSquareError, Piece, Rank, Role, Square};
pub use uci::{IllegalUciError, ParseUciError, Uci};
