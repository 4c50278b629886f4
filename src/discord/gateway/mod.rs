//! The process and its connection to Discord: setup at READY and the commands'
//! localisations, shards and the IDENTIFY relay, the bot's own records (`Bookkeeping`), and
//! what it records for its metrics.

pub mod bookkeeping;
pub mod http;
pub mod localize;
pub mod relay;
pub mod releaser;
pub mod setup;
pub mod shards;
pub mod signals;
pub mod telemetry;
