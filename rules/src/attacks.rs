//! Attack sets of every piece, and the lines between squares.
//!
//! Knight, king and pawn attacks and the `between`/`ray` tables are computed at compile
//! time. Sliding attacks use "fancy" magic bitboards whose magic numbers are searched at
//! first use with a fixed-seed generator (deterministic, a few milliseconds).
//!
//! ```
//! use cajitas_rules::{attacks, Bitboard, Square};
//! assert_eq!(attacks::knight(Square::A1).count(), 2);
//! let blockers = Bitboard::from(Square::E6);
//! assert!(attacks::rook(Square::E4, blockers).contains(Square::E6));
//! assert!(!attacks::rook(Square::E4, blockers).contains(Square::E7));
//! ```

use std::sync::LazyLock;

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

const fn step_attacks(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let mut i = 0;
        let mut bb = 0u64;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            let (nf, nr) = (f + df, r + dr);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bb |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        table[sq] = bb;
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = step_attacks(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = step_attacks(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    step_attacks(&[(-1, 1), (1, 1)]),
    step_attacks(&[(-1, -1), (1, -1)]),
];

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Sliding attacks by walking the rays (the slow reference used to build the tables).
const fn slide(sq: usize, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut bb = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            bb |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    bb
}

const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let dirs = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction (both ways), edge to edge.
            let mut full = 1u64 << a;
            let mut k = 0;
            while k < 2 {
                let (sf, sr) = if k == 0 { (df, dr) } else { (-df, -dr) };
                let mut f = (a % 8) as i32 + sf;
                let mut r = (a / 8) as i32 + sr;
                while f >= 0 && f < 8 && r >= 0 && r < 8 {
                    full |= 1u64 << (r * 8 + f);
                    f += sf;
                    r += sr;
                }
                k += 1;
            }
            let mut f = (a % 8) as i32 + df;
            let mut r = (a / 8) as i32 + dr;
            let mut inner = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = inner;
                line[a][b] = full;
                inner |= 1u64 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<u64>,
}

fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let mut bb = 0u64;
    for &(df, dr) in dirs {
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        // Edge squares never block anything beyond them: leave them out.
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            bb |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    bb
}

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
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find_magics(dirs: &[(i32, i32); 4], table: &mut Vec<u64>, rng: &mut XorShift) -> [Magic; 64] {
    let mut magics = [Magic::default(); 64];
    let mut occs = Vec::with_capacity(4096);
    let mut refs = Vec::with_capacity(4096);
    let mut epoch = vec![0u32; 4096];
    let mut used = vec![0u64; 4096];
    let mut attempt = 0u32;
    for (sq, m) in magics.iter_mut().enumerate() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        occs.clear();
        refs.clear();
        let mut subset = 0u64;
        loop {
            occs.push(subset);
            refs.push(slide(sq, subset, dirs));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let size = 1usize << bits;
        let magic = loop {
            let candidate = rng.sparse();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for (&occ, &att) in occs.iter().zip(refs.iter()) {
                let idx = (occ.wrapping_mul(candidate) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    used[idx] = att;
                } else if used[idx] != att {
                    ok = false;
                    break;
                }
            }
            if ok {
                break candidate;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for (&occ, &att) in occs.iter().zip(refs.iter()) {
            table[offset + (occ.wrapping_mul(magic) >> shift) as usize] = att;
        }
        *m = Magic {
            mask,
            magic,
            shift,
            offset,
        };
    }
    magics
}

static SLIDERS: LazyLock<Sliders> = LazyLock::new(|| {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut table = Vec::with_capacity(102_400 + 5_248);
    let rook = find_magics(&ROOK_DIRS, &mut table, &mut rng);
    let bishop = find_magics(&BISHOP_DIRS, &mut table, &mut rng);
    Sliders {
        rook,
        bishop,
        table,
    }
});

#[inline(always)]
fn magic_lookup(s: &Sliders, m: &Magic, occupied: u64) -> u64 {
    s.table[m.offset + ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// The squares a knight on `sq` attacks.
///
/// ```
/// use cajitas_rules::{attacks, Square};
/// assert!(attacks::knight(Square::G1).contains(Square::F3));
/// ```
#[inline]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// The squares a king on `sq` attacks.
///
/// ```
/// use cajitas_rules::{attacks, Square};
/// assert_eq!(attacks::king(Square::E1).count(), 5);
/// ```
#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks (captures on).
///
/// ```
/// use cajitas_rules::{attacks, Color, Square};
/// assert_eq!(attacks::pawn(Color::White, Square::E4).count(), 2);
/// assert!(attacks::pawn(Color::Black, Square::E4).contains(Square::D3));
/// ```
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// The squares a bishop on `sq` attacks, given the `occupied` squares (blockers are
/// included: they may be captures).
///
/// ```
/// use cajitas_rules::{attacks, Bitboard, Square};
/// assert_eq!(attacks::bishop(Square::D4, Bitboard::EMPTY).count(), 13);
/// ```
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let s = &*SLIDERS;
    Bitboard(magic_lookup(s, &s.bishop[sq.index()], occupied.0))
}

/// The squares a rook on `sq` attacks, given the `occupied` squares.
///
/// ```
/// use cajitas_rules::{attacks, Bitboard, Square};
/// assert_eq!(attacks::rook(Square::D4, Bitboard::EMPTY).count(), 14);
/// ```
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let s = &*SLIDERS;
    Bitboard(magic_lookup(s, &s.rook[sq.index()], occupied.0))
}

/// The squares a queen on `sq` attacks, given the `occupied` squares.
///
/// ```
/// use cajitas_rules::{attacks, Bitboard, Square};
/// assert_eq!(attacks::queen(Square::D4, Bitboard::EMPTY).count(), 27);
/// ```
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    let s = &*SLIDERS;
    Bitboard(
        magic_lookup(s, &s.rook[sq.index()], occupied.0)
            | magic_lookup(s, &s.bishop[sq.index()], occupied.0),
    )
}

/// The squares strictly between `a` and `b` when they share a rank, file or diagonal;
/// empty otherwise.
///
/// ```
/// use cajitas_rules::{attacks, Square};
/// assert_eq!(attacks::between(Square::A1, Square::D4).count(), 2);
/// assert!(attacks::between(Square::A1, Square::B3).is_empty());
/// ```
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The whole line (rank, file or diagonal) through `a` and `b`, edge to edge, both
/// included; empty when they are not aligned (or equal).
///
/// ```
/// use cajitas_rules::{attacks, Square};
/// assert_eq!(attacks::ray(Square::B2, Square::C3).count(), 8);
/// assert!(attacks::ray(Square::A1, Square::B3).is_empty());
/// ```
#[inline]
pub fn ray(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

/// `true` when `c` lies on the line through `a` and `b`.
///
/// ```
/// use cajitas_rules::{attacks, Square};
/// assert!(attacks::aligned(Square::A1, Square::C3, Square::H8));
/// ```
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    ray(a, b).contains(c)
}

/// Every square attacked by the pawns in `pawns`, of `color`.
#[inline]
pub fn pawn_set(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    let not_a = !0x0101_0101_0101_0101u64;
    let not_h = !0x8080_8080_8080_8080u64;
    Bitboard(match color {
        Color::White => ((p & not_a) << 7) | ((p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9) | ((p & not_h) >> 7),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_ray_walking() {
        let mut rng = XorShift(12345);
        for sq in 0..64u32 {
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                let s = Square::new(sq);
                assert_eq!(
                    rook(s, Bitboard(occ)).0,
                    slide(sq as usize, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop(s, Bitboard(occ)).0,
                    slide(sq as usize, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn lines() {
        assert_eq!(between(Square::E1, Square::E8).count(), 6);
        assert_eq!(ray(Square::E1, Square::E8), Bitboard::file(crate::File::E));
        assert!(between(Square::E1, Square::E2).is_empty());
        assert!(ray(Square::E1, Square::E1).is_empty());
    }
}
