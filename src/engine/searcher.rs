//! The search for puzzles in the server's finished games, at idle priority (issue 30).
//!
//! One thread per process: it claims the oldest pending search
//! ([`ServerPuzzles::claim`](crate::game::server_puzzles::ServerPuzzles::claim)), runs the
//! finder ([`super::puzzler`]) on the pool's idle lane ([`Pool::idle_lane`]: behind every
//! game's move and every analysis, one idle search at a time, only when no other search
//! runs), renews its claim as the positions come back, and stores what it found with the
//! search marked done. With nothing pending it looks again every [`LOOK_EVERY`] (a game that
//! ends is queued in the store, so a restart, or another process, picks it up).

use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use super::pool::{EngineError, Pool};
use super::puzzler::{Search, find_puzzles, puzzle_id};
use crate::game::server_puzzles::{FoundLine, PuzzleSearch, SEARCH_LEASE};
use crate::game::{GameError, GameService};

/// How often the searcher looks for pending searches when it found none.
pub const LOOK_EVERY: Duration = Duration::from_secs(60);

/// What one look did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Searched {
    /// Nothing was pending.
    Nothing,
    /// Game `game_id` was searched and its puzzles stored (their ids).
    Stored {
        /// The game.
        game_id: i64,
        /// The puzzles stored.
        ids: Vec<String>,
    },
    /// Game `game_id` was searched, but its claim had passed to another process: nothing
    /// stored.
    Lost {
        /// The game.
        game_id: i64,
    },
    /// The engine failed on game `game_id` (or its pool closed): the search is tried again
    /// later.
    Failed {
        /// The game.
        game_id: i64,
    },
}

/// A found puzzle's id: [`puzzle_id`] of the game's id and the mistake's ply.
pub fn server_puzzle_id(game_id: i64, ply: usize) -> String {
    puzzle_id(&format!("cajitas game {game_id}"), ply)
}

/// Claims one pending search for `owner`, searches it on `pool`'s idle lane at `nodes` per
/// search, and stores what it found (blocking: call it from a thread of its own).
pub fn search_once(
    service: &GameService,
    pool: &Pool,
    owner: u64,
    nodes: u64,
) -> Result<Searched, GameError> {
    let sp = service.server_puzzles();
    let Some(search) = sp.claim(owner)? else {
        return Ok(Searched::Nothing);
    };
    let game_id = search.game_id;
    let idle = pool.idle_lane();
    let mut renewed = Instant::now();
    let found = find_puzzles(&idle, &search.game, Search { nodes, person: 0 }, |_, _| {
        // The claim is renewed well before it lapses, as long as positions come back.
        if renewed.elapsed() > SEARCH_LEASE / 4 {
            renewed = Instant::now();
            if let Err(e) = sp.renew(game_id, owner) {
                tracing::warn!(game = game_id, error = %e, "a puzzle search's claim was not renewed");
            }
        }
    });
    match found {
        Ok(found) => {
            let lines = lines_of(&search, &found);
            match sp.store(&search, owner, &lines)? {
                Some(n) => {
                    tracing::info!(
                        game = game_id,
                        puzzles = n,
                        "a finished game was searched for puzzles"
                    );
                    Ok(Searched::Stored {
                        game_id,
                        ids: lines.into_iter().map(|l| l.id).collect(),
                    })
                }
                None => Ok(Searched::Lost { game_id }),
            }
        }
        // The pool is closing (the process stops): the claim is left to lapse, and the
        // search is taken again then, by this process restarted or by another.
        Err(EngineError::Closed) => Ok(Searched::Failed { game_id }),
        Err(e) => {
            tracing::warn!(game = game_id, error = %e, "a puzzle search failed; it will be tried again");
            sp.failed(game_id, owner)?;
            Ok(Searched::Failed { game_id })
        }
    }
}

fn lines_of(search: &PuzzleSearch, found: &[super::puzzler::FoundPuzzle]) -> Vec<FoundLine> {
    found
        .iter()
        .map(|p| FoundLine {
            id: server_puzzle_id(search.game_id, p.ply),
            ply: p.ply,
            fen: p.before.fen(),
            moves: p.moves_uci(),
            themes: p.themes.iter().map(|t| (*t).to_owned()).collect(),
        })
        .collect()
}

/// The searcher's thread; it stops when this is dropped.
pub struct PuzzleSearcher {
    _stop: Sender<()>,
}

impl std::fmt::Debug for PuzzleSearcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PuzzleSearcher").finish_non_exhaustive()
    }
}

impl PuzzleSearcher {
    /// Starts searching `service`'s pending games with `pool` at `nodes` per search, looking
    /// every `look_every` when none is pending.
    pub fn start(
        service: GameService,
        pool: Pool,
        nodes: u64,
        look_every: Duration,
    ) -> PuzzleSearcher {
        let (stop, stopped) = channel::<()>();
        let owner = fastrand::u64(1..);
        std::thread::Builder::new()
            .name("cajitas-puzzle-search".into())
            .spawn(move || {
                loop {
                    let wait = match search_once(&service, &pool, owner, nodes) {
                        Ok(Searched::Nothing) => look_every,
                        Ok(Searched::Failed { .. }) => look_every,
                        Ok(_) => Duration::ZERO,
                        Err(e) => {
                            tracing::warn!(error = %e, "the puzzle searcher could not read the store");
                            look_every
                        }
                    };
                    match stopped.recv_timeout(wait) {
                        Err(RecvTimeoutError::Timeout) => {}
                        _ => return,
                    }
                }
            })
            .expect("spawn the puzzle search thread");
        PuzzleSearcher { _stop: stop }
    }
}
