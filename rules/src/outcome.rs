//! How a game ended: [`Outcome`], its reasons, and the draws a player may claim.
//!
//! The names follow the FIDE Laws of Chess (articles 5, 6.9 and 9). The `as_str` names are
//! stable kebab-case identifiers, the ones `cajitas replay` prints.

use std::fmt;
use std::str::FromStr;

use crate::Color;
use crate::pgn::PgnResult;

/// Why a game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WinReason {
    /// FIDE 5.1.1: the loser's king is checkmated.
    Checkmate,
    /// FIDE 5.1.2: the loser resigned (supplied by the application).
    Resignation,
    /// FIDE 6.9: the loser's time ran out (supplied by the application).
    Timeout,
}

impl WinReason {
    /// Every win reason, in declaration order.
    pub const ALL: [WinReason; 3] = [
        WinReason::Checkmate,
        WinReason::Resignation,
        WinReason::Timeout,
    ];

    /// A stable identifier: `checkmate`, `resignation`, `timeout`.
    ///
    /// ```
    /// assert_eq!(cajitas_rules::WinReason::Timeout.as_str(), "timeout");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            WinReason::Checkmate => "checkmate",
            WinReason::Resignation => "resignation",
            WinReason::Timeout => "timeout",
        }
    }
}

/// Why a game was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DrawReason {
    /// FIDE 5.2.1: the player to move has no legal move and is not in check.
    Stalemate,
    /// FIDE 5.2.2: neither side can checkmate (insufficient material, as the position
    /// defines it: see [`Position::has_insufficient_material`](crate::Position::has_insufficient_material)).
    DeadPosition,
    /// FIDE 5.2.3: both players agreed (supplied by the application).
    Agreement,
    /// FIDE 9.2: a correct claim of threefold repetition.
    ThreefoldClaim,
    /// FIDE 9.3: a correct claim under the 50-move rule.
    FiftyMoveClaim,
    /// FIDE 9.6.1: the same position appeared five times (automatic).
    Fivefold,
    /// FIDE 9.6.2: 75 moves by each player without a pawn move or a capture (automatic).
    SeventyFiveMoves,
    /// FIDE 6.9: a player's time ran out, but the opponent cannot checkmate by any series
    /// of legal moves (supplied by the application through [`Game::timeout`](crate::Game::timeout)).
    TimeoutVsInsufficientMaterial,
}

impl DrawReason {
    /// Every draw reason, in declaration order.
    pub const ALL: [DrawReason; 8] = [
        DrawReason::Stalemate,
        DrawReason::DeadPosition,
        DrawReason::Agreement,
        DrawReason::ThreefoldClaim,
        DrawReason::FiftyMoveClaim,
        DrawReason::Fivefold,
        DrawReason::SeventyFiveMoves,
        DrawReason::TimeoutVsInsufficientMaterial,
    ];

    /// A stable identifier: `stalemate`, `dead-position`, `agreement`,
    /// `threefold-repetition`, `fifty-moves`, `fivefold-repetition`, `seventy-five-moves`,
    /// `timeout-vs-insufficient-material`.
    ///
    /// ```
    /// assert_eq!(cajitas_rules::DrawReason::Fivefold.as_str(), "fivefold-repetition");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            DrawReason::Stalemate => "stalemate",
            DrawReason::DeadPosition => "dead-position",
            DrawReason::Agreement => "agreement",
            DrawReason::ThreefoldClaim => "threefold-repetition",
            DrawReason::FiftyMoveClaim => "fifty-moves",
            DrawReason::Fivefold => "fivefold-repetition",
            DrawReason::SeventyFiveMoves => "seventy-five-moves",
            DrawReason::TimeoutVsInsufficientMaterial => "timeout-vs-insufficient-material",
        }
    }

    /// Whether the rules end the game by themselves in this case (no player or arbiter
    /// has to act): stalemate, dead position, fivefold repetition, 75 moves.
    ///
    /// ```
    /// use cajitas_rules::DrawReason;
    /// assert!(DrawReason::Fivefold.is_automatic());
    /// assert!(!DrawReason::ThreefoldClaim.is_automatic());
    /// ```
    pub const fn is_automatic(self) -> bool {
        matches!(
            self,
            DrawReason::Stalemate
                | DrawReason::DeadPosition
                | DrawReason::Fivefold
                | DrawReason::SeventyFiveMoves
        )
    }
}

/// Parses the identifier [`WinReason::as_str`] writes (exactly, case-sensitive).
///
/// ```
/// use cajitas_rules::WinReason;
/// assert_eq!("resignation".parse(), Ok(WinReason::Resignation));
/// assert!("Resignation".parse::<WinReason>().is_err());
/// for r in WinReason::ALL {
///     assert_eq!(r.as_str().parse(), Ok(r));
/// }
/// ```
impl FromStr for WinReason {
    type Err = ParseReasonError;

    fn from_str(s: &str) -> Result<WinReason, ParseReasonError> {
        WinReason::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or(ParseReasonError::Win)
    }
}

/// Parses the identifier [`DrawReason::as_str`] writes (exactly, case-sensitive).
///
/// ```
/// use cajitas_rules::{DrawReason, ParseReasonError};
/// assert_eq!("fivefold-repetition".parse(), Ok(DrawReason::Fivefold));
/// assert_eq!("checkmate".parse::<DrawReason>(), Err(ParseReasonError::Draw));
/// for r in DrawReason::ALL {
///     assert_eq!(r.as_str().parse(), Ok(r));
/// }
/// ```
impl FromStr for DrawReason {
    type Err = ParseReasonError;

    fn from_str(s: &str) -> Result<DrawReason, ParseReasonError> {
        DrawReason::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or(ParseReasonError::Draw)
    }
}

/// A text that is not the identifier of a reason: which kind of reason was expected.
///
/// ```
/// use cajitas_rules::{ParseReasonError, WinReason};
/// let err = "flag".parse::<WinReason>().unwrap_err();
/// assert_eq!(err, ParseReasonError::Win);
/// assert_eq!(err.to_string(), "not a win reason (checkmate, resignation, timeout)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParseReasonError {
    /// A [`WinReason`] was expected.
    Win,
    /// A [`DrawReason`] was expected.
    Draw,
}

impl fmt::Display for ParseReasonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, all): (&str, Vec<&str>) = match self {
            ParseReasonError::Win => ("win", WinReason::ALL.map(WinReason::as_str).to_vec()),
            ParseReasonError::Draw => ("draw", DrawReason::ALL.map(DrawReason::as_str).to_vec()),
        };
        write!(f, "not a {what} reason ({})", all.join(", "))
    }
}

impl std::error::Error for ParseReasonError {}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Decisive {
        /// Who won.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The winner, if any.
    ///
    /// ```
    /// use cajitas_rules::{Color, Outcome, WinReason, DrawReason};
    /// let o = Outcome::Decisive { winner: Color::Black, reason: WinReason::Resignation };
    /// assert_eq!(o.winner(), Some(Color::Black));
    /// assert_eq!(Outcome::Draw { reason: DrawReason::Agreement }.winner(), None);
    /// ```
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// Whether the game was drawn.
    pub const fn is_draw(self) -> bool {
        matches!(self, Outcome::Draw { .. })
    }

    /// The reason as a stable identifier (see [`WinReason::as_str`] and [`DrawReason::as_str`]).
    ///
    /// ```
    /// use cajitas_rules::{Color, Outcome, WinReason};
    /// let o = Outcome::Decisive { winner: Color::White, reason: WinReason::Checkmate };
    /// assert_eq!(o.reason_str(), "checkmate");
    /// ```
    pub const fn reason_str(self) -> &'static str {
        match self {
            Outcome::Decisive { reason, .. } => reason.as_str(),
            Outcome::Draw { reason } => reason.as_str(),
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    ///
    /// ```
    /// use cajitas_rules::{Color, Outcome, WinReason, pgn::PgnResult};
    /// let o = Outcome::Decisive { winner: Color::Black, reason: WinReason::Checkmate };
    /// assert_eq!(o.pgn_result(), PgnResult::BlackWins);
    /// assert_eq!(o.pgn_result().to_string(), "0-1");
    /// ```
    pub const fn pgn_result(self) -> PgnResult {
        match self {
            Outcome::Decisive {
                winner: Color::White,
                ..
            } => PgnResult::WhiteWins,
            Outcome::Decisive {
                winner: Color::Black,
                ..
            } => PgnResult::BlackWins,
            Outcome::Draw { .. } => PgnResult::Draw,
        }
    }
}

/// An English sentence: "white wins by checkmate", "draw by fivefold repetition".
///
/// ```
/// use cajitas_rules::{DrawReason, Outcome};
/// let o = Outcome::Draw { reason: DrawReason::SeventyFiveMoves };
/// assert_eq!(o.to_string(), "draw by the 75-move rule");
/// ```
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Outcome::Decisive { winner, reason } => {
                let how = match reason {
                    WinReason::Checkmate => "by checkmate",
                    WinReason::Resignation => "by resignation",
                    WinReason::Timeout => "on time",
                };
                write!(f, "{} wins {how}", winner.name())
            }
            Outcome::Draw { reason } => {
                let why = match reason {
                    DrawReason::Stalemate => "by stalemate",
                    DrawReason::DeadPosition => "by insufficient material (dead position)",
                    DrawReason::Agreement => "by agreement",
                    DrawReason::ThreefoldClaim => "by threefold repetition",
                    DrawReason::FiftyMoveClaim => "by the 50-move rule",
                    DrawReason::Fivefold => "by fivefold repetition",
                    DrawReason::SeventyFiveMoves => "by the 75-move rule",
                    DrawReason::TimeoutVsInsufficientMaterial => {
                        "on time: the opponent cannot checkmate"
                    }
                };
                write!(f, "draw {why}")
            }
        }
    }
}

/// A draw a player may claim (FIDE 9.2 and 9.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DrawClaim {
    /// The same position has appeared (or is about to appear) for the third time.
    ThreefoldRepetition,
    /// The last 50 moves by each player (or those and the move about to be played) had
    /// no pawn move and no capture.
    FiftyMoves,
}

impl DrawClaim {
    /// Both claims, in a fixed order.
    pub const ALL: [DrawClaim; 2] = [DrawClaim::ThreefoldRepetition, DrawClaim::FiftyMoves];

    /// A stable identifier: `threefold-repetition` or `fifty-moves`.
    ///
    /// ```
    /// assert_eq!(cajitas_rules::DrawClaim::FiftyMoves.as_str(), "fifty-moves");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            DrawClaim::ThreefoldRepetition => "threefold-repetition",
            DrawClaim::FiftyMoves => "fifty-moves",
        }
    }

    /// The draw reason a correct claim ends the game with.
    pub const fn reason(self) -> DrawReason {
        match self {
            DrawClaim::ThreefoldRepetition => DrawReason::ThreefoldClaim,
            DrawClaim::FiftyMoves => DrawReason::FiftyMoveClaim,
        }
    }
}

impl fmt::Display for DrawClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawClaim::ThreefoldRepetition => "threefold repetition",
            DrawClaim::FiftyMoves => "the 50-move rule",
        })
    }
}
