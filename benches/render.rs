//! `cargo bench --bench render`: the board renderer on every position of seven famous games
//! (about 400 boards), at 512 and 1024 px, against the naive path (a full SVG per move,
//! parsed by usvg, rendered by resvg, encoded by tiny-skia's `encode_png`).
//!
//! Prints the median time per board, the encoded sizes, and the ratio naive / fast.
//! Single-threaded: one core. The machine may be shared, so figures vary run to run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use cajitas::render::pieces::{FONT_FAMILY, embedded_fonts, parse_svg};
use cajitas::render::view::check_square;
use cajitas::render::{BoardView, Highlights, Orientation, RenderOptions, Renderer, Theme};
use cajitas_rules::{CastlingSide, Color, Move, Position, Role, Square};

/// Game scores in SAN (check and mate marks are ignored).
const GAMES: [(&str, &str); 7] = [
    (
        "Morphy v Duke of Brunswick and Count Isouard, Paris 1858",
        "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 \
         Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#",
    ),
    (
        "Anderssen v Kieseritzky, London 1851",
        "e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6 Rg1 cxb5 \
         h4 Qg6 h5 Qg5 Qf3 Ng8 Bxf4 Qf6 Nc3 Bc5 Nd5 Qxb2 Bd6 Bxg1 e5 Qxa1+ Ke2 Na6 Nxg7+ Kd8 \
         Qf6+ Nxf6 Be7#",
    ),
    (
        "Anderssen v Dufresne, Berlin 1852",
        "e4 e5 Nf3 Nc6 Bc4 Bc5 b4 Bxb4 c3 Ba5 d4 exd4 O-O d3 Qb3 Qf6 e5 Qg6 Re1 Nge7 Ba3 b5 \
         Qxb5 Rb8 Qa4 Bb6 Nbd2 Bb7 Ne4 Qf5 Bxd3 Qh5 Nf6+ gxf6 exf6 Rg8 Rad1 Qxf3 Rxe7+ Nxe7 \
         Qxd7+ Kxd7 Bf5+ Ke8 Bd7+ Kf8 Bxe7#",
    ),
    (
        "D. Byrne v Fischer, New York 1956",
        "Nf3 Nf6 c4 g6 Nc3 Bg7 d4 O-O Bf4 d5 Qb3 dxc4 Qxc4 c6 e4 Nbd7 Rd1 Nb6 Qc5 Bg4 Bg5 Na4 \
         Qa3 Nxc3 bxc3 Nxe4 Bxe7 Qb6 Bc4 Nxc3 Bc5 Rfe8+ Kf1 Be6 Bxb6 Bxc4+ Kg1 Ne2+ Kf1 Nxd4+ \
         Kg1 Ne2+ Kf1 Nc3+ Kg1 axb6 Qb4 Ra4 Qxb6 Nxd1 h3 Rxa2 Kh2 Nxf2 Re1 Rxe1 Qd8+ Bf8 Nxe1 \
         Bd5 Nf3 Ne4 Qb8 b5 h4 h5 Ne5 Kg7 Kg1 Bc5+ Kf1 Ng3+ Ke1 Bb4+ Kd1 Bb3+ Kc1 Ne2+ Kb1 \
         Nc3+ Kc1 Rc2#",
    ),
    (
        "Kasparov v Topalov, Wijk aan Zee 1999",
        "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 O-O-O Qe7 \
         Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7 Rhe1 d4 \
         Nd5 Nbxd5 exd5 Qd6 Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7 Rxb7 Qc4 \
         Qxf6 Kxa3 Qxa6+ Kxb4 c3+ Kxc3 Qa1+ Kd2 Qb2+ Kd1 Bf1 Rd2 Rd7 Rxd7 Bxc4 bxc4 Qxh8 Rd3 \
         Qa8 c3 Qa4+ Ke1 f4 f5 Kc1 Rd2 Qa7",
    ),
    (
        "Reti v Tartakower, Vienna 1910",
        "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Nf6 Qd3 e5 dxe5 Qa5+ Bd2 Qxe5 O-O-O Nxe4 Qd8+ Kxd8 Bg5+ \
         Kc7 Bd8#",
    ),
    (
        "Fischer v Spassky, Reykjavik 1972, game 6",
        "c4 e6 Nf3 d5 d4 Nf6 Nc3 Be7 Bg5 O-O e3 h6 Bh4 b6 cxd5 Nxd5 Bxe7 Qxe7 Nxd5 exd5 Rc1 \
         Be6 Qa4 c5 Qa3 Rc8 Bb5 a6 dxc5 bxc5 O-O Ra7 Be2 Nd7 Nd4 Qf8 Nxe6 fxe6 e4 d4 f4 Qe7 \
         e5 Rb8 Bc4 Kh8 Qh3 Nf8 b3 a5 f5 exf5 Rxf5 Nh7 Rcf1 Qd8 Qg3 Re7 h4 Rbb7 e6 Rbc7 Qe5 \
         Qe8 a4 Qd8 R1f2 Qe8 R2f3 Qd8 Bd3 Qe8 Qe4 Nf6 Rxf6 gxf6 Rxf6 Kg8 Bc4 Kh8 Qf4",
    ),
];

/// Finds the legal move a SAN string names (enough SAN for well-formed game scores).
fn san_to_move(pos: &Position, san: &str) -> Option<Move> {
    let san = san.trim_end_matches(['+', '#', '!', '?']);
    let legal = pos.legal_moves();
    let castle = match san {
        "O-O" => Some(CastlingSide::KingSide),
        "O-O-O" => Some(CastlingSide::QueenSide),
        _ => None,
    };
    if castle.is_some() {
        return legal.iter().copied().find(|m| m.castling_side() == castle);
    }
    let (body, promotion) = match san.split_once('=') {
        Some((b, p)) => (b, Role::from_char(p.chars().next()?)),
        None => (san, None),
    };
    let mut chars: Vec<char> = body.chars().filter(|&c| c != 'x').collect();
    let role = match chars.first()? {
        'K' => Role::King,
        'Q' => Role::Queen,
        'R' => Role::Rook,
        'B' => Role::Bishop,
        'N' => Role::Knight,
        _ => Role::Pawn,
    };
    if role != Role::Pawn {
        chars.remove(0);
    }
    if chars.len() < 2 {
        return None;
    }
    let dest: String = chars[chars.len() - 2..].iter().collect();
    let to: Square = dest.parse().ok()?;
    let hint = &chars[..chars.len() - 2];
    legal.iter().copied().find(|m| {
        !m.is_castle()
            && m.role() == role
            && m.to() == to
            && m.promotion() == promotion
            && hint.iter().all(|&h| {
                let from = m.from().to_string();
                from.contains(h)
            })
    })
}

/// Every position of the games, with the move that led to it.
fn positions() -> Vec<(Position, Option<Move>)> {
    let mut out = Vec::new();
    for (name, score) in GAMES {
        let mut pos = Position::new();
        out.push((pos.clone(), None));
        for san in score.split_whitespace() {
            let m = san_to_move(&pos, san)
                .unwrap_or_else(|| panic!("{name}: {san} is not legal in {}", pos.fen()));
            pos.play(m);
            out.push((pos.clone(), Some(m)));
        }
    }
    out
}

fn orientation(pos: &Position) -> Orientation {
    match pos.turn() {
        Color::White => Orientation::White,
        Color::Black => Orientation::Black,
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The naive path: one SVG document per move (squares, labels, highlights, glyphs), parsed
/// by usvg (text to paths), rendered by resvg, encoded by tiny-skia (`encode_png`).
fn naive_svg(pos: &Position, last: Option<Move>, size: u32, theme: &Theme) -> String {
    let o = orientation(pos);
    let s = size as f32 / 8.0;
    let cell = |sq: Square| {
        let (f, r) = (sq.index() % 8, sq.index() / 8);
        let (c, row) = match o {
            Orientation::White => (f, 7 - r),
            Orientation::Black => (7 - f, r),
        };
        (c as f32 * s, row as f32 * s)
    };
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}"><defs><radialGradient id="chk" r="0.7071"><stop offset="0" stop-color="{c}"/><stop offset="0.5" stop-color="{c}"/><stop offset="0.89" stop-color="{c}" stop-opacity="0"/></radialGradient></defs>"#,
        c = theme.check.hex()
    );
    let last_squares = last.map(|m| [m.from(), m.to()]);
    for i in 0..64 {
        let sq = Square::new(i);
        let (x, y) = cell(sq);
        let tinted = last_squares.is_some_and(|l| l.contains(&sq));
        let fill = theme.square(sq.is_light(), tinted).hex();
        svg.push_str(&format!(
            r#"<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{fill}"/>"#
        ));
    }
    let fs = s * 0.2;
    for i in 0..8 {
        let (file_sq, rank_sq) = match o {
            Orientation::White => (Square::new(i), Square::new(i * 8 + 7)),
            Orientation::Black => (Square::new(56 + i), Square::new(i * 8)),
        };
        let (x, y) = cell(file_sq);
        svg.push_str(&format!(
            r#"<text x="{}" y="{}" font-family="{FONT_FAMILY}" font-weight="bold" font-size="{fs}" fill="{}">{}</text>"#,
            x + 3.0,
            y + s - 3.0 - fs * 0.2,
            theme.coord(file_sq.is_light()).hex(),
            (b'a' + (i as u8)) as char
        ));
        let (x, y) = cell(rank_sq);
        svg.push_str(&format!(
            r#"<text x="{}" y="{}" text-anchor="end" font-family="{FONT_FAMILY}" font-weight="bold" font-size="{fs}" fill="{}">{}</text>"#,
            x + s - 3.0,
            y + 3.0 + fs * 0.73,
            theme.coord(rank_sq.is_light()).hex(),
            (b'1' + (rank_sq.index() / 8) as u8) as char
        ));
    }
    if let Some(k) = check_square(pos) {
        let (x, y) = cell(k);
        svg.push_str(&format!(
            r#"<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="url(#chk)"/>"#
        ));
    }
    const OFFSET: [u32; 6] = [5, 4, 3, 2, 1, 0];
    for (sq, piece) in pos.board().iter() {
        let (x, y) = cell(sq);
        let role = match piece.role {
            Role::Pawn => 0,
            Role::Knight => 1,
            Role::Bishop => 2,
            Role::Rook => 3,
            Role::Queen => 4,
            Role::King => 5,
        };
        let solid = char::from_u32(0x265A + OFFSET[role]).unwrap_or('?');
        let attrs = format!(
            r#"x="{}" y="{}" font-family="{FONT_FAMILY}" font-size="{}" text-anchor="middle""#,
            x + s / 2.0,
            y + s * 0.8,
            s * 0.8
        );
        if piece.color == Color::White {
            let outline = char::from_u32(0x2654 + OFFSET[role]).unwrap_or('?');
            svg.push_str(&format!(
                r##"<text {attrs} fill="#fff">{solid}</text><text {attrs} fill="#000">{outline}</text>"##
            ));
        } else {
            svg.push_str(&format!(r##"<text {attrs} fill="#000">{solid}</text>"##));
        }
    }
    svg.push_str("</svg>");
    svg
}

fn main() {
    let boards = positions();
    println!(
        "render bench: {} positions from {} games, one thread; the machine may be shared (noisy)",
        boards.len(),
        GAMES.len()
    );
    let t = Instant::now();
    // The shipped pieces, unless `CAJITAS_PIECES` names others (as the bot reads it): the
    // DejaVu glyphs, the default before issue 26, compare like with like against older builds.
    let renderer = Renderer::with_pieces(&cajitas::render::PieceSource::from_setting(
        std::env::var_os("CAJITAS_PIECES").as_deref(),
    ))
    .expect("the pieces");
    let startup = t.elapsed();
    let theme = renderer.theme("brown").expect("brown theme").clone();
    let fonts = embedded_fonts();
    println!(
        "renderer built (fonts, 12 glyphs parsed): {:.2} ms",
        ms(startup)
    );
    println!();
    println!(
        "| size | fast: median per board | p90 | encoded median / max | naive (SVG→resvg→encode_png) median | naive / fast |"
    );
    println!("|---|---|---|---|---|---|");
    for size in [512u32, 1024] {
        // Warm the caches for both orientations (start-up work, timed separately).
        let t = Instant::now();
        for o in [Orientation::White, Orientation::Black] {
            let options = RenderOptions {
                size,
                orientation: o,
                theme: "brown".to_string(),
            };
            renderer.prepare(&options).expect("prepare");
        }
        let prep = t.elapsed();
        let mut times = Vec::new();
        let mut sizes = Vec::new();
        for round in 0..3 {
            for (pos, last) in &boards {
                let options = RenderOptions {
                    size,
                    orientation: orientation(pos),
                    theme: "brown".to_string(),
                };
                let t = Instant::now();
                let view = BoardView::from(pos);
                let h = Highlights::after(pos, *last);
                let png = renderer.render(&view, &h, &options).expect("render");
                times.push(t.elapsed());
                if round == 0 {
                    sizes.push(png.len());
                }
                black_box(png);
            }
        }
        sizes.sort();
        let mut sorted = times.clone();
        sorted.sort();
        let p90 = sorted[sorted.len() * 9 / 10];
        let fast = median(times);
        // The naive path is ~10–20 ms a board: a sample of the positions is enough.
        let mut naive = Vec::new();
        for (pos, last) in boards.iter().step_by(8) {
            let t = Instant::now();
            let svg = naive_svg(pos, *last, size, &theme);
            let tree = parse_svg(&svg, &fonts).expect("naive SVG parses");
            let mut pm = resvg::tiny_skia::Pixmap::new(size, size).expect("pixmap");
            resvg::render(
                &tree,
                resvg::tiny_skia::Transform::identity(),
                &mut pm.as_mut(),
            );
            let png = pm.encode_png().expect("encode_png");
            naive.push(t.elapsed());
            black_box(png);
        }
        let naive_n = naive.len();
        let slow = median(naive);
        println!(
            "| {size} px | **{:.3} ms** | {:.3} ms | {:.1} KiB / {:.1} KiB | {:.2} ms ({} boards) | **{:.1}×** |",
            ms(fast),
            ms(p90),
            sizes[sizes.len() / 2] as f64 / 1024.0,
            sizes[sizes.len() - 1] as f64 / 1024.0,
            ms(slow),
            naive_n,
            slow.as_secs_f64() / fast.as_secs_f64()
        );
        eprintln!(
            "  ({size} px: sprites and both empty boards built in {:.2} ms)",
            ms(prep)
        );
    }
    println!();
    println!(
        "targets: 512 px median <= 1.5 ms (goal 1 ms) and <= 64 KiB; 1024 px median <= 4.5 ms (goal 3 ms)"
    );
}
