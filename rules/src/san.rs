//! Standard Algebraic Notation: writing it exactly, and parsing it strictly.
//!
//! For the lenient reader of everything players type, see [`crate::read_move`].

use std::fmt::{self, Display, Formatter, Write as _};
use std::str::FromStr;

use crate::notation::Notation;
use crate::{CastlingSide, File, Move, Position, Rank, Role, Square};

/// A move in Standard Algebraic Notation, without a check or mate suffix.
///
/// [`San::from_move`] writes exact standard SAN: the piece letter (none for pawns), the minimal
/// disambiguation (the origin file if that is enough, else the rank, else both; only legal moves
/// count as alternatives, so a pinned piece never forces one), `x` for captures, the destination
/// and `=Q` for promotions; `O-O` and `O-O-O` for castling.
///
/// `FromStr` accepts standard SAN only (`O-O` or `0-0`, an optional `=` before the promotion
/// piece, no suffix); see [`SanPlus`] for `+` and `#`, and [`crate::read_move`] for everything
/// else players type.
///
/// ```
/// use cajitas_rules::{Position, San, Square};
/// let pos = Position::new();
/// let san: San = "Nf3".parse().unwrap();
/// let m = san.to_move(&pos).unwrap();
/// assert_eq!(m.to(), Square::F3);
/// assert_eq!(San::from_move(&pos, m), san);
/// assert_eq!(san.to_string(), "Nf3");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A move to a square.
    Normal {
        /// The moving piece.
        role: Role,
        /// The origin file, when written.
        file: Option<File>,
        /// The origin rank, when written.
        rank: Option<Rank>,
        /// Whether `x` is written.
        capture: bool,
        /// The destination.
        to: Square,
        /// The promotion piece.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
}

/// The SAN text was not standard SAN.
///
/// ```
/// use cajitas_rules::San;
/// assert!("Nf9".parse::<San>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseSanError;

impl std::error::Error for ParseSanError {}

/// A well-formed SAN is not playable in the position.
///
/// ```
/// use cajitas_rules::{Position, San, SanError};
/// let san: San = "Nd2".parse().unwrap();
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
/// assert_eq!(san.to_move(&pos), Err(SanError::AmbiguousSan));
/// assert_eq!("Qd4".parse::<San>().unwrap().to_move(&pos), Err(SanError::IllegalSan));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SanError {
    /// No legal move matches.
    IllegalSan,
    /// More than one legal move matches.
    AmbiguousSan,
}

impl std::error::Error for SanError {}

impl San {
    /// The SAN of a move in a position, with minimal disambiguation.
    ///
    /// `m` should be legal in `pos`; for an illegal move the result is well formed but may be
    /// under-disambiguated.
    ///
    /// ```
    /// use cajitas_rules::{Position, San, Uci};
    /// // Two knights can reach d2: the file tells them apart.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
    /// let m = "b1d2".parse::<Uci>().unwrap().to_move(&pos).unwrap();
    /// assert_eq!(San::from_move(&pos, m).to_string(), "Nbd2");
    /// ```
    pub fn from_move(pos: &Position, m: Move) -> San {
        San::from_move_among(m, &pos.legal_moves())
    }

    /// The SAN of `m`, disambiguated against the other moves of `legal` (the legal moves of the
    /// position). Lets a caller write many moves of one position with one move generation.
    ///
    /// ```
    /// use cajitas_rules::{Position, San};
    /// let pos = Position::new();
    /// let legal = pos.legal_moves();
    /// let sans: Vec<String> = legal.iter().map(|&m| San::from_move_among(m, &legal).to_string()).collect();
    /// assert!(sans.contains(&"Nf3".to_string()) && sans.contains(&"e4".to_string()));
    /// ```
    pub fn from_move_among(m: Move, legal: &[Move]) -> San {
        if let Some(side) = m.castling_side() {
            return San::Castle(side);
        }
        let role = m.role();
        let from = m.from();
        let to = m.to();
        let (file, rank) = if role == Role::Pawn {
            (m.is_capture().then(|| from.file()), None)
        } else if role == Role::King {
            (None, None)
        } else {
            let mut others = legal
                .iter()
                .filter(|o| !o.is_castle() && o.role() == role && o.to() == to && o.from() != from)
                .map(|o| o.from())
                .peekable();
            if others.peek().is_none() {
                (None, None)
            } else {
                let mut same_file = false;
                let mut same_rank = false;
                for o in others {
                    same_file |= o.file() == from.file();
                    same_rank |= o.rank() == from.rank();
                }
                if !same_file {
                    (Some(from.file()), None)
                } else if !same_rank {
                    (None, Some(from.rank()))
                } else {
                    (Some(from.file()), Some(from.rank()))
                }
            }
        };
        San::Normal {
            role,
            file,
            rank,
            capture: m.is_capture(),
            to,
            promotion: m.promotion(),
        }
    }

    /// Whether `m` is a move this SAN describes (the capture mark is not checked).
    ///
    /// ```
    /// use cajitas_rules::{Position, San};
    /// let pos = Position::new();
    /// let m = pos.legal_moves().iter().copied().find(|m| m.to().to_string() == "e4").unwrap();
    /// assert!("e4".parse::<San>().unwrap().matches(m));
    /// assert!(!"Ne4".parse::<San>().unwrap().matches(m));
    /// ```
    pub fn matches(&self, m: Move) -> bool {
        match *self {
            San::Castle(side) => m.castling_side() == Some(side),
            San::Normal {
                role,
                file,
                rank,
                capture: _,
                to,
                promotion,
            } => {
                !m.is_castle()
                    && m.role() == role
                    && m.to() == to
                    && m.promotion() == promotion
                    && file.is_none_or(|f| m.from().file() == f)
                    && rank.is_none_or(|r| m.from().rank() == r)
            }
        }
    }

    /// The legal move this SAN describes in `pos`.
    ///
    /// ```
    /// use cajitas_rules::{Position, San, SanError};
    /// let pos = Position::new();
    /// assert!("e4".parse::<San>().unwrap().to_move(&pos).is_ok());
    /// assert_eq!("e5".parse::<San>().unwrap().to_move(&pos), Err(SanError::IllegalSan));
    /// ```
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        let mut found = None;
        for &m in pos.legal_moves().iter() {
            if self.matches(m) {
                if found.is_some() {
                    return Err(SanError::AmbiguousSan);
                }
                found = Some(m);
            }
        }
        found.ok_or(SanError::IllegalSan)
    }
}

impl San {
    /// Writes the move with the piece letters of `notation`.
    fn write(&self, f: &mut Formatter<'_>, notation: Notation) -> fmt::Result {
        match *self {
            San::Castle(CastlingSide::KingSide) => f.write_str("O-O"),
            San::Castle(CastlingSide::QueenSide) => f.write_str("O-O-O"),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    f.write_char(role.letter(notation))?;
                }
                if let Some(file) = file {
                    f.write_char(file.char())?;
                }
                if let Some(rank) = rank {
                    f.write_char(rank.char())?;
                }
                if capture {
                    f.write_char('x')?;
                }
                write!(f, "{to}")?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.letter(notation))?;
                }
                Ok(())
            }
        }
    }

    /// The move written in `notation`; `Display` on the result prints it. English is what
    /// `Display` on the `San` itself prints.
    ///
    /// ```
    /// use cajitas_rules::{Notation, San};
    /// let san: San = "Bxb5".parse().unwrap();
    /// assert_eq!(san.display(Notation::Spanish).to_string(), "Axb5");
    /// assert_eq!(san.display(Notation::Figurine).to_string(), "♗xb5");
    /// assert_eq!(san.display(Notation::English).to_string(), san.to_string());
    /// ```
    pub fn display(self, notation: Notation) -> SanDisplay {
        SanPlus {
            san: self,
            suffix: None,
        }
        .display(notation)
    }
}

/// Standard (English) SAN: `Nf3`, `exd5`, `e8=Q`, `O-O`.
impl Display for San {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.write(f, Notation::English)
    }
}

impl FromStr for San {
    type Err = ParseSanError;

    fn from_str(s: &str) -> Result<San, ParseSanError> {
        match s {
            "O-O" | "0-0" => return Ok(San::Castle(CastlingSide::KingSide)),
            "O-O-O" | "0-0-0" => return Ok(San::Castle(CastlingSide::QueenSide)),
            _ => {}
        }
        let b = s.as_bytes();
        if b.len() > 10 || !s.is_ascii() {
            return Err(ParseSanError);
        }
        let mut i = 0;
        let role = match b.first() {
            Some(&c @ (b'N' | b'B' | b'R' | b'Q' | b'K')) => {
                i = 1;
                Role::from_char(c as char).ok_or(ParseSanError)?
            }
            _ => Role::Pawn,
        };
        let mut end = b.len();
        let mut promotion = None;
        if end >= 2 && matches!(b[end - 1], b'N' | b'B' | b'R' | b'Q') {
            promotion = Role::from_char(b[end - 1] as char);
            end -= 1;
            if b[end - 1] == b'=' {
                end -= 1;
            }
        }
        if end < i + 2 {
            return Err(ParseSanError);
        }
        let to = Square::from_coords(
            File::from_char(b[end - 2] as char).ok_or(ParseSanError)?,
            Rank::from_char(b[end - 1] as char).ok_or(ParseSanError)?,
        );
        end -= 2;
        let capture = end > i && b[end - 1] == b'x';
        if capture {
            end -= 1;
        }
        let mut file = None;
        let mut rank = None;
        if i < end
            && let Some(f) = File::from_char(b[i] as char)
        {
            file = Some(f);
            i += 1;
        }
        if i < end {
            rank = Some(Rank::from_char(b[i] as char).ok_or(ParseSanError)?);
            i += 1;
        }
        if i != end {
            return Err(ParseSanError);
        }
        // Pawns: `e4`, `exd5` (file required for captures, nothing else), promotions only there.
        if role == Role::Pawn && (rank.is_some() || capture != file.is_some()) {
            return Err(ParseSanError);
        }
        if promotion.is_some() && role != Role::Pawn {
            return Err(ParseSanError);
        }
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }
}

/// What follows a SAN: `+` for check, `#` for checkmate.
///
/// ```
/// use cajitas_rules::{Position, Suffix};
/// let mated = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
/// assert_eq!(Suffix::after(&mated), Some(Suffix::Checkmate));
/// assert_eq!(Suffix::Checkmate.char(), '#');
/// assert_eq!(Suffix::after(&Position::new()), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Checkmate,
}

impl Suffix {
    /// `'+'` or `'#'`.
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }
}

/// A SAN with its check or mate suffix, as written in game records.
///
/// ```
/// use cajitas_rules::{Position, SanPlus, Suffix};
/// let mut pos = Position::new();
/// for s in ["f3", "e5", "g4"] {
///     let m = s.parse::<SanPlus>().unwrap().san.to_move(&pos).unwrap();
///     pos.play(m);
/// }
/// let mate = "Qh4#".parse::<SanPlus>().unwrap();
/// assert_eq!(mate.suffix, Some(Suffix::Checkmate));
/// let m = mate.san.to_move(&pos).unwrap();
/// assert_eq!(SanPlus::from_move(&pos, m), mate);
/// assert_eq!(mate.to_string(), "Qh4#");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// The check or mate mark, if any.
    pub suffix: Option<Suffix>,
}

impl SanPlus {
    /// The SAN of a legal move with `+` or `#` when it gives check or mate.
    ///
    /// For an illegal move, no suffix is computed (and nothing panics).
    ///
    /// ```
    /// use cajitas_rules::{Position, SanPlus, Uci};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// let m = "h1h8".parse::<Uci>().unwrap().to_move(&pos).unwrap();
    /// assert_eq!(SanPlus::from_move(&pos, m).to_string(), "Rh8+");
    /// ```
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        let legal = pos.legal_moves();
        let san = San::from_move_among(m, &legal);
        if !legal.contains(&m) {
            return SanPlus { san, suffix: None };
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        SanPlus {
            san,
            suffix: Suffix::after(&after),
        }
    }
}

impl Suffix {
    /// The suffix a move deserves, given the position after it.
    pub fn after(pos: &Position) -> Option<Suffix> {
        if !pos.is_check() {
            None
        } else if pos.legal_moves().is_empty() {
            Some(Suffix::Checkmate)
        } else {
            Some(Suffix::Check)
        }
    }
}

impl SanPlus {
    /// The move written in `notation`, with its suffix; `Display` on the result prints it.
    ///
    /// ```
    /// use cajitas_rules::{Notation, SanPlus};
    /// for (english, spanish, figurine) in [
    ///     ("Nf3", "Cf3", "♘f3"),
    ///     ("Bxb5+", "Axb5+", "♗xb5+"),
    ///     ("e8=Q#", "e8=D#", "e8=♕#"),
    ///     ("Kxe2", "Rxe2", "♔xe2"),
    ///     ("Rad1", "Tad1", "♖ad1"),
    ///     ("O-O", "O-O", "O-O"),
    /// ] {
    ///     let san: SanPlus = english.parse().unwrap();
    ///     assert_eq!(san.to_string(), english);
    ///     assert_eq!(san.display(Notation::Spanish).to_string(), spanish);
    ///     assert_eq!(san.display(Notation::Figurine).to_string(), figurine);
    /// }
    /// ```
    pub fn display(self, notation: Notation) -> SanDisplay {
        SanDisplay {
            san: self,
            notation,
        }
    }
}

/// Standard (English) SAN with its suffix: `Nf3`, `Qh4#`, `exd8=Q+`.
impl Display for SanPlus {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.display(Notation::English).fmt(f)
    }
}

/// A [`SanPlus`] (or [`San`]) in a [`Notation`], for `Display`: made by
/// [`SanPlus::display`] and [`San::display`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanDisplay {
    san: SanPlus,
    notation: Notation,
}

impl Display for SanDisplay {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.san.san.write(f, self.notation)?;
        if let Some(s) = self.san.suffix {
            f.write_char(s.char())?;
        }
        Ok(())
    }
}

/// Compares what `Display` writes with `text`, without allocating.
fn displays_as(value: &impl Display, text: &str) -> bool {
    struct Rest<'a>(&'a str);
    impl fmt::Write for Rest<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            match self.0.strip_prefix(s) {
                Some(rest) => {
                    self.0 = rest;
                    Ok(())
                }
                None => Err(fmt::Error),
            }
        }
    }
    let mut rest = Rest(text);
    write!(rest, "{value}").is_ok() && rest.0.is_empty()
}

// Comparisons with text: a `San` or `SanPlus` equals its standard (English) SAN.
macro_rules! eq_text {
    ($($t:ty),*) => {$(
        impl PartialEq<str> for $t {
            fn eq(&self, other: &str) -> bool {
                displays_as(self, other)
            }
        }
        impl PartialEq<&str> for $t {
            fn eq(&self, other: &&str) -> bool {
                displays_as(self, other)
            }
        }
        impl PartialEq<String> for $t {
            fn eq(&self, other: &String) -> bool {
                displays_as(self, other)
            }
        }
    )*};
}

eq_text!(San, SanPlus);

impl FromStr for SanPlus {
    type Err = ParseSanError;

    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        let (body, suffix) = match s.as_bytes().last() {
            Some(b'+') => (&s[..s.len() - 1], Some(Suffix::Check)),
            Some(b'#') => (&s[..s.len() - 1], Some(Suffix::Checkmate)),
            _ => (s, None),
        };
        Ok(SanPlus {
            san: body.parse()?,
            suffix,
        })
    }
}

/// The exact standard SAN of a legal move, with `+` or `#`: [`SanPlus::from_move`]. It
/// prints in English with `Display`, in Spanish letters or figurines with
/// [`SanPlus::display`].
///
/// ```
/// use cajitas_rules::{san, Notation, Position, Uci};
/// let pos = Position::new();
/// let m = "g1f3".parse::<Uci>().unwrap().to_move(&pos).unwrap();
/// assert_eq!(san(&pos, m).to_string(), "Nf3");
/// assert_eq!(san(&pos, m).display(Notation::Spanish).to_string(), "Cf3");
/// // A `San` or `SanPlus` compares equal to its English text.
/// assert_eq!(san(&pos, m), "Nf3");
/// assert_ne!(san(&pos, m), "Cf3");
/// ```
pub fn san(pos: &Position, m: Move) -> SanPlus {
    SanPlus::from_move(pos, m)
}
