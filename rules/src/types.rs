//! Colors, roles, pieces, files, ranks, squares and castling sides.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

/// A side: white or black.
///
/// ```
/// use cajitas_rules::Color;
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Color::Black.char(), 'b');
/// assert_eq!(Color::White.name(), "white");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    /// White, who moves first.
    White,
    /// Black.
    Black,
}

impl Color {
    /// Both colors, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other color.
    ///
    /// ```
    /// use cajitas_rules::Color;
    /// assert_eq!(Color::White.other(), Color::Black);
    /// ```
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The FEN letter: `'w'` or `'b'`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Parses the FEN letter `'w'` or `'b'`.
    ///
    /// ```
    /// use cajitas_rules::Color;
    /// assert_eq!(Color::from_char('b'), Some(Color::Black));
    /// assert_eq!(Color::from_char('x'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// The English name: `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// `true` for white.
    #[inline]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// 0 for white, 1 for black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Picks `white` or `black` according to the color.
    ///
    /// ```
    /// use cajitas_rules::Color;
    /// assert_eq!(Color::Black.fold_wb(1, -1), -1);
    /// ```
    #[inline]
    pub fn fold_wb<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece, without its color.
///
/// ```
/// use cajitas_rules::Role;
/// assert_eq!(Role::Knight.char(), 'n');
/// assert_eq!(Role::Knight.upper_char(), 'N');
/// assert_eq!(Role::from_char('Q'), Some(Role::Queen));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Role {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl Role {
    /// Every role, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may promote to, queen first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// The lower-case English letter: `'p'`, `'n'`, `'b'`, `'r'`, `'q'`, `'k'`.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The upper-case English letter: `'P'`, `'N'`, `'B'`, `'R'`, `'Q'`, `'K'`.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Parses an English piece letter in either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// The English name, e.g. `"knight"`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// 0 for pawn up to 5 for king.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `true` for bishops, rooks and queens.
    pub const fn is_slider(self) -> bool {
        matches!(self, Role::Bishop | Role::Rook | Role::Queen)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a color and a role.
///
/// ```
/// use cajitas_rules::{Color, Piece, Role};
/// let p = Piece { color: Color::White, role: Role::Knight };
/// assert_eq!(p.char(), 'N');
/// assert_eq!(Piece::from_char('k'), Some(Piece { color: Color::Black, role: Role::King }));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What kind.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for white, lower case for black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Parses a FEN letter (upper case white, lower case black).
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

/// A file (column), `a` to `h`.
///
/// ```
/// use cajitas_rules::File;
/// assert_eq!(File::from_char('c'), Some(File::C));
/// assert_eq!(File::H.char(), 'h');
/// assert_eq!(File::E.index(), 4);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[allow(missing_docs)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// Every file, a to h.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with this index (0 = a); panics when `index >= 8`.
    pub const fn new(index: u32) -> File {
        assert!(index < 8, "file index out of range");
        File::ALL[index as usize]
    }

    /// The file with this index (0 = a), if any.
    pub const fn try_new(index: u32) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// The letter `'a'` to `'h'`.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses `'a'` to `'h'`.
    pub const fn from_char(c: char) -> Option<File> {
        if c >= 'a' && c <= 'h' {
            Some(File::ALL[(c as u8 - b'a') as usize])
        } else {
            None
        }
    }

    /// 0 for a up to 7 for h.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A rank (row), 1 to 8.
///
/// ```
/// use cajitas_rules::{Color, Rank};
/// assert_eq!(Rank::from_char('4'), Some(Rank::Fourth));
/// assert_eq!(Rank::Second.relative_to(Color::Black), Rank::Seventh);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[allow(missing_docs)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    /// Every rank, first to eighth.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with this index (0 = first); panics when `index >= 8`.
    pub const fn new(index: u32) -> Rank {
        assert!(index < 8, "rank index out of range");
        Rank::ALL[index as usize]
    }

    /// The rank with this index (0 = first), if any.
    pub const fn try_new(index: u32) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// The digit `'1'` to `'8'`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses `'1'` to `'8'`.
    pub const fn from_char(c: char) -> Option<Rank> {
        if c >= '1' && c <= '8' {
            Some(Rank::ALL[(c as u8 - b'1') as usize])
        } else {
            None
        }
    }

    /// 0 for the first rank up to 7 for the eighth.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// This rank seen from `color`'s side: unchanged for white, mirrored for black
    /// (so `Rank::First.relative_to(c)` is `c`'s back rank).
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::ALL[7 - self as usize],
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A square of the board: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
///
/// ```
/// use cajitas_rules::{File, Rank, Square};
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::E4);
/// assert_eq!(e4.file(), File::E);
/// assert_eq!(e4.rank(), Rank::Fourth);
/// assert_eq!(e4.to_string(), "e4");
/// assert_eq!(Square::from_coords(File::A, Rank::First), Square::A1);
/// assert!(Square::H1.is_light());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $v:expr),* $(,)?) => {
        $(
            #[doc = concat!("The square ", stringify!($name), ".")]
            pub const $name: Square = Square($v);
        )*
    };
}

impl Square {
    square_consts! {
        A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
        A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
        A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
        A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
        A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
        A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
        A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
        A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
    }

    /// The square with this index (a1 = 0 ... h8 = 63).
    ///
    /// # Panics
    /// When `index >= 64`.
    #[inline]
    pub const fn new(index: u32) -> Square {
        assert!(index < 64, "square index out of range");
        Square(index as u8)
    }

    /// The square with this index, or `None` when `index >= 64`.
    ///
    /// ```
    /// use cajitas_rules::Square;
    /// assert_eq!(Square::try_new(63), Some(Square::H8));
    /// assert_eq!(Square::try_new(64), None);
    /// ```
    #[inline]
    pub const fn try_new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square on this file and rank.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    /// Its file.
    #[inline]
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }

    /// Its rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 3) as usize]
    }

    /// Its index, a1 = 0 ... h8 = 63.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square `delta` steps further in index order, if on the board (no wrap check
    /// across files: callers use it for vertical steps).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square mirrored top to bottom (e2 becomes e7).
    ///
    /// ```
    /// use cajitas_rules::Square;
    /// assert_eq!(Square::E2.flip_vertical(), Square::E7);
    /// ```
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// `true` for a light square (h1 is light, a1 is dark).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.0 >> 3) & 1 != self.0 & 1
    }

    /// Chebyshev (king-step) distance between two squares.
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.0 & 7).abs_diff(other.0 & 7);
        let dr = (self.0 >> 3).abs_diff(other.0 >> 3);
        (if df > dr { df } else { dr }) as u32
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// The error of parsing a [`Square`] name such as `"e4"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a square name (expected a file a-h then a rank 1-8, e.g. e4)")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
                _ => Err(ParseSquareError),
            },
            _ => Err(ParseSquareError),
        }
    }
}

/// A side of the board to castle on.
///
/// ```
/// use cajitas_rules::{CastlingSide, File};
/// assert_eq!(CastlingSide::KingSide.king_to_file(), File::G);
/// assert_eq!(CastlingSide::QueenSide.rook_to_file(), File::D);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum CastlingSide {
    /// Short castling (`O-O`), towards the h-file.
    KingSide,
    /// Long castling (`O-O-O`), towards the a-file.
    QueenSide,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The file the king lands on: g or c.
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook lands on: f or d.
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The file the rook starts on in standard chess: h or a.
    pub const fn rook_from_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::H,
            CastlingSide::QueenSide => File::A,
        }
    }

    /// The king's destination for `color`.
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::First.relative_to(color))
    }

    /// The rook's destination for `color`.
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::First.relative_to(color))
    }

    /// The rook's starting square for `color` in standard chess.
    pub const fn rook_from(self, color: Color) -> Square {
        Square::from_coords(self.rook_from_file(), Rank::First.relative_to(color))
    }
}

/// How castling is written and which castling rights a position may have.
///
/// The castling rule itself is the same in both modes (the king ends on g1 or c1, the
/// rook on f1 or d1); only the start squares differ. In [`Standard`](Self::Standard)
/// chess a castling right needs the king on e1 (e8) and the rook on a1 or h1 (a8, h8), and
/// UCI writes castling as the king's move (`e1g1`). In [`Chess960`](Self::Chess960) the king
/// and the rook may start on any squares of the first rank, the king between the rooks, and
/// UCI writes castling as the king taking its own rook (`e1h1`).
///
/// ```
/// use cajitas_rules::{CastlingMode, Position};
/// assert_eq!(Position::new().castling_mode(), CastlingMode::Standard);
/// let pos = Position::from_fen_with("nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1", CastlingMode::Chess960).unwrap();
/// assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum CastlingMode {
    /// Standard chess: castling rights only with the king on e1/e8 and rooks on the corners.
    #[default]
    Standard,
    /// Chess960 (Fischer Random): castling with the king and rooks on any first-rank squares.
    Chess960,
}

impl CastlingMode {
    /// `true` for [`CastlingMode::Chess960`].
    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }

    /// The mode a FEN text implies by itself: Chess960 when its castling field names a rook
    /// by its file (Shredder-FEN `HAha`, or an X-FEN file letter), standard otherwise (`KQkq`,
    /// `-`, or no castling field at all). A FEN with `KQkq` may still be a Chess960 position:
    /// only the caller knows that.
    ///
    /// ```
    /// use cajitas_rules::CastlingMode;
    /// assert_eq!(CastlingMode::implied_by_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"), CastlingMode::Chess960);
    /// assert_eq!(CastlingMode::implied_by_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), CastlingMode::Standard);
    /// ```
    pub fn implied_by_fen(fen: &str) -> CastlingMode {
        match fen.split_ascii_whitespace().nth(2) {
            Some(field)
                if field
                    .chars()
                    .any(|c| c.is_ascii_alphabetic() && !"KQkq".contains(c)) =>
            {
                CastlingMode::Chess960
            }
            _ => CastlingMode::Standard,
        }
    }
}

impl fmt::Display for CastlingMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CastlingMode::Standard => "standard",
            CastlingMode::Chess960 => "chess960",
        })
    }
}
