//! Every way the game service can say no, each with its own message.

use cajitas_rules::ReadError;

use super::NotifyError;
use crate::store::StoreError;

/// Why an operation of the [`GameService`](super::GameService) did nothing.
///
/// Every variant but [`GameError::Failed`] is a refusal: the message is for the player, in
/// plain English, and the database is unchanged. `Failed` is an unexpected failure: front
/// ends apologise to the user and log it with its cause chain ([`GameError::chain`]).
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// There is no game in this channel at all.
    #[error("There is no game in this channel. Start one with `challenge`.")]
    NoGame,
    /// The channel's last game has ended.
    #[error("The game in this channel is already over. Start a new one with `challenge`.")]
    GameOver,
    /// The actor is not one of the two players.
    #[error("You are not playing in this game.")]
    NotAPlayer,
    /// The actor is a player, but the other side is to move.
    #[error("It is not your turn: wait for your opponent's move.")]
    NotYourTurn,
    /// The position (or the challenge) changed since the actor last saw it: they lost a race
    /// with another move, or pressed a button from an older message.
    #[error(
        "The position changed before your action arrived (this button or move is out of date). Look at the board and try again."
    )]
    PositionChanged,
    /// The move could not be read or is not legal here; carries the reader's suggestions.
    #[error("{0}")]
    Move(ReadError),
    /// A user-typed string is too long.
    #[error("The {what} is too long (at most {max} characters).")]
    TooLong {
        /// What was too long ("move").
        what: &'static str,
        /// The limit, in characters.
        max: usize,
    },
    /// The move text is empty.
    #[error("Type a move, for example `e4`, `Nf3`, `Cf3` or `e2e4`.")]
    EmptyMove,
    /// No pending challenge in this channel.
    #[error("There is no pending challenge in this channel.")]
    NoChallenge,
    /// The pending challenge timed out.
    #[error("That challenge has expired. Send a new one with `challenge`.")]
    ChallengeExpired,
    /// The challenge this button belongs to was already answered.
    #[error("That challenge was already {0}.")]
    ChallengeClosed(&'static str),
    /// A user challenged themselves.
    #[error("You cannot challenge yourself. Name an opponent, or leave it open for anyone.")]
    CannotChallengeSelf,
    /// A user challenged a bot account.
    #[error("Bots cannot play. Challenge a person, or leave the challenge open.")]
    CannotChallengeBot,
    /// A bot account tried to accept a challenge.
    #[error("Bot accounts cannot play.")]
    BotCannotPlay,
    /// A challenge is already waiting in this channel.
    #[error("A challenge is already waiting for an answer in this channel.")]
    ChallengePending,
    /// A game is already being played in this channel.
    #[error(
        "A game is already in progress in this channel. One game per channel: finish it first, or play in another channel or thread."
    )]
    GameInProgress,
    /// The actor is not the one who was challenged.
    #[error("This challenge is not addressed to you.")]
    NotChallenged,
    /// The challenger tried to accept or decline their own challenge.
    #[error("You cannot answer your own challenge (use `cancel` to withdraw it).")]
    OwnChallenge,
    /// The actor made the bot ping the same person too often (challenges, draw offers).
    #[error(
        "You have pinged that player {limit} times in the last 10 minutes. Try again in {wait_secs} s.",
        limit = crate::game::PING_LIMIT
    )]
    TooManyPings {
        /// Seconds until the oldest ping of the window leaves it.
        wait_secs: u64,
    },
    /// Someone tried to decline an open challenge (addressed to nobody).
    #[error(
        "This challenge is open to anyone, so it cannot be declined: ignore it, or accept it to play. Only the challenger can withdraw it."
    )]
    OpenChallengeDecline,
    /// Someone other than the challenger tried to cancel a challenge.
    #[error("Only the challenger can cancel this challenge.")]
    NotChallenger,
    /// The actor already has a draw offer standing.
    #[error("You have already offered a draw; wait for your opponent's answer.")]
    DrawAlreadyOffered,
    /// No draw offer is standing.
    #[error("There is no draw offer to answer.")]
    NoDrawOffer,
    /// The actor tried to answer their own draw offer.
    #[error("You cannot answer your own draw offer; your opponent must.")]
    OwnDrawOffer,
    /// A draw claim was made but no claim is valid now.
    #[error(
        "No draw can be claimed now: the position has not occurred three times and the 50-move rule is not met."
    )]
    NothingToClaim,
    /// A draw claim was written with a move, but neither the position now nor the one after
    /// the move qualifies. The move was not played.
    #[error(
        "No draw can be claimed with {0}: neither threefold repetition nor the 50-move rule would apply. The move was not played."
    )]
    NothingToClaimWith(String),
    /// Only the player to move can claim a draw (FIDE 9.2, 9.3).
    #[error("Only the player to move can claim a draw.")]
    ClaimNotYourTurn,
    /// Abort was asked after both players moved.
    #[error("Too late to abort: both players have moved. You can resign or offer a draw.")]
    AbortTooLate,
    /// A takeback was asked by a player who has no move to take back.
    #[error("You have no move to take back.")]
    NothingToTakeBack,
    /// No takeback request is standing.
    #[error("There is no takeback request to answer.")]
    NoTakeback,
    /// The actor tried to answer their own takeback request.
    #[error("You cannot answer your own takeback request; your opponent must.")]
    OwnTakeback,
    /// A challenge typed in a game's thread: challenges go to the channel (threads cannot
    /// nest).
    #[error("This thread belongs to a game: send challenges in its channel ({parent}).")]
    InGameThread {
        /// The thread's channel.
        parent: u64,
    },
    /// A command typed in a channel where the actor plays several games, each in its thread.
    #[error(
        "You are playing several games in this channel: type the command in the game's thread."
    )]
    SeveralGames {
        /// The games' threads (at most [`MAX_LINKS`](crate::game::MAX_LINKS)).
        threads: Vec<u64>,
    },
    /// A command typed in a channel whose games are played in their threads, none of them
    /// the actor's.
    #[error("The games of this channel are played in their threads, and you play in none.")]
    GamesInThreads {
        /// The games' threads (at most [`MAX_LINKS`](crate::game::MAX_LINKS)).
        threads: Vec<u64>,
    },
    /// `/play` by a person who already plays as many games against the engine in this server
    /// as they may (`CAJITAS_ENGINE_GAMES_PER_USER`).
    #[error(
        "You already play {limit} games against the computer in this server: finish or abort one first."
    )]
    TooManyEngineGames {
        /// How many they may have.
        limit: u32,
        /// Where those games are played: their threads, or their channels (at most
        /// [`MAX_LINKS`](crate::game::MAX_LINKS)).
        places: Vec<u64>,
    },
    /// `accept` or `decline` without saying which, with several challenges to choose from.
    #[error("Several challenges are waiting here: use the buttons of the one you mean.")]
    SeveralChallenges,
    /// The player to move's time had run out when this action arrived: the game ended on
    /// time in the same transaction, and the action was not applied.
    #[error("Too late: the time to move had run out, and the game has ended on time.")]
    TimeRanOut {
        /// The notices the ending's commit calls for (a thread's game: its summary in the
        /// channel), for the caller to post as after any ending (see
        /// [`Done`](super::Done)).
        notices: Vec<super::Notice>,
    },
    /// A win or draw was claimed in a timed game (timed games end on their own).
    #[error("Only an untimed game can be claimed; a timed game ends when the clock runs out.")]
    ClaimNotUntimed,
    /// A win or draw was claimed in a game against the engine (it never abandons a game).
    #[error("The computer never abandons a game: resign or abort instead.")]
    ClaimAgainstEngine,
    /// A win or draw was claimed by the player to move (only the waiting player may).
    #[error("It is your move: only the player waiting for a move can claim the game.")]
    ClaimOwnTurn,
    /// A win or draw was claimed before the opponent's time to move had passed.
    #[error("Your opponent still has time to move: you can claim the game from {at_ms} (Unix ms).")]
    ClaimTooEarly {
        /// When the game may be claimed (Unix ms).
        at_ms: i64,
        /// When the claim was refused (Unix ms): the console says how long is left.
        as_of_ms: i64,
    },
    /// Takebacks are refused in rated games.
    #[error("Takebacks are not allowed in rated games.")]
    TakebackInRatedGame,
    /// There is no finished game in this channel to analyse.
    #[error("No game has finished in this channel yet: there is nothing to analyse.")]
    NoFinishedGame,
    /// Something went wrong on our side (not a refusal): front ends apologise to the user
    /// and log the failure with its cause chain.
    #[error("internal error")]
    Failed(#[source] Failure),
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
