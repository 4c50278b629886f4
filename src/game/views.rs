//! What the service returns to the front ends: users, places, challenges, games, history.

use cajitas_rules::{Color, DrawClaim, Lang, Move, Outcome, Position};

use super::MAX_NAME_CHARS;
use crate::store::{ChallengeRow, ColourPick, UserRow};

/// A place where games are played: a Discord channel or thread (or the console's `local`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChannelRef {
    /// The guild (server), if any.
    pub guild: Option<u64>,
    /// The channel or thread id.
    pub channel: u64,
}

/// A user as the front end sees them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UserRef {
    /// The Discord user id (local users get an id derived from their name).
    pub id: u64,
    /// The display name (capped at [`MAX_NAME_CHARS`]).
    pub name: String,
    /// Whether the account is a bot.
    pub is_bot: bool,
}

impl UserRef {
    /// A user, with the name capped at [`MAX_NAME_CHARS`] characters.
    pub fn new(id: u64, name: &str, is_bot: bool) -> UserRef {
        UserRef {
            id,
            name: cap_name(name),
            is_bot,
        }
    }

    pub(super) fn capped(&self) -> UserRow {
        UserRow {
            id: self.id,
            name: cap_name(&self.name),
            is_bot: self.is_bot,
        }
    }
}

pub(super) fn cap_name(name: &str) -> String {
    let name: String = name.trim().chars().take(MAX_NAME_CHARS).collect();
    if name.is_empty() {
        "?".to_owned()
    } else {
        name
    }
}

impl From<UserRow> for UserRef {
    fn from(u: UserRow) -> Self {
        UserRef {
            id: u.id,
            name: u.name,
            is_bot: u.is_bot,
        }
    }
}

/// The colour the challenger asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ColourChoice {
    /// The challenger plays white.
    White,
    /// The challenger plays black.
    Black,
    /// Decided by a coin toss when the challenge is accepted.
    #[default]
    Random,
}

impl ColourChoice {
    pub(super) fn to_db(self) -> ColourPick {
        match self {
            ColourChoice::White => ColourPick::White,
            ColourChoice::Black => ColourPick::Black,
            ColourChoice::Random => ColourPick::Random,
        }
    }

    pub(super) fn from_db(c: ColourPick) -> Self {
        match c {
            ColourPick::White => ColourChoice::White,
            ColourPick::Black => ColourChoice::Black,
            ColourPick::Random => ColourChoice::Random,
        }
    }
}

/// Where a challenge stands.
pub use crate::store::ChallengeStatus as ChallengeState;

/// A challenge, as the front ends show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeView {
    /// Its id (front ends put it in button ids, see [`GameService::accept_challenge`](super::GameService::accept_challenge)).
    pub id: i64,
    /// Who challenged.
    pub challenger: UserRef,
    /// Whom; `None` for an open challenge.
    pub opponent: Option<UserRef>,
    /// The challenger's colour.
    pub colour: ColourChoice,
    /// Where it stands after the operation.
    pub status: ChallengeState,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// When it expires (Unix ms).
    pub expires_at: i64,
}

impl ChallengeView {
    pub(super) fn from_row(c: ChallengeRow) -> Self {
        ChallengeView {
            id: c.id,
            challenger: c.challenger.into(),
            opponent: c.opponent.map(Into::into),
            colour: ColourChoice::from_db(c.colour),
            status: c.status,
            created_at: c.created_at,
            expires_at: c.expires_at,
        }
    }
}

/// A takeback request and the game it is about, after an operation on it.
#[derive(Debug, Clone)]
pub struct TakebackView {
    /// The game after the operation (rewound, when the request was accepted).
    pub game: GameView,
    /// Who asked.
    pub by: Color,
    /// How many plies it takes back (1 or 2).
    pub plies: u32,
    /// The game's ply when it was asked (the ply a button carries).
    pub ply: u32,
    /// Whether it was granted at once, the game already rewound (against the engine).
    pub granted: bool,
}

/// Everything a front end shows after an operation on a game.
#[derive(Debug, Clone)]
pub struct GameView {
    /// The game's id.
    pub game_id: i64,
    /// The language of the game's posts that no interaction causes (moves typed as
    /// messages, notices).
    pub lang: Lang,
    /// White.
    pub white: UserRef,
    /// Black.
    pub black: UserRef,
    /// The current position.
    pub position: Position,
    /// Plies played.
    pub ply: u32,
    /// The move number of the position (FEN fullmove).
    pub fullmove: u32,
    /// The last move played.
    pub last_move: Option<Move>,
    /// The last move played, in SAN.
    pub last_san: Option<String>,
    /// The side to move.
    pub to_move: Color,
    /// Whether the side to move is in check.
    pub check: bool,
    /// How the game ended, when it did (`None` while playing, and for an aborted game).
    pub outcome: Option<Outcome>,
    /// The draws the player to move may claim, now or together with one of their moves
    /// (empty once the game is over).
    pub claimable: Vec<DrawClaim>,
    /// The draws the player to move may claim now, without a move (`draw_claim`).
    pub claimable_now: Vec<DrawClaim>,
    /// Who has a draw offer standing.
    pub draw_offer_by: Option<Color>,
    /// Material, white minus black, pawn = 1, knight and bishop = 3, rook = 5, queen = 9.
    pub material: i32,
    /// Whether the game is over (finished or aborted).
    pub finished: bool,
    /// Whether the game was aborted (ended without a result).
    pub aborted: bool,
    /// The PGN result: "1-0", "0-1", "1/2-1/2", or "*" while playing or when aborted.
    pub result: String,
    /// The game's moves so far, in SAN.
    pub sans: Vec<String>,
}

impl GameView {
    /// The user playing `colour`.
    pub fn player(&self, colour: Color) -> &UserRef {
        match colour {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The game on lichess's analysis board: its moves, or its position when the moves do
    /// not fit in a link button (see [`super::analysis`]).
    pub fn analysis_url(&self) -> String {
        super::analysis::lichess_analysis_url(
            &self.sans,
            &self.position.fen(),
            super::analysis::LINK_URL_MAX,
        )
    }

    /// The user to move.
    pub fn player_to_move(&self) -> &UserRef {
        self.player(self.to_move)
    }

    /// Where the game stands, as facts; each front end words them (`console::status_line`,
    /// `discord::view::status`).
    pub fn status(&self) -> Status<'_> {
        if self.aborted {
            return Status::Aborted;
        }
        if let Some(outcome) = self.outcome {
            return Status::Over {
                outcome,
                result: &self.result,
            };
        }
        Status::Playing {
            fullmove: self.fullmove,
            to_move: self.to_move,
            check: self.check,
            draw_offer_by: self.draw_offer_by,
            claimable_now: &self.claimable_now,
            claimable: &self.claimable,
        }
    }

    /// The side at the bottom of the board picture: the player to move; once the game is
    /// over, the winner, or white when there is none.
    pub fn orientation(&self) -> Color {
        if self.finished {
            self.outcome
                .and_then(|o| o.winner())
                .unwrap_or(Color::White)
        } else {
            self.to_move
        }
    }
}

/// Where a game stands, as [`GameView::status`] gives it: the facts a status line says,
/// without the words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status<'a> {
    /// The game was aborted: it ended without a result.
    Aborted,
    /// The game is over.
    Over {
        /// How it ended.
        outcome: Outcome,
        /// The PGN result ("1-0", "0-1", "1/2-1/2").
        result: &'a str,
    },
    /// The game goes on.
    Playing {
        /// The move number (FEN fullmove).
        fullmove: u32,
        /// The side to move.
        to_move: Color,
        /// Whether the side to move is in check.
        check: bool,
        /// Who has a draw offer standing.
        draw_offer_by: Option<Color>,
        /// The draws the player to move may claim now, without a move.
        claimable_now: &'a [DrawClaim],
        /// The draws the player to move may claim, now or together with one of their moves.
        claimable: &'a [DrawClaim],
    },
}

/// The result of a move.
#[derive(Debug, Clone)]
pub struct MoveResult {
    /// The game after the move (or after the claim).
    pub view: GameView,
    /// The move in SAN (with `+`/`#`).
    pub san: String,
    /// The draw claimed together with the move, if any: then the game ended drawn and the
    /// move was written but not played (FIDE 9.2/9.3).
    pub claimed: Option<DrawClaim>,
}

/// A finished game in a channel's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The game's id.
    pub game_id: i64,
    /// White.
    pub white: UserRef,
    /// Black.
    pub black: UserRef,
    /// "1-0", "0-1" or "1/2-1/2".
    pub result: String,
    /// How it ended.
    pub outcome: Option<Outcome>,
    /// Why it ended, as a stable identifier ("checkmate", "agreement", ...).
    pub termination: String,
    /// Plies played.
    pub plies: u32,
    /// When it started (Unix ms).
    pub started_at: i64,
    /// When it ended (Unix ms).
    pub finished_at: i64,
}
