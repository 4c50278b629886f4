//! Every way the game service can say no, and its unexpected failures.
//!
//! A refusal's words are not here: `crate::i18n` words each variant in the player's
//! language, and `GameError`'s `Display` (for logs) is its English there, written once.

use cajitas_rules::ReadError;

use super::NotifyError;
use crate::store::StoreError;

/// Why an operation of the [`GameService`](super::GameService) did nothing.
///
/// Every variant but [`GameError::Failed`] is a refusal: the message is for the player
/// (worded by `crate::i18n`, whose English is also this type's `Display`), and the database
/// is unchanged. `Failed` is an unexpected failure: front
/// ends apologise to the user and log it with its cause chain ([`GameError::chain`]).
#[derive(Debug)]
pub enum GameError {
    /// There is no game in this channel at all.
    NoGame,
    /// The channel's last game has ended.
    GameOver,
    /// The actor is not one of the two players.
    NotAPlayer,
    /// The actor is a player, but the other side is to move.
    NotYourTurn,
    /// The position (or the challenge) changed since the actor last saw it: they lost a race
    /// with another move, or pressed a button from an older message.
    PositionChanged,
    /// The move could not be read or is not legal here; carries the reader's suggestions.
    Move(ReadError),
    /// A user-typed string is too long.
    TooLong {
        /// What was too long ("move").
        what: &'static str,
        /// The limit, in characters.
        max: usize,
    },
    /// The move text is empty.
    EmptyMove,
    /// No pending challenge in this channel.
    NoChallenge,
    /// The pending challenge timed out.
    ChallengeExpired,
    /// The challenge this button belongs to was already answered.
    ChallengeClosed(&'static str),
    /// A user challenged themselves.
    CannotChallengeSelf,
    /// A user challenged a bot account.
    CannotChallengeBot,
    /// A bot account tried to accept a challenge.
    BotCannotPlay,
    /// A challenge is already waiting in this channel.
    ChallengePending,
    /// A game is already being played in this channel.
    GameInProgress,
    /// The actor is not the one who was challenged.
    NotChallenged,
    /// The challenger tried to accept or decline their own challenge.
    OwnChallenge,
    /// The actor made the bot ping the same person too often (challenges, draw offers).
    TooManyPings {
        /// Seconds until the oldest ping of the window leaves it.
        wait_secs: u64,
    },
    /// Someone tried to decline an open challenge (addressed to nobody).
    OpenChallengeDecline,
    /// Someone other than the challenger tried to cancel a challenge.
    NotChallenger,
    /// The actor already has a draw offer standing.
    DrawAlreadyOffered,
    /// No draw offer is standing.
    NoDrawOffer,
    /// The actor tried to answer their own draw offer.
    OwnDrawOffer,
    /// A draw claim was made but no claim is valid now.
    NothingToClaim,
    /// A draw claim was written with a move, but neither the position now nor the one after
    /// the move qualifies. The move was not played.
    NothingToClaimWith(String),
    /// Only the player to move can claim a draw (FIDE 9.2, 9.3).
    ClaimNotYourTurn,
    /// Abort was asked after both players moved.
    AbortTooLate,
    /// A takeback was asked by a player who has no move to take back.
    NothingToTakeBack,
    /// No takeback request is standing.
    NoTakeback,
    /// The actor tried to answer their own takeback request.
    OwnTakeback,
    /// A challenge typed in a game's thread: challenges go to the channel (threads cannot
    /// nest).
    InGameThread {
        /// The thread's channel.
        parent: u64,
    },
    /// A command typed in a channel where the actor plays several games, each in its thread.
    SeveralGames {
        /// The games' threads (at most [`MAX_LINKS`](crate::game::MAX_LINKS)).
        threads: Vec<u64>,
    },
    /// A command typed in a channel whose games are played in their threads, none of them
    /// the actor's.
    GamesInThreads {
        /// The games' threads (at most [`MAX_LINKS`](crate::game::MAX_LINKS)).
        threads: Vec<u64>,
    },
    /// `/play` by a person who already plays as many games against the engine in this server
    /// as they may (`CAJITAS_ENGINE_GAMES_PER_USER`).
    TooManyEngineGames {
        /// How many they may have.
        limit: u32,
        /// Where those games are played: their threads, or their channels (at most
        /// [`MAX_LINKS`](crate::game::MAX_LINKS)).
        places: Vec<u64>,
    },
    /// `accept` or `decline` without saying which, with several challenges to choose from.
    SeveralChallenges,
    /// The player to move's time had run out when this action arrived: the game ended on
    /// time in the same transaction, and the action was not applied.
    TimeRanOut {
        /// The notices the ending's commit calls for (a thread's game: its summary in the
        /// channel), for the caller to post as after any ending (see
        /// [`Done`](super::Done)).
        notices: Vec<super::Notice>,
    },
    /// A win or draw was claimed in a timed game (timed games end on their own).
    ClaimNotUntimed,
    /// A win or draw was claimed in a game against the engine (it never abandons a game).
    ClaimAgainstEngine,
    /// A win or draw was claimed by the player to move (only the waiting player may).
    ClaimOwnTurn,
    /// A win or draw was claimed before the opponent's time to move had passed.
    ClaimTooEarly {
        /// When the game may be claimed (Unix ms).
        at_ms: i64,
        /// When the claim was refused (Unix ms): the console says how long is left.
        as_of_ms: i64,
    },
    /// Takebacks are refused in rated games.
    TakebackInRatedGame,
    /// There is no finished game in this channel to analyse.
    NoFinishedGame,
    /// The actor has no puzzle open in this place.
    NoPuzzle,
    /// No puzzle has this id.
    UnknownPuzzle(String),
    /// No puzzle has this theme.
    UnknownTheme(String),
    /// The actor has seen every puzzle asked for (the theme's, or all).
    NoPuzzleLeft,
    /// A Puzzle Streak gives no hints.
    NoHintInStreak,
    /// The server has no daily puzzle today (none set, not posted yet, or a past day's).
    NoDailyPuzzle,
    /// A daily puzzle's hour must be 0 to 23 (UTC).
    DailyHourRange,
    /// A puzzle rating asked for is outside the range puzzles have.
    PuzzleRatingRange {
        /// The lowest accepted.
        min: i32,
        /// The highest accepted.
        max: i32,
    },
    /// There is no tournament open in this channel.
    NoTournament,
    /// A tournament is already open in this channel (one at a time).
    TournamentInChannel,
    /// An arena lasts one of the offered durations.
    ArenaDuration {
        /// The durations offered, in minutes.
        allowed: &'static [u32],
    },
    /// An arena's games are played on a live clock.
    ArenaNeedsLiveClock,
    /// The actor has not joined this tournament (or has left it).
    NotInTournament,
    /// The tournament is over.
    TournamentOver,
    /// The actor has no arena game in progress.
    NoArenaGame,
    /// Berserk comes before one's first move, once.
    BerserkTooLate,
    /// A tournament game cannot be aborted: a player who does not move loses it.
    AbortInTournament,
    /// A round robin takes this many players.
    RoundRobinPlayers {
        /// The fewest.
        min: usize,
        /// The most.
        max: usize,
    },
    /// A round robin's player was named twice.
    RoundRobinTwice,
    /// Something went wrong on our side (not a refusal): front ends apologise to the user
    /// and log the failure with its cause chain.
    Failed(Failure),
}

/// An unexpected failure of the service, by where it came from; its cause is its
/// [`source`](std::error::Error::source), so a log shows the whole chain.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The store failed (its own message says how).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game that the rules cannot rebuild or end as recorded (a damaged database),
    /// or a move the rules refused after their reader accepted it: what was being done, and
    /// the rules' reason when they gave one.
    #[error("{what}")]
    Rules {
        /// What was being done ("game 5: ply 3 \"e2e4\"").
        what: String,
        /// The rules' error.
        #[source]
        cause: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// A row the operation wrote or read a moment ago is gone ("game 5").
    #[error("{0} vanished")]
    Vanished(String),
    /// A post the operation needed could not be delivered.
    #[error("{what}")]
    Notify {
        /// What was posted ("rematch not posted").
        what: &'static str,
        /// Why not.
        #[source]
        cause: NotifyError,
    },
}

impl Failure {
    /// The rules refused `what`, with their error `cause`.
    pub(crate) fn rules(
        what: impl Into<String>,
        cause: impl std::error::Error + Send + Sync + 'static,
    ) -> Failure {
        Failure::Rules {
            what: what.into(),
            cause: Some(Box::new(cause)),
        }
    }

    /// A stored game is not what the rules can play (`what` says how).
    pub(crate) fn bad_game(what: impl Into<String>) -> Failure {
        Failure::Rules {
            what: what.into(),
            cause: None,
        }
    }
}

impl GameError {
    /// Whether this is a refusal (the user did something not allowed) rather than an
    /// unexpected failure. False only for [`GameError::Failed`].
    pub fn is_refusal(&self) -> bool {
        !matches!(self, GameError::Failed(_))
    }

    /// The error and its causes, `: `-separated (for a log, or the console's apology).
    pub fn chain(&self) -> String {
        let mut text = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(c) = cause {
            text.push_str(": ");
            text.push_str(&c.to_string());
            cause = c.source();
        }
        text
    }
}

/// The cause of a failure is its [`Failure`]; a refusal has none.
impl std::error::Error for GameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameError::Failed(f) => Some(f),
            _ => None,
        }
    }
}

impl From<Failure> for GameError {
    fn from(f: Failure) -> Self {
        GameError::Failed(f)
    }
}

impl From<StoreError> for GameError {
    fn from(e: StoreError) -> Self {
        GameError::Failed(Failure::Store(e))
    }
}
