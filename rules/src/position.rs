//! Validated positions: legal moves, playing them, check, mate, stalemate, perft.

use std::fmt;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::fen::{Fen, ParseFenError};
use crate::key::{PositionKey, placement_key};
use crate::moves::{Move, MoveList};
use crate::setup::Setup;
use crate::types::{CastlingMode, CastlingSide, Color, File, Piece, Rank, Role, Square};

/// One reason a setup is not playable.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum PositionErrorKind {
    /// A side has no king, or more than one.
    KingCount {
        /// Whose kings.
        color: Color,
        /// How many there are.
        count: usize,
    },
    /// Pawns stand on the first or eighth rank.
    PawnsOnBackRank(Bitboard),
    /// The side that is not to move is in check (its king could be captured).
    OppositeCheck,
    /// Castling rights on these rook squares without the king and that rook on their
    /// initial squares (standard chess: the king on e1/e8, the rooks on the corners).
    InvalidCastlingRights(Bitboard),
    /// Chess960: castling rights on these squares, where no rook of the side whose first
    /// rank it is stands (or not on a first rank at all).
    CastlingRightWithoutRook(Bitboard),
    /// Chess960: castling rights for a side whose king is not on its first rank.
    CastlingKingNotOnFirstRank(Color),
    /// Chess960: more than one castling right on one side of the king (the king must stand
    /// between its castling rooks).
    CastlingRightsOnOneSide {
        /// Whose rights.
        color: Color,
        /// Which side of the king.
        side: CastlingSide,
        /// The rook squares with a right on that side.
        rooks: Bitboard,
    },
    /// The en passant square does not follow a double pawn step of the side that just moved.
    InvalidEpSquare(Square),
    /// A side has more material than a game can produce (as shakmaty refuses it). This also
    /// bounds the legal moves of every playable position (the most known is 218) within
    /// the move list's [`MAX_MOVES`](crate::MAX_MOVES).
    TooMuchMaterial {
        /// Whose material.
        color: Color,
        /// Which count is over.
        excess: MaterialExcess,
    },
    /// A warning, treated as an error by [`Position::from_setup_strict`].
    Warning(PositionWarning),
}

impl fmt::Display for PositionErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionErrorKind::KingCount { color, count } => {
                write!(f, "{color} has {count} kings, exactly one is needed")
            }
            PositionErrorKind::PawnsOnBackRank(b) => {
                write!(f, "pawns on the first or eighth rank ({})", squares(*b))
            }
            PositionErrorKind::OppositeCheck => f.write_str("the side not to move is in check"),
            PositionErrorKind::InvalidCastlingRights(b) => write!(
                f,
                "castling rights without the king and rook on their initial squares ({})",
                squares(*b)
            ),
            PositionErrorKind::CastlingRightWithoutRook(b) => write!(
                f,
                "castling rights without a rook on that first-rank square ({})",
                squares(*b)
            ),
            PositionErrorKind::CastlingKingNotOnFirstRank(color) => write!(
                f,
                "castling rights for {color}, whose king is not on its first rank"
            ),
            PositionErrorKind::CastlingRightsOnOneSide { color, side, rooks } => write!(
                f,
                "{color} has {} castling rights on the {} side of its king ({}), at most one \
                 is possible",
                rooks.count(),
                match side {
                    CastlingSide::KingSide => "king",
                    CastlingSide::QueenSide => "queen",
                },
                squares(*rooks)
            ),
            PositionErrorKind::InvalidEpSquare(sq) => write!(
                f,
                "the en passant square {sq} does not follow a double pawn step"
            ),
            PositionErrorKind::TooMuchMaterial { color, excess } => match excess {
                MaterialExcess::TooManyPieces { count } => write!(
                    f,
                    "{color} has {count} pieces, more than the 16 a side starts with"
                ),
                MaterialExcess::TooManyPawns { count } => {
                    write!(
                        f,
                        "{color} has {count} pawns, more than the 8 a side starts with"
                    )
                }
                MaterialExcess::TooManyPromoted {
                    promoted,
                    missing_pawns,
                } => write!(
                    f,
                    "{color} has {promoted} piece{} more than the initial set, but only \
                     {missing_pawns} missing pawn{} that could have promoted",
                    if *promoted == 1 { "" } else { "s" },
                    if *missing_pawns == 1 { "" } else { "s" },
                ),
            },
            PositionErrorKind::Warning(w) => w.fmt(f),
        }
    }
}

/// Which count makes a side's material more than a game can produce.
///
/// ```
/// use cajitas_rules::{Color, FenError, MaterialExcess, Position, PositionErrorKind};
/// let err = Position::from_fen("k7/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1").unwrap_err();
/// let FenError::Position(e) = err else { panic!() };
/// assert_eq!(e.errors, [PositionErrorKind::TooMuchMaterial {
///     color: Color::White,
///     excess: MaterialExcess::TooManyPromoted { promoted: 1, missing_pawns: 0 },
/// }]);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MaterialExcess {
    /// More than 16 pieces, king and pawns included.
    TooManyPieces {
        /// How many.
        count: usize,
    },
    /// More than 8 pawns.
    TooManyPawns {
        /// How many.
        count: usize,
    },
    /// More pieces beyond the initial set (a second queen, a third rook or knight, a
    /// second bishop on squares of one colour) than pawns are missing to have promoted.
    TooManyPromoted {
        /// Pieces beyond the initial set.
        promoted: usize,
        /// Pawns missing from the initial eight.
        missing_pawns: usize,
    },
}

impl MaterialExcess {
    /// The first count over its limit for `color` on `board`, if any.
    fn of(board: &Board, color: Color) -> Option<MaterialExcess> {
        let ours = board.by_color(color);
        let count = ours.count();
        if count > 16 {
            return Some(MaterialExcess::TooManyPieces { count });
        }
        let pawns = (board.pawns() & ours).count();
        if pawns > 8 {
            return Some(MaterialExcess::TooManyPawns { count: pawns });
        }
        let of = |role: Role| (board.by_role(role) & ours).count();
        let bishops = board.bishops() & ours;
        let promoted = of(Role::Queen).saturating_sub(1)
            + of(Role::Rook).saturating_sub(2)
            + of(Role::Knight).saturating_sub(2)
            + (bishops & Bitboard::light_squares())
                .count()
                .saturating_sub(1)
            + (bishops & Bitboard::dark_squares())
                .count()
                .saturating_sub(1);
        let missing_pawns = 8 - pawns;
        (promoted > missing_pawns).then_some(MaterialExcess::TooManyPromoted {
            promoted,
            missing_pawns,
        })
    }
}

fn squares(b: Bitboard) -> String {
    b.into_iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A setup that cannot be played, with EVERY reason found.
///
/// ```
/// use cajitas_rules::{Position, PositionErrorKind, FenError};
/// let err = Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
/// let FenError::Position(e) = err else { panic!() };
/// assert_eq!(e.errors.len(), 2); // no white king, no black king
/// assert!(matches!(e.errors[0], PositionErrorKind::KingCount { .. }));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PositionError {
    /// Every reason, in a fixed order.
    pub errors: Vec<PositionErrorKind>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal position: ")?;
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            e.fmt(f)?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}

/// A FEN that cannot become a position: unreadable, or read but not playable.
///
/// ```
/// use cajitas_rules::{FenError, Position};
/// assert!(matches!(Position::from_fen("8/8 w - - 0 1"), Err(FenError::Parse(_))));
/// assert!(matches!(Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"), Err(FenError::Position(_))));
/// ```
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

/// Something a playable position should not show: it cannot arise in a game, but the
/// rules still know how to play on from it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum PositionWarning {
    /// The side to move is checked in a way no move could have produced (more than two
    /// checkers, two checkers on one line through the king, two checkers that are not
    /// sliders).
    ImpossibleCheck(Bitboard),
}

impl fmt::Display for PositionWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionWarning::ImpossibleCheck(b) => {
                write!(f, "impossible check (checkers on {})", squares(*b))
            }
        }
    }
}

/// The error of [`Position::try_play`]: the move is not legal here.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IllegalMoveError {
    /// The move refused.
    pub mv: Move,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}", self.mv)
    }
}

impl std::error::Error for IllegalMoveError {}

/// Standard chess: the castling rights without the king on e1 (e8) and a rook of its
/// side on that corner.
fn standard_bad_rights(board: &Board, rights: Bitboard) -> Bitboard {
    let mut bad_rights = Bitboard::EMPTY;
    for sq in rights {
        let ok = [Color::White, Color::Black].into_iter().any(|color| {
            let back = Rank::First.relative_to(color);
            let king_ok = board.by_piece(Piece {
                color,
                role: Role::King,
            }) == Bitboard::from(Square::from_coords(File::E, back));
            let rook_ok = sq.rank() == back
                && (sq.file() == File::A || sq.file() == File::H)
                && board
                    .by_piece(Piece {
                        color,
                        role: Role::Rook,
                    })
                    .contains(sq);
            king_ok && rook_ok
        });
        if !ok {
            bad_rights.add(sq);
        }
    }
    bad_rights
}

/// Chess960: a rook of the right's side on each right's square, the king on its first
/// rank, at most one right on each side of it.
fn chess960_rights_errors(board: &Board, rights: Bitboard, errors: &mut Vec<PositionErrorKind>) {
    let mut without_rook = Bitboard::EMPTY;
    for sq in rights {
        let owner = Color::ALL
            .into_iter()
            .find(|&c| sq.rank() == Rank::First.relative_to(c));
        let has_rook = owner.is_some_and(|color| {
            board
                .by_piece(Piece {
                    color,
                    role: Role::Rook,
                })
                .contains(sq)
        });
        if !has_rook {
            without_rook.add(sq);
        }
    }
    if without_rook.any() {
        errors.push(PositionErrorKind::CastlingRightWithoutRook(without_rook));
    }
    for color in Color::ALL {
        let back = Rank::First.relative_to(color);
        let ours = rights & Bitboard::rank(back);
        if ours.is_empty() {
            continue;
        }
        let Some(king) = board.king_of(color).filter(|k| k.rank() == back) else {
            errors.push(PositionErrorKind::CastlingKingNotOnFirstRank(color));
            continue;
        };
        for side in CastlingSide::ALL {
            let rooks = ours & side_of(king, side);
            if rooks.more_than_one() {
                errors.push(PositionErrorKind::CastlingRightsOnOneSide { color, side, rooks });
            }
        }
    }
}

/// The squares of `king`'s rank on `side` of it.
fn side_of(king: Square, side: CastlingSide) -> Bitboard {
    let rank = Bitboard::rank(king.rank());
    let below = Bitboard((1u64 << king.index()) - 1);
    match side {
        CastlingSide::QueenSide => rank & below,
        CastlingSide::KingSide => rank - below - king,
    }
}

/// A validated, playable chess position.
///
/// ```
/// use cajitas_rules::{Position, Move, Role, Square};
/// let mut pos = Position::new();
/// assert_eq!(pos.legal_moves().len(), 20);
/// pos.play(Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None });
/// assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    board: Board,
    turn: Color,
    castling: Bitboard,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    mode: CastlingMode,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

/// Where moves go while generating: a list, or a plain count (bulk counting).
trait Sink {
    fn piece(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard);
    /// Pawn moves given as a set of destinations; each starts `delta` index steps back.
    fn pawns(&mut self, board: &Board, targets: Bitboard, delta: i32, promotion: bool);
    fn en_passant(&mut self, from: Square, to: Square);
    fn castle(&mut self, king: Square, rook: Square);
}

/// Counts moves without listing them. Target sets are summed in a bit-sliced counter
/// (a carry-save adder per square: no piece of one side can add more than 16 moves to
/// one square), so the popcounts happen once at the end instead of once per piece.
#[derive(Default)]
struct Counter {
    ones: u64,
    twos: u64,
    fours: u64,
    eights: u64,
    sixteens: u64,
    extra: u64,
}

impl Counter {
    #[inline(always)]
    fn add(&mut self, x: u64) {
        let c1 = self.ones & x;
        self.ones ^= x;
        let c2 = self.twos & c1;
        self.twos ^= c1;
        let c3 = self.fours & c2;
        self.fours ^= c2;
        let c4 = self.eights & c3;
        self.eights ^= c3;
        self.sixteens ^= c4;
    }

    #[inline(always)]
    fn total(&self) -> u64 {
        self.extra
            + u64::from(self.ones.count_ones())
            + 2 * u64::from(self.twos.count_ones())
            + 4 * u64::from(self.fours.count_ones())
            + 8 * u64::from(self.eights.count_ones())
            + 16 * u64::from(self.sixteens.count_ones())
    }
}

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _: &Board, _: Role, _: Square, targets: Bitboard) {
        self.add(targets.0);
    }
    #[inline(always)]
    fn pawns(&mut self, _: &Board, targets: Bitboard, _: i32, promotion: bool) {
        if promotion {
            self.extra += 4 * targets.count() as u64;
        } else {
            self.add(targets.0);
        }
    }
    #[inline(always)]
    fn en_passant(&mut self, _: Square, _: Square) {
        self.extra += 1;
    }
    #[inline(always)]
    fn castle(&mut self, _: Square, _: Square) {
        self.extra += 1;
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
    #[inline(always)]
    fn pawns(&mut self, board: &Board, targets: Bitboard, delta: i32, promotion: bool) {
        for to in targets {
            let from = Square::new((to.index() as i32 - delta) as u32);
            let capture = board.role_at(to);
            if promotion {
                for p in Role::PROMOTIONS {
                    self.push(Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture,
                        to,
                        promotion: Some(p),
                    });
                }
            } else {
                self.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: None,
                });
            }
        }
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.push(Move::EnPassant { from, to });
    }
    #[inline(always)]
    fn castle(&mut self, king: Square, rook: Square) {
        self.push(Move::Castle { king, rook });
    }
}

#[inline(always)]
fn shift_up(b: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(b.0 << 8),
        Color::Black => Bitboard(b.0 >> 8),
    }
}

const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;

impl Position {
    /// The initial position.
    pub fn new() -> Position {
        Position {
            board: Board::new(),
            turn: Color::White,
            castling: Bitboard(0x8100_0000_0000_0081),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            mode: CastlingMode::Standard,
        }
    }

    /// Validates a setup. Errors (every one found) make it unplayable; warnings are
    /// accepted (see [`Position::warnings`]).
    ///
    /// The en passant square is kept when a pawn of the side to move stands ready to
    /// capture on it, even if that capture is illegal (a pinned pawn); otherwise it is
    /// dropped. An en passant square that does not follow a double step is an error.
    ///
    /// ```
    /// use cajitas_rules::{Fen, Position};
    /// let fen: Fen = "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1".parse().unwrap();
    /// let err = Position::from_setup(fen.0).unwrap_err();
    /// assert_eq!(err.errors.len(), 1); // no rook on a1 for the Q right
    /// ```
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        Position::from_setup_with(setup, CastlingMode::Standard)
    }

    /// Validates a setup as [`Position::from_setup`] does, in the given castling mode: in
    /// [`CastlingMode::Chess960`] a castling right needs the king on its first rank and a
    /// rook of its side on the right's square, with at most one right on each side of
    /// the king.
    ///
    /// ```
    /// use cajitas_rules::{CastlingMode, Fen, Position, PositionErrorKind};
    /// let fen: Fen = "4k3/8/8/8/8/8/8/1R1K1R1R w FH - 0 1".parse().unwrap();
    /// let err = Position::from_setup_with(fen.0.clone(), CastlingMode::Chess960).unwrap_err();
    /// assert!(matches!(err.errors[0], PositionErrorKind::CastlingRightsOnOneSide { .. }));
    /// assert!(Position::from_setup(fen.0).is_err());
    /// ```
    pub fn from_setup_with(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        let mut errors = Vec::new();
        let board = setup.board;
        for color in Color::ALL {
            let count = (board.kings() & board.by_color(color)).count();
            if count != 1 {
                errors.push(PositionErrorKind::KingCount { color, count });
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if (board.pawns() & back_ranks).any() {
            errors.push(PositionErrorKind::PawnsOnBackRank(
                board.pawns() & back_ranks,
            ));
        }
        for color in Color::ALL {
            if let Some(excess) = MaterialExcess::of(&board, color) {
                errors.push(PositionErrorKind::TooMuchMaterial { color, excess });
            }
        }
        let turn = setup.turn;
        let mut pos = Position {
            board,
            turn,
            castling: setup.castling_rights,
            ep_square: None,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            mode,
        };
        if let Some(their_king) = pos.board.king_of(!turn)
            && pos
                .attackers_to(their_king, turn, pos.board.occupied())
                .any()
        {
            errors.push(PositionErrorKind::OppositeCheck);
        }
        match mode {
            CastlingMode::Standard => {
                let bad_rights = standard_bad_rights(&pos.board, setup.castling_rights);
                if bad_rights.any() {
                    errors.push(PositionErrorKind::InvalidCastlingRights(bad_rights));
                }
            }
            CastlingMode::Chess960 => {
                chess960_rights_errors(&pos.board, setup.castling_rights, &mut errors)
            }
        }
        if let Some(ep) = setup.ep_square {
            let them = !turn;
            let pushed_to = ep.offset(if turn.is_white() { -8 } else { 8 });
            let origin = ep.offset(if turn.is_white() { 8 } else { -8 });
            let valid = ep.rank() == Rank::Sixth.relative_to(turn)
                && !pos.board.occupied().contains(ep)
                && origin.is_some_and(|o| !pos.board.occupied().contains(o))
                && pushed_to.is_some_and(|p| {
                    pos.board
                        .by_piece(Piece {
                            color: them,
                            role: Role::Pawn,
                        })
                        .contains(p)
                });
            if !valid {
                errors.push(PositionErrorKind::InvalidEpSquare(ep));
            } else if (attacks::pawn(them, ep) & pos.our(Role::Pawn)).any() {
                pos.ep_square = Some(ep);
            }
        }
        if errors.is_empty() {
            Ok(pos)
        } else {
            Err(PositionError { errors })
        }
    }

    /// Like [`Position::from_setup`], but warnings are errors too.
    ///
    /// ```
    /// use cajitas_rules::{Fen, Position};
    /// // Two rooks check along one file: impossible in a game.
    /// let fen: Fen = "4R3/8/8/4k3/8/8/8/4R2K b - - 0 1".parse().unwrap();
    /// assert!(Position::from_setup(fen.0.clone()).is_ok());
    /// assert!(Position::from_setup_strict(fen.0).is_err());
    /// ```
    pub fn from_setup_strict(setup: Setup) -> Result<Position, PositionError> {
        let pos = Position::from_setup(setup)?;
        let warnings = pos.warnings();
        if warnings.is_empty() {
            Ok(pos)
        } else {
            Err(PositionError {
                errors: warnings
                    .into_iter()
                    .map(PositionErrorKind::Warning)
                    .collect(),
            })
        }
    }

    /// Reads a FEN and validates it (warnings accepted).
    ///
    /// ```
    /// use cajitas_rules::Position;
    /// let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    /// assert_eq!(pos.legal_moves().len(), 48);
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, CastlingMode::Standard)
    }

    /// Reads a FEN (X-FEN or Shredder-FEN castling) and validates it in the given castling
    /// mode (warnings accepted).
    ///
    /// ```
    /// use cajitas_rules::{CastlingMode, Position};
    /// let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    /// let pos = Position::from_fen_with(fen, CastlingMode::Chess960).unwrap();
    /// assert_eq!(pos.legal_moves().len(), 21);
    /// // The f-rook is the outermost on the queen side: X-FEN writes it as Q.
    /// assert_eq!(pos.fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    /// // Standard chess has no castling right on the f-file.
    /// assert!(Position::from_fen(fen).is_err());
    /// ```
    pub fn from_fen_with(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        let fen: Fen = fen.parse()?;
        Ok(Position::from_setup_with(fen.0, mode)?)
    }

    /// What cannot arise in a game but is still playable.
    ///
    /// ```
    /// use cajitas_rules::{Position, PositionWarning};
    /// let pos = Position::from_fen("4R3/8/8/4k3/8/8/8/4R2K b - - 0 1").unwrap();
    /// assert!(matches!(pos.warnings()[0], PositionWarning::ImpossibleCheck(_)));
    /// assert!(Position::new().warnings().is_empty());
    /// ```
    pub fn warnings(&self) -> Vec<PositionWarning> {
        let mut warnings = Vec::new();
        let checkers = self.checkers();
        if checkers.any() {
            let king = self.our_king();
            let impossible = if checkers.count() > 2 {
                true
            } else if checkers.count() == 2 {
                let mut it = checkers.into_iter();
                let (a, b) = (it.next().unwrap_or(king), it.next().unwrap_or(king));
                let sliders = self.board.bishops() | self.board.rooks_and_queens();
                attacks::aligned(a, b, king) || (checkers & sliders).is_empty()
            } else {
                false
            };
            if impossible {
                warnings.push(PositionWarning::ImpossibleCheck(checkers));
            }
        }
        warnings
    }

    /// The setup of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            castling_rights: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The FEN of this position, castling rights as X-FEN: `KQkq` for the outermost rook
    /// on a side, a file letter only for a rook that is not (Chess960).
    pub fn fen(&self) -> String {
        Fen(self.to_setup()).to_string()
    }

    /// The FEN of this position with the castling rights as Shredder-FEN: the rooks' files
    /// (`HAha` for the standard rights).
    ///
    /// ```
    /// use cajitas_rules::Position;
    /// assert_eq!(Position::new().shredder_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    /// ```
    pub fn shredder_fen(&self) -> String {
        Fen(self.to_setup()).to_shredder_string()
    }

    /// The castling mode this position was validated in: how its castling moves are
    /// written in UCI ([`Position::uci`]).
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// `m` in UCI notation as this position's castling mode writes it: castling as the
    /// king's move (`e1g1`) in standard chess, as the king taking its own rook (`e1h1`) in
    /// Chess960.
    ///
    /// ```
    /// use cajitas_rules::{CastlingMode, Position};
    /// let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    /// let pos = Position::from_fen(fen).unwrap();
    /// let castle = pos.legal_moves().iter().copied().find(|m| m.is_castle()).unwrap();
    /// assert_eq!(pos.uci(castle).to_string(), "e1g1");
    /// let pos = Position::from_fen_with(fen, CastlingMode::Chess960).unwrap();
    /// assert_eq!(pos.uci(castle).to_string(), "e1h1");
    /// ```
    pub fn uci(&self, m: Move) -> crate::Uci {
        crate::Uci::from_move_with(m, self.mode)
    }

    /// Piece placement.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The rook squares that may still castle.
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// `true` when `color` may still castle on `side` (the right, not the move now).
    ///
    /// ```
    /// use cajitas_rules::{CastlingSide, Color, Position};
    /// assert!(Position::new().has_castling_right(Color::Black, CastlingSide::QueenSide));
    /// ```
    pub fn has_castling_right(&self, color: Color, side: CastlingSide) -> bool {
        self.castling_rook(color, side).is_some()
    }

    /// The rook `color` may still castle with on `side`, if it has that right (a1 or h1 in
    /// standard chess; any square of the first rank in Chess960).
    ///
    /// ```
    /// use cajitas_rules::{CastlingMode, CastlingSide, Color, Position, Square};
    /// let pos = Position::from_fen_with("nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1", CastlingMode::Chess960).unwrap();
    /// assert_eq!(pos.castling_rook(Color::White, CastlingSide::QueenSide), Some(Square::B1));
    /// assert_eq!(pos.castling_rook(Color::Black, CastlingSide::KingSide), Some(Square::G8));
    /// ```
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let back = Rank::First.relative_to(color);
        let king = self.board.king_of(color).filter(|k| k.rank() == back)?;
        (self.castling & side_of(king, side)).first()
    }

    /// The en passant square as stored: set after a double step when a pawn stands ready
    /// to capture, even if that capture is illegal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en passant square only when an en passant capture is legal now (what FIDE
    /// 9.2.2 compares for repetitions).
    ///
    /// ```
    /// use cajitas_rules::{Position, Square};
    /// // The e5 pawn may take d6 en passant...
    /// let pos = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
    /// assert_eq!(pos.legal_ep_square(), Some(Square::D6));
    /// // ...but not when that would expose its king along the rank.
    /// let pos = Position::from_fen("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2").unwrap();
    /// assert_eq!(pos.ep_square(), Some(Square::D6));
    /// assert_eq!(pos.legal_ep_square(), None);
    /// ```
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut c = Counter::default();
        self.gen_en_passant(ep, self.checkers(), &mut c);
        if c.total() > 0 { Some(ep) } else { None }
    }

    /// The key FIDE 9.2.3 compares for repetitions: placement, side to move, castling
    /// rights, and the en passant square only when an en passant capture is legal (see
    /// [`Position::legal_ep_square`]). The move counters are not part of it.
    ///
    /// ```
    /// use cajitas_rules::Position;
    /// // Black just played ...d7-d5. The e5 pawn can take en passant: a different position
    /// // from the same one without the en passant square.
    /// let ep = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
    /// let no_ep = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2").unwrap();
    /// assert_ne!(ep.fide_key(), no_ep.fide_key());
    /// // The same double step with the capture impossible (it would expose the king on
    /// // the fifth rank): the same position.
    /// let ep = Position::from_fen("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2").unwrap();
    /// let no_ep = Position::from_fen("4k3/8/8/K2pP2r/8/8/8/8 w - - 0 2").unwrap();
    /// assert_eq!(ep.fide_key(), no_ep.fide_key());
    /// ```
    pub fn fide_key(&self) -> PositionKey {
        self.fide_key_with(placement_key(&self.board))
    }

    /// [`Position::fide_key`], given the placement part of its hash (kept up to date move
    /// by move by [`crate::Game`]).
    #[inline]
    pub(crate) fn fide_key_with(&self, placement: u64) -> PositionKey {
        PositionKey::new(
            &self.board,
            self.turn,
            self.castling,
            self.legal_ep_square(),
            placement,
        )
    }

    /// Halfmoves since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The side to move's pieces of this role.
    #[inline]
    pub fn our(&self, role: Role) -> Bitboard {
        self.board.by_role(role) & self.board.by_color(self.turn)
    }

    /// The opponent's pieces of this role.
    #[inline]
    pub fn their(&self, role: Role) -> Bitboard {
        self.board.by_role(role) & self.board.by_color(!self.turn)
    }

    #[inline(always)]
    fn our_king(&self) -> Square {
        // Validation guarantees exactly one king per side.
        (self.board.kings() & self.board.by_color(self.turn))
            .first()
            .unwrap_or(Square::A1)
    }

    /// The pieces of `by` that attack `sq`, with `occupied` as the blockers.
    ///
    /// ```
    /// use cajitas_rules::{Color, Position, Square};
    /// let pos = Position::new();
    /// let occ = pos.board().occupied();
    /// assert_eq!(pos.attackers_to(Square::F3, Color::White, occ).count(), 3); // e2, g2, g1
    /// ```
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let b = &self.board;
        ((attacks::knight(sq) & b.knights())
            | (attacks::king(sq) & b.kings())
            | (attacks::pawn(!by, sq) & b.pawns())
            | (attacks::rook(sq, occupied) & b.rooks_and_queens())
            | (attacks::bishop(sq, occupied) & b.bishops_and_queens()))
            & b.by_color(by)
    }

    /// `true` when a piece in `them` (the opponent's pieces) attacks `sq` with `occupied`
    /// as the blockers; cheaper than [`Position::attackers_to`] (early exits, and slider
    /// lookups only when a slider stands on one of the square's lines).
    #[inline(always)]
    fn attacked(&self, sq: Square, them: Color, occupied: Bitboard) -> bool {
        let b = &self.board;
        let theirs = b.by_color(them);
        if (attacks::knight(sq) & b.knights() & theirs).any()
            || (attacks::pawn(!them, sq) & b.pawns() & theirs).any()
            || (attacks::king(sq) & b.kings() & theirs).any()
        {
            return true;
        }
        let rq = b.rooks_and_queens() & theirs;
        if (attacks::rook_empty(sq) & rq).any() && (attacks::rook(sq, occupied) & rq).any() {
            return true;
        }
        let bq = b.bishops_and_queens() & theirs;
        (attacks::bishop_empty(sq) & bq).any() && (attacks::bishop(sq, occupied) & bq).any()
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(self.our_king(), !self.turn, self.board.occupied())
    }

    /// `true` when the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// `true` when the side to move is checkmated.
    ///
    /// ```
    /// use cajitas_rules::Position;
    /// let pos = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
    /// assert!(pos.is_checkmate());
    /// ```
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.count_legal_moves() == 0
    }

    /// `true` when the side to move has no legal move and is not in check.
    ///
    /// ```
    /// use cajitas_rules::Position;
    /// let pos = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert!(pos.is_stalemate());
    /// ```
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.count_legal_moves() == 0
    }

    /// `true` when neither side can ever checkmate: king against king, king and one
    /// minor piece against king, or kings and any number of bishops all on squares of
    /// one color.
    ///
    /// ```
    /// use cajitas_rules::Position;
    /// assert!(Position::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").unwrap().has_insufficient_material());
    /// assert!(!Position::from_fen("8/8/4k3/8/8/3RK3/8/8 w - - 0 1").unwrap().has_insufficient_material());
    /// ```
    pub fn has_insufficient_material(&self) -> bool {
        let b = &self.board;
        if (b.pawns() | b.rooks_and_queens()).any() {
            return false;
        }
        let knights = b.knights();
        let bishops = b.bishops();
        if knights.is_empty() {
            (bishops & Bitboard::light_squares()).is_empty()
                || (bishops & Bitboard::dark_squares()).is_empty()
        } else {
            knights.count() == 1 && bishops.is_empty()
        }
    }

    /// `true` when `color` cannot checkmate whatever the other side does, by lichess's rule
    /// (scalachess `InsufficientMatingMaterial`), which decides a flag fall: when the side
    /// that did NOT run out of time has insufficient mating material, the game is drawn
    /// (FIDE 6.9 asks for "any series of legal moves"; this rule is the usual stand-in, and
    /// it never calls a position drawn that the full FIDE test would call won). `color` has
    /// insufficient mating material when it has:
    ///
    /// - a lone king;
    /// - a king and one knight only, and the other side has only a king and queens;
    /// - a king and bishops only, unless the board has bishops on both square colours, or
    ///   the other side has a knight or a pawn.
    ///
    /// ```
    /// use cajitas_rules::{Color, Position};
    /// // A lone king cannot mate.
    /// let p = Position::from_fen("4k3/8/8/8/8/8/q7/4K3 w - - 0 1").unwrap();
    /// assert!(p.insufficient_mating_material(Color::White));
    /// assert!(!p.insufficient_mating_material(Color::Black));
    /// // A knight mates only with the other side's help: a rook can block.
    /// let p = Position::from_fen("4k3/8/8/8/8/8/r7/3NK3 w - - 0 1").unwrap();
    /// assert!(!p.insufficient_mating_material(Color::White));
    /// ```
    pub fn insufficient_mating_material(&self, color: Color) -> bool {
        let b = &self.board;
        let ours = b.by_color(color);
        let theirs = b.by_color(!color);
        let non_king = ours & !b.kings();
        if non_king.is_empty() {
            return true;
        }
        if (non_king & !b.knights()).is_empty() {
            return non_king.count() == 1 && (theirs & !(b.kings() | b.queens())).is_empty();
        }
        if (non_king & !b.bishops()).is_empty() {
            let bishops = b.bishops();
            let both_colours = (bishops & Bitboard::light_squares()).any()
                && (bishops & Bitboard::dark_squares()).any();
            return !(both_colours || (theirs & (b.knights() | b.pawns())).any());
        }
        false
    }

    /// `true` when `color` could still checkmate: the opposite of
    /// [`insufficient_mating_material`](Self::insufficient_mating_material).
    pub fn can_mate(&self, color: Color) -> bool {
        !self.insufficient_mating_material(color)
    }

    /// The side to move's absolutely pinned pieces.
    ///
    /// ```
    /// use cajitas_rules::{Position, Square};
    /// let pos = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
    /// assert!(pos.pinned().contains(Square::E2));
    /// ```
    pub fn pinned(&self) -> Bitboard {
        self.pinned_for(self.our_king())
    }

    /// The pieces of `theirs` attacking our king on `king`.
    #[inline(always)]
    fn checkers_of(&self, king: Square, theirs: Bitboard, occ: Bitboard) -> Bitboard {
        let b = &self.board;
        let mut checkers = ((attacks::knight(king) & b.knights())
            | (attacks::pawn(self.turn, king) & b.pawns()))
            & theirs;
        let rq = b.rooks_and_queens() & theirs;
        if (attacks::rook_empty(king) & rq).any() {
            checkers |= attacks::rook(king, occ) & rq;
        }
        let bq = b.bishops_and_queens() & theirs;
        if (attacks::bishop_empty(king) & bq).any() {
            checkers |= attacks::bishop(king, occ) & bq;
        }
        checkers
    }

    #[inline(always)]
    fn pinned_for(&self, king: Square) -> Bitboard {
        let b = &self.board;
        let them = b.by_color(!self.turn);
        let snipers = ((attacks::rook_empty(king) & b.rooks_and_queens())
            | (attacks::bishop_empty(king) & b.bishops_and_queens()))
            & them;
        let occ = b.occupied();
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = attacks::between(king, s) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & b.by_color(self.turn)
    }

    /// Every legal move.
    ///
    /// ```
    /// use cajitas_rules::Position;
    /// assert_eq!(Position::new().legal_moves().len(), 20);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Replaces the contents of `list` with the legal moves (reusing one list avoids
    /// even the stack copy of [`Position::legal_moves`]).
    ///
    /// ```
    /// use cajitas_rules::{MoveList, Position};
    /// let mut list = MoveList::new();
    /// Position::new().legal_moves_into(&mut list);
    /// assert_eq!(list.len(), 20);
    /// ```
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate(list);
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter::default();
        self.generate(&mut c);
        c.total()
    }

    /// `true` when `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    fn gen_en_passant<S: Sink>(&self, ep: Square, checkers: Bitboard, sink: &mut S) {
        let us = self.turn;
        let king = self.our_king();
        let captured = Square::new(if us.is_white() {
            ep.index() as u32 - 8
        } else {
            ep.index() as u32 + 8
        });
        let b = &self.board;
        for from in attacks::pawn(!us, ep) & self.our(Role::Pawn) {
            let occ = (b.occupied() ^ from ^ captured) | ep;
            // Every check after the capture, ignoring the captured pawn itself.
            let attackers = ((attacks::rook(king, occ) & b.rooks_and_queens())
                | (attacks::bishop(king, occ) & b.bishops_and_queens())
                | (attacks::knight(king) & b.knights())
                | (attacks::pawn(us, king) & b.pawns()))
                & b.by_color(!us)
                & !Bitboard::from(captured);
            let _ = checkers;
            if attackers.is_empty() {
                sink.en_passant(from, ep);
            }
        }
    }

    #[inline(always)]
    fn generate<S: Sink>(&self, sink: &mut S) {
        let b = &self.board;
        let us = self.turn;
        let them = !us;
        let ours = b.by_color(us);
        let theirs = b.by_color(them);
        let occ = b.occupied();
        let king = self.our_king();
        let checkers = self.checkers_of(king, theirs, occ);

        // King moves: never onto an attacked square (the king itself is no blocker).
        let occ_no_king = occ ^ king;
        let mut safe = Bitboard::EMPTY;
        for to in attacks::king(king) - ours {
            if !self.attacked(to, them, occ_no_king) {
                safe.add(to);
            }
        }
        sink.piece(b, Role::King, king, safe);

        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(c) => attacks::between(king, c) | c,
            None => Bitboard::FULL,
        };
        let pinned = self.pinned_for(king);
        let movable = target - ours;

        for from in b.knights() & (ours - pinned) {
            sink.piece(b, Role::Knight, from, attacks::knight(from) & movable);
        }
        for from in b.bishops() & ours {
            let mut t = attacks::bishop(from, occ) & movable;
            if pinned.contains(from) {
                t &= attacks::ray(king, from);
            }
            sink.piece(b, Role::Bishop, from, t);
        }
        for from in b.rooks() & ours {
            let mut t = attacks::rook(from, occ) & movable;
            if pinned.contains(from) {
                t &= attacks::ray(king, from);
            }
            sink.piece(b, Role::Rook, from, t);
        }
        for from in b.queens() & ours {
            let mut t = attacks::queen(from, occ) & movable;
            if pinned.contains(from) {
                t &= attacks::ray(king, from);
            }
            sink.piece(b, Role::Queen, from, t);
        }

        // Pawns, as sets: the unpinned ones together, then each pinned one on its line.
        let pawns = b.pawns() & ours;
        self.gen_pawns(sink, pawns - pinned, target, theirs, occ);
        for p in pawns & pinned {
            self.gen_pawns(
                sink,
                Bitboard::from(p),
                target & attacks::ray(king, p),
                theirs,
                occ,
            );
        }

        if let Some(ep) = self.ep_square {
            self.gen_en_passant(ep, checkers, sink);
        }

        if checkers.is_empty() {
            self.gen_castling(sink, king, occ);
        }
    }

    #[inline(always)]
    fn gen_pawns<S: Sink>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        target: Bitboard,
        theirs: Bitboard,
        occ: Bitboard,
    ) {
        if pawns.is_empty() {
            return;
        }
        let us = self.turn;
        let b = &self.board;
        let last = Bitboard::rank(Rank::Eighth.relative_to(us));
        let third = Bitboard::rank(Rank::Third.relative_to(us));
        let empty = !occ;
        let single = shift_up(pawns, us) & empty;
        let double = shift_up(single & third, us) & empty & target;
        let single = single & target;
        let (left, right, dl, dr, dup) = match us {
            Color::White => (
                Bitboard((pawns.0 & NOT_A) << 7),
                Bitboard((pawns.0 & NOT_H) << 9),
                7,
                9,
                8,
            ),
            Color::Black => (
                Bitboard((pawns.0 & NOT_A) >> 9),
                Bitboard((pawns.0 & NOT_H) >> 7),
                -9,
                -7,
                -8,
            ),
        };
        let left = left & theirs & target;
        let right = right & theirs & target;
        sink.pawns(b, single - last, dup, false);
        sink.pawns(b, double, dup * 2, false);
        sink.pawns(b, left - last, dl, false);
        sink.pawns(b, right - last, dr, false);
        if ((single | left | right) & last).any() {
            sink.pawns(b, single & last, dup, true);
            sink.pawns(b, left & last, dl, true);
            sink.pawns(b, right & last, dr, true);
        }
    }

    #[inline(always)]
    fn gen_castling<S: Sink>(&self, sink: &mut S, king: Square, occ: Bitboard) {
        let us = self.turn;
        let back = Bitboard::rank(Rank::First.relative_to(us));
        let rights = self.castling & back;
        if rights.is_empty() {
            return;
        }
        for rook in rights {
            let side = if rook > king {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            let king_to = side.king_to(us);
            let rook_to = side.rook_to(us);
            let must_be_empty = (attacks::between(king, rook)
                | attacks::between(king, king_to)
                | king_to
                | rook_to)
                - king
                - rook;
            if (must_be_empty & occ).any() {
                continue;
            }
            let path = attacks::between(king, king_to) | king_to;
            let occ_after = occ ^ king ^ rook;
            if path
                .into_iter()
                .all(|sq| !self.attacked(sq, !us, occ_after))
            {
                sink.castle(king, rook);
            }
        }
    }

    /// Plays a legal move.
    ///
    /// # Panics
    /// When `m` is not legal here (use [`Position::try_play`] for moves from outside).
    pub fn play(&mut self, m: Move) {
        if let Err(e) = self.try_play(m) {
            panic!("{e} in {}", self.fen());
        }
    }

    /// Plays `m` if it is legal; otherwise leaves the position as it was.
    ///
    /// ```
    /// use cajitas_rules::{Move, Position, Role, Square};
    /// let mut pos = Position::new();
    /// let bad = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E5, promotion: None };
    /// assert!(pos.try_play(bad).is_err());
    /// assert_eq!(pos, Position::new());
    /// ```
    pub fn try_play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMoveError { mv: m })
        }
    }

    /// Plays `m`, which the caller guarantees is legal (for example, taken from
    /// [`Position::legal_moves`]). An illegal move leaves a position that may break
    /// the rules, but never undefined behaviour.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if self.board.occupied().contains(to) {
                    // Trust the move's capture when the board agrees; look it up otherwise.
                    let cap = match capture {
                        Some(c) if self.board.by_role(c).contains(to) => Some(c),
                        _ => self.board.role_at(to),
                    };
                    if let Some(cap) = cap {
                        self.board.take(to, them, cap);
                    }
                    self.halfmoves = 0;
                }
                self.board.take(from, us, role);
                self.board.put(to, us, promotion.unwrap_or(role));
                if role == Role::Pawn {
                    self.halfmoves = 0;
                    if from.index().abs_diff(to.index()) == 16 {
                        let ep = Square::new(((from.index() + to.index()) / 2) as u32);
                        if (attacks::pawn(us, ep) & self.board.pawns() & self.board.by_color(them))
                            .any()
                        {
                            self.ep_square = Some(ep);
                        }
                    }
                } else if role == Role::King {
                    self.castling -= Bitboard::rank(Rank::First.relative_to(us));
                }
                self.castling -= Bitboard::from(from) | to;
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.board.take(captured, them, Role::Pawn);
                self.board.take(from, us, Role::Pawn);
                self.board.put(to, us, Role::Pawn);
                self.halfmoves = 0;
            }
            Move::Castle { king, rook } => {
                let side = m.castling_side().unwrap_or(CastlingSide::KingSide);
                self.board.take(king, us, Role::King);
                self.board.take(rook, us, Role::Rook);
                self.board.put(side.king_to(us), us, Role::King);
                self.board.put(side.rook_to(us), us, Role::Rook);
                self.castling -= Bitboard::rank(Rank::First.relative_to(us));
            }
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` plies (bulk counting: the
/// last ply is counted without being played).
///
/// ```
/// use cajitas_rules::{perft, Position};
/// assert_eq!(perft(&Position::new(), 3), 8_902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth <= 1 {
        return if depth == 0 {
            1
        } else {
            pos.count_legal_moves()
        };
    }
    // One move list per ply, made once: nothing is allocated or cleared in the loop.
    let mut lists = vec![MoveList::new(); depth as usize - 1];
    perft_inner(pos, depth, &mut lists)
}

fn perft_inner(pos: &Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    let Some((list, rest)) = lists.split_first_mut() else {
        return pos.count_legal_moves();
    };
    list.clear();
    pos.generate(list);
    let mut total = 0;
    if depth == 2 {
        for &m in list.iter() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            total += child.count_legal_moves();
        }
    } else {
        for &m in list.iter() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            total += perft_inner(&child, depth - 1, rest);
        }
    }
    total
}
