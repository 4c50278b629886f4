//! Puzzles from the server's own games (issue 30), the service's side: which finished games
//! are searched, the search's claim (one process at a time, across restarts), and the found
//! puzzles stored with their source.
//!
//! The engine room searches (`crate::engine::searcher`); here the store is asked and written.
//! A game is queued for a search in the transaction that ends it (`GameService::queue_puzzle_search`), so a
//! search is never lost to a crash between the ending and the search; a searcher claims
//! the oldest pending search for [`SEARCH_LEASE`] (renewed as it goes), and its finding is
//! stored in one transaction with the search marked done, only while the claim is still its
//! own: two processes never store one game's search twice.

use std::time::Duration;

use cajitas_rules::{Game, Position};

use super::ratings::{PARAMS, is_engine_game, pool_of};
use super::{GameError, GameService, UserRef};
use crate::puzzles::{HEADER, PuzzleSet};
use crate::store::{GameRow, GameStatus, NewServerPuzzle, ServerPuzzleRow, Tx};

/// A finished game needs at least this many plies to be searched: shorter games are
/// opening traps or early resignations, and their few positions are mostly book.
pub const MIN_PLIES: u32 = 20;

/// How long a claim on a search holds before another process may take it; renewed as the
/// search goes (each evaluated position), so only a dead process's claim lapses.
pub const SEARCH_LEASE: Duration = Duration::from_secs(600);

/// How long after a failed try (the engine failed twice on a position) the search is tried
/// again.
pub const RETRY_AFTER: Duration = Duration::from_secs(600);

/// Tries before a search is given up.
pub const MAX_TRIES: u32 = 3;

/// Whether a game that ended as `row` says is searched for puzzles: finished (not aborted),
/// of [`MIN_PLIES`] plies at least, from the standard start (a Chess960 row would not be a
/// lichess puzzle), and between people: a game against the engine (or any bot) is not
/// searched — its engine side plays the deliberately weak moves of its level, which would
/// fill the server's puzzles with one person's practice games.
pub fn worth_searching(row: &GameRow) -> bool {
    row.status == GameStatus::Finished
        && row.ply >= MIN_PLIES
        && !is_engine_game(row)
        && Position::from_fen(&row.start_fen).is_ok_and(|p| p == Position::new())
}

impl GameService {
    /// Queues game `row` for a search when it is worth one (called by `end_game`, in the
    /// transaction that ends it).
    pub(super) fn queue_puzzle_search(
        tx: &dyn Tx,
        row: &GameRow,
        now: i64,
    ) -> Result<(), GameError> {
        if worth_searching(row) {
            tx.queue_puzzle_search(row.id, now)?;
        }
        Ok(())
    }
}

/// A claimed search: the game to search and what its puzzles will name as their source.
#[derive(Debug, Clone)]
pub struct PuzzleSearch {
    /// The game.
    pub game_id: i64,
    /// Its pool (the server, else the channel).
    pub pool: i64,
    /// Its server.
    pub guild: Option<u64>,
    /// The thread it was played in.
    pub thread: Option<u64>,
    /// White.
    pub white: UserRef,
    /// Black.
    pub black: UserRef,
    /// The game, replayed.
    pub game: Game,
}

/// A puzzle the engine room found in a searched game.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundLine {
    /// Its id.
    pub id: String,
    /// The mistake's index in the game's moves.
    pub ply: usize,
    /// The position before the mistake, as FEN.
    pub fen: String,
    /// The line in UCI, space-separated, the mistake first.
    pub moves: String,
    /// Its tags.
    pub themes: Vec<String>,
}

/// The link to a game's thread, when it had one.
pub fn thread_url(guild: Option<u64>, thread: Option<u64>) -> String {
    match (guild, thread) {
        (Some(g), Some(t)) => format!("https://discord.com/channels/{g}/{t}"),
        _ => String::new(),
    }
}

/// Whether `line` is a puzzle as the loader reads one (its moves replay from its FEN, an
/// even number of them): a finding that is not is never stored.
fn replays(line: &FoundLine) -> bool {
    if line.id.contains(',') || line.themes.iter().any(|t| t.contains([',', ' '])) {
        return false;
    }
    let row = format!(
        "{HEADER}\n{},{},{},1500,500,0,0,{},,,",
        line.id,
        line.fen,
        line.moves,
        line.themes.join(" ")
    );
    let (set, bad) = PuzzleSet::parse(&row);
    bad.is_empty() && set.len() == 1
}

/// Puzzles from the server's games: the searches' claims and the found puzzles. From
/// [`GameService::server_puzzles`].
#[derive(Debug, Clone, Copy)]
pub struct ServerPuzzles<'a> {
    pub(super) svc: &'a GameService,
}

fn lease_ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 4)
}

impl ServerPuzzles<'_> {
    /// Claims the oldest pending search for `owner` (a random id per process), replaying its
    /// game. `None` when nothing is pending. A game that can no longer be read is given up.
    pub fn claim(&self, owner: u64) -> Result<Option<PuzzleSearch>, GameError> {
        loop {
            let claimed = self.svc.write(|tx, now| {
                let Some(id) = tx.claim_puzzle_search(owner, now, now + lease_ms(SEARCH_LEASE))?
                else {
                    return Ok(None);
                };
                let loaded = tx
                    .game(id)?
                    .ok_or_else(|| GameError::Failed(super::Failure::Vanished(format!("game {id}"))))
                    .and_then(|row| self.svc.load(tx, row));
                match loaded {
                    Ok(l) => Ok(Some(Some(PuzzleSearch {
                        game_id: id,
                        pool: pool_of(l.row.guild, l.row.channel),
                        guild: l.row.guild,
                        thread: l.row.thread,
                        white: l.row.white.clone().into(),
                        black: l.row.black.clone().into(),
                        game: l.game.clone(),
                    }))),
                    Err(e) => {
                        tracing::warn!(game = id, error = %e, "a game queued for puzzles cannot be read: given up");
                        tx.fail_puzzle_search(id, owner, now, 0, now)?;
                        Ok(Some(None))
                    }
                }
            })?;
            match claimed {
                None => return Ok(None),
                Some(Some(search)) => return Ok(Some(search)),
                Some(None) => continue,
            }
        }
    }

    /// Extends `owner`'s claim on game `game_id`'s search; `false` when it is no longer
    /// theirs.
    pub fn renew(&self, game_id: i64, owner: u64) -> Result<bool, GameError> {
        self.svc.write(|tx, now| {
            Ok(tx.renew_puzzle_search(game_id, owner, now + lease_ms(SEARCH_LEASE))?)
        })
    }

    /// Stores what `owner`'s search of `search` found and marks it done, in one transaction;
    /// a finding that does not replay is left out (logged). `None`, nothing written, when the
    /// claim is no longer `owner`'s. Returns how many puzzles were stored.
    pub fn store(
        &self,
        search: &PuzzleSearch,
        owner: u64,
        found: &[FoundLine],
    ) -> Result<Option<usize>, GameError> {
        let url = thread_url(search.guild, search.thread);
        let stored = self.svc.write(|tx, now| {
            let mut stored = 0;
            for line in found {
                if !replays(line) {
                    tracing::warn!(game = search.game_id, id = %line.id, "a found puzzle does not replay: left out");
                    continue;
                }
                let themes = line.themes.join(" ");
                let new = NewServerPuzzle {
                    id: &line.id,
                    pool: search.pool,
                    game_id: search.game_id,
                    white_id: search.white.id,
                    black_id: search.black.id,
                    ply: i64::try_from(line.ply).unwrap_or(i64::MAX),
                    guild: search.guild,
                    thread: search.thread,
                    fen: &line.fen,
                    moves: &line.moves,
                    themes: &themes,
                    game_url: &url,
                    rating: PARAMS.start.rating,
                    deviation: PARAMS.start.deviation,
                    volatility: PARAMS.start.volatility,
                };
                if tx.insert_server_puzzle(&new, now)? {
                    stored += 1;
                }
            }
            if !tx.finish_puzzle_search(search.game_id, owner, stored as u32, now)? {
                return Err(GameError::PositionChanged);
            }
            Ok(stored)
        });
        match stored {
            Ok(n) => Ok(Some(n)),
            Err(GameError::PositionChanged) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `owner`'s search of game `game_id` failed: it is tried again after [`RETRY_AFTER`],
    /// [`MAX_TRIES`] times in all. `false` when the claim was no longer theirs.
    pub fn failed(&self, game_id: i64, owner: u64) -> Result<bool, GameError> {
        self.svc.write(|tx, now| {
            Ok(tx.fail_puzzle_search(
                game_id,
                owner,
                now + lease_ms(RETRY_AFTER),
                MAX_TRIES,
                now,
            )?)
        })
    }

    /// The puzzles found in the games of `pool`, by rising rating.
    pub fn of_pool(&self, pool: i64) -> Result<Vec<ServerPuzzleRow>, GameError> {
        self.svc.read(|tx| Ok(tx.server_puzzles_of(pool)?))
    }

    /// Where game `game_id`'s search stands, if it was queued.
    pub fn search_of(
        &self,
        game_id: i64,
    ) -> Result<Option<crate::store::PuzzleSearchRow>, GameError> {
        self.svc.read(|tx| Ok(tx.puzzle_search(game_id)?))
    }
}
