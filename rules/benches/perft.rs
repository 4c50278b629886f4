//! Bulk-counting perft, single-threaded, in one process: cajitas-rules against
//! shakmaty, cozy-chess and chess on the initial position (depth 6) and Kiwipete
//! (depth 5). Prints the median Mnps of each over several interleaved rounds and the
//! ratio of ours to the fastest peer; asserts every node count.
//!
//! Run with `cargo bench -p cajitas-rules` (release, LTO). `CAJITAS_BENCH_ROUNDS`
//! sets the number of rounds (default 5).

use std::hint::black_box;
use std::time::Instant;

const CASES: &[(&str, &str, u32, u64)] = &[
    (
        "start, depth 6",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        119_060_324,
    ),
    (
        "Kiwipete, depth 5",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    ),
];

fn ours(fen: &str, depth: u32) -> u64 {
    let pos = cajitas_rules::Position::from_fen(fen).unwrap();
    cajitas_rules::perft(black_box(&pos), depth)
}

fn shakmaty(fen: &str, depth: u32) -> u64 {
    use shakmaty::{CastlingMode, Chess, fen::Fen};
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    shakmaty::perft(black_box(&pos), depth)
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

fn cozy(fen: &str, depth: u32) -> u64 {
    let board = cozy_chess::Board::from_fen(fen, false).unwrap();
    cozy_perft(black_box(&board), depth)
}

fn chess(fen: &str, depth: u32) -> u64 {
    use std::str::FromStr;
    let board = chess::Board::from_str(fen).unwrap();
    chess::MoveGen::movegen_perft_test(black_box(&board), depth as usize) as u64
}

type Perft = fn(&str, u32) -> u64;

const ENGINES: &[(&str, Perft)] = &[
    ("cajitas-rules", ours),
    ("shakmaty 0.30.1", shakmaty),
    ("cozy-chess 0.3", cozy),
    ("chess 3.2", chess),
];

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would pass nothing useful.
    let rounds: usize = std::env::var("CAJITAS_BENCH_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5)
        .max(1);
    // Warm up lazily built tables (ours and the peers') outside the timings.
    for (_, f) in ENGINES {
        f(CASES[0].1, 2);
    }
    println!("bulk-counting perft, single-threaded, median of {rounds} interleaved rounds");
    let mut ok = true;
    for &(name, fen, depth, expected) in CASES {
        let mut samples: Vec<Vec<f64>> = vec![Vec::new(); ENGINES.len()];
        for _ in 0..rounds {
            for (i, (engine, f)) in ENGINES.iter().enumerate() {
                let t = Instant::now();
                let nodes = f(fen, depth);
                let secs = t.elapsed().as_secs_f64();
                assert_eq!(nodes, expected, "{engine} on {name}");
                samples[i].push(nodes as f64 / secs / 1e6);
            }
        }
        println!("\n{name} ({expected} nodes)");
        let medians: Vec<f64> = samples.iter_mut().map(|s| median(s)).collect();
        for ((engine, _), (m, s)) in ENGINES.iter().zip(medians.iter().zip(&samples)) {
            let lo = s.first().copied().unwrap_or(0.0);
            let hi = s.last().copied().unwrap_or(0.0);
            println!("  {engine:<16} {m:>7.1} Mnps  (min {lo:.1}, max {hi:.1})");
        }
        let (best_i, best) =
            medians
                .iter()
                .enumerate()
                .skip(1)
                .fold(
                    (0, 0.0f64),
                    |acc, (i, &m)| if m > acc.1 { (i, m) } else { acc },
                );
        let ratio = medians[0] / best;
        println!(
            "  ratio cajitas-rules / fastest peer ({}): {ratio:.2}x",
            ENGINES[best_i].0
        );
        ok &= ratio >= 1.0;
    }
    println!(
        "\ntarget >= 1.00x on both positions: {}",
        if ok { "met" } else { "NOT met" }
    );
}
