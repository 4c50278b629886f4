//! `cargo bench --bench puzzles_choice`: choosing a puzzle among 100,000 (synthetic rows made
//! from the shipped ones: the same positions and lines under new ids, ratings spread over
//! 400–3000, the shipped themes) for a solver who has seen 10,000 of them, as issue 30 asks
//! (target: p99 ≤ 2 ms). Each choice is one call of `PuzzleSet::choose` with the seen set
//! the service reads from the store once a window's first candidates are seen (a `HashSet`),
//! a target rating and a seed drawn at random.

use std::collections::HashSet;
use std::time::Instant;

use cajitas::puzzles::{Puzzle, PuzzleSet, shared};

const ROWS: usize = 100_000;
const SEEN: usize = 10_000;
const CHOICES: usize = 20_000;

fn main() {
    let base = shared().all();
    let mut rng = fastrand::Rng::with_seed(30);
    let rows: Vec<Puzzle> = (0..ROWS)
        .map(|i| {
            let mut p = base[i % base.len()].clone();
            p.id = format!("s{i:07}");
            p.rating = rng.i32(400..=3000);
            p
        })
        .collect();
    let built = Instant::now();
    let set = PuzzleSet::from_puzzles(rows);
    let build_ms = built.elapsed().as_secs_f64() * 1e3;
    let mut seen: HashSet<String> = HashSet::with_capacity(SEEN);
    while seen.len() < SEEN {
        seen.insert(format!("s{:07}", rng.usize(0..ROWS)));
    }
    let themes = ["fork", "mateIn2", "endgame", "pin"];

    let mut times = Vec::with_capacity(CHOICES);
    let mut found = 0usize;
    for i in 0..CHOICES {
        let target = f64::from(rng.i32(400..=3000));
        let theme = (i % 5 == 0).then(|| themes[i % themes.len()]);
        let seed = rng.u64(..);
        let t = Instant::now();
        let chosen = set.choose(&mut |id| seen.contains(id), theme, target, seed);
        times.push(t.elapsed().as_secs_f64() * 1e6);
        if let Some(p) = chosen {
            assert!(!seen.contains(&p.id), "a seen puzzle was chosen");
            assert!(theme.is_none_or(|t| p.has_theme(t)));
            found += 1;
        }
    }
    assert_eq!(found, CHOICES, "every choice found a puzzle");
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize];
    println!(
        "puzzle choice: {ROWS} rows, {} seen, {CHOICES} choices (1 in 5 with a theme)",
        seen.len()
    );
    println!("  index built once in {build_ms:.1} ms");
    println!(
        "  per choice: median {:.1} µs · p99 {:.1} µs · max {:.1} µs (target p99 ≤ 2000 µs)",
        at(0.5),
        at(0.99),
        times[times.len() - 1]
    );
}
