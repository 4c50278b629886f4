//! The checks and conversions of the bot's variables, one function per variable: a raw
//! value of [`Settings`](super::Settings) in, a typed value or the [`ConfigError`] that names
//! the variable out. Unset and empty mean the same everywhere: the default.

use std::net::SocketAddr;
use std::time::Duration;

use super::{ConfigError, Secret};
use crate::redact::redact_url;

/// The gateway shards a process runs: `first` through `last` (inclusive) of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardRange {
    /// The first shard id of this process.
    pub first: u32,
    /// The last shard id of this process (inclusive).
    pub last: u32,
    /// The bot's shard count, across every process.
    pub total: u32,
}

impl ShardRange {
    /// How many shards this process runs.
    pub fn count(&self) -> u32 {
        self.last - self.first + 1
    }
}

/// Where REST calls go instead of Discord.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiBase {
    /// The base URL, without `/api/v10` and without a trailing slash.
    pub url: String,
    /// False for a loopback URL (a test's fake Discord); true for a REST proxy that
    /// `CAJITAS_API_BASE_TRUSTED=1` declares trusted.
    pub trusted_proxy: bool,
}

impl ApiBase {
    /// The URL for logs: without user information, query or fragment.
    pub fn redacted(&self) -> String {
        redact_url(&self.url)
    }
}

/// The most threads a pool of the bot gets by default, whatever the machine's cores: each
/// thread that allocates gets a malloc arena of its own, which keeps what it held at its
/// busiest (100 games at once on an 8-core machine peaked at 63 MB).
pub const DEFAULT_THREADS_MAX: usize = 2;

/// A pool's default thread count on a machine of `cores`: the cores, at most
/// [`DEFAULT_THREADS_MAX`].
pub fn default_threads(cores: usize) -> usize {
    cores.clamp(1, DEFAULT_THREADS_MAX)
}

/// The value, trimmed, unless it is unset or blank.
fn given(raw: Option<&str>) -> Option<&str> {
    raw.map(str::trim).filter(|t| !t.is_empty())
}

/// At most `n` characters of a value, for an error message.
fn shown(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

/// `DISCORD_TOKEN`: unset, empty or blank is [`ConfigError::MissingToken`].
pub(super) fn token_from(raw: Option<&Secret>) -> Result<Secret, ConfigError> {
    match raw.map(|t| t.expose().trim()) {
        Some(t) if !t.is_empty() => Ok(Secret::new(t)),
        _ => Err(ConfigError::MissingToken),
    }
}

/// `DISCORD_GUILD_ID` (or `--guild-id`): unset, empty or blank means "register globally".
pub(super) fn guild_id_from(raw: Option<&str>) -> Result<Option<u64>, ConfigError> {
    match raw.map(str::trim) {
        None | Some("") => Ok(None),
        Some(s) => match s.parse::<u64>() {
            Ok(id) if id != 0 => Ok(Some(id)),
            _ => Err(ConfigError::BadGuildId(shown(s, 40))),
        },
    }
}

/// `CAJITAS_METRICS`: unset or blank is no metrics (the default); `IP:PORT` is that socket,
/// any interface written out explicitly (e.g. `0.0.0.0:9100`); a bare `PORT` is
/// `127.0.0.1:PORT`. A host name is refused: the address served is the one written.
pub(super) fn metrics_from(raw: Option<&str>) -> Result<Option<SocketAddr>, ConfigError> {
    let Some(text) = given(raw) else {
        return Ok(None);
    };
    if let Ok(port) = text.parse::<u16>() {
        return Ok(Some(SocketAddr::from(([127, 0, 0, 1], port))));
    }
    text.parse::<SocketAddr>()
        .map(Some)
        .map_err(|_| ConfigError::BadMetrics(shown(text, 60)))
}

/// `CAJITAS_ABANDON_DAYS` (1 to 365): unset or blank is
/// [`crate::game::DEFAULT_ABANDON_AFTER`] (7 days).
pub(super) fn abandon_after_from(raw: Option<&str>) -> Result<Duration, ConfigError> {
    match given(raw) {
        None => Ok(crate::game::DEFAULT_ABANDON_AFTER),
        Some(s) => match s.parse::<u64>() {
            Ok(days @ 1..=365) => Ok(Duration::from_secs(days * 86_400)),
            _ => Err(ConfigError::BadAbandonDays(shown(s, 40))),
        },
    }
}

/// `CAJITAS_SHARDS` (`FIRST-LAST/TOTAL`, e.g. `0-3/8`): unset or blank is one shard, as
/// before sharding.
pub(super) fn shards_from(raw: Option<&str>) -> Result<Option<ShardRange>, ConfigError> {
    let Some(text) = given(raw) else {
        return Ok(None);
    };
    let bad = || ConfigError::BadShards(shown(text, 40));
    let (range, total) = text.split_once('/').ok_or_else(bad)?;
    let (first, last) = range.split_once('-').ok_or_else(bad)?;
    let num = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
    let (first, last, total) = (num(first)?, num(last)?, num(total)?);
    if first > last || last >= total || total > 65_536 {
        return Err(bad());
    }
    Ok(Some(ShardRange { first, last, total }))
}

/// `CAJITAS_THREADS`: `auto` (or unset, or empty) opens a thread per game where the bot may;
/// `off` plays every game in its channel.
pub(super) fn threads_from(raw: Option<&str>) -> Result<bool, ConfigError> {
    match raw.map(str::trim).map(str::to_ascii_lowercase).as_deref() {
        None | Some("" | "auto") => Ok(true),
        Some("off") => Ok(false),
        Some(_) => Err(ConfigError::BadThreads(shown(raw.unwrap_or_default(), 40))),
    }
}

/// `CAJITAS_CHALLENGE_TTL` (seconds, 1 to 604800): unset or blank is
/// [`crate::game::DEFAULT_CHALLENGE_TTL`].
pub(super) fn challenge_ttl_from(raw: Option<&str>) -> Result<Duration, ConfigError> {
    match given(raw) {
        None => Ok(crate::game::DEFAULT_CHALLENGE_TTL),
        Some(text) => match text.parse::<u64>() {
            Ok(secs) if (1..=7 * 24 * 3600).contains(&secs) => Ok(Duration::from_secs(secs)),
            _ => Err(ConfigError::BadChallengeTtl(shown(text, 40))),
        },
    }
}

/// Whether a switch such as `CAJITAS_MESSAGE_MOVES` is on (`1`, `true`, `yes`, `on`).
pub(super) fn switch_from(raw: Option<&str>) -> bool {
    matches!(
        raw.map(|s| s.trim().to_ascii_lowercase()).as_deref(),
        Some("1" | "true" | "yes" | "on")
    )
}

/// `CAJITAS_BLOCKING_THREADS` (1 to 64): unset or blank is the machine's cores, at most
/// [`DEFAULT_THREADS_MAX`] (the service serialises on one SQLite connection; more threads
/// only add memory under a burst).
pub(super) fn blocking_threads_from(raw: Option<&str>) -> Result<usize, ConfigError> {
    match given(raw) {
        None => Ok(default_threads(
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
        )),
        Some(text) => match text.parse::<usize>() {
            Ok(n) if (1..=64).contains(&n) => Ok(n),
            _ => Err(ConfigError::BadBlockingThreads(shown(text, 40))),
        },
    }
}

/// `DISCORD_API_BASE` and `CAJITAS_API_BASE_TRUSTED`: unset or empty is Discord itself; a
/// loopback http URL is accepted; anything else only when declared a trusted proxy.
pub(super) fn api_base_from(
    raw: Option<&str>,
    trusted: Option<&str>,
) -> Result<Option<ApiBase>, ConfigError> {
    let Some(url) = given(raw) else {
        return Ok(None);
    };
    let url = url.trim_end_matches('/').to_string();
    if is_loopback_http(&url) {
        return Ok(Some(ApiBase {
            url,
            trusted_proxy: false,
        }));
    }
    let trusted = matches!(
        trusted.map(|t| t.trim().to_ascii_lowercase()).as_deref(),
        Some("1" | "true" | "yes")
    );
    let is_http = url.starts_with("http://") || url.starts_with("https://");
    if trusted && is_http {
        return Ok(Some(ApiBase {
            url,
            trusted_proxy: true,
        }));
    }
    Err(ConfigError::UntrustedApiBase(shown(&redact_url(&url), 100)))
}

/// Whether `url` is `http://` on a loopback host: 127.0.0.0/8, `localhost` or `[::1]`,
/// with an optional port and path and no user information.
fn is_loopback_http(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return false;
    }
    let host = if let Some(v6) = authority.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, port)) if port.is_empty() || port.starts_with(':') => return h == "::1",
            _ => return false,
        }
    } else {
        authority.split(':').next().unwrap_or("")
    };
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    host.parse::<std::net::Ipv4Addr>()
        .is_ok_and(|ip| ip.is_loopback())
}
