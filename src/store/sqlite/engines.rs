//! Engines as players (migration 0009).

use rusqlite::{OptionalExtension, params};

use super::{SqliteTx, to_db};
use crate::store::{Engines, StoreError};

impl Engines for SqliteTx<'_> {
    fn upsert_engine(&self, id: u64, name: &str, level: u8, now: i64) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "INSERT INTO users (id, name, is_bot, updated_at, kind, engine_level)
                 VALUES (?1, ?2, 1, ?3, 'engine', ?4)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_bot = 1,
                     kind = 'engine', engine_level = excluded.engine_level,
                     updated_at = excluded.updated_at
                 WHERE users.name IS DISTINCT FROM excluded.name
                     OR users.kind IS DISTINCT FROM 'engine'
                     OR users.engine_level IS DISTINCT FROM excluded.engine_level",
            )?
            .execute(params![to_db(id), name, now, level])?;
        Ok(())
    }

    fn engine_level(&self, user: u64) -> Result<Option<u8>, StoreError> {
        Ok(self
            .tx
            .prepare_cached("SELECT engine_level FROM users WHERE id = ?1 AND kind = 'engine'")?
            .query_row([to_db(user)], |r| r.get::<_, Option<u8>>(0))
            .optional()?
            .flatten())
    }

    fn active_engine_games(&self) -> Result<Vec<i64>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT g.id FROM games g
             JOIN users w ON w.id = g.white_id JOIN users b ON b.id = g.black_id
             WHERE g.status = 'active' AND (w.kind = 'engine' OR b.kind = 'engine')
             ORDER BY g.id",
        )?;
        let ids = stmt.query_map([], |r| r.get::<_, i64>(0))?;
        Ok(ids.collect::<Result<_, _>>()?)
    }

    fn claim_engine_turn(
        &self,
        game: i64,
        seq: i64,
        owner: u64,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "INSERT INTO engine_claims (game_id, seq, owner, claim_until)
                 VALUES (?1, ?2, ?3, ?5)
                 ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq,
                     owner = excluded.owner, claim_until = excluded.claim_until
                 WHERE engine_claims.seq < excluded.seq
                     OR engine_claims.owner = excluded.owner
                     OR engine_claims.claim_until <= ?4",
            )?
            .execute(params![game, seq, to_db(owner), now, until])?;
        Ok(n == 1)
    }

    fn release_engine_claims(&self) -> Result<usize, StoreError> {
        Ok(self
            .tx
            .prepare_cached("DELETE FROM engine_claims")?
            .execute([])?)
    }

    fn analysis_record(&self, game: i64, budget: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .tx
            .prepare_cached("SELECT record FROM analyses WHERE game_id = ?1 AND budget = ?2")?
            .query_row(params![game, budget], |r| r.get::<_, String>(0))
            .optional()?)
    }

    fn put_analysis_record(
        &self,
        game: i64,
        budget: &str,
        record: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "INSERT INTO analyses (game_id, budget, record, created_at)
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT (game_id, budget) DO NOTHING",
            )?
            .execute(params![game, budget, record, now])?;
        Ok(())
    }
}
