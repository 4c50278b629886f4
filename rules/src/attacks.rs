//! Attack sets of every piece, and the lines between squares.
//!
//! Knight, king and pawn attacks and the `between`/`ray` tables are computed at compile
//! time. Sliding attacks use "fancy" magic bitboards: the magic numbers were found by a
//! fixed-seed search (reproduced by a unit test) and their tables are built, and checked,
//! at compile time.
//!
//! ```
//! use cajitas_rules::{attacks, Bitboard, Square};
//! assert_eq!(attacks::knight(Square::A1).count(), 2);
//! let blockers = Bitboard::from(Square::E6);
//! assert!(attacks::rook(Square::E4, blockers).contains(Square::E6));
//! assert!(!attacks::rook(Square::E4, blockers).contains(Square::E7));
//! ```

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

const fn empty_board(dirs: &[(i32, i32); 4]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = slide(sq, 0, dirs);
        sq += 1;
    }
    t
}

static ROOK_EMPTY: [u64; 64] = empty_board(&ROOK_DIRS);
static BISHOP_EMPTY: [u64; 64] = empty_board(&BISHOP_DIRS);

/// Rook attacks on an empty board (a fast pre-filter: no slider outside these rays can
/// attack `sq`).
#[inline(always)]
pub(crate) fn rook_empty(sq: Square) -> Bitboard {
    Bitboard(ROOK_EMPTY[sq.index()])
}

/// Bishop attacks on an empty board.
#[inline(always)]
pub(crate) fn bishop_empty(sq: Square) -> Bitboard {
    Bitboard(BISHOP_EMPTY[sq.index()])
}

#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// The relevant occupancy of a slider on `sq`: its rays without the edge squares (an
/// edge square never blocks anything beyond it).
const fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let mut bb = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            bb |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    bb
}

/// Magic numbers found by `tests::magics_are_reproducible` (a fixed-seed xorshift
/// search). Their tables are built and checked for harmful collisions at compile time.
const ROOK_MAGICS: [u64; 64] = [
    0x2080002080400010,
    0x00c0002001401000,
    0x2100110008402002,
    0x0880080081041000,
    0x0200020020041008,
    0x2300040008010012,
    0x0c00283004008201,
    0x0180010000407a80,
    0x0168800080400020,
    0x0010400040201000,
    0x1001002001001048,
    0x1001002408100100,
    0x0801000408010012,
    0x4001000209000400,
    0x08a20004c8020001,
    0x2002801145002280,
    0x0080860021004200,
    0x001000c009402002,
    0x00b0002004002800,
    0x100a808010020800,
    0x8101010008000410,
    0x0244008002000480,
    0x0000040010810208,
    0x2000020000448534,
    0x4104400480008033,
    0x0000810100204000,
    0x0440430900200010,
    0x4600240900100100,
    0x0060080080040080,
    0x0001000300080400,
    0x0004084400011002,
    0x0023040200008041,
    0x0580050043002080,
    0x0400804002802008,
    0x0001002001004010,
    0x1000200901001000,
    0x4410800801800c00,
    0xa012003806001004,
    0x0020100104008802,
    0x0004808402000041,
    0x0010400170898000,
    0x0080500020004004,
    0x1040408012020020,
    0x8010040008004040,
    0x2001080100110004,
    0x0000020004008080,
    0x0021010810040002,
    0x0800008c43020024,
    0x0000800021005100,
    0x0070201040008080,
    0x0000d04282006a00,
    0x0010014400080240,
    0x0001080110050100,
    0x0012000810240600,
    0x0402000801040200,
    0x028100108a004100,
    0x0050800300102045,
    0x8208210040120882,
    0x8010600101183441,
    0x020b000910006045,
    0x0241001002480005,
    0x0081000400880241,
    0x0000009008024124,
    0x0048122980410402,
];
const BISHOP_MAGICS: [u64; 64] = [
    0x0848020822040013,
    0x8010a40085821200,
    0x0008008430840822,
    0x0808048108040000,
    0x1304042100008104,
    0x5001012010204023,
    0x81048801b8200420,
    0x200a008084012000,
    0x0040102001042084,
    0x840a505042428020,
    0x0000700102202920,
    0x44101c0c10800002,
    0x0040040422000000,
    0x0180020802090202,
    0x4020020811041202,
    0x000104308c042000,
    0x4140661002424400,
    0x0028012008010460,
    0x0188062102002a00,
    0x0014004840102008,
    0x0105000290400002,
    0x8001022200410400,
    0x104a041918013446,
    0x008a000082008238,
    0x04a0060008100430,
    0x0008220008820801,
    0x2508041208005010,
    0x4008080200202020,
    0x2441001013004000,
    0x0030008060407000,
    0x4008108000420800,
    0x0012021050290100,
    0x0210080482200500,
    0xcc01112048100480,
    0x0020402806500440,
    0x00048e0080580080,
    0x0040102020020080,
    0x0028010440080807,
    0x4601041108008800,
    0x8040810e04104200,
    0x901210110400088a,
    0xa003080212081050,
    0x00c1004048401004,
    0x900000a014400800,
    0x0008021040405401,
    0x4020008206002090,
    0x0004190424030100,
    0x0424008a02026250,
    0x8004088250900040,
    0x1c00430088a04200,
    0x0001020094040001,
    0x8040210020880061,
    0x2010040450442032,
    0x0800840850044001,
    0x0004040802140004,
    0x0004080a04222020,
    0x8088802110022000,
    0x1081a10416114400,
    0x0205010a24060820,
    0x0000000720411080,
    0x1008000208430400,
    0x580c026028810840,
    0x802020441020a110,
    0x12c0022401020018,
];

const fn magics(dirs: &[(i32, i32); 4], numbers: &[u64; 64], base: u32) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = base;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            magic: numbers[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const ROOK_TABLE_SIZE: u32 = 102_400;
const TABLE_SIZE: usize = 102_400 + 5_248;

static ROOK: [Magic; 64] = magics(&ROOK_DIRS, &ROOK_MAGICS, 0);
static BISHOP: [Magic; 64] = magics(&BISHOP_DIRS, &BISHOP_MAGICS, ROOK_TABLE_SIZE);

const fn fill(table: &mut [u64; TABLE_SIZE], m: &[Magic; 64], dirs: &[(i32, i32); 4]) {
    let mut sq = 0;
    while sq < 64 {
        let Magic {
            mask,
            magic,
            shift,
            offset,
        } = m[sq];
        let mut subset = 0u64;
        loop {
            let att = slide(sq, subset, dirs);
            let idx = offset as usize + (subset.wrapping_mul(magic) >> shift) as usize;
            // Attack sets are never empty, so 0 marks a free slot.
            assert!(table[idx] == 0 || table[idx] == att, "magic collision");
            table[idx] = att;
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
}

const fn build_table() -> [u64; TABLE_SIZE] {
    let mut table = [0u64; TABLE_SIZE];
    fill(&mut table, &ROOK, &ROOK_DIRS);
    fill(&mut table, &BISHOP, &BISHOP_DIRS);
    table
}

static TABLE: [u64; TABLE_SIZE] = build_table();

#[inline(always)]
fn magic_lookup(m: &Magic, occupied: u64) -> u64 {
    TABLE[m.offset as usize + ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
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
    Bitboard(magic_lookup(&BISHOP[sq.index()], occupied.0))
}

/// The squares a rook on `sq` attacks, given the `occupied` squares.
///
/// ```
/// use cajitas_rules::{attacks, Bitboard, Square};
/// assert_eq!(attacks::rook(Square::D4, Bitboard::EMPTY).count(), 14);
/// ```
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(magic_lookup(&ROOK[sq.index()], occupied.0))
}

/// The squares a queen on `sq` attacks, given the `occupied` squares.
///
/// ```
/// use cajitas_rules::{attacks, Bitboard, Square};
/// assert_eq!(attacks::queen(Square::D4, Bitboard::EMPTY).count(), 27);
/// ```
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(
        magic_lookup(&ROOK[sq.index()], occupied.0) | magic_lookup(&BISHOP[sq.index()], occupied.0),
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

    /// The search that found the magic numbers: random sparse candidates from a
    /// fixed-seed xorshift, kept when no two occupancies with different attacks share
    /// an index.
    fn find_magics(dirs: &[(i32, i32); 4], rng: &mut XorShift) -> [u64; 64] {
        let mut found = [0u64; 64];
        let mut epoch = vec![0u32; 4096];
        let mut used = vec![0u64; 4096];
        let mut attempt = 0u32;
        for (sq, out) in found.iter_mut().enumerate() {
            let mask = relevant_mask(sq, dirs);
            let shift = 64 - mask.count_ones();
            let mut occs = Vec::new();
            let mut subset = 0u64;
            loop {
                occs.push((subset, slide(sq, subset, dirs)));
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            *out = loop {
                let candidate = rng.sparse();
                if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                    continue;
                }
                attempt += 1;
                let ok = occs.iter().all(|&(occ, att)| {
                    let idx = (occ.wrapping_mul(candidate) >> shift) as usize;
                    if epoch[idx] != attempt {
                        epoch[idx] = attempt;
                        used[idx] = att;
                        true
                    } else {
                        used[idx] == att
                    }
                });
                if ok {
                    break candidate;
                }
            };
        }
        found
    }

    #[test]
    fn magics_are_reproducible() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        assert_eq!(find_magics(&ROOK_DIRS, &mut rng), ROOK_MAGICS);
        assert_eq!(find_magics(&BISHOP_DIRS, &mut rng), BISHOP_MAGICS);
    }

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
