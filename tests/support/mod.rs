//! Test support: the fake Discord, a runner for the real bot, a throwaway PostgreSQL server,
//! and a test's database on either backend.

pub mod bot;
pub mod db;
pub mod fake_discord;
pub mod postgres;
pub mod replay;
pub mod serial;
pub mod skip;
pub mod world;
