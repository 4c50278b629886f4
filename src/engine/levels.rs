//! The eight levels of the computer, after lichess's AI levels (fishnet: Skill Level, move
//! time and depth), with each move time turned into a node budget: the nodes one Stockfish
//! thread searches in that time at [`REFERENCE_NPS`]. A level searches its nodes however
//! loaded the machine is (a move time would give a busy machine's engine fewer nodes, so a
//! weaker move), and the depth cap of lichess's level still applies. Debian's Stockfish 15.1 takes Skill Level 0–20 only, and its weakest
//! setting already chooses among moves at depth 1: levels 1–3 play Skill Level 0 and,
//! with a probability that falls with the level, a uniformly random legal move instead,
//! drawn from a generator seeded by the game and the ply (so a retried move is the same).

use std::time::Duration;

use cajitas_rules::{Move, Position};

use super::uci::Limits;

/// One level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level {
    /// 1–8.
    pub level: u8,
    /// Stockfish's `Skill Level` (0–20).
    pub skill: u8,
    /// lichess's time to think, from which [`Level::nodes`] is derived.
    pub movetime: Duration,
    /// The nodes to search.
    pub nodes: u64,
    /// The deepest depth.
    pub depth: u32,
    /// The probability of a random legal move instead of the engine's.
    pub random: f64,
}

/// See [`Level::time_cap`].
pub const TIME_CAP_FACTOR: u32 = 10;
/// See [`Level::time_cap`].
pub const MIN_TIME_CAP: Duration = Duration::from_secs(2);

/// The search speed that turns lichess's move times into node budgets: about what one
/// Stockfish 15.1 thread searches in a second on this project's machines.
pub const REFERENCE_NPS: u64 = 1_000_000;

const fn level(level: u8, skill: u8, ms: u64, depth: u32, random: f64) -> Level {
    Level {
        level,
        skill,
        movetime: Duration::from_millis(ms),
        nodes: ms * REFERENCE_NPS / 1000,
        depth,
        random,
    }
}

/// Levels 1 to 8. lichess's Skill Levels −9, −5 and −1 (levels 1–3) do not exist in
/// Stockfish 15.1: those levels play Skill Level 0 with random moves mixed in. Measured
/// against each other with `cargo bench --bench engine_ladder`.
pub const LEVELS: [Level; 8] = [
    level(1, 0, 50, 5, 0.5),
    level(2, 0, 100, 5, 0.3),
    level(3, 0, 150, 5, 0.15),
    level(4, 3, 200, 5, 0.0),
    level(5, 7, 300, 5, 0.0),
    level(6, 11, 400, 8, 0.0),
    level(7, 16, 500, 13, 0.0),
    level(8, 20, 1000, 22, 0.0),
];

impl Level {
    /// Level `n` (clamped to 1–8).
    pub fn get(n: u8) -> Level {
        LEVELS[usize::from(n.clamp(1, 8)) - 1]
    }

    /// The longest a search at this level may take: [`TIME_CAP_FACTOR`] times lichess's move
    /// time, at least [`MIN_TIME_CAP`]. Only an engine starved of CPU reaches it (then it
    /// plays its best move so far, as a move time would); otherwise the nodes end the search.
    pub fn time_cap(&self) -> Duration {
        (self.movetime * TIME_CAP_FACTOR).max(MIN_TIME_CAP)
    }

    /// What the engine's search is limited by at this level.
    pub fn limits(&self) -> Limits {
        Limits {
            movetime: self.time_cap(),
            nodes: Some(self.nodes),
            depth: Some(self.depth),
            skill: Some(self.skill),
            fresh: false,
        }
    }

    /// The random move this level plays in game `seed` at `ply` instead of asking the
    /// engine, if it does: the same every time for the same game, ply and position.
    pub fn random_move(&self, seed: u64, ply: u32, pos: &Position) -> Option<Move> {
        if self.random <= 0.0 {
            return None;
        }
        let mut rng = fastrand::Rng::with_seed(
            seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ u64::from(ply).wrapping_mul(0xD1B5_4A32_D192_ED03),
        );
        if rng.f64() >= self.random {
            return None;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        Some(moves[rng.usize(..moves.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_moves_are_legal_seeded_and_at_the_level_s_rate() {
        let pos = Position::new();
        let l1 = Level::get(1);
        let mut random = 0;
        for ply in 0..2000 {
            let m = l1.random_move(7, ply, &pos);
            assert_eq!(
                m,
                l1.random_move(7, ply, &pos),
                "the same game and ply draw the same"
            );
            if let Some(m) = m {
                assert!(pos.is_legal(m));
                random += 1;
            }
        }
        assert!(
            (850..1150).contains(&random),
            "level 1 plays about half random: {random}"
        );
        assert!((0..100).all(|p| Level::get(4).random_move(1, p, &pos).is_none()));
        assert_eq!(Level::get(0).level, 1);
        // Levels search nodes, not time: level 8 a million, level 4 two hundred thousand.
        assert_eq!(Level::get(8).limits().nodes, Some(1_000_000));
        assert_eq!(
            Level::get(4).limits().go(),
            "go nodes 200000 movetime 2000 depth 5"
        );
        assert_eq!(Level::get(8).time_cap(), Duration::from_secs(10));
        assert_eq!(Level::get(200).level, 8);
    }
}
