//! The logic of the `cajitas` subcommands other than `run`; `cli.rs` only parses and
//! dispatches to these.

pub mod perft;
pub mod render;
pub mod replay;
