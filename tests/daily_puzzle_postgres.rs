//! The suite of `tests/daily_puzzle.rs` against a real PostgreSQL server started for this
//! binary (see `tests/support/postgres.rs`). Without PostgreSQL binaries it says it was skipped.

#[path = "daily_puzzle.rs"]
mod suite;
