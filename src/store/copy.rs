//! Copying a SQLite deployment into PostgreSQL (`cajitas migrate`): every row of every table,
//! in batches, each batch one PostgreSQL transaction whose inserts skip the rows already there
//! (`ON CONFLICT DO NOTHING` on each table's key), so that a copy interrupted anywhere and run
//! again finishes the job without duplicating anything. Then the identity sequences are moved
//! past the copied ids and the rows of each table are counted on both sides.
//!
//! [`TABLES`] lists the tables with their columns: a new migration that adds a table or a
//! column adds it there too (a test compares the list, with [`DERIVED`], with the SQLite
//! schema). The derived tables are not copied: the target's triggers rebuild them as the rows
//! they derive from arrive, and they are counted on both sides like the others.

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

/// A table to copy.
#[derive(Debug)]
pub struct Table {
    /// Its name (the same in both schemas).
    pub name: &'static str,
    /// Its columns, with their PostgreSQL types.
    pub columns: &'static [(&'static str, Col)],
    /// The columns of its primary key (the conflict target, and the copy's order); empty for
    /// a table without a key, which is copied whole in one transaction, replacing the rows
    /// there.
    pub key: &'static [&'static str],
    /// Whether `id` is an identity column (its sequence is moved past the copied ids).
    pub identity: bool,
}

use Col::{Bool, F64, I32, I64, Text};

/// The tables derived from others by triggers, which a copy leaves to the target's triggers:
/// `leaderboard_cells` (migration 0018) follows every write to `ratings`, so copying it too
/// would count each copied rating twice.
pub const DERIVED: &[&str] = &["leaderboard_cells"];

/// Every table of the schema but [`DERIVED`], parents before children (foreign keys).
pub const TABLES: &[Table] = &[
    Table {
        name: "users",
        columns: &[
            ("id", I64),
            ("name", Text),
            ("is_bot", Bool),
            ("updated_at", I64),
            ("kind", Text),
            ("engine_level", I32),
        ],
        key: &["id"],
        identity: false,
    },
    Table {
        name: "games",
        columns: &[
            ("id", I64),
            ("guild_id", I64),
            ("channel_id", I64),
            ("white_id", I64),
            ("black_id", I64),
            ("start_fen", Text),
            ("fen", Text),
            ("ply", I32),
            ("status", Text),
            ("result", Text),
            ("winner", Text),
            ("termination", Text),
            ("claim_move", Text),
            ("created_at", I64),
            ("updated_at", I64),
            ("finished_at", I64),
            ("lang", Text),
            ("thread_id", I64),
            ("tc_kind", Text),
            ("tc_base_ms", I64),
            ("tc_inc_ms", I64),
            ("white_ms", I64),
            ("black_ms", I64),
            ("clock_at", I64),
            ("deadline", I64),
            ("seq", I64),
            ("rated", Bool),
            ("event_kind", Text),
            ("event_due", I64),
        ],
        key: &["id"],
        identity: true,
    },
    Table {
        name: "moves",
        columns: &[
            ("game_id", I64),
            ("ply", I32),
            ("uci", Text),
            ("san", Text),
            ("user_id", I64),
            ("played_at", I64),
        ],
        key: &["game_id", "ply"],
        identity: false,
    },
    Table {
        name: "challenges",
        columns: &[
            ("id", I64),
            ("guild_id", I64),
            ("channel_id", I64),
            ("challenger_id", I64),
            ("opponent_id", I64),
            ("colour", Text),
            ("status", Text),
            ("created_at", I64),
            ("expires_at", I64),
            ("resolved_at", I64),
            ("resolved_by", I64),
            ("game_id", I64),
            ("message_id", I64),
            ("tc_kind", Text),
            ("tc_base_ms", I64),
            ("tc_inc_ms", I64),
            ("rated", Bool),
        ],
        key: &["id"],
        identity: true,
    },
    Table {
        name: "draw_offers",
        columns: &[
            ("id", I64),
            ("game_id", I64),
            ("by_colour", Text),
            ("ply", I32),
            ("status", Text),
            ("created_at", I64),
            ("resolved_at", I64),
        ],
        key: &["id"],
        identity: true,
    },
    Table {
        name: "takebacks",
        columns: &[
            ("id", I64),
            ("game_id", I64),
            ("by_colour", Text),
            ("ply", I32),
            ("plies", I32),
            ("status", Text),
            ("created_at", I64),
            ("resolved_at", I64),
        ],
        key: &["id"],
        identity: true,
    },
    Table {
        name: "processed_interactions",
        columns: &[("id", I64), ("handled_at", I64)],
        key: &["id"],
        identity: false,
    },
    Table {
        name: "bot_settings",
        columns: &[("key", Text), ("value", Text), ("updated_at", I64)],
        key: &["key"],
        identity: false,
    },
    Table {
        name: "pings",
        columns: &[
            ("from_user", I64),
            ("to_user", I64),
            ("kind", Text),
            ("at", I64),
        ],
        key: &[],
        identity: false,
    },
    Table {
        name: "clock_events",
        columns: &[
            ("id", I64),
            ("game_id", I64),
            ("seq", I64),
            ("kind", Text),
            ("channel_id", I64),
            ("due_at", I64),
            ("done_at", I64),
            ("posted_at", I64),
            ("claim_until", I64),
        ],
        key: &["id"],
        identity: true,
    },
    Table {
        name: "ratings",
        columns: &[
            ("pool", I64),
            ("speed", Text),
            ("user_id", I64),
            ("rating", F64),
            ("deviation", F64),
            ("volatility", F64),
            ("games", I32),
            ("rated_at", I64),
            ("steady_until", I64),
        ],
        key: &["pool", "speed", "user_id"],
        identity: false,
    },
    Table {
        name: "rating_history",
        columns: &[
            ("id", I64),
            ("game_id", I64),
            ("pool", I64),
            ("speed", Text),
            ("user_id", I64),
            ("colour", Text),
            ("score", F64),
            ("rating_before", F64),
            ("deviation_before", F64),
            ("rating_after", F64),
            ("deviation_after", F64),
            ("volatility_after", F64),
            ("at", I64),
        ],
        key: &["id"],
        identity: true,
    },
    Table {
        name: "engine_claims",
        columns: &[
            ("game_id", I64),
            ("seq", I64),
            ("owner", I64),
            ("claim_until", I64),
        ],
        key: &["game_id"],
        identity: false,
    },
    Table {
        name: "analyses",
        columns: &[
            ("game_id", I64),
            ("budget", Text),
            ("record", Text),
            ("created_at", I64),
        ],
        key: &["game_id", "budget"],
        identity: false,
    },
];

/// Rows written per PostgreSQL transaction.
const BATCH: usize = 500;

/// The rows of one table on both sides after a copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCount {
    /// The table.
    pub table: &'static str,
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
    'tables: for table in TABLES {
        let names: Vec<&str> = table.columns.iter().map(|(n, _)| *n).collect();
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
            if table.identity {
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
                values.push(param(row.get::<_, Value>(i)?, *col, table.name, name)?);
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
        if table.identity {
            target.execute(
                &format!(
                    "SELECT setval(pg_get_serial_sequence('{0}', 'id'),
                         coalesce((SELECT max(id) FROM \"{0}\"), 1),
                         (SELECT max(id) FROM \"{0}\") IS NOT NULL)",
                    table.name
                ),
                &[],
            )?;
        }
    }
    if report.stopped_after.is_some() {
        return Ok(report);
    }
    for table in TABLES.iter().map(|t| t.name).chain(DERIVED.iter().copied()) {
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

    /// The copy knows every table and column of the SQLite schema: a migration that adds
    /// one fails here until it is added to [`TABLES`] (and to `migrations/postgres/`), or to
    /// [`DERIVED`] when triggers keep it.
    #[test]
    fn the_tables_are_the_sqlite_schema() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        sqlite::migrations().to_latest(&mut conn).unwrap();
        let mut tables: Vec<String> = conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table'
                 AND name NOT LIKE 'sqlite_%' ORDER BY name",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut known: Vec<String> = TABLES
            .iter()
            .map(|t| t.name)
            .chain(DERIVED.iter().copied())
            .map(str::to_owned)
            .collect();
        tables.sort();
        known.sort();
        assert_eq!(tables, known);
        for t in TABLES {
            let mut columns: Vec<String> = conn
                .prepare(&format!("SELECT name FROM pragma_table_info('{}')", t.name))
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            let mut listed: Vec<String> = t.columns.iter().map(|(n, _)| (*n).to_owned()).collect();
            columns.sort();
            listed.sort();
            assert_eq!(columns, listed, "table {}", t.name);
        }
    }
}
