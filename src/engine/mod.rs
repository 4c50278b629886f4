//! The chess engine: Stockfish (or any UCI engine) as a subprocess, never linked.
//!
//! - [`uci`]: one process, its handshake and searches, every line it prints length-capped;
//! - [`pool`]: the processes all games share, a fair queue with deadlines, crash and hang
//!   recovery (kill, restart, one retry), and the rules' check of every move;
//! - [`levels`]: the eight strengths of `/play`;
//! - [`player`]: the computer as a player in the game service's games;
//! - [`analysis`]: a finished game's evaluations and lichess's judgement of each move.
//!
//! All of it runs on threads of its own, never on the async runtime nor on the service's
//! blocking pool, so a thinking engine never delays a person's game.

pub mod analysis;
pub mod levels;
pub mod player;
pub mod pool;
pub mod report;
pub mod uci;

use std::time::Duration;

pub use self::analysis::{Analysis, Budget, Eval, Judgement, analyse};
pub use self::levels::{LEVELS, Level};
pub use self::player::EnginePlayer;
pub use self::pool::{EngineError, Pool, PoolConfig, SearchRequest, SearchResult};
pub use self::uci::{EngineCommand, Limits, Score};
use crate::config::EngineSettings;

/// How much longer than its move time a search may take before the process counts as hung.
/// Generous: a process at `nice 19` on a busy machine may wait seconds for a core, and a
/// restart (loading the network again) costs more than the wait.
pub const DEFAULT_MARGIN: Duration = Duration::from_secs(5);

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
