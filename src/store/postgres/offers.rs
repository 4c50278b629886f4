//! Draw offers.

use postgres::Row;

use super::{Columns, PgTx, ply_to_db};
use crate::store::{DrawOfferRow, DrawOffers, OfferStatus, Side, StoreError};

fn offer_row(row: &Row) -> Result<DrawOfferRow, StoreError> {
    offer_from(&mut Columns::new(row))
}

/// A draw offer from the next six columns: id, game, by, ply, status, created.
pub(super) fn offer_from(c: &mut Columns<'_>) -> Result<DrawOfferRow, StoreError> {
    Ok(DrawOfferRow {
        id: c.get()?,
        game_id: c.get()?,
        by: c.text()?,
        ply: c.ply()?,
        status: c.text()?,
        created_at: c.get()?,
    })
}

impl DrawOffers for PgTx<'_> {
    fn open_draw_offer(&self, game_id: i64) -> Result<Option<DrawOfferRow>, StoreError> {
        self.query_opt(
            "SELECT id, game_id, by_colour, ply, status, created_at FROM draw_offers
             WHERE game_id = $1 AND status = 'open'",
            &[&game_id],
        )?
        .map(|r| offer_row(&r))
        .transpose()
    }

    fn insert_draw_offer(
        &self,
        game_id: i64,
        by: Side,
        ply: u32,
        now: i64,
    ) -> Result<i64, StoreError> {
        Ok(self
            .query_one(
                "INSERT INTO draw_offers (game_id, by_colour, ply, status, created_at)
                 VALUES ($1, $2, $3, 'open', $4)
                 RETURNING id",
                &[&game_id, &by.as_str(), &ply_to_db(ply), &now],
            )?
            .try_get(0)?)
    }

    fn resolve_draw_offer(
        &self,
        game_id: i64,
        by: Option<Side>,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.execute(
            "UPDATE draw_offers SET status = $3, resolved_at = $4
             WHERE game_id = $1 AND status = 'open' AND ($2::text IS NULL OR by_colour = $2)",
            &[&game_id, &by.map(Side::as_str), &status.as_str(), &now],
        )?;
        Ok(n > 0)
    }
}
