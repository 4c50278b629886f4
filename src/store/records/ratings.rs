//! Ratings and their history (migrations 0008, 0015, 0017 and 0018).
//!
//! The leaderboard's counts (a rank, the ranked count) add up the cells of migration 0018,
//! kept by triggers, and count one by one only the players of the caller's band and of the
//! current epoch ([`leaderboard_counts`]). They are written once per dialect: SQLite, without
//! statistics, is told each index (`INDEXED BY`) and counts each range in a statement of its
//! own (an OR of both would not use it); PostgreSQL counts them in one round trip.

use crate::store::sql::{Backend, BackendExt, Columns, Dialect, to_db};
use crate::store::{
    GameRow, RatingChangeRow, RatingRow, Speed, StoreError, UserRow, leaderboard_band,
    leaderboard_band_end, leaderboard_epoch, leaderboard_epoch_last, steady_until,
};

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

/// The ranked count of a pool and speed at `now` and, for `r`, how many of them stand above
/// it (a better rating, or the same with a smaller user id), without stepping over every
/// ranked player: the cells of migration 0018 hold how many players of the partial index
/// (games ≥ 5, stored RD < 110) fall in each (epoch, band), and only the players of `r`'s
/// band and of `now`'s epoch are counted one by one.
///
/// With `B` = `leaderboard_band(r.rating)` and `E` = `leaderboard_epoch(now)` (computed here
/// with the SQL's own operations, see [`crate::store::LEADERBOARD_BAND`]), both keys never
/// smaller for a greater value, a player of the index, of rating `y` and steady until `s`:
/// - epoch(s) > E ⇒ s > now (were `s ≤ now`, epoch(s) ≤ E): ranked at `now`;
/// - epoch(s) < E ⇒ s < now: not ranked (idle past 110);
/// - epoch(s) = E: ranked iff `s > now`, tested one by one (`ratings_steady`, the range
///   `now < s ≤ leaderboard_epoch_last(E)`);
/// - band(y) > B ⇒ y > r.rating (were `y ≤ r.rating`, band(y) ≤ B): above `r`;
/// - band(y) < B ⇒ y < r.rating: below;
/// - band(y) = B: above iff `y > r.rating`, or `y = r.rating` and a smaller id, tested one
///   by one (`ratings_leaderboard`, the range `r.rating ≤ y < leaderboard_band_end(B)`, which
///   holds the whole band above `r`, with the band itself tested so that no player of a
///   higher band, already in the first two terms, is counted twice).
///
/// So ranked = Σ cells(epoch > E) + #(epoch E, s > now), and above = Σ cells(epoch > E,
/// band > B) + #(epoch E, s > now, band > B) + #(band B, s > now, above `r`): every ranked
/// player above `r` is in exactly one term.
fn leaderboard_counts<B: Backend + ?Sized>(
    b: &B,
    pool: i64,
    speed: Speed,
    now: i64,
    r: Option<&RatingRow>,
) -> Result<(u64, Option<u64>), StoreError> {
    let epoch = leaderboard_epoch(now);
    let epoch_last = leaderboard_epoch_last(epoch);
    // Without `r`, a band above every rating: nothing is above.
    let band = r.map_or(i64::MAX, |r| leaderboard_band(r.rating));
    if b.dialect() == Dialect::Postgres {
        // One round trip. Without `r`, its terms are empty ranges (no rating above +∞).
        let (rating, user, band_end) = match r {
            Some(r) => (r.rating, to_db(r.user_id), leaderboard_band_end(band)),
            None => (f64::INFINITY, 0, f64::INFINITY),
        };
        let (total, above) = b.one(
            concat!(
                "SELECT c.total + e.total, c.above + e.above
                     + (SELECT count(*) FROM ratings WHERE ",
                ranked_postgres!(),
                " AND rating > ?4 AND rating < ?9
                         AND trunc(rating / 50.0::DOUBLE PRECISION)::BIGINT = ?7::BIGINT)
                     + (SELECT count(*) FROM ratings WHERE ",
                ranked_postgres!(),
                " AND rating = ?4 AND user_id < ?5)
                 FROM (SELECT coalesce(sum(n), 0)::BIGINT AS total,
                           coalesce(sum(n) FILTER (WHERE band > ?7::BIGINT), 0)::BIGINT AS above
                       FROM leaderboard_cells
                       WHERE pool = ?1 AND speed = ?2 AND epoch > ?6::BIGINT) c,
                      (SELECT count(*) AS total,
                           count(*) FILTER (WHERE trunc(rating / 50.0::DOUBLE PRECISION)::BIGINT
                               > ?7::BIGINT) AS above
                       FROM ratings
                       WHERE pool = ?1 AND speed = ?2 AND games >= 5 AND deviation < 110
                           AND steady_until > ?3::BIGINT AND steady_until <= ?8::BIGINT) e"
            ),
            &[
                &pool,
                &speed,
                &now,
                &rating,
                &user,
                &epoch,
                &band,
                &epoch_last,
                &band_end,
            ],
            |c| Ok((c.i64()?, c.i64()?)),
        )?;
        return Ok((total as u64, r.map(|_| above as u64)));
    }
    // SQLite: one statement per index range (it is told each index: without statistics its
    // planner would rather walk the primary key).
    let (cells_total, cells_above) = b.one(
        "SELECT coalesce(sum(n), 0), coalesce(sum(CASE WHEN band > ?4 THEN n ELSE 0 END), 0)
         FROM leaderboard_cells WHERE pool = ?1 AND speed = ?2 AND epoch > ?3",
        &[&pool, &speed, &epoch, &band],
        |c| Ok((c.i64()?, c.i64()?)),
    )?;
    let (edge_total, edge_above) = b.one(
        "SELECT count(*), coalesce(sum(CAST(rating / 50.0 AS INTEGER) > ?5), 0)
         FROM ratings INDEXED BY ratings_steady
         WHERE pool = ?1 AND speed = ?2 AND games >= 5 AND deviation < 110
             AND steady_until > ?3 AND steady_until <= ?4",
        &[&pool, &speed, &now, &epoch_last, &band],
        |c| Ok((c.i64()?, c.i64()?)),
    )?;
    let total = (cells_total + edge_total) as u64;
    let Some(r) = r else {
        return Ok((total, None));
    };
    let in_band = b.one(
        concat!(
            "SELECT count(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
            ranked_sqlite!(""),
            " AND rating > ?4 AND rating < ?5 AND CAST(rating / 50.0 AS INTEGER) = ?6"
        ),
        &[
            &pool,
            &speed,
            &now,
            &r.rating,
            &leaderboard_band_end(band),
            &band,
        ],
        |c| c.i64(),
    )?;
    let tied = b.one(
        concat!(
            "SELECT count(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
            ranked_sqlite!(""),
            " AND rating = ?4 AND user_id < ?5"
        ),
        &[&pool, &speed, &now, &r.rating, &to_db(r.user_id)],
        |c| c.i64(),
    )?;
    Ok((
        total,
        Some((cells_above + edge_above + in_band + tied) as u64),
    ))
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
    /// takes its two players' locks the same way. With them, each player's pool and speed:
    /// its leaderboard's cells (migration 0018) are written by one transaction at a time.
    /// With one writer at a time (SQLite) there is nothing to lock.
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

    /// How many players ranked at `now` in `r`'s pool and speed stand above `r`: a better
    /// rating, or the same with a smaller user id (the cells of migration 0018, and the
    /// players of `r`'s band and of `now`'s epoch one by one).
    fn players_above(&self, r: &RatingRow, now: i64) -> Result<u64, StoreError>;

    /// How many players are ranked in a pool and speed at `now`.
    fn ranked_count(&self, pool: i64, speed: Speed, now: i64) -> Result<u64, StoreError>;

    /// [`Ratings::ranked_count`] and, for a ranked `r`, [`Ratings::players_above`] (the page
    /// count and the caller's rank of `/leaderboard`), the players of `now`'s epoch counted
    /// once for both.
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

    /// Deletes every rating and every change (a rebuild starts from nothing; the triggers of
    /// migration 0018 empty the leaderboard's cells with them). Where several
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
        let (_, above) = leaderboard_counts(self, r.pool, r.speed, now, Some(r))?;
        Ok(above.unwrap_or(0))
    }

    fn ranked_count(&self, pool: i64, speed: Speed, now: i64) -> Result<u64, StoreError> {
        Ok(leaderboard_counts(self, pool, speed, now, None)?.0)
    }

    fn ranked_count_and_above(
        &self,
        pool: i64,
        speed: Speed,
        now: i64,
        r: Option<&RatingRow>,
    ) -> Result<(u64, Option<u64>), StoreError> {
        leaderboard_counts(self, pool, speed, now, r)
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

#[cfg(test)]
mod tests {
    use crate::store::{
        LEADERBOARD_BAND, LEADERBOARD_EPOCH_MS, leaderboard_band, leaderboard_band_end,
        leaderboard_epoch, leaderboard_epoch_last,
    };

    /// Migration 0018 writes the band's width and the epoch's length into its SQL (the cells'
    /// keys, computed by triggers): every division of a rating or of a `steady_until` there
    /// uses the constants the queries compute their keys with.
    #[test]
    fn the_cells_keys_are_the_migrations() {
        let band = format!("rating / {LEADERBOARD_BAND:?}");
        let epoch = format!("steady_until / {LEADERBOARD_EPOCH_MS}");
        for sql in [
            include_str!("../../../migrations/0018_leaderboard_cells.sql"),
            include_str!("../../../migrations/postgres/0018_leaderboard_cells.sql"),
        ] {
            assert_eq!(sql.matches("rating / ").count(), sql.matches(&band).count());
            assert_eq!(
                sql.matches("steady_until / ").count(),
                sql.matches(&epoch).count()
            );
            assert!(sql.matches(&band).count() >= 4 && sql.matches(&epoch).count() >= 4);
        }
    }

    /// Bands truncate (as SQLite's CAST and PostgreSQL's `trunc`), epochs too; the last moment
    /// of an epoch and the end of a band are where the next begins.
    #[test]
    fn bands_and_epochs_at_their_edges() {
        assert_eq!(leaderboard_band(1549.9999999999998), 30);
        assert_eq!(leaderboard_band(1550.0), 31);
        assert_eq!(leaderboard_band(-49.99), 0);
        assert_eq!(leaderboard_band(-50.0), -1);
        assert_eq!(leaderboard_band_end(30), 1550.0);
        let w = LEADERBOARD_EPOCH_MS;
        for e in [-3, -1, 0, 1, 2_976] {
            let last = leaderboard_epoch_last(e);
            assert_eq!(leaderboard_epoch(last), e);
            assert_eq!(leaderboard_epoch(last + 1), e + 1);
        }
        assert_eq!(leaderboard_epoch(-w + 1), 0);
        assert_eq!(leaderboard_epoch_last(i64::MAX / w), i64::MAX);
    }
}
