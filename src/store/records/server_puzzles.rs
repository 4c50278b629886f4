//! Puzzles found in the server's own games (migration 0024): the searches pending, claimed
//! by one process at a time as the scheduler's claims are (a lease, taken again once it
//! lapses), and the puzzles found, each with its source game and its own Glicko-2 state.

use crate::store::StoreError;
use crate::store::sql::{Backend, BackendExt, Columns, to_db};

/// A puzzle found in a game of the server, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerPuzzleRow {
    /// Its id ([`crate::engine::puzzler::puzzle_id`] of the game and the mistake's ply).
    pub id: String,
    /// The pool it belongs to (the server, else the channel).
    pub pool: i64,
    /// The game it was found in.
    pub game_id: i64,
    /// The game's White.
    pub white: crate::store::UserRow,
    /// The game's Black.
    pub black: crate::store::UserRow,
    /// The mistake's index in the game's moves (0: White's first move).
    pub ply: i64,
    /// The game's server, if any.
    pub guild: Option<u64>,
    /// The thread the game was played in, if it had one.
    pub thread: Option<u64>,
    /// The position before the mistake (lichess's `FEN`).
    pub fen: String,
    /// The line in UCI, space-separated, the mistake first (lichess's `Moves`).
    pub moves: String,
    /// The finder's tags, space-separated (lichess's `Themes`).
    pub themes: String,
    /// A link to the game (lichess's `GameUrl`): its thread's, or empty.
    pub game_url: String,
    /// The puzzle's rating.
    pub rating: f64,
    /// Its rating deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated attempts at it.
    pub plays: i64,
    /// When it was found (Unix ms).
    pub created_at: i64,
}

/// A puzzle to store (see [`ServerPuzzleRow`] for the fields).
#[derive(Debug, Clone, PartialEq)]
pub struct NewServerPuzzle<'a> {
    /// Its id.
    pub id: &'a str,
    /// The pool.
    pub pool: i64,
    /// The game.
    pub game_id: i64,
    /// White's id.
    pub white_id: u64,
    /// Black's id.
    pub black_id: u64,
    /// The mistake's index in the game's moves.
    pub ply: i64,
    /// The server.
    pub guild: Option<u64>,
    /// The game's thread.
    pub thread: Option<u64>,
    /// The position before the mistake.
    pub fen: &'a str,
    /// The line in UCI.
    pub moves: &'a str,
    /// The tags.
    pub themes: &'a str,
    /// The link.
    pub game_url: &'a str,
    /// The first rating.
    pub rating: f64,
    /// The first deviation.
    pub deviation: f64,
    /// The first volatility.
    pub volatility: f64,
}

/// Where a game's search stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuzzleSearchRow {
    /// `pending`, `done` or `failed`.
    pub status: &'static str,
    /// The process holding it, if one claimed it.
    pub owner: Option<u64>,
    /// Until when the claim holds (Unix ms); a pending search unclaimed or lapsed before it.
    pub claim_until: i64,
    /// Failed tries so far.
    pub tries: u32,
    /// Puzzles found, once done.
    pub found: Option<u32>,
}

macro_rules! select_server_puzzle {
    () => {
        "SELECT p.id, p.pool, p.game_id, w.id, w.name, w.is_bot, b.id, b.name, b.is_bot, p.ply,
             p.guild_id, p.thread_id, p.fen, p.moves, p.themes, p.game_url, p.rating,
             p.deviation, p.volatility, p.plays, p.created_at
         FROM server_puzzles p JOIN users w ON w.id = p.white_id JOIN users b ON b.id = p.black_id"
    };
}

fn server_puzzle_row(c: &mut Columns<'_>) -> Result<ServerPuzzleRow, StoreError> {
    Ok(ServerPuzzleRow {
        id: c.string()?,
        pool: c.i64()?,
        game_id: c.i64()?,
        white: c.user()?,
        black: c.user()?,
        ply: c.i64()?,
        guild: c.opt_id()?,
        thread: c.opt_id()?,
        fen: c.string()?,
        moves: c.string()?,
        themes: c.string()?,
        game_url: c.string()?,
        rating: c.f64()?,
        deviation: c.f64()?,
        volatility: c.f64()?,
        plays: c.i64()?,
        created_at: c.i64()?,
    })
}

/// The searches for puzzles in finished games, and the puzzles found.
pub trait ServerPuzzles {
    /// Records that game `game` is to be searched (its row inserted once: a second call
    /// changes nothing). Returns whether it was recorded now.
    fn queue_puzzle_search(&self, game: i64, now: i64) -> Result<bool, StoreError>;

    /// Claims the oldest pending search whose claim is free or lapsed at `now`, for `owner`
    /// until `until`: one `UPDATE`, so two processes never hold one game. Returns its game.
    fn claim_puzzle_search(
        &self,
        owner: u64,
        now: i64,
        until: i64,
    ) -> Result<Option<i64>, StoreError>;

    /// Extends `owner`'s claim on game `game`'s pending search to `until`; `false` when it is
    /// no longer theirs (it lapsed and another took it) or no longer pending.
    fn renew_puzzle_search(&self, game: i64, owner: u64, until: i64) -> Result<bool, StoreError>;

    /// Marks `owner`'s pending search of game `game` done, `found` puzzles found; `false`
    /// (nothing written) when the claim is no longer theirs.
    fn finish_puzzle_search(
        &self,
        game: i64,
        owner: u64,
        found: u32,
        now: i64,
    ) -> Result<bool, StoreError>;

    /// `owner`'s search of game `game` failed: counted, left to be claimed again after
    /// `retry_at`, or marked failed once it has failed `max_tries` times. `false` when the
    /// claim is no longer theirs.
    fn fail_puzzle_search(
        &self,
        game: i64,
        owner: u64,
        retry_at: i64,
        max_tries: u32,
        now: i64,
    ) -> Result<bool, StoreError>;

    /// Where game `game`'s search stands, if it was ever queued.
    fn puzzle_search(&self, game: i64) -> Result<Option<PuzzleSearchRow>, StoreError>;

    /// Stores a found puzzle; one with its id already there stays. Returns whether it was
    /// stored now.
    fn insert_server_puzzle(&self, new: &NewServerPuzzle<'_>, now: i64)
    -> Result<bool, StoreError>;

    /// The puzzle with this id, if the server has it.
    fn server_puzzle(&self, id: &str) -> Result<Option<ServerPuzzleRow>, StoreError>;

    /// The puzzles of `pool`, by rising rating (ties: by id).
    fn server_puzzles_of(&self, pool: i64) -> Result<Vec<ServerPuzzleRow>, StoreError>;

    /// The puzzle with this id for an update of its rating: locked until the transaction
    /// ends (PostgreSQL; SQLite's one writer needs no lock).
    fn server_puzzle_for_update(&self, id: &str) -> Result<Option<ServerPuzzleRow>, StoreError>;

    /// Writes the puzzle's new Glicko-2 state after a rated attempt, counting the attempt.
    fn rate_server_puzzle(
        &self,
        id: &str,
        rating: f64,
        deviation: f64,
        volatility: f64,
    ) -> Result<(), StoreError>;
}

impl<B: Backend + ?Sized> ServerPuzzles for B {
    fn queue_puzzle_search(&self, game: i64, now: i64) -> Result<bool, StoreError> {
        let n = self.exec(
            "INSERT INTO puzzle_searches (game_id, status, queued_at, claim_until, tries)
             VALUES (?1, 'pending', ?2, 0, 0) ON CONFLICT (game_id) DO NOTHING",
            &[&game, &now],
        )?;
        Ok(n == 1)
    }

    fn claim_puzzle_search(
        &self,
        owner: u64,
        now: i64,
        until: i64,
    ) -> Result<Option<i64>, StoreError> {
        self.row(
            "UPDATE puzzle_searches SET owner = ?1, claim_until = ?3
             WHERE game_id = (SELECT game_id FROM puzzle_searches
                              WHERE status = 'pending' AND claim_until <= ?2
                              ORDER BY claim_until, game_id LIMIT 1)
               AND status = 'pending' AND claim_until <= ?2
             RETURNING game_id",
            &[&to_db(owner), &now, &until],
            |c| c.i64(),
        )
    }

    fn renew_puzzle_search(&self, game: i64, owner: u64, until: i64) -> Result<bool, StoreError> {
        let n = self.exec(
            "UPDATE puzzle_searches SET claim_until = ?3
             WHERE game_id = ?1 AND owner = ?2 AND status = 'pending'",
            &[&game, &to_db(owner), &until],
        )?;
        Ok(n == 1)
    }

    fn finish_puzzle_search(
        &self,
        game: i64,
        owner: u64,
        found: u32,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.exec(
            "UPDATE puzzle_searches SET status = 'done', found = ?3, done_at = ?4
             WHERE game_id = ?1 AND owner = ?2 AND status = 'pending'",
            &[&game, &to_db(owner), &found, &now],
        )?;
        Ok(n == 1)
    }

    fn fail_puzzle_search(
        &self,
        game: i64,
        owner: u64,
        retry_at: i64,
        max_tries: u32,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.exec(
            "UPDATE puzzle_searches SET tries = tries + 1, owner = NULL, claim_until = ?3,
                 status = CASE WHEN tries + 1 >= ?4 THEN 'failed' ELSE 'pending' END,
                 done_at = CASE WHEN tries + 1 >= ?4 THEN CAST(?5 AS BIGINT) ELSE NULL END
             WHERE game_id = ?1 AND owner = ?2 AND status = 'pending'",
            &[&game, &to_db(owner), &retry_at, &max_tries, &now],
        )?;
        Ok(n == 1)
    }

    fn puzzle_search(&self, game: i64) -> Result<Option<PuzzleSearchRow>, StoreError> {
        self.row(
            "SELECT status, owner, claim_until, tries, found FROM puzzle_searches
             WHERE game_id = ?1",
            &[&game],
            |c| {
                let status = match c.string()?.as_str() {
                    "pending" => "pending",
                    "done" => "done",
                    "failed" => "failed",
                    other => return Err(StoreError::Corrupt(format!("search status {other}"))),
                };
                Ok(PuzzleSearchRow {
                    status,
                    owner: c.opt_id()?,
                    claim_until: c.i64()?,
                    tries: c.u32()?,
                    found: c.opt_i64()?.map(|f| u32::try_from(f).unwrap_or(0)),
                })
            },
        )
    }

    fn insert_server_puzzle(&self, p: &NewServerPuzzle<'_>, now: i64) -> Result<bool, StoreError> {
        let n = self.exec(
            "INSERT INTO server_puzzles
                 (id, pool, game_id, white_id, black_id, ply, guild_id, thread_id, fen, moves,
                  themes, game_url, rating, deviation, volatility, plays, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, 0, ?16)
             ON CONFLICT (id) DO NOTHING",
            &[
                &p.id,
                &p.pool,
                &p.game_id,
                &to_db(p.white_id),
                &to_db(p.black_id),
                &p.ply,
                &p.guild.map(to_db),
                &p.thread.map(to_db),
                &p.fen,
                &p.moves,
                &p.themes,
                &p.game_url,
                &p.rating,
                &p.deviation,
                &p.volatility,
                &now,
            ],
        )?;
        Ok(n == 1)
    }

    fn server_puzzle(&self, id: &str) -> Result<Option<ServerPuzzleRow>, StoreError> {
        self.row(
            concat!(select_server_puzzle!(), " WHERE p.id = ?1"),
            &[&id],
            server_puzzle_row,
        )
    }

    fn server_puzzles_of(&self, pool: i64) -> Result<Vec<ServerPuzzleRow>, StoreError> {
        self.rows(
            concat!(
                select_server_puzzle!(),
                " WHERE p.pool = ?1 ORDER BY p.rating, p.id"
            ),
            &[&pool],
            server_puzzle_row,
        )
    }

    fn server_puzzle_for_update(&self, id: &str) -> Result<Option<ServerPuzzleRow>, StoreError> {
        self.row(
            self.pick(
                concat!(select_server_puzzle!(), " WHERE p.id = ?1"),
                concat!(select_server_puzzle!(), " WHERE p.id = ?1 FOR UPDATE OF p"),
            ),
            &[&id],
            server_puzzle_row,
        )
    }

    fn rate_server_puzzle(
        &self,
        id: &str,
        rating: f64,
        deviation: f64,
        volatility: f64,
    ) -> Result<(), StoreError> {
        self.exec(
            "UPDATE server_puzzles SET rating = ?2, deviation = ?3, volatility = ?4,
                 plays = plays + 1
             WHERE id = ?1",
            &[&id, &rating, &deviation, &volatility],
        )?;
        Ok(())
    }
}
