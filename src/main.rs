//! The `cajitas` binary: configuration, logging, then one call.

use std::process::ExitCode;

fn main() -> ExitCode {
    cajitas::config::load_dotenv();
    let cli = <cajitas::cli::Cli as clap::Parser>::parse();
    cajitas::logging::init();
    cajitas::cli::run(cli)
}
