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
//!
//! A [`Game`] holds a start position and the moves played, and applies the FIDE draw law:
//! automatic endings ([`Game::outcome`]), draw claims now or with a move
//! ([`Game::claimable`], [`Game::claim_draw`], [`Game::claim_draw_with`]). The [`pgn`]
//! module writes games as PGN and reads PGN files.
//!
//! ```
//! use cajitas_rules::{DrawClaim, Game, Lang, pgn, read_move};
//! let mut game = Game::new();
//! for text in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
//!     game.play(read_move(game.position(), text, Lang::En).unwrap());
//! }
//! // Black may claim a threefold repetition by writing ...Ng8 (not played on the board).
//! let back = read_move(game.position(), "Ng8", Lang::En).unwrap();
//! assert_eq!(game.claimable_with(back), [DrawClaim::ThreefoldRepetition]);
//! game.claim_draw_with(back, DrawClaim::ThreefoldRepetition).unwrap();
//! let text = pgn::write_game(&game, &pgn::Tags::default());
//! assert!(text.ends_with("4. Ng1 1/2-1/2\n"));
//! ```

#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
mod chess960;
mod fen;
mod game;
mod key;
mod messages;
mod moves;
mod notation;
mod outcome;
pub mod pgn;
mod position;
mod read;
mod san;
mod setup;
mod types;
mod uci;

pub use bitboard::{Bitboard, IntoIter as BitboardIter};
pub use board::Board;
pub use chess960::Chess960;
pub use fen::{Fen, FenField, FenReason, MAX_FEN_LEN, ParseFenError};
pub use game::{ClaimError, Game, PlayError};
pub use key::PositionKey;
pub use moves::{MAX_MOVES, Move, MoveList, MoveListIntoIter};
pub use notation::Notation;
pub use outcome::{DrawClaim, DrawReason, Outcome, ParseReasonError, WinReason};
pub use position::{
    FenError, IllegalMoveError, MaterialExcess, Position, PositionError, PositionErrorKind,
    PositionWarning, perft,
};
pub use read::{
    CastleProblem, IllegalReason, Lang, MAX_INPUT_CHARS, Malformed, MoveText, Pattern, ReadError,
    ReadErrorKind, Reading, read_move,
};
pub use san::{ParseSanError, San, SanDisplay, SanError, SanPlus, Suffix, san};
pub use setup::Setup;
pub use types::{
    CastlingMode, CastlingSide, Color, File, ParseSquareError, Piece, Rank, Role, Square,
};
pub use uci::{IllegalUciError, ParseUciError, Uci};
