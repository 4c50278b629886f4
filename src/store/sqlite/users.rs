//! Users as last seen.

use rusqlite::{OptionalExtension, params};

use super::{Columns, SqliteTx, to_db};
use crate::store::{StoreError, UserRow, Users};

impl Users for SqliteTx<'_> {
    fn upsert_user(&self, user: &UserRow, now: i64) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "INSERT INTO users (id, name, is_bot, updated_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_bot = excluded.is_bot,
                     updated_at = excluded.updated_at
                 WHERE users.name IS DISTINCT FROM excluded.name
                     OR users.is_bot IS DISTINCT FROM excluded.is_bot",
            )?
            .execute(params![to_db(user.id), user.name, user.is_bot, now])?;
        Ok(())
    }

    fn user(&self, id: u64) -> Result<Option<UserRow>, StoreError> {
        Ok(self
            .tx
            .prepare_cached("SELECT id, name, is_bot FROM users WHERE id = ?1")?
            .query_row([to_db(id)], |r| Columns::new(r).user())
            .optional()?)
    }
}
