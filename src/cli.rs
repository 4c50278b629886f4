//! The `cajitas` command line. `cajitas run` (the Discord bot) is what runs when no
//! subcommand is given.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{BotConfig, DbArg, GuildArg, Settings};
use crate::store::Database;

/// Cajitas: a chess bot for Discord.
#[derive(Debug, Parser)]
#[command(name = "cajitas", version, about, long_about = None)]
pub struct Cli {
    /// What to do; `run` when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the Discord bot (the token comes from DISCORD_TOKEN in the environment or `.env`).
    Run(RunArgs),
    /// Draw positions (FEN) as PNG boards.
    Render(crate::commands::render::RenderArgs),
    /// Count the leaf nodes of the legal move tree (move generator check and benchmark).
    Perft(crate::commands::perft::PerftArgs),
    /// Play move text or PGN (FILE or standard input) and print one JSON line per game.
    Replay(crate::commands::replay::ReplayArgs),
    /// Play in the terminal without Discord, through the same game service and database.
    Local(crate::console::LocalArgs),
    /// Copy a SQLite database into PostgreSQL, then check the copy (safe to run again).
    Migrate(crate::commands::migrate::MigrateArgs),
    /// Ratings: `cajitas ratings rebuild` recomputes them from the stored games.
    Ratings(crate::commands::ratings::RatingsArgs),
    /// Analyse a game (PGN) with the chess engine: mistakes, best moves, a chart as PNG.
    Analyse(crate::commands::analyse::AnalyseArgs),
    /// Puzzles: `cajitas puzzles generate FILE.pgn` finds them in games with the engine.
    Puzzles(crate::commands::puzzles::PuzzlesArgs),
}

/// Flags of `cajitas run`. Each also reads its environment variable; the flag wins. The
/// other variables have no flag: they come from [`Settings`].
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// `--guild-id`, over `DISCORD_GUILD_ID`.
    #[command(flatten)]
    pub guild: GuildArg,
    /// `--db`, over `CAJITAS_DB`.
    #[command(flatten)]
    pub db: DbArg,
}

/// Runs the parsed command line with the settings read from the environment, and returns the
/// process exit code.
pub fn run(cli: Cli, settings: Settings) -> ExitCode {
    match cli.command {
        Some(Command::Run(args)) => run_bot(args, settings),
        Some(Command::Render(args)) => crate::commands::render::run(args, &settings),
        Some(Command::Perft(args)) => crate::commands::perft::run(&args),
        Some(Command::Replay(args)) => crate::commands::replay::run(&args),
        Some(Command::Local(args)) => crate::console::main(args, settings),
        Some(Command::Migrate(args)) => crate::commands::migrate::run(&args),
        Some(Command::Ratings(args)) => crate::commands::ratings::run(&args),
        Some(Command::Analyse(args)) => crate::commands::analyse::run(&args, &settings),
        Some(Command::Puzzles(args)) => crate::commands::puzzles::run(&args, &settings),
        None => {
            // `cajitas` alone is `cajitas run`, reading its flags from the environment.
            match <Cli as Parser>::try_parse_from(["cajitas", "run"]) {
                Ok(Cli {
                    command: Some(Command::Run(args)),
                }) => run_bot(args, settings),
                Ok(_) => ExitCode::FAILURE,
                Err(e) => e.exit(),
            }
        }
    }
}

fn run_bot(args: RunArgs, settings: Settings) -> ExitCode {
    // Large buffers in mappings of their own: the peak RSS under load (see `alloc`).
    crate::alloc::tune_for_the_bot();
    // The flags win over their variables.
    let settings = Settings {
        guild: args.guild,
        db: args.db,
        ..settings
    };
    let cfg = match BotConfig::try_from(settings) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // A mistyped path would start a bot on an empty database: said on the first line.
    if let Database::Sqlite(path) = &cfg.db
        && !path.exists()
    {
        tracing::warn!(
            db = %path.display(),
            "no database file there: a new, empty one is created"
        );
    }
    cfg.log_summary();
    crate::openings::prepare();
    // With SQLite, one bot process per database file (several shards may run in it).
    let _one_process = match &cfg.db {
        Database::Sqlite(path) => match crate::store::sqlite::lock_for_one_process(path) {
            Ok(lock) => Some(lock),
            Err(e) => {
                tracing::error!(error = %e, "not starting");
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        Database::Postgres(_) => None,
    };
    // The metrics endpoint is bound before anything connects, so a taken port stops here.
    let metrics = match cfg
        .metrics
        .map(crate::telemetry::Endpoint::bind)
        .transpose()
    {
        Ok(m) => m,
        Err(e) => {
            let addr = cfg.metrics.map(|a| a.to_string()).unwrap_or_default();
            tracing::error!(error = %e, %addr, "not starting: cannot serve the metrics");
            eprintln!(
                "error: cannot serve the metrics on {addr} ({}): {e}",
                crate::config::METRICS_VAR
            );
            return ExitCode::from(2);
        }
    };
    match crate::discord::run(cfg, metrics) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %format!("{e:#}"), "the bot stopped with an error");
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
