//! What the service returns to the front ends: users, places, challenges, games, history.

use cajitas_rules::{Color, DrawClaim, Lang, Move, Outcome, Position};

use super::{ClockView, MAX_NAME_CHARS, TimeControl};
use crate::store::{ChallengeRow, ColourPick, UserRow};

/// A place where games are played: a Discord channel or thread (or the console's `local`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChannelRef {
    /// The guild (server), if any.
    pub guild: Option<u64>,
    /// The channel or thread id.
    pub channel: u64,
}

impl ChannelRef {
    /// A channel (or thread) of a guild, or of none.
    pub fn new(guild: Option<u64>, channel: u64) -> ChannelRef {
        ChannelRef { guild, channel }
    }
}

/// Where a challenge is made or answered, as the front end knows it: the channel or thread
/// of the interaction, the channel a thread belongs to, and whether a game accepted here gets
/// a thread of its own. The service knows no Discord: these are the facts it decides with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    /// The channel or thread where it happens.
    pub at: ChannelRef,
    /// When `at` is a thread: the channel it belongs to. A game accepted in a thread is
    /// played in that thread (threads cannot nest).
    pub parent: Option<u64>,
    /// Whether a game accepted here is played in a thread of its own, opened by the front
    /// end (a channel where it may open threads). Without: one game and one pending
    /// challenge at a time in the channel, as in the console.
    pub threads: bool,
}

impl Place {
    /// A channel where games are played in the channel itself (no threads).
    pub fn plain(at: ChannelRef) -> Place {
        Place {
            at,
            parent: None,
            threads: false,
        }
    }

    /// A channel where each game gets a thread of its own.
    pub fn with_threads(at: ChannelRef) -> Place {
        Place {
            at,
            parent: None,
            threads: true,
        }
    }

    /// The thread `at` of the channel `parent`: a game accepted here is played here.
    pub fn thread(at: ChannelRef, parent: u64) -> Place {
        Place {
            at,
            parent: Some(parent),
            threads: false,
        }
    }
}

impl From<ChannelRef> for Place {
    fn from(at: ChannelRef) -> Place {
        Place::plain(at)
    }
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
pub use crate::vocab::ChallengeStatus as ChallengeState;

/// A challenge, as the front ends show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeView {
    /// Its id (front ends put it in button ids, see [`Challenges::accept_challenge`](super::Challenges::accept_challenge)).
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
    /// Where it was made (a channel, or a thread).
    pub channel: u64,
    /// The message showing it, once known (the game's thread is opened on it).
    pub message: Option<u64>,
    /// The time control offered.
    pub time: TimeControl,
    /// Whether its game counts for the ratings.
    pub rated: bool,
    /// Standard chess or Chess960 (from which start position).
    pub variant: super::Variant,
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
            channel: c.channel,
            message: c.message,
            time: TimeControl::from_row(c.tc),
            rated: c.rated,
            // The column's CHECK keeps it in 0..960.
            variant: super::Variant::from_db(c.chess960).unwrap_or_default(),
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
    /// The position it started from.
    pub start: Position,
    /// The moves played from [`GameView::start`] (a move written with a draw claim but not
    /// played is not among them).
    pub moves: Vec<Move>,
    /// The guild, if any.
    pub guild: Option<u64>,
    /// Its channel: where it was challenged, and where its summary goes when it ends.
    pub channel: u64,
    /// The thread it is played in; `None`: in the channel itself.
    pub thread: Option<u64>,
    /// The clock: the time control, both remaining times and the deadline.
    pub clock: ClockView,
    /// Whether the game counts for the ratings (chosen with the challenge).
    pub rated: bool,
    /// Standard chess or Chess960 (from which start position).
    pub variant: super::Variant,
    /// The players' rating changes, in the view returned by the operation that ended a
    /// rated game (empty otherwise).
    pub rating_changes: Vec<super::ratings::RatingChange>,
    /// Its opening in lichess's table, named by its last position there (`None` for a game
    /// from a setup, or one that never reached a named position).
    pub opening: Option<crate::openings::InBook>,
    /// What a tournament game scored each side, in the view returned by the operation that
    /// ended it (`None` otherwise).
    pub tournament: Option<super::PairingPoints>,
}

impl GameView {
    /// Whether `user` plays this game and it is still in progress.
    pub fn in_progress_for(&self, user: u64) -> bool {
        !self.finished && (self.white.id == user || self.black.id == user)
    }

    /// The user playing `colour`.
    pub fn player(&self, colour: Color) -> &UserRef {
        match colour {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The game's moves so far, in SAN (as stored: the rules' SAN with its check mark),
    /// written when asked: a view is made for every move, these are read for an analysis
    /// link or a console line.
    pub fn sans(&self) -> Vec<String> {
        san_line(self.start.clone(), &self.moves)
    }

    /// The game on lichess's analysis board: its moves, or its position when the moves do
    /// not fit in a link button (see [`super::analysis`]).
    pub fn analysis_url(&self) -> String {
        super::analysis::lichess_url(self.variant, &self.sans(), &self.position.fen())
    }

    /// Where its messages go: its thread, or its channel.
    pub fn place(&self) -> ChannelRef {
        ChannelRef {
            guild: self.guild,
            channel: self.thread.unwrap_or(self.channel),
        }
    }

    /// Its channel (the thread's parent, when it has a thread).
    pub fn home(&self) -> ChannelRef {
        ChannelRef {
            guild: self.guild,
            channel: self.channel,
        }
    }

    /// Whether it is played somewhere else than `here` (a command typed in the parent
    /// channel that acted on the game of a thread).
    pub fn elsewhere_than(&self, here: ChannelRef) -> bool {
        self.place().channel != here.channel
    }

    /// The user to move.
    pub fn player_to_move(&self) -> &UserRef {
        self.player(self.to_move)
    }

    /// Where the game stands, as facts; `i18n::status::status_line` words them for each front
    /// end.
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
    /// The notices the move's commit calls for (a mate in a thread's game: its summary in
    /// the channel), for the caller to post (see [`super::Done`]).
    pub notices: Vec<super::Notice>,
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

/// SAN of each move of `line` from `pos`, in English (with its check mark): a game's moves
/// for its view, a puzzle's solution.
pub(super) fn san_line(mut pos: Position, line: &[Move]) -> Vec<String> {
    line.iter()
        .map(|&m| {
            let san = cajitas_rules::SanPlus::from_move(&pos, m).to_string();
            pos.play(m);
            san
        })
        .collect()
}
