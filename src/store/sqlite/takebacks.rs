//! Takeback requests.

use rusqlite::{OptionalExtension, Row, params};

use super::{Columns, SqliteTx};
use crate::store::{OfferStatus, Side, StoreError, TakebackRow, Takebacks};

/// Reads the columns in the order of the `SELECT` below.
fn takeback_row(row: &Row<'_>) -> rusqlite::Result<TakebackRow> {
    let mut c = Columns::new(row);
    Ok(TakebackRow {
        id: c.get()?,
        game_id: c.get()?,
        by: c.get()?,
        ply: c.get()?,
        plies: c.get()?,
        status: c.get()?,
        created_at: c.get()?,
    })
}

impl Takebacks for SqliteTx<'_> {
    fn open_takeback(&self, game_id: i64) -> Result<Option<TakebackRow>, StoreError> {
        Ok(self
            .tx
            .prepare_cached(
                "SELECT id, game_id, by_colour, ply, plies, status, created_at FROM takebacks
                 WHERE game_id = ?1 AND status = 'open'",
            )?
            .query_row([game_id], takeback_row)
            .optional()?)
    }

    fn insert_takeback(
        &self,
        game_id: i64,
        by: Side,
        ply: u32,
        plies: u32,
        now: i64,
    ) -> Result<i64, StoreError> {
        self.resolve_takeback(game_id, OfferStatus::Lapsed, now)?;
        Ok(self
            .tx
            .prepare_cached(
                "INSERT INTO takebacks (game_id, by_colour, ply, plies, status, created_at)
                 VALUES (?1, ?2, ?3, ?4, 'open', ?5)
                 RETURNING id",
            )?
            .query_row(params![game_id, by, ply, plies, now], |r| r.get(0))?)
    }

    fn resolve_takeback(
        &self,
        game_id: i64,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "UPDATE takebacks SET status = ?2, resolved_at = ?3
                 WHERE game_id = ?1 AND status = 'open'",
            )?
            .execute(params![game_id, status, now])?;
        Ok(n > 0)
    }
}
