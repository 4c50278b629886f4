//! Draw offers.

use crate::store::sql::{Backend, BackendExt, Columns};
use crate::store::{DrawOfferRow, OfferStatus, Side, StoreError};

/// A draw offer from the next six columns: id, game, by, ply, status, created.
pub(super) fn offer_row(c: &mut Columns<'_>) -> Result<DrawOfferRow, StoreError> {
    Ok(DrawOfferRow {
        id: c.i64()?,
        game_id: c.i64()?,
        by: c.code()?,
        ply: c.u32()?,
        status: c.code()?,
        created_at: c.i64()?,
    })
}

/// Draw offers.
pub trait DrawOffers {
    /// The open draw offer of a game.
    fn open_draw_offer(&self, game_id: i64) -> Result<Option<DrawOfferRow>, StoreError>;

    /// Records a new open draw offer and returns its id.
    fn insert_draw_offer(
        &self,
        game_id: i64,
        by: Side,
        ply: u32,
        now: i64,
    ) -> Result<i64, StoreError>;

    /// Closes the open draw offer of a game (only one made by `by`, when given). Returns
    /// whether an offer was closed.
    fn resolve_draw_offer(
        &self,
        game_id: i64,
        by: Option<Side>,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError>;
}

impl<B: Backend + ?Sized> DrawOffers for B {
    fn open_draw_offer(&self, game_id: i64) -> Result<Option<DrawOfferRow>, StoreError> {
        self.row(
            "SELECT id, game_id, by_colour, ply, status, created_at FROM draw_offers
             WHERE game_id = ?1 AND status = 'open'",
            &[&game_id],
            offer_row,
        )
    }

    fn insert_draw_offer(
        &self,
        game_id: i64,
        by: Side,
        ply: u32,
        now: i64,
    ) -> Result<i64, StoreError> {
        self.one(
            "INSERT INTO draw_offers (game_id, by_colour, ply, status, created_at)
             VALUES (?1, ?2, ?3, 'open', ?4)
             RETURNING id",
            &[&game_id, &by, &ply, &now],
            |c| c.i64(),
        )
    }

    fn resolve_draw_offer(
        &self,
        game_id: i64,
        by: Option<Side>,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.exec(
            "UPDATE draw_offers SET status = ?3, resolved_at = ?4
             WHERE game_id = ?1 AND status = 'open'
                 AND (CAST(?2 AS TEXT) IS NULL OR by_colour = ?2)",
            &[&game_id, &by, &status, &now],
        )?;
        Ok(n > 0)
    }
}
