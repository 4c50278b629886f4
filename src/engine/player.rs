//! The computer as a player: when a game against it needs its move, the pool searches (or a
//! low level plays its random move), and the move is played through the game service like
//! anyone's, then posted through the service's notifier where the game is played (its
//! thread, or its channel).
//!
//! One thread of its own decides and plays (never the async runtime's, never the service's
//! blocking pool); the searches run on the pool's threads. The service tells it which games
//! may need a move ([`EngineTurns`]): when a game starts, and whenever a person acts in
//! one. After the pool's second failure on a move the game waits: a post says the engine is
//! unavailable, and the move is tried again every [`PreparedPlayer::start`]'s `retry_every`
//! (a minute in the bot) and on the person's next command. The person may resign or abort
//! meanwhile like in any game: nothing here holds the game.
//!
//! Several processes may share one database (PostgreSQL), each with its player: a move is
//! searched by the one that claims it
//! ([`EngineGames::claim_engine_turn`](crate::game::EngineGames::claim_engine_turn), a lease
//! of [`CLAIM_LEASE`] renewed at each try), and every `retry_every` each player looks at every
//! active game against the engine, so a move whose claim a dead process left to lapse is
//! picked up by another.

use std::collections::HashSet;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use cajitas_rules::Move;

use super::levels::Level;
use super::pool::{EngineError, Pool, SearchRequest, SearchResult};
use crate::game::{Done, EngineTurns, EventScope, GameError, GameService, NoticeKind};

/// How long a move request may wait in the pool's queue before it counts as a failure.
pub const QUEUE_WAIT: Duration = Duration::from_secs(60);

/// How often a game waiting for a failed engine is tried again, in the bot; as often, the
/// player looks at every active game against the engine (a move whose claim another process
/// left to lapse is picked up then).
pub const RETRY_EVERY: Duration = Duration::from_secs(60);

/// How long a claim on an engine's move holds (see
/// [`EngineGames::claim_engine_turn`](crate::game::EngineGames::claim_engine_turn)):
/// longer than the queue's wait and the longest search with its margin (level 8's time cap,
/// 10 s, plus 5 s), so that a live process never loses its claim mid-search; a dead process's
/// claim lapses after it.
pub const CLAIM_LEASE: Duration = Duration::from_secs(90);

enum Msg {
    Poke(i64),
    Done {
        game_id: i64,
        seq: i64,
        result: Result<SearchResult, EngineError>,
    },
}

/// The handle the service and the front ends hold; the thread stops when it is dropped.
pub struct EnginePlayer {
    inner: Arc<Inner>,
}

struct Inner {
    tx: Mutex<Sender<Msg>>,
    waiting: Arc<Mutex<HashSet<i64>>>,
}

impl EngineTurns for Inner {
    fn poke(&self, game_id: i64) {
        let _ = self
            .tx
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send(Msg::Poke(game_id));
    }
}

impl std::fmt::Debug for EnginePlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnginePlayer").finish_non_exhaustive()
    }
}

/// An engine player before its service exists: the service is opened with its
/// [`turns`](Self::turns) as [`ServiceOptions::engine_turns`](crate::game::ServiceOptions),
/// then the player [`start`](Self::start)s with that service. Its pokes wait until then.
pub struct PreparedPlayer {
    inner: Arc<Inner>,
    rx: Receiver<Msg>,
}

impl EnginePlayer {
    /// The first step of an engine player (see [`PreparedPlayer`]).
    pub fn prepare() -> PreparedPlayer {
        let (tx, rx) = channel();
        PreparedPlayer {
            inner: Arc::new(Inner {
                tx: Mutex::new(tx),
                waiting: Arc::new(Mutex::new(HashSet::new())),
            }),
            rx,
        }
    }
}

impl PreparedPlayer {
    /// The port the service pokes when a game may need the engine's move; weak: the player
    /// owns itself, and stops when its [`EnginePlayer`] is dropped.
    pub fn turns(&self) -> Weak<dyn EngineTurns> {
        Arc::downgrade(&self.inner) as Weak<dyn EngineTurns>
    }

    /// Starts playing the engine's moves in `service`'s games with `pool`, and looks at
    /// every active game against the engine at once (after a restart, an engine whose turn
    /// it is moves now). `service` was opened with [`turns`](Self::turns).
    pub fn start(self, service: GameService, pool: Pool, retry_every: Duration) -> EnginePlayer {
        self.start_in(service, pool, retry_every, EventScope::All)
    }

    /// [`PreparedPlayer::start`] for the games of `scope` only (by the channel or thread
    /// where they are played): `cajitas local` plays the engine's moves in its own channel,
    /// and a bot on the same database in every other.
    pub fn start_in(
        self,
        service: GameService,
        pool: Pool,
        retry_every: Duration,
        scope: EventScope,
    ) -> EnginePlayer {
        let PreparedPlayer { inner, rx } = self;
        let waiting = Arc::clone(&inner.waiting);
        let driver = Driver {
            service: service.clone(),
            pool,
            me: Arc::downgrade(&inner),
            thinking: HashSet::new(),
            announced: HashSet::new(),
            waiting,
            retry_every,
            scope,
            owner: fastrand::u64(1..),
        };
        std::thread::Builder::new()
            .name("cajitas-engine-player".into())
            .spawn(move || driver.run(rx))
            .expect("spawn the engine player thread");
        if let Err(e) = service.engine().release_own_engine_claims() {
            tracing::warn!(error = %e.chain(), "could not free the engine claims of a previous run");
        }
        match service.engine().engine_games() {
            Ok(ids) => ids.into_iter().for_each(|id| inner.poke(id)),
            Err(e) => {
                tracing::warn!(error = %e.chain(), "could not list the games against the engine")
            }
        }
        EnginePlayer { inner }
    }
}

impl EnginePlayer {
    /// Asks the player to look at game `game_id` (what the service does by itself).
    pub fn poke(&self, game_id: i64) {
        self.inner.poke(game_id);
    }

    /// Whether game `game_id` is waiting for a failed engine.
    pub fn is_waiting(&self, game_id: i64) -> bool {
        self.inner
            .waiting
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&game_id)
    }
}

struct Driver {
    service: GameService,
    pool: Pool,
    me: Weak<Inner>,
    thinking: HashSet<i64>,
    /// Games whose "engine unavailable" post went out (one post per wait).
    announced: HashSet<i64>,
    waiting: Arc<Mutex<HashSet<i64>>>,
    retry_every: Duration,
    /// The games this player plays in.
    scope: EventScope,
    /// This player's id in its claims (random: one per process).
    owner: u64,
}

/// Whether a game played at `place` (its thread or channel) is in `scope`.
fn in_scope(scope: EventScope, place: u64) -> bool {
    match scope {
        EventScope::All => true,
        EventScope::Only(ch) => place == ch,
        EventScope::Except(ch) => place != ch,
    }
}

impl Driver {
    fn run(mut self, rx: Receiver<Msg>) {
        let mut next_retry = Instant::now() + self.retry_every;
        loop {
            let wait = next_retry.saturating_duration_since(Instant::now());
            match rx.recv_timeout(wait) {
                Ok(Msg::Poke(id)) => self.consider(id),
                Ok(Msg::Done {
                    game_id,
                    seq,
                    result,
                }) => self.done(game_id, seq, result),
                Err(RecvTimeoutError::Timeout) => {
                    next_retry = Instant::now() + self.retry_every;
                    // The games waiting for a failed engine, and every other active game
                    // against the engine: one whose claim lapsed (its process died) moves.
                    let mut ids: std::collections::BTreeSet<i64> =
                        self.waiting().iter().copied().collect();
                    match self.service.engine().engine_games() {
                        Ok(all) => ids.extend(all),
                        Err(e) => {
                            tracing::warn!(error = %e.chain(), "could not list the games against the engine");
                        }
                    }
                    for id in ids {
                        self.consider(id);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return,
            }
            if self.me.strong_count() == 0 && self.thinking.is_empty() {
                return;
            }
        }
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, HashSet<i64>> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Game `id` may need the engine's move: search it (or play a low level's random move).
    fn consider(&mut self, id: i64) {
        if self.thinking.contains(&id) {
            return;
        }
        let turn = match self.service.engine().engine_turn(id) {
            Ok(Some(turn)) => turn,
            Ok(None) => {
                // Over, or the person's turn: nothing owed.
                self.waiting().remove(&id);
                self.announced.remove(&id);
                return;
            }
            Err(e) => {
                // Tried again with the waiting games (and at every look at all of them).
                tracing::warn!(game = id, error = %e.chain(), "could not read a game against the engine");
                self.waiting().insert(id);
                return;
            }
        };
        if !in_scope(self.scope, turn.place.channel) {
            // Another front end's game (the console's, or the bot's): its own player moves.
            return;
        }
        // Another process's player may hold this move: only the holder searches it.
        match self
            .service
            .engine()
            .claim_engine_turn(id, turn.seq, self.owner, CLAIM_LEASE)
        {
            Ok(true) => {}
            Ok(false) => {
                self.waiting().remove(&id);
                return;
            }
            Err(e) => {
                tracing::warn!(game = id, error = %e.chain(), "could not claim the engine's move");
                return;
            }
        }
        let level = Level::get(turn.level);
        if let Some(m) = level.random_move(id as u64, turn.ply, &turn.position) {
            self.play(id, turn.seq, m);
            return;
        }
        let Some(me) = self.me.upgrade() else {
            return;
        };
        let tx = me.tx.lock().unwrap_or_else(|p| p.into_inner()).clone();
        self.thinking.insert(id);
        let seq = turn.seq;
        self.pool.submit(
            SearchRequest {
                person: turn.person,
                requester: id as u64,
                start_fen: turn.start_fen,
                moves: turn.moves,
                position: turn.position,
                limits: level.limits(),
                deadline: Instant::now() + QUEUE_WAIT,
            },
            move |result| {
                let _ = tx.send(Msg::Done {
                    game_id: id,
                    seq,
                    result,
                });
            },
        );
    }

    fn done(&mut self, id: i64, seq: i64, result: Result<SearchResult, EngineError>) {
        self.thinking.remove(&id);
        match result {
            Ok(found) => self.play(id, seq, found.best),
            Err(e) => {
                tracing::warn!(game = id, error = %e, "no engine move: the game waits for the engine");
                self.waiting().insert(id);
                self.announce_wait_once(id);
            }
        }
    }

    fn play(&mut self, id: i64, seq: i64, mv: Move) {
        // A mate's summary in the channel goes after the engine's move is posted.
        let moved = self.service.engine().engine_move(id, seq, mv);
        match moved {
            Ok(Done { view, notices }) => {
                metrics::counter!(crate::telemetry::MOVES, "by" => "engine").increment(1);
                self.waiting().remove(&id);
                self.announced.remove(&id);
                // Where the game is played: its thread, or its channel.
                if let Err(e) =
                    self.service
                        .engine()
                        .post(view.place(), view, NoticeKind::GameState)
                {
                    tracing::warn!(game = id, error = %e.chain(), "could not post the engine's move");
                }
                if !notices.is_empty() {
                    self.service.post_notices(notices);
                }
            }
            // A person acted first (a takeback, a resignation): look again.
            Err(GameError::PositionChanged) => {
                if let Some(me) = self.me.upgrade() {
                    let _ = me
                        .tx
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .send(Msg::Poke(id));
                }
            }
            Err(e) => {
                tracing::error!(game = id, error = %e.chain(), "the engine's move could not be played");
                self.waiting().insert(id);
                self.announce_wait_once(id);
            }
        }
    }

    /// Posts that game `id` waits for the engine, once per wait: a post that did not go out
    /// is tried again at the next failure.
    fn announce_wait_once(&mut self, id: i64) {
        if !self.announced.contains(&id) && self.announce_wait(id) {
            self.announced.insert(id);
        }
    }

    /// Posts that game `id` waits for the engine; whether the post went out.
    fn announce_wait(&self, id: i64) -> bool {
        match self.service.queries().game(id) {
            Ok(view) => {
                match self
                    .service
                    .engine()
                    .post(view.place(), view, NoticeKind::EngineUnavailable)
                {
                    Ok(()) => true,
                    Err(e) => {
                        tracing::warn!(game = id, error = %e.chain(), "could not say that the engine is unavailable");
                        false
                    }
                }
            }
            Err(e) => {
                tracing::warn!(game = id, error = %e.chain(), "could not read the game");
                false
            }
        }
    }
}
