//! The records as the store reads and writes them: plain data, ids, texts, numbers and the
//! shared words of [`crate::vocab`].

use crate::vocab::{
    ChallengeStatus, ClockKind, ColourPick, EventKind, GameStatus, OfferStatus, PuzzleStatus,
    RANKED_MAX_DEVIATION, RANKED_MIN_GAMES, RANKED_RD2_PER_MS, Side, Speed,
};

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
    /// Its game's Chess960 start position by number (migration 0022); `None`: standard.
    pub chess960: Option<u32>,
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
    /// Its Chess960 start position by number (migration 0022); `None`: standard chess.
    pub chess960: Option<u32>,
    /// The sides that went berserk in an arena (migration 0023): bit 1 White, bit 2 Black;
    /// a berserk side earns no increment.
    pub berserk: u8,
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

/// One of the first moves of a player's finished game from the standard start, for the
/// openings they play (`Games::opening_moves_of`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpeningMoveRow {
    /// The game.
    pub game_id: i64,
    /// White.
    pub white: u64,
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The move in UCI.
    pub uci: String,
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
    /// Who challenges (must already be stored with [`Users::upsert_user`](crate::store::Users::upsert_user)).
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
    /// Its game's Chess960 start position by number; `None`: standard chess.
    pub chess960: Option<u32>,
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
    /// Its Chess960 start position by number; `None`: standard chess.
    pub chess960: Option<u32>,
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

/// One attempt at a puzzle (migration 0019).
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleAttemptRow {
    /// Its id.
    pub id: i64,
    /// The pool: the guild's id, or outside a server the channel's.
    pub pool: i64,
    /// The channel or thread it is played in.
    pub channel: u64,
    /// The solver.
    pub user_id: u64,
    /// The puzzle's id (lichess's).
    pub puzzle_id: String,
    /// How many moves of the puzzle's line are on the board.
    pub ply: i64,
    /// Whether a hint was given.
    pub hinted: bool,
    /// Whether it counts for the solver's puzzle rating.
    pub rated: bool,
    /// Where it stands.
    pub status: PuzzleStatus,
    /// When it began (Unix ms).
    pub started_at: i64,
    /// When it ended.
    pub finished_at: Option<i64>,
    /// A rated attempt's change: the rating and deviation before and after.
    pub change: Option<PuzzleChangeRow>,
    /// The Puzzle Streak run it belongs to (migration 0020).
    pub run_id: Option<i64>,
    /// The day of the daily puzzle it attempts (migration 0021).
    pub daily_day: Option<i64>,
}

/// A Puzzle Streak run (migration 0020).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleRunRow {
    /// Its id.
    pub id: i64,
    /// The pool.
    pub pool: i64,
    /// The channel or thread it is played in.
    pub channel: u64,
    /// The solver.
    pub user_id: u64,
    /// The ladder's puzzle ids, in the order served.
    pub ladder: Vec<String>,
    /// Puzzles solved so far.
    pub solved: u32,
    /// Whether it is over.
    pub ended: bool,
}

/// A rated attempt's change (migration 0019).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PuzzleChangeRow {
    /// The rating before.
    pub rating_before: f64,
    /// The deviation before (widened by inactivity, as used).
    pub deviation_before: f64,
    /// The rating after.
    pub rating_after: f64,
    /// The deviation after.
    pub deviation_after: f64,
}

/// A person's puzzle rating in a pool (migration 0019).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PuzzleRatingRow {
    /// The rating.
    pub rating: f64,
    /// The stored deviation (as of `rated_at`).
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
    /// Rated attempts.
    pub attempts: u32,
    /// The end of their last rated attempt (Unix ms).
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

/// Whether `r` is on its leaderboard at `now` (Unix ms): [`RANKED_MIN_GAMES`] rated games and
/// a deviation, widened by the inactivity since `rated_at`, below [`RANKED_MAX_DEVIATION`].
/// Both stores' SQL tests exactly this: the partial index's conditions and the stored
/// [`steady_until`] (migration 0017), summed per cell of (epoch, band) where a whole cell is
/// on one side of `now` (migration 0018, [`LEADERBOARD_EPOCH_MS`]).
pub fn ranked_at(r: &RatingRow, now: i64) -> bool {
    r.games >= RANKED_MIN_GAMES && steady_at(r, now)
}

/// Whether `r`'s deviation, widened by the inactivity since `rated_at` up to `now`, is below
/// [`RANKED_MAX_DEVIATION`]: the leaderboard's test of the RD (see [`ranked_at`]).
pub fn steady_at(r: &RatingRow, now: i64) -> bool {
    now < steady_until(r.deviation, r.volatility, r.rated_at)
}

/// The longest a rating stays steady without games, in ms (about 31,700 years): a volatility
/// near 0 would otherwise overflow the moment.
const STEADY_MAX_MS: f64 = 1e15;

/// The first moment (Unix ms) at which a deviation stored at `rated_at`, widened by
/// inactivity, is no longer below [`RANKED_MAX_DEVIATION`]: Glicko-2's decay
/// `RD'² = RD² + ms · RANKED_RD2_PER_MS · σ²` reaches 110² after
/// `(110² − RD²) / (RANKED_RD2_PER_MS · σ²)` ms. Steady at `now` ⇔ `now < steady_until`
/// (for an integer `now`, `x < t` ⇔ `x < ⌈t⌉`). A deviation already at 110 or above was
/// never steady: `i64::MIN`. Stored with every rating (column `steady_until`), so the
/// leaderboard's SQL compares one integer per entry; migration 0017 computed it for the rows
/// before it with the same operations in the same order.
pub fn steady_until(deviation: f64, volatility: f64, rated_at: i64) -> i64 {
    let room = RANKED_MAX_DEVIATION * RANKED_MAX_DEVIATION - deviation * deviation;
    if !(deviation < RANKED_MAX_DEVIATION && room > 0.0) {
        return i64::MIN;
    }
    if volatility == 0.0 {
        return rated_at.saturating_add(STEADY_MAX_MS as i64);
    }
    let ms = (room / (RANKED_RD2_PER_MS * (volatility * volatility))).min(STEADY_MAX_MS);
    rated_at.saturating_add(ms.ceil() as i64)
}

/// The width of a leaderboard band, in rating points: a rating's band is
/// `trunc(rating / LEADERBOARD_BAND)` ([`leaderboard_band`]). Migration 0018 writes it as
/// `50.0` in its SQL (the cells' keys, kept by triggers); both must say the same.
pub const LEADERBOARD_BAND: f64 = 50.0;

/// The length of a leaderboard epoch, in ms (a week): a moment's epoch is
/// `moment / LEADERBOARD_EPOCH_MS`, truncated ([`leaderboard_epoch`]). Migration 0018 writes
/// it as `604800000` in its SQL; both must say the same.
pub const LEADERBOARD_EPOCH_MS: i64 = 7 * 86_400_000;

/// A rating's band (migration 0018's `CAST(rating / 50.0 AS INTEGER)`, PostgreSQL's
/// `trunc(rating / 50.0)::bigint`): the same IEEE division, truncated toward zero (`as`
/// saturates, as SQLite's CAST does). Never smaller for a greater rating: `x ≤ y` ⇒
/// `x / 50 ≤ y / 50` (a correctly rounded division is monotone) ⇒ the truncations too.
pub fn leaderboard_band(rating: f64) -> i64 {
    (rating / LEADERBOARD_BAND).trunc() as i64
}

/// A moment's epoch (migration 0018's `steady_until / 604800000`, an integer division that
/// truncates toward zero in SQLite, PostgreSQL and Rust alike). Never smaller for a later
/// moment.
pub fn leaderboard_epoch(moment: i64) -> i64 {
    moment / LEADERBOARD_EPOCH_MS
}

/// The last moment of `epoch` (the greatest `m` with `leaderboard_epoch(m) == epoch`):
/// truncation puts `(e−1)·W+1 ..= e·W` in a negative epoch `e`, `e·W ..= (e+1)·W−1` in
/// the others (`−W+1 ..= W−1` in epoch 0). Saturates at `i64::MAX` for the last epoch.
pub fn leaderboard_epoch_last(epoch: i64) -> i64 {
    if epoch < 0 {
        epoch * LEADERBOARD_EPOCH_MS
    } else {
        (epoch + 1)
            .checked_mul(LEADERBOARD_EPOCH_MS)
            .map_or(i64::MAX, |m| m - 1)
    }
}

/// An upper bound, exclusive, of the ratings of `band`: every rating `r` with
/// `leaderboard_band(r) == band` is below `LEADERBOARD_BAND · (band + 1)`. Proof: let
/// `h = 50·(band+1)`, exact in f64 for any band of a finite rating below 2⁴⁶ in magnitude,
/// with `h / 50 = band + 1` exactly. If `r ≥ h`, then `r / 50 ≥ band + 1` (monotone
/// division), and truncation, monotone and fixing the integer `band + 1`, gives
/// `leaderboard_band(r) ≥ band + 1`.
pub fn leaderboard_band_end(band: i64) -> f64 {
    LEADERBOARD_BAND * (band as f64 + 1.0)
}
