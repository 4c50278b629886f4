//! The slash commands, one file per family, and the buttons each family makes. A handler is
//! `Call::new(ctx)?`, one blocking call into the game service, and one reply; the
//! interaction plumbing is in `interaction`, how a game looks in `present`.

pub mod arena;
pub mod challenge;
pub mod choices;
pub mod clocks;
pub mod draw;
pub mod engine;
pub mod help;
pub mod info;
pub mod messages;
pub mod moves;
pub mod puzzle;
pub mod ratings;
pub mod request;
pub mod resign;
pub mod roundrobin;
pub mod settings;
pub mod takeback;
