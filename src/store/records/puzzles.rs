//! Puzzle attempts and puzzle ratings (migration 0019), Puzzle Streak runs (0020).
//!
//! An answer is written like a game's move: one `UPDATE … WHERE id = ? AND ply = ? AND status
//! = 'playing'` that matches nothing when another answer landed first (the caller refuses it
//! and rolls back). A puzzle rating is read for an update under a row lock on PostgreSQL
//! (its row inserted first when missing, so two first attempts in two places wait for each
//! other); SQLite's one writer needs none.

use crate::store::sql::{Backend, BackendExt, Columns, to_db};
use crate::store::{
    PuzzleAttemptRow, PuzzleChangeRow, PuzzleRatingRow, PuzzleRunRow, PuzzleStatus, StoreError,
    UserRow,
};

/// [`attempt_row`] reads the columns in this order.
macro_rules! select_attempt {
    () => {
        "SELECT id, pool, channel_id, user_id, puzzle_id, ply, hinted, rated, status, started_at,
             finished_at, rating_before, deviation_before, rating_after, deviation_after, run_id,
             daily_day
         FROM puzzle_attempts"
    };
}

fn attempt_row(c: &mut Columns<'_>) -> Result<PuzzleAttemptRow, StoreError> {
    Ok(PuzzleAttemptRow {
        id: c.i64()?,
        pool: c.i64()?,
        channel: c.id()?,
        user_id: c.id()?,
        puzzle_id: c.string()?,
        ply: c.i64()?,
        hinted: c.bool()?,
        rated: c.bool()?,
        status: c.code()?,
        started_at: c.i64()?,
        finished_at: c.opt_i64()?,
        change: match (c.opt_f64()?, c.opt_f64()?, c.opt_f64()?, c.opt_f64()?) {
            (
                Some(rating_before),
                Some(deviation_before),
                Some(rating_after),
                Some(deviation_after),
            ) => Some(PuzzleChangeRow {
                rating_before,
                deviation_before,
                rating_after,
                deviation_after,
            }),
            _ => None,
        },
        run_id: c.opt_i64()?,
        daily_day: c.opt_i64()?,
    })
}

fn run_row(c: &mut Columns<'_>) -> Result<PuzzleRunRow, StoreError> {
    Ok(PuzzleRunRow {
        id: c.i64()?,
        pool: c.i64()?,
        channel: c.id()?,
        user_id: c.id()?,
        ladder: c.string()?.split_whitespace().map(str::to_string).collect(),
        solved: c.u32()?,
        ended: c.string()? == "ended",
    })
}

fn rating_row(c: &mut Columns<'_>) -> Result<PuzzleRatingRow, StoreError> {
    Ok(PuzzleRatingRow {
        rating: c.f64()?,
        deviation: c.f64()?,
        volatility: c.f64()?,
        attempts: c.u32()?,
        rated_at: c.i64()?,
    })
}

/// What a new attempt is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAttempt<'a> {
    /// The pool.
    pub pool: i64,
    /// The channel or thread.
    pub channel: u64,
    /// The solver.
    pub user_id: u64,
    /// The puzzle.
    pub puzzle_id: &'a str,
    /// Moves of the line on the board at the start (1: the opponent's).
    pub ply: i64,
    /// Whether it counts for the rating.
    pub rated: bool,
    /// The Puzzle Streak run it belongs to.
    pub run_id: Option<i64>,
    /// The day of the daily puzzle it attempts.
    pub daily_day: Option<i64>,
}

/// How an answer leaves an attempt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AttemptStep {
    /// Moves of the line on the board after it.
    pub ply: i64,
    /// Whether a hint was given.
    pub hinted: bool,
    /// Where it stands.
    pub status: PuzzleStatus,
    /// The rating change of a rated attempt that ended.
    pub change: Option<PuzzleChangeRow>,
}

/// Puzzle attempts and ratings.
pub trait Puzzles {
    /// The attempt `user` is playing in `channel`, if any.
    fn open_puzzle_attempt(
        &self,
        channel: u64,
        user: u64,
    ) -> Result<Option<PuzzleAttemptRow>, StoreError>;

    /// An attempt by id.
    fn puzzle_attempt(&self, id: i64) -> Result<Option<PuzzleAttemptRow>, StoreError>;

    /// The ids of the puzzles `user` has attempted in `pool`, each once.
    fn seen_puzzles(&self, pool: i64, user: u64) -> Result<Vec<String>, StoreError>;

    /// Whether `user` has attempted `puzzle` in `pool`.
    fn has_seen_puzzle(&self, pool: i64, user: u64, puzzle: &str) -> Result<bool, StoreError>;

    /// Marks `user`'s attempt in `channel`, if one is being played, abandoned at `now`.
    /// Returns how many (0 or 1).
    fn abandon_puzzle_attempt(&self, channel: u64, user: u64, now: i64) -> Result<u64, StoreError>;

    /// Moves attempt `id`, being played in `from`, and its Puzzle Streak run if any, to
    /// `to` (the puzzle's own thread, just opened). `false` when it is no longer played in
    /// `from` (nothing written).
    fn move_puzzle_attempt(&self, id: i64, from: u64, to: u64) -> Result<bool, StoreError>;

    /// Stores a new attempt being played, started at `now`; returns its id.
    fn insert_puzzle_attempt(&self, new: &NewAttempt<'_>, now: i64) -> Result<i64, StoreError>;

    /// Moves attempt `id` from `ply` to `step`, only while it is still being played at that
    /// ply; `false` when another answer came first (nothing written).
    fn advance_puzzle_attempt(
        &self,
        id: i64,
        ply: i64,
        step: &AttemptStep,
        now: i64,
    ) -> Result<bool, StoreError>;

    /// `user`'s puzzle rating in `pool`, if they have one.
    fn puzzle_rating(&self, pool: i64, user: u64) -> Result<Option<PuzzleRatingRow>, StoreError>;

    /// `user`'s puzzle rating in `pool` for an update: created as `start` (with no attempts)
    /// when missing, and locked until the transaction ends (PostgreSQL).
    fn puzzle_rating_for_update(
        &self,
        pool: i64,
        user: u64,
        start: &PuzzleRatingRow,
    ) -> Result<PuzzleRatingRow, StoreError>;

    /// Writes `user`'s puzzle rating in `pool`.
    fn put_puzzle_rating(
        &self,
        pool: i64,
        user: u64,
        rating: &PuzzleRatingRow,
    ) -> Result<(), StoreError>;

    /// `user`'s puzzle rating after each rated attempt in `pool`, oldest first: when it ended
    /// (Unix ms), the rating and the deviation after it.
    fn puzzle_rating_history(
        &self,
        pool: i64,
        user: u64,
    ) -> Result<Vec<(i64, f64, f64)>, StoreError>;

    /// Every puzzle rating of `pool`, with its person, best first.
    fn puzzle_ratings_of(&self, pool: i64) -> Result<Vec<(PuzzleRatingRow, UserRow)>, StoreError>;

    /// Stores a new Puzzle Streak run of `ladder` being played; returns its id.
    fn insert_puzzle_run(
        &self,
        pool: i64,
        channel: u64,
        user: u64,
        ladder: &[&str],
        now: i64,
    ) -> Result<i64, StoreError>;

    /// A run by id.
    fn puzzle_run(&self, id: i64) -> Result<Option<PuzzleRunRow>, StoreError>;

    /// Moves run `id` from `solved` puzzles solved to `now_solved`, ended or not, only while
    /// it is still played at `solved`; `false` when something else came first.
    fn advance_puzzle_run(
        &self,
        id: i64,
        solved: u32,
        now_solved: u32,
        ended: bool,
        now: i64,
    ) -> Result<bool, StoreError>;

    /// `user`'s best run in `pool` (puzzles solved), if they have run one.
    fn best_puzzle_run(&self, pool: i64, user: u64) -> Result<Option<u32>, StoreError>;

    /// Each person's best run in `pool` (at least one puzzle solved), with the person, best
    /// first (ties: who began running first).
    fn best_puzzle_runs_of(&self, pool: i64) -> Result<Vec<(u32, UserRow)>, StoreError>;
}

impl<B: Backend + ?Sized> Puzzles for B {
    fn open_puzzle_attempt(
        &self,
        channel: u64,
        user: u64,
    ) -> Result<Option<PuzzleAttemptRow>, StoreError> {
        self.row(
            concat!(
                select_attempt!(),
                " WHERE channel_id = ?1 AND user_id = ?2 AND status = 'playing'"
            ),
            &[&to_db(channel), &to_db(user)],
            attempt_row,
        )
    }

    fn puzzle_attempt(&self, id: i64) -> Result<Option<PuzzleAttemptRow>, StoreError> {
        self.row(
            concat!(select_attempt!(), " WHERE id = ?1"),
            &[&id],
            attempt_row,
        )
    }

    fn seen_puzzles(&self, pool: i64, user: u64) -> Result<Vec<String>, StoreError> {
        self.rows(
            "SELECT DISTINCT puzzle_id FROM puzzle_attempts WHERE pool = ?1 AND user_id = ?2",
            &[&pool, &to_db(user)],
            |c| c.string(),
        )
    }

    fn has_seen_puzzle(&self, pool: i64, user: u64, puzzle: &str) -> Result<bool, StoreError> {
        Ok(self
            .row(
                "SELECT 1 FROM puzzle_attempts
                 WHERE pool = ?1 AND user_id = ?2 AND puzzle_id = ?3 LIMIT 1",
                &[&pool, &to_db(user), &puzzle],
                |c| c.i64(),
            )?
            .is_some())
    }

    fn abandon_puzzle_attempt(&self, channel: u64, user: u64, now: i64) -> Result<u64, StoreError> {
        self.exec(
            "UPDATE puzzle_attempts SET status = 'abandoned', finished_at = ?3
             WHERE channel_id = ?1 AND user_id = ?2 AND status = 'playing'",
            &[&to_db(channel), &to_db(user), &now],
        )
    }

    fn move_puzzle_attempt(&self, id: i64, from: u64, to: u64) -> Result<bool, StoreError> {
        let n = self.exec(
            "UPDATE puzzle_attempts SET channel_id = ?3
             WHERE id = ?1 AND channel_id = ?2 AND status = 'playing'",
            &[&id, &to_db(from), &to_db(to)],
        )?;
        if n != 1 {
            return Ok(false);
        }
        self.exec(
            "UPDATE puzzle_runs SET channel_id = ?2
             WHERE id = (SELECT run_id FROM puzzle_attempts WHERE id = ?1)
               AND status = 'playing'",
            &[&id, &to_db(to)],
        )?;
        Ok(true)
    }

    fn insert_puzzle_attempt(&self, new: &NewAttempt<'_>, now: i64) -> Result<i64, StoreError> {
        self.one(
            "INSERT INTO puzzle_attempts
                 (pool, channel_id, user_id, puzzle_id, ply, hinted, rated, status, started_at,
                  run_id, daily_day)
             VALUES (?1, ?2, ?3, ?4, ?5, FALSE, ?6, 'playing', ?7, ?8, ?9)
             RETURNING id",
            &[
                &new.pool,
                &to_db(new.channel),
                &to_db(new.user_id),
                &new.puzzle_id,
                &new.ply,
                &new.rated,
                &now,
                &new.run_id,
                &new.daily_day,
            ],
            |c| c.i64(),
        )
    }

    fn advance_puzzle_attempt(
        &self,
        id: i64,
        ply: i64,
        step: &AttemptStep,
        now: i64,
    ) -> Result<bool, StoreError> {
        let finished = (step.status != PuzzleStatus::Playing).then_some(now);
        let c = step.change;
        let n = self.exec(
            "UPDATE puzzle_attempts SET ply = ?3, hinted = ?4, status = ?5, finished_at = ?6,
                 rating_before = ?7, deviation_before = ?8, rating_after = ?9,
                 deviation_after = ?10
             WHERE id = ?1 AND ply = ?2 AND status = 'playing'",
            &[
                &id,
                &ply,
                &step.ply,
                &step.hinted,
                &step.status,
                &finished,
                &c.map(|c| c.rating_before),
                &c.map(|c| c.deviation_before),
                &c.map(|c| c.rating_after),
                &c.map(|c| c.deviation_after),
            ],
        )?;
        Ok(n == 1)
    }

    fn puzzle_rating(&self, pool: i64, user: u64) -> Result<Option<PuzzleRatingRow>, StoreError> {
        self.row(
            "SELECT rating, deviation, volatility, attempts, rated_at FROM puzzle_ratings
             WHERE pool = ?1 AND user_id = ?2",
            &[&pool, &to_db(user)],
            rating_row,
        )
    }

    fn puzzle_rating_for_update(
        &self,
        pool: i64,
        user: u64,
        start: &PuzzleRatingRow,
    ) -> Result<PuzzleRatingRow, StoreError> {
        self.exec(
            "INSERT INTO puzzle_ratings
                 (pool, user_id, rating, deviation, volatility, attempts, rated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (pool, user_id) DO NOTHING",
            &[
                &pool,
                &to_db(user),
                &start.rating,
                &start.deviation,
                &start.volatility,
                &start.attempts,
                &start.rated_at,
            ],
        )?;
        self.one(
            self.pick(
                "SELECT rating, deviation, volatility, attempts, rated_at FROM puzzle_ratings
                 WHERE pool = ?1 AND user_id = ?2",
                "SELECT rating, deviation, volatility, attempts, rated_at FROM puzzle_ratings
                 WHERE pool = ?1 AND user_id = ?2 FOR UPDATE",
            ),
            &[&pool, &to_db(user)],
            rating_row,
        )
    }

    fn put_puzzle_rating(
        &self,
        pool: i64,
        user: u64,
        r: &PuzzleRatingRow,
    ) -> Result<(), StoreError> {
        self.exec(
            "UPDATE puzzle_ratings SET rating = ?3, deviation = ?4, volatility = ?5,
                 attempts = ?6, rated_at = ?7
             WHERE pool = ?1 AND user_id = ?2",
            &[
                &pool,
                &to_db(user),
                &r.rating,
                &r.deviation,
                &r.volatility,
                &r.attempts,
                &r.rated_at,
            ],
        )?;
        Ok(())
    }

    fn puzzle_rating_history(
        &self,
        pool: i64,
        user: u64,
    ) -> Result<Vec<(i64, f64, f64)>, StoreError> {
        self.rows(
            "SELECT finished_at, rating_after, deviation_after FROM puzzle_attempts
             WHERE pool = ?1 AND user_id = ?2 AND rating_after IS NOT NULL
             ORDER BY finished_at, id",
            &[&pool, &to_db(user)],
            |c| Ok((c.i64()?, c.f64()?, c.f64()?)),
        )
    }

    fn puzzle_ratings_of(&self, pool: i64) -> Result<Vec<(PuzzleRatingRow, UserRow)>, StoreError> {
        self.rows(
            "SELECT r.rating, r.deviation, r.volatility, r.attempts, r.rated_at,
                 u.id, u.name, u.is_bot
             FROM puzzle_ratings r JOIN users u ON u.id = r.user_id
             WHERE r.pool = ?1 ORDER BY r.rating DESC, r.user_id",
            &[&pool],
            |c| Ok((rating_row(c)?, c.user()?)),
        )
    }

    fn insert_puzzle_run(
        &self,
        pool: i64,
        channel: u64,
        user: u64,
        ladder: &[&str],
        now: i64,
    ) -> Result<i64, StoreError> {
        self.one(
            "INSERT INTO puzzle_runs (pool, channel_id, user_id, ladder, solved, status, started_at)
             VALUES (?1, ?2, ?3, ?4, 0, 'playing', ?5)
             RETURNING id",
            &[&pool, &to_db(channel), &to_db(user), &ladder.join(" "), &now],
            |c| c.i64(),
        )
    }

    fn puzzle_run(&self, id: i64) -> Result<Option<PuzzleRunRow>, StoreError> {
        self.row(
            "SELECT id, pool, channel_id, user_id, ladder, solved, status FROM puzzle_runs
             WHERE id = ?1",
            &[&id],
            run_row,
        )
    }

    fn advance_puzzle_run(
        &self,
        id: i64,
        solved: u32,
        now_solved: u32,
        ended: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        let (status, finished) = if ended {
            ("ended", Some(now))
        } else {
            ("playing", None)
        };
        let n = self.exec(
            "UPDATE puzzle_runs SET solved = ?3, status = ?4, finished_at = ?5
             WHERE id = ?1 AND solved = ?2 AND status = 'playing'",
            &[&id, &solved, &now_solved, &status, &finished],
        )?;
        Ok(n == 1)
    }

    fn best_puzzle_run(&self, pool: i64, user: u64) -> Result<Option<u32>, StoreError> {
        self.one(
            "SELECT max(solved) FROM puzzle_runs WHERE pool = ?1 AND user_id = ?2",
            &[&pool, &to_db(user)],
            |c| c.opt_i64(),
        )
        .map(|best| best.map(|b| u32::try_from(b).unwrap_or(0)))
    }

    fn best_puzzle_runs_of(&self, pool: i64) -> Result<Vec<(u32, UserRow)>, StoreError> {
        self.rows(
            "SELECT b.best, u.id, u.name, u.is_bot
             FROM (SELECT user_id, max(solved) AS best, min(started_at) AS since
                   FROM puzzle_runs WHERE pool = ?1 AND solved > 0 GROUP BY user_id) b
             JOIN users u ON u.id = b.user_id
             ORDER BY b.best DESC, b.since, u.id",
            &[&pool],
            |c| Ok((c.u32()?, c.user()?)),
        )
    }
}
