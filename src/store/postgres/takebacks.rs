//! Takeback requests.

use postgres::Row;

use super::{Columns, PgTx, ply_to_db};
use crate::store::{OfferStatus, Side, StoreError, TakebackRow, Takebacks};

/// Reads the columns in the order of the `SELECT` below.
fn takeback_row(row: &Row) -> Result<TakebackRow, StoreError> {
    let mut c = Columns::new(row);
    Ok(TakebackRow {
        id: c.get()?,
        game_id: c.get()?,
        by: c.text()?,
        ply: c.ply()?,
        plies: c.ply()?,
        status: c.text()?,
        created_at: c.get()?,
    })
}

impl Takebacks for PgTx<'_> {
    fn open_takeback(&self, game_id: i64) -> Result<Option<TakebackRow>, StoreError> {
        self.query_opt(
            "SELECT id, game_id, by_colour, ply, plies, status, created_at FROM takebacks
             WHERE game_id = $1 AND status = 'open'",
            &[&game_id],
        )?
        .map(|r| takeback_row(&r))
        .transpose()
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
            .query_one(
                "INSERT INTO takebacks (game_id, by_colour, ply, plies, status, created_at)
                 VALUES ($1, $2, $3, $4, 'open', $5)
                 RETURNING id",
                &[
                    &game_id,
                    &by.as_str(),
                    &ply_to_db(ply),
                    &ply_to_db(plies),
                    &now,
                ],
            )?
            .try_get(0)?)
    }

    fn resolve_takeback(
        &self,
        game_id: i64,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.execute(
            "UPDATE takebacks SET status = $2, resolved_at = $3
             WHERE game_id = $1 AND status = 'open'",
            &[&game_id, &status.as_str(), &now],
        )?;
        Ok(n > 0)
    }
}
