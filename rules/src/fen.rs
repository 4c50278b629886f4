//! Unchecked setups and the FEN text format.

use std::fmt;
use std::str::FromStr;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::position::PositionError;
use crate::types::{Color, File, Rank, Square};

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

/// A FEN field, named in parse errors.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FenField {
    /// The text as a whole (empty, too many fields).
    Whole,
    /// Field 1: piece placement.
    Placement,
    /// Field 2: the side to move.
    Turn,
    /// Field 3: castling rights.
    Castling,
    /// Field 4: the en passant square.
    EnPassant,
    /// Field 5: the halfmove clock.
    Halfmoves,
    /// Field 6: the fullmove number.
    Fullmoves,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Whole => "FEN",
            FenField::Placement => "piece placement field (1)",
            FenField::Turn => "side to move field (2)",
            FenField::Castling => "castling field (3)",
            FenField::EnPassant => "en passant field (4)",
            FenField::Halfmoves => "halfmove clock field (5)",
            FenField::Fullmoves => "fullmove number field (6)",
        })
    }
}

/// A FEN text that cannot be read: which field, and why.
///
/// ```
/// use cajitas_rules::{Fen, FenField};
/// let err = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1".parse::<Fen>().unwrap_err();
/// assert_eq!(err.field, FenField::Turn);
/// assert!(err.to_string().contains("side to move"));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseFenError {
    /// The field at fault.
    pub field: FenField,
    /// Why, in English.
    pub reason: String,
}

impl ParseFenError {
    pub(crate) fn new(field: FenField, reason: impl Into<String>) -> ParseFenError {
        ParseFenError {
            field,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN, {}: {}", self.field, self.reason)
    }
}

impl std::error::Error for ParseFenError {}

/// A FEN that cannot become a position: unreadable, or read but not playable.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// The text is not FEN.
    Parse(ParseFenError),
    /// The text is FEN but the position is not playable.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Parse(e) => e.fmt(f),
            FenError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

impl From<ParseFenError> for FenError {
    fn from(e: ParseFenError) -> FenError {
        FenError::Parse(e)
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// Forsyth–Edwards Notation for a [`Setup`]: parse with `FromStr`, write with `Display`.
///
/// Parsing is lenient: a fullmove number of 0 is read as 1, and missing halfmove and
/// fullmove fields default to 0 and 1. The castling field takes `KQkq` or the files of
/// the castling rooks (`HAha`).
///
/// ```
/// use cajitas_rules::Fen;
/// let fen: Fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3".parse().unwrap();
/// assert_eq!(fen.0.fullmoves, 1);
/// assert_eq!(fen.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Fen(pub Setup);

impl Fen {
    /// The FEN of the initial position.
    pub const INITIAL: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// The setup inside.
    pub fn into_setup(self) -> Setup {
        self.0
    }
}

/// FEN texts longer than this are refused before any work.
pub const MAX_FEN_LEN: usize = 256;

fn parse_castling(text: &str, board: &Board) -> Result<Bitboard, ParseFenError> {
    let err = |why: String| ParseFenError::new(FenField::Castling, why);
    if text == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut rights = Bitboard::EMPTY;
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = Rank::First.relative_to(color);
        let file = match c.to_ascii_lowercase() {
            'k' => {
                // The outermost rook on the king side, as X-FEN reads it; h when none.
                let king = board.king_of(color);
                let rooks = board.by_piece(crate::Piece {
                    color,
                    role: crate::Role::Rook,
                }) & Bitboard::rank(back);
                match (king, rooks.last()) {
                    (Some(k), Some(r)) if r.file() > k.file() && r.rank() == k.rank() => r.file(),
                    _ => File::H,
                }
            }
            'q' => {
                let king = board.king_of(color);
                let rooks = board.by_piece(crate::Piece {
                    color,
                    role: crate::Role::Rook,
                }) & Bitboard::rank(back);
                match (king, rooks.first()) {
                    (Some(k), Some(r)) if r.file() < k.file() && r.rank() == k.rank() => r.file(),
                    _ => File::A,
                }
            }
            l => match File::from_char(l) {
                Some(f) => f,
                None => {
                    return Err(err(format!(
                        "'{c}' is not a castling letter (K, Q, k, q, a file letter, or '-')"
                    )));
                }
            },
        };
        let sq = Square::from_coords(file, back);
        if rights.contains(sq) {
            return Err(err(format!("the right '{c}' is given twice")));
        }
        rights.add(sq);
    }
    Ok(rights)
}

impl FromStr for Fen {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        if s.len() > MAX_FEN_LEN {
            return Err(ParseFenError::new(
                FenField::Whole,
                format!("longer than {MAX_FEN_LEN} bytes"),
            ));
        }
        let fields: Vec<&str> = s.split_ascii_whitespace().collect();
        if fields.is_empty() {
            return Err(ParseFenError::new(FenField::Whole, "the text is empty"));
        }
        if fields.len() > 6 {
            return Err(ParseFenError::new(
                FenField::Whole,
                format!("{} fields, at most 6 expected", fields.len()),
            ));
        }
        let board: Board = fields[0].parse()?;
        let turn = match fields.get(1) {
            None => {
                return Err(ParseFenError::new(
                    FenField::Turn,
                    "missing (expected 'w' or 'b')",
                ));
            }
            Some(&"w") => Color::White,
            Some(&"b") => Color::Black,
            Some(t) => {
                return Err(ParseFenError::new(
                    FenField::Turn,
                    format!("\"{t}\" is neither 'w' nor 'b'"),
                ));
            }
        };
        let castling_rights = match fields.get(2) {
            None => {
                return Err(ParseFenError::new(
                    FenField::Castling,
                    "missing (expected e.g. 'KQkq' or '-')",
                ));
            }
            Some(t) => parse_castling(t, &board)?,
        };
        let ep_square = match fields.get(3) {
            None => {
                return Err(ParseFenError::new(
                    FenField::EnPassant,
                    "missing (expected a square such as 'e3', or '-')",
                ));
            }
            Some(&"-") => None,
            Some(t) => {
                let sq: Square = t.parse().map_err(|_| {
                    ParseFenError::new(
                        FenField::EnPassant,
                        format!("\"{t}\" is not a square name or '-'"),
                    )
                })?;
                if sq.rank() != Rank::Third && sq.rank() != Rank::Sixth {
                    return Err(ParseFenError::new(
                        FenField::EnPassant,
                        format!("{sq} is not on the third or sixth rank"),
                    ));
                }
                Some(sq)
            }
        };
        let halfmoves = match fields.get(4) {
            None => 0,
            Some(t) => t.parse::<u32>().map_err(|_| {
                ParseFenError::new(
                    FenField::Halfmoves,
                    format!("\"{t}\" is not a non-negative whole number"),
                )
            })?,
        };
        let fullmoves = match fields.get(5) {
            None => 1,
            Some(t) => t
                .parse::<u32>()
                .map_err(|_| {
                    ParseFenError::new(
                        FenField::Fullmoves,
                        format!("\"{t}\" is not a non-negative whole number"),
                    )
                })?
                .max(1),
        };
        Ok(Fen(Setup {
            board,
            turn,
            castling_rights,
            ep_square,
            halfmoves,
            fullmoves,
        }))
    }
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.0;
        write!(f, "{} {} ", s.board, s.turn.char())?;
        if s.castling_rights.is_empty() {
            f.write_str("-")?;
        } else {
            for color in Color::ALL {
                let back = Bitboard::rank(Rank::First.relative_to(color));
                let mut squares: Vec<Square> = (s.castling_rights & back).into_iter().collect();
                squares.reverse();
                for sq in squares {
                    let king = s.board.king_of(color);
                    let c = match (sq.file(), king) {
                        (File::H, _) => 'k',
                        (File::A, _) => 'q',
                        (file, _) => file.char(),
                    };
                    let c = if color.is_white() {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    };
                    write!(f, "{c}")?;
                }
            }
        }
        match s.ep_square {
            Some(sq) => write!(f, " {sq}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", s.halfmoves, s.fullmoves)
    }
}
