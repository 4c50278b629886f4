//! Test support: the fake Discord and a runner for the real bot.

pub mod bot;
pub mod fake_discord;
pub mod world;
