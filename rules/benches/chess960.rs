//! Bulk-counting perft in Chess960 against standard chess, on positions of similar
//! branching, single-threaded: cajitas-rules in both modes (the target: Chess960 within
//! 10% of standard), with shakmaty 0.30.1 in the same modes as a reference.
//!
//! Three pairs of position sets, depth 5:
//! - starts: eight Chess960 starts against the standard start played eight times (so
//!   that both timings are as long: one standard start is 4.9 million nodes, 14 ms, too
//!   short to time alone);
//! - middlegames: twelve positions reached by seeded random walks of 16 plies from
//!   Chess960 starts, against twelve of 48 reached the same way from the standard start,
//!   each chosen for the branching nearest one of the Chess960 twelve's (see `matched`);
//! - a control: those twelve standard middlegames read in Chess960 mode (Shredder-FEN)
//!   against themselves in standard mode. The trees are the same, so any gap there is
//!   the cost of the mode itself in the code.
//!
//! "Similar branching" means the branching at the FRONTIER: bulk counting generates the
//! moves of each node one ply above the leaves and counts them without playing them, so
//! the work is per frontier node and nodes per second grow with the leaves per frontier
//! node, `perft(depth) / perft(depth - 1)`. The branching at the root says little about
//! it: the first middlegame sets (twelve walks each, no choice) had 28.2 and 30.6 legal
//! moves at the root but 30.0 and 32.6 at the frontier, and that 8% alone made Chess960
//! look 10% slower (callgrind: 896 and 877 instructions per frontier node, 29.9 and 26.9
//! per leaf).
//!
//! Every count is checked against shakmaty's. The two sets of a pair are timed position
//! by position in turn, by the thread's CPU time on Linux (see `measure` and `Clock`):
//! timing each set whole by the wall clock, a run beside a build gave the control pair
//! 1.20x (by the CPU time, 1.16x); interleaved, two such runs gave 0.99x and 0.95x.
//! Prints, per set, the median Mnps of ours and of shakmaty over several rounds, the
//! branching at the root and at the frontier; per pair, the ratio Chess960 / standard,
//! and that ratio per frontier node (nodes per second divided by the frontier
//! branching: the speed of the generator itself, whatever branching is left between the
//! sets).
//!
//! Run with `cargo bench -p cajitas-rules --bench chess960` (release, LTO).
//! `CAJITAS_BENCH_ROUNDS` sets the number of rounds (default 7); `CAJITAS_BENCH_DEPTH`
//! the depth (default 5; 3 makes a quick check that everything agrees).
//!
//! Timings on a shared machine stay noisy (the control pair shows how much); instruction
//! counts do not.
//! `CAJITAS_BENCH_ONE=K` (K = 0 Chess960 starts, 1 standard starts, 2 Chess960
//! middlegames, 3 standard middlegames, 4 those in Chess960 mode) runs only our perft
//! over set K once (in `run`) and prints its node count and frontier branching (and the
//! seconds it took on stderr), for callgrind; `benches/chess960_callgrind.sh` does that for the five sets and prints
//! instructions per node and the ratios.

use std::hint::black_box;
use std::time::Instant;

use cajitas_rules::{CastlingMode, Chess960, Position, perft};

/// Chess960 start numbers (518, the standard one, is not among them): king on b to g,
/// rooks on the corners and inside.
const STARTS: [u32; 8] = [0, 105, 237, 381, 466, 666, 777, 959];

/// Middlegames per set, and standard candidates to choose them from.
const MIDDLEGAMES: usize = 12;
const CANDIDATES: usize = 48;

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

/// `count` middlegames from `start(k)`, by random walks seeded 1, 2, ...
fn middlegames(count: usize, start: impl Fn(usize) -> Position) -> Vec<Position> {
    let mut out = Vec::new();
    let mut seed = 1u64;
    while out.len() < count {
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

/// Leaves per frontier node of `positions` together: `perft(depth) / perft(depth - 1)`.
fn frontier(positions: &[Position], depth: u32) -> f64 {
    let leaves: u64 = positions.iter().map(|p| perft(p, depth)).sum();
    let nodes: u64 = positions.iter().map(|p| perft(p, depth - 1)).sum();
    leaves as f64 / nodes.max(1) as f64
}

/// For each of `targets` in turn, the candidate not yet chosen whose frontier branching
/// two plies above the bench's is nearest. Two, not one: the frontier's side to move
/// must be the same (one ply up, the frontier branching of these positions has nothing
/// to do with the bench's); two plies up costs a thousandth of the work and follows the
/// bench's frontier within a few percent for each position.
fn matched(targets: &[Position], candidates: Vec<Position>, depth: u32) -> Vec<Position> {
    let depth = depth.saturating_sub(2).max(1);
    let branching = |p: &Position| frontier(std::slice::from_ref(p), depth);
    let mut pool: Vec<(f64, Position)> =
        candidates.into_iter().map(|p| (branching(&p), p)).collect();
    targets
        .iter()
        .map(|t| {
            let b = branching(t);
            let best = (0..pool.len())
                .min_by(|&i, &j| (pool[i].0 - b).abs().total_cmp(&(pool[j].0 - b).abs()))
                .expect("more candidates than targets");
            pool.swap_remove(best).1
        })
        .collect()
}

/// The four sets, in the order `CAJITAS_BENCH_ONE` numbers them.
fn sets(depth: u32) -> [(&'static str, Vec<Position>); 5] {
    let chess960 = |n: u32| Chess960::position(n).expect("a start number below 960");
    let c960_middle = middlegames(MIDDLEGAMES, |k| chess960(STARTS[k % STARTS.len()]));
    let std_middle = matched(
        &c960_middle,
        middlegames(CANDIDATES, |_| Position::new()),
        depth,
    );
    // The same positions in Chess960 mode: the same trees, only the mode differs.
    let std_middle_960 = std_middle
        .iter()
        .map(|p| Position::from_fen_with(&p.shredder_fen(), CastlingMode::Chess960).unwrap())
        .collect();
    [
        (
            "Chess960 starts",
            STARTS.iter().map(|&n| chess960(n)).collect(),
        ),
        ("standard start (x8)", vec![Position::new(); STARTS.len()]),
        ("Chess960 middlegames", c960_middle),
        ("standard middlegames", std_middle),
        ("standard middlegames in Chess960 mode", std_middle_960),
    ]
}

/// Our perft over `positions`, summed: the only code callgrind counts (see the top).
#[inline(never)]
fn run(positions: &[Position], depth: u32) -> u64 {
    positions.iter().map(|p| perft(black_box(p), depth)).sum()
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
    /// Legal moves per position at the root, on average.
    root: f64,
    /// Leaves per frontier node.
    frontier: f64,
}

impl Set {
    fn new(name: &'static str, positions: Vec<Position>, depth: u32) -> Set {
        let shakmaty: Vec<_> = positions.iter().map(shakmaty_position).collect();
        let expected = shakmaty.iter().map(|p| shakmaty::perft(p, depth)).sum();
        let moves: u64 = positions.iter().map(Position::count_legal_moves).sum();
        Set {
            name,
            root: moves as f64 / positions.len() as f64,
            frontier: frontier(&positions, depth),
            positions,
            shakmaty,
            expected,
        }
    }
}

/// Mnps of ours on `a`, of shakmaty on `a`, of ours on `b`, of shakmaty on `b`, once.
/// The two sets are timed position by position in turn (a's first, b's first, a's
/// second, ...), so that whatever else the machine does at a moment falls on both.
fn measure(a: &Set, b: &Set, depth: u32) -> [f64; 4] {
    let mut seconds = [0.0; 4];
    let mut nodes = [0u64; 4];
    for i in 0..a.positions.len().max(b.positions.len()) {
        for (k, set) in [a, b].into_iter().enumerate() {
            let (Some(p), Some(q)) = (set.positions.get(i), set.shakmaty.get(i)) else {
                continue;
            };
            let t = Clock::start();
            nodes[2 * k] += run(std::slice::from_ref(p), depth);
            seconds[2 * k] += t.seconds();
            let t = Clock::start();
            nodes[2 * k + 1] += shakmaty::perft(black_box(q), depth);
            seconds[2 * k + 1] += t.seconds();
        }
    }
    for (k, set) in [a, a, b, b].into_iter().enumerate() {
        let who = if k % 2 == 0 {
            "cajitas-rules"
        } else {
            "shakmaty"
        };
        assert_eq!(nodes[k], set.expected, "{who} on {}", set.name);
    }
    std::array::from_fn(|k| nodes[k] as f64 / seconds[k] / 1e6)
}

/// This thread's time on a CPU in nanoseconds (Linux's `/proc/thread-self/schedstat`).
fn cpu_nanos() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Times a measurement by the thread's CPU time where Linux gives it, else by the wall
/// clock: the CPU time leaves out the time other processes had the core, not what they
/// do to the caches or a shared physical core (that is what `measure`'s interleaving is
/// for).
enum Clock {
    Cpu(u64),
    Wall(Instant),
}

impl Clock {
    fn start() -> Clock {
        match cpu_nanos() {
            Some(n) => Clock::Cpu(n),
            None => Clock::Wall(Instant::now()),
        }
    }

    fn seconds(&self) -> f64 {
        match self {
            Clock::Cpu(start) => {
                cpu_nanos().unwrap_or(*start).saturating_sub(*start).max(1) as f64 / 1e9
            }
            Clock::Wall(start) => start.elapsed().as_secs_f64(),
        }
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
    let rounds = env("CAJITAS_BENCH_ROUNDS", 7);
    let depth = env("CAJITAS_BENCH_DEPTH", 5).max(3) as u32;
    let all = sets(depth);
    if let Ok(k) = std::env::var("CAJITAS_BENCH_ONE") {
        let k: usize = k
            .parse()
            .expect("CAJITAS_BENCH_ONE is a number from 0 to 4");
        let (_, positions) = all.into_iter().nth(k).expect("a set from 0 to 4");
        let t = Clock::start();
        let nodes = run(&positions, depth);
        let seconds = t.seconds();
        println!("{nodes} {:.4}", frontier(&positions, depth));
        eprintln!("{seconds:.4} s");
        return;
    }
    let set = |(name, positions)| Set::new(name, positions, depth);
    let [a, b, c, d, e] = all;
    let std_middle = d.clone();
    // The last pair is the control: one tree, two modes.
    let pairs = [
        (set(a), set(b)),
        (set(c), set(d)),
        (set(e), set(std_middle)),
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
        "bulk-counting perft, depth {depth}, single-threaded, median of {rounds} interleaved \
         rounds, timed by {}",
        match Clock::start() {
            Clock::Cpu(_) => "the thread's CPU time",
            Clock::Wall(_) => "the wall clock",
        }
    );
    let mut ok = true;
    for (i, (c960, standard)) in pairs.iter().enumerate() {
        let mut samples = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..rounds {
            for (sample, mnps) in samples.iter_mut().zip(measure(c960, standard, depth)) {
                sample.push(mnps);
            }
        }
        let [ours960, sh960, ours_std, sh_std] = samples.map(|mut s| median(&mut s));
        for (set, ours, sh) in [(c960, ours960, sh960), (standard, ours_std, sh_std)] {
            println!(
                "\n{} ({} positions, {} nodes; legal moves: {:.1} at the root, {:.2} per \
                 frontier node)",
                set.name,
                set.positions.len(),
                set.expected,
                set.root,
                set.frontier,
            );
            println!("  cajitas-rules    {ours:>7.1} Mnps");
            println!("  shakmaty 0.30.1  {sh:>7.1} Mnps");
        }
        let ratio = ours960 / ours_std;
        let sh_ratio = sh960 / sh_std;
        let branching = c960.frontier / standard.frontier;
        // The two sets' positions differ; shakmaty's ratio shows how much of the gap is
        // the positions themselves rather than the code.
        println!(
            "  ratio Chess960 / standard: cajitas-rules {ratio:.2}x, shakmaty {sh_ratio:.2}x; \
             frontier branching {branching:.3}x, so per frontier node: cajitas-rules {:.2}x, \
             shakmaty {:.2}x",
            ratio / branching,
            sh_ratio / branching,
        );
        if i < 2 {
            ok &= ratio >= 0.9;
        }
    }
    println!(
        "\ntarget Chess960 within 10% of standard (ratio >= 0.90) on the first two pairs: {}",
        if ok { "met" } else { "NOT met" }
    );
}
