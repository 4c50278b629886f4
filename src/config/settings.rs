//! The table of every variable Cajitas reads: one clap argument per variable, with its
//! documentation, read from the environment (after `./.env` was loaded) by clap's `env`.
//!
//! These are raw values, ripgrep's "low" arguments: text as the operator wrote it, checked
//! and converted by [`BotConfig::try_from`](super::BotConfig) (and its siblings), whose
//! errors name the variable and the value. `.env.example` documents exactly these
//! variables (a test holds the two together).
//!
//! [`Settings`] is parsed from no command line at all ([`Settings::from_env`]): its values
//! come from the environment only. clap takes an argument without a flag for a positional
//! one, but no command line ever reaches this parser, so a secret (the token) has no flag.
//! The two variables that are also flags, `--db` and `--guild-id`, are the small argument
//! groups [`DbArg`] and [`GuildArg`], declared once and flattened both here and into the
//! commands that take them (there the flag wins over the variable).

use std::ffi::OsString;

use clap::builder::{OsStringValueParser, TypedValueParser};

use super::{DEFAULT_DB, Secret, parse_db};
use crate::store::Database;

/// The variable with the address of the Prometheus metrics endpoint (named in messages
/// outside the configuration too).
pub const METRICS_VAR: &str = "CAJITAS_METRICS";
/// The variable that declares a non-loopback `DISCORD_API_BASE` a trusted REST proxy (named
/// in the start log's warning).
pub const API_BASE_TRUSTED_VAR: &str = "CAJITAS_API_BASE_TRUSTED";
/// The variable naming the pieces (named in the messages about a piece folder).
pub const PIECES_VAR: &str = "CAJITAS_PIECES";

/// Every variable Cajitas reads, as written (see the module's documentation). Its `Debug`
/// shows no secret: the token and the API base are [`Secret`]s, the database is a
/// [`Database`], whose `Debug` hides a PostgreSQL password.
#[derive(Debug, Clone, Default, clap::Parser)]
#[command(
    name = "cajitas",
    no_binary_name = true,
    disable_help_flag = true,
    disable_version_flag = true
)]
pub struct Settings {
    /// Required for `cajitas run`: the bot token from
    /// <https://discord.com/developers/applications> (your application -> Bot -> Reset Token).
    /// Never printed or logged, and never a flag.
    #[arg(env = "DISCORD_TOKEN", hide_env_values = true, value_name = "TOKEN",
          value_parser = text().map(Secret::new))]
    pub token: Option<Secret>,

    /// `--guild-id` and `DISCORD_GUILD_ID`.
    #[command(flatten)]
    pub guild: GuildArg,

    /// `--db` and `CAJITAS_DB`.
    #[command(flatten)]
    pub db: DbArg,

    /// Tests only: the REST base URL of a fake Discord, without `/api/v10` and without a
    /// trailing slash (e.g. `http://127.0.0.1:8080`). The bot sends its token there, so only a
    /// loopback http URL is accepted, unless CAJITAS_API_BASE_TRUSTED says otherwise. Leave
    /// unset in production. Kept as a secret: a proxy's URL may hold credentials.
    #[arg(env = "DISCORD_API_BASE", hide_env_values = true, value_name = "URL",
          value_parser = text().map(Secret::new))]
    pub api_base: Option<Secret>,

    /// Off by default: 1 (or true, yes) declares a non-loopback DISCORD_API_BASE a REST
    /// proxy you run and trust; it must keep to Discord's rate limits itself.
    #[arg(env = API_BASE_TRUSTED_VAR, value_name = "1", value_parser = text())]
    pub api_base_trusted: Option<String>,

    /// How long a challenge waits for an answer, in seconds (1 to 604800). Default: 900.
    #[arg(env = "CAJITAS_CHALLENGE_TTL", value_name = "SECONDS", value_parser = text())]
    pub challenge_ttl: Option<String>,

    /// Off by default: 1 (or true, yes, on) reads moves typed as plain messages in a channel
    /// with a game in progress. Needs the privileged Message Content intent.
    #[arg(env = "CAJITAS_MESSAGE_MOVES", value_name = "1", value_parser = text())]
    pub message_moves: Option<String>,

    /// Threads for the game service and board rendering (1 to 64). Default: the machine's
    /// cores, at most 2.
    #[arg(env = "CAJITAS_BLOCKING_THREADS", value_name = "N", value_parser = text())]
    pub blocking_threads: Option<String>,

    /// The gateway shards this process runs, FIRST-LAST/TOTAL (e.g. 0-3/8). Empty or unset:
    /// one shard.
    #[arg(env = "CAJITAS_SHARDS", value_name = "FIRST-LAST/TOTAL", value_parser = text())]
    pub shards: Option<String>,

    /// auto (the default) opens a public thread for each game where the bot may; off plays
    /// every game in its channel.
    #[arg(env = "CAJITAS_THREADS", value_name = "auto|off", value_parser = text())]
    pub threads: Option<String>,

    /// Days an untimed game waits for a move before the waiting player may claim it
    /// (1 to 365). Default: 7.
    #[arg(env = "CAJITAS_ABANDON_DAYS", value_name = "DAYS", value_parser = text())]
    pub abandon_days: Option<String>,

    /// The pieces: `cajitas` (the default) or `dejavu`, or a folder of 12 piece SVGs
    /// (wK.svg … bP.svg). Also the default of `cajitas render --pieces`.
    #[arg(env = PIECES_VAR, value_name = "SET|DIR")]
    pub pieces: Option<OsString>,

    /// The chess engine for /play and /analysis, any UCI engine by path or by a name on PATH
    /// (`off`: none). Unset or empty: `stockfish` on PATH, else /usr/games/stockfish.
    #[arg(env = "CAJITAS_ENGINE", value_name = "PROGRAM")]
    pub engine: Option<OsString>,

    /// How many engine processes all games and analyses share (1 to 64). Default: the
    /// machine's cores less one, at least 1.
    #[arg(env = "CAJITAS_ENGINE_PROCESSES", value_name = "N", value_parser = text())]
    pub engine_processes: Option<String>,

    /// Each engine process's hash table in MB (1 to 4096). Default: 16.
    #[arg(env = "CAJITAS_ENGINE_HASH", value_name = "MB", value_parser = text())]
    pub engine_hash: Option<String>,

    /// Each engine process's search threads (1 to 64). Default: 1.
    #[arg(env = "CAJITAS_ENGINE_THREADS", value_name = "N", value_parser = text())]
    pub engine_threads: Option<String>,

    /// The nodes each position of an analysis is searched with (1000 to 1000000000).
    /// Default: 100000.
    #[arg(env = "CAJITAS_ANALYSIS_NODES", value_name = "NODES", value_parser = text())]
    pub analysis_nodes: Option<String>,

    /// How many analyses run at once (1 to 256); the rest wait their turn. Default: the
    /// engine processes.
    #[arg(env = "CAJITAS_ANALYSES", value_name = "N", value_parser = text())]
    pub analyses: Option<String>,

    /// How many games against the computer one person may have in progress per server
    /// (1 to 100). Default: 2.
    #[arg(env = "CAJITAS_ENGINE_GAMES_PER_USER", value_name = "N", value_parser = text())]
    pub engine_games_per_user: Option<String>,

    /// Where to serve Prometheus metrics: IP:PORT, or a bare PORT for 127.0.0.1:PORT. Unset or
    /// empty: no metrics, nothing listens.
    #[arg(env = METRICS_VAR, value_name = "ADDRESS", value_parser = text())]
    pub metrics: Option<String>,

    /// The log filter (e.g. info, debug, cajitas=debug). Default, and what empty means:
    /// info,serenity=warn (`cajitas local`: warn).
    #[arg(env = "RUST_LOG", value_name = "FILTER", value_parser = text())]
    pub rust_log: Option<String>,

    /// The system's program search path, where a bare CAJITAS_ENGINE (or `stockfish`) is
    /// looked for, as a shell does. Not Cajitas's own: hidden, and not in `.env.example`.
    #[arg(env = "PATH", hide = true, value_name = "PATH")]
    pub path: Option<OsString>,
}

impl Settings {
    /// Every variable, from the environment (load `./.env` first: [`super::load_dotenv`]).
    ///
    /// Every value is taken as text (one that is not Unicode counts as unset, as
    /// `std::env::var` had it), but those of `CAJITAS_DB` and `DISCORD_GUILD_ID`, which the
    /// commands' flags read as before: such a value of either ends the program with clap's
    /// message and exit status 2.
    pub fn from_env() -> Settings {
        <Settings as clap::Parser>::try_parse_from(std::iter::empty::<OsString>())
            .unwrap_or_else(|e| e.exit())
    }
}

/// A variable's value as text: one that is not Unicode is empty, which every setting reads as
/// unset.
fn text() -> impl TypedValueParser<Value = String> {
    OsStringValueParser::new().map(|raw| raw.into_string().unwrap_or_default())
}

/// `--guild-id` over `DISCORD_GUILD_ID`: the one declaration of the guild setting, flattened
/// into [`Settings`] and into `cajitas run`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct GuildArg {
    /// Register the slash commands in this guild only (instant, for development); empty
    /// means globally.
    #[arg(
        long,
        env = "DISCORD_GUILD_ID",
        hide_env_values = true,
        value_name = "ID"
    )]
    pub guild_id: Option<String>,
}

/// `--db` over `CAJITAS_DB` over `cajitas.db`: the one declaration of the database setting,
/// flattened into [`Settings`] and into the commands that open a database (`run`, `local`,
/// `ratings rebuild`).
#[derive(Debug, Clone, clap::Args)]
pub struct DbArg {
    /// The database: a SQLite file, or a PostgreSQL URL (`postgres://…`) or libpq
    /// keyword/value string (`host=… dbname=…`), which several bot processes can share.
    #[arg(long, env = "CAJITAS_DB", hide_env_values = true, default_value = DEFAULT_DB,
          value_parser = parse_db)]
    pub db: Database,
}

impl Default for DbArg {
    fn default() -> Self {
        DbArg {
            db: Database::Sqlite(DEFAULT_DB.into()),
        }
    }
}
