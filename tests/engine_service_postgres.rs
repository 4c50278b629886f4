//! The suite of `tests/engine_service.rs` against a real PostgreSQL server started for this
//! binary (see `tests/support/postgres.rs`). Without PostgreSQL binaries it says it was
//! skipped.

#[path = "engine_service.rs"]
mod suite;
