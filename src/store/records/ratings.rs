//! Ratings and their history (migrations 0008 and 0015).
//!
//! The leaderboard's counts are written once per dialect: SQLite, without statistics, is
//! told the covering index (`INDEXED BY`) and counts each range in a statement of its own
//! (an OR of both would not use it); PostgreSQL counts them in one round trip.

use crate::store::sql::{Backend, BackendExt, Columns, Dialect, to_db};
use crate::store::{GameRow, RatingChangeRow, RatingRow, Speed, StoreError, UserRow, steady_until};

/// [`rating_row`] reads the columns in this order.
macro_rules! rating_columns {
    () => {
        "r.pool, r.speed, r.user_id, r.rating, r.deviation, r.volatility, r.games, r.rated_at"
    };
}

fn rating_row(c: &mut Columns<'_>) -> Result<RatingRow, StoreError> {
    Ok(RatingRow {
        pool: c.i64()?,
        speed: c.code()?,
        user_id: c.id()?,
        rating: c.f64()?,
        deviation: c.f64()?,
        volatility: c.f64()?,
        games: c.u32()?,
        rated_at: c.i64()?,
    })
}

/// [`change_row`] reads the columns in this order.
macro_rules! select_change {
    () => {
        "SELECT game_id, pool, speed, user_id, colour, score, rating_before, deviation_before,
             rating_after, deviation_after, volatility_after, at
         FROM rating_history"
    };
}

fn change_row(c: &mut Columns<'_>) -> Result<RatingChangeRow, StoreError> {
    Ok(RatingChangeRow {
        game_id: c.i64()?,
        pool: c.i64()?,
        speed: c.code()?,
        user_id: c.id()?,
        colour: c.code()?,
        score: c.f64()?,
        rating_before: c.f64()?,
        deviation_before: c.f64()?,
        rating_after: c.f64()?,
        deviation_after: c.f64()?,
        volatility_after: c.f64()?,
        at: c.i64()?,
    })
}

/// The leaderboard's conditions at a moment (SQLite), on columns prefixed with `$p` (`r.` or
/// none), with the parameters ?1 pool, ?2 speed and ?3 now (Unix ms): those of the partial
/// index `ratings_leaderboard`, then the RD as of now below 110, read as the stored moment
/// it stops being so ([`crate::store::steady_until`], migration 0017): one integer compared
/// per index entry.
macro_rules! ranked_sqlite {
    ($p:literal) => {
        concat!(
            $p,
            "pool = ?1 AND ",
            $p,
            "speed = ?2 AND ",
            $p,
            "games >= 5 AND ",
            $p,
            "deviation < 110 AND ",
            $p,
            "steady_until > ?3"
        )
    };
}

/// [`ranked_sqlite!`] as PostgreSQL writes it (its parameters typed).
macro_rules! ranked_postgres {
    () => {
        "pool = ?1 AND speed = ?2 AND games >= 5 AND deviation < 110
         AND steady_until > ?3::BIGINT"
    };
}

/// The sum of the counts of `sqls`, each with `params`.
fn count_sum<B: Backend + ?Sized>(
    b: &B,
    sqls: [&'static str; 2],
    params: &crate::store::sql::Params<'_>,
) -> Result<i64, StoreError> {
    let mut n = 0;
    for sql in sqls {
        n += b.one(sql, params, |c| c.i64())?;
    }
    Ok(n)
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
    /// players (see [`ranked_at`](crate::store::ranked_at)) from `offset`, best first (ties by user id), with their
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

impl<B: Backend + ?Sized> Ratings for B {
    fn rating(&self, pool: i64, speed: Speed, user: u64) -> Result<Option<RatingRow>, StoreError> {
        self.row(
            concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings r WHERE r.pool = ?1 AND r.speed = ?2 AND r.user_id = ?3"
            ),
            &[&pool, &speed, &to_db(user)],
            rating_row,
        )
    }

    fn ratings_of(&self, pool: i64, user: u64) -> Result<Vec<RatingRow>, StoreError> {
        self.rows(
            concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings r WHERE r.pool = ?1 AND r.user_id = ?2 ORDER BY r.speed"
            ),
            &[&pool, &to_db(user)],
            rating_row,
        )
    }

    fn put_rating(&self, r: &RatingRow) -> Result<(), StoreError> {
        self.exec(
            "INSERT INTO ratings (pool, speed, user_id, rating, deviation, volatility, games,
                 rated_at, steady_until)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
             ON CONFLICT (pool, speed, user_id) DO UPDATE SET rating = excluded.rating,
                 deviation = excluded.deviation, volatility = excluded.volatility,
                 games = excluded.games, rated_at = excluded.rated_at,
                 steady_until = excluded.steady_until",
            &[
                &r.pool,
                &r.speed,
                &to_db(r.user_id),
                &r.rating,
                &r.deviation,
                &r.volatility,
                &r.games,
                &r.rated_at,
                &steady_until(r.deviation, r.volatility, r.rated_at),
            ],
        )?;
        Ok(())
    }

    fn lock_ratings(&self, players: &[(i64, Speed, u64)]) -> Result<(), StoreError> {
        self.lock_players(players)
    }

    fn rating_pair(
        &self,
        pool: i64,
        speed: Speed,
        users: [u64; 2],
    ) -> Result<[Option<RatingRow>; 2], StoreError> {
        // Where several processes write: two rated games of one player ending at once (in
        // different channels, so under different channel locks) would both read the same
        // rating and the later write would erase the earlier game. Each player's rating in
        // the pool is locked until the end of the transaction before the read: its statement
        // then sees what the other game committed.
        self.lock_players(&users.map(|u| (pool, speed, u)))?;
        let rows = self.rows(
            concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings r WHERE r.pool = ?1 AND r.speed = ?2 AND r.user_id IN (?3, ?4)"
            ),
            &[&pool, &speed, &to_db(users[0]), &to_db(users[1])],
            rating_row,
        )?;
        let mut pair = [None, None];
        for r in rows {
            let i = usize::from(r.user_id != users[0]);
            pair[i] = Some(r);
        }
        Ok(pair)
    }

    fn record_rating_changes(
        &self,
        changes: &[RatingChangeRow; 2],
        ratings: &[RatingRow; 2],
    ) -> Result<bool, StoreError> {
        let [a, b] = changes;
        let [ra, rb] = ratings;
        let history: [&dyn crate::store::sql::Param; 24] = [
            &a.game_id,
            &a.pool,
            &a.speed,
            &to_db(a.user_id),
            &a.colour,
            &a.score,
            &a.rating_before,
            &a.deviation_before,
            &a.rating_after,
            &a.deviation_after,
            &a.volatility_after,
            &a.at,
            &b.game_id,
            &b.pool,
            &b.speed,
            &to_db(b.user_id),
            &b.colour,
            &b.score,
            &b.rating_before,
            &b.deviation_before,
            &b.rating_after,
            &b.deviation_after,
            &b.volatility_after,
            &b.at,
        ];
        let (until_a, until_b) = (
            steady_until(ra.deviation, ra.volatility, ra.rated_at),
            steady_until(rb.deviation, rb.volatility, rb.rated_at),
        );
        let new: [&dyn crate::store::sql::Param; 18] = [
            &ra.pool,
            &ra.speed,
            &to_db(ra.user_id),
            &ra.rating,
            &ra.deviation,
            &ra.volatility,
            &ra.games,
            &ra.rated_at,
            &until_a,
            &rb.pool,
            &rb.speed,
            &to_db(rb.user_id),
            &rb.rating,
            &rb.deviation,
            &rb.volatility,
            &rb.games,
            &rb.rated_at,
            &until_b,
        ];
        if self.dialect() == Dialect::Postgres {
            // One round trip: both history rows and both ratings (PostgreSQL runs every
            // data-modifying WITH to completion). When a history row was already there, the
            // ratings were written all the same, and the caller rolls back.
            let params: Vec<&dyn crate::store::sql::Param> =
                history.iter().chain(new.iter()).copied().collect();
            let n = self.one(
                "WITH h AS (
                     INSERT INTO rating_history (game_id, pool, speed, user_id, colour, score,
                         rating_before, deviation_before, rating_after, deviation_after,
                         volatility_after, at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12),
                         (?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)
                     ON CONFLICT (game_id, user_id) DO NOTHING
                     RETURNING 1
                 ), r AS (
                     INSERT INTO ratings (pool, speed, user_id, rating, deviation, volatility,
                         games, rated_at, steady_until)
                     VALUES (?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33),
                         (?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42)
                     ON CONFLICT (pool, speed, user_id) DO UPDATE SET rating = excluded.rating,
                         deviation = excluded.deviation, volatility = excluded.volatility,
                         games = excluded.games, rated_at = excluded.rated_at,
                         steady_until = excluded.steady_until
                     RETURNING 1
                 )
                 SELECT count(*) FROM h",
                &params,
                |c| c.i64(),
            )?;
            return Ok(n == 2);
        }
        let n = self.exec(
            "INSERT INTO rating_history (game_id, pool, speed, user_id, colour, score,
                 rating_before, deviation_before, rating_after, deviation_after,
                 volatility_after, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12),
                 (?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)
             ON CONFLICT (game_id, user_id) DO NOTHING",
            &history,
        )?;
        if n != 2 {
            return Ok(false);
        }
        self.exec(
            "INSERT INTO ratings (pool, speed, user_id, rating, deviation, volatility, games,
                 rated_at, steady_until)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9),
                 (?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
             ON CONFLICT (pool, speed, user_id) DO UPDATE SET rating = excluded.rating,
                 deviation = excluded.deviation, volatility = excluded.volatility,
                 games = excluded.games, rated_at = excluded.rated_at,
                 steady_until = excluded.steady_until",
            &new,
        )?;
        Ok(true)
    }

    fn leaderboard(
        &self,
        pool: i64,
        speed: Speed,
        now: i64,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<(RatingRow, UserRow)>, StoreError> {
        let offset = offset.min(i64::MAX as u64) as i64;
        // The partial index's own conditions, then the RD as of now. SQLite is told the
        // index: without statistics its planner would rather walk the primary key of the
        // pool and read every row.
        self.rows(
            self.pick(
                concat!(
                    "SELECT ",
                    rating_columns!(),
                    ", u.id, u.name, u.is_bot
                     FROM ratings r INDEXED BY ratings_leaderboard JOIN users u ON u.id = r.user_id
                     WHERE ",
                    ranked_sqlite!("r."),
                    " ORDER BY r.rating DESC, r.user_id
                     LIMIT ?4 OFFSET ?5"
                ),
                concat!(
                    "SELECT ",
                    rating_columns!(),
                    ", u.id, u.name, u.is_bot
                     FROM ratings r JOIN users u ON u.id = r.user_id
                     WHERE ",
                    ranked_postgres!(),
                    " ORDER BY r.rating DESC, r.user_id
                     LIMIT ?4 OFFSET ?5"
                ),
            ),
            &[&pool, &speed, &now, &limit, &offset],
            |c| Ok((rating_row(c)?, c.user()?)),
        )
    }

    fn players_above(&self, r: &RatingRow, now: i64) -> Result<u64, StoreError> {
        // Two ranges of the leaderboard's covering index: the better ratings, and the same
        // rating with a smaller id.
        let params: [&dyn crate::store::sql::Param; 5] =
            [&r.pool, &r.speed, &now, &r.rating, &to_db(r.user_id)];
        let n = match self.dialect() {
            Dialect::Sqlite => count_sum(
                self,
                [
                    concat!(
                        "SELECT COUNT(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
                        ranked_sqlite!(""),
                        " AND rating > ?4 AND ?5 IS NOT NULL"
                    ),
                    concat!(
                        "SELECT COUNT(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
                        ranked_sqlite!(""),
                        " AND rating = ?4 AND user_id < ?5"
                    ),
                ],
                &params,
            )?,
            Dialect::Postgres => self.one(
                concat!(
                    "SELECT (SELECT count(*) FROM ratings WHERE ",
                    ranked_postgres!(),
                    " AND rating > ?4)
                     + (SELECT count(*) FROM ratings WHERE ",
                    ranked_postgres!(),
                    " AND rating = ?4 AND user_id < ?5)"
                ),
                &params,
                |c| c.i64(),
            )?,
        };
        Ok(n as u64)
    }

    fn ranked_count(&self, pool: i64, speed: Speed, now: i64) -> Result<u64, StoreError> {
        let n = self.one(
            self.pick(
                concat!(
                    "SELECT COUNT(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
                    ranked_sqlite!("")
                ),
                concat!("SELECT count(*) FROM ratings WHERE ", ranked_postgres!()),
            ),
            &[&pool, &speed, &now],
            |c| c.i64(),
        )?;
        Ok(n as u64)
    }

    fn ranked_count_and_above(
        &self,
        pool: i64,
        speed: Speed,
        now: i64,
        r: Option<&RatingRow>,
    ) -> Result<(u64, Option<u64>), StoreError> {
        let Some(r) = r else {
            return Ok((self.ranked_count(pool, speed, now)?, None));
        };
        // Split at `r`: the entries above it and the others, two ranges of the covering index
        // each, so every entry is stepped over once (and tested for its RD as of now from the
        // index alone).
        let params: [&dyn crate::store::sql::Param; 5] =
            [&pool, &speed, &now, &r.rating, &to_db(r.user_id)];
        let (above, rest) = match self.dialect() {
            Dialect::Sqlite => {
                let above = self.players_above(r, now)? as i64;
                let rest = count_sum(
                    self,
                    [
                        concat!(
                            "SELECT COUNT(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
                            ranked_sqlite!(""),
                            " AND rating < ?4 AND ?5 IS NOT NULL"
                        ),
                        concat!(
                            "SELECT COUNT(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
                            ranked_sqlite!(""),
                            " AND rating = ?4 AND user_id >= ?5"
                        ),
                    ],
                    &params,
                )?;
                (above, rest)
            }
            Dialect::Postgres => self.one(
                concat!(
                    "SELECT (SELECT count(*) FROM ratings WHERE ",
                    ranked_postgres!(),
                    " AND rating > ?4)
                         + (SELECT count(*) FROM ratings WHERE ",
                    ranked_postgres!(),
                    " AND rating = ?4 AND user_id < ?5),
                     (SELECT count(*) FROM ratings WHERE ",
                    ranked_postgres!(),
                    " AND rating < ?4)
                         + (SELECT count(*) FROM ratings WHERE ",
                    ranked_postgres!(),
                    " AND rating = ?4 AND user_id >= ?5)"
                ),
                &params,
                |c| Ok((c.i64()?, c.i64()?)),
            )?,
        };
        Ok(((above + rest) as u64, Some(above as u64)))
    }

    fn ratings_version(&self, pool: i64, speed: Speed) -> Result<i64, StoreError> {
        let v = self.one(
            "SELECT max(id) FROM rating_history WHERE pool = ?1 AND speed = ?2",
            &[&pool, &speed],
            |c| c.opt_i64(),
        )?;
        Ok(v.unwrap_or(0))
    }

    fn rating_changes(
        &self,
        pool: i64,
        speed: Speed,
        user: u64,
    ) -> Result<Vec<RatingChangeRow>, StoreError> {
        self.rows(
            concat!(
                select_change!(),
                " WHERE pool = ?1 AND user_id = ?2 AND speed = ?3 ORDER BY at, id"
            ),
            &[&pool, &to_db(user), &speed],
            change_row,
        )
    }

    fn game_rating_changes(&self, game_id: i64) -> Result<Vec<RatingChangeRow>, StoreError> {
        self.rows(
            concat!(select_change!(), " WHERE game_id = ?1 ORDER BY id"),
            &[&game_id],
            change_row,
        )
    }

    fn rated_games(&self) -> Result<Vec<GameRow>, StoreError> {
        super::games::finished_rated_games(self)
    }

    fn clear_ratings(&self) -> Result<(), StoreError> {
        // A rebuild: where several processes write, every rating, exclusively, until it
        // commits (the rated ends of other transactions wait for it, and it takes no lock per
        // player).
        self.lock_all_ratings()?;
        self.exec("DELETE FROM rating_history", &[])?;
        self.exec("DELETE FROM ratings", &[])?;
        Ok(())
    }
}
