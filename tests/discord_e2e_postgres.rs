//! The end-to-end games of `tests/discord_e2e.rs`, every test of it, with the bot on a real
//! PostgreSQL database (`support::world` picks the backend from this binary's name).

#[path = "discord_e2e.rs"]
mod suite;
