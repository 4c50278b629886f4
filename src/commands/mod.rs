//! The logic of the `cajitas` subcommands other than `run`; `cli.rs` only parses and
//! dispatches to these.

pub mod analyse;
pub mod migrate;
pub mod perft;
pub mod ratings;
pub mod render;
pub mod replay;

use std::process::ExitCode;

use cajitas_rules::Position;

/// The start position of `perft` and `replay`: the initial position, or `--fen`. A FEN that
/// cannot be read prints a message naming the field at fault and gives exit code 2.
fn start_position(fen: Option<&str>) -> Result<Position, ExitCode> {
    match fen {
        None => Ok(Position::new()),
        Some(fen) => Position::from_fen(fen).map_err(|e| {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }),
    }
}
