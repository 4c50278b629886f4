//! Configuration in layers: defaults, then `.env`, then the environment, then
//! command-line flags.
//!
//! Secrets (the Discord token) come only from the environment or `.env`: there is no
//! flag for them, and their `Debug` output is redacted so they never reach a log.

use std::fmt;
use std::path::PathBuf;

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

/// Parses a database path for clap: an empty value (as in `CAJITAS_DB=` in `.env`) means
/// the default, [`DEFAULT_DB`].
pub fn parse_db_path(raw: &str) -> Result<PathBuf, std::convert::Infallible> {
    let raw = raw.trim();
    Ok(PathBuf::from(if raw.is_empty() { DEFAULT_DB } else { raw }))
}

/// Everything `cajitas run` needs.
#[derive(Debug, Clone)]
pub struct BotConfig {
    /// The bot token (redacted in `Debug`).
    pub token: Secret,
    /// Register commands in this guild only (instant, for development).
    pub guild_id: Option<u64>,
    /// The SQLite database file.
    pub db_path: PathBuf,
    /// Tests only: the REST base URL of a fake Discord (no `/api/v10`, no trailing slash).
    pub api_base: Option<String>,
}

impl BotConfig {
    /// Logs what the bot is about to use, never the token.
    pub fn log_summary(&self) {
        tracing::info!(
            guild_id = ?self.guild_id,
            db = %self.db_path.display(),
            api_base = ?self.api_base,
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
        assert_eq!(parse_db_path(""), Ok(PathBuf::from(DEFAULT_DB)));
        assert_eq!(parse_db_path("x.db"), Ok(PathBuf::from("x.db")));
    }

    #[test]
    fn debug_output_redacts_the_token() {
        let token = "MTAw.secret-token-value.xyz";
        let cfg = BotConfig {
            token: Secret::new(token),
            guild_id: Some(7),
            db_path: PathBuf::from("x.db"),
            api_base: None,
        };
        let debug = format!("{cfg:?} {cfg:#?} {}", cfg.token);
        assert!(!debug.contains(token), "{debug}");
        assert!(!debug.contains("secret-token"), "{debug}");
        assert!(debug.contains("redacted"));
    }

    #[test]
    fn missing_token_message_helps() {
        let msg = ConfigError::MissingToken.to_string();
        assert!(msg.contains(TOKEN_VAR));
        assert!(msg.contains("discord.com/developers"));
        assert!(msg.contains("cajitas local"));
    }
}

/// The variable naming a folder of 12 piece SVGs (`wK.svg` … `bP.svg`) to draw instead of
/// the built-in pieces.
pub const PIECES_VAR: &str = "CAJITAS_PIECES";

/// The piece folder from `CAJITAS_PIECES`; unset or empty (as in `.env.example`) means the
/// built-in pieces.
pub fn pieces_dir_from_env() -> Option<std::path::PathBuf> {
    pieces_dir_from(std::env::var_os(PIECES_VAR))
}

/// [`pieces_dir_from_env`] on a given value: an empty value is no folder.
pub fn pieces_dir_from(raw: Option<std::ffi::OsString>) -> Option<std::path::PathBuf> {
    raw.filter(|v| !v.is_empty()).map(std::path::PathBuf::from)
}

#[cfg(test)]
mod pieces_dir_tests {
    use super::*;

    #[test]
    fn an_empty_pieces_setting_means_the_built_in_set() {
        assert_eq!(pieces_dir_from(None), None);
        assert_eq!(pieces_dir_from(Some("".into())), None);
        assert_eq!(
            pieces_dir_from(Some("/srv/cburnett".into())),
            Some(std::path::PathBuf::from("/srv/cburnett"))
        );
    }
}
