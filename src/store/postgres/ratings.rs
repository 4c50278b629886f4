//! Ratings and their history (migration 0008).

use postgres::Row;

use super::{Columns, PgTx, locks, to_db};
use crate::store::{GameRow, RatingChangeRow, RatingRow, Ratings, Speed, StoreError, UserRow};

/// [`rating_row`] reads the columns in this order.
macro_rules! rating_columns {
    () => {
        "r.pool, r.speed, r.user_id, r.rating, r.deviation, r.volatility, r.games, r.rated_at"
    };
}

fn rating_row(c: &mut Columns<'_>) -> Result<RatingRow, StoreError> {
    Ok(RatingRow {
        pool: c.get()?,
        speed: c.text()?,
        user_id: c.id()?,
        rating: c.get()?,
        deviation: c.get()?,
        volatility: c.get()?,
        games: c.ply()?,
        rated_at: c.get()?,
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

fn change_row(row: &Row) -> Result<RatingChangeRow, StoreError> {
    let mut c = Columns::new(row);
    Ok(RatingChangeRow {
        game_id: c.get()?,
        pool: c.get()?,
        speed: c.text()?,
        user_id: c.id()?,
        colour: c.text()?,
        score: c.get()?,
        rating_before: c.get()?,
        deviation_before: c.get()?,
        rating_after: c.get()?,
        deviation_after: c.get()?,
        volatility_after: c.get()?,
        at: c.get()?,
    })
}

/// The leaderboard's conditions at a moment, with the parameters $1 pool, $2 speed, $3 now
/// (Unix ms) and [`ranked_params`] as $4 and $5: those of the partial index
/// `ratings_leaderboard`, then the RD as of now below 110, computed as
/// [`crate::store::ranked_at`] computes it (no square root: RD² against 110²).
macro_rules! ranked {
    () => {
        "pool = $1 AND speed = $2 AND games >= 5 AND deviation < 110
         AND deviation * deviation + GREATEST($3::BIGINT - rated_at, 0) * $4::DOUBLE PRECISION
             * (volatility * volatility) < $5::DOUBLE PRECISION"
    };
}

/// $4 and $5 of [`ranked!`]: the RD² growth per ms and per σ², and 110².
fn ranked_params() -> (f64, f64) {
    use crate::store::{RANKED_MAX_DEVIATION, RANKED_RD2_PER_MS};
    (
        RANKED_RD2_PER_MS,
        RANKED_MAX_DEVIATION * RANKED_MAX_DEVIATION,
    )
}

impl Ratings for PgTx<'_> {
    fn rating(&self, pool: i64, speed: Speed, user: u64) -> Result<Option<RatingRow>, StoreError> {
        self.query_opt(
            concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings r WHERE r.pool = $1 AND r.speed = $2 AND r.user_id = $3"
            ),
            &[&pool, &speed.as_str(), &to_db(user)],
        )?
        .map(|r| rating_row(&mut Columns::new(&r)))
        .transpose()
    }

    fn ratings_of(&self, pool: i64, user: u64) -> Result<Vec<RatingRow>, StoreError> {
        self.query(
            concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings r WHERE r.pool = $1 AND r.user_id = $2 ORDER BY r.speed"
            ),
            &[&pool, &to_db(user)],
        )?
        .iter()
        .map(|r| rating_row(&mut Columns::new(r)))
        .collect()
    }

    fn put_rating(&self, r: &RatingRow) -> Result<(), StoreError> {
        let games = i32::try_from(r.games).unwrap_or(i32::MAX);
        self.execute(
            "INSERT INTO ratings (pool, speed, user_id, rating, deviation, volatility, games,
                 rated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (pool, speed, user_id) DO UPDATE SET rating = excluded.rating,
                 deviation = excluded.deviation, volatility = excluded.volatility,
                 games = excluded.games, rated_at = excluded.rated_at",
            &[
                &r.pool,
                &r.speed.as_str(),
                &to_db(r.user_id),
                &r.rating,
                &r.deviation,
                &r.volatility,
                &games,
                &r.rated_at,
            ],
        )?;
        Ok(())
    }

    fn lock_ratings(&self, players: &[(i64, Speed, u64)]) -> Result<(), StoreError> {
        // A rebuild holds every rating at once ([`locks::RATINGS`]): nothing more to take.
        if players.is_empty() || self.ratings_locked.get() {
            return Ok(());
        }
        // Every transaction takes the shared lock of all ratings first (a rebuild takes it
        // exclusively), then its players' locks in the order of their keys: two transactions
        // never each hold a lock the other waits for. The NULL ahead of the keys stands for
        // the shared lock; `unnest` yields the array in its order, one lock per row.
        let mut keys: Vec<Option<i32>> = players
            .iter()
            .map(|&(pool, speed, user)| Some(locks::rating_key(pool, speed.as_str(), user)))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys.insert(0, None);
        self.execute(
            "SELECT CASE WHEN k IS NULL THEN pg_advisory_xact_lock_shared($1, $2)
                         ELSE pg_advisory_xact_lock($3, k) END
             FROM unnest($4::int4[]) AS k",
            &[&locks::CLASS, &locks::RATINGS, &locks::RATINGS_CLASS, &keys],
        )?;
        Ok(())
    }

    fn rating_pair(
        &self,
        pool: i64,
        speed: Speed,
        users: [u64; 2],
    ) -> Result<[Option<RatingRow>; 2], StoreError> {
        // Two rated games of one player ending at once (in different channels, so under
        // different channel locks) would both read the same rating and the later write would
        // erase the earlier game. Each player's rating in the pool is locked until the end of
        // the transaction before the read: its statement then sees what the other game
        // committed. A player's first game has no row to lock with FOR UPDATE; the advisory
        // lock covers it too.
        self.lock_ratings(&users.map(|u| (pool, speed, u)))?;
        let rows = self.query(
            concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings r WHERE r.pool = $1 AND r.speed = $2 AND r.user_id IN ($3, $4)"
            ),
            &[&pool, &speed.as_str(), &to_db(users[0]), &to_db(users[1])],
        )?;
        let mut pair = [None, None];
        for row in &rows {
            let r = rating_row(&mut Columns::new(row))?;
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
        // One round trip: both history rows and both ratings (PostgreSQL runs every
        // data-modifying WITH to completion). When a history row was already there, the
        // ratings were written all the same, and the caller rolls back.
        let [a, b] = changes;
        let [ra, rb] = ratings;
        let games = |r: &RatingRow| i32::try_from(r.games).unwrap_or(i32::MAX);
        let (ga, gb) = (games(ra), games(rb));
        let n: i64 = self
            .query_one(
                "WITH h AS (
                     INSERT INTO rating_history (game_id, pool, speed, user_id, colour, score,
                         rating_before, deviation_before, rating_after, deviation_after,
                         volatility_after, at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12),
                         ($13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)
                     ON CONFLICT (game_id, user_id) DO NOTHING
                     RETURNING 1
                 ), r AS (
                     INSERT INTO ratings (pool, speed, user_id, rating, deviation, volatility,
                         games, rated_at)
                     VALUES ($25, $26, $27, $28, $29, $30, $31, $32),
                         ($33, $34, $35, $36, $37, $38, $39, $40)
                     ON CONFLICT (pool, speed, user_id) DO UPDATE SET rating = excluded.rating,
                         deviation = excluded.deviation, volatility = excluded.volatility,
                         games = excluded.games, rated_at = excluded.rated_at
                     RETURNING 1
                 )
                 SELECT count(*) FROM h",
                &[
                    &a.game_id,
                    &a.pool,
                    &a.speed.as_str(),
                    &to_db(a.user_id),
                    &a.colour.as_str(),
                    &a.score,
                    &a.rating_before,
                    &a.deviation_before,
                    &a.rating_after,
                    &a.deviation_after,
                    &a.volatility_after,
                    &a.at,
                    &b.game_id,
                    &b.pool,
                    &b.speed.as_str(),
                    &to_db(b.user_id),
                    &b.colour.as_str(),
                    &b.score,
                    &b.rating_before,
                    &b.deviation_before,
                    &b.rating_after,
                    &b.deviation_after,
                    &b.volatility_after,
                    &b.at,
                    &ra.pool,
                    &ra.speed.as_str(),
                    &to_db(ra.user_id),
                    &ra.rating,
                    &ra.deviation,
                    &ra.volatility,
                    &ga,
                    &ra.rated_at,
                    &rb.pool,
                    &rb.speed.as_str(),
                    &to_db(rb.user_id),
                    &rb.rating,
                    &rb.deviation,
                    &rb.volatility,
                    &gb,
                    &rb.rated_at,
                ],
            )?
            .try_get(0)?;
        Ok(n == 2)
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
        let (k, lim) = ranked_params();
        self.query(
            concat!(
                "SELECT ",
                rating_columns!(),
                ", u.id, u.name, u.is_bot
                 FROM ratings r JOIN users u ON u.id = r.user_id
                 WHERE ",
                ranked!(),
                " ORDER BY r.rating DESC, r.user_id
                 LIMIT $6 OFFSET $7"
            ),
            &[
                &pool,
                &speed.as_str(),
                &now,
                &k,
                &lim,
                &i64::from(limit),
                &offset,
            ],
        )?
        .iter()
        .map(|row| {
            let mut c = Columns::new(row);
            Ok((rating_row(&mut c)?, c.user()?))
        })
        .collect()
    }

    fn players_above(&self, r: &RatingRow, now: i64) -> Result<u64, StoreError> {
        // Two ranges of the leaderboard's index: the better ratings, and the same rating with
        // a smaller id.
        let (k, lim) = ranked_params();
        let n: i64 = self
            .query_one(
                concat!(
                    "SELECT (SELECT count(*) FROM ratings WHERE ",
                    ranked!(),
                    " AND rating > $6)
                     + (SELECT count(*) FROM ratings WHERE ",
                    ranked!(),
                    " AND rating = $6 AND user_id < $7)"
                ),
                &[
                    &r.pool,
                    &r.speed.as_str(),
                    &now,
                    &k,
                    &lim,
                    &r.rating,
                    &to_db(r.user_id),
                ],
            )?
            .try_get(0)?;
        Ok(n as u64)
    }

    fn ranked_count(&self, pool: i64, speed: Speed, now: i64) -> Result<u64, StoreError> {
        let (k, lim) = ranked_params();
        let n: i64 = self
            .query_one(
                concat!("SELECT count(*) FROM ratings WHERE ", ranked!()),
                &[&pool, &speed.as_str(), &now, &k, &lim],
            )?
            .try_get(0)?;
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
        // Split at `r`: the entries above it and the others, two ranges of the index each,
        // so every entry is counted once (and tested for its RD as of now from the index).
        let (k, lim) = ranked_params();
        let row = self.query_one(
            concat!(
                "SELECT (SELECT count(*) FROM ratings WHERE ",
                ranked!(),
                " AND rating > $6)
                     + (SELECT count(*) FROM ratings WHERE ",
                ranked!(),
                " AND rating = $6 AND user_id < $7),
                 (SELECT count(*) FROM ratings WHERE ",
                ranked!(),
                " AND rating < $6)
                     + (SELECT count(*) FROM ratings WHERE ",
                ranked!(),
                " AND rating = $6 AND user_id >= $7)"
            ),
            &[
                &pool,
                &speed.as_str(),
                &now,
                &k,
                &lim,
                &r.rating,
                &to_db(r.user_id),
            ],
        )?;
        let (above, rest): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
        Ok(((above + rest) as u64, Some(above as u64)))
    }

    fn ratings_version(&self, pool: i64, speed: Speed) -> Result<i64, StoreError> {
        let v: Option<i64> = self
            .query_one(
                "SELECT max(id) FROM rating_history WHERE pool = $1 AND speed = $2",
                &[&pool, &speed.as_str()],
            )?
            .try_get(0)?;
        Ok(v.unwrap_or(0))
    }

    fn rating_changes(
        &self,
        pool: i64,
        speed: Speed,
        user: u64,
    ) -> Result<Vec<RatingChangeRow>, StoreError> {
        self.query(
            concat!(
                select_change!(),
                " WHERE pool = $1 AND user_id = $2 AND speed = $3 ORDER BY at, id"
            ),
            &[&pool, &to_db(user), &speed.as_str()],
        )?
        .iter()
        .map(change_row)
        .collect()
    }

    fn game_rating_changes(&self, game_id: i64) -> Result<Vec<RatingChangeRow>, StoreError> {
        self.query(
            concat!(select_change!(), " WHERE game_id = $1 ORDER BY id"),
            &[&game_id],
        )?
        .iter()
        .map(change_row)
        .collect()
    }

    fn rated_games(&self) -> Result<Vec<GameRow>, StoreError> {
        self.finished_rated_games()
    }

    fn clear_ratings(&self) -> Result<(), StoreError> {
        // A rebuild: every rating, exclusively, until it commits (the rated ends of other
        // transactions wait for it, and it takes no lock per player).
        self.execute(
            "SELECT pg_advisory_xact_lock($1, $2)",
            &[&locks::CLASS, &locks::RATINGS],
        )?;
        self.ratings_locked.set(true);
        self.execute("DELETE FROM rating_history", &[])?;
        self.execute("DELETE FROM ratings", &[])?;
        Ok(())
    }
}
