//! gateway
pub mod bookkeeping;
pub mod localize;
pub mod relay;
pub mod releaser;
pub mod setup;
pub mod shards;
pub mod telemetry;
