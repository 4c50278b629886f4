//! The suite of `tests/ratings.rs` against a real PostgreSQL server started for this binary
//! (see `tests/support/postgres.rs`): its services open a database there instead of an
//! in-memory SQLite one (tests that build a SQLite file by hand stay on SQLite). Without
//! PostgreSQL binaries it says it was skipped.

#[path = "ratings.rs"]
mod suite;
