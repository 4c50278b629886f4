//! Configuration in layers: defaults, then `.env`, then the environment, then
//! command-line flags.
//!
//! Secrets (the Discord token) come only from the environment or `.env`: there is no
//! flag for them, and their `Debug` output is redacted so they never reach a log.

use std::fmt;
use std::path::PathBuf;

use crate::store::Database;

/// The variable that holds the bot token.
pub const TOKEN_VAR: &str = "DISCORD_TOKEN";
/// The default database file, relative to the working directory.
pub const DEFAULT_DB: &str = "cajitas.db";

/// Loads `./.env` (the working directory's, never a parent's) into the environment.
/// Variables already set in the environment win over `.env`.
pub fn load_dotenv() {
    // Not `dotenvy::dotenv()`: it searches every parent directory, so a `.env` planted in
    // /tmp would configure a bot started in /tmp/a/b.
    let _ = dotenvy::from_path(".env");
}

/// A secret string whose `Debug` and `Display` never show its value.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself, for the one place that must send it (the Discord client).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(\"[redacted]\")")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Why the bot cannot start.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    /// The token variable is unset or empty.
    #[error(
        "{TOKEN_VAR} is not set.\n\
         Cajitas needs a Discord bot token to run the bot. Create an application at \
         https://discord.com/developers/applications, add a bot to it (Bot tab, Reset Token), \
         and put the token in a `.env` file in this directory as `{TOKEN_VAR}=...` \
         (see .env.example) or in the environment.\n\
         To play offline without a token, run `cajitas local`."
    )]
    MissingToken,
    /// `DISCORD_GUILD_ID` (or `--guild-id`) is not a guild id.
    #[error(
        "DISCORD_GUILD_ID must be a server (guild) id, a number such as 1100000000000000001, \
         or empty to register the commands globally; got {0:?}"
    )]
    BadGuildId(String),
    /// `DISCORD_API_BASE` points somewhere other than this machine, and
    /// `CAJITAS_API_BASE_TRUSTED` does not say it is a trusted REST proxy.
    #[error(
        "{API_BASE_VAR} must be an http URL on this machine (127.0.0.0/8, localhost or [::1]), \
         as a test's fake Discord is; got {0:?}. The bot sends its token to that address. If it \
         is a REST proxy you run and trust, also set {API_BASE_TRUSTED_VAR}=1; in production \
         leave {API_BASE_VAR} unset."
    )]
    UntrustedApiBase(String),
    /// `CAJITAS_CHALLENGE_TTL` is not a number of seconds in range.
    #[error("{CHALLENGE_TTL_VAR} must be a number of seconds from 1 to 604800, not {0:?}")]
    BadChallengeTtl(String),
    /// `CAJITAS_SHARDS` is not `FIRST-LAST/TOTAL`.
    #[error(
        "{SHARDS_VAR} must be FIRST-LAST/TOTAL with FIRST <= LAST < TOTAL <= 65536 (e.g. 0-3/8: \
         shards 0 to 3 of 8 in this process), or empty for one shard; got {0:?}"
    )]
    BadShards(String),
    /// `CAJITAS_THREADS` is neither `auto` nor `off`.
    #[error("{THREADS_VAR} must be auto or off, not {0:?}")]
    BadThreads(String),
    /// `CAJITAS_BLOCKING_THREADS` is not a thread count in range.
    #[error("{BLOCKING_THREADS_VAR} must be a number of threads from 1 to 64, not {0:?}")]
    BadBlockingThreads(String),
    /// `CAJITAS_ABANDON_DAYS` is not a number of days in range.
    #[error("{ABANDON_DAYS_VAR} must be a number of days from 1 to 365, not {0:?}")]
    BadAbandonDays(String),
    /// One of the engine's settings is not valid (the text says which and why).
    #[error("{0}")]
    BadEngine(String),
    /// `CAJITAS_METRICS` is not an address to serve the metrics on.
    #[error(
        "{METRICS_VAR} must be the address to serve Prometheus metrics on: IP:PORT such as \
         127.0.0.1:9100 (or [::1]:9100, or 0.0.0.0:9100 to serve every interface), or a bare \
         PORT for 127.0.0.1:PORT, or empty for no metrics; got {0:?}"
    )]
    BadMetrics(String),
}

/// The variable with the address of the Prometheus metrics endpoint.
pub const METRICS_VAR: &str = "CAJITAS_METRICS";

/// Reads `CAJITAS_METRICS`: unset or blank is no metrics (the default); `IP:PORT` is that
/// socket, any interface written out explicitly (e.g. `0.0.0.0:9100`); a bare `PORT` is
/// `127.0.0.1:PORT`. A host name is refused: the address served is the one written.
pub fn metrics_from(raw: Option<&str>) -> Result<Option<std::net::SocketAddr>, ConfigError> {
    let Some(text) = raw.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if let Ok(port) = text.parse::<u16>() {
        return Ok(Some(std::net::SocketAddr::from(([127, 0, 0, 1], port))));
    }
    text.parse::<std::net::SocketAddr>()
        .map(Some)
        .map_err(|_| ConfigError::BadMetrics(text.chars().take(60).collect()))
}

/// The variable with the days an untimed game waits for a move before the waiting player
/// may claim it.
pub const ABANDON_DAYS_VAR: &str = "CAJITAS_ABANDON_DAYS";

/// Reads the abandonment period of untimed games (days, 1 to 365): unset or blank is
/// [`crate::game::DEFAULT_ABANDON_AFTER`] (7 days).
pub fn abandon_after_from(raw: Option<&str>) -> Result<std::time::Duration, ConfigError> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(crate::game::DEFAULT_ABANDON_AFTER),
        Some(s) => match s.parse::<u64>() {
            Ok(days @ 1..=365) => Ok(std::time::Duration::from_secs(days * 86_400)),
            _ => Err(ConfigError::BadAbandonDays(s.chars().take(40).collect())),
        },
    }
}

/// [`abandon_after_from`] on `CAJITAS_ABANDON_DAYS` (for `cajitas local`).
pub fn abandon_after_from_env() -> Result<std::time::Duration, ConfigError> {
    abandon_after_from(std::env::var(ABANDON_DAYS_VAR).ok().as_deref())
}

/// The variable with the challenge lifetime in seconds.
pub const CHALLENGE_TTL_VAR: &str = "CAJITAS_CHALLENGE_TTL";
/// The variable that turns on moves typed as plain messages.
pub const MESSAGE_MOVES_VAR: &str = "CAJITAS_MESSAGE_MOVES";
/// The variable naming the gateway shards this process runs.
pub const SHARDS_VAR: &str = "CAJITAS_SHARDS";

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

/// Reads `CAJITAS_SHARDS` (`FIRST-LAST/TOTAL`, e.g. `0-3/8`): unset or blank is one shard,
/// as before sharding.
pub fn shards_from(raw: Option<&str>) -> Result<Option<ShardRange>, ConfigError> {
    let Some(text) = raw.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let bad = || ConfigError::BadShards(text.chars().take(40).collect());
    let (range, total) = text.split_once('/').ok_or_else(bad)?;
    let (first, last) = range.split_once('-').ok_or_else(bad)?;
    let num = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
    let (first, last, total) = (num(first)?, num(last)?, num(total)?);
    if first > last || last >= total || total > 65_536 {
        return Err(bad());
    }
    Ok(Some(ShardRange { first, last, total }))
}

/// The variable with the number of threads for the game service and rendering.
pub const BLOCKING_THREADS_VAR: &str = "CAJITAS_BLOCKING_THREADS";
/// Whether each game gets a thread of its own: `auto` (the default) or `off`.
pub const THREADS_VAR: &str = "CAJITAS_THREADS";

/// Reads `CAJITAS_THREADS`: `auto` (or unset, or empty) opens a thread per game where the bot
/// may; `off` plays every game in its channel.
pub fn threads_from(raw: Option<&str>) -> Result<bool, ConfigError> {
    match raw.map(str::trim).map(str::to_ascii_lowercase).as_deref() {
        None | Some("" | "auto") => Ok(true),
        Some("off") => Ok(false),
        Some(_) => Err(ConfigError::BadThreads(
            raw.unwrap_or_default().chars().take(40).collect(),
        )),
    }
}

/// Reads the challenge lifetime (seconds, 1 to 604800): unset or blank is
/// [`crate::game::DEFAULT_CHALLENGE_TTL`].
pub fn challenge_ttl_from(raw: Option<&str>) -> Result<std::time::Duration, ConfigError> {
    match raw.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(crate::game::DEFAULT_CHALLENGE_TTL),
        Some(text) => match text.parse::<u64>() {
            Ok(secs) if (1..=7 * 24 * 3600).contains(&secs) => {
                Ok(std::time::Duration::from_secs(secs))
            }
            _ => Err(ConfigError::BadChallengeTtl(
                text.chars().take(40).collect(),
            )),
        },
    }
}

/// [`challenge_ttl_from`] on `CAJITAS_CHALLENGE_TTL` (for `cajitas local`).
pub fn challenge_ttl_from_env() -> Result<std::time::Duration, ConfigError> {
    challenge_ttl_from(std::env::var(CHALLENGE_TTL_VAR).ok().as_deref())
}

/// Whether a switch such as `CAJITAS_MESSAGE_MOVES` is on (`1`, `true`, `yes`, `on`).
pub fn switch_from(raw: Option<&str>) -> bool {
    matches!(
        raw.map(|s| s.trim().to_ascii_lowercase()).as_deref(),
        Some("1" | "true" | "yes" | "on")
    )
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

/// Reads the blocking thread count: unset or blank is the machine's cores, at most
/// [`DEFAULT_THREADS_MAX`] (the service serialises on one SQLite connection; more threads
/// only add memory under a burst).
pub fn blocking_threads_from(raw: Option<&str>) -> Result<usize, ConfigError> {
    match raw.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(default_threads(
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
        )),
        Some(text) => match text.parse::<usize>() {
            Ok(n) if (1..=64).contains(&n) => Ok(n),
            _ => Err(ConfigError::BadBlockingThreads(
                text.chars().take(40).collect(),
            )),
        },
    }
}

/// The variable that sends every REST call to another base URL (a test's fake Discord).
pub const API_BASE_VAR: &str = "DISCORD_API_BASE";
/// The variable that declares a non-loopback [`API_BASE_VAR`] a trusted REST proxy.
pub const API_BASE_TRUSTED_VAR: &str = "CAJITAS_API_BASE_TRUSTED";

/// Where REST calls go instead of Discord.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiBase {
    /// The base URL, without `/api/v10` and without a trailing slash.
    pub url: String,
    /// False for a loopback URL (a test's fake Discord); true for a REST proxy that
    /// `CAJITAS_API_BASE_TRUSTED=1` declares trusted.
    pub trusted_proxy: bool,
}

/// Reads `DISCORD_API_BASE` and `CAJITAS_API_BASE_TRUSTED`: unset or empty is Discord itself;
/// a loopback http URL is accepted; anything else only when declared a trusted proxy.
pub fn api_base_from(
    raw: Option<&str>,
    trusted: Option<&str>,
) -> Result<Option<ApiBase>, ConfigError> {
    let Some(url) = raw.map(str::trim).filter(|s| !s.is_empty()) else {
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
    Err(ConfigError::UntrustedApiBase(
        redact_url(&url).chars().take(100).collect(),
    ))
}

pub use crate::redact::redact_url;

impl ApiBase {
    /// The URL for logs: without user information, query or fragment.
    pub fn redacted(&self) -> String {
        redact_url(&self.url)
    }
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

/// Reads the token from the environment (after `.env` was loaded).
/// An unset, empty or blank variable is [`ConfigError::MissingToken`].
pub fn token_from_env() -> Result<Secret, ConfigError> {
    token_from(std::env::var(TOKEN_VAR).ok())
}

/// Validates a raw token value.
pub fn token_from(raw: Option<String>) -> Result<Secret, ConfigError> {
    match raw {
        Some(t) if !t.trim().is_empty() => Ok(Secret::new(t.trim())),
        _ => Err(ConfigError::MissingToken),
    }
}

/// Reads the optional guild id: unset, empty or blank means "register globally".
pub fn guild_id_from(raw: Option<&str>) -> Result<Option<u64>, ConfigError> {
    match raw.map(str::trim) {
        None | Some("") => Ok(None),
        Some(s) => match s.parse::<u64>() {
            Ok(id) if id != 0 => Ok(Some(id)),
            _ => Err(ConfigError::BadGuildId(s.chars().take(40).collect())),
        },
    }
}

/// Parses `CAJITAS_DB` (or `--db`) for clap: `postgres://…`, `postgresql://…` or a libpq
/// keyword/value string (`host=… user=… dbname=…`) is a PostgreSQL database; anything else a
/// SQLite file, empty meaning [`DEFAULT_DB`].
pub fn parse_db(raw: &str) -> Result<Database, std::convert::Infallible> {
    Ok(Database::parse(raw, DEFAULT_DB))
}

/// The database for logs and messages: a file's path, or a URL without its password.
pub fn describe_db(db: &Database) -> String {
    match db {
        Database::Sqlite(path) => path.display().to_string(),
        Database::Postgres(url) => crate::store::postgres::describe(url),
    }
}

/// Everything `cajitas run` needs.
#[derive(Debug, Clone)]
pub struct BotConfig {
    /// The bot token (redacted in `Debug`).
    pub token: Secret,
    /// Register commands in this guild only (instant, for development).
    pub guild_id: Option<u64>,
    /// The database: a SQLite file or a PostgreSQL URL (`CAJITAS_DB`).
    pub db: Database,
    /// Where REST calls go instead of Discord: a test's fake Discord on loopback, or a
    /// trusted REST proxy. `None` in production.
    pub api_base: Option<ApiBase>,
    /// How long a challenge waits for an answer (`CAJITAS_CHALLENGE_TTL`).
    pub challenge_ttl: std::time::Duration,
    /// The pieces drawn (`CAJITAS_PIECES`): a built-in set (`cajitas`, the default, or
    /// `dejavu`) or a folder of piece SVGs.
    pub pieces: crate::render::PieceSource,
    /// Whether moves typed as plain messages are read (`CAJITAS_MESSAGE_MOVES`).
    pub message_moves: bool,
    /// Threads for the game service and rendering (`CAJITAS_BLOCKING_THREADS`, default:
    /// the machine's cores).
    pub blocking_threads: usize,
    /// The gateway shards of this process (`CAJITAS_SHARDS`); `None`: one shard.
    pub shards: Option<ShardRange>,
    /// Whether each game gets a Discord thread of its own where the bot may open one
    /// (`CAJITAS_THREADS=auto`, the default; `off`: every game in its channel).
    pub threads: bool,
    /// How long an untimed game waits for a move before the waiting player may claim it
    /// (`CAJITAS_ABANDON_DAYS`).
    pub abandon_after: std::time::Duration,
    /// The chess engine (`CAJITAS_ENGINE`, `CAJITAS_ENGINE_PROCESSES`, `_HASH`, `_THREADS`).
    pub engine: EngineSettings,
    /// Where the Prometheus metrics are served (`CAJITAS_METRICS`); `None`: nowhere.
    pub metrics: Option<std::net::SocketAddr>,
}

impl BotConfig {
    /// The configuration from the environment (after `.env` was loaded) and the flags'
    /// values: every variable `cajitas run` reads is read here, once.
    pub fn from_env(guild_id: Option<&str>, db: Database) -> Result<BotConfig, ConfigError> {
        let var = |name: &str| std::env::var(name).ok();
        Ok(BotConfig {
            token: token_from_env()?,
            guild_id: guild_id_from(guild_id)?,
            db,
            api_base: api_base_from(
                var(API_BASE_VAR).as_deref(),
                var(API_BASE_TRUSTED_VAR).as_deref(),
            )?,
            challenge_ttl: challenge_ttl_from_env()?,
            pieces: pieces_from_env(),
            message_moves: switch_from(var(MESSAGE_MOVES_VAR).as_deref()),
            blocking_threads: blocking_threads_from(var(BLOCKING_THREADS_VAR).as_deref())?,
            shards: shards_from(var(SHARDS_VAR).as_deref())?,
            threads: threads_from(var(THREADS_VAR).as_deref())?,
            abandon_after: abandon_after_from(var(ABANDON_DAYS_VAR).as_deref())?,
            engine: EngineSettings::from_env()?,
            metrics: metrics_from(var(METRICS_VAR).as_deref())?,
        })
    }

    /// Checks every setting of the environment that `cajitas run` checks, but the token (only
    /// the bot needs one): `cajitas local` on the same `.env` refuses, with exit 2, what the
    /// bot would refuse, instead of passing it silently.
    pub fn check_env() -> Result<(), ConfigError> {
        let var = |name: &str| std::env::var(name).ok();
        guild_id_from(var("DISCORD_GUILD_ID").as_deref())?;
        api_base_from(
            var(API_BASE_VAR).as_deref(),
            var(API_BASE_TRUSTED_VAR).as_deref(),
        )?;
        challenge_ttl_from_env()?;
        blocking_threads_from(var(BLOCKING_THREADS_VAR).as_deref())?;
        shards_from(var(SHARDS_VAR).as_deref())?;
        threads_from(var(THREADS_VAR).as_deref())?;
        abandon_after_from(var(ABANDON_DAYS_VAR).as_deref())?;
        EngineSettings::from_env()?;
        metrics_from(var(METRICS_VAR).as_deref())?;
        Ok(())
    }

    /// Logs what the bot is about to use, never the token.
    pub fn log_summary(&self) {
        tracing::info!(
            guild_id = ?self.guild_id,
            db = %describe_db(&self.db),
            api_base = ?self.api_base.as_ref().map(ApiBase::redacted),
            shards = ?self.shards.map(|s| format!("{}-{}/{}", s.first, s.last, s.total)),
            metrics = ?self.metrics,
            token = %self.token,
            "starting cajitas"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_or_blank_token_is_an_error() {
        assert_eq!(token_from(None), Err(ConfigError::MissingToken));
        assert_eq!(
            token_from(Some(String::new())),
            Err(ConfigError::MissingToken)
        );
        assert_eq!(
            token_from(Some("  ".into())),
            Err(ConfigError::MissingToken)
        );
        assert_eq!(token_from(Some(" abc ".into())).unwrap().expose(), "abc");
    }

    #[test]
    fn guild_id_empty_means_global_and_garbage_is_refused() {
        assert_eq!(guild_id_from(None), Ok(None));
        assert_eq!(guild_id_from(Some("")), Ok(None));
        assert_eq!(guild_id_from(Some("  ")), Ok(None));
        assert_eq!(guild_id_from(Some("42")), Ok(Some(42)));
        assert!(matches!(
            guild_id_from(Some("abc")),
            Err(ConfigError::BadGuildId(_))
        ));
        assert!(matches!(
            guild_id_from(Some("0")),
            Err(ConfigError::BadGuildId(_))
        ));
    }

    #[test]
    fn empty_db_path_means_the_default() {
        let db = |raw| parse_db(raw).unwrap_or_else(|e| match e {});
        assert_eq!(db(""), Database::Sqlite(PathBuf::from(DEFAULT_DB)));
        assert_eq!(db(" x.db "), Database::Sqlite(PathBuf::from("x.db")));
        assert_eq!(
            db("postgres://u@h/d"),
            Database::Postgres("postgres://u@h/d".into())
        );
    }

    #[test]
    fn debug_output_redacts_the_token() {
        let token = "MTAw.secret-token-value.xyz";
        let cfg = BotConfig {
            token: Secret::new(token),
            guild_id: Some(7),
            db: Database::Postgres("postgres://u:pa55w0rd@db.internal/cajitas".into()),
            api_base: None,
            challenge_ttl: crate::game::DEFAULT_CHALLENGE_TTL,
            pieces: crate::render::PieceSource::Cajitas,
            message_moves: false,
            blocking_threads: 2,
            shards: None,
            threads: true,
            abandon_after: crate::game::DEFAULT_ABANDON_AFTER,
            engine: EngineSettings::default(),
            metrics: None,
        };
        let debug = format!("{cfg:?} {cfg:#?} {}", cfg.token);
        assert!(!debug.contains(token), "{debug}");
        assert!(!debug.contains("secret-token"), "{debug}");
        assert!(debug.contains("redacted"));
        assert!(!debug.contains("pa55w0rd"), "{debug}");
    }

    #[test]
    fn shards_are_first_last_of_total() {
        assert_eq!(shards_from(None).unwrap(), None);
        assert_eq!(shards_from(Some(" ")).unwrap(), None);
        let r = shards_from(Some("0-3/8")).unwrap().unwrap();
        assert_eq!((r.first, r.last, r.total, r.count()), (0, 3, 8, 4));
        let r = shards_from(Some(" 1-1/2 ")).unwrap().unwrap();
        assert_eq!((r.first, r.last, r.total, r.count()), (1, 1, 2, 1));
        for bad in [
            "3",
            "0-3",
            "4-3/8",
            "0-8/8",
            "a-b/c",
            "0-1/0",
            "-1-2/4",
            "0-1/70000",
        ] {
            let e = shards_from(Some(bad)).unwrap_err().to_string();
            assert!(e.contains(SHARDS_VAR), "{bad}: {e}");
        }
    }

    #[test]
    fn the_database_is_a_postgres_url_or_a_sqlite_path() {
        let pg = |u: &str| matches!(parse_db(u).unwrap(), Database::Postgres(_));
        assert!(pg("postgres://cajitas@db/cajitas"));
        assert!(pg("postgresql:///cajitas?host=/run/postgresql"));
        assert!(pg(" POSTGRESQL://x/y"));
        assert_eq!(
            parse_db("").unwrap(),
            Database::Sqlite(PathBuf::from(DEFAULT_DB))
        );
        assert_eq!(
            parse_db("postgres.db").unwrap(),
            Database::Sqlite(PathBuf::from("postgres.db"))
        );
        assert_eq!(
            parse_db("./postgres://x").unwrap(),
            Database::Sqlite(PathBuf::from("./postgres://x"))
        );
        let url = Database::Postgres(
            "postgres://bot:s3cr3t@db.internal:5432/cajitas?sslmode=disable".into(),
        );
        let shown = describe_db(&url);
        assert!(!shown.contains("s3cr3t"), "{shown}");
        assert_eq!(shown, "postgres://[redacted]@db.internal:5432/cajitas");
        // A libpq keyword/value string is PostgreSQL too, shown without its password.
        let kv = "host=/run/postgresql port=5433 user=bot password='s3 cr3t' dbname=cajitas";
        assert!(pg(kv));
        assert!(pg(" PASSWORD=x host=db"));
        assert!(!pg("my=file.db"));
        assert!(!pg("hosts=x"));
        assert_eq!(
            describe_db(&parse_db(kv).unwrap()),
            "host=/run/postgresql port=5433 user=bot dbname=cajitas"
        );
        let bad = describe_db(&parse_db("host=x password=s3cr3t nonsense=1").unwrap());
        assert!(!bad.contains("s3cr3t"), "{bad}");
    }

    #[test]
    fn urls_lose_their_secrets_in_logs() {
        assert_eq!(
            redact_url("https://user:pa55@proxy.internal:8443/base?key=s3cret#x"),
            "https://[redacted]@proxy.internal:8443/base"
        );
        assert_eq!(redact_url("http://127.0.0.1:9"), "http://127.0.0.1:9");
        // A password with `/`, `?` or `#` in it, which PostgreSQL's parser accepts.
        for (url, shown) in [
            ("postgres://bot:ab/cd@db/x", "postgres://[redacted]@db/x"),
            ("postgres://bot:pa?ss@db/x", "postgres://[redacted]@db/x"),
            (
                "postgres://bot:p#w@db:5432/x?sslmode=off",
                "postgres://[redacted]@db:5432/x",
            ),
            ("postgresql://bot:p@w@db/x", "postgresql://[redacted]@db/x"),
            (
                "postgresql:///cajitas?host=/run/postgresql",
                "postgresql:///cajitas",
            ),
        ] {
            assert_eq!(redact_url(url), shown, "{url}");
        }
        let e = api_base_from(Some("https://u:pa55@x.example/?t=s3cret"), None)
            .unwrap_err()
            .to_string();
        assert!(!e.contains("pa55") && !e.contains("s3cret"), "{e}");
    }

    #[test]
    fn the_api_base_must_be_loopback_unless_trusted() {
        let ok = |u: &str| api_base_from(Some(u), None);
        for u in [
            "http://127.0.0.1:8080",
            "http://127.1.2.3",
            "http://localhost:1/",
            "http://LOCALHOST",
            "http://[::1]:9000",
        ] {
            let b = ok(u).unwrap().unwrap();
            assert!(!b.trusted_proxy, "{u}");
            assert!(!b.url.ends_with('/'), "{u}");
        }
        assert_eq!(ok("").unwrap(), None);
        assert_eq!(api_base_from(None, Some("1")).unwrap(), None);
        for u in [
            "https://discord.example",
            "http://10.0.0.1:8080",
            "http://127.0.0.1.evil.example",
            "http://localhost.evil.example",
            "http://user@127.0.0.1@evil.example",
            "http://[::2]:80",
            "http://[::ffff:127.0.0.1]:1",
            "http://0.0.0.0:1",
            "https://127.0.0.1",
            "ftp://127.0.0.1",
        ] {
            assert!(
                matches!(ok(u), Err(ConfigError::UntrustedApiBase(_))),
                "{u} must be refused"
            );
        }
        let proxy = api_base_from(Some("https://proxy.internal/"), Some("1"))
            .unwrap()
            .unwrap();
        assert!(proxy.trusted_proxy);
        assert_eq!(proxy.url, "https://proxy.internal");
        assert!(api_base_from(Some("https://proxy.internal"), Some("0")).is_err());
        let msg = ok("https://x.example").unwrap_err().to_string();
        assert!(msg.contains(API_BASE_VAR) && msg.contains(API_BASE_TRUSTED_VAR));
    }

    #[test]
    fn the_ttl_is_read_from_text() {
        let d = crate::game::DEFAULT_CHALLENGE_TTL;
        assert_eq!(challenge_ttl_from(None).unwrap(), d);
        assert_eq!(challenge_ttl_from(Some(" ")).unwrap(), d);
        assert_eq!(
            challenge_ttl_from(Some("90")).unwrap(),
            std::time::Duration::from_secs(90)
        );
        for bad in ["0", "-5", "ten", "99999999"] {
            let e = challenge_ttl_from(Some(bad)).unwrap_err().to_string();
            assert!(e.contains(CHALLENGE_TTL_VAR), "{e}");
        }
    }

    #[test]
    fn switches_and_thread_counts() {
        for on in ["1", "true", "YES", " on "] {
            assert!(switch_from(Some(on)), "{on}");
        }
        for off in ["", "0", "no", "off", "enable"] {
            assert!(!switch_from(Some(off)), "{off}");
        }
        assert!(!switch_from(None));
        assert!(blocking_threads_from(None).unwrap() >= 1);
        assert!(blocking_threads_from(None).unwrap() <= DEFAULT_THREADS_MAX);
        // An 8-core machine gets two threads per pool, not eight arenas' worth each.
        assert_eq!(default_threads(8), 2);
        assert_eq!(default_threads(2), 2);
        assert_eq!(default_threads(1), 1);
        assert_eq!(blocking_threads_from(Some("3")).unwrap(), 3);
        for bad in ["0", "x", "1000"] {
            assert!(matches!(
                blocking_threads_from(Some(bad)),
                Err(ConfigError::BadBlockingThreads(_))
            ));
        }
    }

    #[test]
    fn threads_are_auto_unless_off() {
        for auto in [None, Some(""), Some("auto"), Some(" AUTO ")] {
            assert!(threads_from(auto).unwrap(), "{auto:?}");
        }
        assert!(!threads_from(Some("off")).unwrap());
        assert!(matches!(
            threads_from(Some("sometimes")),
            Err(ConfigError::BadThreads(_))
        ));
    }

    #[test]
    fn env_example_documents_every_variable() {
        let example = include_str!("../../.env.example");
        for var in [
            TOKEN_VAR,
            "DISCORD_GUILD_ID",
            "CAJITAS_DB",
            "RUST_LOG",
            API_BASE_VAR,
            API_BASE_TRUSTED_VAR,
            CHALLENGE_TTL_VAR,
            MESSAGE_MOVES_VAR,
            BLOCKING_THREADS_VAR,
            PIECES_VAR,
            SHARDS_VAR,
            THREADS_VAR,
            ABANDON_DAYS_VAR,
            METRICS_VAR,
        ] {
            assert!(
                example.lines().any(|l| l.starts_with(&format!("{var}="))),
                "{var} is not in .env.example"
            );
        }
    }

    #[test]
    fn the_metrics_address_is_explicit() {
        assert_eq!(metrics_from(None).unwrap(), None);
        assert_eq!(metrics_from(Some("  ")).unwrap(), None);
        let addr = |s: &str| metrics_from(Some(s)).unwrap().unwrap().to_string();
        assert_eq!(addr("127.0.0.1:9100"), "127.0.0.1:9100");
        assert_eq!(addr(" 9100 "), "127.0.0.1:9100");
        assert_eq!(addr("[::1]:9100"), "[::1]:9100");
        assert_eq!(addr("0.0.0.0:9100"), "0.0.0.0:9100");
        assert_eq!(addr("10.1.2.3:80"), "10.1.2.3:80");
        for bad in [
            "localhost:9100",
            "127.0.0.1",
            "127.0.0.1:99999",
            ":9100",
            "x",
            "-1",
        ] {
            let e = metrics_from(Some(bad)).unwrap_err().to_string();
            assert!(e.contains(METRICS_VAR) && e.contains(bad), "{bad}: {e}");
        }
    }

    #[test]
    fn the_abandonment_period_is_read_in_days() {
        let day = std::time::Duration::from_secs(86_400);
        assert_eq!(abandon_after_from(None).unwrap(), 7 * day);
        assert_eq!(abandon_after_from(Some(" ")).unwrap(), 7 * day);
        assert_eq!(abandon_after_from(Some("3")).unwrap(), 3 * day);
        for bad in ["0", "366", "-1", "x", "1.5"] {
            assert!(matches!(
                abandon_after_from(Some(bad)),
                Err(ConfigError::BadAbandonDays(_))
            ));
        }
    }

    #[test]
    fn missing_token_message_helps() {
        let msg = ConfigError::MissingToken.to_string();
        assert!(msg.contains(TOKEN_VAR));
        assert!(msg.contains("discord.com/developers"));
        assert!(msg.contains("cajitas local"));
    }
}

/// The variable naming the pieces: a built-in set (`cajitas`, the default, or `dejavu`) or a
/// folder of 12 piece SVGs (`wK.svg` … `bP.svg`).
pub const PIECES_VAR: &str = "CAJITAS_PIECES";

/// The pieces named by `CAJITAS_PIECES`; unset or empty (as in `.env.example`) means the
/// default built-in set.
pub fn pieces_from_env() -> crate::render::PieceSource {
    crate::render::PieceSource::from_setting(std::env::var_os(PIECES_VAR).as_deref())
}

/// The variable naming the chess engine program (a UCI engine such as Stockfish).
pub const ENGINE_VAR: &str = "CAJITAS_ENGINE";
/// The variable with the number of engine processes.
pub const ENGINE_PROCESSES_VAR: &str = "CAJITAS_ENGINE_PROCESSES";
/// The variable with each engine process's hash table size, in MB.
pub const ENGINE_HASH_VAR: &str = "CAJITAS_ENGINE_HASH";
/// The variable with each engine process's search threads.
pub const ENGINE_THREADS_VAR: &str = "CAJITAS_ENGINE_THREADS";
/// The variable with the node budget of each position an analysis searches.
pub const ANALYSIS_NODES_VAR: &str = "CAJITAS_ANALYSIS_NODES";
/// The variable with the number of analyses that run at once (the rest wait their turn).
pub const ANALYSES_VAR: &str = "CAJITAS_ANALYSES";
/// The variable with the number of games against the engine one person may have in
/// progress per server.
pub const ENGINE_GAMES_PER_USER_VAR: &str = "CAJITAS_ENGINE_GAMES_PER_USER";
/// The default of [`ANALYSIS_NODES_VAR`]: see the README's "Playing the computer and
/// analysing a game" for why.
pub const DEFAULT_ANALYSIS_NODES: u64 = 100_000;

/// Where Debian's package `stockfish` installs the engine (not on root's `PATH`).
pub const DEBIAN_STOCKFISH: &str = "/usr/games/stockfish";

/// The chess engine's settings, as configured (the engine room starts the processes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSettings {
    /// The engine program: `CAJITAS_ENGINE`, else `stockfish` on `PATH`, else
    /// [`DEBIAN_STOCKFISH`]; `None` when there is none (the bot runs without it).
    pub program: Option<PathBuf>,
    /// How many engine processes (default: the cores less one, at least 1).
    pub processes: usize,
    /// `Hash` per process, in MB (default 16).
    pub hash_mb: u32,
    /// `Threads` per process (default 1).
    pub threads: u32,
    /// The nodes each position of an analysis is searched with (default
    /// [`DEFAULT_ANALYSIS_NODES`]).
    pub analysis_nodes: u64,
    /// How many analyses run at once (default: the processes).
    pub analyses: usize,
    /// How many games against the engine one person may have in progress per server
    /// (default [`DEFAULT_ENGINE_GAMES_PER_USER`](crate::game::DEFAULT_ENGINE_GAMES_PER_USER)).
    pub games_per_user: u32,
}

impl Default for EngineSettings {
    fn default() -> Self {
        let processes = default_engine_processes();
        EngineSettings {
            program: None,
            processes,
            hash_mb: 16,
            threads: 1,
            analysis_nodes: DEFAULT_ANALYSIS_NODES,
            analyses: processes,
            games_per_user: crate::game::DEFAULT_ENGINE_GAMES_PER_USER,
        }
    }
}

/// max(1, cores − 1): one core stays for the bot itself.
pub fn default_engine_processes() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .saturating_sub(1)
        .max(1)
}

fn number_in<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    var: &str,
    raw: Option<&str>,
    range: std::ops::RangeInclusive<T>,
    default: T,
) -> Result<T, ConfigError> {
    match raw.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(default),
        Some(text) => match text.parse::<T>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(ConfigError::BadEngine(format!(
                "{var} must be a number from {} to {}, not {:?}",
                range.start(),
                range.end(),
                text.chars().take(40).collect::<String>()
            ))),
        },
    }
}

/// Finds the engine: `explicit` (`CAJITAS_ENGINE`) when given, which must then be a file,
/// or a bare program name found in the folders of `path` (or `off`: no engine, even when one
/// is installed); otherwise `stockfish` in the folders of `path` (`PATH`); otherwise `debian`
/// when it is a file.
pub fn find_engine(
    explicit: Option<&std::ffi::OsStr>,
    path: Option<&std::ffi::OsStr>,
    debian: &std::path::Path,
) -> Result<Option<PathBuf>, ConfigError> {
    if explicit.is_some_and(|p| p == "off") {
        return Ok(None);
    }
    let on_path = |name: &std::path::Path| {
        path.into_iter()
            .flat_map(std::env::split_paths)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    };
    if let Some(p) = explicit.filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        // A bare name (`stockfish`) is looked up on PATH, as a shell does; Debian's place
        // is still tried for `stockfish` (root's PATH lacks /usr/games).
        let bare = p.components().count() == 1 && p.parent() == Some(std::path::Path::new(""));
        let found = if bare {
            on_path(&p).or_else(|| {
                (debian.file_name() == Some(p.as_os_str()) && debian.is_file())
                    .then(|| debian.to_path_buf())
            })
        } else {
            p.is_file().then(|| p.clone())
        };
        return found.map(Some).ok_or_else(|| {
            ConfigError::BadEngine(if bare {
                format!(
                    "{ENGINE_VAR} names {}, which is not a program on PATH; install an engine \
                     (`apt install stockfish`), give its full path, or leave {ENGINE_VAR} empty",
                    p.display()
                )
            } else {
                format!(
                    "{ENGINE_VAR} names {}, which is not a file; install an engine \
                     (`apt install stockfish`) or leave {ENGINE_VAR} empty",
                    p.display()
                )
            })
        });
    }
    if let Some(found) = on_path(std::path::Path::new("stockfish")) {
        return Ok(Some(found));
    }
    Ok(debian.is_file().then(|| debian.to_path_buf()))
}

impl EngineSettings {
    /// The settings from the environment.
    pub fn from_env() -> Result<EngineSettings, ConfigError> {
        let var = |name: &str| std::env::var(name).ok();
        Self::from_values(
            std::env::var_os(ENGINE_VAR).as_deref(),
            std::env::var_os("PATH").as_deref(),
            var(ENGINE_PROCESSES_VAR).as_deref(),
            var(ENGINE_HASH_VAR).as_deref(),
            var(ENGINE_THREADS_VAR).as_deref(),
        )?
        .with_limits(
            var(ANALYSIS_NODES_VAR).as_deref(),
            var(ANALYSES_VAR).as_deref(),
            var(ENGINE_GAMES_PER_USER_VAR).as_deref(),
        )
    }

    /// These settings with the limits of analyses and of games per person from the
    /// variables' values (the number of analyses at once defaults to the processes).
    pub fn with_limits(
        self,
        nodes: Option<&str>,
        analyses: Option<&str>,
        games_per_user: Option<&str>,
    ) -> Result<EngineSettings, ConfigError> {
        Ok(EngineSettings {
            analysis_nodes: number_in(
                ANALYSIS_NODES_VAR,
                nodes,
                1_000..=1_000_000_000,
                DEFAULT_ANALYSIS_NODES,
            )?,
            analyses: number_in(ANALYSES_VAR, analyses, 1..=256, self.processes)?,
            games_per_user: number_in(
                ENGINE_GAMES_PER_USER_VAR,
                games_per_user,
                1..=100,
                crate::game::DEFAULT_ENGINE_GAMES_PER_USER,
            )?,
            ..self
        })
    }

    /// The settings from the variables' values.
    pub fn from_values(
        engine: Option<&std::ffi::OsStr>,
        path: Option<&std::ffi::OsStr>,
        processes: Option<&str>,
        hash: Option<&str>,
        threads: Option<&str>,
    ) -> Result<EngineSettings, ConfigError> {
        Ok(EngineSettings {
            program: find_engine(engine, path, std::path::Path::new(DEBIAN_STOCKFISH))?,
            processes: number_in(
                ENGINE_PROCESSES_VAR,
                processes,
                1..=64,
                default_engine_processes(),
            )?,
            hash_mb: number_in(ENGINE_HASH_VAR, hash, 1..=4096, 16)?,
            threads: number_in(ENGINE_THREADS_VAR, threads, 1..=64, 1)?,
            ..EngineSettings::default()
        })
    }
}

#[cfg(test)]
mod engine_tests {
    use super::*;

    #[test]
    fn the_engine_is_found_in_order() {
        let dir = std::env::temp_dir().join(format!("cajitas-find-engine-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        let mine = dir.join("my-engine");
        std::fs::write(&mine, "").unwrap();
        let on_path = dir.join("bin").join("stockfish");
        std::fs::write(&on_path, "").unwrap();
        let nowhere = dir.join("nowhere");
        let path = std::env::join_paths([dir.join("empty"), dir.join("bin")]).unwrap();
        // CAJITAS_ENGINE first, then PATH, then Debian's place.
        assert_eq!(
            find_engine(Some(mine.as_os_str()), Some(&path), &nowhere).unwrap(),
            Some(mine.clone())
        );
        assert_eq!(
            find_engine(None, Some(&path), &nowhere).unwrap(),
            Some(on_path)
        );
        assert_eq!(
            find_engine(Some("".as_ref()), None, &mine).unwrap(),
            Some(mine.clone())
        );
        assert_eq!(find_engine(None, None, &nowhere).unwrap(), None);
        assert_eq!(
            find_engine(Some("off".as_ref()), Some(&path), &mine).unwrap(),
            None
        );
        // A named engine that is not there is an error that says what to do.
        let err = find_engine(Some(nowhere.as_os_str()), Some(&path), &mine).unwrap_err();
        assert!(err.to_string().contains("apt install stockfish"), "{err}");
        // A bare name is looked up on PATH (issue 26), not in the working folder.
        assert_eq!(
            find_engine(Some("stockfish".as_ref()), Some(&path), &nowhere).unwrap(),
            Some(dir.join("bin").join("stockfish"))
        );
        let err = find_engine(Some("my-engine".as_ref()), Some(&path), &nowhere).unwrap_err();
        assert!(err.to_string().contains("not a program on PATH"), "{err}");
        // `stockfish` not on PATH: Debian's place, as without CAJITAS_ENGINE.
        let debian = dir.join("bin").join("stockfish");
        assert_eq!(
            find_engine(Some("stockfish".as_ref()), None, &debian).unwrap(),
            Some(debian.clone())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn engine_numbers_are_checked() {
        let s = EngineSettings::from_values(None, None, Some("3"), Some(""), None).unwrap();
        assert_eq!((s.processes, s.hash_mb, s.threads), (3, 16, 1));
        assert!(s.processes >= 1 && default_engine_processes() >= 1);
        for bad in ["0", "-1", "x", "65"] {
            let e = EngineSettings::from_values(None, None, Some(bad), None, None).unwrap_err();
            assert!(e.to_string().contains(ENGINE_PROCESSES_VAR), "{e}");
        }
        assert!(EngineSettings::from_values(None, None, None, Some("99999"), None).is_err());
        assert!(EngineSettings::from_values(None, None, None, None, Some("0")).is_err());
        // The limits: analyses at once default to the processes; games per person to 2.
        let s = s.with_limits(None, None, None).unwrap();
        assert_eq!(
            (s.analysis_nodes, s.analyses, s.games_per_user),
            (DEFAULT_ANALYSIS_NODES, 3, 2)
        );
        let s = s.with_limits(Some("250000"), Some("1"), Some("5")).unwrap();
        assert_eq!(
            (s.analysis_nodes, s.analyses, s.games_per_user),
            (250_000, 1, 5)
        );
        for (nodes, analyses, games, var) in [
            (Some("12"), None, None, ANALYSIS_NODES_VAR),
            (None, Some("0"), None, ANALYSES_VAR),
            (None, None, Some("0"), ENGINE_GAMES_PER_USER_VAR),
            (None, None, Some("two"), ENGINE_GAMES_PER_USER_VAR),
        ] {
            let e = s.clone().with_limits(nodes, analyses, games).unwrap_err();
            assert!(e.to_string().contains(var), "{e}");
        }
    }

    #[test]
    fn env_example_documents_the_engine_variables() {
        let example = include_str!("../../.env.example");
        for var in [
            ENGINE_VAR,
            ENGINE_PROCESSES_VAR,
            ENGINE_HASH_VAR,
            ENGINE_THREADS_VAR,
            ANALYSIS_NODES_VAR,
            ANALYSES_VAR,
            ENGINE_GAMES_PER_USER_VAR,
        ] {
            assert!(
                example.lines().any(|l| l.starts_with(&format!("{var}="))),
                "{var} is not in .env.example"
            );
        }
    }
}
