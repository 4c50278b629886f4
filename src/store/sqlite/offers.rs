//! Draw offers.

use rusqlite::{OptionalExtension, Row, params};

use super::{Columns, SqliteTx};
use crate::store::{DrawOfferRow, DrawOffers, OfferStatus, Side, StoreError};

fn offer_row(row: &Row<'_>) -> rusqlite::Result<DrawOfferRow> {
    let mut c = Columns::new(row);
    Ok(DrawOfferRow {
        id: c.get()?,
        game_id: c.get()?,
        by: c.get()?,
        ply: c.get()?,
        status: c.get()?,
        created_at: c.get()?,
    })
}

impl DrawOffers for SqliteTx<'_> {
    fn open_draw_offer(&self, game_id: i64) -> Result<Option<DrawOfferRow>, StoreError> {
        Ok(self
            .tx
            .prepare_cached(
                "SELECT id, game_id, by_colour, ply, status, created_at FROM draw_offers
                 WHERE game_id = ?1 AND status = 'open'",
            )?
            .query_row([game_id], offer_row)
            .optional()?)
    }

    fn insert_draw_offer(
        &self,
        game_id: i64,
        by: Side,
        ply: u32,
        now: i64,
    ) -> Result<i64, StoreError> {
        Ok(self
            .tx
            .prepare_cached(
                "INSERT INTO draw_offers (game_id, by_colour, ply, status, created_at)
                 VALUES (?1, ?2, ?3, 'open', ?4)
                 RETURNING id",
            )?
            .query_row(params![game_id, by, ply, now], |r| r.get(0))?)
    }

    fn resolve_draw_offer(
        &self,
        game_id: i64,
        by: Option<Side>,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "UPDATE draw_offers SET status = ?3, resolved_at = ?4
                 WHERE game_id = ?1 AND status = 'open' AND (?2 IS NULL OR by_colour = ?2)",
            )?
            .execute(params![game_id, by, status, now])?;
        Ok(n > 0)
    }
}
