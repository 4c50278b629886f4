//! The outbound port: how the service, or a background task, posts in a game's channel
//! outside any interaction (a scheduled post has no interaction to answer).
//!
//! The service says *what* happened, typed; each front end decides how it reads and looks.
//! Implementations: Discord's (`POST /channels/{id}/messages` with the board), the console's
//! (printed, with the board as a PNG), and [`RecordingNotifier`] for tests.

use std::sync::Mutex;

use super::{ChannelRef, GameView};

/// What a post is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoticeKind {
    /// The game as it stands: the board and its status (who is to move, or the result).
    GameState,
    /// The engine failed twice to give its move: the game waits for it (the engine room
    /// tries again every minute, and on the person's next command).
    EngineUnavailable,
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
    /// Posts `notice` in its channel.
    fn post(&self, notice: &Notice) -> Result<(), NotifyError>;
}

/// Posts nothing (the default until a front end installs its own).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoNotifier;

impl Notifier for NoNotifier {
    fn post(&self, _notice: &Notice) -> Result<(), NotifyError> {
        Ok(())
    }
}

/// Keeps every notice, for tests.
#[derive(Debug, Default)]
pub struct RecordingNotifier {
    posts: Mutex<Vec<Notice>>,
}

impl RecordingNotifier {
    /// The notices posted so far.
    pub fn posts(&self) -> Vec<Notice> {
        self.posts.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl Notifier for RecordingNotifier {
    fn post(&self, notice: &Notice) -> Result<(), NotifyError> {
        self.posts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(notice.clone());
        Ok(())
    }
}
