//! How much the game layer costs per move: `Game::play` (legality check, repetition key
//! and count back to the last irreversible move, automatic endings) against a bare
//! `Position::play_unchecked`, and against the same bookkeeping done with shakmaty
//! (legality check, its Zobrist hash with legal en passant, a scan back to the last
//! capture or pawn move, `outcome()`, the 75-move count).
//!
//! Run with `cargo bench -p cajitas-rules --bench game`. Prints the median of 9 interleaved
//! rounds in nanoseconds per ply for each, and the ratio.

use std::time::Instant;

use cajitas_rules::{Game, Move, Position};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position as _};

/// A small deterministic generator (xorshift64*), so every run replays the same games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn uci(m: Move) -> String {
    let promo = m
        .promotion()
        .map(|r| r.char().to_string())
        .unwrap_or_default();
    format!("{}{}{}", m.from(), m.to(), promo)
}

/// Random games played to their end (or 300 plies), preferring quiet moves so that
/// repetitions and long reversible stretches happen, as in real endgames.
fn random_games(count: usize) -> Vec<Vec<Move>> {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    (0..count)
        .map(|_| {
            let mut game = Game::new();
            while game.outcome().is_none() && game.ply() < 300 {
                let moves = game.position().legal_moves();
                let quiet: Vec<Move> = moves.iter().copied().filter(|m| !m.is_zeroing()).collect();
                let m = if !quiet.is_empty() && rng.below(4) != 0 {
                    quiet[rng.below(quiet.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                game.play(m);
            }
            game.moves().to_vec()
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs every variant once per round, `ROUNDS` interleaved rounds (so a burst of load on
/// the machine hits all of them alike), and returns each one's median in ns per ply.
fn interleaved(plies: usize, runs: &mut [&mut dyn FnMut() -> u64]) -> Vec<f64> {
    const ROUNDS: usize = 9;
    let mut samples = vec![Vec::new(); runs.len()];
    let mut sink = 0u64;
    for _ in 0..ROUNDS {
        for (run, out) in runs.iter_mut().zip(samples.iter_mut()) {
            let t = Instant::now();
            sink = sink.wrapping_add(run());
            out.push(t.elapsed().as_nanos() as f64 / plies as f64);
        }
    }
    std::hint::black_box(sink);
    samples.into_iter().map(median).collect()
}

fn main() {
    let games = random_games(1000);
    let plies: usize = games.iter().map(Vec::len).sum();
    let shak_games: Vec<Vec<shakmaty::Move>> = games
        .iter()
        .map(|moves| {
            let mut pos = Chess::default();
            moves
                .iter()
                .map(|&m| {
                    let sm = uci(m)
                        .parse::<shakmaty::uci::UciMove>()
                        .unwrap()
                        .to_move(&pos)
                        .unwrap();
                    pos.play_unchecked(sm);
                    sm
                })
                .collect()
        })
        .collect();

    let mut bare = || {
        let mut n = 0;
        for moves in &games {
            let mut pos = Position::new();
            for &m in moves {
                pos.play_unchecked(m);
            }
            n += u64::from(pos.halfmoves());
        }
        n
    };
    let mut movegen = || {
        let mut n = 0;
        for moves in &games {
            let mut pos = Position::new();
            for &m in moves {
                n += pos.legal_moves().len() as u64;
                pos.play_unchecked(m);
            }
        }
        n
    };
    let mut ours = || {
        let mut n = 0;
        for moves in &games {
            let mut game = Game::new();
            for &m in moves {
                game.play(m);
            }
            n += u64::from(game.repetitions()) + u64::from(game.outcome().is_some());
        }
        n
    };
    let mut shak = || {
        let mut n = 0;
        for moves in &shak_games {
            let mut pos = Chess::default();
            let mut keys: Vec<u64> = vec![pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0];
            let mut reps = 1;
            let mut over = false;
            for &m in moves {
                assert!(pos.is_legal(m));
                pos.play_unchecked(m);
                if pos.halfmoves() == 0 {
                    keys.clear();
                }
                let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
                reps = 1 + keys
                    .iter()
                    .rev()
                    .skip(1)
                    .step_by(2)
                    .filter(|&&k| k == key)
                    .count();
                keys.push(key);
                over = pos.outcome().is_known() || reps >= 5 || pos.halfmoves() >= 150;
            }
            n += reps as u64 + u64::from(over);
        }
        n
    };
    let figures = interleaved(plies, &mut [&mut bare, &mut movegen, &mut ours, &mut shak]);
    let [bare, movegen, ours, shak] = figures[..] else {
        unreachable!()
    };
    println!(
        "game layer, {} random games, {plies} plies (median of 9 interleaved rounds)",
        games.len()
    );
    println!("  Position::play_unchecked (no bookkeeping): {bare:8.1} ns/ply");
    println!("  Position::legal_moves + play_unchecked:    {movegen:8.1} ns/ply");
    println!("  cajitas Game::play:                        {ours:8.1} ns/ply");
    println!("  shakmaty, same bookkeeping:                {shak:8.1} ns/ply");
    println!(
        "  ratio shakmaty / cajitas Game::play:       {:8.2}x",
        shak / ours
    );
}
