//! The store: what the game service needs from storage, behind object-safe traits, and two
//! implementations of them: SQLite ([`sqlite`], the embedded default) and PostgreSQL
//! ([`postgres`], for several processes sharing one database), the only places in the crate
//! (with `migrations/`) that contain SQL.
//!
//! A [`Store`] runs operations, each as ONE transaction ([`Store::transaction`]): the
//! operation reads what it needs through a [`Tx`], decides, writes, and says whether to
//! commit. [`StoreExt::immediate`] and [`StoreExt::read`] carry a typed result and error
//! through it. A `Tx` is the sum of one trait per kind of record: [`Users`], [`Challenges`],
//! [`Games`] (games and their moves), [`DrawOffers`], [`Takebacks`], [`Pings`], [`Settings`],
//! [`Interactions`], [`ClockEvents`], [`Ratings`] and [`Engines`]. Writes that depend on the state they read carry a ply check
//! ([`Games::append_move`], [`Games::finish_game`], [`Games::rewind_game`]) so that a move computed against an older
//! position can never land.
//!
//! Everything here is object safe, so the backend can be chosen at run time: the game
//! service holds a `Box<dyn Store>` and operations see a `&dyn Tx`.
//!
//! The store is blocking. Async code must call it through `tokio::task::spawn_blocking`.

pub mod copy;
pub mod postgres;
pub mod sqlite;

pub use self::postgres::PostgresStore;
pub use self::sqlite::SqliteStore;

/// The console's channel (`cajitas local`'s games, `console::local_channel`): the one channel
/// whose pending events have an index of their own, `games_event_due_local` (migration 0012),
/// partial on this id. A test checks it against the console's.
pub const LOCAL_CHANNEL_ID: u64 = 11_862_234_814_149_460_200;

/// [`LOCAL_CHANNEL_ID`] as stored (a signed 64-bit integer), as SQL text: the queries of the
/// console's channel name it literally, so that the planner sees the partial index applies.
macro_rules! local_channel_sql {
    () => {
        "-6584509259560091416"
    };
}
pub(crate) use local_channel_sql;

/// Where the data lives (`CAJITAS_DB`): a SQLite file (the embedded default) or a PostgreSQL
/// database (`postgres://…` or `postgresql://…`), for several processes sharing it.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite database file.
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL URL. It may hold a password: its `Debug` never shows it, and logs show
    /// it through `redact::redact_url`.
    Postgres(String),
}

impl Database {
    /// Reads `CAJITAS_DB`'s value: a PostgreSQL URL, or else a SQLite path (`default` when
    /// empty).
    pub fn parse(raw: &str, default: &str) -> Database {
        let raw = raw.trim();
        if postgres::is_postgres_url(raw) {
            Database::Postgres(raw.to_owned())
        } else if raw.is_empty() {
            Database::Sqlite(default.into())
        } else {
            Database::Sqlite(raw.into())
        }
    }

    /// Opens it: the file is created if needed; the schema is brought up to date (under an
    /// advisory lock with PostgreSQL).
    pub fn open(&self) -> Result<Box<dyn Store>, StoreError> {
        Ok(match self {
            Database::Sqlite(path) => Box::new(SqliteStore::open(path)?),
            Database::Postgres(url) => Box::new(PostgresStore::open(url)?),
        })
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
            Database::Postgres(_) => f.write_str("Postgres(\"[redacted]\")"),
        }
    }
}

/// What PostgreSQL said: the server's message and SQLSTATE (the client's own `Display` says
/// only "db error"), or the client's error when the server was not reached.
fn postgres_reason(e: &::postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} (SQLSTATE {})", db.message(), db.code().code()),
        None => e.to_string(),
    }
}

/// Why a store operation failed (always unexpected: refusals are decided by the caller).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite said no.
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    /// PostgreSQL said no (or could not be reached).
    #[error("database error: {}", postgres_reason(.0))]
    Postgres(::postgres::Error),
    /// The schema could not be brought up to date.
    #[error("database migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// A stored value is not one this program writes.
    #[error("corrupt database row: {0}")]
    Corrupt(String),
    /// The backend broke the contract of [`Store::transaction`].
    #[error("store backend error: {0}")]
    Backend(String),
}

/// A stored text that is not one of an enum's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} {text:?}")]
pub struct UnknownValue {
    /// The enum (`GameStatus`, ...).
    pub kind: &'static str,
    /// The text found.
    pub text: String,
}

impl From<UnknownValue> for StoreError {
    fn from(e: UnknownValue) -> Self {
        StoreError::Corrupt(e.to_string())
    }
}

macro_rules! str_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $variant),+ }
        impl $name {
            /// The text stored in the database.
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $text),+ }
            }
        }
        impl std::str::FromStr for $name {
            type Err = UnknownValue;
            /// Reads the text stored in the database.
            fn from_str(s: &str) -> Result<Self, UnknownValue> {
                match s {
                    $($text => Ok(Self::$variant),)+
                    other => Err(UnknownValue { kind: stringify!($name), text: other.to_owned() }),
                }
            }
        }
    };
}

str_enum!(
    /// A side of the board, as stored.
    Side { White = "white", Black = "black" }
);
str_enum!(
    /// The challenger's colour choice, as stored.
    ColourPick { White = "white", Black = "black", Random = "random" }
);
str_enum!(
    /// Where a challenge stands.
    ChallengeStatus {
        /// Waiting for an answer.
        Pending = "pending",
        /// Accepted: a game started.
        Accepted = "accepted",
        /// Declined by the challenged user.
        Declined = "declined",
        /// Withdrawn by the challenger.
        Cancelled = "cancelled",
        /// Nobody answered in time.
        Expired = "expired",
    }
);
str_enum!(
    /// Where a game stands.
    GameStatus {
        /// Being played.
        Active = "active",
        /// Over, with a result.
        Finished = "finished",
        /// Ended without a result before both players moved.
        Aborted = "aborted",
    }
);
str_enum!(
    /// A rating pool's speed (migration 0008): live clocks, or correspondence and untimed
    /// games.
    Speed {
        /// Games with a live clock.
        Live = "live",
        /// Correspondence and untimed games.
        Correspondence = "correspondence",
    }
);
str_enum!(
    /// Where a draw offer stands.
    OfferStatus {
        /// Standing.
        Open = "open",
        /// Accepted: the game was drawn.
        Accepted = "accepted",
        /// Declined by the opponent.
        Declined = "declined",
        /// The offerer withdrew it.
        Withdrawn = "withdrawn",
        /// The opponent moved instead of answering, or the game ended.
        Lapsed = "lapsed",
    }
);

str_enum!(
    /// The kind of a time control, as stored (migration 0007).
    ClockKind {
        /// No clock.
        Untimed = "untimed",
        /// Days per move.
        Correspondence = "correspondence",
        /// A Fischer clock.
        Live = "live",
    }
);
str_enum!(
    /// What a scheduler event does (migration 0007).
    EventKind {
        /// The player to move runs out of time.
        Timeout = "timeout",
        /// A correspondence reminder to the player to move.
        Reminder = "reminder",
        /// An untimed game's reminder to the player to move, before the opponent may claim.
        IdleReminder = "idle_reminder",
    }
);

/// A time control as stored: its kind, the base (days per move or the live starting time)
/// and the live increment, in ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControlRow {
    /// Untimed, correspondence or live.
    pub kind: ClockKind,
    /// The full allowance, in ms.
    pub base_ms: i64,
    /// The live increment, in ms.
    pub inc_ms: i64,
}

impl Default for TimeControlRow {
    /// Untimed.
    fn default() -> Self {
        TimeControlRow {
            kind: ClockKind::Untimed,
            base_ms: 0,
            inc_ms: 0,
        }
    }
}

/// A game's clock as stored (migration 0007).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClockRow {
    /// White's remaining time at `clock_at`, in ms.
    pub white_ms: i64,
    /// Black's remaining time at `clock_at`, in ms.
    pub black_ms: i64,
    /// When the current turn began (Unix ms); `None` for a game from before clocks that the
    /// service has not adopted yet.
    pub clock_at: Option<i64>,
    /// The deadline of the player to move (timed), or when the waiting player may claim the
    /// game (untimed), Unix ms.
    pub deadline: Option<i64>,
    /// Grows on every move and takeback.
    pub seq: i64,
}

/// A scheduler event (migrations 0007 and 0010).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    /// Its id once recorded done (the post's nonce is `cj` and this id in base 36); 0 while
    /// pending.
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// The game's `seq` it was scheduled at.
    pub seq: i64,
    /// What it does.
    pub kind: EventKind,
    /// The game's channel.
    pub channel: u64,
    /// When it falls due (Unix ms).
    pub due_at: i64,
}

/// Which games' events a scheduler handles: `cajitas local` only its channel, `cajitas
/// run` every other one, so two fronts on one database never handle the same event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventScope {
    /// Every game.
    All,
    /// Only the games of this channel.
    Only(u64),
    /// Every game but those of this channel.
    Except(u64),
}

/// A user as last seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRow {
    /// The Discord user id (or a local user's id).
    pub id: u64,
    /// The display name as last seen.
    pub name: String,
    /// Whether the account is a bot.
    pub is_bot: bool,
}

/// A challenge, with its users.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    /// Its id.
    pub id: i64,
    /// The guild, if any.
    pub guild: Option<u64>,
    /// The channel (a thread is a channel).
    pub channel: u64,
    /// Who challenged.
    pub challenger: UserRow,
    /// Who was challenged; `None` for an open challenge.
    pub opponent: Option<UserRow>,
    /// The challenger's colour choice.
    pub colour: ColourPick,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// When it expires (Unix ms).
    pub expires_at: i64,
    /// The game it started, once accepted.
    pub game_id: Option<i64>,
    /// The message showing it (migration 0006), once the front end said which: the game's
    /// thread is opened on it.
    pub message: Option<u64>,
    /// The time control offered.
    pub tc: TimeControlRow,
    /// Whether its game counts for the ratings (migration 0008).
    pub rated: bool,
}

/// A game, with its players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Its id.
    pub id: i64,
    /// The guild, if any.
    pub guild: Option<u64>,
    /// The channel.
    pub channel: u64,
    /// White.
    pub white: UserRow,
    /// Black.
    pub black: UserRow,
    /// The FEN it started from.
    pub start_fen: String,
    /// The current FEN (a cache of start + moves).
    pub fen: String,
    /// Plies played.
    pub ply: u32,
    /// Where it stands.
    pub status: GameStatus,
    /// "*", "1-0", "0-1" or "1/2-1/2".
    pub result: String,
    /// The winner of a decisive game.
    pub winner: Option<Side>,
    /// Why it ended (the service's vocabulary).
    pub termination: Option<String>,
    /// The move written with a draw claim (not played), in UCI.
    pub claim_move: Option<String>,
    /// When it started (Unix ms).
    pub created_at: i64,
    /// When it last changed (Unix ms).
    pub updated_at: i64,
    /// When it ended (Unix ms).
    pub finished_at: Option<i64>,
    /// The language of its posts that no interaction caused: `"en"` or `"es"`.
    pub lang: String,
    /// The thread it is played in (migration 0006); `None`: in the channel itself.
    pub thread: Option<u64>,
    /// Its time control.
    pub tc: TimeControlRow,
    /// Its clock.
    pub clock: ClockRow,
    /// Whether it counts for the ratings (migration 0008).
    pub rated: bool,
}

/// One move of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRow {
    /// 0 for White's first move.
    pub ply: u32,
    /// The move in UCI (`e2e4`, `e1g1`, `e7e8q`).
    pub uci: String,
    /// The move in SAN as it was shown.
    pub san: String,
    /// Who played it.
    pub user_id: u64,
    /// When (Unix ms).
    pub played_at: i64,
}

/// A draw offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawOfferRow {
    /// Its id.
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// Who offered.
    pub by: Side,
    /// The ply of the game when it was offered.
    pub ply: u32,
    /// Where it stands.
    pub status: OfferStatus,
    /// When (Unix ms).
    pub created_at: i64,
}

/// A takeback request (migration 0005). Its status uses the draw offers' vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakebackRow {
    /// Its id.
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// Who asked.
    pub by: Side,
    /// The ply of the game when it was asked: only valid while the game is still there.
    pub ply: u32,
    /// How many plies it takes back (1 or 2).
    pub plies: u32,
    /// Where it stands.
    pub status: OfferStatus,
    /// When (Unix ms).
    pub created_at: i64,
}

/// A new challenge.
#[derive(Debug, Clone)]
pub struct NewChallenge {
    /// The guild, if any.
    pub guild: Option<u64>,
    /// The channel.
    pub channel: u64,
    /// Who challenges (must already be stored with [`Users::upsert_user`]).
    pub challenger: u64,
    /// Whom; `None` for an open challenge.
    pub opponent: Option<u64>,
    /// The challenger's colour choice.
    pub colour: ColourPick,
    /// Now (Unix ms).
    pub now: i64,
    /// When it expires (Unix ms).
    pub expires_at: i64,
    /// The time control offered.
    pub tc: TimeControlRow,
    /// Whether its game counts for the ratings.
    pub rated: bool,
}

/// A new game.
#[derive(Debug, Clone)]
pub struct NewGame<'a> {
    /// The guild, if any.
    pub guild: Option<u64>,
    /// The channel.
    pub channel: u64,
    /// White's user id.
    pub white: u64,
    /// Black's user id.
    pub black: u64,
    /// The start position.
    pub start_fen: &'a str,
    /// Now (Unix ms).
    pub now: i64,
    /// The language of its posts that no interaction causes: `"en"` or `"es"`.
    pub lang: &'a str,
    /// The thread it is played in; `None`: in the channel itself.
    pub thread: Option<u64>,
    /// Its time control.
    pub tc: TimeControlRow,
    /// Its clock at the start (`seq` is ignored: it starts at 0).
    pub clock: ClockRow,
    /// Whether it counts for the ratings.
    pub rated: bool,
}

/// How a game ends, as stored.
#[derive(Debug, Clone)]
pub struct Ending<'a> {
    /// Finished or aborted.
    pub status: GameStatus,
    /// "*", "1-0", "0-1" or "1/2-1/2".
    pub result: &'a str,
    /// The winner of a decisive game.
    pub winner: Option<Side>,
    /// Why it ended.
    pub termination: &'a str,
    /// The move written with a draw claim, in UCI.
    pub claim_move: Option<&'a str>,
    /// Now (Unix ms).
    pub now: i64,
}

/// Users as last seen.
pub trait Users {
    /// Stores a user, or refreshes their name and bot flag as last seen.
    fn upsert_user(&self, user: &UserRow, now: i64) -> Result<(), StoreError>;

    /// A stored user.
    fn user(&self, id: u64) -> Result<Option<UserRow>, StoreError>;
}

/// Challenges.
pub trait Challenges {
    /// A pending challenge of a channel, the oldest (expired or not: the caller compares the
    /// time).
    fn pending_challenge(&self, channel: u64) -> Result<Option<ChallengeRow>, StoreError>;

    /// Every pending challenge of a channel, oldest first (expired or not).
    fn pending_challenges(&self, channel: u64) -> Result<Vec<ChallengeRow>, StoreError>;

    /// Records the message showing a challenge. Returns false when there is no such challenge.
    fn set_challenge_message(&self, id: i64, message: u64) -> Result<bool, StoreError>;

    /// A challenge by id.
    fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>, StoreError>;

    /// Records a new pending challenge and returns its id.
    fn insert_challenge(&self, c: &NewChallenge) -> Result<i64, StoreError>;

    /// Closes a pending challenge. Returns false when it was no longer pending.
    fn resolve_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
        by: Option<u64>,
        game_id: Option<i64>,
        now: i64,
    ) -> Result<bool, StoreError>;
}

/// Games and their moves.
pub trait Games {
    /// The game in progress played in `place` itself: the game of that thread, or the game
    /// played in that channel without a thread of its own.
    fn active_game(&self, place: u64) -> Result<Option<GameRow>, StoreError>;

    /// The most recent game played in `place` itself (see [`Games::active_game`]), whatever
    /// its status.
    fn last_game(&self, place: u64) -> Result<Option<GameRow>, StoreError>;

    /// The games in progress in the threads of `channel`, oldest first.
    fn active_thread_games(&self, channel: u64) -> Result<Vec<GameRow>, StoreError>;

    /// The games in progress of `user` against the engine in `guild` (`None`: outside any
    /// server), oldest first.
    fn active_engine_games_of(
        &self,
        guild: Option<u64>,
        user: u64,
    ) -> Result<Vec<GameRow>, StoreError>;

    /// The most recent game of `channel`, in its threads or not, whatever its status; with
    /// `player`, only their games.
    fn last_channel_game(
        &self,
        channel: u64,
        player: Option<u64>,
    ) -> Result<Option<GameRow>, StoreError>;

    /// A game by id.
    fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError>;

    /// The last finished games of a channel (in its threads too), newest first.
    fn finished_games(&self, channel: u64, limit: usize) -> Result<Vec<GameRow>, StoreError>;

    /// The last finished game of `player` in a channel (in its threads too).
    fn last_finished_game_of(
        &self,
        channel: u64,
        player: u64,
    ) -> Result<Option<GameRow>, StoreError>;

    /// Starts a game and returns its id.
    fn insert_game(&self, g: &NewGame<'_>) -> Result<i64, StoreError>;

    /// The moves of a game, in order.
    fn moves(&self, game_id: i64) -> Result<Vec<MoveRow>, StoreError>;

    /// The UCI of one move of a game.
    fn move_uci(&self, game_id: i64, ply: u32) -> Result<Option<String>, StoreError>;

    /// [`Games::move_uci`] of ply `ply` and the game's open draw offer
    /// ([`DrawOffers::open_draw_offer`]) in one read: what the service checks a cached game
    /// against (one round trip on PostgreSQL).
    fn move_uci_and_open_offer(
        &self,
        game_id: i64,
        ply: u32,
    ) -> Result<(Option<String>, Option<DrawOfferRow>), StoreError>;

    /// Appends the move of ply `ply` to an active game and updates its cached position, but
    /// only if the game is still active at exactly `ply` plies (the ply check). Returns false,
    /// writing nothing, when the position changed. `updated_at` becomes `m.played_at`, or one
    /// more than before when that is not later: with [`Games::rewind_game`], every change
    /// of a game in progress gives a new `updated_at`, so the same ply and FEN reached again
    /// after a takeback never look like the state a cache holds. The clock is set to
    /// `clock` (remaining times, `clock_at`, deadline) and `seq` grows by one, in the same
    /// statement. With `next`, the game's pending event becomes `(kind, due)` in that
    /// statement too, as [`ClockEvents::schedule_event`] would write it (PostgreSQL: with its
    /// notification); without, the pending event is left as it is.
    fn append_move(
        &self,
        game_id: i64,
        ply: u32,
        m: &MoveRow,
        new_fen: &str,
        clock: &ClockRow,
        next: Option<(EventKind, i64)>,
    ) -> Result<bool, StoreError>;

    /// Ends an active game that is still at `ply` plies (the ply check); also lapses its open
    /// draw offer and drops its pending scheduler event. Returns false, writing nothing, when
    /// the position changed.
    fn finish_game(&self, game_id: i64, ply: u32, e: &Ending<'_>) -> Result<bool, StoreError>;

    /// Takes an active game that is still at `ply` plies (the ply check) back to `to_ply`
    /// plies: deletes the moves from `to_ply` on, sets the game's FEN to `fen` (the position
    /// after `to_ply` plies) and lapses its open draw offer. `updated_at` becomes at least
    /// one more than before, so a cached copy of a later position never matches again.
    /// The clock is set to `clock` and `seq` grows by one.
    /// Returns false, writing nothing, when the position changed.
    fn rewind_game(
        &self,
        game_id: i64,
        ply: u32,
        to_ply: u32,
        fen: &str,
        now: i64,
        clock: &ClockRow,
    ) -> Result<bool, StoreError>;

    /// How many games are in progress, every place together (the `cajitas_active_games`
    /// metric): counted on the two partial indexes of active games (in a thread; in a
    /// channel), never by reading the games table.
    fn active_game_count(&self) -> Result<u64, StoreError>;
}

/// The scheduler's events (migrations 0007 and 0010): timeouts and reminders. A game's one
/// pending event is part of its row (set in the transaction of the move that schedules it);
/// an event is claimed, recorded done and acted on in one transaction, then posted, then
/// marked posted.
pub trait ClockEvents {
    /// Sets the game's pending event, replacing the one it had. `seq` is the game's current
    /// `seq` (the pending event always belongs to the game as it stands).
    fn schedule_event(
        &self,
        game_id: i64,
        channel: u64,
        seq: i64,
        kind: EventKind,
        due_at: i64,
    ) -> Result<(), StoreError>;

    /// Drops the game's pending event, if it has one (an untimed game taken back to before
    /// both sides moved has none). `seq` is the game's current `seq`.
    fn clear_event(&self, game_id: i64, seq: i64) -> Result<(), StoreError>;

    /// When the earliest pending event of `scope` falls due (one index walk).
    fn next_event_due(&self, scope: EventScope) -> Result<Option<i64>, StoreError>;

    /// The pending events of `scope` due at `now`, earliest first, at most `limit`. A pending
    /// event has no id yet (`id` is 0): it gets one when it is recorded done.
    fn due_events(
        &self,
        scope: EventScope,
        now: i64,
        limit: usize,
    ) -> Result<Vec<EventRow>, StoreError>;

    /// Takes `ev` (from [`due_events`](Self::due_events)) off its game when it is still the
    /// game's pending event (same `seq`, kind and due time). Returns false when it is not
    /// (the game moved on or ended, or another scheduler claimed it).
    fn claim_event(&self, ev: &EventRow) -> Result<bool, StoreError>;

    /// Records an event done at `now`, to be posted, and returns its id (the post's nonce).
    fn record_event(
        &self,
        game_id: i64,
        channel: u64,
        seq: i64,
        kind: EventKind,
        due_at: i64,
        now: i64,
    ) -> Result<i64, StoreError>;

    /// Claims the events of `scope` done but not posted yet whose post nobody holds at `now`
    /// (never claimed, or the claim lapsed), oldest first, at most `limit`: each is held by
    /// the caller until `until` (Unix ms), so another process's scheduler skips it while it
    /// is posted. The caller commits, posts, then calls [`ClockEvents::mark_posted`] (or
    /// [`ClockEvents::retry_post`]); if it dies first, the claim lapses and the next claimant
    /// posts the event, with the same nonce. PostgreSQL also skips the rows another
    /// transaction is claiming (`FOR UPDATE SKIP LOCKED`); SQLite has one process per file.
    fn claim_posts(
        &self,
        scope: EventScope,
        now: i64,
        until: i64,
        limit: usize,
    ) -> Result<Vec<EventRow>, StoreError>;

    /// Marks a done event posted.
    fn mark_posted(&self, id: i64, now: i64) -> Result<(), StoreError>;

    /// A claimed event's post failed: it may be claimed again (by any process) from `at`.
    fn retry_post(&self, id: i64, at: i64) -> Result<(), StoreError>;

    /// When the earliest done, unposted event of `scope` may be claimed (now or in the past
    /// for one nobody holds; else when its claim lapses), to wake a scheduler for the posts
    /// a dead process left.
    fn next_post_due(&self, scope: EventScope) -> Result<Option<i64>, StoreError>;

    /// Frees every claim on the done, unposted events of `scope`, so they may be posted at
    /// once. Only for a process that owns the database (no other process can hold a claim):
    /// at start, the claims a killed predecessor left need not wait for their lease.
    /// Returns how many were freed.
    fn release_post_claims(&self, scope: EventScope) -> Result<usize, StoreError>;

    /// Gives the active games from before clocks (no `clock_at`) their clock: their turn
    /// begins at `now` and their deadline is `now + abandon_ms`. Returns `(game, channel,
    /// seq, ply)` of each.
    fn adopt_unclocked_games(
        &self,
        now: i64,
        abandon_ms: i64,
    ) -> Result<Vec<(i64, u64, i64, u32)>, StoreError>;
}

/// Takeback requests.
pub trait Takebacks {
    /// The open takeback request of a game.
    fn open_takeback(&self, game_id: i64) -> Result<Option<TakebackRow>, StoreError>;

    /// Records a new open request (after closing any open one) and returns its id.
    fn insert_takeback(
        &self,
        game_id: i64,
        by: Side,
        ply: u32,
        plies: u32,
        now: i64,
    ) -> Result<i64, StoreError>;

    /// Closes the open request of a game. Returns whether one was closed.
    fn resolve_takeback(
        &self,
        game_id: i64,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError>;
}

/// Draw offers.
pub trait DrawOffers {
    /// The open draw offer of a game.
    fn open_draw_offer(&self, game_id: i64) -> Result<Option<DrawOfferRow>, StoreError>;

    /// Records a new open draw offer and returns its id.
    fn insert_draw_offer(
        &self,
        game_id: i64,
        by: Side,
        ply: u32,
        now: i64,
    ) -> Result<i64, StoreError>;

    /// Closes the open draw offer of a game (only one made by `by`, when given). Returns
    /// whether an offer was closed.
    fn resolve_draw_offer(
        &self,
        game_id: i64,
        by: Option<Side>,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError>;
}

/// How often one person made the bot ping another (migration 0003): the rate limit.
pub trait Pings {
    /// Records that `from` made the bot ping `to` (`kind`: `challenge`, `draw_offer` or
    /// `takeback`) at `now`, unless `from` already did so `limit` times since `since`. Returns
    /// `None` when recorded, or the time of the oldest ping in the window when refused. Pings
    /// of the pair older than `since` are deleted.
    fn record_ping(
        &self,
        from: u64,
        to: u64,
        kind: &str,
        now: i64,
        since: i64,
        limit: u32,
    ) -> Result<Option<i64>, StoreError>;
}

/// A player's current rating in a pool and speed (migration 0008).
#[derive(Debug, Clone, PartialEq)]
pub struct RatingRow {
    /// The pool: the guild's id, or outside a server the channel's (the i64 with the same
    /// bits).
    pub pool: i64,
    /// The speed.
    pub speed: Speed,
    /// The player.
    pub user_id: u64,
    /// The rating.
    pub rating: f64,
    /// The stored deviation (as of `rated_at`).
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
    /// The end of their last rated game (Unix ms).
    pub rated_at: i64,
}

/// One player's change after one rated game (migration 0008).
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChangeRow {
    /// The game.
    pub game_id: i64,
    /// The pool.
    pub pool: i64,
    /// The speed.
    pub speed: Speed,
    /// The player.
    pub user_id: u64,
    /// Their colour in the game.
    pub colour: Side,
    /// Their score: 1, 0.5 or 0.
    pub score: f64,
    /// The rating before.
    pub rating_before: f64,
    /// The deviation before (widened by inactivity, as used).
    pub deviation_before: f64,
    /// The rating after.
    pub rating_after: f64,
    /// The deviation after.
    pub deviation_after: f64,
    /// The volatility after.
    pub volatility_after: f64,
    /// When (the game's end, Unix ms).
    pub at: i64,
}

/// A leaderboard lists players with at least this many rated games…
pub const RANKED_MIN_GAMES: u32 = 5;
/// …and a deviation below this as of now, widened by inactivity (the RD the "?" of a
/// provisional rating is shown by). The partial index `ratings_leaderboard` (migrations 0008
/// and 0015) holds those with enough games and a stored RD below it; inactivity only widens
/// the RD, so the listed players are among them.
pub const RANKED_MAX_DEVIATION: f64 = 110.0;
/// How much the square of a player's RD grows per millisecond without games, per unit of
/// their squared volatility: Glicko-2's decay `φ' = √(φ² + t·σ²)` (`t` rating periods,
/// 0.21436 a day, see `game::ratings::glicko`) on the Glicko scale is
/// `RD'² = RD² + ms · RANKED_RD2_PER_MS · σ²`, a test the SQL can make without a square root.
pub const RANKED_RD2_PER_MS: f64 = 0.21436 / 86_400_000.0 * (173.7178 * 173.7178);

/// Whether `r` is on its leaderboard at `now` (Unix ms): [`RANKED_MIN_GAMES`] rated games and
/// a deviation, widened by the inactivity since `rated_at`, below [`RANKED_MAX_DEVIATION`].
/// Both stores' SQL computes exactly this, in this order of operations.
pub fn ranked_at(r: &RatingRow, now: i64) -> bool {
    r.games >= RANKED_MIN_GAMES && steady_at(r, now)
}

/// Whether `r`'s deviation, widened by the inactivity since `rated_at` up to `now`, is below
/// [`RANKED_MAX_DEVIATION`]: the leaderboard's test of the RD (see [`ranked_at`]).
pub fn steady_at(r: &RatingRow, now: i64) -> bool {
    r.deviation < RANKED_MAX_DEVIATION
        && r.deviation * r.deviation
            + ((now - r.rated_at).max(0) as f64) * RANKED_RD2_PER_MS * (r.volatility * r.volatility)
            < RANKED_MAX_DEVIATION * RANKED_MAX_DEVIATION
}

/// Ratings and their history (migration 0008).
pub trait Ratings {
    /// A player's rating in a pool and speed.
    fn rating(&self, pool: i64, speed: Speed, user: u64) -> Result<Option<RatingRow>, StoreError>;

    /// A player's ratings in a pool, every speed.
    fn ratings_of(&self, pool: i64, user: u64) -> Result<Vec<RatingRow>, StoreError>;

    /// Stores a player's rating (new, or replacing the old one).
    fn put_rating(&self, r: &RatingRow) -> Result<(), StoreError>;

    /// Where several processes write (PostgreSQL), locks these players' ratings (each `(pool,
    /// speed, user)`) until the transaction ends, all in one order shared by every
    /// transaction, so that one that rates several games (a scheduler round ending many on
    /// time) never holds one player's rating while waiting for another's that a person's
    /// game, ending at the same time, holds in the other order. [`Ratings::rating_pair`]
    /// takes its two players' locks the same way. With one writer at a time (SQLite) there is
    /// nothing to lock.
    fn lock_ratings(&self, players: &[(i64, Speed, u64)]) -> Result<(), StoreError> {
        let _ = players;
        Ok(())
    }

    /// Both players' ratings in a pool and speed, read at once: `[a, b]`'s rows, in the order
    /// of `users` (`None` for a player not rated there yet). Where several processes write
    /// (PostgreSQL), both ratings stay locked until the transaction ends, so another game of
    /// either player, ending at the same time in another channel, reads them after this one's
    /// update.
    fn rating_pair(
        &self,
        pool: i64,
        speed: Speed,
        users: [u64; 2],
    ) -> Result<[Option<RatingRow>; 2], StoreError>;

    /// Records a rated game: both players' changes (one history row each, in one statement)
    /// and their new ratings (new or replacing the old ones, in one statement). Returns false
    /// when a change of that game for either player is already recorded: the result was
    /// counted, and the caller's transaction must roll back (what it wrote is not kept).
    fn record_rating_changes(
        &self,
        changes: &[RatingChangeRow; 2],
        ratings: &[RatingRow; 2],
    ) -> Result<bool, StoreError>;

    /// A page of the leaderboard of a pool and speed at `now` (Unix ms): `limit` ranked
    /// players (see [`ranked_at`]) from `offset`, best first (ties by user id), with their
    /// users.
    fn leaderboard(
        &self,
        pool: i64,
        speed: Speed,
        now: i64,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<(RatingRow, UserRow)>, StoreError>;

    /// How many players ranked at `now` in `r`'s pool and speed stand above `r` (a count over
    /// the leaderboard's index).
    fn players_above(&self, r: &RatingRow, now: i64) -> Result<u64, StoreError>;

    /// How many players are ranked in a pool and speed at `now`.
    fn ranked_count(&self, pool: i64, speed: Speed, now: i64) -> Result<u64, StoreError>;

    /// [`Ratings::ranked_count`] and, for a ranked `r`, [`Ratings::players_above`] (the page
    /// count and the caller's rank of `/leaderboard`): the index is split at `r`, so each of
    /// its entries is counted once rather than twice.
    fn ranked_count_and_above(
        &self,
        pool: i64,
        speed: Speed,
        now: i64,
        r: Option<&RatingRow>,
    ) -> Result<(u64, Option<u64>), StoreError>;

    /// The id of the latest change in a pool and speed (0 when none): it moves whenever the
    /// leaderboard may have changed.
    fn ratings_version(&self, pool: i64, speed: Speed) -> Result<i64, StoreError>;

    /// A player's changes in a pool and speed, oldest first.
    fn rating_changes(
        &self,
        pool: i64,
        speed: Speed,
        user: u64,
    ) -> Result<Vec<RatingChangeRow>, StoreError>;

    /// The changes recorded for a game.
    fn game_rating_changes(&self, game_id: i64) -> Result<Vec<RatingChangeRow>, StoreError>;

    /// Every finished rated game, in `(finished_at, id)` order (for a rebuild).
    fn rated_games(&self) -> Result<Vec<GameRow>, StoreError>;

    /// Deletes every rating and every change (a rebuild starts from nothing). Where several
    /// processes write (PostgreSQL), it holds every rating until the transaction ends: other
    /// rated ends wait for the rebuild, which takes no lock per player.
    fn clear_ratings(&self) -> Result<(), StoreError>;
}

/// Small settings of the front ends (migration 0002).
pub trait Settings {
    /// A bot setting, if set.
    fn setting(&self, key: &str) -> Result<Option<String>, StoreError>;

    /// Sets a bot setting.
    fn set_setting(&self, key: &str, value: &str, now: i64) -> Result<(), StoreError>;
}

/// Engines as players (migration 0009): users of kind `engine`, with their level.
pub trait Engines {
    /// Stores the engine player `id` at `level` (1–8) under `name`, or refreshes it.
    fn upsert_engine(&self, id: u64, name: &str, level: u8, now: i64) -> Result<(), StoreError>;

    /// The level of `user` when it is an engine; `None` for a human (or an unknown id).
    fn engine_level(&self, user: u64) -> Result<Option<u8>, StoreError>;

    /// The ids of the active games with an engine among their players, oldest first.
    fn active_engine_games(&self) -> Result<Vec<i64>, StoreError>;

    /// Claims the engine's move in position `seq` (the game's clock `seq`, which every move
    /// and takeback raises) of game `game` for `owner` until `until` (Unix ms), as of `now`
    /// (migration 0013): taken when the game has no claim, or one for an earlier position, or
    /// a lapsed one, or one of `owner`'s (renewed); never over a live claim on a later
    /// position (a reader that saw an old position). Returns whether `owner` holds it.
    fn claim_engine_turn(
        &self,
        game: i64,
        seq: i64,
        owner: u64,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError>;

    /// Forgets every claim on an engine's move (a restart of the one process that owns the
    /// database). Returns how many.
    fn release_engine_claims(&self) -> Result<usize, StoreError>;

    /// The stored analysis of game `game` at `budget` (migration 0016): its record of
    /// evaluations and best moves.
    fn analysis_record(&self, game: i64, budget: &str) -> Result<Option<String>, StoreError>;

    /// Stores the analysis of game `game` at `budget`; one already there stays (the same
    /// game at the same budget gives the same record).
    fn put_analysis_record(
        &self,
        game: i64,
        budget: &str,
        record: &str,
        now: i64,
    ) -> Result<(), StoreError>;
}

/// Interactions already handled (Discord may deliver one twice).
pub trait Interactions {
    /// Records that an interaction was handled. Returns false when it already was.
    fn mark_interaction(&self, id: u64, now: i64) -> Result<bool, StoreError>;

    /// Forgets handled interactions older than `before` (Unix ms). Returns how many.
    fn prune_interactions(&self, before: i64) -> Result<usize, StoreError>;
}

/// An open transaction: every kind of record, read and written in it.
pub trait Tx:
    Users
    + Challenges
    + Games
    + DrawOffers
    + Takebacks
    + Pings
    + Settings
    + Interactions
    + ClockEvents
    + Ratings
    + Engines
{
}

impl<
    T: Users
        + Challenges
        + Games
        + DrawOffers
        + Takebacks
        + Pings
        + Settings
        + Interactions
        + ClockEvents
        + Ratings
        + Engines,
> Tx for T
{
}

/// What kind of transaction an operation runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxKind {
    /// An operation that may write: it takes the write lock when it begins (SQLite:
    /// `BEGIN IMMEDIATE`), so it reads, decides and writes with no other writer in between,
    /// and it commits only when the operation says so.
    Write,
    /// A read: one consistent snapshot (SQLite: a deferred transaction), never committed.
    Read,
}

/// A database: it runs each operation as one transaction. Object safe (see the module
/// documentation); [`StoreExt`] adds the typed helpers.
pub trait Store: Send {
    /// Runs `op` once inside one transaction of `kind`. `op` returns whether the operation
    /// succeeded: a [`TxKind::Write`] commits when it did and otherwise rolls back, leaving
    /// the database as it was; a [`TxKind::Read`] never commits. An `Err` is a failure of
    /// the store itself (beginning or committing).
    fn transaction(
        &mut self,
        kind: TxKind,
        op: &mut dyn FnMut(&dyn Tx) -> bool,
    ) -> Result<(), StoreError>;

    /// The schema version of the open database (the number of migrations applied).
    fn schema_version(&self) -> Result<usize, StoreError>;

    /// Applies the migrations again (a no-op when the schema is current).
    fn migrate(&mut self) -> Result<(), StoreError>;

    /// How processes sharing this database coordinate, when several may (PostgreSQL's
    /// advisory locks); `None` for a database one process owns (SQLite).
    fn coordination(&self) -> Option<std::sync::Arc<dyn Coordination>> {
        None
    }
}

/// A lock shared by every process of a deployment (see [`Store::coordination`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedLock {
    /// Held while the slash commands are compared with the last registration and registered.
    CommandRegistration,
    /// Held by a shard while it IDENTIFYs, and for the 5 s after, per rate-limit bucket
    /// (`shard_id % max_concurrency`).
    Identify(u32),
}

/// A held [`NamedLock`]; dropping it releases the lock (a process that dies releases it too).
pub trait LockGuard: Send {}

/// Cross-process coordination through the shared database.
pub trait Coordination: Send + Sync {
    /// Waits for `lock` (blocking), then holds it until the guard is dropped.
    fn lock(&self, lock: NamedLock) -> Result<Box<dyn LockGuard>, StoreError>;

    /// Takes `lock` if nobody holds it; `None` when another process does.
    fn try_lock(&self, lock: NamedLock) -> Result<Option<Box<dyn LockGuard>>, StoreError>;

    /// Wakes every process listening on `topic` (PostgreSQL `NOTIFY`), e.g. a scheduler
    /// whose earliest deadline changed. `topic` is lowercase letters and `_`.
    fn notify(&self, topic: &str, payload: &str) -> Result<(), StoreError>;

    /// Starts listening on `topic` (PostgreSQL `LISTEN`, on a connection of its own that
    /// reconnects by itself); see [`Wakeups`].
    fn listen(&self, topic: &str) -> Result<Box<dyn Wakeups>, StoreError>;
}

/// The notifications of one topic, as they arrive. Dropping it stops listening.
pub trait Wakeups: Send {
    /// Waits at most `timeout` for the next notification: its payload, or `None` when none
    /// came. After a lost connection it also returns (an empty payload): a notification may
    /// have been missed, so the listener should look again at what it waits for.
    fn wait(&self, timeout: std::time::Duration) -> Option<String>;
}

/// One store shared by the parts of a process that write the same database (the game
/// service and a front end's bookkeeping): one connection, one lock, no contention between
/// them inside SQLite.
pub type SharedStore = std::sync::Arc<std::sync::Mutex<Box<dyn Store>>>;

/// Typed operations on any [`Store`], `dyn Store` included.
pub trait StoreExt: Store {
    /// Runs `f` inside one write transaction: it commits when `f` returns `Ok` and rolls back
    /// (leaving the database as it was) when `f` returns `Err`.
    fn immediate<T, E: From<StoreError>>(
        &mut self,
        f: impl FnOnce(&dyn Tx) -> Result<T, E>,
    ) -> Result<T, E> {
        run(self, TxKind::Write, f)
    }

    /// Runs `f` inside one read transaction (a consistent snapshot; it never writes).
    fn read<T, E: From<StoreError>>(
        &mut self,
        f: impl FnOnce(&dyn Tx) -> Result<T, E>,
    ) -> Result<T, E> {
        run(self, TxKind::Read, f)
    }
}

impl<S: Store + ?Sized> StoreExt for S {}

/// Carries `f`'s typed result through the object-safe [`Store::transaction`].
fn run<S: Store + ?Sized, T, E: From<StoreError>>(
    store: &mut S,
    kind: TxKind,
    f: impl FnOnce(&dyn Tx) -> Result<T, E>,
) -> Result<T, E> {
    let mut f = Some(f);
    let mut out = None;
    store.transaction(kind, &mut |tx| match f.take() {
        Some(f) => {
            let r = f(tx);
            let ok = r.is_ok();
            out = Some(r);
            ok
        }
        // Called twice: never commit what the operation did not decide.
        None => false,
    })?;
    out.unwrap_or_else(|| {
        Err(StoreError::Backend("the transaction did not run the operation".into()).into())
    })
}

#[cfg(test)]
mod tests;
