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

/// The filter of `cajitas local` when `RUST_LOG` is unset or empty: its stderr is the
/// terminal the game is played in, so only warnings and errors (no "Database migrated" at
/// start).
pub const CONSOLE_FILTER: &str = "warn";

/// Builds the filter from `RUST_LOG`'s value (read with the other settings, in
/// `config::Settings`), falling back to `default` when it is unset or blank, and when it
/// cannot be read: then the second value says so (to be logged as a warning).
pub fn filter_from(rust_log: Option<&str>, default: &str) -> (EnvFilter, Option<String>) {
    let rust_log = rust_log.filter(|s| !s.trim().is_empty());
    let Some(value) = rust_log else {
        return (EnvFilter::new(filter_text(Some(default))), None);
    };
    match EnvFilter::try_new(filter_text(Some(value))) {
        Ok(f) => (f, None),
        Err(e) => {
            let shown: String = value.chars().take(100).collect();
            (
                EnvFilter::new(filter_text(Some(default))),
                Some(format!(
                    "RUST_LOG={shown:?} is not a valid log filter ({e}); logging with the \
                     default {default:?} instead"
                )),
            )
        }
    }
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

/// Installs the global subscriber, writing to stderr, with `default` as the filter when
/// `rust_log` (`RUST_LOG`'s value) is unset, blank or invalid (an invalid one is named in a warning). Colours
/// only when stderr is a terminal: a log file or a pipe gets plain text. Calling it twice is
/// harmless.
pub fn init(rust_log: Option<&str>, default: &str) {
    use std::io::IsTerminal;
    let (filter, bad) = filter_from(rust_log, default);
    let installed = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init()
        .is_ok();
    if let Some(warning) = bad.filter(|_| installed) {
        tracing::warn!("{warning}");
    }
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

    #[test]
    fn an_invalid_rust_log_is_named_and_the_default_used() {
        let (f, warning) = filter_from(Some("not a [filter"), CONSOLE_FILTER);
        let warning = warning.expect("a warning");
        assert!(warning.contains("RUST_LOG=\"not a [filter\""), "{warning}");
        assert!(warning.contains("\"warn\""), "{warning}");
        assert_eq!(f.to_string(), "serenity=warn,warn");
        for ok in [
            None,
            Some(""),
            Some(" "),
            Some("debug"),
            Some("cajitas=trace"),
        ] {
            assert!(filter_from(ok, DEFAULT_FILTER).1.is_none(), "{ok:?}");
        }
        assert_eq!(
            filter_from(None, CONSOLE_FILTER).0.to_string(),
            "serenity=warn,warn"
        );
    }
}
