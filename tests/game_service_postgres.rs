//! The service suite of `tests/game_service.rs`, every test of it, against a real PostgreSQL
//! server started for this binary (see `tests/support/postgres.rs`). The suite picks its
//! backend from this binary's name; without PostgreSQL binaries it says it was skipped.

#[path = "game_service.rs"]
mod suite;
