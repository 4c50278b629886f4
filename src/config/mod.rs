//! Configuration in layers: defaults, then `./.env`, then the environment, then the
//! command line's flags (`--db`, `--guild-id`).
//!
//! [`Settings`] (`settings.rs`) is the one table of the variables Cajitas reads, read by
//! clap; [`BotConfig::try_from`] (and [`LocalConfig`], [`EngineSettings`] for the tools)
//! checks and converts them (`values.rs`, `engine.rs`), as ripgrep's low arguments become
//! its high ones. Nothing else in the program reads the environment.
//!
//! Secrets (the Discord token) come only from the environment or `.env`: there is no
//! flag for them, and their `Debug` output is redacted so they never reach a log.

mod engine;
mod settings;
mod values;

#[cfg(test)]
mod tests;

use std::fmt;

use cajitas_rules::Lang;

use crate::store::Database;
use crate::tr;

pub use self::engine::{
    DEBIAN_STOCKFISH, DEFAULT_ANALYSIS_NODES, EngineSettings, default_engine_processes,
};
pub use self::settings::{
    API_BASE_TRUSTED_VAR, DbArg, GuildArg, METRICS_VAR, PIECES_VAR, Settings,
};
pub use self::values::{ApiBase, DEFAULT_THREADS_MAX, ShardRange, default_threads};
pub use crate::redact::redact_url;

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

/// Why the bot (or `cajitas local`, or a tool that starts the engine) cannot start: each
/// names the variable and, shortened, the value. Worded in the Fluent files (`config-*` in
/// `cli.ftl`): [`ConfigError::message`] in a language, `Display` in English.
#[derive(Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// The token variable is unset or empty.
    MissingToken,
    /// `DISCORD_GUILD_ID` (or `--guild-id`) is not a guild id.
    BadGuildId(String),
    /// `DISCORD_API_BASE` points somewhere other than this machine, and
    /// `CAJITAS_API_BASE_TRUSTED` does not say it is a trusted REST proxy.
    UntrustedApiBase(String),
    /// `CAJITAS_CHALLENGE_TTL` is not a number of seconds in range.
    BadChallengeTtl(String),
    /// `CAJITAS_SHARDS` is not `FIRST-LAST/TOTAL`.
    BadShards(String),
    /// `CAJITAS_THREADS` is neither `auto` nor `off`.
    BadThreads(String),
    /// `CAJITAS_BLOCKING_THREADS` is not a thread count in range.
    BadBlockingThreads(String),
    /// `CAJITAS_ABANDON_DAYS` is not a number of days in range.
    BadAbandonDays(String),
    /// One of the engine's numbers (`var`) is not a number in its range.
    BadNumber {
        /// The variable.
        var: &'static str,
        /// The smallest value accepted.
        min: String,
        /// The largest value accepted.
        max: String,
        /// The value given (its first 40 characters).
        value: String,
    },
    /// `CAJITAS_ENGINE` is a bare name that is not a program on `PATH`.
    EngineNotOnPath(String),
    /// `CAJITAS_ENGINE` is a path that is not a file.
    EngineNotAFile(String),
    /// `CAJITAS_METRICS` is not an address to serve the metrics on.
    BadMetrics(String),
}

impl ConfigError {
    /// What went wrong, in `lang` (`cajitas local --lang es` says it in Spanish).
    pub fn message(&self, lang: Lang) -> String {
        let quoted = |v: &str| format!("{v:?}");
        match self {
            ConfigError::MissingToken => tr!(lang, "config-missing-token"),
            ConfigError::BadGuildId(v) => tr!(lang, "config-bad-guild-id", value = quoted(v)),
            ConfigError::UntrustedApiBase(v) => {
                tr!(lang, "config-untrusted-api-base", value = quoted(v))
            }
            ConfigError::BadChallengeTtl(v) => {
                tr!(lang, "config-bad-challenge-ttl", value = quoted(v))
            }
            ConfigError::BadShards(v) => tr!(lang, "config-bad-shards", value = quoted(v)),
            ConfigError::BadThreads(v) => tr!(lang, "config-bad-threads", value = quoted(v)),
            ConfigError::BadBlockingThreads(v) => {
                tr!(lang, "config-bad-blocking-threads", value = quoted(v))
            }
            ConfigError::BadAbandonDays(v) => {
                tr!(lang, "config-bad-abandon-days", value = quoted(v))
            }
            ConfigError::BadNumber {
                var,
                min,
                max,
                value,
            } => tr!(
                lang,
                "config-bad-number",
                var = var.to_string(),
                min = min.clone(),
                max = max.clone(),
                value = quoted(value)
            ),
            ConfigError::EngineNotOnPath(name) => {
                tr!(lang, "config-engine-not-on-path", name = name.clone())
            }
            ConfigError::EngineNotAFile(name) => {
                tr!(lang, "config-engine-not-a-file", name = name.clone())
            }
            ConfigError::BadMetrics(v) => tr!(lang, "config-bad-metrics", value = quoted(v)),
        }
    }
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ConfigError {}

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

impl TryFrom<Settings> for BotConfig {
    type Error = ConfigError;

    /// Every variable checked and converted, the token first.
    fn try_from(s: Settings) -> Result<BotConfig, ConfigError> {
        let token = values::token_from(s.token.as_ref())?;
        BotConfig::checked(s, token)
    }
}

impl BotConfig {
    /// Every variable but the token checked and converted, in the order the errors are met.
    fn checked(s: Settings, token: Secret) -> Result<BotConfig, ConfigError> {
        Ok(BotConfig {
            token,
            guild_id: values::guild_id_from(s.guild.guild_id.as_deref())?,
            api_base: values::api_base_from(
                s.api_base.as_ref().map(Secret::expose),
                s.api_base_trusted.as_deref(),
            )?,
            challenge_ttl: values::challenge_ttl_from(s.challenge_ttl.as_deref())?,
            pieces: crate::render::PieceSource::from_setting(s.pieces.as_deref()),
            message_moves: values::switch_from(s.message_moves.as_deref()),
            blocking_threads: values::blocking_threads_from(s.blocking_threads.as_deref())?,
            shards: values::shards_from(s.shards.as_deref())?,
            threads: values::threads_from(s.threads.as_deref())?,
            abandon_after: values::abandon_after_from(s.abandon_days.as_deref())?,
            engine: EngineSettings::try_from(&s)?,
            metrics: values::metrics_from(s.metrics.as_deref())?,
            db: s.db.db,
        })
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

/// What `cajitas local` takes from the settings it shares with the bot (one `.env` serves
/// both).
#[derive(Debug, Clone)]
pub struct LocalConfig {
    /// How long a challenge waits for an answer (`CAJITAS_CHALLENGE_TTL`).
    pub challenge_ttl: std::time::Duration,
    /// How long an untimed game waits for a move before it may be claimed
    /// (`CAJITAS_ABANDON_DAYS`).
    pub abandon_after: std::time::Duration,
    /// The chess engine.
    pub engine: EngineSettings,
}

impl TryFrom<Settings> for LocalConfig {
    type Error = ConfigError;

    /// Every variable checked as `cajitas run` checks it, but the token (only the bot needs
    /// one): the console refuses, with exit 2, what the bot would refuse, instead of passing
    /// it silently.
    fn try_from(s: Settings) -> Result<LocalConfig, ConfigError> {
        let all = BotConfig::checked(s, Secret::new(String::new()))?;
        Ok(LocalConfig {
            challenge_ttl: all.challenge_ttl,
            abandon_after: all.abandon_after,
            engine: all.engine,
        })
    }
}
