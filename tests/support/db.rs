//! A test's database on either backend, so that one suite runs against both: a SQLite file in
//! a temporary folder, or a fresh database on the test binary's PostgreSQL server
//! ([`super::postgres`]). The backend of a test binary follows its name: a target whose name
//! ends in `_postgres` (e.g. `tests/game_service_postgres.rs`, which includes the suite of
//! `tests/game_service.rs`) runs on PostgreSQL. On a machine without PostgreSQL's binaries
//! its PostgreSQL run is skipped (said on stderr; a failure under `CAJITAS_REQUIRE_PG`, see
//! [`super::postgres`]) and each of its tests runs on SQLite instead: every test still runs
//! and reports, none is cut off.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;

use cajitas::game::{GameService, ServiceOptions};
use cajitas::store::{Database, PostgresStore};

use super::postgres::{PgDatabase, server};

/// The two backends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file.
    Sqlite,
    /// A database on a PostgreSQL server.
    Postgres,
}

impl Backend {
    /// The backend of the test binary `crate_name` (`env!("CARGO_CRATE_NAME")`): PostgreSQL
    /// for a `*_postgres` target, when this machine has PostgreSQL's binaries (their server
    /// failing to start fails the test). Without them the PostgreSQL run is skipped: said
    /// once on stderr, a failure under `CAJITAS_REQUIRE_PG`, and SQLite is used instead.
    pub fn of_target(crate_name: &str) -> Backend {
        if !crate_name.ends_with("_postgres") {
            return Backend::Sqlite;
        }
        match server() {
            Ok(_) => Backend::Postgres,
            Err(why) => {
                static SAID: std::sync::Once = std::sync::Once::new();
                if super::postgres::required() {
                    super::postgres::skipped(crate_name, &why);
                }
                SAID.call_once(|| {
                    let _ = writeln!(
                        std::io::stderr(),
                        "SKIPPED: the PostgreSQL run of {crate_name}: no PostgreSQL server ({why}); its tests run on SQLite instead"
                    );
                });
                Backend::Sqlite
            }
        }
    }
}

/// A test's database, removed on drop.
pub enum TestDb {
    /// A SQLite file in its own temporary folder.
    Sqlite { dir: PathBuf, file: PathBuf },
    /// A database of the test server.
    Postgres(PgDatabase),
}

impl TestDb {
    /// A new, empty database of `backend` for the test `tag`. [`Backend::of_target`] says
    /// whether this machine can give a PostgreSQL one: asked for one without a server, this
    /// panics.
    pub fn new(backend: Backend, tag: &str) -> TestDb {
        match backend {
            Backend::Sqlite => {
                let dir = std::env::temp_dir().join(format!(
                    "cajitas-test-{tag}-{}-{}",
                    std::process::id(),
                    fastrand::u64(..)
                ));
                std::fs::create_dir_all(&dir).unwrap();
                TestDb::Sqlite {
                    file: dir.join("games.db"),
                    dir,
                }
            }
            Backend::Postgres => match server() {
                Ok(s) => TestDb::Postgres(s.database(tag)),
                Err(why) => panic!(
                    "a PostgreSQL database asked for without a PostgreSQL server ({why}): \
                     ask Backend::of_target first"
                ),
            },
        }
    }

    /// What `CAJITAS_DB` would say.
    pub fn database(&self) -> Database {
        match self {
            TestDb::Sqlite { file, .. } => Database::Sqlite(file.clone()),
            TestDb::Postgres(db) => Database::Postgres(db.url.clone()),
        }
    }

    /// `CAJITAS_DB`'s value for a process.
    pub fn env_value(&self) -> String {
        match self {
            TestDb::Sqlite { file, .. } => file.display().to_string(),
            TestDb::Postgres(db) => db.url.clone(),
        }
    }

    /// A new service on it (another process would open one the same way).
    pub fn open(&self, opts: ServiceOptions) -> GameService {
        GameService::open_db(&self.database(), opts).unwrap()
    }

    /// The PostgreSQL store itself (for store-level checks).
    pub fn postgres_store(&self) -> Option<PostgresStore> {
        match self {
            TestDb::Postgres(db) => Some(PostgresStore::open(&db.url).unwrap()),
            TestDb::Sqlite { .. } => None,
        }
    }

    /// The single number `sql` selects.
    pub fn count(&self, sql: &str) -> i64 {
        match self {
            TestDb::Sqlite { file, .. } => rusqlite::Connection::open(file)
                .unwrap()
                .query_row(sql, [], |r| r.get(0))
                .unwrap(),
            TestDb::Postgres(db) => db.client().query_one(sql, &[]).unwrap().get(0),
        }
    }

    /// Every row of every table, as text, to check that a refusal changed nothing.
    pub fn dump(&self) -> Vec<String> {
        match self {
            TestDb::Sqlite { file, .. } => dump_sqlite(file),
            TestDb::Postgres(db) => {
                let mut c = db.client();
                let tables: Vec<String> = c
                    .query(
                        "SELECT table_name::text FROM information_schema.tables
                         WHERE table_schema = 'public' ORDER BY 1",
                        &[],
                    )
                    .unwrap()
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                let mut out = Vec::new();
                for t in tables {
                    // Heap order changes with updates: sort the rows.
                    for r in c
                        .query(&format!("SELECT t::text FROM \"{t}\" t ORDER BY 1"), &[])
                        .unwrap()
                    {
                        out.push(format!("{t}: {}", r.get::<_, String>(0)));
                    }
                }
                out
            }
        }
    }
}

fn dump_sqlite(path: &std::path::Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut out = Vec::new();
    for t in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{t}\"")).unwrap();
        let n = stmt.column_count();
        let mut rows = stmt.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            let cols: Vec<String> = (0..n)
                .map(|i| format!("{:?}", row.get::<_, rusqlite::types::Value>(i).unwrap()))
                .collect();
            out.push(format!("{t}: {}", cols.join(", ")));
        }
    }
    out
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let TestDb::Sqlite { dir, .. } = self {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A service for a suite written on an in-memory SQLite database: that, or in a test binary
/// named `*_postgres` (`crate_name` is `env!("CARGO_CRATE_NAME")`) a service on a new
/// database of the binary's PostgreSQL server, kept until the binary ends (its server is
/// removed then, and the database with it).
pub fn memory_or_postgres(crate_name: &str, opts: ServiceOptions) -> GameService {
    match Backend::of_target(crate_name) {
        Backend::Sqlite => GameService::open_in_memory(opts).unwrap(),
        Backend::Postgres => {
            let db = TestDb::new(Backend::Postgres, "suite");
            let svc = db.open(opts);
            std::mem::forget(db);
            svc
        }
    }
}
