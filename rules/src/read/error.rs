//! The errors of the move reader, as data. Their texts live in [`crate::messages`].

use crate::{CastlingSide, File, Rank, Role, San, Square};

/// Why a typed move could not be played: the kind of problem, plus up to three legal moves the
/// player may have meant.
///
/// `Display` gives a message a player understands, in English (the texts live in one module,
/// `messages`, so the bot can translate them later).
///
/// # Suggestions
///
/// [`suggestions`](ReadError::suggestions) holds at most three legal moves in standard SAN,
/// never an illegal one, ranked by:
///
/// 1. moves of the same piece to the same destination as the text read (under any of its
///    readings; for coordinates, "the same piece" is the one on the origin square) first, then
///    other moves of the same piece, then the rest;
/// 2. then the smaller edit distance (Levenshtein, ignoring case) between the text typed (its
///    annotations removed, a Spanish letter or a figurine written as the English letter) and the
///    move's SAN;
/// 3. then the smaller king-step distance between the move's destination and the one typed;
/// 4. then queen, rook, bishop, knight for promotions, then alphabetical SAN.
///
/// A move that is not the same piece to the same destination is only suggested when it is
/// within `max(2, length / 2)` edits of the text. An empty, too long or null move gets no
/// suggestion.
///
/// ```
/// use cajitas_rules::{read_move, Lang, Position, ReadErrorKind};
/// let pos = Position::new();
/// let err = read_move(&pos, "Nf4", Lang::En).unwrap_err();
/// assert!(matches!(err.kind, ReadErrorKind::Illegal { .. }));
/// assert_eq!(err.suggestions, ["Nf3", "Nh3", "Nc3"]);
/// assert_eq!(err.to_string(), "No knight can reach f4. Did you mean Nf3, Nh3 or Nc3?");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// What went wrong.
    pub kind: ReadErrorKind,
    /// Up to three legal moves in SAN, best first (see the ranking above). Each prints in
    /// English with `Display`, in Spanish letters or figurines with
    /// [`San::display`](crate::San::display).
    pub suggestions: Vec<San>,
}

impl std::error::Error for ReadError {}

/// The kinds of [`ReadError`].
///
/// ```
/// use cajitas_rules::{read_move, Lang, Position, ReadErrorKind};
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
/// let err = read_move(&pos, "Nd2", Lang::En).unwrap_err();
/// let candidates = vec!["Nbd2".parse().unwrap(), "Nfd2".parse().unwrap()];
/// assert_eq!(err.kind, ReadErrorKind::Ambiguous { candidates });
/// assert_eq!(err.kind.to_string(), "ambiguous: it could be Nbd2 or Nfd2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// The text is not a move in any notation the reader knows.
    Malformed {
        /// What was not understood.
        problem: Malformed,
    },
    /// The text is a move, but no legal move matches it.
    Illegal {
        /// Why, as precisely as the position can tell.
        reason: IllegalReason,
    },
    /// More than one legal move matches.
    Ambiguous {
        /// Every matching legal move, in standard SAN, sorted by their English text.
        candidates: Vec<San>,
    },
    /// A pawn reaches the last rank but the text names no piece to promote to.
    IncompletePromotion {
        /// The square the pawn reaches.
        to: Square,
        /// The pieces that can be chosen, queen first.
        choices: Vec<Role>,
    },
}

/// What the reader did not understand in a malformed move.
///
/// ```
/// use cajitas_rules::{read_move, Lang, Malformed, Position, ReadErrorKind};
/// let err = read_move(&Position::new(), "Z0", Lang::En).unwrap_err();
/// assert_eq!(err.kind, ReadErrorKind::Malformed { problem: Malformed::NullMove });
/// assert_eq!(Malformed::NoDestination.to_string(), "no destination square found: a move names one, like e4");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Malformed {
    /// Nothing but spaces was typed.
    Empty,
    /// Longer than any move could be.
    TooLong {
        /// The limit, in characters, after trimming surrounding spaces.
        max: usize,
    },
    /// A null move such as `--` or `Z0`: not a move in a game.
    NullMove,
    /// The first letter is neither a file nor a piece letter.
    UnknownPiece {
        /// The letter typed.
        letter: char,
    },
    /// No destination square (like `e4`) could be found.
    NoDestination,
    /// Extra words after the move (annotations and `e.p.` are fine).
    TrailingText {
        /// The first unexpected word (capped in length).
        text: String,
    },
    /// Anything else the reader could not make sense of.
    Unreadable,
}

/// Why a well-formed move is not legal in the position.
///
/// ```
/// use cajitas_rules::{read_move, IllegalReason, Lang, Position, ReadErrorKind, Role, Square};
/// let pos = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
/// let err = read_move(&pos, "Nc3", Lang::En).unwrap_err();
/// let reason = IllegalReason::Pinned { role: Role::Knight, square: Square::E2 };
/// assert_eq!(err.kind, ReadErrorKind::Illegal { reason: reason.clone() });
/// assert_eq!(reason.to_string(), "the knight on e2 is pinned");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The side to move has no legal move at all: the game is over.
    NoLegalMoves,
    /// The side to move has no piece of that kind.
    NoSuchPiece {
        /// The piece named.
        role: Role,
    },
    /// No piece of that kind (on the given file or rank, if any) can reach the square.
    CannotReach {
        /// The piece named.
        role: Role,
        /// The file hint typed, if any.
        from_file: Option<File>,
        /// The rank hint typed, if any.
        from_rank: Option<Rank>,
        /// The destination.
        to: Square,
    },
    /// The origin square given is empty.
    EmptySquare {
        /// The square typed as origin.
        square: Square,
    },
    /// The origin square holds an opponent's piece.
    NotYourPiece {
        /// The square typed as origin.
        square: Square,
        /// The opponent's piece there.
        role: Role,
    },
    /// The origin square holds another kind of piece than the letter named.
    WrongPiece {
        /// The square typed as origin.
        square: Square,
        /// The piece that stands there.
        found: Role,
        /// The piece the letter named.
        named: Role,
    },
    /// One of the mover's own pieces stands on the destination.
    OwnPieceThere {
        /// The destination.
        square: Square,
        /// The piece that stands there.
        role: Role,
    },
    /// A pawn move without its file (`c4`, `xc4`, `Pc4`) is only a move straight ahead: no
    /// pawn can move straight to the square, but one can capture there. A pawn capture
    /// names the pawn's file (`dxc4`), so that `c4` is never read as `dxc4`.
    PawnCaptureWithoutFile {
        /// The square typed.
        to: Square,
    },
    /// The only pieces that could make the move are pinned to their king.
    Pinned {
        /// The piece.
        role: Role,
        /// Where it stands.
        square: Square,
    },
    /// The player is in check and the move does not get out of it.
    InCheck,
    /// The move would leave or put the player's own king in check.
    KingWouldBeInCheck,
    /// Castling is not possible.
    Castle {
        /// The side asked for.
        side: CastlingSide,
        /// Why not.
        problem: CastleProblem,
    },
    /// A promotion piece was named for a move that is not a pawn reaching the last rank.
    NotAPromotion,
    /// A pawn may only promote to a queen, rook, bishop or knight.
    CannotPromoteTo {
        /// The piece named.
        role: Role,
    },
    /// The position could not say more precisely.
    NotLegal,
}

/// Why castling is not possible.
///
/// ```
/// use cajitas_rules::{read_move, CastleProblem, CastlingSide, IllegalReason, Lang, Position, ReadErrorKind};
/// let pos = Position::from_fen("4k3/5r2/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
/// let err = read_move(&pos, "O-O", Lang::En).unwrap_err();
/// let reason = IllegalReason::Castle {
///     side: CastlingSide::KingSide,
///     problem: CastleProblem::ThroughAttackedSquare,
/// };
/// assert_eq!(err.kind, ReadErrorKind::Illegal { reason });
/// assert!(err.to_string().starts_with("Cannot castle through an attacked square."));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastleProblem {
    /// The king has left its square (or every castling right is gone).
    KingMoved,
    /// The rook of that side has moved (or that side's castling right is gone).
    RookMoved,
    /// Pieces stand between the king and the rook.
    PiecesInTheWay,
    /// The king is in check.
    OutOfCheck,
    /// The king would pass through a square the opponent attacks.
    ThroughAttackedSquare,
    /// The king would land in check.
    IntoCheck,
}
