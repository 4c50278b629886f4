//! The level ladder: fast games between neighbouring levels of `/play` (1 v 2, 2 v 3, …,
//! 7 v 8), 20 each with colours alternating, and the higher level's score, which must be
//! above 50% for every pair. A table is printed.
//!
//! "Fast": each level keeps its Skill Level, depth and random-move rate, but searches a tenth
//! of its node budget (at least 1,000 nodes), so the ladder runs in minutes. A game ends by the
//! rules (mate, stalemate, dead position, fivefold, 75 moves; a threefold repetition or the
//! 50-move rule is claimed at once), or is adjudicated as engine matches are (cutechess-cli's
//! `-resign movecount=3 score=600 twosided=true` and `-draw movenumber=40 movecount=8
//! score=10`): a win when both engines' last three searches each (six plies running) put the
//! same side 600 centipawns or a mate ahead; a draw from move 40 on when the last sixteen
//! plies' searches all lie within 10 centipawns of level. After 200 plies a game is
//! adjudicated by material (3 points or more ahead wins; otherwise a draw). The adjudication
//! ends lost and dead-level games early, which is where the top pairs spent most of the time.
//!
//! First, the analysis of a 60-move game (`benches/data/sixty-moves.pgn`, 121 positions) at
//! the default budget (100,000 nodes per position) on the default pool (the cores less
//! one): target ≤ 20 s.
//!
//! Run with `cargo bench --bench engine_ladder` (Stockfish must be installed; without an
//! engine it says so and exits 0). `LADDER_GAMES=N` changes the games per pair,
//! `LADDER_FROM=N` starts at the pair N+1 v N, and `LADDER_SKIP_ANALYSIS` (set, any value)
//! leaves out the analysis timing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cajitas::config::EngineSettings;
use cajitas::engine::{Level, Limits, Pool, Score, SearchRequest, pool_from};
use cajitas_rules::{Color, Game, Outcome, Piece, Role, Uci};

const MAX_PLIES: usize = 200;
/// Win adjudication: plies running whose searches agree, and the margin.
const RESIGN_PLIES: usize = 6;
const RESIGN_CP: i32 = 600;
/// Draw adjudication: from this ply, plies running whose searches lie within the margin.
const DRAW_FROM_PLY: usize = 80;
const DRAW_PLIES: usize = 16;
const DRAW_CP: i32 = 10;

/// A search's score from White's point of view, in centipawns (a mate counts as 100,000).
fn white_cp(score: Score, mover: Color) -> i32 {
    let cp = match score {
        Score::Cp(cp) => cp,
        Score::Mate(m) if m > 0 => 100_000,
        Score::Mate(_) => -100_000,
    };
    if mover == Color::White { cp } else { -cp }
}

/// The adjudicated score for White, if the last searches decide the game (`scores[i]` is
/// ply i's search from White's view; `None` for a random move or no score).
fn adjudicate(scores: &[Option<i32>]) -> Option<f64> {
    let last = |n: usize| -> Option<Vec<i32>> {
        (scores.len() >= n)
            .then(|| {
                scores[scores.len() - n..]
                    .iter()
                    .copied()
                    .collect::<Option<Vec<_>>>()
            })
            .flatten()
    };
    if let Some(s) = last(RESIGN_PLIES) {
        if s.iter().all(|&cp| cp >= RESIGN_CP) {
            return Some(1.0);
        }
        if s.iter().all(|&cp| cp <= -RESIGN_CP) {
            return Some(0.0);
        }
    }
    if scores.len() >= DRAW_FROM_PLY
        && last(DRAW_PLIES).is_some_and(|s| s.iter().all(|cp| cp.abs() <= DRAW_CP))
    {
        return Some(0.5);
    }
    None
}

fn material(game: &Game) -> i32 {
    let board = game.position().board();
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(role, v)| {
        let w = board
            .by_piece(Piece {
                color: Color::White,
                role,
            })
            .count() as i32;
        let b = board
            .by_piece(Piece {
                color: Color::Black,
                role,
            })
            .count() as i32;
        v * (w - b)
    })
    .sum()
}

/// White's score (1, ½ or 0) in a fast game between `white` and `black`.
fn play(pool: &Pool, white: Level, black: Level, seed: u64) -> f64 {
    let mut game = Game::new();
    let start_fen = game.position().fen();
    let mut moves: Vec<String> = Vec::new();
    let mut scores: Vec<Option<i32>> = Vec::new();
    loop {
        if let Some(o) = game.outcome() {
            return match o {
                Outcome::Decisive {
                    winner: Color::White,
                    ..
                } => 1.0,
                Outcome::Decisive { .. } => 0.0,
                Outcome::Draw { .. } => 0.5,
            };
        }
        if let Some(score) = adjudicate(&scores) {
            return score;
        }
        if !game.claimable_now().is_empty() || moves.len() >= MAX_PLIES {
            let m = material(&game);
            return if m >= 3 {
                1.0
            } else if m <= -3 {
                0.0
            } else {
                0.5
            };
        }
        let pos = game.position().clone();
        let level = if pos.turn() == Color::White {
            white
        } else {
            black
        };
        let mover = pos.turn();
        let (mv, score) = match level.random_move(seed, moves.len() as u32, &pos) {
            Some(m) => (m, None),
            None => {
                let limits = level.limits();
                let ask = || {
                    pool.search(SearchRequest {
                        person: seed,
                        requester: seed,
                        start_fen: start_fen.clone(),
                        moves: moves.clone(),
                        position: pos.clone(),
                        limits: Limits {
                            movetime: (limits.movetime / 10).max(Duration::from_millis(10)),
                            nodes: limits.nodes.map(|n| (n / 10).max(1_000)),
                            ..limits
                        },
                        deadline: Instant::now() + Duration::from_secs(60),
                    })
                };
                // A niced engine on a busy machine may miss its budget: the pool already
                // retried once; ask twice more before giving up.
                match ask().or_else(|_| ask()).or_else(|_| ask()) {
                    Ok(f) => (f.best, f.score.map(|s| white_cp(s, mover))),
                    Err(e) => panic!("engine failed three times: {e}"),
                }
            }
        };
        scores.push(score);
        moves.push(Uci::from_move(mv).to_string());
        game.play(mv);
    }
}

fn main() {
    let settings = match EngineSettings::from_env() {
        Ok(s) if s.program.is_some() => s,
        _ => {
            // CI requires the engine: the ladder then fails rather than skip.
            assert!(
                !std::env::var("CAJITAS_REQUIRE_ENGINE")
                    .is_ok_and(|v| !matches!(v.trim(), "" | "0")),
                "engine_ladder: no chess engine on this machine, and CAJITAS_REQUIRE_ENGINE is set"
            );
            println!(
                "engine_ladder: SKIPPED, no chess engine on this machine (apt-get install stockfish)"
            );
            return;
        }
    };
    let games: u64 = std::env::var("LADDER_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    if std::env::var("LADDER_SKIP_ANALYSIS").is_err() {
        let pgn = include_str!("data/sixty-moves.pgn");
        let game = cajitas_rules::pgn::read_game(pgn, cajitas_rules::Lang::En).unwrap();
        let pool = pool_from(&settings).unwrap();
        let t0 = Instant::now();
        let a =
            cajitas::engine::analyse(&pool, &game.game, Default::default(), 0, |_, _| {}).unwrap();
        let secs = t0.elapsed().as_secs_f64();
        println!(
            "analysis of a {}-move game: {} positions in {secs:.1} s on {} process(es) (target <= 20 s: {})",
            game.game.moves().len() / 2,
            a.evals.len(),
            settings.processes,
            if secs <= 20.0 { "met" } else { "NOT met" }
        );
    }
    let workers = 2;
    let Some(pool) = pool_from(&EngineSettings {
        processes: workers,
        ..settings
    }) else {
        return;
    };
    let pool = Arc::new(pool);
    println!("{games} fast games per pair, colours alternating; the higher level's score:");
    println!(
        "{:>7} {:>6} {:>6} {:>6} {:>7} {:>8}",
        "pair", "wins", "draws", "losses", "score", "time"
    );
    let mut all_above = true;
    let t_all = Instant::now();
    // `LADDER_FROM=N` starts at the pair N+1 v N.
    let from: u8 = std::env::var("LADDER_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .clamp(1, 7);
    for low in from..8u8 {
        let high = low + 1;
        let t0 = Instant::now();
        // Two games at a time, one per engine process.
        let scores: Vec<f64> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..workers as u64)
                .map(|w| {
                    let pool = Arc::clone(&pool);
                    s.spawn(move || {
                        (0..games)
                            .filter(|g| g % workers as u64 == w)
                            .map(|g| {
                                let seed = u64::from(low) * 1_000 + g;
                                let (hi, lo) = (Level::get(high), Level::get(low));
                                if g % 2 == 0 {
                                    play(&pool, hi, lo, seed)
                                } else {
                                    1.0 - play(&pool, lo, hi, seed)
                                }
                            })
                            .collect::<Vec<f64>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        let wins = scores.iter().filter(|&&s| s == 1.0).count();
        let draws = scores.iter().filter(|&&s| s == 0.5).count();
        let losses = scores.len() - wins - draws;
        let score = scores.iter().sum::<f64>() / scores.len() as f64;
        all_above &= score > 0.5;
        println!(
            "{:>7} {:>6} {:>6} {:>6} {:>6.0}% {:>7.0}s",
            format!("{high} v {low}"),
            wins,
            draws,
            losses,
            score * 100.0,
            t0.elapsed().as_secs_f64()
        );
    }
    println!(
        "every higher level above 50%: {} ({:.0} s in all)",
        if all_above { "yes" } else { "NO" },
        t_all.elapsed().as_secs_f64()
    );
}
