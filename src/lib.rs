//! Cajitas: a chess bot for Discord.
//!
//! The crate is a small house whose dependencies point down (see `ARCHITECTURE.md`):
//! the front ends (`cli`, and later `discord` and `console`) call the application
//! layer, which calls the rules crate and the store.

pub mod alloc;
pub mod cli;
pub mod commands;
pub mod config;
pub mod console;
pub mod discord;
pub mod engine;
pub mod files;
pub mod game;
pub mod i18n;
pub mod logging;
pub mod openings;
pub mod puzzles;
pub mod redact;
pub mod render;
pub mod store;
pub mod telemetry;
pub mod vocab;
