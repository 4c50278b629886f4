//! PGN (Portable Game Notation): export that lichess imports, and tolerant import.
//!
//! - [`write_game`] writes a [`Game`](crate::Game) with the Seven Tag Roster (from
//!   [`Tags`] and the game's result), Termination, SetUp/FEN when the game did not start
//!   from the initial position, and movetext wrapped at 80 columns.
//! - [`read_games`] reads every game of a text, tolerating what real files contain
//!   (comments, NAGs, variations, `%clk`, a BOM, CRLF, ...); [`read_game`] reads the first.
//!   Moves are read with [`read_move`](crate::read_move). Errors name the line.
//!
//! ```
//! use cajitas_rules::{Lang, pgn};
//! let text = "[Event \"Casual\"]\n[White \"Ana\"]\n[Black \"Bo\"]\n\n\
//!             1. f3 e5 2. g4 Qh4# 0-1\n";
//! let read = pgn::read_game(text, Lang::En).unwrap();
//! assert!(read.game.outcome().is_some());
//! let written = pgn::write_game(&read.game, &pgn::Tags::default());
//! let again = pgn::read_game(&written, Lang::En).unwrap();
//! assert_eq!(again.game.moves(), read.game.moves());
//! assert_eq!(again.result, Some(pgn::PgnResult::BlackWins));
//! ```

use std::fmt;

mod lexer;
mod read;
mod split;
mod write;

pub use read::{Games, PgnError, PgnErrorKind, PgnGame, decode, read_game, read_games};
pub use write::{Tags, write_game};

/// The most plies (half-moves) a game read from PGN may have.
pub const MAX_PLIES: usize = 2000;

/// The largest PGN text (in bytes) the reader accepts: 64 MiB.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

/// The most characters of a text at fault that an error message echoes (see [`echo`]).
pub const MAX_ECHO_CHARS: usize = 64;

/// A text at fault as an error message shows it: whole when it has at most
/// [`MAX_ECHO_CHARS`] characters, otherwise its first ones and `…`. The PGN errors'
/// messages echo through it, and so does `cajitas replay` for its `input` field, so a
/// megabyte-long token never gives a megabyte-long line.
///
/// ```
/// use cajitas_rules::pgn::{self, MAX_ECHO_CHARS};
/// assert_eq!(pgn::echo("Nf4"), "Nf4");
/// let long = "x".repeat(1000);
/// assert_eq!(pgn::echo(&long), format!("{}…", "x".repeat(MAX_ECHO_CHARS)));
/// assert_eq!(pgn::echo(&pgn::echo(&long)), pgn::echo(&long));
/// ```
pub fn echo(text: &str) -> String {
    match text.char_indices().nth(MAX_ECHO_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!("{}\u{2026}", &text[..end]),
    }
}

/// A game termination marker as PGN writes it.
///
/// ```
/// use cajitas_rules::pgn::PgnResult;
/// assert_eq!(PgnResult::Draw.to_string(), "1/2-1/2");
/// assert_eq!("1-0".parse::<PgnResult>(), Ok(PgnResult::WhiteWins));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PgnResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: ongoing, abandoned or unknown.
    Unknown,
}

impl PgnResult {
    /// The marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            PgnResult::WhiteWins => "1-0",
            PgnResult::BlackWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unknown => "*",
        }
    }
}

impl fmt::Display for PgnResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text is not a PGN result marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePgnResultError;

impl fmt::Display for ParsePgnResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a PGN result: expected 1-0, 0-1, 1/2-1/2 or *")
    }
}

impl std::error::Error for ParsePgnResultError {}

impl std::str::FromStr for PgnResult {
    type Err = ParsePgnResultError;

    fn from_str(s: &str) -> Result<PgnResult, ParsePgnResultError> {
        match s.trim() {
            "1-0" => Ok(PgnResult::WhiteWins),
            "0-1" => Ok(PgnResult::BlackWins),
            "1/2-1/2" | "½-½" => Ok(PgnResult::Draw),
            "*" => Ok(PgnResult::Unknown),
            _ => Err(ParsePgnResultError),
        }
    }
}
