//! Users as last seen.

use crate::store::sql::{Backend, BackendExt, Dialect, to_db};
use crate::store::{StoreError, UserRow};

/// Users as last seen.
pub trait Users {
    /// Stores a user, or refreshes their name and bot flag as last seen.
    fn upsert_user(&self, user: &UserRow, now: i64) -> Result<(), StoreError>;

    /// A stored user.
    fn user(&self, id: u64) -> Result<Option<UserRow>, StoreError>;
}

impl<B: Backend + ?Sized> Users for B {
    fn upsert_user(&self, user: &UserRow, now: i64) -> Result<(), StoreError> {
        // Where several processes write (PostgreSQL), read first: an unchanged user (the
        // common case) is neither written nor row-locked, so two operations naming the same
        // players in other channels never wait on each other. SQLite's one writer writes
        // nothing for an unchanged user either (the `WHERE` of the update).
        if self.dialect() == Dialect::Postgres && self.user(user.id)?.as_ref() == Some(user) {
            return Ok(());
        }
        self.exec(
            "INSERT INTO users (id, name, is_bot, updated_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_bot = excluded.is_bot,
                 updated_at = excluded.updated_at
             WHERE users.name IS DISTINCT FROM excluded.name
                 OR users.is_bot IS DISTINCT FROM excluded.is_bot",
            &[&to_db(user.id), &user.name, &user.is_bot, &now],
        )?;
        Ok(())
    }

    fn user(&self, id: u64) -> Result<Option<UserRow>, StoreError> {
        self.row(
            "SELECT id, name, is_bot FROM users WHERE id = ?1",
            &[&to_db(id)],
            |c| c.user(),
        )
    }
}
