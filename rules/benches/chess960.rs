//! Bulk-counting perft in Chess960 against standard chess, on positions of similar
//! branching, single-threaded: cajitas-rules in both modes (the target: Chess960 within
//! 10% of standard), with shakmaty 0.30.1 in the same modes as a reference.
//!
//! Two pairs of position sets:
//! - start positions: eight Chess960 starts against the standard start, depth 5;
//! - middlegames: twelve positions reached by seeded random walks of 16 plies from
//!   Chess960 starts, against twelve reached the same way from the standard start,
//!   depth 5 (the average number of legal moves of each set is printed, to show the
//!   branching is alike).
//!
//! Every count is checked against shakmaty's. Prints the median Mnps of each over several
//! interleaved rounds and the ratio Chess960 / standard.
//!
//! Run with `cargo bench -p cajitas-rules --bench chess960` (release, LTO).
//! `CAJITAS_BENCH_ROUNDS` sets the number of rounds (default 5); `CAJITAS_BENCH_DEPTH`
//! the depth (default 5; 3 makes a quick check that everything agrees).

use std::hint::black_box;
use std::time::Instant;

use cajitas_rules::{CastlingMode, Chess960, Position, perft};

/// Chess960 start numbers (518, the standard one, is not among them): king on b to g,
/// rooks on the corners and inside.
const STARTS: [u32; 8] = [0, 105, 237, 381, 466, 666, 777, 959];

/// A small xorshift generator: seeded, reproducible, no dependency.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// `plies` random legal moves from `pos`; `None` when the game ends on the way.
fn walk(mut pos: Position, seed: u64, plies: usize) -> Option<Position> {
    let mut rng = XorShift(seed);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves[(rng.next() % moves.len() as u64) as usize];
        pos.play(m);
    }
    (pos.count_legal_moves() > 0).then_some(pos)
}

/// Twelve middlegames from `start(k)`, by random walks seeded 1, 2, ...
fn middlegames(start: impl Fn(usize) -> Position) -> Vec<Position> {
    let mut out = Vec::new();
    let mut seed = 1u64;
    while out.len() < 12 {
        if let Some(p) = walk(
            start(out.len()),
            seed.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            16,
        ) {
            out.push(p);
        }
        seed += 1;
    }
    out
}

fn shakmaty_position(pos: &Position) -> shakmaty::Chess {
    let mode = match pos.castling_mode() {
        CastlingMode::Standard => shakmaty::CastlingMode::Standard,
        CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
    };
    pos.shredder_fen()
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(mode)
        .unwrap()
}

struct Set {
    name: &'static str,
    positions: Vec<Position>,
    shakmaty: Vec<shakmaty::Chess>,
    expected: u64,
}

impl Set {
    fn new(name: &'static str, positions: Vec<Position>, depth: u32) -> Set {
        let shakmaty: Vec<_> = positions.iter().map(shakmaty_position).collect();
        let expected = shakmaty.iter().map(|p| shakmaty::perft(p, depth)).sum();
        Set {
            name,
            positions,
            shakmaty,
            expected,
        }
    }

    fn branching(&self) -> f64 {
        let moves: u64 = self.positions.iter().map(Position::count_legal_moves).sum();
        moves as f64 / self.positions.len() as f64
    }

    /// Mnps of ours, then of shakmaty, once.
    fn measure(&self, depth: u32) -> (f64, f64) {
        let t = Instant::now();
        let nodes: u64 = self
            .positions
            .iter()
            .map(|p| perft(black_box(p), depth))
            .sum();
        let ours = nodes as f64 / t.elapsed().as_secs_f64() / 1e6;
        assert_eq!(nodes, self.expected, "cajitas-rules on {}", self.name);
        let t = Instant::now();
        let nodes: u64 = self
            .shakmaty
            .iter()
            .map(|p| shakmaty::perft(black_box(p), depth))
            .sum();
        let theirs = nodes as f64 / t.elapsed().as_secs_f64() / 1e6;
        assert_eq!(nodes, self.expected, "shakmaty on {}", self.name);
        (ours, theirs)
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
        .max(1)
}

fn main() {
    let rounds = env("CAJITAS_BENCH_ROUNDS", 5);
    let depth = env("CAJITAS_BENCH_DEPTH", 5) as u32;
    let chess960 = |n: u32| Chess960::position(n).expect("a start number below 960");
    let pairs = [
        (
            Set::new(
                "Chess960 starts",
                STARTS.iter().map(|&n| chess960(n)).collect(),
                depth,
            ),
            Set::new("standard start", vec![Position::new()], depth),
        ),
        (
            Set::new(
                "Chess960 middlegames",
                middlegames(|k| chess960(STARTS[k % STARTS.len()])),
                depth,
            ),
            Set::new(
                "standard middlegames",
                middlegames(|_| Position::new()),
                depth,
            ),
        ),
    ];
    // Warm up the attack tables and caches (ours and shakmaty's) outside the timings.
    for (a, b) in &pairs {
        for set in [a, b] {
            for (p, q) in set.positions.iter().zip(&set.shakmaty) {
                black_box(perft(p, 3));
                black_box(shakmaty::perft(q, 3));
            }
        }
    }
    println!(
        "bulk-counting perft, depth {depth}, single-threaded, median of {rounds} interleaved rounds"
    );
    let mut ok = true;
    for (c960, standard) in &pairs {
        let mut samples = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..rounds {
            let (a, b) = c960.measure(depth);
            let (c, d) = standard.measure(depth);
            samples[0].push(a);
            samples[1].push(b);
            samples[2].push(c);
            samples[3].push(d);
        }
        let [ours960, sh960, ours_std, sh_std] = samples.map(|mut s| median(&mut s));
        for (set, ours, sh) in [(c960, ours960, sh960), (standard, ours_std, sh_std)] {
            println!(
                "\n{} ({} positions, {:.1} legal moves on average, {} nodes)",
                set.name,
                set.positions.len(),
                set.branching(),
                set.expected
            );
            println!("  cajitas-rules    {ours:>7.1} Mnps");
            println!("  shakmaty 0.30.1  {sh:>7.1} Mnps");
        }
        let ratio = ours960 / ours_std;
        let sh_ratio = sh960 / sh_std;
        // The two sets' positions differ; shakmaty's ratio shows how much of the gap is
        // the positions themselves rather than the code.
        println!(
            "  ratio Chess960 / standard: cajitas-rules {ratio:.2}x, shakmaty {sh_ratio:.2}x \
             (ours relative to shakmaty's: {:.2}x)",
            ratio / sh_ratio
        );
        ok &= ratio >= 0.9;
    }
    println!(
        "\ntarget Chess960 within 10% of standard (ratio >= 0.90) on both pairs: {}",
        if ok { "met" } else { "NOT met" }
    );
}
