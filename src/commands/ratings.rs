//! `cajitas ratings rebuild`: every rating recomputed from the stored games.

use std::process::ExitCode;

use crate::config;
use crate::game::{GameService, Lang, ServiceOptions};
use crate::store::Database;
use crate::tr;

/// Flags of `cajitas ratings`.
#[derive(Debug, Clone, clap::Args)]
pub struct RatingsArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: RatingsAction,
}

/// `cajitas ratings` subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum RatingsAction {
    /// Forget every rating and recompute them all from the finished rated games, in the
    /// order they ended (one transaction: a failure changes nothing).
    Rebuild {
        /// `--db`, over `CAJITAS_DB` (the bot's database, by default).
        #[command(flatten)]
        db: config::DbArg,
    },
}

/// Runs `cajitas ratings …`.
pub fn run(args: &RatingsArgs) -> ExitCode {
    match &args.action {
        RatingsAction::Rebuild {
            db: config::DbArg { db },
        } => {
            // A deployment is read, never created: a mistyped path must not leave an empty
            // database behind and report "0 rated games".
            if let Database::Sqlite(path) = db
                && !path.is_file()
            {
                eprintln!(
                    "error: {}: no such database file (give the bot's database with --db or \
                     CAJITAS_DB)",
                    path.display()
                );
                return ExitCode::from(2);
            }
            let result = GameService::open_db(db, ServiceOptions::default())
                .and_then(|svc| svc.ratings().rebuild_ratings());
            match result {
                Ok(r) => {
                    let text = tr!(
                        Lang::En,
                        "console-ratings-rebuilt",
                        games = crate::i18n::num(r.games as f64),
                        ratings = crate::i18n::num(r.ratings as f64)
                    );
                    super::print_line(format_args!("{text}"));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {}: {}", config::describe_db(db), e.chain());
                    ExitCode::FAILURE
                }
            }
        }
    }
}
