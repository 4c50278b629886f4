//! commands
pub mod challenge;
pub mod choices;
pub mod clocks;
pub mod draw;
pub mod engine;
pub mod help;
pub mod info;
pub mod messages;
pub mod moves;
pub mod ratings;
pub mod request;
pub mod resign;
pub mod settings;
pub mod takeback;
