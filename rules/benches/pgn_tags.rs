//! Reading tag pairs is linear in the input (issue 12, item 7): the lexer once copied the
//! rest of the line for every tag, so 150,000 tags on one line (1 MB) took 9.3 s.
//!
//! Run with `cargo bench -p cajitas-rules --bench pgn_tags`. Reads 1 MB and 10 MB of tag
//! pairs on one line (then a move and a result) and prints the median time of each, the
//! ratio of the two, and whether 10x the input took at most 12x the time: printed, not an
//! exit status (wall time on a busy machine is a measurement to read, not a test).

use std::time::Instant;

use cajitas_rules::{Lang, pgn};

/// `bytes` of tag pairs (`[T "v"][T "v"]…`, 7 bytes each, as in the issue) on one line,
/// then `1. e4 *`.
fn tags_on_one_line(bytes: usize) -> String {
    let mut text = "[T \"v\"]".repeat(bytes.div_ceil(7));
    text.push_str("\n1. e4 *\n");
    text
}

/// Reads every game of the text; returns the number of games and errors (so nothing is
/// optimised away).
fn read(text: &str) -> usize {
    pgn::read_games(text, Lang::En)
        .expect("under the size cap")
        .map(|g| g.is_ok() as usize + 1)
        .sum()
}

fn median_secs(text: &str, rounds: usize) -> f64 {
    let mut samples: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(read(std::hint::black_box(text)));
            t.elapsed().as_secs_f64()
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let rounds: usize = std::env::var("CAJITAS_BENCH_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5)
        .max(1);
    let small = tags_on_one_line(1_000_000);
    let large = tags_on_one_line(10_000_000);
    let count = |t: &str| t.matches('[').count();
    // Warm up (page in the text, the allocator's arenas).
    read(&small);
    let t_small = median_secs(&small, rounds);
    let t_large = median_secs(&large, rounds);
    let ratio = t_large / t_small;
    println!("PGN tag pairs on one line, median of {rounds} rounds");
    println!(
        "   1 MB ({:>9} tags): {:>8.1} ms",
        count(&small),
        t_small * 1e3
    );
    println!(
        "  10 MB ({:>9} tags): {:>8.1} ms",
        count(&large),
        t_large * 1e3
    );
    let ok = ratio <= 12.0;
    println!(
        "  ratio 10 MB / 1 MB: {ratio:.2}x ({})",
        if ok {
            "linear: at most 12x"
        } else {
            "MORE THAN 12x: not linear"
        }
    );
    // A timing on a shared machine is a measurement to read, not a test: the verdict is
    // printed above, and the bench ends normally either way.
}
