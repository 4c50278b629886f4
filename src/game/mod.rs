//! The game service: who plays whom in which channel, whose turn it is, offers and results.
//!
//! It knows no Discord types. Each operation takes the acting user and the channel, runs as
//! ONE `BEGIN IMMEDIATE` transaction of the [store](crate::store) (so it either happens
//! completely or not at all), and returns a typed result for the front ends to show, or a
//! [`GameError`] whose message is for the player.
//!
//! The chess itself (reading moves, legality, SAN, repetition, claims, outcomes, PGN) comes
//! from the rules crate; this module only stores it and decides who may do what.
//!
//! **The service is blocking.** Its methods wait on SQLite (a commit with `synchronous=FULL`
//! waits for the disk). Async front ends must call them through
//! `tokio::task::spawn_blocking` (the service is `Clone + Send + Sync`: clone it into the
//! closure), never directly on a runtime worker.

mod error;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicI64, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

pub use cajitas_rules::Lang;
use cajitas_rules::{
    Color, DrawClaim, DrawReason, Game, Move, Outcome, Piece, Position, Role, Uci, WinReason,
};

pub use self::error::GameError;
use crate::store::{
    ChallengeRow, ChallengeStatus, ColourPick, DrawOfferRow, Ending, GameRow, GameStatus, MoveRow,
    NewChallenge, NewGame, OfferStatus, Side, Store, Tx, UserRow,
};

/// The longest move text a player may type, in characters.
pub const MAX_MOVE_CHARS: usize = 32;
/// The longest display name kept, in characters (longer names are cut).
pub const MAX_NAME_CHARS: usize = 100;
/// The environment variable with the challenge lifetime in seconds.
pub const CHALLENGE_TTL_VAR: &str = "CAJITAS_CHALLENGE_TTL";
/// How long a challenge waits for an answer unless configured otherwise.
pub const DEFAULT_CHALLENGE_TTL: Duration = Duration::from_secs(15 * 60);

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

    fn capped(&self) -> UserRow {
        UserRow {
            id: self.id,
            name: cap_name(&self.name),
            is_bot: self.is_bot,
        }
    }
}

fn cap_name(name: &str) -> String {
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
    fn to_db(self) -> ColourPick {
        match self {
            ColourChoice::White => ColourPick::White,
            ColourChoice::Black => ColourPick::Black,
            ColourChoice::Random => ColourPick::Random,
        }
    }

    fn from_db(c: ColourPick) -> Self {
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
    /// Its id (front ends put it in button ids, see [`GameService::accept_challenge`]).
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
    fn from_row(c: ChallengeRow) -> Self {
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

/// Everything a front end shows after an operation on a game.
#[derive(Debug, Clone)]
pub struct GameView {
    /// The game's id.
    pub game_id: i64,
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

    /// The user to move.
    pub fn player_to_move(&self) -> &UserRef {
        self.player(self.to_move)
    }

    /// A one-line status in English: who is to move, check, the result, or a claim hint.
    pub fn status_line(&self) -> String {
        if self.aborted {
            return "Game aborted: no result.".to_owned();
        }
        if let Some(outcome) = self.outcome {
            let mut s = capitalise(&outcome.to_string());
            if let Some(w) = outcome.winner() {
                s.push_str(&format!(
                    " ({} wins, {}).",
                    self.player(w).name,
                    self.result
                ));
            } else {
                s.push_str(&format!(" ({}).", self.result));
            }
            return s;
        }
        let mover = self.player_to_move();
        let mut s = format!(
            "Move {}: {} to move ({}).",
            self.fullmove,
            self.to_move.name(),
            mover.name
        );
        if self.check {
            s.push_str(" Check!");
        }
        if let Some(by) = self.draw_offer_by {
            s.push_str(&format!(" {} offers a draw.", capitalise(by.name())));
        }
        let names = |claims: &[DrawClaim]| {
            claims
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.claimable_now.is_empty() {
            s.push_str(&format!(
                " {} may claim a draw now ({}).",
                mover.name,
                names(&self.claimable_now)
            ));
        } else if !self.claimable.is_empty() {
            s.push_str(&format!(
                " {} may claim a draw together with a move ({}).",
                mover.name,
                names(&self.claimable)
            ));
        }
        s
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
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

/// How the service is configured.
#[derive(Debug, Clone, Copy)]
pub struct ServiceOptions {
    /// How long a challenge waits for an answer.
    pub challenge_ttl: Duration,
    /// The clock, in Unix milliseconds (tests replace it).
    pub clock: fn() -> i64,
}

/// The system clock in Unix milliseconds.
pub fn system_clock() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Default for ServiceOptions {
    fn default() -> Self {
        ServiceOptions {
            challenge_ttl: DEFAULT_CHALLENGE_TTL,
            clock: system_clock,
        }
    }
}

impl ServiceOptions {
    /// The defaults, with the challenge lifetime from `CAJITAS_CHALLENGE_TTL` (seconds) when
    /// it is set and not empty.
    pub fn from_env() -> Result<ServiceOptions, String> {
        let raw = std::env::var(CHALLENGE_TTL_VAR).ok();
        Self::with_ttl_text(raw.as_deref())
    }

    /// The defaults, with the challenge lifetime read from `ttl` (seconds, 1 to 604800).
    pub fn with_ttl_text(ttl: Option<&str>) -> Result<ServiceOptions, String> {
        let mut opts = ServiceOptions::default();
        if let Some(text) = ttl.map(str::trim).filter(|t| !t.is_empty()) {
            match text.parse::<u64>() {
                Ok(secs) if (1..=7 * 24 * 3600).contains(&secs) => {
                    opts.challenge_ttl = Duration::from_secs(secs);
                }
                _ => {
                    return Err(format!(
                        "{CHALLENGE_TTL_VAR} must be a number of seconds from 1 to 604800, not {text:?}"
                    ));
                }
            }
        }
        Ok(opts)
    }
}

/// The game service. Cheap to clone (an `Arc` inside); all methods block (see the module
/// documentation).
#[derive(Clone)]
pub struct GameService {
    inner: Arc<Inner>,
}

struct Inner {
    store: Mutex<Store>,
    /// Games already rebuilt by the rules, so that a move does not replay the whole game.
    /// Only a hint: an entry is used only when it matches the stored row exactly (see
    /// [`GameService::load`]). Locked only while the store is locked.
    cache: Mutex<HashMap<i64, CachedGame>>,
    opts: ServiceOptions,
    /// When [`GameService::first_delivery`] last pruned the handled interactions (service
    /// clock, Unix ms; 0 before the first time).
    last_prune: AtomicI64,
}

/// How many times one person may make the bot ping another person (challenges, draw
/// offers, takeback requests) within [`PING_WINDOW`].
pub const PING_LIMIT: u32 = 5;
/// See [`PING_LIMIT`].
pub const PING_WINDOW: Duration = Duration::from_secs(600);

/// How long the ids of handled interactions are kept (Discord redelivers only within a
/// session, so a day is plenty).
pub const HANDLED_INTERACTIONS_KEPT: Duration = Duration::from_secs(24 * 3600);
const KEPT_MS: i64 = 24 * 3600 * 1000;
/// How often [`GameService::first_delivery`] prunes them.
const PRUNE_EVERY_MS: i64 = 3600 * 1000;

/// A rebuilt game and the stored state it was rebuilt from.
struct CachedGame {
    ply: u32,
    fen: String,
    updated_at: i64,
    status: GameStatus,
    game: Game,
    moves: Vec<MoveRow>,
}

/// How many rebuilt games are kept (a few hundred concurrent games cost well under 100 MB).
const CACHE_LIMIT: usize = 512;

impl std::fmt::Debug for GameService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameService")
            .field("opts", &self.inner.opts)
            .finish_non_exhaustive()
    }
}

/// A game read from the store and rebuilt by the rules.
struct Loaded {
    row: GameRow,
    game: Game,
    moves: Vec<MoveRow>,
    offer: Option<DrawOfferRow>,
}

impl Loaded {
    fn colour_of(&self, user: u64) -> Option<Color> {
        if user == self.row.white.id {
            Some(Color::White)
        } else if user == self.row.black.id {
            Some(Color::Black)
        } else {
            None
        }
    }
}

fn side(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

fn colour(s: Side) -> Color {
    match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

fn result_text(outcome: &Outcome) -> &'static str {
    match outcome.winner() {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

const WIN_REASONS: [WinReason; 3] = [
    WinReason::Checkmate,
    WinReason::Resignation,
    WinReason::Timeout,
];
const DRAW_REASONS: [DrawReason; 8] = [
    DrawReason::Stalemate,
    DrawReason::DeadPosition,
    DrawReason::Agreement,
    DrawReason::ThreefoldClaim,
    DrawReason::FiftyMoveClaim,
    DrawReason::Fivefold,
    DrawReason::SeventyFiveMoves,
    DrawReason::TimeoutVsInsufficientMaterial,
];
const ABORTED: &str = "aborted";

/// Ends `game` the way a player or the application decided (resignation, timeout,
/// agreement, a claim now or with `claim_move`); automatic endings need nothing.
fn apply_ending(game: &mut Game, outcome: Outcome, claim_move: Option<Move>) -> Result<(), String> {
    if game.outcome() == Some(outcome) {
        return Ok(());
    }
    match outcome {
        Outcome::Decisive {
            winner,
            reason: WinReason::Resignation,
        } => game.resign(!winner).map_err(|e| e.to_string()),
        Outcome::Decisive {
            winner,
            reason: WinReason::Timeout,
        } => game.timeout(!winner).map_err(|e| e.to_string()),
        Outcome::Draw {
            reason: DrawReason::Agreement,
        } => game.agree_draw().map_err(|e| e.to_string()),
        Outcome::Draw {
            reason: reason @ (DrawReason::ThreefoldClaim | DrawReason::FiftyMoveClaim),
        } => {
            let claim = if reason == DrawReason::ThreefoldClaim {
                DrawClaim::ThreefoldRepetition
            } else {
                DrawClaim::FiftyMoves
            };
            match claim_move {
                Some(m) => game.claim_draw_with(m, claim),
                None => game.claim_draw(claim),
            }
            .map_err(|e| e.to_string())
        }
        other => Err(format!("stored outcome {other:?} is not the game's")),
    }
    .map(|_| ())
}

/// The stored outcome of a finished game.
fn stored_outcome(row: &GameRow) -> Result<Option<Outcome>, GameError> {
    if row.status != GameStatus::Finished {
        return Ok(None);
    }
    let term = row.termination.as_deref().unwrap_or("");
    let found = match row.winner {
        Some(w) => WIN_REASONS
            .iter()
            .find(|r| r.as_str() == term)
            .map(|&reason| Outcome::Decisive {
                winner: colour(w),
                reason,
            }),
        None => DRAW_REASONS
            .iter()
            .find(|r| r.as_str() == term)
            .map(|&reason| Outcome::Draw { reason }),
    };
    found.map(Some).ok_or_else(|| {
        GameError::Internal(format!("game {}: unknown termination {term:?}", row.id))
    })
}

fn material(pos: &Position) -> i32 {
    let board = pos.board();
    let mut total = 0;
    for (role, value) in [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ] {
        let w = board.by_piece(Piece {
            color: Color::White,
            role,
        });
        let b = board.by_piece(Piece {
            color: Color::Black,
            role,
        });
        total += value * (w.count() as i32 - b.count() as i32);
    }
    total
}

impl GameService {
    /// Opens (creating it if needed) the database at `path` and applies the migrations.
    pub fn open(path: &Path, opts: ServiceOptions) -> Result<GameService, GameError> {
        Ok(Self::with_store(Store::open(path)?, opts))
    }

    /// A service over an in-memory database (tests and experiments; nothing is kept).
    pub fn open_in_memory(opts: ServiceOptions) -> Result<GameService, GameError> {
        Ok(Self::with_store(Store::open_in_memory()?, opts))
    }

    fn with_store(store: Store, opts: ServiceOptions) -> GameService {
        GameService {
            inner: Arc::new(Inner {
                store: Mutex::new(store),
                cache: Mutex::new(HashMap::new()),
                last_prune: AtomicI64::new(0),
                opts,
            }),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &ServiceOptions {
        &self.inner.opts
    }

    fn now(&self) -> i64 {
        (self.inner.opts.clock)()
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        // A panic while holding the lock rolled its transaction back when it unwound, so the
        // store is consistent: carry on.
        self.inner.store.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn write<T>(
        &self,
        f: impl FnOnce(&Tx<'_>, i64) -> Result<T, GameError>,
    ) -> Result<T, GameError> {
        let now = self.now();
        self.store().immediate(|tx| f(tx, now))
    }

    fn read<T>(&self, f: impl FnOnce(&Tx<'_>) -> Result<T, GameError>) -> Result<T, GameError> {
        self.store().read(f)
    }

    // ---- challenges -------------------------------------------------------------------

    /// `actor` challenges `opponent` (or anyone, when `None`) in `ch`; `colour` is the
    /// challenger's. Refused when a challenge is already waiting or a game is in progress in
    /// the channel, when the opponent is the challenger or a bot, or when the challenger is a
    /// bot. An expired challenge in the channel is closed and replaced.
    pub fn challenge(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        opponent: Option<&UserRef>,
        colour: ColourChoice,
    ) -> Result<ChallengeView, GameError> {
        let me = actor.capped();
        let them = opponent.map(UserRef::capped);
        if me.is_bot {
            return Err(GameError::BotCannotPlay);
        }
        if let Some(o) = &them {
            if o.id == me.id {
                return Err(GameError::CannotChallengeSelf);
            }
            if o.is_bot {
                return Err(GameError::CannotChallengeBot);
            }
        }
        let ttl = self.inner.opts.challenge_ttl.as_millis() as i64;
        self.write(|tx, now| {
            if tx.active_game(ch.channel)?.is_some() {
                return Err(GameError::GameInProgress);
            }
            if let Some(p) = tx.pending_challenge(ch.channel)? {
                if p.expires_at > now {
                    return Err(GameError::ChallengePending);
                }
                tx.resolve_challenge(p.id, ChallengeStatus::Expired, None, None, now)?;
            }
            tx.upsert_user(&me, now)?;
            if let Some(o) = &them {
                tx.upsert_user(o, now)?;
                Self::ping(tx, me.id, o.id, "challenge", now)?;
            }
            let id = tx.insert_challenge(&NewChallenge {
                guild: ch.guild,
                channel: ch.channel,
                challenger: me.id,
                opponent: them.as_ref().map(|o| o.id),
                colour: colour.to_db(),
                now,
                expires_at: now.saturating_add(ttl),
            })?;
            let row = tx
                .challenge(id)?
                .ok_or_else(|| GameError::Internal("challenge vanished".into()))?;
            Ok(ChallengeView::from_row(row))
        })
    }

    /// Counts one ping of `to` caused by `from` (a named challenge, a draw offer, a takeback
    /// request), refusing it when `from` already caused [`PING_LIMIT`] in the last
    /// [`PING_WINDOW`]. Stored, so the limit holds across restarts.
    fn ping(tx: &Tx<'_>, from: u64, to: u64, kind: &str, now: i64) -> Result<(), GameError> {
        let window = PING_WINDOW.as_millis() as i64;
        match tx.record_ping(from, to, kind, now, now - window, PING_LIMIT)? {
            None => Ok(()),
            Some(oldest) => Err(GameError::TooManyPings {
                wait_secs: (oldest + window - now).max(1000).div_euclid(1000) as u64,
            }),
        }
    }

    /// The pending challenge of a channel (an expired one shows as expired).
    pub fn pending_challenge(&self, ch: ChannelRef) -> Result<Option<ChallengeView>, GameError> {
        let now = self.now();
        self.read(|tx| {
            Ok(tx.pending_challenge(ch.channel)?.map(|c| {
                let mut v = ChallengeView::from_row(c);
                if v.expires_at <= now {
                    v.status = ChallengeState::Expired;
                }
                v
            }))
        })
    }

    /// Finds the challenge an answer is about, refusing what cannot be answered.
    fn answerable(
        tx: &Tx<'_>,
        ch: ChannelRef,
        expected: Option<i64>,
        now: i64,
    ) -> Result<ChallengeRow, GameError> {
        let c = match expected {
            Some(id) => {
                let c = tx.challenge(id)?.filter(|c| c.channel == ch.channel);
                let c = c.ok_or(GameError::NoChallenge)?;
                match c.status {
                    ChallengeStatus::Pending => c,
                    ChallengeStatus::Expired => return Err(GameError::ChallengeExpired),
                    ChallengeStatus::Accepted => {
                        return Err(GameError::ChallengeClosed("accepted"));
                    }
                    ChallengeStatus::Declined => {
                        return Err(GameError::ChallengeClosed("declined"));
                    }
                    ChallengeStatus::Cancelled => {
                        return Err(GameError::ChallengeClosed("cancelled"));
                    }
                }
            }
            None => tx
                .pending_challenge(ch.channel)?
                .ok_or(GameError::NoChallenge)?,
        };
        if c.expires_at <= now {
            return Err(GameError::ChallengeExpired);
        }
        Ok(c)
    }

    fn may_answer(c: &ChallengeRow, actor: &UserRow) -> Result<(), GameError> {
        if c.challenger.id == actor.id {
            return Err(GameError::OwnChallenge);
        }
        match &c.opponent {
            Some(o) if o.id != actor.id => Err(GameError::NotChallenged),
            _ => Ok(()),
        }
    }

    /// Accepts the pending challenge of the channel and starts the game.
    pub fn accept(&self, actor: &UserRef, ch: ChannelRef) -> Result<GameView, GameError> {
        self.accept_challenge(actor, ch, None)
    }

    /// Accepts a challenge; with `expected_challenge_id` (from a button), only that one: a
    /// button of an older challenge is refused instead of accepting a newer one.
    pub fn accept_challenge(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_challenge_id: Option<i64>,
    ) -> Result<GameView, GameError> {
        let me = actor.capped();
        self.write(|tx, now| {
            let c = Self::answerable(tx, ch, expected_challenge_id, now)?;
            Self::may_answer(&c, &me)?;
            if me.is_bot {
                return Err(GameError::BotCannotPlay);
            }
            if tx.active_game(ch.channel)?.is_some() {
                return Err(GameError::GameInProgress);
            }
            tx.upsert_user(&me, now)?;
            let challenger_white = match c.colour {
                ColourPick::White => true,
                ColourPick::Black => false,
                ColourPick::Random => fastrand::bool(),
            };
            let (white, black) = if challenger_white {
                (c.challenger.id, me.id)
            } else {
                (me.id, c.challenger.id)
            };
            let start = Position::new().fen();
            let game_id = tx.insert_game(&NewGame {
                guild: ch.guild,
                channel: ch.channel,
                white,
                black,
                start_fen: &start,
                now,
            })?;
            if !tx.resolve_challenge(
                c.id,
                ChallengeStatus::Accepted,
                Some(me.id),
                Some(game_id),
                now,
            )? {
                return Err(GameError::PositionChanged);
            }
            let row = tx
                .game(game_id)?
                .ok_or_else(|| GameError::Internal("game vanished".into()))?;
            self.view(self.load(tx, row)?)
        })
    }

    /// Starts a game between `white` and `black` from `start` directly, without a challenge
    /// (for tests, tools and set positions). The same rules apply as to a challenge: one
    /// game per channel, no bots, two different players.
    pub fn start_game(
        &self,
        white: &UserRef,
        black: &UserRef,
        ch: ChannelRef,
        start: &Position,
    ) -> Result<GameView, GameError> {
        let (w, b) = (white.capped(), black.capped());
        if w.id == b.id {
            return Err(GameError::CannotChallengeSelf);
        }
        if w.is_bot || b.is_bot {
            return Err(GameError::BotCannotPlay);
        }
        let start = start.fen();
        self.write(|tx, now| {
            if tx.active_game(ch.channel)?.is_some() {
                return Err(GameError::GameInProgress);
            }
            tx.upsert_user(&w, now)?;
            tx.upsert_user(&b, now)?;
            let game_id = tx.insert_game(&NewGame {
                guild: ch.guild,
                channel: ch.channel,
                white: w.id,
                black: b.id,
                start_fen: &start,
                now,
            })?;
            let row = tx
                .game(game_id)?
                .ok_or_else(|| GameError::Internal("game vanished".into()))?;
            let l = self.load(tx, row)?;
            match l.game.outcome() {
                // A set position may already be over (mate, stalemate, dead): end it now.
                Some(outcome) => self.finish(tx, l, outcome, None, now),
                None => self.view(l),
            }
        })
    }

    /// Declines the pending challenge (only the challenged user; an open challenge cannot be
    /// declined, only withdrawn by the challenger or accepted).
    pub fn decline(&self, actor: &UserRef, ch: ChannelRef) -> Result<ChallengeView, GameError> {
        self.decline_challenge(actor, ch, None)
    }

    /// Declines a challenge; with `expected_challenge_id`, only that one.
    pub fn decline_challenge(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_challenge_id: Option<i64>,
    ) -> Result<ChallengeView, GameError> {
        let me = actor.capped();
        self.write(|tx, now| {
            let c = Self::answerable(tx, ch, expected_challenge_id, now)?;
            Self::may_answer(&c, &me)?;
            if c.opponent.is_none() {
                // An open challenge is not addressed to anyone: nobody may close it for
                // everyone else. Only the challenger withdraws it (`cancel`).
                return Err(GameError::OpenChallengeDecline);
            }
            tx.upsert_user(&me, now)?;
            tx.resolve_challenge(c.id, ChallengeStatus::Declined, Some(me.id), None, now)?;
            let mut v = ChallengeView::from_row(c);
            v.status = ChallengeState::Declined;
            Ok(v)
        })
    }

    /// Withdraws the pending challenge (only the challenger).
    pub fn cancel(&self, actor: &UserRef, ch: ChannelRef) -> Result<ChallengeView, GameError> {
        let me = actor.capped();
        self.write(|tx, now| {
            let c = tx
                .pending_challenge(ch.channel)?
                .ok_or(GameError::NoChallenge)?;
            if c.challenger.id != me.id {
                return Err(GameError::NotChallenger);
            }
            tx.resolve_challenge(c.id, ChallengeStatus::Cancelled, Some(me.id), None, now)?;
            let mut v = ChallengeView::from_row(c);
            v.status = ChallengeState::Cancelled;
            Ok(v)
        })
    }

    // ---- games ------------------------------------------------------------------------

    fn cache(&self) -> MutexGuard<'_, HashMap<i64, CachedGame>> {
        self.inner.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reads a game's moves and rebuilds it with the rules, or takes it from the cache when
    /// the cached copy is of exactly the stored state: same ply, current FEN, status, time of
    /// the last change and last move (another process writing the same database changes
    /// at least one of them).
    fn load(&self, tx: &Tx<'_>, row: GameRow) -> Result<Loaded, GameError> {
        let hit = {
            let cache = self.cache();
            cache
                .get(&row.id)
                .filter(|c| {
                    c.ply == row.ply
                        && c.fen == row.fen
                        && c.status == row.status
                        && c.updated_at == row.updated_at
                })
                .map(|c| (c.game.clone(), c.moves.clone()))
        };
        if let Some((game, moves)) = hit
            && tx.move_uci(row.id, row.ply.wrapping_sub(1))?.as_deref()
                == moves.last().map(|m| m.uci.as_str())
        {
            let offer = if row.status == GameStatus::Active {
                tx.open_draw_offer(row.id)?
            } else {
                None
            };
            return Ok(Loaded {
                row,
                game,
                moves,
                offer,
            });
        }
        self.rebuild(tx, row)
    }

    fn rebuild(&self, tx: &Tx<'_>, row: GameRow) -> Result<Loaded, GameError> {
        let bad = |what: String| GameError::Internal(format!("game {}: {what}", row.id));
        let start =
            Position::from_fen(&row.start_fen).map_err(|e| bad(format!("start FEN: {e}")))?;
        let moves = tx.moves(row.id)?;
        let mut game = Game::from_position(start);
        for m in &moves {
            let uci: Uci = m
                .uci
                .parse()
                .map_err(|e| bad(format!("ply {} {:?}: {e}", m.ply, m.uci)))?;
            let mv = uci
                .to_move(game.position())
                .map_err(|e| bad(format!("ply {} {:?}: {e}", m.ply, m.uci)))?;
            game.play(mv)
                .map_err(|e| bad(format!("ply {} {:?}: {e}", m.ply, m.uci)))?;
        }
        if game.moves().len() != row.ply as usize {
            return Err(bad(format!(
                "{} moves stored for ply {}",
                game.moves().len(),
                row.ply
            )));
        }
        // A game that ended by a player's decision (resignation, agreement, claim) ends the
        // same way in the rebuilt Game, so that its PGN says so too.
        if let Some(outcome) = stored_outcome(&row)?
            && game.outcome() != Some(outcome)
        {
            let claim_move = match &row.claim_move {
                Some(text) => Some(
                    text.parse::<Uci>()
                        .ok()
                        .and_then(|u| u.to_move(game.position()).ok())
                        .ok_or_else(|| bad(format!("claim move {text:?}")))?,
                ),
                None => None,
            };
            apply_ending(&mut game, outcome, claim_move)
                .map_err(|e| bad(format!("ending: {e}")))?;
        }
        let offer = if row.status == GameStatus::Active {
            tx.open_draw_offer(row.id)?
        } else {
            None
        };
        Ok(Loaded {
            row,
            game,
            moves,
            offer,
        })
    }

    fn view(&self, l: Loaded) -> Result<GameView, GameError> {
        let pos = l.game.position().clone();
        let outcome = stored_outcome(&l.row)?;
        let active = l.row.status == GameStatus::Active;
        let view = Ok(GameView {
            game_id: l.row.id,
            white: l.row.white.clone().into(),
            black: l.row.black.clone().into(),
            ply: l.row.ply,
            fullmove: pos.fullmoves(),
            last_move: l.game.moves().last().copied(),
            last_san: l.moves.last().map(|m| m.san.clone()),
            to_move: pos.turn(),
            check: pos.is_check(),
            outcome,
            claimable: if active {
                l.game.claimable()
            } else {
                Vec::new()
            },
            claimable_now: if active {
                l.game.claimable_now()
            } else {
                Vec::new()
            },
            draw_offer_by: l.offer.as_ref().map(|o| colour(o.by)),
            material: material(&pos),
            finished: !active,
            aborted: l.row.status == GameStatus::Aborted,
            result: l.row.result.clone(),
            sans: l.moves.iter().map(|m| m.san.clone()).collect(),
            position: pos,
        });
        self.keep(l);
        view
    }

    /// Caches a rebuilt game (see [`GameService::load`]).
    fn keep(&self, l: Loaded) {
        let mut cache = self.cache();
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(
            l.row.id,
            CachedGame {
                ply: l.row.ply,
                fen: l.row.fen,
                updated_at: l.row.updated_at,
                status: l.row.status,
                game: l.game,
                moves: l.moves,
            },
        );
    }

    /// The game in progress, or the refusal that says why there is none.
    fn active(&self, tx: &Tx<'_>, ch: ChannelRef) -> Result<Loaded, GameError> {
        match tx.active_game(ch.channel)? {
            Some(row) => self.load(tx, row),
            None => match tx.last_game(ch.channel)? {
                Some(_) => Err(GameError::GameOver),
                None => Err(GameError::NoGame),
            },
        }
    }

    fn player(l: &Loaded, actor: &UserRow) -> Result<Color, GameError> {
        l.colour_of(actor.id).ok_or(GameError::NotAPlayer)
    }

    fn check_ply(l: &Loaded, expected: Option<u32>) -> Result<(), GameError> {
        match expected {
            Some(p) if p != l.row.ply => Err(GameError::PositionChanged),
            _ => Ok(()),
        }
    }

    /// Ends the loaded game with `outcome` (ply-checked) and returns the new view.
    fn finish(
        &self,
        tx: &Tx<'_>,
        mut l: Loaded,
        outcome: Outcome,
        claim_move: Option<&str>,
        now: i64,
    ) -> Result<GameView, GameError> {
        let result = result_text(&outcome);
        let ending = Ending {
            status: GameStatus::Finished,
            result,
            winner: outcome.winner().map(side),
            termination: outcome.reason_str(),
            claim_move,
            now,
        };
        if !tx.finish_game(l.row.id, l.row.ply, &ending)? {
            return Err(GameError::PositionChanged);
        }
        l.row.status = GameStatus::Finished;
        l.row.result = result.to_owned();
        l.row.winner = ending.winner;
        l.row.termination = Some(ending.termination.to_owned());
        l.row.claim_move = claim_move.map(str::to_owned);
        l.row.finished_at = Some(now);
        l.row.updated_at = now;
        let written = match claim_move {
            Some(text) => text
                .parse::<Uci>()
                .ok()
                .and_then(|u| u.to_move(l.game.position()).ok()),
            None => None,
        };
        apply_ending(&mut l.game, outcome, written)
            .map_err(|e| GameError::Internal(format!("game {}: ending: {e}", l.row.id)))?;
        l.offer = None;
        self.view(l)
    }

    /// Plays `text` (any notation the rules' reader knows; `lang` decides what `R` means) for
    /// `actor` in the channel's game. With `claim_draw`, the move comes with a draw claim
    /// (FIDE 9.2/9.3): when the position after the move (or, failing that, the current
    /// position) qualifies for threefold repetition or the 50-move rule, the game ends drawn
    /// and the move is written but not played; otherwise nothing happens and the claim is
    /// refused.
    pub fn play_move(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        text: &str,
        lang: Lang,
        claim_draw: bool,
    ) -> Result<MoveResult, GameError> {
        self.play_move_at(actor, ch, text, lang, claim_draw, None)
    }

    /// [`play_move`](Self::play_move), refused with [`GameError::PositionChanged`] unless
    /// the game is still at `expected_ply` plies (the ply the player saw): of two moves
    /// racing for the same ply, exactly one lands.
    pub fn play_move_at(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        text: &str,
        lang: Lang,
        claim_draw: bool,
        expected_ply: Option<u32>,
    ) -> Result<MoveResult, GameError> {
        // Cap before anything else looks at the text.
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
        let me = actor.capped();
        self.write(|tx, now| {
            let mut l = self.active(tx, ch)?;
            let mine = Self::player(&l, &me)?;
            Self::check_ply(&l, expected_ply)?;
            if l.game.position().turn() != mine {
                return Err(GameError::NotYourTurn);
            }
            let mv =
                cajitas_rules::read_move(l.game.position(), text, lang).map_err(GameError::Move)?;
            let san = cajitas_rules::san(l.game.position(), mv);
            let uci = Uci::from_move(mv).to_string();
            tx.upsert_user(&me, now)?;
            if claim_draw {
                let with = l.game.claimable_with(mv);
                let (claim, outcome, written) = if let Some(&c) = with.first() {
                    let o = l
                        .game
                        .claim_draw_with(mv, c)
                        .map_err(|e| GameError::Internal(format!("claim with move: {e}")))?;
                    (c, o, Some(uci.as_str()))
                } else if let Some(&c) = l.game.claimable_now().first() {
                    let o = l
                        .game
                        .claim_draw(c)
                        .map_err(|e| GameError::Internal(format!("claim: {e}")))?;
                    (c, o, None)
                } else {
                    return Err(GameError::NothingToClaimWith(san));
                };
                let view = self.finish(tx, l, outcome, written, now)?;
                return Ok(MoveResult {
                    view,
                    san,
                    claimed: Some(claim),
                });
            }
            l.game
                .play(mv)
                .map_err(|e| GameError::Internal(format!("the reader's move was refused: {e}")))?;
            let row = MoveRow {
                ply: l.row.ply,
                uci,
                san: san.clone(),
                user_id: me.id,
                played_at: now,
            };
            let fen = l.game.position().fen();
            if !tx.append_move(l.row.id, l.row.ply, &row, &fen)? {
                return Err(GameError::PositionChanged);
            }
            // The opponent's standing offer lapses when this player moves instead of answering.
            tx.resolve_draw_offer(l.row.id, Some(side(!mine)), OfferStatus::Lapsed, now)?;
            if l.offer.as_ref().is_some_and(|o| o.by != side(mine)) {
                l.offer = None;
            }
            l.row.ply += 1;
            l.row.fen = fen;
            l.row.updated_at = now;
            l.moves.push(row);
            let view = match l.game.outcome() {
                Some(outcome) => self.finish(tx, l, outcome, None, now)?,
                None => self.view(l)?,
            };
            Ok(MoveResult {
                view,
                san,
                claimed: None,
            })
        })
    }

    /// `actor` resigns; with `expected_ply` (from a confirmation button), only if the game
    /// has not moved on since.
    pub fn resign(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_ply: Option<u32>,
    ) -> Result<GameView, GameError> {
        let me = actor.capped();
        self.write(|tx, now| {
            let l = self.active(tx, ch)?;
            let mine = Self::player(&l, &me)?;
            Self::check_ply(&l, expected_ply)?;
            tx.upsert_user(&me, now)?;
            let outcome = Outcome::Decisive {
                winner: !mine,
                reason: WinReason::Resignation,
            };
            self.finish(tx, l, outcome, None, now)
        })
    }

    /// `actor` offers a draw. The offer stands until the opponent accepts, declines or moves;
    /// a player has one offer at a time. Offering while the opponent's offer stands accepts
    /// it (the game is drawn by agreement).
    pub fn draw_offer(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_ply: Option<u32>,
    ) -> Result<GameView, GameError> {
        let me = actor.capped();
        self.write(|tx, now| {
            let mut l = self.active(tx, ch)?;
            let mine = Self::player(&l, &me)?;
            Self::check_ply(&l, expected_ply)?;
            tx.upsert_user(&me, now)?;
            match &l.offer {
                Some(o) if o.by == side(mine) => Err(GameError::DrawAlreadyOffered),
                Some(_) => self.agree_draw(tx, l, now),
                None => {
                    let opponent = match mine {
                        Color::White => l.row.black.id,
                        Color::Black => l.row.white.id,
                    };
                    Self::ping(tx, me.id, opponent, "draw_offer", now)?;
                    let id = tx.insert_draw_offer(l.row.id, side(mine), l.row.ply, now)?;
                    l.offer = Some(DrawOfferRow {
                        id,
                        game_id: l.row.id,
                        by: side(mine),
                        ply: l.row.ply,
                        status: OfferStatus::Open,
                        created_at: now,
                    });
                    self.view(l)
                }
            }
        })
    }

    /// The opponent's standing offer, refused as stale when `expected_ply` (from a button)
    /// is not the ply at which it was made.
    fn offer_to_answer(
        l: &Loaded,
        mine: Color,
        expected_ply: Option<u32>,
    ) -> Result<DrawOfferRow, GameError> {
        let Some(o) = l.offer.clone() else {
            return Err(match expected_ply {
                Some(_) => GameError::PositionChanged,
                None => GameError::NoDrawOffer,
            });
        };
        if expected_ply.is_some_and(|p| p != o.ply) {
            return Err(GameError::PositionChanged);
        }
        if o.by == side(mine) {
            return Err(GameError::OwnDrawOffer);
        }
        Ok(o)
    }

    /// Accepts the opponent's draw offer: the game is drawn by agreement.
    pub fn draw_accept(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_ply: Option<u32>,
    ) -> Result<GameView, GameError> {
        let me = actor.capped();
        self.write(|tx, now| {
            let l = self.active(tx, ch)?;
            let mine = Self::player(&l, &me)?;
            Self::offer_to_answer(&l, mine, expected_ply)?;
            tx.upsert_user(&me, now)?;
            self.agree_draw(tx, l, now)
        })
    }

    /// The standing offer is accepted: the game is drawn by agreement.
    fn agree_draw(&self, tx: &Tx<'_>, l: Loaded, now: i64) -> Result<GameView, GameError> {
        tx.resolve_draw_offer(l.row.id, None, OfferStatus::Accepted, now)?;
        let outcome = Outcome::Draw {
            reason: DrawReason::Agreement,
        };
        self.finish(tx, l, outcome, None, now)
    }

    /// Declines the opponent's draw offer: the game goes on.
    pub fn draw_decline(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_ply: Option<u32>,
    ) -> Result<GameView, GameError> {
        let me = actor.capped();
        self.write(|tx, now| {
            let mut l = self.active(tx, ch)?;
            let mine = Self::player(&l, &me)?;
            Self::offer_to_answer(&l, mine, expected_ply)?;
            tx.upsert_user(&me, now)?;
            tx.resolve_draw_offer(l.row.id, None, OfferStatus::Declined, now)?;
            l.offer = None;
            self.view(l)
        })
    }

    /// The player to move claims a draw by threefold repetition or the 50-move rule, when the
    /// current position qualifies (to claim with a move, use `play_move` with `claim_draw`).
    pub fn draw_claim(&self, actor: &UserRef, ch: ChannelRef) -> Result<GameView, GameError> {
        let me = actor.capped();
        self.write(|tx, now| {
            let mut l = self.active(tx, ch)?;
            let mine = Self::player(&l, &me)?;
            if l.game.position().turn() != mine {
                return Err(GameError::ClaimNotYourTurn);
            }
            let Some(&claim) = l.game.claimable_now().first() else {
                return Err(GameError::NothingToClaim);
            };
            let outcome = l
                .game
                .claim_draw(claim)
                .map_err(|e| GameError::Internal(format!("claim: {e}")))?;
            tx.upsert_user(&me, now)?;
            self.finish(tx, l, outcome, None, now)
        })
    }

    /// Either player aborts the game before both have moved: it ends without a result.
    pub fn abort(&self, actor: &UserRef, ch: ChannelRef) -> Result<GameView, GameError> {
        let me = actor.capped();
        self.write(|tx, now| {
            let mut l = self.active(tx, ch)?;
            Self::player(&l, &me)?;
            if l.row.ply >= 2 {
                return Err(GameError::AbortTooLate);
            }
            tx.upsert_user(&me, now)?;
            let ending = Ending {
                status: GameStatus::Aborted,
                result: "*",
                winner: None,
                termination: ABORTED,
                claim_move: None,
                now,
            };
            if !tx.finish_game(l.row.id, l.row.ply, &ending)? {
                return Err(GameError::PositionChanged);
            }
            l.row.status = GameStatus::Aborted;
            l.row.termination = Some(ABORTED.to_owned());
            l.row.finished_at = Some(now);
            l.row.updated_at = now;
            l.offer = None;
            self.view(l)
        })
    }

    /// The channel's game in progress, or its last game when none is.
    pub fn board(&self, ch: ChannelRef) -> Result<GameView, GameError> {
        self.read(|tx| self.view(self.current_or_last(tx, ch)?))
    }

    fn current_or_last(&self, tx: &Tx<'_>, ch: ChannelRef) -> Result<Loaded, GameError> {
        let row = match tx.active_game(ch.channel)? {
            Some(row) => row,
            None => tx.last_game(ch.channel)?.ok_or(GameError::NoGame)?,
        };
        self.load(tx, row)
    }

    /// A game by id.
    pub fn game(&self, game_id: i64) -> Result<GameView, GameError> {
        self.read(|tx| {
            let row = tx.game(game_id)?.ok_or(GameError::NoGame)?;
            self.view(self.load(tx, row)?)
        })
    }

    /// The moves of a game in UCI, as stored.
    pub fn moves_uci(&self, game_id: i64) -> Result<Vec<String>, GameError> {
        self.read(|tx| Ok(tx.moves(game_id)?.into_iter().map(|m| m.uci).collect()))
    }

    /// The PGN of the channel's game in progress, or of its last game.
    pub fn pgn(&self, ch: ChannelRef) -> Result<String, GameError> {
        self.read(|tx| {
            let l = self.current_or_last(tx, ch)?;
            Ok(pgn_of(&l))
        })
    }

    /// The channel's last finished games, newest first (at most `limit`, capped at 100).
    pub fn history(&self, ch: ChannelRef, limit: usize) -> Result<Vec<HistoryEntry>, GameError> {
        self.read(|tx| {
            let rows = tx.finished_games(ch.channel, limit.min(100))?;
            rows.into_iter()
                .map(|row| {
                    let outcome = stored_outcome(&row)?;
                    Ok(HistoryEntry {
                        game_id: row.id,
                        white: row.white.into(),
                        black: row.black.into(),
                        result: row.result,
                        outcome,
                        termination: row.termination.unwrap_or_default(),
                        plies: row.ply,
                        started_at: row.created_at,
                        finished_at: row.finished_at.unwrap_or(row.updated_at),
                    })
                })
                .collect()
        })
    }

    /// The legal moves in SAN for `actor`, when they are to move in the channel's game;
    /// empty otherwise (also when there is no game).
    pub fn legal_moves_for(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
    ) -> Result<Vec<String>, GameError> {
        self.read(|tx| {
            let Some(row) = tx.active_game(ch.channel)? else {
                return Ok(Vec::new());
            };
            let l = self.load(tx, row)?;
            let pos = l.game.position();
            let sans = if l.colour_of(actor.id) == Some(pos.turn()) {
                pos.legal_moves()
                    .iter()
                    .map(|&m| cajitas_rules::san(pos, m))
                    .collect()
            } else {
                Vec::new()
            };
            self.keep(l);
            Ok(sans)
        })
    }

    /// Records that an interaction (a Discord interaction id) was handled; false when it
    /// already was, so a redelivered interaction can be ignored.
    ///
    /// Once an hour (by the service's clock) the same transaction also forgets the ids
    /// older than [`HANDLED_INTERACTIONS_KEPT`], so a bot that runs for months keeps about a
    /// day of them.
    pub fn first_delivery(&self, interaction_id: u64) -> Result<bool, GameError> {
        self.write(|tx, now| {
            let first = tx.mark_interaction(interaction_id, now)?;
            let last = self.inner.last_prune.load(AtomicOrdering::Relaxed);
            if now.saturating_sub(last) >= PRUNE_EVERY_MS {
                tx.prune_interactions(now.saturating_sub(KEPT_MS))?;
                self.inner.last_prune.store(now, AtomicOrdering::Relaxed);
            }
            Ok(first)
        })
    }

    /// A setting of a front end (e.g. the hash of the Discord commands last registered).
    pub fn bot_setting(&self, key: &str) -> Result<Option<String>, GameError> {
        self.read(|tx| Ok(tx.setting(key)?))
    }

    /// Stores a setting of a front end.
    pub fn set_bot_setting(&self, key: &str, value: &str) -> Result<(), GameError> {
        self.write(|tx, now| Ok(tx.set_setting(key, value, now)?))
    }

    /// Forgets the handled interactions older than `age` (Discord redelivers only within a
    /// session, so a day is plenty). Returns how many were forgotten.
    pub fn forget_interactions(&self, age: Duration) -> Result<usize, GameError> {
        self.write(|tx, now| {
            let before = now.saturating_sub(i64::try_from(age.as_millis()).unwrap_or(i64::MAX));
            Ok(tx.prune_interactions(before)?)
        })
    }
}

/// "YYYY.MM.DD" (UTC) of a Unix time in ms, for the PGN Date tag.
fn pgn_date(unix_ms: i64) -> String {
    // Howard Hinnant's civil_from_days.
    let z = unix_ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn pgn_of(l: &Loaded) -> String {
    let tags = cajitas_rules::pgn::Tags {
        event: "Cajitas casual game".to_owned(),
        site: "Discord".to_owned(),
        date: pgn_date(l.row.created_at),
        round: "-".to_owned(),
        white: l.row.white.name.clone(),
        black: l.row.black.name.clone(),
        extra: Vec::new(),
    };
    cajitas_rules::pgn::write_game(&l.game, &tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_service_can_be_shared_across_threads() {
        fn shareable<T: Send + Sync + Clone + 'static>() {}
        shareable::<GameService>();
        fn sendable<T: Send + 'static>() {}
        sendable::<GameView>();
        sendable::<GameError>();
    }

    #[test]
    fn pgn_dates_are_civil_utc() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_795_000_000_000), "2026.11.18");
    }

    #[test]
    fn the_ttl_is_read_from_text() {
        let d = ServiceOptions::with_ttl_text(None).unwrap();
        assert_eq!(d.challenge_ttl, DEFAULT_CHALLENGE_TTL);
        let d = ServiceOptions::with_ttl_text(Some(" ")).unwrap();
        assert_eq!(d.challenge_ttl, DEFAULT_CHALLENGE_TTL);
        let d = ServiceOptions::with_ttl_text(Some("90")).unwrap();
        assert_eq!(d.challenge_ttl, Duration::from_secs(90));
        for bad in ["0", "-5", "ten", "99999999"] {
            let e = ServiceOptions::with_ttl_text(Some(bad)).unwrap_err();
            assert!(e.contains(CHALLENGE_TTL_VAR), "{e}");
        }
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
