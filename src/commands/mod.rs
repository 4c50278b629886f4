//! The logic of the `cajitas` subcommands other than `run`; `cli.rs` only parses and
//! dispatches to these.

pub mod analyse;
pub mod migrate;
pub mod perft;
pub mod puzzles;
pub mod ratings;
pub mod render;
pub mod replay;

use std::process::ExitCode;

use cajitas_rules::Position;

/// The start position of `replay`: the initial position, or `--fen`, in Chess960 mode with
/// `--chess960` or Shredder-FEN castling letters (as `perft` reads it). A FEN that cannot be
/// read prints a message naming the field at fault and gives exit code 2.
fn start_position(fen: Option<&str>, chess960: bool) -> Result<Position, ExitCode> {
    perft::perft_position(fen, chess960).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

/// Writes `line` and a newline to standard output; see [`stdout_failed`] when that fails.
/// Every line the subcommands print goes through here (or through [`stdout_failed`]), never
/// through `println!`, which panics on a closed pipe.
pub(crate) fn print_line(line: impl std::fmt::Display) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
        stdout_failed(&e);
    }
}

/// Ends the process after a write to standard output failed. When the reader went away
/// (`EPIPE`: `cajitas migrate … | head -1`), quietly with status 0: the reader has what it
/// wanted, and this is what the console does and what tools that see `EPIPE` rather than
/// die of `SIGPIPE` do (so `set -o pipefail` pipelines through `head` do not fail). Any
/// other failure (a full disk) prints the reason and gives status 1.
pub(crate) fn stdout_failed(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("error: cannot write to standard output: {e}");
    std::process::exit(1);
}
