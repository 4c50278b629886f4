//! Every player-facing text of the notation layer, in English, in one place so the bot can
//! translate them later. The error types are data (see [`crate::ReadError`] and friends); this
//! module is their `Display`.

use std::fmt::{self, Display, Formatter, Write as _};

use crate::read::{CastleProblem, IllegalReason, Malformed, ReadError, ReadErrorKind};
use crate::san::{ParseSanError, SanError};
use crate::uci::{IllegalUciError, ParseUciError};
use crate::{CastlingSide, Role};

/// Writes `a`, `a or b`, `a, b or c`.
fn write_or<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(if i + 1 == items.len() { " or " } else { ", " })?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

fn side_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    }
}

impl Display for Malformed {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Malformed::Empty => f.write_str("nothing to read: type a move such as e4 or Nf3"),
            Malformed::TooLong { max } => {
                write!(f, "that is too long for a move (at most {max} characters)")
            }
            Malformed::NullMove => f.write_str("a null move is not a move in a game"),
            Malformed::UnknownPiece { letter } => write!(
                f,
                "'{letter}' is not a piece letter (use K Q R B N, or R D T A C in Spanish)"
            ),
            Malformed::NoDestination => {
                f.write_str("no destination square found: a move names one, like e4")
            }
            Malformed::TrailingText { text } => write!(f, "unexpected \"{text}\" after the move"),
            Malformed::Unreadable => {
                f.write_str("not a move I can read: try e4, Nf3, exd5, O-O or e2e4")
            }
        }
    }
}

impl Display for CastleProblem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CastleProblem::KingMoved => "the king has moved",
            CastleProblem::RookMoved => "the rook has moved",
            CastleProblem::PiecesInTheWay => "there are pieces in the way",
            CastleProblem::OutOfCheck => "you are in check",
            CastleProblem::ThroughAttackedSquare => "the king would pass an attacked square",
            CastleProblem::IntoCheck => "the king would land in check",
        })
    }
}

impl Display for IllegalReason {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::NoLegalMoves => {
                f.write_str("there are no legal moves: the game is over")
            }
            IllegalReason::NoSuchPiece { role } => write!(f, "you have no {role}"),
            IllegalReason::CannotReach {
                role,
                from_file,
                from_rank,
                to,
            } => match (from_file, from_rank) {
                (None, None) => write!(f, "no {role} can reach {to}"),
                (Some(file), None) => write!(f, "no {role} on the {file}-file can reach {to}"),
                (None, Some(rank)) => write!(f, "no {role} on rank {rank} can reach {to}"),
                (Some(file), Some(rank)) => {
                    write!(f, "the {role} on {file}{rank} cannot reach {to}")
                }
            },
            IllegalReason::PawnCaptureWithoutFile { to } => write!(
                f,
                "no pawn can move straight to {to}, and a pawn capture names the pawn's file"
            ),
            IllegalReason::EmptySquare { square } => write!(f, "there is no piece on {square}"),
            IllegalReason::NotYourPiece { square, role } => {
                write!(f, "the {role} on {square} is not yours")
            }
            IllegalReason::WrongPiece {
                square,
                found,
                named,
            } => write!(f, "the piece on {square} is a {found}, not a {named}"),
            IllegalReason::OwnPieceThere { square, role } => {
                write!(f, "your own {role} stands on {square}")
            }
            IllegalReason::Pinned { role, square } => {
                write!(f, "the {role} on {square} is pinned")
            }
            IllegalReason::InCheck => f.write_str("you are in check"),
            IllegalReason::KingWouldBeInCheck => f.write_str("your king would be in check"),
            IllegalReason::Castle { side, problem } => match problem {
                CastleProblem::KingMoved => write!(f, "cannot castle: {problem}"),
                CastleProblem::OutOfCheck => f.write_str("cannot castle out of check"),
                CastleProblem::ThroughAttackedSquare => {
                    f.write_str("cannot castle through an attacked square")
                }
                CastleProblem::IntoCheck => f.write_str("cannot castle into check"),
                CastleProblem::RookMoved | CastleProblem::PiecesInTheWay => {
                    write!(f, "cannot castle {}: {problem}", side_name(*side))
                }
            },
            IllegalReason::NotAPromotion => {
                f.write_str("only a pawn reaching the last rank can promote")
            }
            IllegalReason::CannotPromoteTo { role } => write!(
                f,
                "a pawn cannot promote to a {role}: choose a queen, rook, bishop or knight"
            ),
            IllegalReason::NotLegal => f.write_str("that move is not legal here"),
        }
    }
}

impl Display for ReadErrorKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ReadErrorKind::Malformed { problem } => problem.fmt(f),
            ReadErrorKind::Illegal { reason } => reason.fmt(f),
            ReadErrorKind::Ambiguous { candidates } => {
                f.write_str("ambiguous: it could be ")?;
                write_or(f, candidates)
            }
            ReadErrorKind::IncompletePromotion { to, choices } => {
                write!(f, "a pawn reaching {to} must promote: choose a ")?;
                let names: Vec<&str> = choices.iter().map(|r| Role::name(*r)).collect();
                write_or(f, &names)
            }
        }
    }
}

/// `Display` of [`ReadError`]: the kind as a sentence, then "Did you mean …?" when there are
/// suggestions that the kind does not already list.
impl Display for ReadError {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut sentence = String::new();
        write!(sentence, "{}", self.kind)?;
        let mut chars = sentence.chars();
        if let Some(first) = chars.next() {
            write!(f, "{}{}.", first.to_uppercase(), chars.as_str())?;
        }
        let listed = matches!(
            self.kind,
            ReadErrorKind::Ambiguous { .. } | ReadErrorKind::IncompletePromotion { .. }
        );
        if !listed && !self.suggestions.is_empty() {
            f.write_str(" Did you mean ")?;
            write_or(f, &self.suggestions)?;
            f.write_str("?")?;
        }
        Ok(())
    }
}

impl Display for ParseSanError {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("not standard SAN (like e4, Nf3, exd5, O-O or e8=Q)")
    }
}

impl Display for SanError {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SanError::IllegalSan => "that move is not legal here",
            SanError::AmbiguousSan => "that move is ambiguous",
        })
    }
}

impl Display for ParseUciError {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("not a UCI move (like e2e4 or e7e8q)")
    }
}

impl Display for IllegalUciError {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("that move is not legal here")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{San, Square};

    fn sans(texts: &[&str]) -> Vec<San> {
        texts.iter().map(|t| t.parse().unwrap()).collect()
    }

    #[test]
    fn sentences() {
        let e = ReadError {
            kind: ReadErrorKind::Illegal {
                reason: IllegalReason::Pinned {
                    role: Role::Knight,
                    square: Square::G1,
                },
            },
            suggestions: sans(&["Nc3", "e4"]),
        };
        assert_eq!(
            e.to_string(),
            "The knight on g1 is pinned. Did you mean Nc3 or e4?"
        );
        let e = ReadError {
            kind: ReadErrorKind::Ambiguous {
                candidates: sans(&["Nbd2", "Nfd2"]),
            },
            suggestions: sans(&["Nbd2", "Nfd2"]),
        };
        assert_eq!(e.to_string(), "Ambiguous: it could be Nbd2 or Nfd2.");
        let e = ReadError {
            kind: ReadErrorKind::IncompletePromotion {
                to: Square::E8,
                choices: Role::PROMOTIONS.to_vec(),
            },
            suggestions: vec![],
        };
        assert_eq!(
            e.to_string(),
            "A pawn reaching e8 must promote: choose a queen, rook, bishop or knight."
        );
    }
}
