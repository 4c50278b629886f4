//! PGN (Portable Game Notation): export that lichess imports, and tolerant import.
//!
//! This module has the [`PgnResult`] marker and the position-free tokeniser; the writer
//! and the reader build on SAN and the move reader of part 2.

use std::fmt;

// The tokeniser and splitter are used by the reader, wired in once part 2's move reader lands.
#[allow(dead_code)]
mod lexer;
#[allow(dead_code)]
mod split;

/// The most plies (half-moves) a game read from PGN may have.
pub const MAX_PLIES: usize = 2000;

/// The largest PGN text (in bytes) the reader accepts: 64 MiB.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

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
