//! Takeback requests.

use crate::store::sql::{Backend, BackendExt, Columns};
use crate::store::{OfferStatus, Side, StoreError, TakebackRow};

/// Reads the columns in the order of the `SELECT` below.
fn takeback_row(c: &mut Columns<'_>) -> Result<TakebackRow, StoreError> {
    Ok(TakebackRow {
        id: c.i64()?,
        game_id: c.i64()?,
        by: c.code()?,
        ply: c.u32()?,
        plies: c.u32()?,
        status: c.code()?,
        created_at: c.i64()?,
    })
}

/// Takeback requests.
pub trait Takebacks {
    /// The open takeback request of a game.
    fn open_takeback(&self, game_id: i64) -> Result<Option<TakebackRow>, StoreError>;

    /// Records a new open request (after closing any open one) and returns its id.
    fn insert_takeback(
        &self,
        game_id: i64,
        by: Side,
        ply: u32,
        plies: u32,
        now: i64,
    ) -> Result<i64, StoreError>;

    /// Closes the open request of a game. Returns whether one was closed.
    fn resolve_takeback(
        &self,
        game_id: i64,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError>;
}

impl<B: Backend + ?Sized> Takebacks for B {
    fn open_takeback(&self, game_id: i64) -> Result<Option<TakebackRow>, StoreError> {
        self.row(
            "SELECT id, game_id, by_colour, ply, plies, status, created_at FROM takebacks
             WHERE game_id = ?1 AND status = 'open'",
            &[&game_id],
            takeback_row,
        )
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
        self.one(
            "INSERT INTO takebacks (game_id, by_colour, ply, plies, status, created_at)
             VALUES (?1, ?2, ?3, ?4, 'open', ?5)
             RETURNING id",
            &[&game_id, &by, &ply, &plies, &now],
            |c| c.i64(),
        )
    }

    fn resolve_takeback(
        &self,
        game_id: i64,
        status: OfferStatus,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.exec(
            "UPDATE takebacks SET status = ?2, resolved_at = ?3
             WHERE game_id = ?1 AND status = 'open'",
            &[&game_id, &status, &now],
        )?;
        Ok(n > 0)
    }
}
