//! The FEN text format: a [`Setup`] read and written as Forsyth–Edwards Notation, and the
//! piece placement field for a [`Board`]. Validation is [`crate::Position`]'s, and so is
//! [`crate::FenError`], which joins a parse error and a position error.

use std::fmt;
use std::str::FromStr;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::setup::Setup;
use crate::types::{Color, File, Piece, Rank, Role, Square};

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

/// What is wrong with a FEN text, as data; [`ParseFenError`]'s `Display` says it in English.
///
/// ```
/// use cajitas_rules::{Fen, FenField, FenReason, Rank};
/// let err = "8/8/8/8/8/8/8/K6x w - - 0 1".parse::<Fen>().unwrap_err();
/// assert_eq!(err.field, FenField::Placement);
/// assert_eq!(err.reason, FenReason::BadPieceLetter { rank: Rank::First, letter: 'x' });
/// assert_eq!(err.reason.field(), FenField::Placement);
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum FenReason {
    /// The text is longer than [`MAX_FEN_LEN`] bytes.
    TooLong {
        /// The limit, in bytes.
        max: usize,
    },
    /// The text is empty (or only spaces).
    Empty,
    /// More than six fields.
    TooManyFields {
        /// How many fields there are.
        count: usize,
    },
    /// The placement does not have 8 ranks separated by `/`.
    RankCount {
        /// How many ranks there are.
        count: usize,
    },
    /// A rank describes more than 8 squares.
    RankTooLong {
        /// The rank.
        rank: Rank,
    },
    /// A rank describes fewer than 8 squares.
    RankTooShort {
        /// The rank.
        rank: Rank,
        /// How many squares it describes.
        squares: u32,
    },
    /// A digit that is not an empty-square count: `0`, `9`, or a digit after a digit.
    BadEmptyCount {
        /// The rank.
        rank: Rank,
        /// The file the count would start on, when on the board.
        file: Option<File>,
        /// The digit.
        digit: char,
    },
    /// A character that is neither a piece letter (`PNBRQK`, `pnbrqk`) nor a digit.
    BadPieceLetter {
        /// The rank.
        rank: Rank,
        /// The character.
        letter: char,
    },
    /// The side to move is missing.
    MissingTurn,
    /// The side to move is neither `w` nor `b`.
    BadTurn {
        /// The field as written.
        text: String,
    },
    /// The castling field is missing.
    MissingCastling,
    /// A castling character that is not `K`, `Q`, `k`, `q`, a file letter or `-`.
    BadCastlingLetter {
        /// The character.
        letter: char,
    },
    /// A castling right given twice.
    DuplicateCastlingRight {
        /// The character that repeats it.
        letter: char,
    },
    /// The en passant field is missing.
    MissingEnPassant,
    /// The en passant field is neither a square name nor `-`.
    BadEnPassant {
        /// The field as written.
        text: String,
    },
    /// The en passant square is not on the third or sixth rank.
    EnPassantRank {
        /// The square.
        square: Square,
    },
    /// The halfmove clock is not a non-negative whole number.
    BadHalfmoves {
        /// The field as written.
        text: String,
    },
    /// The fullmove number is not a non-negative whole number.
    BadFullmoves {
        /// The field as written.
        text: String,
    },
}

impl FenReason {
    /// The field at fault.
    pub const fn field(&self) -> FenField {
        match self {
            FenReason::TooLong { .. } | FenReason::Empty | FenReason::TooManyFields { .. } => {
                FenField::Whole
            }
            FenReason::RankCount { .. }
            | FenReason::RankTooLong { .. }
            | FenReason::RankTooShort { .. }
            | FenReason::BadEmptyCount { .. }
            | FenReason::BadPieceLetter { .. } => FenField::Placement,
            FenReason::MissingTurn | FenReason::BadTurn { .. } => FenField::Turn,
            FenReason::MissingCastling
            | FenReason::BadCastlingLetter { .. }
            | FenReason::DuplicateCastlingRight { .. } => FenField::Castling,
            FenReason::MissingEnPassant
            | FenReason::BadEnPassant { .. }
            | FenReason::EnPassantRank { .. } => FenField::EnPassant,
            FenReason::BadHalfmoves { .. } => FenField::Halfmoves,
            FenReason::BadFullmoves { .. } => FenField::Fullmoves,
        }
    }
}

/// Why, in English, without the field (see [`ParseFenError`] for the whole sentence).
impl fmt::Display for FenReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenReason::TooLong { max } => write!(f, "longer than {max} bytes"),
            FenReason::Empty => f.write_str("the text is empty"),
            FenReason::TooManyFields { count } => {
                write!(f, "{count} fields, at most 6 expected")
            }
            FenReason::RankCount { count } => {
                write!(f, "expected 8 ranks separated by '/', found {count}")
            }
            FenReason::RankTooLong { rank } => write!(f, "rank {rank} has more than 8 squares"),
            FenReason::RankTooShort { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares instead of 8")
            }
            FenReason::BadEmptyCount { rank, digit, .. } => {
                write!(f, "rank {rank}: bad empty-square count '{digit}'")
            }
            FenReason::BadPieceLetter { rank, letter } => write!(
                f,
                "rank {rank}: '{letter}' is not a piece letter (PNBRQK, pnbrqk) or a digit"
            ),
            FenReason::MissingTurn => f.write_str("missing (expected 'w' or 'b')"),
            FenReason::BadTurn { text } => write!(f, "\"{text}\" is neither 'w' nor 'b'"),
            FenReason::MissingCastling => f.write_str("missing (expected e.g. 'KQkq' or '-')"),
            FenReason::BadCastlingLetter { letter } => write!(
                f,
                "'{letter}' is not a castling letter (K, Q, k, q, a file letter, or '-')"
            ),
            FenReason::DuplicateCastlingRight { letter } => {
                write!(f, "the right '{letter}' is given twice")
            }
            FenReason::MissingEnPassant => {
                f.write_str("missing (expected a square such as 'e3', or '-')")
            }
            FenReason::BadEnPassant { text } => {
                write!(f, "\"{text}\" is not a square name or '-'")
            }
            FenReason::EnPassantRank { square } => {
                write!(f, "{square} is not on the third or sixth rank")
            }
            FenReason::BadHalfmoves { text } | FenReason::BadFullmoves { text } => {
                write!(f, "\"{text}\" is not a non-negative whole number")
            }
        }
    }
}

/// A FEN text that cannot be read: which field, and why.
///
/// `Display` gives one English sentence naming the field and the reason.
///
/// ```
/// use cajitas_rules::{Fen, FenField, FenReason};
/// let err = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1".parse::<Fen>().unwrap_err();
/// assert_eq!(err.field, FenField::Turn);
/// assert_eq!(err.reason, FenReason::BadTurn { text: "x".into() });
/// assert_eq!(err.to_string(), "invalid FEN, side to move field (2): \"x\" is neither 'w' nor 'b'");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseFenError {
    /// The field at fault (always `reason.field()`).
    pub field: FenField,
    /// Why.
    pub reason: FenReason,
}

impl ParseFenError {
    pub(crate) fn new(reason: FenReason) -> ParseFenError {
        ParseFenError {
            field: reason.field(),
            reason,
        }
    }
}

impl From<FenReason> for ParseFenError {
    fn from(reason: FenReason) -> ParseFenError {
        ParseFenError::new(reason)
    }
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN, {}: {}", self.field, self.reason)
    }
}

impl std::error::Error for ParseFenError {}

/// Forsyth–Edwards Notation for a [`Setup`]: parse with `FromStr`, write with `Display`.
///
/// Parsing is lenient: a fullmove number of 0 is read as 1, and missing halfmove and
/// fullmove fields default to 0 and 1. The castling field takes X-FEN (`KQkq` for the
/// outermost rook on each side of the king, a file letter for another rook) and
/// Shredder-FEN (the files of the castling rooks, `HAha`), mixed if need be. `Display`
/// writes X-FEN, [`Fen::to_shredder_string`] Shredder-FEN. Whether the rights fit the board
/// (one rook per side of the king, in Chess960) is [`crate::Position`]'s validation.
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

fn parse_castling(text: &str, board: &Board) -> Result<Bitboard, FenReason> {
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
        let rooks = || {
            board.by_piece(Piece {
                color,
                role: Role::Rook,
            }) & Bitboard::rank(back)
        };
        let file = match c.to_ascii_lowercase() {
            'k' => {
                // The outermost rook on the king side, as X-FEN reads it; h when none.
                match (board.king_of(color), rooks().last()) {
                    (Some(k), Some(r)) if r.file() > k.file() && r.rank() == k.rank() => r.file(),
                    _ => File::H,
                }
            }
            'q' => match (board.king_of(color), rooks().first()) {
                (Some(k), Some(r)) if r.file() < k.file() && r.rank() == k.rank() => r.file(),
                _ => File::A,
            },
            l => File::from_char(l).ok_or(FenReason::BadCastlingLetter { letter: c })?,
        };
        let sq = Square::from_coords(file, back);
        if rights.contains(sq) {
            return Err(FenReason::DuplicateCastlingRight { letter: c });
        }
        rights.add(sq);
    }
    Ok(rights)
}

fn parse_clock(text: &str) -> Option<u32> {
    text.parse::<u32>().ok()
}

impl FromStr for Fen {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        if s.len() > MAX_FEN_LEN {
            return Err(FenReason::TooLong { max: MAX_FEN_LEN }.into());
        }
        let fields: Vec<&str> = s.split_ascii_whitespace().collect();
        if fields.is_empty() {
            return Err(FenReason::Empty.into());
        }
        if fields.len() > 6 {
            return Err(FenReason::TooManyFields {
                count: fields.len(),
            }
            .into());
        }
        let board: Board = fields[0].parse()?;
        let turn = match fields.get(1) {
            None => return Err(FenReason::MissingTurn.into()),
            Some(&"w") => Color::White,
            Some(&"b") => Color::Black,
            Some(t) => {
                return Err(FenReason::BadTurn {
                    text: t.to_string(),
                }
                .into());
            }
        };
        let castling_rights = match fields.get(2) {
            None => return Err(FenReason::MissingCastling.into()),
            Some(t) => parse_castling(t, &board)?,
        };
        let ep_square = match fields.get(3) {
            None => return Err(FenReason::MissingEnPassant.into()),
            Some(&"-") => None,
            Some(t) => {
                let square: Square = t.parse().map_err(|_| FenReason::BadEnPassant {
                    text: t.to_string(),
                })?;
                if square.rank() != Rank::Third && square.rank() != Rank::Sixth {
                    return Err(FenReason::EnPassantRank { square }.into());
                }
                Some(square)
            }
        };
        let halfmoves = match fields.get(4) {
            None => 0,
            Some(t) => parse_clock(t).ok_or_else(|| FenReason::BadHalfmoves {
                text: t.to_string(),
            })?,
        };
        let fullmoves = match fields.get(5) {
            None => 1,
            Some(t) => parse_clock(t)
                .ok_or_else(|| FenReason::BadFullmoves {
                    text: t.to_string(),
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

impl Fen {
    /// This FEN with the castling rights as Shredder-FEN: each rook by its file, upper case
    /// for White (`HAha` for the standard rights). [`Fen`]'s `Display` writes X-FEN.
    ///
    /// ```
    /// use cajitas_rules::Fen;
    /// let fen: Fen = "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1".parse().unwrap();
    /// assert_eq!(fen.to_shredder_string(), "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1");
    /// ```
    pub fn to_shredder_string(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, true)
            .expect("writing to a String cannot fail");
        out
    }

    fn write(&self, f: &mut impl fmt::Write, shredder: bool) -> fmt::Result {
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
                    let c = if shredder {
                        sq.file().char()
                    } else {
                        x_fen_letter(&s.board, color, sq)
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

/// The X-FEN letter (lower case) of `color`'s castling right on `sq`: `k` or `q` when
/// its rook is the outermost of that side of the king (no rook of `color` further out on
/// the first rank), the rook's file otherwise. The corners are always `k` and `q`.
fn x_fen_letter(board: &Board, color: Color, sq: Square) -> char {
    let back = Bitboard::rank(sq.rank());
    let rooks = board.by_piece(Piece {
        color,
        role: Role::Rook,
    }) & back;
    let king = board.king_of(color).filter(|k| k.rank() == sq.rank());
    match (sq.file(), king) {
        (File::H, _) => 'k',
        (File::A, _) => 'q',
        (file, Some(k)) if file > k.file() && !rooks.into_iter().any(|r| r.file() > file) => 'k',
        (file, Some(k)) if file < k.file() && !rooks.into_iter().any(|r| r.file() < file) => 'q',
        (file, _) => file.char(),
    }
}

impl fmt::Display for Fen {
    /// X-FEN: `KQkq` for the outermost rook on a side, the rook's file where `KQkq` would
    /// name another rook (Chess960).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, false)
    }
}

impl fmt::Display for Board {
    /// The FEN piece placement field.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.into_iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank != Rank::First {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Board {
    type Err = ParseFenError;

    /// Parses the FEN piece placement field.
    fn from_str(s: &str) -> Result<Board, ParseFenError> {
        let ranks: Vec<&str> = s.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenReason::RankCount { count: ranks.len() }.into());
        }
        let mut board = Board::empty();
        for (i, text) in ranks.iter().enumerate() {
            let rank = Rank::new(7 - i as u32);
            let mut file = 0u32;
            let mut last_was_digit = false;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) || last_was_digit {
                        return Err(FenReason::BadEmptyCount {
                            rank,
                            file: File::try_new(file),
                            digit: c,
                        }
                        .into());
                    }
                    file += d;
                    last_was_digit = true;
                } else if let Some(piece) = Piece::from_char(c) {
                    if file >= 8 {
                        return Err(FenReason::RankTooLong { rank }.into());
                    }
                    board.put(
                        Square::from_coords(File::new(file), rank),
                        piece.color,
                        piece.role,
                    );
                    file += 1;
                    last_was_digit = false;
                } else {
                    return Err(FenReason::BadPieceLetter { rank, letter: c }.into());
                }
                if file > 8 {
                    return Err(FenReason::RankTooLong { rank }.into());
                }
            }
            if file != 8 {
                return Err(FenReason::RankTooShort {
                    rank,
                    squares: file,
                }
                .into());
            }
        }
        Ok(board)
    }
}
