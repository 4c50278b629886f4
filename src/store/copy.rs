//! Copying a SQLite deployment into PostgreSQL (`cajitas migrate`): every row of every table,
//! in batches, each batch one PostgreSQL transaction whose inserts skip the rows already there
//! (`ON CONFLICT DO NOTHING` on each table's key), so that a copy interrupted anywhere and run
//! again finishes the job without duplicating anything. Then the identity sequences are moved
//! past the copied ids and the rows of each table are counted on both sides.
//!
//! The tables and their columns are read from the two schemas ([`schema_tables`]): a
//! migration that adds a table or a column, written for both backends, needs nothing here.

use std::path::Path;

use postgres::types::ToSql;
use rusqlite::types::Value;

use super::postgres::{config, connect};
use super::{StoreError, sqlite};

/// How a column is typed in PostgreSQL (SQLite stores all of these as INTEGER or TEXT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Col {
    /// BIGINT (ids, times).
    I64,
    /// INTEGER (plies, counts).
    I32,
    /// BOOLEAN (SQLite: 0 or 1).
    Bool,
    /// DOUBLE PRECISION (SQLite: REAL).
    F64,
    /// TEXT.
    Text,
}

use Col::{Bool, F64, I32, I64, Text};

/// A table to copy, as the two schemas describe it (see [`schema_tables`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Its name (the same in both schemas).
    pub name: String,
    /// Its columns in SQLite's order, with their PostgreSQL types.
    pub columns: Vec<(String, Col)>,
    /// The columns of its primary key (the conflict target, and the copy's order); empty for
    /// a table without a key, which is copied whole in one transaction, replacing the rows
    /// there.
    pub key: Vec<String>,
    /// Its identity column in PostgreSQL, if any (its sequence is moved past the copied ids).
    pub identity: Option<String>,
}

/// Tables a migration fills from others (by trigger or by backfill): never copied, the
/// target's own migrations and triggers keep them; counted on both sides all the same.
/// `leaderboard_cells` (migration 0018) follows every write to `ratings`: the target's
/// triggers rebuild it as the ratings arrive, and copying it too would count each twice.
pub const DERIVED: &[&str] = &["leaderboard_cells"];

/// A SQLite table: its name, its columns in order, its primary key and the tables its
/// foreign keys name.
struct SqliteTable {
    name: String,
    columns: Vec<String>,
    key: Vec<String>,
    parents: Vec<String>,
}

/// The tables of the SQLite schema but [`DERIVED`], parents before children (by their
/// foreign keys), otherwise in the order they were created, each with its columns in order
/// and its primary key.
fn sqlite_tables(conn: &rusqlite::Connection) -> Result<Vec<SqliteTable>, StoreError> {
    let names: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table'
             AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut pending = Vec::new();
    for name in names.into_iter().filter(|n| !DERIVED.contains(&n.as_str())) {
        let columns = conn
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?
            .query_map([&name], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let key = conn
            .prepare("SELECT name FROM pragma_table_info(?1) WHERE pk > 0 ORDER BY pk")?
            .query_map([&name], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let parents: Vec<String> = conn
            .prepare("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?1)")?
            .query_map([&name], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        pending.push(SqliteTable {
            parents: parents.into_iter().filter(|p| *p != name).collect(),
            name,
            columns,
            key,
        });
    }
    // Parents first, otherwise in the order the migrations created them: each step takes the
    // first table whose parents are all placed.
    let mut ordered: Vec<SqliteTable> = Vec::with_capacity(pending.len());
    while !pending.is_empty() {
        let Some(next) = pending.iter().position(|t| {
            t.parents
                .iter()
                .all(|p| ordered.iter().any(|o| o.name == *p))
        }) else {
            let names: Vec<&str> = pending.iter().map(|t| t.name.as_str()).collect();
            return Err(StoreError::Backend(format!(
                "the foreign keys of the tables {names:?} form a circle: no order to copy them in"
            )));
        };
        ordered.push(pending.remove(next));
    }
    Ok(ordered)
}

/// The type of a PostgreSQL column, as `information_schema` names it.
fn col_of(table: &str, column: &str, data_type: &str) -> Result<Col, StoreError> {
    Ok(match data_type {
        "bigint" => I64,
        "integer" | "smallint" => I32,
        "boolean" => Bool,
        "double precision" | "real" => F64,
        "text" | "character varying" => Text,
        other => {
            return Err(StoreError::Backend(format!(
                "{table}.{column} is of type {other} in PostgreSQL, which the copy does not know"
            )));
        }
    })
}

/// Every table to copy, read from the two schemas themselves (so that a migration adding a
/// table or a column needs nothing here): the SQLite file's tables and columns in order,
/// parents before children, with each column's type and the identity column from
/// PostgreSQL. Fails, naming them, where the schemas differ (a table or column one of them
/// lacks).
pub fn schema_tables(
    source: &rusqlite::Connection,
    target: &mut postgres::Client,
) -> Result<Vec<Table>, StoreError> {
    let mut out = Vec::new();
    for t in sqlite_tables(source)? {
        let rows = target.query(
            "SELECT column_name::text, data_type::text, is_identity::text = 'YES'
             FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1",
            &[&t.name],
        )?;
        let pg: Vec<(String, String, bool)> = rows
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
            .collect::<Result<_, postgres::Error>>()?;
        if pg.is_empty() {
            return Err(StoreError::Backend(format!(
                "the table {} is not in the PostgreSQL schema",
                t.name
            )));
        }
        let mut columns = Vec::with_capacity(t.columns.len());
        for name in &t.columns {
            let Some((_, data_type, _)) = pg.iter().find(|(n, _, _)| n == name) else {
                return Err(StoreError::Backend(format!(
                    "the column {}.{name} is not in the PostgreSQL schema",
                    t.name
                )));
            };
            columns.push((name.clone(), col_of(&t.name, name, data_type)?));
        }
        if let Some((extra, _, _)) = pg.iter().find(|(n, _, _)| !t.columns.contains(n)) {
            return Err(StoreError::Backend(format!(
                "the column {}.{extra} is in PostgreSQL but not in SQLite",
                t.name
            )));
        }
        out.push(Table {
            identity: pg
                .iter()
                .find(|(_, _, identity)| *identity)
                .map(|(n, _, _)| n.clone()),
            name: t.name,
            columns,
            key: t.key,
        });
    }
    Ok(out)
}

/// Rows written per PostgreSQL transaction.
const BATCH: usize = 500;

/// The rows of one table on both sides after a copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCount {
    /// The table.
    pub table: String,
    /// Rows in the SQLite file.
    pub source: i64,
    /// Rows in PostgreSQL.
    pub target: i64,
}

/// What a copy did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyReport {
    /// Rows inserted by this run (0 when run again on a finished copy).
    pub inserted: u64,
    /// Rows already in PostgreSQL, skipped.
    pub skipped: u64,
    /// Rows of the tables without a key (`pings`), written again whole on every run.
    pub rewritten: u64,
    /// `Some(n)` when the run stopped on purpose after `n` rows (`--stop-after`, for tests of
    /// an interrupted copy); the counts are then not checked.
    pub stopped_after: Option<u64>,
    /// Every table's rows on both sides.
    pub counts: Vec<TableCount>,
    /// The ids of the games copied, to check their replays.
    pub game_ids: Vec<i64>,
}

impl CopyReport {
    /// The tables whose counts differ.
    pub fn mismatches(&self) -> Vec<&TableCount> {
        self.counts
            .iter()
            .filter(|c| c.source != c.target)
            .collect()
    }
}

/// A value of the SQLite file as a PostgreSQL parameter of type `col`.
fn param(v: Value, col: Col, table: &str, name: &str) -> Result<Box<dyn ToSql + Sync>, StoreError> {
    let bad = || StoreError::Corrupt(format!("{table}.{name}: unexpected value"));
    Ok(match (col, v) {
        (I64, Value::Integer(i)) => Box::new(i),
        (I64, Value::Null) => Box::new(None::<i64>),
        (I32, Value::Integer(i)) => Box::new(i32::try_from(i).map_err(|_| bad())?),
        (I32, Value::Null) => Box::new(None::<i32>),
        (Bool, Value::Integer(i)) => Box::new(i != 0),
        (Bool, Value::Null) => Box::new(None::<bool>),
        (F64, Value::Real(f)) => Box::new(f),
        (F64, Value::Integer(i)) => Box::new(i as f64),
        (F64, Value::Null) => Box::new(None::<f64>),
        (Text, Value::Text(s)) => Box::new(s),
        (Text, Value::Null) => Box::new(None::<String>),
        _ => return Err(bad()),
    })
}

/// Copies the SQLite database at `from` (brought up to its latest schema first) into the
/// PostgreSQL database at `to` (migrated first, under the advisory lock). Idempotent: rows
/// already there are skipped. `stop_after` stops after that many rows (tests).
pub fn sqlite_to_postgres(
    from: &Path,
    to: &str,
    stop_after: Option<u64>,
) -> Result<CopyReport, StoreError> {
    if !from.is_file() {
        return Err(StoreError::Backend(format!(
            "{} is not a SQLite database file",
            from.display()
        )));
    }
    // Bring the file to the schema this program knows (as the bot does when it starts).
    drop(sqlite::SqliteStore::open(from)?);
    let mut source = rusqlite::Connection::open_with_flags(
        from,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    // One connection: a server that refuses the login says why at once.
    let mut conn = connect(&config(to)?)?;
    super::postgres::migrate(&mut conn)?;
    let target: &mut postgres::Client = &mut conn;
    let tables = schema_tables(&source, target)?;

    // One snapshot of the source for the whole copy.
    let snapshot = source.transaction_with_behavior(rusqlite::TransactionBehavior::Deferred)?;
    let mut report = CopyReport {
        inserted: 0,
        skipped: 0,
        rewritten: 0,
        stopped_after: None,
        counts: Vec::new(),
        game_ids: Vec::new(),
    };
    let mut seen: u64 = 0;
    'tables: for table in &tables {
        let names: Vec<&str> = table.columns.iter().map(|(n, _)| n.as_str()).collect();
        let select = format!(
            "SELECT {} FROM \"{}\"{}",
            names.join(", "),
            table.name,
            if table.key.is_empty() {
                String::new()
            } else {
                format!(" ORDER BY {}", table.key.join(", "))
            }
        );
        let placeholders: Vec<String> = (1..=names.len()).map(|i| format!("${i}")).collect();
        let insert = format!(
            "INSERT INTO \"{}\" ({}){} VALUES ({}){}",
            table.name,
            names.join(", "),
            if table.identity.is_some() {
                " OVERRIDING SYSTEM VALUE"
            } else {
                ""
            },
            placeholders.join(", "),
            if table.key.is_empty() {
                String::new()
            } else {
                format!(" ON CONFLICT ({}) DO NOTHING", table.key.join(", "))
            }
        );
        let mut stmt = snapshot.prepare(&select)?;
        let mut rows = stmt.query([])?;
        let mut batch: Vec<Vec<Box<dyn ToSql + Sync>>> = Vec::with_capacity(BATCH);
        let mut flush = |batch: &mut Vec<Vec<Box<dyn ToSql + Sync>>>,
                         report: &mut CopyReport|
         -> Result<(), StoreError> {
            let mut tx = target.transaction()?;
            if table.key.is_empty() {
                // No key to skip by: the whole table is one batch that replaces what is there.
                tx.execute(&format!("DELETE FROM \"{}\"", table.name), &[])?;
            }
            let prepared = tx.prepare(&insert)?;
            for row in batch.drain(..) {
                let params: Vec<&(dyn ToSql + Sync)> = row.iter().map(|b| &**b).collect();
                match tx.execute(&prepared, &params)? {
                    n if table.key.is_empty() => report.rewritten += n,
                    0 => report.skipped += 1,
                    n => report.inserted += n,
                }
            }
            tx.commit()?;
            Ok(())
        };
        while let Some(row) = rows.next()? {
            if stop_after.is_some_and(|limit| seen >= limit) {
                if !table.key.is_empty() {
                    flush(&mut batch, &mut report)?;
                }
                report.stopped_after = Some(seen);
                break 'tables;
            }
            let mut values = Vec::with_capacity(names.len());
            for (i, (name, col)) in table.columns.iter().enumerate() {
                values.push(param(row.get::<_, Value>(i)?, *col, &table.name, name)?);
            }
            if table.name == "games" {
                report.game_ids.push(row.get(0)?);
            }
            batch.push(values);
            seen += 1;
            if !table.key.is_empty() && batch.len() >= BATCH {
                flush(&mut batch, &mut report)?;
            }
        }
        flush(&mut batch, &mut report)?;
        if let Some(id) = &table.identity {
            target.execute(
                &format!(
                    "SELECT setval(pg_get_serial_sequence('{0}', '{1}'),
                         coalesce((SELECT max({1}) FROM \"{0}\"), 1),
                         (SELECT max({1}) FROM \"{0}\") IS NOT NULL)",
                    table.name, id
                ),
                &[],
            )?;
        }
    }
    if report.stopped_after.is_some() {
        return Ok(report);
    }
    let derived = DERIVED.iter().map(|&name| name.to_owned());
    for table in tables.into_iter().map(|t| t.name).chain(derived) {
        let sql = format!("SELECT count(*) FROM \"{table}\"");
        let source: i64 = snapshot.query_row(&sql, [], |r| r.get(0))?;
        let target: i64 = target.query_one(&sql, &[])?.try_get(0)?;
        report.counts.push(TableCount {
            table,
            source,
            target,
        });
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SQLite side of [`schema_tables`]: every table of the schema, each after the
    /// tables its foreign keys name, with its primary key in order.
    #[test]
    fn the_sqlite_tables_come_parents_first_with_their_keys() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        sqlite::migrations().to_latest(&mut conn).unwrap();
        let tables = sqlite_tables(&conn).unwrap();
        let all: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'
                 AND name NOT LIKE 'sqlite_%'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables.len() as i64, all - DERIVED.len() as i64);
        let place = |name: &str| tables.iter().position(|t| t.name == name).unwrap();
        let mut edges = 0;
        for (i, t) in tables.iter().enumerate() {
            for p in &t.parents {
                assert!(place(p) < i, "{} comes before its parent {p}", t.name);
                edges += 1;
            }
        }
        assert!(edges >= 5, "the schema's foreign keys were read ({edges})");
        assert!(place("users") < place("games") && place("games") < place("moves"));
        let key = |name: &str| tables[place(name)].key.clone();
        assert_eq!(key("ratings"), ["pool", "speed", "user_id"]);
        assert_eq!(key("games"), ["id"]);
        assert!(key("pings").is_empty());
    }

    #[test]
    fn postgres_types_are_known_or_named() {
        assert_eq!(col_of("t", "c", "bigint").unwrap(), I64);
        assert_eq!(col_of("t", "c", "boolean").unwrap(), Bool);
        let e = col_of("games", "pgn", "bytea").unwrap_err().to_string();
        assert!(e.contains("games.pgn") && e.contains("bytea"), "{e}");
    }
}
