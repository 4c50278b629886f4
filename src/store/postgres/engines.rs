//! Engines as players (migration 0009).

use super::{PgTx, to_db};
use crate::store::{Engines, StoreError};

impl Engines for PgTx<'_> {
    fn upsert_engine(&self, id: u64, name: &str, level: u8, now: i64) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO users (id, name, is_bot, updated_at, kind, engine_level)
             VALUES ($1, $2, TRUE, $3, 'engine', $4)
             ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_bot = TRUE,
                 kind = 'engine', engine_level = excluded.engine_level,
                 updated_at = excluded.updated_at
             WHERE users.name IS DISTINCT FROM excluded.name
                 OR users.kind IS DISTINCT FROM 'engine'
                 OR users.engine_level IS DISTINCT FROM excluded.engine_level",
            &[&to_db(id), &name, &now, &i32::from(level)],
        )?;
        Ok(())
    }

    fn engine_level(&self, user: u64) -> Result<Option<u8>, StoreError> {
        let Some(row) = self.query_opt(
            "SELECT engine_level FROM users WHERE id = $1 AND kind = 'engine'",
            &[&to_db(user)],
        )?
        else {
            return Ok(None);
        };
        match row.try_get::<_, Option<i32>>(0)? {
            None => Ok(None),
            Some(level) => u8::try_from(level)
                .map(Some)
                .map_err(|_| StoreError::Corrupt(format!("engine level {level}"))),
        }
    }

    fn active_engine_games(&self) -> Result<Vec<i64>, StoreError> {
        self.query(
            "SELECT g.id FROM games g
             JOIN users w ON w.id = g.white_id JOIN users b ON b.id = g.black_id
             WHERE g.status = 'active' AND (w.kind = 'engine' OR b.kind = 'engine')
             ORDER BY g.id",
            &[],
        )?
        .iter()
        .map(|r| r.try_get(0).map_err(StoreError::from))
        .collect()
    }

    fn claim_engine_turn(
        &self,
        game: i64,
        seq: i64,
        owner: u64,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let n = self.execute(
            "INSERT INTO engine_claims (game_id, seq, owner, claim_until)
             VALUES ($1, $2, $3, $5)
             ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq,
                 owner = excluded.owner, claim_until = excluded.claim_until
             WHERE engine_claims.seq < excluded.seq
                 OR engine_claims.owner = excluded.owner
                 OR engine_claims.claim_until <= $4",
            &[&game, &seq, &to_db(owner), &now, &until],
        )?;
        Ok(n == 1)
    }

    fn release_engine_claims(&self) -> Result<usize, StoreError> {
        let n = self.execute("DELETE FROM engine_claims", &[])?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn analysis_record(&self, game: i64, budget: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .query_opt(
                "SELECT record FROM analyses WHERE game_id = $1 AND budget = $2",
                &[&game, &budget],
            )?
            .map(|r| r.try_get(0))
            .transpose()?)
    }

    fn put_analysis_record(
        &self,
        game: i64,
        budget: &str,
        record: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO analyses (game_id, budget, record, created_at)
             VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, budget) DO NOTHING",
            &[&game, &budget, &record, &now],
        )?;
        Ok(())
    }
}
