//! The game service: who plays whom in which channel, whose turn it is, offers and results.
//!
//! It knows no Discord types. Each operation takes the acting user and the channel, runs as
//! ONE `BEGIN IMMEDIATE` transaction of the [store](crate::store) (so it either happens
//! completely or not at all), and returns a typed result for the front ends to show, or a
//! [`GameError`] whose message is for the player.
//!
//! The operations are grouped by use case, each a small type borrowed from the same
//! [`GameService`] (its store, cache, clock and ports), defined in the file that does its
//! work, so that a move's whole path reads in `play.rs` plus the store:
//!
//! - [`Play`] (`svc.play()`; `play.rs`, `takeback.rs`): moves, resignation, draw offers
//!   and claims, abort, abandoned games claimed, takebacks;
//! - [`Challenges`] (`svc.challenges()`; `challenges.rs`, `rematch.rs`): challenges made and
//!   answered, rematches, games started directly;
//! - [`Clocks`] (`svc.clocks()`; `scheduler.rs`): the scheduler's rounds of timed events;
//! - [`Ratings`] (`svc.ratings()`; `ratings/`): the leaderboard, stats, a game's rating
//!   changes, the rebuild;
//! - [`EngineGames`] (`svc.engine()`; `engine.rs`, `rematch.rs`): games against the engine,
//!   its turns and posts, analyses;
//! - [`Queries`] (`svc.queries()`; `queries.rs`): boards, PGN, history, legal moves.
//!
//! What every use case shares stays on [`GameService`]: construction, the options, the
//! store's lock and its write and read transactions, the cache and loading (`load.rs`), the
//! opening and ending of an operation on a game (`play.rs`'s `in_game` and `end_game`), and
//! posting the notices an operation returned ([`GameService::post_notices`]).
//!
//! The chess itself (reading moves, legality, SAN, repetition, claims, outcomes, PGN) comes
//! from the rules crate; this module only stores it and decides who may do what.
//!
//! **The service is blocking.** Its methods wait on SQLite (a commit with `synchronous=FULL`
//! waits for the disk). Async front ends must call them through
//! `tokio::task::spawn_blocking` (the service is `Clone + Send + Sync`: clone it into the
//! closure), never directly on a runtime worker.

pub mod analysis;
pub mod calendar;
mod challenges;
mod clock;
pub(crate) mod daily;
mod engine;
mod error;
mod load;
mod notify;
mod observe;
mod play;
mod puzzles;
mod queries;
pub mod ratings;
mod rematch;
mod scheduler;
pub mod server_puzzles;
mod takeback;
mod time_control;
pub mod tournament;
mod variant;
mod views;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

pub use cajitas_rules::Lang;

pub use self::challenges::{ChallengeTerms, Challenges};
pub use self::clock::{Clock, ManualClock, SystemClock};
pub use self::daily::{DAILY_LEASE, Daily, DailyPost, DailyView, daily_nonce, day_of};
pub use self::engine::{
    ENGINE_LEVELS, ENGINE_NAME, EngineGames, EngineTurn, EngineTurns, FinishedGame,
    engine_level_of, engine_user_id,
};
pub use self::error::{Failure, GameError};
use self::load::CachedGame;
pub use self::notify::{
    Done, NoNotifier, Notice, NoticeKind, Notifier, NotifyError, RecordingNotifier,
};
pub use self::observe::EventObserver;
pub use self::play::{Play, Seen};
pub use self::puzzles::{
    MAX_PUZZLE_RATING, MIN_PUZZLE_RATING, PuzzleBoard, PuzzleBoardView, PuzzleChange, PuzzleLeader,
    PuzzleOrigin, PuzzleRequest, PuzzleScore, PuzzleSource, PuzzleView, Puzzles, SERVER_WINDOW,
    StreakView,
};
pub use self::queries::Queries;
pub use self::ratings::Ratings;
pub use self::rematch::EngineRematch;
pub use self::scheduler::{Clocks, Round, Scheduler, nonce};
pub use self::time_control::{
    ClockView, DAY_MS, DEFAULT_ABANDON_AFTER, LIVE_FIRST_MOVE_GRACE_MS, REMINDER_PERCENT, Speed,
    TimeControl, UnknownTimeControl,
};
pub use self::tournament::{
    ArenaTerms, Mark, PairingPoints, RoundRobinLine, RoundRobinMade, RoundRobinStandings,
    RoundRobinTerms, RoundRobinWithdrawn, StandingLine, Standings, TournamentNews,
    TournamentNotice, TournamentRound, TournamentView, Tournaments,
};
pub use self::variant::Variant;
pub use self::views::{
    ChallengeState, ChallengeView, ChannelRef, ColourChoice, GameView, HistoryEntry, MoveResult,
    Place, Status, TakebackView, UserRef,
};
pub use crate::store::EventScope;
use crate::store::{Database, SharedStore, SqliteStore, Store, StoreExt, Tx};
/// Where a puzzle attempt stands: a word the store and the game share (see [`crate::vocab`]).
pub use crate::vocab::PuzzleStatus;

/// The longest move text a player may type, in characters.
pub const MAX_MOVE_CHARS: usize = 32;

/// A move as typed, capped at [`MAX_MOVE_CHARS`] before anything else looks at it, then
/// trimmed; refused when too long or empty. A game's move and a puzzle's answer both go
/// through it.
pub(crate) fn move_text(text: &str) -> Result<&str, GameError> {
    if text.chars().count() > MAX_MOVE_CHARS {
        return Err(GameError::TooLong {
            what: "move",
            max: MAX_MOVE_CHARS,
        });
    }
    let text = text.trim();
    if text.is_empty() {
        return Err(GameError::EmptyMove);
    }
    Ok(text)
}
/// The longest display name kept, in characters (longer names are cut).
pub const MAX_NAME_CHARS: usize = 100;
/// The most threads a refusal links to.
pub const MAX_LINKS: usize = 10;
/// How many times an operation's notice with a nonce is posted before it is given up
/// ([`GameService::post_notices`]).
pub const HELD_POST_ATTEMPTS: u32 = 3;
/// The wait before a notice's second attempt (doubled before each later one).
pub const HELD_POST_RETRY: Duration = Duration::from_secs(1);
/// How many games against the engine one person may have in progress per server unless
/// configured otherwise (`CAJITAS_ENGINE_GAMES_PER_USER`).
pub const DEFAULT_ENGINE_GAMES_PER_USER: u32 = 2;

/// How long a challenge waits for an answer unless configured otherwise.
pub const DEFAULT_CHALLENGE_TTL: Duration = Duration::from_secs(15 * 60);

/// How the service is configured, its ports included: every one is given here, before the
/// service exists (none is installed afterwards).
#[derive(Clone)]
pub struct ServiceOptions {
    /// How long a challenge waits for an answer.
    pub challenge_ttl: Duration,
    /// Where the time comes from (tests pass a [`ManualClock`]).
    pub clock: Arc<dyn Clock>,
    /// Where posts outside an interaction go (see [`GameService::announce`]).
    pub notifier: Arc<dyn Notifier>,
    /// Where the games are played, for the PGN `Site` tag.
    pub site: Site,
    /// How long an untimed game waits for a move before the waiting player may claim it
    /// (`CAJITAS_ABANDON_DAYS`).
    pub abandon_after: Duration,
    /// The name the computer plays under (the engine program's: see
    /// `crate::engine::display_name`); [`ENGINE_NAME`] by default.
    pub engine_name: String,
    /// How many games against the engine one person may have in progress per server
    /// (`CAJITAS_ENGINE_GAMES_PER_USER`; 2 by default).
    pub engine_games_per_user: u32,
    /// Whoever drives the engines, told whenever a game against the engine may need its
    /// move (the engine room's, `crate::engine::EnginePlayer::prepare`); held weakly: the
    /// engine room owns itself. `None`: no engine plays.
    pub engine_turns: Option<Weak<dyn EngineTurns>>,
    /// Whoever watches the scheduler's events (a front's metrics); `None`: nobody.
    pub event_observer: Option<EventObserver>,
}

impl std::fmt::Debug for ServiceOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceOptions")
            .field("challenge_ttl", &self.challenge_ttl)
            .field("clock", &self.clock)
            .field("notifier", &self.notifier)
            .field("site", &self.site)
            .field("abandon_after", &self.abandon_after)
            .field("engine_name", &self.engine_name)
            .field("engine_games_per_user", &self.engine_games_per_user)
            .field("engine_turns", &self.engine_turns.is_some())
            .field("event_observer", &self.event_observer.is_some())
            .finish()
    }
}

/// Where the games of a service are played: the PGN `Site` tag says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Site {
    /// Discord: the tag is the link to the game's channel or thread.
    #[default]
    Discord,
    /// `cajitas local`, in a terminal.
    Console,
}

impl Site {
    /// The `Site` tag of a game played in `ch`.
    pub fn tag(self, ch: ChannelRef) -> String {
        match (self, ch.guild) {
            (Site::Discord, Some(guild)) => {
                format!("https://discord.com/channels/{guild}/{}", ch.channel)
            }
            (Site::Discord, None) => format!("https://discord.com/channels/@me/{}", ch.channel),
            (Site::Console, _) => "Cajitas local (terminal)".to_owned(),
        }
    }
}

impl Default for ServiceOptions {
    fn default() -> Self {
        ServiceOptions {
            challenge_ttl: DEFAULT_CHALLENGE_TTL,
            clock: Arc::new(SystemClock),
            notifier: Arc::new(NoNotifier),
            site: Site::Discord,
            abandon_after: DEFAULT_ABANDON_AFTER,
            engine_name: ENGINE_NAME.to_owned(),
            engine_games_per_user: DEFAULT_ENGINE_GAMES_PER_USER,
            engine_turns: None,
            event_observer: None,
        }
    }
}

impl ServiceOptions {
    /// The defaults with this clock.
    pub fn with_clock(clock: Arc<dyn Clock>) -> ServiceOptions {
        ServiceOptions {
            clock,
            ..ServiceOptions::default()
        }
    }
}

/// The game service. Cheap to clone (an `Arc` inside); all methods block (see the module
/// documentation). It is the core every use case shares: the store, the cache, the clock
/// and the ports; its operations are on the use-case types it lends ([`GameService::play`],
/// [`challenges`](GameService::challenges), [`clocks`](GameService::clocks),
/// [`ratings`](GameService::ratings), [`engine`](GameService::engine),
/// [`queries`](GameService::queries)).
#[derive(Clone)]
pub struct GameService {
    inner: Arc<Inner>,
}

struct Inner {
    /// The database, whichever backend it is.
    store: SharedStore,
    /// Games already rebuilt by the rules, so that a move does not replay the whole game.
    /// Only a hint: an entry is used only when it matches the stored row exactly (see
    /// [`GameService::load`]). Locked only while the store is locked.
    /// Boxed: a cached game is 1.7 KB (its legal moves inline), and a table grown for up to
    /// `CACHE_LIMIT` games has as many empty slots as full ones after it doubles (1,024 slots
    /// held 1.7 MB); each slot is now a pointer.
    cache: Mutex<HashMap<i64, Box<CachedGame>>>,
    opts: ServiceOptions,
    /// Rung when an operation schedules an event earlier than the scheduler's plan.
    bell: Arc<scheduler::Doorbell>,
}

/// How many times one person may make the bot ping another person (challenges, draw
/// offers, takeback requests) within [`PING_WINDOW`].
pub const PING_LIMIT: u32 = 5;
/// See [`PING_LIMIT`].
pub const PING_WINDOW: Duration = Duration::from_secs(600);

impl std::fmt::Debug for GameService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameService")
            .field("opts", &self.inner.opts)
            .finish_non_exhaustive()
    }
}

impl GameService {
    /// Opens (creating it if needed) the database at `path` and applies the migrations.
    pub fn open(path: &Path, opts: ServiceOptions) -> Result<GameService, GameError> {
        Ok(Self::with_store(Box::new(SqliteStore::open(path)?), opts))
    }

    /// Opens (creating it if needed) the database `CAJITAS_DB` names, either backend, and
    /// applies the migrations.
    pub fn open_db(db: &Database, opts: ServiceOptions) -> Result<GameService, GameError> {
        Ok(Self::with_store(db.open()?, opts))
    }

    /// A service over an in-memory database (tests and experiments; nothing is kept).
    pub fn open_in_memory(opts: ServiceOptions) -> Result<GameService, GameError> {
        Ok(Self::with_store(
            Box::new(SqliteStore::open_in_memory()?),
            opts,
        ))
    }

    /// A service over an open store (the backend chosen by the caller).
    pub fn with_store(store: Box<dyn Store>, opts: ServiceOptions) -> GameService {
        GameService {
            inner: Arc::new(Inner {
                store: Arc::new(Mutex::new(store)),
                cache: Mutex::new(HashMap::new()),
                opts,
                bell: Arc::new(scheduler::Doorbell::default()),
            }),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &ServiceOptions {
        &self.inner.opts
    }

    // The use cases, each a small type over this same core (see the module documentation).

    /// Playing: moves, resignation, draws, abort, abandoned games, takebacks ([`Play`], in
    /// `play.rs` and `takeback.rs`).
    pub fn play(&self) -> Play<'_> {
        Play { svc: self }
    }

    /// Challenges: made, answered, and rematches ([`Challenges`], in `challenges.rs` and
    /// `rematch.rs`).
    pub fn challenges(&self) -> Challenges<'_> {
        Challenges { svc: self }
    }

    /// Clocks: the scheduler's rounds of timed events ([`Clocks`], in `scheduler.rs`).
    pub fn clocks(&self) -> Clocks<'_> {
        Clocks { svc: self }
    }

    /// Ratings: the leaderboard, stats, a game's rating changes, the rebuild ([`Ratings`], in
    /// `ratings/`).
    pub fn ratings(&self) -> Ratings<'_> {
        Ratings { svc: self }
    }

    /// Games against the engine: started, the engine's turns, its posts, analyses
    /// ([`EngineGames`], in `engine.rs`).
    pub fn engine(&self) -> EngineGames<'_> {
        EngineGames { svc: self }
    }

    /// Puzzles: start, answer, hint, solution, the puzzle rating ([`Puzzles`], in
    /// `puzzles.rs`).
    pub fn puzzles(&self) -> Puzzles<'_> {
        Puzzles { svc: self }
    }

    /// Puzzles from the server's own games: the searches' claims and the found puzzles
    /// ([`ServerPuzzles`](server_puzzles::ServerPuzzles), in `server_puzzles.rs`).
    pub fn server_puzzles(&self) -> server_puzzles::ServerPuzzles<'_> {
        server_puzzles::ServerPuzzles { svc: self }
    }

    /// The daily puzzle: its setting, its posts, attempts at it, the daily streak ([`Daily`],
    /// in `daily.rs`).
    pub fn daily(&self) -> Daily<'_> {
        Daily { svc: self }
    }

    /// Reading games: boards, PGN, history, legal moves ([`Queries`], in `queries.rs`).
    pub fn queries(&self) -> Queries<'_> {
        Queries { svc: self }
    }

    fn now(&self) -> i64 {
        self.inner.opts.clock.now_ms()
    }

    /// The abandonment period of untimed games, in ms.
    fn abandon_ms(&self) -> i64 {
        i64::try_from(self.inner.opts.abandon_after.as_millis()).unwrap_or(i64::MAX / 4)
    }

    fn store(&self) -> MutexGuard<'_, Box<dyn Store>> {
        // A panic while holding the lock rolled its transaction back when it unwound, so the
        // store is consistent: carry on.
        self.inner.store.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the database is shared with other processes (PostgreSQL: its store has a
    /// [`crate::store::Coordination`]); a SQLite file is this process's alone, so claims a
    /// killed predecessor left in it are nobody's.
    pub(super) fn shared_database(&self) -> bool {
        self.store().coordination().is_some()
    }

    /// Runs `f` as one operation in one write transaction (`BEGIN IMMEDIATE` in SQLite) at
    /// the service's time: it commits when `f` returns `Ok`, and its typed result or refusal
    /// comes back through the object-safe [`Store::transaction`].
    ///
    /// The time is read once the operation holds the store (inside its transaction), never
    /// before: an operation that waited behind another (the opponent's move) acts at a time
    /// after that other's commit, so a clock never charges a negative time.
    fn write<T>(
        &self,
        f: impl FnOnce(&dyn Tx, i64) -> Result<T, GameError>,
    ) -> Result<T, GameError> {
        self.store().immediate(|tx| f(tx, self.now()))
    }

    /// Posts the notices an operation returned ([`Done::notices`], a [`MoveResult`]'s,
    /// [`GameError::TimeRanOut`]'s), once it committed and the front end answered
    /// (blocking: call it from a thread of its own). A notice with a nonce (the notifier
    /// drops a repeat) is tried again after a failure, [`HELD_POST_ATTEMPTS`] times in all,
    /// waiting [`HELD_POST_RETRY`] and then twice as long between attempts; one without is
    /// posted once. Failures are logged: the operation itself happened.
    pub fn post_notices(&self, notices: Vec<Notice>) {
        for notice in notices {
            let attempts = if notice.nonce.is_some() {
                HELD_POST_ATTEMPTS
            } else {
                1
            };
            let mut wait = HELD_POST_RETRY;
            for attempt in 1..=attempts {
                match self.inner.opts.notifier.post(&notice) {
                    Ok(opened) if matches!(notice.kind, NoticeKind::Paired { .. }) => {
                        self.settle_pairing(&notice, opened);
                        break;
                    }
                    Ok(_) => break,
                    Err(e) if attempt < attempts => {
                        tracing::info!(game = notice.game.game_id, attempt, error = %e, "a notice was not posted; trying again");
                        std::thread::sleep(wait);
                        wait = wait.saturating_mul(2);
                    }
                    Err(e) => {
                        tracing::warn!(game = notice.game.game_id, attempts, error = %e, "a notice was not posted");
                    }
                }
            }
        }
    }

    /// After a pairing's post: the front end opened the pairing's thread (`opened`), so the
    /// game moves there, and only then is its board posted in it (a move typed in the thread
    /// as soon as it shows finds the game); the pairing's post is recorded as done (else it
    /// is sent again).
    fn settle_pairing(&self, notice: &Notice, opened: Option<u64>) {
        let game = notice.game.game_id;
        let moved = match opened {
            Some(thread) => self
                .tournaments()
                .move_to_thread(game, notice.place.channel, thread),
            None => Ok(()),
        };
        if let Err(e) = moved.and_then(|()| self.tournaments().mark_posted(game)) {
            tracing::warn!(game, error = %e.chain(), "a pairing's post could not be recorded");
            return;
        }
        if let Some(thread) = opened {
            self.post_notices(vec![Notice {
                place: ChannelRef {
                    guild: notice.place.guild,
                    channel: thread,
                },
                kind: NoticeKind::GameState,
                game: GameView {
                    thread: Some(thread),
                    ..notice.game.clone()
                },
                // The pairing's line pinged both players.
                mentions: Vec::new(),
                nonce: Some(format!("cjb{game}")),
            }]);
        }
    }

    /// Runs `f` in one read transaction (a consistent snapshot; it never writes).
    fn read<T>(&self, f: impl FnOnce(&dyn Tx) -> Result<T, GameError>) -> Result<T, GameError> {
        self.store().read(f)
    }

    /// Posts the channel's game as it stands (its board and status) through the
    /// [`Notifier`], outside any interaction, pinging both players. Returns the view posted.
    pub fn announce(&self, ch: ChannelRef) -> Result<GameView, GameError> {
        let game = self.queries().board(ch)?;
        let notice = Notice {
            place: ch,
            kind: NoticeKind::GameState,
            mentions: vec![game.white.id, game.black.id],
            nonce: None,
            game,
        };
        self.inner
            .opts
            .notifier
            .post(&notice)
            .map_err(|cause| Failure::Notify {
                what: "the game's post",
                cause,
            })?;
        Ok(notice.game)
    }

    /// The store this service uses, for a front end's own records in the same database
    /// (one connection and one lock for both).
    pub fn shared_store(&self) -> SharedStore {
        Arc::clone(&self.inner.store)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A service in memory with a game between `w` (White) and `b` in channel 10: the
    /// service, the two players, the channel and the game's id.
    fn new_game() -> (GameService, UserRef, UserRef, ChannelRef, i64) {
        let svc = GameService::open_in_memory(ServiceOptions::default()).unwrap();
        let (w, b) = (UserRef::new(1, "w", false), UserRef::new(2, "b", false));
        let ch = ChannelRef {
            guild: Some(1),
            channel: 10,
        };
        svc.challenges()
            .challenge(&w, ch, Some(&b), ColourChoice::White)
            .unwrap();
        let id = svc.challenges().accept(&b, ch).unwrap().game_id;
        (svc, w, b, ch, id)
    }

    #[test]
    fn a_move_borrows_the_cached_game_and_a_refused_move_gives_it_back() {
        let (svc, w, b, ch, id) = new_game();
        let cached = || svc.cache().get(&id).map(|c| c.ply);
        assert_eq!(cached(), Some(0));
        svc.play().play_move(&w, ch, "e4", Lang::En, false).unwrap();
        assert_eq!(cached(), Some(1), "put back with the move");
        // Refusals that write nothing leave the game cached as it stands.
        assert!(matches!(
            svc.play().play_move(&w, ch, "d4", Lang::En, false),
            Err(GameError::NotYourTurn)
        ));
        assert_eq!(cached(), Some(1), "after a move out of turn");
        assert!(matches!(
            svc.play().play_move(&b, ch, "Ke5", Lang::En, false),
            Err(GameError::Move(_))
        ));
        assert_eq!(cached(), Some(1), "after an illegal move");
        let v = svc
            .play()
            .play_move(&b, ch, "e5", Lang::En, false)
            .unwrap()
            .view;
        assert_eq!(v.sans(), ["e4", "e5"]);
        assert_eq!(cached(), Some(2));
    }

    // A view writes its SANs from its moves and names its opening one ply on from the
    // cached answer: both as stored and as the whole search says, move after move (castling
    // on both sides, captures, en passant and a check among them).
    #[test]
    fn a_views_sans_are_the_stored_ones_and_its_opening_the_searched_one() {
        let (svc, w, b, ch, id) = new_game();
        let line = [
            "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O", "Be7", "d4", "exd4", "e5", "Ne4",
        ];
        let line = line
            .iter()
            .chain(&["Re1", "d5", "exd6", "O-O", "dxe7", "Qxe7", "Bxf7+", "Rxf7"]);
        let mut named = 0;
        for (i, text) in line.enumerate() {
            let who = if i % 2 == 0 { &w } else { &b };
            let v = svc
                .play()
                .play_move(who, ch, text, Lang::En, false)
                .unwrap()
                .view;
            let stored: Vec<String> = svc.cache()[&id]
                .moves
                .iter()
                .map(|m| m.san().to_owned())
                .collect();
            assert_eq!(v.sans(), stored, "after {text}");
            assert_eq!(v.sans().last().map(String::as_str), Some(*text));
            assert_eq!(
                v.opening,
                crate::openings::of_game(&v.start, &v.moves),
                "after {text}"
            );
            named += usize::from(v.opening.is_some());
        }
        assert!(named >= 6, "{named} views named");
    }

    #[test]
    fn the_service_can_be_shared_across_threads() {
        fn shareable<T: Send + Sync + Clone + 'static>() {}
        shareable::<GameService>();
        fn sendable<T: Send + 'static>() {}
        sendable::<GameView>();
        sendable::<GameError>();
    }

    #[test]
    fn names_are_capped() {
        let long = "é".repeat(300);
        let u = UserRef::new(1, &long, false);
        assert_eq!(u.name.chars().count(), MAX_NAME_CHARS);
        // Even a UserRef built by hand is capped before it is stored.
        let raw = UserRef {
            id: 1,
            name: long,
            is_bot: false,
        };
        assert_eq!(raw.capped().name.chars().count(), MAX_NAME_CHARS);
        assert_eq!(UserRef::new(2, "  ", false).name, "?");
    }
}
