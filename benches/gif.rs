//! `cargo bench --bench gif`: the game as an animated GIF.
//!
//! Prints, beside lila-gif's published figure (93 plies at 720 px: about 60 ms, 363 KiB):
//! - an 80-ply game at 480 px (targets: at most 50 ms on one core, at most 600 KB);
//! - a 93-ply game at 720 px;
//! - a 300-ply game at every size the size guard offers (target: under 10 MiB with margin);
//! - the pictures of a timeout's final post after 1. e4 e5 at the shipped size (the board's PNG
//!   and the game's GIF): what the clocks bench's burst draws 10,000 times (`-- final`: this
//!   one alone).
//!
//! The games are random legal games from fixed seeds (more pieces move in them than in real
//! games, so the frames are, if anything, larger). Single-threaded; the palette is built
//! once per (theme, size) and cached like the sprites, so the median of warm runs is shown,
//! with the first (cold) run beside it. The machine may be shared: figures vary run to run,
//! so each figure is the encoding thread's own CPU time (`/proc/thread-self/schedstat`: the
//! time it spent on a core, which is what "on one core" means, and which other processes'
//! load does not inflate the way it inflates wall time), with the wall time beside it.

use std::time::{Duration, Instant};

use cajitas::render::gif::{DEFAULT_BYTE_LIMIT, GIF_SIZES, GifCaption, GifOptions};
use cajitas::render::{BoardView, Highlights, RenderOptions, Renderer};
use cajitas_rules::{Color, Lang, Move, Outcome, Position, WinReason, read_move};

/// A random legal game of exactly `plies` plies (from the first seed that gives one).
fn random_game(plies: usize) -> Vec<Move> {
    for seed in 1.. {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut pos = Position::new();
        let mut moves = Vec::with_capacity(plies);
        while moves.len() < plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.usize(..legal.len())];
            pos.play(m);
            moves.push(m);
        }
        if moves.len() == plies {
            return moves;
        }
    }
    unreachable!()
}

/// D. Byrne v Fischer, New York 1956: a real game of 82 plies.
const BYRNE_FISCHER: &str = "Nf3 Nf6 c4 g6 Nc3 Bg7 d4 O-O Bf4 d5 Qb3 dxc4 Qxc4 c6 e4 Nbd7 Rd1 Nb6 \
     Qc5 Bg4 Bg5 Na4 Qa3 Nxc3 bxc3 Nxe4 Bxe7 Qb6 Bc4 Nxc3 Bc5 Rfe8+ Kf1 Be6 Bxb6 Bxc4+ Kg1 Ne2+ \
     Kf1 Nxd4+ Kg1 Ne2+ Kf1 Nc3+ Kg1 axb6 Qb4 Ra4 Qxb6 Nxd1 h3 Rxa2 Kh2 Nxf2 Re1 Rxe1 Qd8+ Bf8 \
     Nxe1 Bd5 Nf3 Ne4 Qb8 b5 h4 h5 Ne5 Kg7 Kg1 Bc5+ Kf1 Ng3+ Ke1 Bb4+ Kd1 Bb3+ Kc1 Ne2+ Kb1 \
     Nc3+ Kc1 Rc2#";

fn real_game(san: &str) -> Vec<Move> {
    let mut pos = Position::new();
    san.split_whitespace()
        .map(|w| {
            let m = read_move(&pos, w, Lang::En).expect(w);
            pos.play(m);
            m
        })
        .collect()
}

fn caption() -> GifCaption {
    GifCaption {
        white: "alice".into(),
        black: "bob".into(),
        outcome: Some(Outcome::Decisive {
            winner: Color::White,
            reason: WinReason::Resignation,
        }),
        lang: Lang::En,
        // Byrne v Fischer's opening, as the bot shows it after the names.
        opening: cajitas::openings::of_game(&Position::new(), &real_game(BYRNE_FISCHER))
            .map(|found| found.opening.name.to_owned()),
    }
}

/// The calling thread's time on a CPU so far (Linux `schedstat`, nanoseconds); `None`
/// where the file does not exist.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Times `f` by the thread's CPU time when the system gives it, else by the wall clock.
/// Returns (CPU or wall, wall).
fn timed<T>(f: impl FnOnce() -> T) -> (Duration, Duration, T) {
    let (c, t) = (thread_cpu(), Instant::now());
    let out = f();
    let wall = t.elapsed();
    let cpu = match (c, thread_cpu()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => wall,
    };
    (cpu, wall, out)
}

/// (cold CPU time, median warm CPU time, bytes, median warm wall time).
fn measure(
    r: &Renderer,
    moves: &[Move],
    size: u32,
    runs: usize,
) -> (Duration, Duration, usize, Duration) {
    let opts = GifOptions {
        size,
        ..GifOptions::default()
    };
    let start = Position::new();
    let cap = caption();
    let (cold, _, bytes) = timed(|| r.gif_of_positions(&start, moves, &cap, &opts).unwrap());
    let (mut cpu, mut wall): (Vec<Duration>, Vec<Duration>) = (0..runs)
        .map(|_| {
            let (c, w, b) = timed(|| r.gif_of_positions(&start, moves, &cap, &opts).unwrap());
            std::hint::black_box(b);
            (c, w)
        })
        .unzip();
    cpu.sort();
    wall.sort();
    (cold, cpu[runs / 2], bytes.len(), wall[runs / 2])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    // The shipped pieces, unless `CAJITAS_PIECES` names others (as the bot reads it): the
    // DejaVu glyphs, the default before issue 26, compare like with like against older builds.
    let r = Renderer::with_pieces(&cajitas::render::PieceSource::from_setting(
        std::env::var_os("CAJITAS_PIECES").as_deref(),
    ))
    .expect("the pieces");
    if std::env::args().any(|a| a == "final") {
        final_post(&r);
        return;
    }
    println!(
        "game as an animated GIF (CPU time of the one encoding thread, median of warm runs; cold = first run, palette built; wall time in brackets)"
    );
    println!();

    let real = real_game(BYRNE_FISCHER);
    let (cold, warm, bytes, wall) = measure(&r, &real, 480, 15);
    println!(
        "Byrne v Fischer, {} plies at 480 px: {:6.1} ms [wall {:6.1}] (cold {:6.1} ms)  {:7} bytes ({:.0} KB)",
        real.len(),
        ms(warm),
        ms(wall),
        ms(cold),
        bytes,
        bytes as f64 / 1000.0,
    );
    let g80 = random_game(80);
    let (cold, warm, bytes, wall) = measure(&r, &g80, 480, 15);
    println!(
        "random, 80 plies at 480 px:  {:7.1} ms [wall {:7.1}] (cold {:7.1} ms)  {:8} bytes ({:.0} KB)   targets: <= 50 ms, <= 600 KB: {}",
        ms(warm),
        ms(wall),
        ms(cold),
        bytes,
        bytes as f64 / 1000.0,
        if ms(warm) <= 50.0 && bytes <= 600_000 {
            "met"
        } else {
            "NOT met"
        }
    );

    let g93 = random_game(93);
    let (cold, warm, bytes, wall) = measure(&r, &g93, 720, 9);
    println!(
        "random, 93 plies at 720 px:  {:7.1} ms [wall {:7.1}] (cold {:7.1} ms)  {:8} bytes ({:.0} KiB)   lila-gif: ~60 ms, ~363 KiB",
        ms(warm),
        ms(wall),
        ms(cold),
        bytes,
        bytes as f64 / 1024.0
    );
    println!();

    let g300 = random_game(300);
    let limit = DEFAULT_BYTE_LIMIT;
    for size in GIF_SIZES {
        let (cold, warm, bytes, wall) = measure(&r, &g300, size, 3);
        println!(
            "300 plies at {size:4} px: {:7.1} ms [wall {:7.1}] (cold {:7.1} ms)  {:8} bytes ({:5.2} MiB, {:4.1}% of the 10 MiB limit)",
            ms(warm),
            ms(wall),
            ms(cold),
            bytes,
            bytes as f64 / (1024.0 * 1024.0),
            bytes as f64 * 100.0 / limit as f64
        );
    }
    println!();
    final_post(&r);
}

/// The pictures of a final post after 1. e4 e5, Black out of time, at the shipped size:
/// the board's PNG and the game's GIF, each the mean CPU time of warm runs.
fn final_post(r: &Renderer) {
    let moves = real_game("e4 e5");
    let start = Position::new();
    let mut end = start.clone();
    for m in &moves {
        end.play(*m);
    }
    let cap = GifCaption {
        outcome: Some(Outcome::Decisive {
            winner: Color::White,
            reason: WinReason::Timeout,
        }),
        opening: cajitas::openings::of_game(&start, &moves).map(|f| f.opening.name.to_owned()),
        ..caption()
    };
    let (gif_opts, png_opts) = (GifOptions::default(), RenderOptions::default());
    let hl = Highlights::after(&end, moves.last().copied());
    let runs = 301;
    // A run is about a millisecond, finer than the CPU clock's ticks: the thread's CPU time
    // over all the runs, divided by their number.
    let mean = |f: &dyn Fn() -> usize| {
        let bytes = f();
        let (cpu, _, ()) = timed(|| {
            for _ in 0..runs {
                std::hint::black_box(f());
            }
        });
        (cpu / runs as u32, bytes)
    };
    let (png, png_bytes) = mean(&|| {
        r.render(&BoardView::from(&end), &hl, &png_opts)
            .unwrap()
            .len()
    });
    let (gif, gif_bytes) = mean(&|| {
        r.gif_of_positions(&start, &moves, &cap, &gif_opts)
            .unwrap()
            .len()
    });
    println!(
        "a timeout's final post after 1. e4 e5 at {} px: board PNG {:.3} ms ({png_bytes} bytes), GIF {:.3} ms ({gif_bytes} bytes), both {:.3} ms",
        gif_opts.size,
        ms(png),
        ms(gif),
        ms(png + gif)
    );
}
