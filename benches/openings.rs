//! `cargo bench --bench openings`: the opening table (issue 29).
//!
//! - Its build: the 3,807 rows of the five embedded files replayed and keyed, the first build
//!   in the process and the median of 20 more (target ≤ 30 ms).
//! - Its memory: the bytes it holds on the heap once built, counted by a counting allocator
//!   (target ≤ 2 MB), and the peak while it is built.
//! - A lookup per position (target ≤ 1 µs): `Book::get` with the position's key, on hits (every
//!   position of the table's own rows) and misses (positions of random games); the key's
//!   computation and the lookup together; and, side by side, lichess's way (a map by the
//!   position's EPD text, the text written for each position looked up).
//! - A whole game named (`Book::search`, at most 40 plies), on 20 real games.
//!
//! Counts are asserted (rows, positions, hits), so a bench that stops measuring what it says
//! fails. One thread; the machine may be shared, so medians of several rounds are printed.

// The counting allocator below is the one `unsafe` here: a `GlobalAlloc` that forwards to the
// system's and keeps two counters.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cajitas::openings::{Book, FILES, Opening};
use cajitas_rules::{Lang, Move, Position, PositionKey, SanPlus, read_move};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call forwards to `System` with the same arguments; the counters only add and
// subtract the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            let now = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Twenty real games (the first moves are what matters here), in SAN.
const GAMES: [&str; 20] = [
    "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7",
    "e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6 Rg1 cxb5",
    "e4 e5 Nf3 Nc6 Bc4 Bc5 b4 Bxb4 c3 Ba5 d4 exd4 O-O d3 Qb3 Qf6 e5 Qg6 Re1 Nge7 Ba3 b5",
    "Nf3 Nf6 c4 g6 Nc3 Bg7 d4 O-O Bf4 d5 Qb3 dxc4 Qxc4 c6 e4 Nbd7 Rd1 Nb6 Qc5 Bg4 Bg5 Na4",
    "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 O-O-O Qe7",
    "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Nf6 Qd3 e5 dxe5 Qa5+ Bd2 Qxe5 O-O-O Nxe4 Qd8+ Kxd8 Bg5+ Kc7",
    "d4 e6 Nf3 f5 Nc3 Nf6 Bg5 Be7 Bxf6 Bxf6 e4 fxe4 Nxe4 b6 Ne5 O-O Bd3 Bb7 Qh5 Qe7",
    "e4 e5 Nf3 d6 d4 exd4 Qxd4 Nc6 Bb5 Bd7 Bxc6 Bxc6 Nc3 Nf6 O-O Be7 Nd5 Bxd5 exd5 O-O",
    "e4 e5 Nf3 d6 Bc4 Bg4 Nc3 g6 Nxe5 Bxd1 Bxf7+ Ke7 Nd5#",
    "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Nd7 Ng5 Ngf6 Bd3 e6 N1f3 h6 Nxe6 Qe7 O-O fxe6 Bg6+ Kd8",
    "d4 e6 e4 d5 Nc3 c5 Nf3 Nc6 exd5 exd5 Be2 Nf6 O-O Be7 Bg5 O-O dxc5 Be6 Nd4 Bxc5",
    "d4 d5 Nf3 e6 e3 c5 c4 Nc6 Nc3 Nf6 dxc5 Bxc5 a3 a6 b4 Bd6 Bb2 O-O Qd2 Qe7 Bd3 dxc4",
    "d4 Nf6 Nd2 e5 dxe5 Ng4 h3 Ne3",
    "e4 e5 Nf3 Nc6 Bc4 Bc5 b4 Bxb4 c3 Ba5 d4 exd4 O-O dxc3 Qb3 Qe7 Nxc3 Nf6 Nd5 Nxd5",
    "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6 h4 h6 Nf3 Nd7 h5 Bh7 Bd3 Bxd3 Qxd3 e6 Bf4 Ngf6",
    "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4 cxd4 Bb4+ Nc3 Nxe4 O-O Nxc3 bxc3 Bxc3 Qb3 Bxa1",
    "e4 b6 d4 Bb7 Bd3 f5 exf5 Bxg2 Qh5+ g6 fxg6 Nf6 gxh7+ Nxh5 Bg6#",
    "d4 f5 Bg5 h6 Bf4 g5 Bg3 f4 e3 h5 Bd3 Rh6 Qxh5+ Rxh5 Bg6#",
    "c4 e6 Nf3 d5 d4 Nf6 Nc3 Be7 Bg5 O-O e3 h6 Bh4 b6 cxd5 Nxd5 Bxe7 Qxe7 Nxd5 exd5 Rc1 Be6",
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 O-O c3 d5 exd5 Nxd5 Nxe5 Nxe5 Rxe5 Nf6",
];

fn moves_of(san: &str) -> Vec<Move> {
    let mut pos = Position::new();
    san.split_whitespace()
        .map(|t| {
            let m = read_move(&pos, t, Lang::En).expect(t);
            pos.play(m);
            m
        })
        .collect()
}

/// The final position of each row of the table.
fn row_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for (_, text) in FILES {
        for line in text.lines().skip(1) {
            let pgn = line.split('\t').nth(2).unwrap();
            let mut pos = Position::new();
            for token in pgn.split_whitespace() {
                if token.ends_with('.') {
                    continue;
                }
                let san: SanPlus = token.parse().unwrap();
                let m = san.san.to_move(&pos).unwrap();
                pos.play_unchecked(m);
            }
            out.push(pos);
        }
    }
    out
}

/// Positions of pseudo-random games (a fixed seed): almost none is in the table.
fn random_positions(n: usize) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(29);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Position::new();
        for _ in 0..30 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.usize(..legal.len())];
            pos.play_unchecked(m);
            out.push(pos.clone());
        }
    }
    out.truncate(n);
    out
}

/// lichess's key: the EPD (placement, side, castling, en passant) as text.
fn epd(pos: &Position) -> String {
    let fen = pos.fen();
    let mut fields: Vec<&str> = fen.split(' ').take(4).collect();
    // The en passant square counts only when a capture there is legal, as in the key (looked
    // at only when the FEN names one).
    if fields[3] != "-"
        && !pos
            .legal_moves()
            .iter()
            .any(|m| matches!(m, Move::EnPassant { .. }))
    {
        fields[3] = "-";
    }
    fields.join(" ")
}

fn start_position() -> Position {
    Position::new()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Median over `rounds` of the time per item of `f` over `items`.
fn per_item<T>(items: &[T], rounds: usize, mut f: impl FnMut(&T) -> usize) -> (Duration, usize) {
    let mut hits = 0;
    let times = (0..rounds)
        .map(|_| {
            hits = 0;
            let t = Instant::now();
            for x in items {
                hits += f(black_box(x));
            }
            t.elapsed() / items.len() as u32
        })
        .collect();
    (median(times), hits)
}

fn ns(d: Duration) -> f64 {
    d.as_secs_f64() * 1e9
}

fn main() {
    // The build: first in the process, then the median of 20; its heap.
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let t = Instant::now();
    let (book, bad) = Book::build(&FILES);
    let first = t.elapsed();
    let held = LIVE.load(Ordering::Relaxed) - before;
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert!(bad.is_empty(), "{bad:?}");
    assert_eq!(book.rows(), 3807);
    let builds = (0..20)
        .map(|_| {
            let t = Instant::now();
            black_box(Book::build(&FILES));
            t.elapsed()
        })
        .collect();
    let build = median(builds);
    println!(
        "opening table: {} rows, {} positions, {} shared by two rows",
        book.rows(),
        book.positions(),
        book.shared().len()
    );
    println!(
        "  build: first {:.2} ms, median of 20 {:.2} ms   (target ≤ 30 ms)",
        first.as_secs_f64() * 1e3,
        build.as_secs_f64() * 1e3
    );
    println!(
        "  heap held once built: {:.0} KiB ({} bytes: the map's buckets; the names are slices of the embedded files); peak while building {:.0} KiB   (target ≤ 2 MB)",
        held as f64 / 1024.0,
        held,
        peak as f64 / 1024.0
    );

    // Lookups.
    let rows = row_positions();
    let random = random_positions(20_000);
    let row_keys: Vec<PositionKey> = rows.iter().map(Position::fide_key).collect();
    let random_keys: Vec<PositionKey> = random.iter().map(Position::fide_key).collect();
    const ROUNDS: usize = 15;
    let (hit, n) = per_item(&row_keys, ROUNDS, |k| usize::from(book.get(k).is_some()));
    assert_eq!(n, rows.len(), "every row's position is found");
    let (miss, misses_found) =
        per_item(&random_keys, ROUNDS, |k| usize::from(book.get(k).is_some()));
    assert!(
        misses_found < random.len() / 10,
        "random positions are mostly out of the table"
    );
    let (keyed_hit, _) = per_item(&rows, ROUNDS, |p| {
        usize::from(book.get(&p.fide_key()).is_some())
    });
    let (keyed_miss, _) = per_item(&random, ROUNDS, |p| {
        usize::from(book.get(&p.fide_key()).is_some())
    });
    // lichess's way, side by side: a map by EPD text.
    let by_epd: HashMap<String, Opening> = rows
        .iter()
        .map(|p| (epd(p), book.get(&p.fide_key()).unwrap()))
        .collect();
    assert_eq!(by_epd.len(), book.positions());
    let (epd_hit, n) = per_item(&rows, ROUNDS, |p| usize::from(by_epd.contains_key(&epd(p))));
    assert_eq!(n, rows.len());
    let (epd_miss, found) = per_item(&random, ROUNDS, |p| {
        usize::from(by_epd.contains_key(&epd(p)))
    });
    assert_eq!(found, misses_found, "both ways find the same positions");
    println!("a lookup per position (median of {ROUNDS} rounds; target ≤ 1 µs):");
    println!(
        "  Book::get, key given:          {:>7.1} ns on a hit ({} positions), {:>7.1} ns on a miss ({} positions)",
        ns(hit),
        rows.len(),
        ns(miss),
        random.len()
    );
    println!(
        "  the key computed, then get:    {:>7.1} ns on a hit, {:>7.1} ns on a miss",
        ns(keyed_hit),
        ns(keyed_miss)
    );
    println!(
        "  lichess's way (EPD text map):  {:>7.1} ns on a hit, {:>7.1} ns on a miss   ({:.1}× and {:.1}× the key's)",
        ns(epd_hit),
        ns(epd_miss),
        epd_hit.as_secs_f64() / keyed_hit.as_secs_f64(),
        epd_miss.as_secs_f64() / keyed_miss.as_secs_f64()
    );

    // What a board reply of the `discord` bench adds: its game named after each of its 40
    // plies (the bench's line: pawns, then knights and rooks, 32 pieces throughout, so every
    // ply is looked at), and the embed's field worded.
    let line = moves_of(
        "a3 a6 b3 b6 c3 c6 d3 d6 e3 e6 f3 f6 g3 g6 h3 h6 a4 a5 b4 b5 c4 c5 d4 d5 e4 e5 f4 f5 \
         g4 g5 h4 h5 Nc3 Nc6 Nf3 Nf6 Ne2 Ne7 Ra2 Ra7",
    );
    let prefixes: Vec<&[Move]> = (1..=line.len()).map(|n| &line[..n]).collect();
    let (per_reply, named) = per_item(&prefixes, 200, |m| {
        let found = book.search(&start_position(), m);
        found.map_or(0, |f| {
            let label = cajitas::tr!(Lang::En, "embed-opening");
            let value = cajitas::tr!(
                Lang::En,
                "opening-name",
                eco = f.opening.eco,
                name = f.opening.name
            );
            black_box((label, value));
            1
        })
    });
    assert_eq!(
        named,
        prefixes.len(),
        "the line is named from its first ply"
    );
    let at = 805.0;
    println!(
        "a board reply of the discord bench: its game named and the field worded, {:.2} µs on average over the 40 plies; {:.2}% of the {:.2} ms a move takes at {at:.0} moves/s (the bench's quiet figure)",
        per_reply.as_secs_f64() * 1e6,
        per_reply.as_secs_f64() * at * 100.0,
        1e3 / at
    );

    // Whole games named.
    let games: Vec<Vec<Move>> = GAMES.iter().map(|g| moves_of(g)).collect();
    let start = Position::new();
    let (per_game, named) = per_item(&games, 200, |m| {
        usize::from(book.search(&start, m).is_some())
    });
    assert_eq!(named, games.len());
    println!(
        "a game named (Book::search over its first ≤ 40 plies), 20 real games: {:.2} µs per game",
        per_game.as_secs_f64() * 1e6
    );
}
