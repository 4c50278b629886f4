//! The suite of `tests/puzzles.rs` against a real PostgreSQL server started for this binary
//! (see `tests/support/postgres.rs`): its services open a database there instead of an
//! in-memory SQLite one. Without PostgreSQL binaries it says it was skipped.

#[path = "puzzles.rs"]
mod suite;
