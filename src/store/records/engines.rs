//! Engines as players (migration 0009), their claims on a move (migration 0013) and the
//! stored analyses (migration 0016).

use crate::store::StoreError;
use crate::store::sql::{Backend, BackendExt, to_db};

/// Engines as players (migration 0009): users of kind `engine`, with their level.
pub trait Engines {
    /// Stores the engine player `id` at `level` (1–8) under `name`, or refreshes it.
    fn upsert_engine(&self, id: u64, name: &str, level: u8, now: i64) -> Result<(), StoreError>;

    /// The level of `user` when it is an engine; `None` for a human (or an unknown id).
    fn engine_level(&self, user: u64) -> Result<Option<u8>, StoreError>;

    /// The ids of the active games with an engine among their players, oldest first.
    fn active_engine_games(&self) -> Result<Vec<i64>, StoreError>;

    /// Claims the engine's move in position `seq` (the game's clock `seq`, which every move
    /// and takeback raises) of game `game` for `owner` until `until` (Unix ms), as of `now`
    /// (migration 0013): taken when the game has no claim, or one for an earlier position, or
    /// a lapsed one, or one of `owner`'s (renewed); never over a live claim on a later
    /// position (a reader that saw an old position). Returns whether `owner` holds it.
    fn claim_engine_turn(
        &self,
        game: i64,
        seq: i64,
        owner: u64,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError>;

    /// Forgets every claim on an engine's move (a restart of the one process that owns the
    /// database). Returns how many.
    fn release_engine_claims(&self) -> Result<usize, StoreError>;

    /// The stored analysis of game `game` at `budget` (migration 0016): its record of
    /// evaluations and best moves.
    fn analysis_record(&self, game: i64, budget: &str) -> Result<Option<String>, StoreError>;

    /// Stores the analysis of game `game` at `budget`; one already there stays (the same
    /// game at the same budget gives the same record).
    fn put_analysis_record(
        &self,
        game: i64,
        budget: &str,
        record: &str,
        now: i64,
    ) -> Result<(), StoreError>;
}

impl<B: Backend + ?Sized> Engines for B {
    fn upsert_engine(&self, id: u64, name: &str, level: u8, now: i64) -> Result<(), StoreError> {
        self.exec(
            "INSERT INTO users (id, name, is_bot, updated_at, kind, engine_level)
             VALUES (?1, ?2, TRUE, ?3, 'engine', ?4)
             ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_bot = TRUE,
                 kind = 'engine', engine_level = excluded.engine_level,
                 updated_at = excluded.updated_at
             WHERE users.name IS DISTINCT FROM excluded.name
                 OR users.kind IS DISTINCT FROM 'engine'
                 OR users.engine_level IS DISTINCT FROM excluded.engine_level",
            &[&to_db(id), &name, &now, &level],
        )?;
        Ok(())
    }

    fn engine_level(&self, user: u64) -> Result<Option<u8>, StoreError> {
        let level = self.row(
            "SELECT engine_level FROM users WHERE id = ?1 AND kind = 'engine'",
            &[&to_db(user)],
            |c| c.opt_i64(),
        )?;
        match level.flatten() {
            None => Ok(None),
            Some(level) => u8::try_from(level)
                .map(Some)
                .map_err(|_| StoreError::Corrupt(format!("engine level {level}"))),
        }
    }

    fn active_engine_games(&self) -> Result<Vec<i64>, StoreError> {
        self.rows(
            "SELECT g.id FROM games g
             JOIN users w ON w.id = g.white_id JOIN users b ON b.id = g.black_id
             WHERE g.status = 'active' AND (w.kind = 'engine' OR b.kind = 'engine')
             ORDER BY g.id",
            &[],
            |c| c.i64(),
        )
    }

    fn claim_engine_turn(
        &self,
        game: i64,
        seq: i64,
        owner: u64,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let n = self.exec(
            "INSERT INTO engine_claims (game_id, seq, owner, claim_until)
             VALUES (?1, ?2, ?3, ?5)
             ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq,
                 owner = excluded.owner, claim_until = excluded.claim_until
             WHERE engine_claims.seq < excluded.seq
                 OR engine_claims.owner = excluded.owner
                 OR engine_claims.claim_until <= ?4",
            &[&game, &seq, &to_db(owner), &now, &until],
        )?;
        Ok(n == 1)
    }

    fn release_engine_claims(&self) -> Result<usize, StoreError> {
        let n = self.exec("DELETE FROM engine_claims", &[])?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn analysis_record(&self, game: i64, budget: &str) -> Result<Option<String>, StoreError> {
        self.row(
            "SELECT record FROM analyses WHERE game_id = ?1 AND budget = ?2",
            &[&game, &budget],
            |c| c.string(),
        )
    }

    fn put_analysis_record(
        &self,
        game: i64,
        budget: &str,
        record: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.exec(
            "INSERT INTO analyses (game_id, budget, record, created_at)
             VALUES (?1, ?2, ?3, ?4) ON CONFLICT (game_id, budget) DO NOTHING",
            &[&game, &budget, &record, &now],
        )?;
        Ok(())
    }
}
