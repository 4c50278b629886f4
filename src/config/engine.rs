//! The chess engine's settings: which program (found the way a shell finds one), how many
//! processes, their hash and threads, and the limits of analyses and of games per person.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::{ConfigError, Settings};

/// The default of `CAJITAS_ANALYSIS_NODES`: see the README's "Playing the computer and
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

impl EngineSettings {
    /// The settings from the environment: [`Settings::from_env`], then
    /// [`EngineSettings::try_from`] (for the tools and tests that need only the engine).
    pub fn from_env() -> Result<EngineSettings, ConfigError> {
        EngineSettings::try_from(&Settings::from_env())
    }
}

impl TryFrom<&Settings> for EngineSettings {
    type Error = ConfigError;

    /// The engine's variables checked, in this order: the program, the processes, hash and
    /// threads, then the limits (the number of analyses at once defaults to the processes).
    fn try_from(s: &Settings) -> Result<EngineSettings, ConfigError> {
        let program = find_engine(
            s.engine.as_deref(),
            s.path.as_deref(),
            Path::new(DEBIAN_STOCKFISH),
        )?;
        let processes = number_in(
            "CAJITAS_ENGINE_PROCESSES",
            s.engine_processes.as_deref(),
            1..=64,
            default_engine_processes(),
        )?;
        Ok(EngineSettings {
            program,
            processes,
            hash_mb: number_in(
                "CAJITAS_ENGINE_HASH",
                s.engine_hash.as_deref(),
                1..=4096,
                16,
            )?,
            threads: number_in(
                "CAJITAS_ENGINE_THREADS",
                s.engine_threads.as_deref(),
                1..=64,
                1,
            )?,
            analysis_nodes: number_in(
                "CAJITAS_ANALYSIS_NODES",
                s.analysis_nodes.as_deref(),
                1_000..=1_000_000_000,
                DEFAULT_ANALYSIS_NODES,
            )?,
            analyses: number_in(
                "CAJITAS_ANALYSES",
                s.analyses.as_deref(),
                1..=256,
                processes,
            )?,
            games_per_user: number_in(
                "CAJITAS_ENGINE_GAMES_PER_USER",
                s.engine_games_per_user.as_deref(),
                1..=100,
                crate::game::DEFAULT_ENGINE_GAMES_PER_USER,
            )?,
        })
    }
}

/// A number in `range` (`default` when unset or blank); otherwise the error naming `var`.
pub(super) fn number_in<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    var: &'static str,
    raw: Option<&str>,
    range: std::ops::RangeInclusive<T>,
    default: T,
) -> Result<T, ConfigError> {
    match raw.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(default),
        Some(text) => match text.parse::<T>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(ConfigError::BadNumber {
                var,
                min: range.start().to_string(),
                max: range.end().to_string(),
                value: text.chars().take(40).collect(),
            }),
        },
    }
}

/// Finds the engine: `explicit` (`CAJITAS_ENGINE`) when given, which must then be a file,
/// or a bare program name found in the folders of `path` (or `off`: no engine, even when one
/// is installed); otherwise `stockfish` in the folders of `path` (`PATH`); otherwise `debian`
/// when it is a file.
pub(super) fn find_engine(
    explicit: Option<&OsStr>,
    path: Option<&OsStr>,
    debian: &Path,
) -> Result<Option<PathBuf>, ConfigError> {
    if explicit.is_some_and(|p| p == "off") {
        return Ok(None);
    }
    let on_path = |name: &Path| {
        path.into_iter()
            .flat_map(std::env::split_paths)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    };
    if let Some(p) = explicit.filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        // A bare name (`stockfish`) is looked up on PATH, as a shell does; Debian's place
        // is still tried for `stockfish` (root's PATH lacks /usr/games).
        let bare = p.components().count() == 1 && p.parent() == Some(Path::new(""));
        let found = if bare {
            on_path(&p).or_else(|| {
                (debian.file_name() == Some(p.as_os_str()) && debian.is_file())
                    .then(|| debian.to_path_buf())
            })
        } else {
            p.is_file().then(|| p.clone())
        };
        let shown = p.display().to_string();
        return found.map(Some).ok_or(if bare {
            ConfigError::EngineNotOnPath(shown)
        } else {
            ConfigError::EngineNotAFile(shown)
        });
    }
    if let Some(found) = on_path(Path::new("stockfish")) {
        return Ok(Some(found));
    }
    Ok(debian.is_file().then(|| debian.to_path_buf()))
}
