//! The outbound port: how the service, or a background task, posts in a game's channel
//! outside any interaction (a scheduled post has no interaction to answer).
//!
//! The service says *what* happened, typed; each front end decides how it reads and looks.
//! Implementations: Discord's (`POST /channels/{id}/messages` with the board), the console's
//! (printed, with the board as a PNG), and [`RecordingNotifier`] for tests.

use std::sync::Mutex;

use super::{ChallengeView, ChannelRef, GameView};

/// What a post is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoticeKind {
    /// The game as it stands: the board and its status (who is to move, or the result).
    GameState,
    /// A game played in a thread ended: one line in its channel (the notice's place), with
    /// a link to the thread. Posted by the service when the game ends.
    Summary,
    /// A rematch: a new challenge (its buttons too), posted in the finished game's channel;
    /// the notice's game is the finished one.
    Rematch(ChallengeView),
    /// The game ended on time (lost, drawn, or aborted before both sides moved): the final
    /// board; both players are mentioned.
    TimedOut,
    /// A correspondence reminder: 80% of the time to move has passed; only the player to
    /// move is mentioned.
    Reminder,
    /// An untimed game's reminder: 80% of the abandonment period has passed, after which the
    /// opponent may claim the game; only the player to move is mentioned.
    IdleReminder,
    /// The engine failed twice to give its move: the game waits for it (the engine room
    /// tries again every minute, and on the person's next command).
    EngineUnavailable,
    /// A tournament paired the game's players: its game has begun, in a place of its own;
    /// both players are mentioned. A front end that opens a thread for it returns the
    /// thread's id from [`Notifier::post`]; the service moves the game there, then posts
    /// its board there (a [`NoticeKind::GameState`] notice pinging nobody).
    Paired {
        /// The tournament.
        tournament: i64,
        /// Arena or round robin.
        kind: crate::store::TournamentKind,
        /// The pairing's round: an arena's wave, a round robin's round.
        round: u32,
    },
}

/// One post to a game's channel.
#[derive(Debug, Clone)]
pub struct Notice {
    /// Where to post: the game's channel or thread.
    pub place: ChannelRef,
    /// What it is about.
    pub kind: NoticeKind,
    /// The game it shows.
    pub game: GameView,
    /// The users the post may ping (never anyone else).
    pub mentions: Vec<u64>,
    /// An idempotency key: a front end that can (Discord's message `nonce` with
    /// `enforce_nonce`) drops a repeat of the same post. At most 25 characters.
    pub nonce: Option<String>,
}

/// Why a post did not go out.
#[derive(Debug, thiserror::Error)]
pub enum NotifyError {
    /// The front end could not deliver it (the text says why; never a secret).
    #[error("the post could not be delivered: {0}")]
    Delivery(String),
}

/// Posts notices. Blocking, like the service: call it from a blocking thread.
pub trait Notifier: Send + Sync + std::fmt::Debug {
    /// Posts `notice` in its channel. Returns the id of the message posted, when the front
    /// end has such ids (a rematch challenge's thread is opened on its message).
    fn post(&self, notice: &Notice) -> Result<Option<u64>, NotifyError>;

    /// Posts a tournament's own news (it began; its final standings) in its channel.
    fn post_tournament(&self, notice: &super::TournamentNotice)
    -> Result<Option<u64>, NotifyError>;
}

/// Posts nothing (the default until a front end installs its own).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoNotifier;

impl Notifier for NoNotifier {
    fn post(&self, _notice: &Notice) -> Result<Option<u64>, NotifyError> {
        Ok(None)
    }

    fn post_tournament(
        &self,
        _notice: &super::TournamentNotice,
    ) -> Result<Option<u64>, NotifyError> {
        Ok(None)
    }
}

/// Keeps every notice, for tests.
#[derive(Debug, Default)]
pub struct RecordingNotifier {
    posts: Mutex<Vec<Notice>>,
    news: Mutex<Vec<super::TournamentNotice>>,
}

impl RecordingNotifier {
    /// The notices posted so far.
    pub fn posts(&self) -> Vec<Notice> {
        self.posts.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The tournament posts made so far.
    pub fn news(&self) -> Vec<super::TournamentNotice> {
        self.news.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl Notifier for RecordingNotifier {
    /// Keeps the notice; its "message id" is its number among the notices, from 1. It opens
    /// no thread: a tournament's pairing stays in its own place.
    fn post(&self, notice: &Notice) -> Result<Option<u64>, NotifyError> {
        let mut posts = self.posts.lock().unwrap_or_else(|p| p.into_inner());
        posts.push(notice.clone());
        if matches!(notice.kind, NoticeKind::Paired { .. }) {
            return Ok(None);
        }
        Ok(Some(posts.len() as u64))
    }

    fn post_tournament(
        &self,
        notice: &super::TournamentNotice,
    ) -> Result<Option<u64>, NotifyError> {
        let mut news = self.news.lock().unwrap_or_else(|p| p.into_inner());
        news.push(notice.clone());
        Ok(Some(news.len() as u64))
    }
}

/// What an operation did to a game, with the notices its commit calls for (a game of a
/// thread that ended leaves its summary in the channel). The service posts nothing itself:
/// the caller (the front end, once it answered; the engine room, after its move's post)
/// posts them with [`GameService::post_notices`](super::GameService::post_notices).
#[derive(Debug, Clone)]
pub struct Done {
    /// The game after the operation.
    pub view: GameView,
    /// The notices to post, in order, now that the operation committed.
    pub notices: Vec<Notice>,
}
