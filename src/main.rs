//! The `cajitas` binary: configuration, logging, then one call.

use std::process::ExitCode;

fn main() -> ExitCode {
    cajitas::config::load_dotenv();
    let cli = <cajitas::cli::Cli as clap::Parser>::parse();
    // The console's stderr is the player's terminal: warnings only, unless RUST_LOG says.
    cajitas::logging::init(match cli.command {
        Some(cajitas::cli::Command::Local(_)) => cajitas::logging::CONSOLE_FILTER,
        _ => cajitas::logging::DEFAULT_FILTER,
    });
    cajitas::cli::run(cli)
}
