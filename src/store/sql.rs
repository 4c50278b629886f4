//! The statements' common ground: how a record file of [`super::records`] speaks to either
//! backend. A statement is written once, as SQL text with SQLite's numbered placeholders
//! (`?1`, `?2`, …), which the PostgreSQL backend rewrites to `$1`, `$2`, … when it first
//! prepares it; its parameters are [`Param`]s, which each backend binds to its own types
//! (PostgreSQL by the types the server inferred: an integer binds to `INTEGER` or `BIGINT`,
//! a `bool` to `BOOLEAN`, where SQLite stores both as integers); its rows are read through
//! one [`Columns`] decoder over either backend's row ([`Cells`]).
//!
//! What truly differs stays with the backend ([`Backend`]): its placeholders and types, the
//! locks (PostgreSQL's advisory locks on a channel, a pair of users, the ratings; nothing with
//! SQLite, which has one writer at a time), and [`Dialect`], which a record file asks where
//! one statement must be written twice (`FOR UPDATE SKIP LOCKED`, `NOTIFY`, `INDEXED BY`,
//! `GREATEST`/`MAX`): both texts then stand side by side, in the statement's one place.

use crate::store::StoreError;

/// Which SQL a backend speaks, for the few statements written once per dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite (one writer at a time; `INDEXED BY`; scalar `MAX`).
    Sqlite,
    /// PostgreSQL (advisory locks, `FOR UPDATE SKIP LOCKED`, `NOTIFY`, `GREATEST`).
    Postgres,
}

/// A parameter's value, as the backends bind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// NULL (of whatever type the statement expects).
    Null,
    /// An integer: SQLite's INTEGER, PostgreSQL's `SMALLINT`, `INTEGER` or `BIGINT`.
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// A text.
    Text(&'a str),
    /// A boolean: SQLite's 0 or 1, PostgreSQL's `BOOLEAN`.
    Bool(bool),
}

/// What can be bound to a placeholder.
pub trait Param {
    /// Its value.
    fn value(&self) -> Value<'_>;
}

impl<T: Param + ?Sized> Param for &T {
    fn value(&self) -> Value<'_> {
        (**self).value()
    }
}

impl<T: Param> Param for Option<T> {
    fn value(&self) -> Value<'_> {
        match self {
            Some(v) => v.value(),
            None => Value::Null,
        }
    }
}

macro_rules! int_param {
    ($($t:ty),+) => {$(
        impl Param for $t {
            fn value(&self) -> Value<'_> {
                Value::Int(i64::from(*self))
            }
        }
    )+};
}
int_param!(i64, i32, u32, u8);

impl Param for usize {
    fn value(&self) -> Value<'_> {
        Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl Param for f64 {
    fn value(&self) -> Value<'_> {
        Value::Real(*self)
    }
}

impl Param for bool {
    fn value(&self) -> Value<'_> {
        Value::Bool(*self)
    }
}

impl Param for str {
    fn value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl Param for String {
    fn value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

/// The stored words are their codes.
macro_rules! code_param {
    ($($t:ident),+) => {$(
        impl Param for crate::vocab::$t {
            fn value(&self) -> Value<'_> {
                Value::Text(self.as_str())
            }
        }
    )+};
}
code_param!(
    Side,
    ColourPick,
    ChallengeStatus,
    GameStatus,
    OfferStatus,
    ClockKind,
    EventKind,
    PuzzleStatus,
    Speed,
    TournamentKind,
    TournamentStatus,
    EntrantStatus
);

/// A Discord id (or a local user's id) as stored: the 64-bit signed integer with the same
/// bits.
pub fn to_db(id: u64) -> i64 {
    id as i64
}

/// A stored id back to a Discord id.
pub fn from_db(id: i64) -> u64 {
    id as u64
}

/// One row of a result, as either backend gives it: its cells by position.
pub trait Cells {
    /// An integer (or NULL).
    fn int(&self, i: usize) -> Result<Option<i64>, StoreError>;
    /// A floating-point number (or NULL).
    fn real(&self, i: usize) -> Result<Option<f64>, StoreError>;
    /// A text (or NULL).
    fn text(&self, i: usize) -> Result<Option<&str>, StoreError>;
    /// A boolean (or NULL).
    fn bool(&self, i: usize) -> Result<Option<bool>, StoreError>;
}

/// A cell that was NULL where the schema says NOT NULL, or of another type.
pub fn wrong_cell(i: usize, what: &str) -> StoreError {
    StoreError::Corrupt(format!("column {i}: expected {what}"))
}

/// Reads the cells of a row in the order they are selected, each decoded to its type: every
/// record's decoder reads its fields in the order of its `SELECT` list.
pub struct Columns<'r> {
    row: &'r dyn Cells,
    next: usize,
}

impl<'r> Columns<'r> {
    /// From the first cell.
    pub fn new(row: &'r dyn Cells) -> Self {
        Columns { row, next: 0 }
    }

    fn at(&mut self) -> usize {
        self.next += 1;
        self.next - 1
    }

    /// An integer that may be NULL.
    pub fn opt_i64(&mut self) -> Result<Option<i64>, StoreError> {
        let i = self.at();
        self.row.int(i)
    }

    /// An integer.
    pub fn i64(&mut self) -> Result<i64, StoreError> {
        let i = self.at();
        self.row.int(i)?.ok_or_else(|| wrong_cell(i, "an integer"))
    }

    /// A ply or a count (a non-negative integer).
    pub fn u32(&mut self) -> Result<u32, StoreError> {
        let v = self.i64()?;
        u32::try_from(v).map_err(|_| StoreError::Corrupt(format!("not a count: {v}")))
    }

    /// A non-negative integer, or NULL.
    pub fn opt_u32(&mut self) -> Result<Option<u32>, StoreError> {
        match self.opt_i64()? {
            Some(v) => u32::try_from(v)
                .map(Some)
                .map_err(|_| StoreError::Corrupt(format!("not a count: {v}"))),
            None => Ok(None),
        }
    }

    /// A floating-point number.
    pub fn f64(&mut self) -> Result<f64, StoreError> {
        let i = self.at();
        self.row.real(i)?.ok_or_else(|| wrong_cell(i, "a number"))
    }

    /// A number, or NULL.
    pub fn opt_f64(&mut self) -> Result<Option<f64>, StoreError> {
        let i = self.at();
        self.row.real(i)
    }

    /// A boolean.
    pub fn bool(&mut self) -> Result<bool, StoreError> {
        let i = self.at();
        self.row.bool(i)?.ok_or_else(|| wrong_cell(i, "a boolean"))
    }

    /// A text.
    pub fn string(&mut self) -> Result<String, StoreError> {
        let i = self.at();
        Ok(self
            .row
            .text(i)?
            .ok_or_else(|| wrong_cell(i, "a text"))?
            .to_owned())
    }

    /// A text that may be NULL.
    pub fn opt_string(&mut self) -> Result<Option<String>, StoreError> {
        let i = self.at();
        Ok(self.row.text(i)?.map(str::to_owned))
    }

    /// A Discord id.
    pub fn id(&mut self) -> Result<u64, StoreError> {
        self.i64().map(from_db)
    }

    /// A Discord id that may be absent.
    pub fn opt_id(&mut self) -> Result<Option<u64>, StoreError> {
        Ok(self.opt_i64()?.map(from_db))
    }

    /// One of the stored words, from its code.
    pub fn code<T: std::str::FromStr<Err = crate::vocab::UnknownValue>>(
        &mut self,
    ) -> Result<T, StoreError> {
        let i = self.at();
        let s = self.row.text(i)?.ok_or_else(|| wrong_cell(i, "a code"))?;
        Ok(s.parse()?)
    }

    /// One of the stored words that may be absent.
    pub fn opt_code<T: std::str::FromStr<Err = crate::vocab::UnknownValue>>(
        &mut self,
    ) -> Result<Option<T>, StoreError> {
        let i = self.at();
        match self.row.text(i)? {
            Some(s) => Ok(Some(s.parse()?)),
            None => Ok(None),
        }
    }

    /// A user: id, name, is_bot.
    pub fn user(&mut self) -> Result<crate::store::UserRow, StoreError> {
        Ok(crate::store::UserRow {
            id: self.id()?,
            name: self.string()?,
            is_bot: self.bool()?,
        })
    }

    /// A record of a LEFT JOIN, `n` cells from its id on, read by `decode`; `None` (its
    /// cells skipped) when the id is NULL.
    pub fn opt_record<T>(
        &mut self,
        n: usize,
        decode: impl FnOnce(&mut Self) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        let start = self.next;
        if self.opt_i64()?.is_none() {
            self.next = start + n;
            return Ok(None);
        }
        self.next = start;
        decode(self).map(Some)
    }

    /// A user of a LEFT JOIN: id, name, is_bot, or `None` when the id is NULL.
    pub fn opt_user(&mut self) -> Result<Option<crate::store::UserRow>, StoreError> {
        self.opt_record(3, Self::user)
    }

    /// A time control: kind, base, increment.
    pub fn tc(&mut self) -> Result<crate::store::TimeControlRow, StoreError> {
        Ok(crate::store::TimeControlRow {
            kind: self.code()?,
            base_ms: self.i64()?,
            inc_ms: self.i64()?,
        })
    }
}

/// The parameters of a statement.
pub type Params<'p> = [&'p dyn Param];

/// An open transaction of one backend, as the record files see it: it runs statements and
/// takes the locks its backend needs. The record traits are implemented once, for every
/// `Backend`, in [`super::records`].
pub trait Backend {
    /// Which SQL it speaks.
    fn dialect(&self) -> Dialect;

    /// Runs `sql` with `params`, handing each row to `each`.
    fn each(
        &self,
        sql: &'static str,
        params: &Params<'_>,
        each: &mut dyn FnMut(&dyn Cells) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;

    /// Runs `sql` with `params`; returns how many rows it changed.
    fn exec(&self, sql: &'static str, params: &Params<'_>) -> Result<u64, StoreError>;

    /// Whether this transaction serialises with the other writers of a channel by a lock on
    /// it (a PostgreSQL write), rather than by holding the whole database (SQLite's
    /// `BEGIN IMMEDIATE`).
    fn locks_channels(&self) -> bool {
        false
    }

    /// Where writers of one channel serialise by its lock ([`Backend::locks_channels`]),
    /// waits for `channel`'s, held until the transaction ends.
    fn lock_channel(&self, channel: i64) -> Result<(), StoreError> {
        let _ = channel;
        Ok(())
    }

    /// Where writers of one channel serialise by its lock, takes `channel`'s if nobody holds
    /// it: whether this transaction now holds it (always, where there is no such lock).
    fn try_lock_channel(&self, channel: i64) -> Result<bool, StoreError> {
        let _ = channel;
        Ok(true)
    }

    /// [`Backend::lock_channel`] for a place: a channel, or a game's thread (whose games are
    /// locked by their channel).
    fn lock_place(&self, place: i64) -> Result<(), StoreError> {
        let _ = place;
        Ok(())
    }

    /// Where several processes write, locks these players' ratings (each `(pool, speed,
    /// user)`) until the transaction ends (see `Ratings::lock_ratings`).
    fn lock_players(&self, players: &[(i64, crate::vocab::Speed, u64)]) -> Result<(), StoreError> {
        let _ = players;
        Ok(())
    }

    /// Where several processes write, holds every rating until the transaction ends (a
    /// rebuild), after which [`Backend::lock_players`] takes nothing more.
    fn lock_all_ratings(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Where several processes write, waits for the lock under which the pings from one
    /// user to another are counted.
    fn lock_pings(&self, from: i64, to: i64) -> Result<(), StoreError> {
        let _ = (from, to);
        Ok(())
    }
}

/// Typed reading on any [`Backend`].
pub trait BackendExt: Backend {
    /// The text of a statement written once per dialect.
    fn pick(&self, sqlite: &'static str, postgres: &'static str) -> &'static str {
        match self.dialect() {
            Dialect::Sqlite => sqlite,
            Dialect::Postgres => postgres,
        }
    }

    /// Every row, decoded.
    fn rows<T>(
        &self,
        sql: &'static str,
        params: &Params<'_>,
        decode: impl Fn(&mut Columns<'_>) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let mut out = Vec::new();
        self.each(sql, params, &mut |row| {
            out.push(decode(&mut Columns::new(row))?);
            Ok(())
        })?;
        Ok(out)
    }

    /// The first row, decoded, if any.
    fn row<T>(
        &self,
        sql: &'static str,
        params: &Params<'_>,
        decode: impl Fn(&mut Columns<'_>) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        let mut out = None;
        self.each(sql, params, &mut |row| {
            if out.is_none() {
                out = Some(decode(&mut Columns::new(row))?);
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// The one row a statement always returns (an aggregate, `RETURNING`), decoded.
    fn one<T>(
        &self,
        sql: &'static str,
        params: &Params<'_>,
        decode: impl Fn(&mut Columns<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.row(sql, params, decode)?
            .ok_or_else(|| StoreError::Backend(format!("no row returned by: {sql}")))
    }
}

impl<B: Backend + ?Sized> BackendExt for B {}

/// `sql` with SQLite's numbered placeholders `?N` written as PostgreSQL's `$N` (outside
/// quoted texts and names).
pub fn dollar_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                }
                out.push(c);
            }
            None => {
                if c == '\'' || c == '"' {
                    quote = Some(c);
                    out.push(c);
                } else if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
                    out.push('$');
                } else {
                    out.push(c);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::dollar_placeholders;

    #[test]
    fn placeholders_become_dollars_outside_quotes() {
        assert_eq!(
            dollar_placeholders("SELECT ?1, '?2', \"a?3\" WHERE x = ?12 AND y = ?"),
            "SELECT $1, '?2', \"a?3\" WHERE x = $12 AND y = ?"
        );
    }
}
