//! Ratings and their history (migrations 0008 and 0015).

use rusqlite::{OptionalExtension, Row, params};

use super::{Columns, SqliteTx, to_db};
use crate::store::{GameRow, RatingChangeRow, RatingRow, Ratings, Speed, StoreError, UserRow};

/// [`rating_row`] reads the columns in this order.
const RATING_COLUMNS: &str =
    "r.pool, r.speed, r.user_id, r.rating, r.deviation, r.volatility, r.games, r.rated_at";

fn rating_row(row: &Row<'_>) -> rusqlite::Result<RatingRow> {
    let mut c = Columns::new(row);
    Ok(RatingRow {
        pool: c.get()?,
        speed: c.get()?,
        user_id: c.id()?,
        rating: c.get()?,
        deviation: c.get()?,
        volatility: c.get()?,
        games: c.get()?,
        rated_at: c.get()?,
    })
}

/// The leaderboard's conditions at a moment, on columns prefixed with `$p` (`r.` or none),
/// with the parameters ?1 pool, ?2 speed, ?3 now (Unix ms) and [`ranked_params`] as ?4 and
/// ?5: those of the partial index `ratings_leaderboard`, then the RD as of now below 110,
/// computed as [`crate::store::ranked_at`] computes it (no square root: RD² against 110²).
macro_rules! ranked {
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
            "deviation * ",
            $p,
            "deviation + MAX(?3 - ",
            $p,
            "rated_at, 0) * ?4 * (",
            $p,
            "volatility * ",
            $p,
            "volatility) < ?5"
        )
    };
}

/// ?4 and ?5 of [`ranked!`]: the RD² growth per ms and per σ², and 110².
fn ranked_params() -> (f64, f64) {
    use crate::store::{RANKED_MAX_DEVIATION, RANKED_RD2_PER_MS};
    (
        RANKED_RD2_PER_MS,
        RANKED_MAX_DEVIATION * RANKED_MAX_DEVIATION,
    )
}

/// [`change_row`] reads the columns in this order.
macro_rules! select_change {
    () => {
        "SELECT game_id, pool, speed, user_id, colour, score, rating_before, deviation_before,
             rating_after, deviation_after, volatility_after, at
         FROM rating_history"
    };
}

fn change_row(row: &Row<'_>) -> rusqlite::Result<RatingChangeRow> {
    let mut c = Columns::new(row);
    Ok(RatingChangeRow {
        game_id: c.get()?,
        pool: c.get()?,
        speed: c.get()?,
        user_id: c.id()?,
        colour: c.get()?,
        score: c.get()?,
        rating_before: c.get()?,
        deviation_before: c.get()?,
        rating_after: c.get()?,
        deviation_after: c.get()?,
        volatility_after: c.get()?,
        at: c.get()?,
    })
}

impl Ratings for SqliteTx<'_> {
    fn rating(&self, pool: i64, speed: Speed, user: u64) -> Result<Option<RatingRow>, StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings r
             WHERE r.pool = ?1 AND r.speed = ?2 AND r.user_id = ?3"
        );
        Ok(self
            .tx
            .prepare_cached(&sql)?
            .query_row(params![pool, speed, to_db(user)], rating_row)
            .optional()?)
    }

    fn ratings_of(&self, pool: i64, user: u64) -> Result<Vec<RatingRow>, StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings r
             WHERE r.pool = ?1 AND r.user_id = ?2 ORDER BY r.speed"
        );
        let mut stmt = self.tx.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![pool, to_db(user)], rating_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn put_rating(&self, r: &RatingRow) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "INSERT INTO ratings (pool, speed, user_id, rating, deviation, volatility, games,
                     rated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT (pool, speed, user_id) DO UPDATE SET rating = excluded.rating,
                     deviation = excluded.deviation, volatility = excluded.volatility,
                     games = excluded.games, rated_at = excluded.rated_at",
            )?
            .execute(params![
                r.pool,
                r.speed,
                to_db(r.user_id),
                r.rating,
                r.deviation,
                r.volatility,
                r.games,
                r.rated_at
            ])?;
        Ok(())
    }

    fn rating_pair(
        &self,
        pool: i64,
        speed: Speed,
        users: [u64; 2],
    ) -> Result<[Option<RatingRow>; 2], StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings r
             WHERE r.pool = ?1 AND r.speed = ?2 AND r.user_id IN (?3, ?4)"
        );
        let mut stmt = self.tx.prepare_cached(&sql)?;
        let mut rows = stmt.query(params![pool, speed, to_db(users[0]), to_db(users[1])])?;
        let mut pair = [None, None];
        while let Some(row) = rows.next()? {
            let r = rating_row(row)?;
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
        let n = self
            .tx
            .prepare_cached(
                "INSERT INTO rating_history (game_id, pool, speed, user_id, colour, score,
                     rating_before, deviation_before, rating_after, deviation_after,
                     volatility_after, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12),
                     (?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)
                 ON CONFLICT (game_id, user_id) DO NOTHING",
            )?
            .execute(params![
                a.game_id,
                a.pool,
                a.speed,
                to_db(a.user_id),
                a.colour,
                a.score,
                a.rating_before,
                a.deviation_before,
                a.rating_after,
                a.deviation_after,
                a.volatility_after,
                a.at,
                b.game_id,
                b.pool,
                b.speed,
                to_db(b.user_id),
                b.colour,
                b.score,
                b.rating_before,
                b.deviation_before,
                b.rating_after,
                b.deviation_after,
                b.volatility_after,
                b.at
            ])?;
        if n != 2 {
            return Ok(false);
        }
        let [a, b] = ratings;
        self.tx
            .prepare_cached(
                "INSERT INTO ratings (pool, speed, user_id, rating, deviation, volatility, games,
                     rated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8), (?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
                 ON CONFLICT (pool, speed, user_id) DO UPDATE SET rating = excluded.rating,
                     deviation = excluded.deviation, volatility = excluded.volatility,
                     games = excluded.games, rated_at = excluded.rated_at",
            )?
            .execute(params![
                a.pool,
                a.speed,
                to_db(a.user_id),
                a.rating,
                a.deviation,
                a.volatility,
                a.games,
                a.rated_at,
                b.pool,
                b.speed,
                to_db(b.user_id),
                b.rating,
                b.deviation,
                b.volatility,
                b.games,
                b.rated_at
            ])?;
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
        // The partial index's own conditions, then the RD as of now. `INDEXED BY`: without
        // statistics, SQLite's planner would rather walk the primary key of the pool and read
        // every row.
        let sql = format!(
            "SELECT {RATING_COLUMNS}, u.id, u.name, u.is_bot
             FROM ratings r INDEXED BY ratings_leaderboard JOIN users u ON u.id = r.user_id
             WHERE {}
             ORDER BY r.rating DESC, r.user_id
             LIMIT ?6 OFFSET ?7",
            ranked!("r.")
        );
        let mut stmt = self.tx.prepare_cached(&sql)?;
        let (k, lim) = ranked_params();
        let rows = stmt.query_map(
            params![
                pool,
                speed,
                now,
                k,
                lim,
                limit,
                offset.min(i64::MAX as u64) as i64
            ],
            |row| {
                let r = rating_row(row)?;
                let mut c = Columns::new(row);
                c.next = 8;
                Ok((r, c.user()?))
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn players_above(&self, r: &RatingRow, now: i64) -> Result<u64, StoreError> {
        // Two ranges of the leaderboard's covering index (an OR of both would not use it):
        // the better ratings, and the same rating with a smaller id.
        let mut n: i64 = 0;
        for sql in [
            concat!(
                "SELECT COUNT(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
                ranked!(""),
                " AND rating > ?6 AND ?7 IS NOT NULL"
            ),
            concat!(
                "SELECT COUNT(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
                ranked!(""),
                " AND rating = ?6 AND user_id < ?7"
            ),
        ] {
            let (k, lim) = ranked_params();
            let part: i64 = self.tx.prepare_cached(sql)?.query_row(
                params![r.pool, r.speed, now, k, lim, r.rating, to_db(r.user_id)],
                |row| row.get(0),
            )?;
            n += part;
        }
        Ok(n as u64)
    }

    fn ranked_count(&self, pool: i64, speed: Speed, now: i64) -> Result<u64, StoreError> {
        let (k, lim) = ranked_params();
        let n: i64 = self
            .tx
            .prepare_cached(concat!(
                "SELECT COUNT(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
                ranked!("")
            ))?
            .query_row(params![pool, speed, now, k, lim], |row| row.get(0))?;
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
        let above = self.players_above(r, now)?;
        let mut rest: i64 = 0;
        for sql in [
            concat!(
                "SELECT COUNT(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
                ranked!(""),
                " AND rating < ?6 AND ?7 IS NOT NULL"
            ),
            concat!(
                "SELECT COUNT(*) FROM ratings INDEXED BY ratings_leaderboard WHERE ",
                ranked!(""),
                " AND rating = ?6 AND user_id >= ?7"
            ),
        ] {
            let (k, lim) = ranked_params();
            let part: i64 = self.tx.prepare_cached(sql)?.query_row(
                params![pool, speed, now, k, lim, r.rating, to_db(r.user_id)],
                |row| row.get(0),
            )?;
            rest += part;
        }
        Ok((above + rest as u64, Some(above)))
    }

    fn ratings_version(&self, pool: i64, speed: Speed) -> Result<i64, StoreError> {
        let v: Option<i64> = self
            .tx
            .prepare_cached("SELECT MAX(id) FROM rating_history WHERE pool = ?1 AND speed = ?2")?
            .query_row(params![pool, speed], |row| row.get(0))?;
        Ok(v.unwrap_or(0))
    }

    fn rating_changes(
        &self,
        pool: i64,
        speed: Speed,
        user: u64,
    ) -> Result<Vec<RatingChangeRow>, StoreError> {
        let mut stmt = self.tx.prepare_cached(concat!(
            select_change!(),
            " WHERE pool = ?1 AND user_id = ?2 AND speed = ?3 ORDER BY at, id"
        ))?;
        let rows = stmt.query_map(params![pool, to_db(user), speed], change_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn game_rating_changes(&self, game_id: i64) -> Result<Vec<RatingChangeRow>, StoreError> {
        let mut stmt = self
            .tx
            .prepare_cached(concat!(select_change!(), " WHERE game_id = ?1 ORDER BY id"))?;
        let rows = stmt.query_map([game_id], change_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn rated_games(&self) -> Result<Vec<GameRow>, StoreError> {
        self.finished_rated_games()
    }

    fn clear_ratings(&self) -> Result<(), StoreError> {
        self.tx.execute("DELETE FROM rating_history", [])?;
        self.tx.execute("DELETE FROM ratings", [])?;
        Ok(())
    }
}
