//! `cajitas migrate --from FILE.db --to postgres://…`: copies a SQLite deployment into
//! PostgreSQL (every row of every table, see [`crate::store::copy`]), then checks it: the
//! rows of each table on both sides, and every game replayed with the rules on both sides to
//! the same PGN. Running it again (after an interruption, or after it finished) copies only
//! what is missing and checks again.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::config;
use crate::game::{GameService, ServiceOptions};
use crate::store::{Database, copy};

/// Flags of `cajitas migrate`.
#[derive(Debug, Clone, clap::Args)]
pub struct MigrateArgs {
    /// The SQLite database file to copy (the bot's `CAJITAS_DB` until now). Stop the bot
    /// first.
    #[arg(long, value_name = "FILE.db")]
    pub from: PathBuf,
    /// The PostgreSQL database to copy into (`postgres://…`, `postgresql://…` or a
    /// keyword/value string such as `host=/run/postgresql dbname=cajitas`); its schema is
    /// created or brought up to date first.
    #[arg(long, value_name = "URL")]
    pub to: String,
    /// Stop after this many rows, as if interrupted (for tests of a resumed copy).
    #[arg(long, hide = true)]
    pub stop_after: Option<u64>,
}

/// Exit code of a copy stopped by `--stop-after`.
pub const STOPPED: u8 = 3;

/// Runs `cajitas migrate`: 0 when copied and checked, 1 when a check failed or the copy
/// failed, 2 for bad arguments, [`STOPPED`] after `--stop-after`.
pub fn run(args: &MigrateArgs) -> ExitCode {
    let target = config::parse_db(&args.to).unwrap_or_else(|e| match e {});
    let Database::Postgres(url) = &target else {
        // Not echoed: it may be a connection string with a password that was not recognised.
        eprintln!(
            "error: --to must be a PostgreSQL URL (postgres://… or postgresql://…) or a \
             keyword/value string (host=… dbname=…)"
        );
        return ExitCode::from(2);
    };
    let url = url.clone();
    // The source is read, never created: a mistyped path must not copy an empty database.
    if !args.from.is_file() {
        eprintln!(
            "error: --from {}: no such database file (give the bot's SQLite file)",
            args.from.display()
        );
        return ExitCode::from(2);
    }
    let shown = config::describe_db(&target);
    super::print_line(format_args!("copying {} into {shown}", args.from.display()));
    let report = match copy::sqlite_to_postgres(&args.from, &url, args.stop_after) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: the copy failed (run it again to resume): {e}");
            return ExitCode::FAILURE;
        }
    };
    super::print_line(format_args!(
        "rows inserted: {}, already there: {}, rewritten (tables without a key): {}",
        report.inserted, report.skipped, report.rewritten
    ));
    if let Some(n) = report.stopped_after {
        super::print_line(format_args!(
            "stopped after {n} rows, as asked: run it again to finish"
        ));
        return ExitCode::from(STOPPED);
    }
    let mut ok = true;
    for c in &report.counts {
        let mark = if c.source == c.target {
            "ok"
        } else {
            "DIFFERENT"
        };
        super::print_line(format_args!(
            "{:<24} sqlite {:>8}  postgres {:>8}  {mark}",
            c.table, c.source, c.target
        ));
        ok &= c.source == c.target;
    }
    match check_replays(&args.from, &url, &report.game_ids) {
        Ok(n) => super::print_line(format_args!(
            "games replayed on both sides to the same PGN: {n}"
        )),
        Err(e) => {
            eprintln!("error: {e}");
            ok = false;
        }
    }
    if ok {
        super::print_line(format_args!("done: every row copied and checked"));
        ExitCode::SUCCESS
    } else {
        eprintln!("error: the copy does not match the source (see above)");
        ExitCode::FAILURE
    }
}

/// Replays every game on both databases with the rules; they must give the same PGN.
fn check_replays(from: &std::path::Path, to: &str, ids: &[i64]) -> Result<usize, String> {
    let open = |db: Database| {
        GameService::open_db(&db, ServiceOptions::default())
            .map_err(|e| format!("cannot open {}: {}", config::describe_db(&db), e.chain()))
    };
    let source = open(Database::Sqlite(from.to_owned()))?;
    let target = open(Database::Postgres(to.to_owned()))?;
    for &id in ids {
        let a = source.queries().replay(id).map_err(|e| {
            format!(
                "game {id} does not replay in the SQLite file: {}",
                e.chain()
            )
        })?;
        let b = target
            .queries()
            .replay(id)
            .map_err(|e| format!("game {id} does not replay in PostgreSQL: {}", e.chain()))?;
        if a != b {
            return Err(format!("game {id} replays differently in PostgreSQL"));
        }
    }
    Ok(ids.len())
}
