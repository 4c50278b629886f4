//! Logging set-up: `tracing` with an `EnvFilter` from `RUST_LOG`, `info` by default.

use tracing_subscriber::EnvFilter;

/// The filter used when `RUST_LOG` is unset or empty.
pub const DEFAULT_FILTER: &str = "info";

/// Builds the filter from `RUST_LOG`, falling back to [`DEFAULT_FILTER`].
pub fn filter() -> EnvFilter {
    match std::env::var("RUST_LOG") {
        Ok(s) if !s.trim().is_empty() => {
            EnvFilter::try_new(s).unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER))
        }
        _ => EnvFilter::new(DEFAULT_FILTER),
    }
}

/// Installs the global subscriber, writing to stderr. Calling it twice is harmless.
pub fn init() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter())
        .with_writer(std::io::stderr)
        .try_init();
}
