//! The chess engine: Stockfish (or any UCI engine) as a subprocess, never linked.
//!
//! - [`uci`]: one process, its handshake and searches, every line it prints length-capped;
//! - [`pool`]: the processes all games share, a fair queue with deadlines, crash and hang
//!   recovery (kill, restart, one retry), and the rules' check of every move;
//! - [`levels`]: the eight strengths of `/play`;
//! - [`player`]: the computer as a player in the game service's games;
//! - [`analysis`]: a finished game's evaluations and lichess's judgement of each move;
//! - [`searcher`]: the server's finished games searched for puzzles, at idle priority;
//! - [`queue`]: who may analyse now (one analysis per person, a few at once, the rest
//!   waiting with their place).
//!
//! All of it runs on threads of its own, never on the async runtime nor on the service's
//! blocking pool, so a thinking engine never delays a person's game.

pub mod analysis;
pub mod levels;
pub mod player;
pub mod pool;
pub mod puzzler;
pub mod queue;
pub mod report;
pub mod searcher;
pub mod uci;

use std::time::Duration;

pub use self::analysis::{Analysis, Budget, Eval, Judgement, analyse};
pub use self::levels::{LEVELS, Level};
pub use self::player::{EnginePlayer, PreparedPlayer};
pub use self::pool::{EngineError, Pool, PoolConfig, PvLine, SearchRequest, SearchResult};
pub use self::queue::{AlreadyAnalysing, AnalysisQueue, AnalysisTicket};
pub use self::uci::{EngineCommand, Limits, Score};
use crate::config::EngineSettings;

/// How much longer than its move time a search may take before the process counts as hung.
/// Generous: a process at `nice 19` on a busy machine may wait seconds for a core, and a
/// restart (loading the network again) costs more than the wait.
pub const DEFAULT_MARGIN: Duration = Duration::from_secs(5);

/// The name the computer plays under: its program's file name, capitalised (`stockfish` →
/// `Stockfish`, `/opt/lc0/lc0` → `Lc0`), at most 24 characters, of letters, digits, `.`,
/// `-`, `_` and `+` only (a file name is the operator's, but it is shown to everyone);
/// [`ENGINE_NAME`](crate::game::ENGINE_NAME) when nothing is left.
pub fn display_name(program: &std::path::Path) -> String {
    let stem = program
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let kept: String = stem
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | '+'))
        .take(24)
        .collect();
    let mut chars = kept.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => crate::game::ENGINE_NAME.to_owned(),
    }
}

/// The name the configured engine plays under ([`display_name`] of its program).
pub fn player_name(settings: &EngineSettings) -> String {
    settings
        .program
        .as_deref()
        .map(display_name)
        .unwrap_or_else(|| crate::game::ENGINE_NAME.to_owned())
}

/// The pool for the configured engine, or `None` when there is no engine.
pub fn pool_from(settings: &EngineSettings) -> Option<Pool> {
    let program = settings.program.clone()?;
    Some(Pool::new(PoolConfig {
        command: EngineCommand {
            program,
            args: Vec::new(),
            nice: true,
        },
        processes: settings.processes,
        hash_mb: settings.hash_mb,
        threads: settings.threads,
        margin: DEFAULT_MARGIN,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_plays_under_its_programs_name() {
        let name = |p: &str| display_name(std::path::Path::new(p));
        assert_eq!(name("/usr/games/stockfish"), "Stockfish");
        assert_eq!(name("stockfish"), "Stockfish");
        assert_eq!(name("/opt/lc0/lc0"), "Lc0");
        assert_eq!(name("/opt/e/berserk-13+avx2"), "Berserk-13+avx2");
        // Nothing a message could be spoofed with: no spaces, markup or control characters.
        assert_eq!(name("/x/@every one*\u{1b}[31m"), "Everyone31m");
        assert_eq!(name(&"a".repeat(100)).chars().count(), 24);
        assert_eq!(name("/"), "Stockfish");
    }
}
