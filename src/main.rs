//! The `cajitas` binary: configuration (`.env`, the command line, the settings), logging,
//! then one call.

use std::process::ExitCode;

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    cajitas::config::load_dotenv();
    let cli = <cajitas::cli::Cli as clap::Parser>::parse();
    let settings = cajitas::config::Settings::from_env();
    // The console's stderr is the player's terminal: warnings only, unless RUST_LOG says.
    cajitas::logging::init(
        settings.rust_log.as_deref(),
        match cli.command {
            Some(cajitas::cli::Command::Local(_)) => cajitas::logging::CONSOLE_FILTER,
            _ => cajitas::logging::DEFAULT_FILTER,
        },
    );
    cajitas::cli::run(cli, settings)
}

/// Rust ignores `SIGPIPE`, so a `println!` after the reader of a pipe went away panics
/// ("failed printing to stdout: Broken pipe"). The subcommands write through
/// `commands::print_line`, which ends quietly; this catches any `println!` left anywhere
/// else and ends the same way (status 0, nothing on stderr). Other panics are reported as
/// before.
fn quiet_on_closed_stdout() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if payload.starts_with("failed printing to stdout")
            && payload.to_ascii_lowercase().contains("broken pipe")
        {
            std::process::exit(0);
        }
        previous(info);
    }));
}
