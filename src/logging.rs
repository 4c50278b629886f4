//! Logging set-up: `tracing` with an `EnvFilter` from `RUST_LOG`; by default our own INFO
//! lines and serenity's warnings.

use tracing_subscriber::EnvFilter;

/// The filter used when `RUST_LOG` is unset or empty.
///
/// serenity is kept at `warn`: its `#[instrument]` spans on every HTTP request are enabled
/// at INFO and Debug-format the whole request, a board PNG's bytes included. At `info` that
/// took about 58% of the bot's CPU under load, and doubled its memory. Its debug output also
/// contains interaction tokens.
pub const DEFAULT_FILTER: &str = "info,serenity=warn";

/// Builds the filter from `RUST_LOG`, falling back to [`DEFAULT_FILTER`].
pub fn filter() -> EnvFilter {
    let text = filter_text(std::env::var("RUST_LOG").ok().as_deref());
    EnvFilter::try_new(&text).unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER))
}

/// The filter directives for a `RUST_LOG` value: [`DEFAULT_FILTER`] when unset or blank;
/// otherwise the value, with `serenity=warn` added unless it names serenity itself, so a
/// plain `info` or `debug` stays cheap (see [`DEFAULT_FILTER`]).
pub fn filter_text(rust_log: Option<&str>) -> String {
    match rust_log.map(str::trim) {
        None | Some("") => DEFAULT_FILTER.to_string(),
        Some(s) if s.contains("serenity") => s.to_string(),
        Some(s) => format!("{s},serenity=warn"),
    }
}

/// Installs the global subscriber, writing to stderr. Calling it twice is harmless.
pub fn init() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter())
        .with_writer(std::io::stderr)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serenity_stays_at_warn_unless_named() {
        assert_eq!(filter_text(None), "info,serenity=warn");
        assert_eq!(filter_text(Some(" ")), "info,serenity=warn");
        assert_eq!(filter_text(Some("info")), "info,serenity=warn");
        assert_eq!(filter_text(Some("debug")), "debug,serenity=warn");
        assert_eq!(
            filter_text(Some("info,serenity=info")),
            "info,serenity=info"
        );
        // The result parses, and serenity's INFO spans are off by default.
        let f = EnvFilter::try_new(filter_text(None)).unwrap();
        assert_eq!(f.to_string(), "serenity=warn,info");
    }
}
