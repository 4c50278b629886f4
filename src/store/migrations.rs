//! The migrations of both backends, listed by `build.rs` from `migrations/` and
//! `migrations/postgres/` (the numbered files, embedded in the binary): adding one is adding
//! its two files.

include!(concat!(env!("OUT_DIR"), "/migrations.rs"));
