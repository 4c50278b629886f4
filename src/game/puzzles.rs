//! The `Puzzles` use case: starting a puzzle, answering it move by move, a hint, the solution,
//! and the puzzle rating each attempt that counts changes (issue 30).
//!
//! The rules of an attempt are [`crate::puzzles::Attempt`]'s (pure); here they are stored, one
//! transaction per operation: an answer resumes the attempt from its stored ply, reads the
//! move as a game's move is read (every notation the reader knows), and writes the new ply
//! with a ply-checked `UPDATE`, so two racing answers never both land.
//!
//! Ratings: a person has one puzzle rating per pool (the server, else the channel, as games),
//! apart from the game pools: Glicko-2 with the games' parameters ([`super::ratings::PARAMS`]),
//! the attempt rated as a game against the puzzle's own rating and deviation, without a colour
//! advantage, won when solved and lost when failed (asking for the solution fails it). An
//! attempt counts only when it is the person's first at that puzzle in the pool and no hint
//! was given; a puzzle left for another one in the same place is abandoned, never rated, and
//! counts as seen.
//!
//! Puzzle Streak, as lichess's: a run serves a ladder of puzzles of rising difficulty (drawn
//! at its start, [`crate::puzzles::PuzzleSet::streak_ladder`]), unrated, without hints, one
//! after another in the same place until the first mistake. A solved puzzle's answer starts
//! the next one in the same transaction; a failure, the solution, another puzzle started in
//! the place, or the ladder's top ends the run. Its score is the puzzles solved, and a
//! person's best run in the pool is their streak record.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use cajitas_rules::{Color, Move, Position, SanPlus};

use super::ratings::{
    Glicko, LEADERBOARD_PAGE, PARAMS, RANKED_MAX_DEVIATION, RANKED_MIN_GAMES, Shown, as_of, pool_of,
};
use super::views::san_line;
use super::{ChannelRef, Failure, GameError, GameService, Lang, UserRef};
use crate::puzzles::{self, Answer, Attempt, AttemptState, Hint, MAX_ID_CHARS, MAX_THEME_CHARS};
use crate::store::{
    AttemptStep, NewAttempt, PuzzleAttemptRow, PuzzleChangeRow, PuzzleRatingRow, PuzzleRunRow,
    PuzzleStatus, ServerPuzzleRow, Tx,
};

/// The lowest rating a person may ask puzzles around.
pub const MIN_PUZZLE_RATING: i32 = 400;
/// The highest.
pub const MAX_PUZZLE_RATING: i32 = 3200;

/// What a person asks for: a puzzle by id, or one chosen for them, of a theme and around a
/// rating when given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PuzzleRequest {
    /// lichess's id of the puzzle wanted.
    pub id: Option<String>,
    /// A theme (lichess's id, compared without case).
    pub theme: Option<String>,
    /// The rating to choose around instead of the person's own.
    pub rating: Option<i32>,
    /// Where the chosen puzzle comes from.
    pub source: PuzzleOrigin,
}

/// Where a chosen puzzle comes from: lichess's shipped set, the server's own games, or
/// either (the default: the server's first when one the person has not seen lies within
/// [`SERVER_WINDOW`] of their rating, else lichess's).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PuzzleOrigin {
    /// Either, the server's preferred.
    #[default]
    Any,
    /// Puzzles found in the server's games only.
    Server,
    /// lichess's only.
    Lichess,
}

impl PuzzleOrigin {
    /// Its word in commands (`any`, `server`, `lichess`).
    pub fn as_str(self) -> &'static str {
        match self {
            PuzzleOrigin::Any => "any",
            PuzzleOrigin::Server => "server",
            PuzzleOrigin::Lichess => "lichess",
        }
    }

    /// The origin a word names (compared without case).
    pub fn parse(word: &str) -> Option<PuzzleOrigin> {
        [
            PuzzleOrigin::Any,
            PuzzleOrigin::Server,
            PuzzleOrigin::Lichess,
        ]
        .into_iter()
        .find(|o| o.as_str().eq_ignore_ascii_case(word.trim()))
    }
}

/// How far from the person's rating (points either side) a server's puzzle is preferred to
/// lichess's when the origin is [`PuzzleOrigin::Any`]: the first window, doubled twice.
pub const SERVER_WINDOW: f64 = 400.0;

/// Where a puzzle found in the server's games comes from, as the start line names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleSource {
    /// The game's White.
    pub white: String,
    /// The game's Black.
    pub black: String,
    /// The number of the move the solver plays first.
    pub move_number: u32,
    /// The link to the game's thread, when it had one.
    pub thread_url: Option<String>,
}

impl PuzzleSource {
    fn of(row: &ServerPuzzleRow) -> PuzzleSource {
        // The solver's first move follows the mistake: its ply's move number.
        let solver_ply = u32::try_from(row.ply).unwrap_or(0).saturating_add(1);
        PuzzleSource {
            white: row.white.name.clone(),
            black: row.black.name.clone(),
            move_number: solver_ply / 2 + 1,
            thread_url: Some(row.game_url.clone()).filter(|u| !u.is_empty()),
        }
    }
}

/// A rated attempt's change of the solver's puzzle rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PuzzleChange {
    /// Before (the deviation widened by inactivity, as used).
    pub before: Shown,
    /// After.
    pub after: Shown,
}

impl PuzzleChange {
    /// The change as shown: the rounded ratings' difference.
    pub fn diff(&self) -> i64 {
        self.after.rounded() - self.before.rounded()
    }

    fn from_row(c: &PuzzleChangeRow) -> PuzzleChange {
        PuzzleChange {
            before: Shown {
                rating: c.rating_before,
                deviation: c.deviation_before,
            },
            after: Shown {
                rating: c.rating_after,
                deviation: c.deviation_after,
            },
        }
    }
}

/// An attempt as the front ends show it, after the operation that returned it.
#[derive(Debug, Clone)]
pub struct PuzzleView {
    /// The attempt's id.
    pub attempt_id: i64,
    /// The puzzle.
    pub puzzle: Arc<puzzles::Puzzle>,
    /// Where it comes from, when it was found in one of the server's games.
    pub source: Option<PuzzleSource>,
    /// The board (after a wrong move, before it).
    pub position: Position,
    /// The last move on the board, to tint.
    pub last_move: Move,
    /// The solver's colour (the board's orientation).
    pub solver: Color,
    /// Where the attempt stands.
    pub status: PuzzleStatus,
    /// Whether a hint was given.
    pub hinted: bool,
    /// Whether it counts for the rating (a first attempt without a hint).
    pub rated: bool,
    /// The solver's move this operation played, in English SAN (a wrong one included).
    pub played: Option<String>,
    /// The opponent's reply this operation played, in English SAN.
    pub reply: Option<String>,
    /// After a failure: the rest of the line, in English SAN, from the solver's failed move.
    pub solution: Vec<String>,
    /// The hint this operation gave.
    pub hint: Option<Hint>,
    /// The rating change, once a rated attempt ended.
    pub change: Option<PuzzleChange>,
    /// The Puzzle Streak run the attempt belongs to, as it stands after the operation.
    pub streak: Option<StreakView>,
    /// After a streak's puzzle was solved: the run's next puzzle, started.
    pub next: Option<Box<PuzzleView>>,
    /// The daily puzzle the attempt is at, its live count as it stands after the operation.
    pub daily: Option<super::DailyView>,
}

/// A Puzzle Streak run as the front ends show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreakView {
    /// Puzzles solved so far in the run.
    pub solved: u32,
    /// Whether the run is over.
    pub ended: bool,
    /// The person's best run in the pool, this one included.
    pub best: u32,
    /// How many puzzles the ladder has.
    pub ladder: u32,
}

impl PuzzleView {
    /// The side to move on the board.
    pub fn to_move(&self) -> Color {
        self.position.turn()
    }
}

/// A server's puzzle leaderboards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuzzleBoard {
    /// Puzzle ratings: solvers with at least [`RANKED_MIN_GAMES`] rated attempts and a steady
    /// rating (RD as of now under [`RANKED_MAX_DEVIATION`]), as the game leaderboards list
    /// players.
    Ratings,
    /// Puzzle Streak records: each solver's best run (at least one puzzle solved).
    Streaks,
}

/// A solver's score on a puzzle leaderboard.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PuzzleScore {
    /// A puzzle rating as of now, and its rated attempts.
    Rating {
        /// The rating, its RD widened by inactivity.
        shown: Shown,
        /// Rated attempts.
        attempts: u32,
    },
    /// A best Puzzle Streak (puzzles solved).
    Streak(u32),
}

/// One line of a puzzle leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleLeader {
    /// 1 for the best.
    pub rank: u64,
    /// The solver.
    pub user: UserRef,
    /// Their score.
    pub score: PuzzleScore,
}

/// A page of a puzzle leaderboard, with where its viewer stands.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleBoardView {
    /// Which one.
    pub board: PuzzleBoard,
    /// The page shown, from 0.
    pub page: u32,
    /// How many pages (at least 1).
    pub pages: u32,
    /// The page's lines.
    pub entries: Vec<PuzzleLeader>,
    /// The viewer's line, when they are listed.
    pub me: Option<PuzzleLeader>,
    /// The viewer's score when they are not listed, if they have one.
    pub mine: Option<PuzzleScore>,
}

/// Puzzles: start, answer, hint, solution, the person's puzzle rating.
pub struct Puzzles<'a> {
    pub(super) svc: &'a GameService,
}

fn san(pos: &Position, m: Move) -> String {
    SanPlus::from_move(pos, m).to_string()
}

/// A puzzle being played: lichess's, or one of the server's with its stored row.
struct Held {
    puzzle: Arc<puzzles::Puzzle>,
    server: Option<ServerPuzzleRow>,
}

impl Held {
    fn source(&self) -> Option<PuzzleSource> {
        self.server.as_ref().map(PuzzleSource::of)
    }
}

/// A server's puzzle as the rules read it (its row's fields in lichess's format).
fn server_puzzle(row: &ServerPuzzleRow) -> Result<puzzles::Puzzle, GameError> {
    let line = format!(
        "{},{},{},{},{},0,{},{},{},,",
        row.id,
        row.fen,
        row.moves,
        row.rating.round() as i32,
        row.deviation.round() as i32,
        row.plays,
        row.themes,
        row.game_url.replace(',', ""),
    );
    puzzles::parse_one(&line)
        .map_err(|e| Failure::Vanished(format!("server puzzle {}: {e}", row.id)).into())
}

/// The puzzle with this id: lichess's, else the server's (stored), if either has it.
fn held(tx: &dyn Tx, id: &str) -> Result<Option<Held>, GameError> {
    if let Some(p) = puzzles::shared().get(id) {
        return Ok(Some(Held {
            puzzle: Arc::new(p.clone()),
            server: None,
        }));
    }
    match tx.server_puzzle(id)? {
        Some(row) => Ok(Some(Held {
            puzzle: Arc::new(server_puzzle(&row)?),
            server: Some(row),
        })),
        None => Ok(None),
    }
}

fn puzzle_of(tx: &dyn Tx, row: &PuzzleAttemptRow) -> Result<Held, GameError> {
    held(tx, &row.puzzle_id)?
        .ok_or_else(|| Failure::Vanished(format!("puzzle {}", row.puzzle_id)).into())
}

/// The rating a new solver starts with.
fn start_rating(now: i64) -> PuzzleRatingRow {
    PuzzleRatingRow {
        rating: PARAMS.start.rating,
        deviation: PARAMS.start.deviation,
        volatility: PARAMS.start.volatility,
        attempts: 0,
        rated_at: now,
    }
}

/// `r` as it stands at `now`: the deviation widened by inactivity.
fn glicko_at(r: &PuzzleRatingRow, now: i64) -> Glicko {
    as_of(r.rating, r.deviation, r.volatility, r.rated_at, now)
}

/// How many puzzles [`Puzzles::start`] asks the store about one by one (an index lookup each)
/// before it reads every puzzle the person has seen at once.
const SEEN_LOOKUPS: usize = 16;

/// Chooses a puzzle `user` has not seen in `pool`: each candidate looked up in the store, then,
/// past [`SEEN_LOOKUPS`] candidates seen, all they have seen read at once. A person with
/// thousands of puzzles behind them costs a few lookups, not thousands of rows, as long as
/// the window holds unseen ones.
#[allow(clippy::too_many_arguments)]
fn choose_unseen<'s>(
    tx: &dyn Tx,
    set: &'s puzzles::PuzzleSet,
    pool: i64,
    user: u64,
    theme: Option<&str>,
    target: f64,
    seed: u64,
    widest: f64,
) -> Result<Option<&'s puzzles::Puzzle>, GameError> {
    let mut all: Option<HashSet<String>> = None;
    let mut lookups = 0;
    let mut failed = None;
    let mut seen = |id: &str| -> bool {
        if failed.is_some() {
            return true;
        }
        if all.is_none() && lookups < SEEN_LOOKUPS {
            lookups += 1;
            return tx.has_seen_puzzle(pool, user, id).unwrap_or_else(|e| {
                failed = Some(e);
                true
            });
        }
        if all.is_none() {
            match tx.seen_puzzles(pool, user) {
                Ok(ids) => all = Some(ids.into_iter().collect()),
                Err(e) => {
                    failed = Some(e);
                    return true;
                }
            }
        }
        all.as_ref().is_some_and(|a| a.contains(id))
    };
    let chosen = set.choose_within(&mut seen, theme, target, seed, widest);
    match failed {
        Some(e) => Err(e.into()),
        None => Ok(chosen),
    }
}

/// Ends the Puzzle Streak run of `user`'s attempt open in `channel`, if it belongs to one
/// (another puzzle is starting in its place).
pub(super) fn end_open_run(
    tx: &dyn Tx,
    channel: u64,
    user: u64,
    now: i64,
) -> Result<(), GameError> {
    if let Some(row) = tx.open_puzzle_attempt(channel, user)?
        && let Some(run) = row.run_id
        && let Some(r) = tx.puzzle_run(run)?
        && !r.ended
    {
        tx.advance_puzzle_run(run, r.solved, r.solved, true, now)?;
    }
    Ok(())
}

/// The run `row` belongs to, if any.
fn run_of(tx: &dyn Tx, row: &PuzzleAttemptRow) -> Result<Option<PuzzleRunRow>, GameError> {
    match row.run_id {
        Some(id) => Ok(Some(tx.puzzle_run(id)?.ok_or_else(|| {
            GameError::Failed(Failure::Vanished(format!("puzzle run {id}")))
        })?)),
        None => Ok(None),
    }
}

/// A run as shown, with the person's best.
fn streak_view(tx: &dyn Tx, run: &PuzzleRunRow) -> Result<StreakView, GameError> {
    let best = tx.best_puzzle_run(run.pool, run.user_id)?.unwrap_or(0);
    Ok(StreakView {
        solved: run.solved,
        ended: run.ended,
        best: best.max(run.solved),
        ladder: run.ladder.len() as u32,
    })
}

/// Moves `run` to `solved` puzzles solved, ended or not, checked against what was read.
fn advance_run(
    tx: &dyn Tx,
    run: &mut PuzzleRunRow,
    solved: u32,
    ended: bool,
    now: i64,
) -> Result<(), GameError> {
    if !tx.advance_puzzle_run(run.id, run.solved, solved, ended, now)? {
        return Err(GameError::PositionChanged);
    }
    run.solved = solved;
    run.ended = ended;
    Ok(())
}

/// The daily puzzle attempt `row` is at, if any, its count moved on when `status` ends the
/// person's first finished attempt at it.
fn daily_after(
    tx: &dyn Tx,
    row: &PuzzleAttemptRow,
    status: PuzzleStatus,
) -> Result<Option<super::DailyView>, GameError> {
    let Some(day) = row.daily_day else {
        return Ok(None);
    };
    let guild = row.pool as u64;
    let ended = matches!(status, PuzzleStatus::Solved | PuzzleStatus::Failed);
    if ended && !tx.finished_daily_before(row.pool, row.user_id, day, row.id)? {
        tx.count_daily_attempt(guild, day, status == PuzzleStatus::Solved)?;
    }
    tx.daily(guild, day)?.map(super::daily::view_of).transpose()
}

/// Ends `run` at the puzzles it has solved.
fn end_run(tx: &dyn Tx, run: &mut PuzzleRunRow, now: i64) -> Result<(), GameError> {
    let solved = run.solved;
    advance_run(tx, run, solved, true, now)
}

/// Starts the attempt at the `index`th puzzle of `run`'s ladder.
fn start_in_run(
    tx: &dyn Tx,
    run: &PuzzleRunRow,
    index: usize,
    now: i64,
) -> Result<PuzzleView, GameError> {
    let puzzle = run
        .ladder
        .get(index)
        .and_then(|id| puzzles::shared().get(id))
        .ok_or_else(|| Failure::Vanished(format!("puzzle {index} of run {}", run.id)))?;
    let attempt = Attempt::start(puzzle);
    let id = tx.insert_puzzle_attempt(
        &NewAttempt {
            pool: run.pool,
            channel: run.channel,
            user_id: run.user_id,
            puzzle_id: &puzzle.id,
            ply: attempt.played() as i64,
            rated: false,
            run_id: Some(run.id),
            daily_day: None,
        },
        now,
    )?;
    let mut v = view(id, &attempt, PuzzleStatus::Playing, false);
    v.streak = Some(streak_view(tx, run)?);
    Ok(v)
}

/// The server's puzzles `user` may be offered in `pool` (none from a game they played in),
/// as a set to choose from, with their rows by id.
fn server_set(
    tx: &dyn Tx,
    pool: i64,
    user: u64,
) -> Result<(puzzles::PuzzleSet, HashMap<String, ServerPuzzleRow>), GameError> {
    let mut list = Vec::new();
    let mut rows = HashMap::new();
    for row in tx.server_puzzles_of(pool)? {
        if row.white.id == user || row.black.id == user {
            continue;
        }
        match server_puzzle(&row) {
            Ok(p) => {
                list.push(p);
                rows.insert(row.id.clone(), row);
            }
            Err(e) => tracing::warn!(error = %e, "a server puzzle does not replay: not offered"),
        }
    }
    Ok((puzzles::PuzzleSet::from_puzzles(list), rows))
}

/// Chooses a puzzle `user` has not seen in `pool`, from `origin`: the server's within
/// [`SERVER_WINDOW`] first when either may serve, else lichess's.
#[allow(clippy::too_many_arguments)]
fn choose_from(
    tx: &dyn Tx,
    origin: PuzzleOrigin,
    pool: i64,
    user: u64,
    theme: Option<&str>,
    target: f64,
    seed: u64,
) -> Result<Option<Held>, GameError> {
    if origin != PuzzleOrigin::Lichess {
        let (set, mut rows) = server_set(tx, pool, user)?;
        let widest = if origin == PuzzleOrigin::Server {
            puzzles::MAX_WINDOW
        } else {
            SERVER_WINDOW
        };
        if let Some(p) = choose_unseen(tx, &set, pool, user, theme, target, seed, widest)? {
            return Ok(Some(Held {
                server: rows.remove(&p.id),
                puzzle: Arc::new(p.clone()),
            }));
        }
        if origin == PuzzleOrigin::Server {
            return Ok(None);
        }
    }
    let set = puzzles::shared();
    Ok(choose_unseen(
        tx,
        set,
        pool,
        user,
        theme,
        target,
        seed,
        puzzles::MAX_WINDOW,
    )?
    .map(|p| Held {
        puzzle: Arc::new(p.clone()),
        server: None,
    }))
}

/// A seed for choosing among puzzles: the moment and the person.
fn seed(now: i64, user: u64) -> u64 {
    (now as u64) ^ user.rotate_left(29)
}

impl Puzzles<'_> {
    /// Starts a puzzle for `actor` in `ch`: the one with `req.id`, or one they have not seen in
    /// this pool, of `req.theme`, around `req.rating` or their own puzzle rating. An attempt
    /// they were playing in `ch` is abandoned. The first attempt at a puzzle in the pool is
    /// rated.
    pub fn start(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        req: &PuzzleRequest,
    ) -> Result<PuzzleView, GameError> {
        let set = puzzles::shared();
        let id = match req.id.as_deref().map(str::trim) {
            Some(id) if id.chars().count() > MAX_ID_CHARS => {
                return Err(GameError::TooLong {
                    what: "puzzle id",
                    max: MAX_ID_CHARS,
                });
            }
            Some(id) => Some(id),
            None => None,
        };
        let theme = match req.theme.as_deref() {
            Some(t) if t.chars().count() > MAX_THEME_CHARS => {
                return Err(GameError::TooLong {
                    what: "theme",
                    max: MAX_THEME_CHARS,
                });
            }
            Some(t) => Some(
                set.theme(t)
                    .ok_or_else(|| GameError::UnknownTheme(t.trim().to_string()))?,
            ),
            None => None,
        };
        if let Some(r) = req.rating
            && !(MIN_PUZZLE_RATING..=MAX_PUZZLE_RATING).contains(&r)
        {
            return Err(GameError::PuzzleRatingRange {
                min: MIN_PUZZLE_RATING,
                max: MAX_PUZZLE_RATING,
            });
        }
        let pool = pool_of(ch.guild, ch.channel);
        self.svc.write(|tx, now| {
            tx.upsert_user(&actor.capped(), now)?;
            end_open_run(tx, ch.channel, actor.id, now)?;
            tx.abandon_puzzle_attempt(ch.channel, actor.id, now)?;
            let held = match id {
                // lichess's by id, or one of this server's not from the person's own games.
                Some(id) => held(tx, id)?
                    .filter(|h| {
                        h.server.as_ref().is_none_or(|r| {
                            r.pool == pool && r.white.id != actor.id && r.black.id != actor.id
                        })
                    })
                    .ok_or_else(|| GameError::UnknownPuzzle(id.to_string()))?,
                None => {
                    let target = match req.rating {
                        Some(r) => f64::from(r),
                        None => tx
                            .puzzle_rating(pool, actor.id)?
                            .map_or(PARAMS.start.rating, |r| r.rating),
                    };
                    let seed = seed(now, actor.id);
                    choose_from(tx, req.source, pool, actor.id, theme, target, seed)?
                        .ok_or(GameError::NoPuzzleLeft)?
                }
            };
            let puzzle = &held.puzzle;
            let rated = !tx.has_seen_puzzle(pool, actor.id, &puzzle.id)?;
            let attempt = Attempt::start(puzzle);
            let id = tx.insert_puzzle_attempt(
                &NewAttempt {
                    pool,
                    channel: ch.channel,
                    user_id: actor.id,
                    puzzle_id: &puzzle.id,
                    ply: attempt.played() as i64,
                    rated,
                    run_id: None,
                    daily_day: None,
                },
                now,
            )?;
            let mut v = view(id, &attempt, PuzzleStatus::Playing, rated);
            v.source = held.source();
            Ok(v)
        })
    }

    /// Starts a Puzzle Streak for `actor` in `ch`: a new ladder, its first puzzle served. An
    /// attempt they were playing there is abandoned (and its run, if any, ended).
    pub fn start_streak(&self, actor: &UserRef, ch: ChannelRef) -> Result<PuzzleView, GameError> {
        let pool = pool_of(ch.guild, ch.channel);
        self.svc.write(|tx, now| {
            tx.upsert_user(&actor.capped(), now)?;
            end_open_run(tx, ch.channel, actor.id, now)?;
            tx.abandon_puzzle_attempt(ch.channel, actor.id, now)?;
            let ladder = puzzles::shared().streak_ladder(seed(now, actor.id));
            if ladder.is_empty() {
                return Err(GameError::NoPuzzleLeft);
            }
            let ids: Vec<&str> = ladder.iter().map(|p| p.id.as_str()).collect();
            let run_id = tx.insert_puzzle_run(pool, ch.channel, actor.id, &ids, now)?;
            let run = tx
                .puzzle_run(run_id)?
                .ok_or_else(|| Failure::Vanished(format!("puzzle run {run_id}")))?;
            start_in_run(tx, &run, 0, now)
        })
    }

    /// Page `page` (from 0; past the end, the last page) of the puzzle leaderboard `board` of
    /// the server of `place`, with where `viewer` stands.
    pub fn leaderboard(
        &self,
        place: ChannelRef,
        board: PuzzleBoard,
        page: u32,
        viewer: u64,
    ) -> Result<PuzzleBoardView, GameError> {
        let pool = pool_of(place.guild, place.channel);
        let now = self.svc.now();
        self.svc.read(|tx| {
            let mut mine = None;
            let listed: Vec<(UserRef, PuzzleScore)> = match board {
                PuzzleBoard::Ratings => tx
                    .puzzle_ratings_of(pool)?
                    .into_iter()
                    .filter_map(|(r, u)| {
                        let as_of = glicko_at(&r, now);
                        let steady = as_of.deviation < RANKED_MAX_DEVIATION;
                        let score = PuzzleScore::Rating {
                            shown: as_of.into(),
                            attempts: r.attempts,
                        };
                        if r.attempts >= RANKED_MIN_GAMES && steady {
                            Some((u.into(), score))
                        } else {
                            if u.id == viewer {
                                mine = Some(score);
                            }
                            None
                        }
                    })
                    .collect(),
                PuzzleBoard::Streaks => tx
                    .best_puzzle_runs_of(pool)?
                    .into_iter()
                    .map(|(best, u)| (u.into(), PuzzleScore::Streak(best)))
                    .collect(),
            };
            let per = LEADERBOARD_PAGE as usize;
            let pages = listed.len().div_ceil(per).max(1);
            let page = (page as usize).min(pages - 1);
            let leader = |(i, (user, score)): (usize, &(UserRef, PuzzleScore))| PuzzleLeader {
                rank: i as u64 + 1,
                user: user.clone(),
                score: *score,
            };
            let me = listed
                .iter()
                .enumerate()
                .find(|(_, (u, _))| u.id == viewer)
                .map(leader);
            Ok(PuzzleBoardView {
                board,
                page: page as u32,
                pages: pages as u32,
                entries: listed
                    .iter()
                    .enumerate()
                    .skip(page * per)
                    .take(per)
                    .map(leader)
                    .collect(),
                me,
                mine,
            })
        })
    }

    /// `actor` starts an attempt at `guild`'s daily puzzle of `day` (today's, from its post's
    /// button), played where it was posted; an attempt they were playing there is abandoned.
    /// Rated when it is their first attempt at that puzzle in the server.
    pub fn start_daily(
        &self,
        actor: &UserRef,
        guild: u64,
        day: i64,
    ) -> Result<PuzzleView, GameError> {
        self.svc.write(|tx, now| {
            let row = tx.daily(guild, day)?.ok_or(GameError::NoDailyPuzzle)?;
            if super::day_of(now).0 != day {
                return Err(GameError::NoDailyPuzzle);
            }
            let v = super::daily::view_of(row)?;
            let ch = ChannelRef {
                guild: Some(guild),
                channel: v.channel,
            };
            let pool = pool_of(ch.guild, ch.channel);
            tx.upsert_user(&actor.capped(), now)?;
            end_open_run(tx, ch.channel, actor.id, now)?;
            tx.abandon_puzzle_attempt(ch.channel, actor.id, now)?;
            let rated = !tx.has_seen_puzzle(pool, actor.id, &v.puzzle.id)?;
            let attempt = Attempt::start(v.puzzle);
            let id = tx.insert_puzzle_attempt(
                &NewAttempt {
                    pool,
                    channel: ch.channel,
                    user_id: actor.id,
                    puzzle_id: &v.puzzle.id,
                    ply: attempt.played() as i64,
                    rated,
                    run_id: None,
                    daily_day: Some(day),
                },
                now,
            )?;
            let mut pv = view(id, &attempt, PuzzleStatus::Playing, rated);
            pv.daily = Some(v);
            Ok(pv)
        })
    }

    /// `user`'s best Puzzle Streak in the pool of `ch` (puzzles solved; 0 without a run).
    pub fn best_streak(&self, user: u64, ch: ChannelRef) -> Result<u32, GameError> {
        let pool = pool_of(ch.guild, ch.channel);
        self.svc
            .read(|tx| Ok(tx.best_puzzle_run(pool, user)?.unwrap_or(0)))
    }

    /// Moves `actor`'s attempt `attempt_id`, just started in `ch`, into `thread` (the
    /// puzzle's own thread, opened by the front end once the puzzle was chosen), with its
    /// Puzzle Streak run; answers then go there. Returns the attempt as seen there.
    pub fn move_to_thread(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        attempt_id: i64,
        thread: u64,
    ) -> Result<PuzzleView, GameError> {
        self.svc.write(|tx, _now| {
            if !tx.move_puzzle_attempt(attempt_id, ch.channel, thread)? {
                return Err(GameError::NoPuzzle);
            }
            Ok(())
        })?;
        let at = ChannelRef {
            guild: ch.guild,
            channel: thread,
        };
        self.open(actor, at)?.ok_or(GameError::NoPuzzle)
    }

    /// The attempt `actor` is playing in `ch`, if any.
    pub fn open(&self, actor: &UserRef, ch: ChannelRef) -> Result<Option<PuzzleView>, GameError> {
        self.svc.read(|tx| {
            let Some(row) = tx.open_puzzle_attempt(ch.channel, actor.id)? else {
                return Ok(None);
            };
            let held = puzzle_of(tx, &row)?;
            let attempt = resume(&row, &held.puzzle)?;
            let mut v = view(row.id, &attempt, row.status, row.rated);
            v.source = held.source();
            if let Some(run) = run_of(tx, &row)? {
                v.streak = Some(streak_view(tx, &run)?);
            }
            v.daily = daily_after(tx, &row, PuzzleStatus::Playing)?;
            Ok(Some(v))
        })
    }

    /// The puzzle a move `actor` types in `ch` answers: their open attempt there, while they
    /// play no game in progress there (a game's moves go to the game). The one rule of both
    /// front ends' moves and of Discord's move suggestions.
    pub fn answerable(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
    ) -> Result<Option<PuzzleView>, GameError> {
        let playing = self
            .svc
            .queries()
            .board_for(actor, ch)
            .is_ok_and(|v| v.in_progress_for(actor.id));
        if playing {
            return Ok(None);
        }
        self.open(actor, ch)
    }

    /// `actor` answers their puzzle in `ch` with the move `text` (read in `lang`, and in every
    /// notation the reader knows). A move that cannot be read, or is illegal, is refused and
    /// changes nothing; a legal wrong move fails the attempt.
    pub fn answer(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        text: &str,
        lang: Lang,
    ) -> Result<PuzzleView, GameError> {
        let text = super::move_text(text)?;
        self.svc.write(|tx, now| {
            let (row, held) = open_attempt(tx, actor, ch)?;
            let mut attempt = resume(&row, &held.puzzle)?;
            let before = attempt.position().clone();
            let mv = cajitas_rules::read_move(&before, text, lang).map_err(GameError::Move)?;
            let answer = attempt.answer(mv).map_err(|_| still_open(&row))?;
            let status = status_of(attempt.state());
            let change = finish(tx, &row, &held, &attempt, status, now)?;
            let step = AttemptStep {
                ply: attempt.played() as i64,
                hinted: attempt.hinted(),
                status,
                change,
            };
            advance(tx, &row, &step, now)?;
            let mut v = view(row.id, &attempt, status, row.rated);
            v.source = held.source();
            v.played = Some(san(&before, mv));
            v.change = change.as_ref().map(PuzzleChange::from_row);
            match answer {
                Answer::Continue { played, reply } => {
                    let mut after = before.clone();
                    after.play(played);
                    v.reply = Some(san(&after, reply));
                }
                Answer::Solved { .. } => {}
                Answer::Failed { .. } => {
                    v.solution = san_line(before, attempt.solution());
                }
            }
            v.daily = daily_after(tx, &row, status)?;
            if let Some(mut run) = run_of(tx, &row)? {
                match status {
                    PuzzleStatus::Solved => {
                        let solved = run.solved + 1;
                        let top = solved as usize >= run.ladder.len();
                        advance_run(tx, &mut run, solved, top, now)?;
                        if !top {
                            v.next = Some(Box::new(start_in_run(tx, &run, solved as usize, now)?));
                        }
                    }
                    PuzzleStatus::Failed => end_run(tx, &mut run, now)?,
                    PuzzleStatus::Playing | PuzzleStatus::Abandoned => {}
                }
                v.streak = Some(streak_view(tx, &run)?);
            }
            Ok(v)
        })
    }

    /// The piece `actor` should move in their puzzle in `ch`; the attempt is no longer rated.
    pub fn hint(&self, actor: &UserRef, ch: ChannelRef) -> Result<PuzzleView, GameError> {
        self.svc.write(|tx, now| {
            let (row, held) = open_attempt(tx, actor, ch)?;
            let mut attempt = resume(&row, &held.puzzle)?;
            if row.run_id.is_some() {
                return Err(GameError::NoHintInStreak);
            }
            let hint = attempt.hint().map_err(|_| still_open(&row))?;
            let step = AttemptStep {
                ply: row.ply,
                hinted: true,
                status: PuzzleStatus::Playing,
                change: None,
            };
            advance(tx, &row, &step, now)?;
            let mut v = view(row.id, &attempt, PuzzleStatus::Playing, row.rated);
            v.source = held.source();
            v.hint = Some(hint);
            Ok(v)
        })
    }

    /// `actor` gives up their puzzle in `ch`: it fails (rated as a loss when it counts) and
    /// the view carries the solution.
    pub fn solution(&self, actor: &UserRef, ch: ChannelRef) -> Result<PuzzleView, GameError> {
        self.svc.write(|tx, now| {
            let (row, held) = open_attempt(tx, actor, ch)?;
            let mut attempt = resume(&row, &held.puzzle)?;
            let line = attempt.give_up().map_err(|_| still_open(&row))?;
            let change = finish(tx, &row, &held, &attempt, PuzzleStatus::Failed, now)?;
            let step = AttemptStep {
                ply: row.ply,
                hinted: attempt.hinted(),
                status: PuzzleStatus::Failed,
                change,
            };
            advance(tx, &row, &step, now)?;
            let mut v = view(row.id, &attempt, PuzzleStatus::Failed, row.rated);
            v.source = held.source();
            v.solution = san_line(attempt.position().clone(), line);
            v.change = change.as_ref().map(PuzzleChange::from_row);
            v.daily = daily_after(tx, &row, PuzzleStatus::Failed)?;
            if let Some(mut run) = run_of(tx, &row)? {
                end_run(tx, &mut run, now)?;
                v.streak = Some(streak_view(tx, &run)?);
            }
            Ok(v)
        })
    }

    /// `user`'s puzzle rating in the pool of `ch` as it stands now (the start rating for
    /// someone never rated), and how many rated attempts it counts.
    pub fn rating(&self, user: u64, ch: ChannelRef) -> Result<(Shown, u32), GameError> {
        let pool = pool_of(ch.guild, ch.channel);
        let now = self.svc.now();
        self.svc.read(|tx| {
            let r = tx
                .puzzle_rating(pool, user)?
                .unwrap_or_else(|| start_rating(now));
            Ok((glicko_at(&r, now).into(), r.attempts))
        })
    }
}

/// `actor`'s attempt open in `ch`: its row and its puzzle ([`resume`] resumes it).
fn open_attempt(
    tx: &dyn Tx,
    actor: &UserRef,
    ch: ChannelRef,
) -> Result<(PuzzleAttemptRow, Held), GameError> {
    let row = tx
        .open_puzzle_attempt(ch.channel, actor.id)?
        .ok_or(GameError::NoPuzzle)?;
    let held = puzzle_of(tx, &row)?;
    Ok((row, held))
}

/// Writes `step` of the attempt `row`, checked against the ply it was read at: another answer
/// that landed meanwhile makes this one `PositionChanged`.
fn advance(
    tx: &dyn Tx,
    row: &PuzzleAttemptRow,
    step: &AttemptStep,
    now: i64,
) -> Result<(), GameError> {
    if tx.advance_puzzle_attempt(row.id, row.ply, step, now)? {
        Ok(())
    } else {
        Err(GameError::PositionChanged)
    }
}

/// An open attempt whose rules say it is over: the stored state and the rules disagree.
fn still_open(row: &PuzzleAttemptRow) -> Failure {
    Failure::Vanished(format!("attempt {} still open", row.id))
}

/// An attempt still being played, from its row.
fn resume<'p>(
    row: &PuzzleAttemptRow,
    puzzle: &'p puzzles::Puzzle,
) -> Result<Attempt<'p>, GameError> {
    let played = usize::try_from(row.ply).unwrap_or(usize::MAX);
    let attempt = Attempt::resume(puzzle, played, row.hinted).ok_or_else(|| {
        GameError::Failed(Failure::Vanished(format!(
            "attempt {} at ply {} of puzzle {}",
            row.id, row.ply, row.puzzle_id
        )))
    })?;
    Ok(attempt)
}

fn status_of(s: AttemptState) -> PuzzleStatus {
    match s {
        AttemptState::Playing => PuzzleStatus::Playing,
        AttemptState::Solved => PuzzleStatus::Solved,
        AttemptState::Failed => PuzzleStatus::Failed,
    }
}

/// Rates an attempt that just ended, when it counts (a first attempt without a hint): the
/// solver's rating, locked, against the puzzle's, won when solved. A puzzle of the server's
/// games is rated too, as lichess rates its puzzles: as the solver's opponent (it wins when
/// the solver fails), against the solver's rating before the attempt. Returns the change.
fn finish(
    tx: &dyn Tx,
    row: &PuzzleAttemptRow,
    held: &Held,
    attempt: &Attempt<'_>,
    status: PuzzleStatus,
    now: i64,
) -> Result<Option<PuzzleChangeRow>, GameError> {
    let score = match status {
        PuzzleStatus::Solved => 1.0,
        PuzzleStatus::Failed => 0.0,
        PuzzleStatus::Playing | PuzzleStatus::Abandoned => return Ok(None),
    };
    if !row.rated || attempt.hinted() {
        return Ok(None);
    }
    let stored = tx.puzzle_rating_for_update(row.pool, row.user_id, &start_rating(now))?;
    let before = glicko_at(&stored, now);
    let server = match &held.server {
        Some(s) => Some(
            tx.server_puzzle_for_update(&s.id)?
                .ok_or_else(|| Failure::Vanished(format!("server puzzle {}", s.id)))?,
        ),
        None => None,
    };
    let opponent = match &server {
        Some(s) => Glicko {
            rating: s.rating,
            deviation: s.deviation,
            volatility: s.volatility,
        },
        None => Glicko {
            rating: f64::from(held.puzzle.rating),
            deviation: f64::from(held.puzzle.deviation),
            volatility: PARAMS.start.volatility,
        },
    };
    let after = PARAMS.rate_against(before, opponent, score);
    if let Some(s) = &server {
        let p = PARAMS.rate_against(opponent, before, 1.0 - score);
        tx.rate_server_puzzle(&s.id, p.rating, p.deviation, p.volatility)?;
    }
    tx.put_puzzle_rating(
        row.pool,
        row.user_id,
        &PuzzleRatingRow {
            rating: after.rating,
            deviation: after.deviation,
            volatility: after.volatility,
            attempts: stored.attempts.saturating_add(1),
            rated_at: now,
        },
    )?;
    Ok(Some(PuzzleChangeRow {
        rating_before: before.rating,
        deviation_before: before.deviation,
        rating_after: after.rating,
        deviation_after: after.deviation,
    }))
}

pub(super) fn view(id: i64, a: &Attempt<'_>, status: PuzzleStatus, rated: bool) -> PuzzleView {
    PuzzleView {
        attempt_id: id,
        puzzle: Arc::new(a.puzzle().clone()),
        source: None,
        position: a.position().clone(),
        last_move: a.last_move(),
        solver: a.solver(),
        status,
        hinted: a.hinted(),
        rated: rated && !a.hinted(),
        played: None,
        reply: None,
        solution: Vec::new(),
        hint: None,
        change: None,
        streak: None,
        next: None,
        daily: None,
    }
}
