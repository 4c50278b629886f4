//! The 960 start positions of Chess960 (Fischer Random), numbered as Reinhard Scharnagl
//! numbers them: 0 is `BBQNNRKR`, 518 is the standard position, 959 is `RKRNNQBB`.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::position::Position;
use crate::setup::Setup;
use crate::types::{CastlingMode, Color, File, Rank, Role, Square};

/// A Chess960 start position, by its Scharnagl number in `0..960`.
///
/// The number gives the white pieces on the first rank (Black mirrors them): its remainder
/// by 4 places the light-squared bishop on b, d, f or h; the next quotient's remainder by
/// 4 the dark-squared bishop on a, c, e or g; the next remainder by 6 the queen on one of
/// the six squares left; what remains (0 to 9) the two knights on the five squares left;
/// the last three squares hold rook, king, rook in that order.
///
/// ```
/// use cajitas_rules::{CastlingMode, Chess960, Position};
/// assert_eq!(Chess960::position(518).unwrap().fen(), Position::new().fen());
/// let pos = Chess960::position(0).unwrap();
/// assert_eq!(pos.fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
/// assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
/// assert_eq!(Chess960::of(pos.board()), Chess960::new(0));
/// assert!(Chess960::position(960).is_none());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Chess960(u16);

/// Where the two knights go among the five squares left after the bishops and the queen.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

impl Chess960 {
    /// How many start positions there are.
    pub const COUNT: u32 = 960;

    /// The standard chess start position, number 518.
    pub const STANDARD: Chess960 = Chess960(518);

    /// The start position numbered `n`, if `n` is in `0..960`.
    pub const fn new(n: u32) -> Option<Chess960> {
        if n < Chess960::COUNT {
            Some(Chess960(n as u16))
        } else {
            None
        }
    }

    /// A start position chosen by a number the caller draws (this crate has no random
    /// generator): `seed % 960`. Any uniform 64-bit seed gives each position with the same
    /// chance, give or take one part in 10^16.
    ///
    /// ```
    /// use cajitas_rules::Chess960;
    /// assert_eq!(Chess960::from_seed(960 + 518), Chess960::STANDARD);
    /// ```
    pub const fn from_seed(seed: u64) -> Chess960 {
        Chess960((seed % Chess960::COUNT as u64) as u16)
    }

    /// The start position numbered `n` as a playable position in Chess960 mode (white to
    /// move, all four castling rights), if `n` is in `0..960`.
    pub fn position(n: u32) -> Option<Position> {
        Chess960::new(n).map(Chess960::to_position)
    }

    /// Its Scharnagl number, in `0..960`.
    pub const fn number(self) -> u32 {
        self.0 as u32
    }

    /// White's first rank, from the a-file to the h-file.
    ///
    /// ```
    /// use cajitas_rules::{Chess960, Role};
    /// let rank = Chess960::new(0).unwrap().back_rank();
    /// assert_eq!(rank[..3], [Role::Bishop, Role::Bishop, Role::Queen]);
    /// ```
    pub fn back_rank(self) -> [Role; 8] {
        let mut n = self.0 as usize;
        let mut rank: [Option<Role>; 8] = [None; 8];
        rank[(n % 4) * 2 + 1] = Some(Role::Bishop);
        n /= 4;
        rank[(n % 4) * 2] = Some(Role::Bishop);
        n /= 4;
        let empty = |rank: &[Option<Role>; 8]| -> Vec<usize> {
            (0..8).filter(|&i| rank[i].is_none()).collect()
        };
        rank[empty(&rank)[n % 6]] = Some(Role::Queen);
        n /= 6;
        let left = empty(&rank);
        let (a, b) = KNIGHTS[n];
        rank[left[a]] = Some(Role::Knight);
        rank[left[b]] = Some(Role::Knight);
        let left = empty(&rank);
        for (i, role) in left.into_iter().zip([Role::Rook, Role::King, Role::Rook]) {
            rank[i] = Some(role);
        }
        rank.map(|r| r.unwrap_or(Role::Pawn))
    }

    /// The board of this start position: pawns on the second and seventh ranks, the pieces
    /// of [`Chess960::back_rank`] on the first, mirrored on the eighth.
    pub fn board(self) -> Board {
        let mut board = Board::empty();
        for (file, role) in File::ALL.into_iter().zip(self.back_rank()) {
            for color in Color::ALL {
                board.put(
                    Square::from_coords(file, Rank::First.relative_to(color)),
                    color,
                    role,
                );
                board.put(
                    Square::from_coords(file, Rank::Second.relative_to(color)),
                    color,
                    Role::Pawn,
                );
            }
        }
        board
    }

    /// The setup of this start position: white to move, castling rights on all four rooks.
    pub fn setup(self) -> Setup {
        let board = self.board();
        Setup {
            castling_rights: board.rooks()
                & (Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth)),
            board,
            ..Setup::initial()
        }
    }

    /// This start position, playable in [`CastlingMode::Chess960`].
    pub fn to_position(self) -> Position {
        Position::from_setup_with(self.setup(), CastlingMode::Chess960)
            .expect("every Chess960 start position is valid")
    }

    /// The start position whose board `board` is, if any (the inverse of
    /// [`Chess960::board`]).
    ///
    /// ```
    /// use cajitas_rules::{Chess960, Position};
    /// assert_eq!(Chess960::of(Position::new().board()), Some(Chess960::STANDARD));
    /// let after_e4 = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    /// assert_eq!(Chess960::of(after_e4.board()), None);
    /// ```
    pub fn of(board: &Board) -> Option<Chess960> {
        let rank: Vec<Option<Role>> = File::ALL
            .into_iter()
            .map(|f| {
                board
                    .piece_at(Square::from_coords(f, Rank::First))
                    .filter(|p| p.color == Color::White)
                    .map(|p| p.role)
            })
            .collect();
        let files_of =
            |role: Role| -> Vec<usize> { (0..8).filter(|&i| rank[i] == Some(role)).collect() };
        let bishops = files_of(Role::Bishop);
        let [b1, b2] = bishops[..] else { return None };
        let (light, dark) = if b1 % 2 == 1 { (b1, b2) } else { (b2, b1) };
        if light % 2 != 1 || dark % 2 != 0 {
            return None;
        }
        let [queen] = files_of(Role::Queen)[..] else {
            return None;
        };
        let after_bishops: Vec<usize> = (0..8).filter(|&i| i != b1 && i != b2).collect();
        let q = after_bishops.iter().position(|&i| i == queen)?;
        let after_queen: Vec<usize> = after_bishops.into_iter().filter(|&i| i != queen).collect();
        let knights = files_of(Role::Knight);
        let [n1, n2] = knights[..] else { return None };
        let a = after_queen.iter().position(|&i| i == n1)?;
        let b = after_queen.iter().position(|&i| i == n2)?;
        let k = KNIGHTS.iter().position(|&pair| pair == (a, b))?;
        let n = ((k * 6 + q) * 4 + dark / 2) * 4 + (light - 1) / 2;
        let found = Chess960::new(n as u32)?;
        (found.board() == *board).then_some(found)
    }
}

impl fmt::Display for Chess960 {
    /// The number, as in "Chess960 #518".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
