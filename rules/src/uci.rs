//! Moves in UCI (coordinate) notation: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.

use std::fmt::{self, Display, Formatter, Write as _};
use std::str::FromStr;

use crate::{CastlingMode, Move, Position, Role, Square};

/// A move in UCI notation: origin, destination and promotion piece.
///
/// Castling is written as the king's move (`e1g1`, standard chess). [`Uci::to_move`] also
/// accepts the king-takes-rook form (`e1h1`).
///
/// ```
/// use cajitas_rules::{Position, Square, Uci};
/// let uci: Uci = "e2e4".parse().unwrap();
/// assert_eq!(uci.from, Square::E2);
/// assert_eq!(uci.to_string(), "e2e4");
/// let m = uci.to_move(&Position::new()).unwrap();
/// assert_eq!(Uci::from_move(m), uci);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Uci {
    /// The origin (the king's square for castling).
    pub from: Square,
    /// The destination (the king's destination for castling).
    pub to: Square,
    /// The promotion piece, if any.
    pub promotion: Option<Role>,
}

/// The text is not a UCI move: four characters like `e2e4`, or five with a lower-case promotion
/// letter (`q`, `r`, `b`, `n`). Null moves (`0000`) are not accepted.
///
/// ```
/// use cajitas_rules::Uci;
/// assert!("e2e9".parse::<Uci>().is_err());
/// assert!("0000".parse::<Uci>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseUciError;

impl std::error::Error for ParseUciError {}

/// A well-formed UCI move is not legal in the position.
///
/// ```
/// use cajitas_rules::{IllegalUciError, Position, Uci};
/// let uci: Uci = "e2e5".parse().unwrap();
/// assert_eq!(uci.to_move(&Position::new()), Err(IllegalUciError));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IllegalUciError;

impl std::error::Error for IllegalUciError {}

impl Uci {
    /// The UCI of a move (castling as the king's move, `e1g1`).
    ///
    /// ```
    /// use cajitas_rules::{Position, Uci};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// let castle = pos.legal_moves().iter().copied().find(|m| m.is_castle()).unwrap();
    /// assert_eq!(Uci::from_move(castle).to_string(), "e1g1");
    /// ```
    pub fn from_move(m: Move) -> Uci {
        Uci {
            from: m.from(),
            to: m.to(),
            promotion: m.promotion(),
        }
    }

    /// The UCI of a move as `mode` writes it: castling as the king's move (`e1g1`) in
    /// standard chess, as the king taking its own rook (`e1h1`) in Chess960 (what engines
    /// with `UCI_Chess960` on read and write). [`Position::uci`] uses the position's mode.
    ///
    /// ```
    /// use cajitas_rules::{CastlingMode, Move, Square, Uci};
    /// let castle = Move::Castle { king: Square::B1, rook: Square::A1 };
    /// assert_eq!(Uci::from_move_with(castle, CastlingMode::Chess960).to_string(), "b1a1");
    /// assert_eq!(Uci::from_move_with(castle, CastlingMode::Standard).to_string(), "b1c1");
    /// ```
    pub fn from_move_with(m: Move, mode: CastlingMode) -> Uci {
        match (m, mode) {
            (Move::Castle { king, rook }, CastlingMode::Chess960) => Uci {
                from: king,
                to: rook,
                promotion: None,
            },
            _ => Uci::from_move(m),
        }
    }

    /// The legal move this UCI describes in `pos`, if any. A king moving onto its own rook
    /// (`e1h1`) is read as castling too. In Chess960 that is the only castling form: the
    /// king's move to g1 or c1 is a plain king move there, when it is one.
    ///
    /// ```
    /// use cajitas_rules::{Position, Uci};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// let a = "e1g1".parse::<Uci>().unwrap().to_move(&pos).unwrap();
    /// let b = "e1h1".parse::<Uci>().unwrap().to_move(&pos).unwrap();
    /// assert!(a.is_castle() && a == b);
    /// assert!("e1e3".parse::<Uci>().unwrap().to_move(&pos).is_err());
    /// ```
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalUciError> {
        pos.legal_moves()
            .iter()
            .copied()
            .find(|&m| {
                Uci::from_move_with(m, pos.castling_mode()) == *self
                    || matches!(m, Move::Castle { king, rook }
                        if king == self.from && rook == self.to && self.promotion.is_none())
            })
            .ok_or(IllegalUciError)
    }
}

impl From<Move> for Uci {
    fn from(m: Move) -> Uci {
        Uci::from_move(m)
    }
}

impl Display for Uci {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            f.write_char(p.char())?;
        }
        Ok(())
    }
}

impl FromStr for Uci {
    type Err = ParseUciError;

    fn from_str(s: &str) -> Result<Uci, ParseUciError> {
        if !s.is_ascii() || !(4..=5).contains(&s.len()) {
            return Err(ParseUciError);
        }
        let from: Square = s[0..2].parse().map_err(|_| ParseUciError)?;
        let to: Square = s[2..4].parse().map_err(|_| ParseUciError)?;
        let promotion = match s.as_bytes().get(4) {
            None => None,
            Some(b'q') => Some(Role::Queen),
            Some(b'r') => Some(Role::Rook),
            Some(b'b') => Some(Role::Bishop),
            Some(b'n') => Some(Role::Knight),
            Some(_) => return Err(ParseUciError),
        };
        Ok(Uci {
            from,
            to,
            promotion,
        })
    }
}
