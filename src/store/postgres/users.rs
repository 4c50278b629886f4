//! Users as last seen.

use super::{Columns, PgTx, to_db};
use crate::store::{StoreError, UserRow, Users};

impl Users for PgTx<'_> {
    fn upsert_user(&self, user: &UserRow, now: i64) -> Result<(), StoreError> {
        // Read first: an unchanged user (the common case) is neither written nor row-locked,
        // so two operations naming the same players in other channels never wait on each other.
        if self.user(user.id)?.as_ref() == Some(user) {
            return Ok(());
        }
        self.execute(
            "INSERT INTO users (id, name, is_bot, updated_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_bot = excluded.is_bot,
                 updated_at = excluded.updated_at
             WHERE users.name IS DISTINCT FROM excluded.name
                 OR users.is_bot IS DISTINCT FROM excluded.is_bot",
            &[&to_db(user.id), &user.name, &user.is_bot, &now],
        )?;
        Ok(())
    }

    fn user(&self, id: u64) -> Result<Option<UserRow>, StoreError> {
        self.query_opt(
            "SELECT id, name, is_bot FROM users WHERE id = $1",
            &[&to_db(id)],
        )?
        .map(|r| Columns::new(&r).user())
        .transpose()
    }
}
