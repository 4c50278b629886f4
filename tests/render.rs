//! Pixel-level tests of the board renderer, and golden images.
//!
//! Re-bless the golden images (after an intended change of the look) with
//! `BLESS=1 cargo test --test render`, then look at `tests/golden/*.png` before committing.

use std::path::PathBuf;

use cajitas::render::{
    BoardView, Geometry, Highlights, Orientation, RenderOptions, default_renderer, render,
    view::check_square,
};
use cajitas_rules::{Color, Piece, Position, Role, Square};

struct Decoded {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Decoded {
    fn px(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.width + x) * 3) as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

fn decode(png_bytes: &[u8]) -> Decoded {
    let dec = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = dec.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    Decoded {
        width: info.width,
        height: info.height,
        rgb: buf,
    }
}

fn opts(size: u32, orientation: Orientation, theme: &str) -> RenderOptions {
    RenderOptions {
        size,
        orientation,
        theme: theme.to_string(),
    }
}

fn draw(view: &BoardView, h: &Highlights, o: &RenderOptions) -> Decoded {
    decode(&render(view, h, o).expect("render"))
}

fn rgb(c: cajitas::render::theme::Rgb) -> [u8; 3] {
    [c.0, c.1, c.2]
}

/// (col, row) of a square in the picture.
fn cell_of(sq: Square, o: Orientation) -> (usize, usize) {
    let (f, r) = (sq.index() % 8, sq.index() / 8);
    match o {
        Orientation::White => (f, 7 - r),
        Orientation::Black => (7 - f, r),
    }
}

fn centre(g: &Geometry, col: usize, row: usize) -> (u32, u32) {
    let (x0, y0, x1, y1) = g.cell(col, row);
    ((x0 + x1) / 2, (y0 + y1) / 2)
}

const ORIENTATIONS: [Orientation; 2] = [Orientation::White, Orientation::Black];

#[test]
fn square_centres_have_the_theme_colours() {
    for theme_name in default_renderer().theme_names() {
        let theme = default_renderer().theme(theme_name).unwrap().clone();
        for o in ORIENTATIONS {
            let img = draw(
                &BoardView::empty(),
                &Highlights::none(),
                &opts(512, o, theme_name),
            );
            let g = Geometry::new(512);
            for sq in 0..64u32 {
                let sq = Square::new(sq);
                let (x, y) = {
                    let (c, r) = cell_of(sq, o);
                    centre(&g, c, r)
                };
                let want = rgb(theme.square(sq.is_light(), false));
                assert_eq!(img.px(x, y), want, "{theme_name} {o:?} {sq}");
            }
        }
    }
}

fn count_dark(img: &Decoded, g: &Geometry, col: usize, row: usize) -> usize {
    let (x0, y0, x1, y1) = g.cell(col, row);
    let mut n = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            if img.px(x, y).iter().all(|&c| c < 40) {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn a_piece_is_drawn_on_its_square_in_both_orientations() {
    let mut view = BoardView::empty();
    view.set(
        Square::B3,
        Some(Piece {
            color: Color::Black,
            role: Role::Rook,
        }),
    );
    let g = Geometry::new(512);
    for o in ORIENTATIONS {
        let img = draw(&view, &Highlights::none(), &opts(512, o, "brown"));
        let (pc, pr) = cell_of(Square::B3, o);
        for row in 0..8 {
            for col in 0..8 {
                let dark = count_dark(&img, &g, col, row);
                if (col, row) == (pc, pr) {
                    assert!(dark > 500, "{o:?}: the rook has only {dark} dark pixels");
                } else {
                    assert_eq!(dark, 0, "{o:?}: dark pixels in cell ({col}, {row})");
                }
            }
        }
    }
    // White at the bottom: b3 is column 1, row 5; black at the bottom: column 6, row 2.
    assert_eq!(cell_of(Square::B3, Orientation::White), (1, 5));
    assert_eq!(cell_of(Square::B3, Orientation::Black), (6, 2));
}

#[test]
fn white_pieces_are_white_with_a_dark_outline_and_black_pieces_are_dark() {
    let pos = Position::new();
    let img = draw(
        &BoardView::from(&pos),
        &Highlights::none(),
        &opts(512, Orientation::White, "brown"),
    );
    let g = Geometry::new(512);
    let count = |col, row, pred: &dyn Fn([u8; 3]) -> bool| {
        let (x0, y0, x1, y1) = g.cell(col, row);
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| pred(img.px(x, y)))
            .count()
    };
    let white = |p: [u8; 3]| p.iter().all(|&c| c > 245);
    let dark = |p: [u8; 3]| p.iter().all(|&c| c < 40);
    // e1: the white king; e8: the black king.
    assert!(count(4, 7, &white) > 300 && count(4, 7, &dark) > 100);
    assert!(count(4, 0, &dark) > 500);
    assert_eq!(count(4, 0, &white), 0);
}

/// Marks the pixels of a cell that differ from the cell's centre colour, inside one corner
/// quarter: `right`/`bottom` choose the quarter.
fn label_mask(
    img: &Decoded,
    g: &Geometry,
    col: usize,
    row: usize,
    right: bool,
    bottom: bool,
) -> Vec<bool> {
    let (x0, y0, x1, y1) = g.cell(col, row);
    let (cx, cy) = ((x0 + x1) / 2, (y0 + y1) / 2);
    let bg = img.px(x0 + 1, if bottom { y0 + 1 } else { y1 - 2 });
    let xs = if right { cx..x1 } else { x0..cx };
    let ys = if bottom { cy..y1 } else { y0..cy };
    ys.flat_map(|y| xs.clone().map(move |x| (x, y)))
        .map(|(x, y)| img.px(x, y) != bg)
        .collect()
}

#[test]
fn coordinates_flip_with_the_orientation() {
    let g = Geometry::new(512);
    let empty = BoardView::empty();
    let w = draw(
        &empty,
        &Highlights::none(),
        &opts(512, Orientation::White, "brown"),
    );
    let b = draw(
        &empty,
        &Highlights::none(),
        &opts(512, Orientation::Black, "brown"),
    );
    let count = |m: &[bool]| m.iter().filter(|&&v| v).count();
    // Rank labels sit top-right in the right-hand column.
    let w8 = label_mask(&w, &g, 7, 0, true, false); // white: top-right is h8 -> "8"
    let w1 = label_mask(&w, &g, 7, 7, true, false); // white: bottom-right is h1 -> "1"
    let b8 = label_mask(&b, &g, 7, 7, true, false); // black: bottom-right is a8 -> "8"
    let b1 = label_mask(&b, &g, 7, 0, true, false); // black: top-right is a1 -> "1"
    assert!(count(&w8) > 20 && count(&w1) > 10);
    assert_eq!(w8, b8, "'8' is drawn the same, at the bottom for black");
    assert_eq!(w1, b1, "'1' is drawn the same, at the top for black");
    assert_ne!(w8, w1);
    // File labels sit bottom-left in the bottom row.
    let wa = label_mask(&w, &g, 0, 7, false, true); // white: a1 -> "a"
    let wh = label_mask(&w, &g, 7, 7, false, true); // white: h1 -> "h"
    let ba = label_mask(&b, &g, 7, 7, false, true); // black: bottom-right is a8 -> "a"
    let bh = label_mask(&b, &g, 0, 7, false, true); // black: bottom-left is h8 -> "h"
    assert!(count(&wa) > 20 && count(&wh) > 20);
    assert_eq!(wa, ba);
    assert_eq!(wh, bh);
    assert_ne!(wa, wh);
    // A middle square carries no label.
    assert_eq!(count(&label_mask(&w, &g, 3, 3, true, false)), 0);
    assert_eq!(count(&label_mask(&w, &g, 3, 3, false, true)), 0);
}

#[test]
fn last_move_tints_exactly_its_two_squares() {
    let renderer = default_renderer();
    let theme = renderer.theme("green").unwrap().clone();
    let h = Highlights {
        last_move: Some((Square::E2, Square::E4)),
        castle_rook: None,
        check: None,
    };
    let g = Geometry::new(400);
    for o in ORIENTATIONS {
        let img = draw(&BoardView::empty(), &h, &opts(400, o, "green"));
        for sq in 0..64u32 {
            let sq = Square::new(sq);
            let tinted = sq == Square::E2 || sq == Square::E4;
            let (c, r) = cell_of(sq, o);
            let (x0, y0, x1, y1) = g.cell(c, r);
            let want = rgb(theme.square(sq.is_light(), tinted));
            // Centre and the inner corners (labels only sit on edge squares).
            assert_eq!(img.px((x0 + x1) / 2, (y0 + y1) / 2), want, "{o:?} {sq}");
            assert_eq!(img.px(x0 + 1, y0 + 1), want, "{o:?} {sq} corner");
        }
    }
}

#[test]
fn check_glow_is_under_the_checked_king_only() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1").unwrap();
    let h = Highlights::after(&pos, None);
    assert_eq!(h.check, Some(Square::E1));
    assert_eq!(check_square(&Position::new()), None);
    let theme = default_renderer().theme("brown").unwrap().clone();
    let g = Geometry::new(512);
    for o in ORIENTATIONS {
        // The glow alone (no pieces), so its middle is visible.
        let img = draw(&BoardView::empty(), &h, &opts(512, o, "brown"));
        for sq in 0..64u32 {
            let sq = Square::new(sq);
            let (c, r) = cell_of(sq, o);
            let (x, y) = centre(&g, c, r);
            let p = img.px(x, y);
            if sq == Square::E1 {
                assert!(
                    p[0] > 200 && p[1] < 80 && p[2] < 80,
                    "{o:?}: centre of e1 is {p:?}"
                );
                let (x0, y0, _, _) = g.cell(c, r);
                // It fades out: the corner keeps the square's colour.
                assert_eq!(
                    img.px(x0 + 1, y0 + 1),
                    rgb(theme.square(sq.is_light(), false))
                );
            } else {
                assert_eq!(p, rgb(theme.square(sq.is_light(), false)), "{o:?} {sq}");
            }
        }
        // With the king drawn, the glow still shows around it.
        let with_king = draw(&BoardView::from(&pos), &h, &opts(512, o, "brown"));
        let (c, r) = cell_of(Square::E1, o);
        let (x0, y0, x1, y1) = g.cell(c, r);
        let reddish = (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let p = with_king.px(x, y);
                p[0] > 180 && p[1] < 90 && p[2] < 90
            })
            .count();
        assert!(
            reddish > 100,
            "{o:?}: only {reddish} red pixels around the king"
        );
    }
}

/// The mean of (red − green) over the pixels of one cell: how red it looks.
fn mean_red_minus_green(img: &Decoded, g: &Geometry, col: usize, row: usize) -> f64 {
    let (x0, y0, x1, y1) = g.cell(col, row);
    let mut sum = 0i64;
    for y in y0..y1 {
        for x in x0..x1 {
            let p = img.px(x, y);
            sum += i64::from(p[0]) - i64::from(p[1]);
        }
    }
    sum as f64 / f64::from((x1 - x0) * (y1 - y0))
}

/// How much redder a checked king's square is than the same square with the same king not
/// in check, in levels out of 255: at least this much at every theme and size.
const MIN_CHECK_CONTRAST: f64 = 40.0;

#[test]
fn the_check_highlight_is_unmistakable_at_every_theme_and_size() {
    // A back-rank mate: the white king on e1, walled in by its pawns, checked by the rook.
    let pos = Position::from_fen("4k3/8/8/8/8/8/3PPP2/r3K3 w - - 0 1").unwrap();
    assert!(pos.is_checkmate());
    let view = BoardView::from(&pos);
    let in_check = Highlights::after(&pos, None);
    assert_eq!(in_check.check, Some(Square::E1));
    let mut weakest = f64::MAX;
    let mut report = Vec::new();
    for theme in default_renderer().theme_names() {
        for size in [128, 203, 256, 512, 1024] {
            for o in ORIENTATIONS {
                let g = Geometry::new(size);
                let (c, r) = cell_of(Square::E1, o);
                let with = draw(&view, &in_check, &opts(size, o, theme));
                let without = draw(&view, &Highlights::none(), &opts(size, o, theme));
                let rise = mean_red_minus_green(&with, &g, c, r)
                    - mean_red_minus_green(&without, &g, c, r);
                report.push(format!("{theme} {size} px {o:?}: {rise:.1}"));
                weakest = weakest.min(rise);
            }
        }
    }
    let report = report.join("\n");
    eprintln!("check contrast, the mean of R - G over e1 with check minus without:\n{report}");
    assert!(
        weakest >= MIN_CHECK_CONTRAST,
        "the checked king's square is only {weakest:.1} levels redder (R - G) than without \
         check somewhere; want at least {MIN_CHECK_CONTRAST} everywhere:\n{report}"
    );
}

#[test]
fn png_decodes_to_the_requested_size_and_sizes_are_clamped() {
    for (asked, got) in [
        (128, 128),
        (300, 300),
        (512, 512),
        (777, 777),
        (1024, 1024),
        (50, 128),
        (4000, 1024),
    ] {
        let img = draw(
            &BoardView::from(&Position::new()),
            &Highlights::none(),
            &opts(asked, Orientation::White, "blue"),
        );
        assert_eq!((img.width, img.height), (got, got), "asked {asked}");
        assert_eq!(img.rgb.len(), (got * got * 3) as usize);
    }
}

#[test]
fn rendering_is_deterministic() {
    let pos =
        Position::from_fen("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4")
            .unwrap();
    let h = Highlights {
        last_move: Some((Square::H5, Square::F7)),
        castle_rook: None,
        check: check_square(&pos),
    };
    let o = opts(512, Orientation::Black, "brown");
    let a = render(&BoardView::from(&pos), &h, &o).unwrap();
    // A fresh renderer (fresh caches) gives the same bytes.
    let b = cajitas::render::Renderer::new()
        .render(&BoardView::from(&pos), &h, &o)
        .unwrap();
    assert_eq!(a, b);
}

// ---- golden images ----

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// A pixel "differs" when a channel is off by more than this (anti-aliasing may vary a
/// little between CPUs); at most `MAX_DIFFERING` of the pixels may differ.
const CHANNEL_TOLERANCE: u8 = 12;
const MAX_DIFFERING: f64 = 0.002;

fn check_golden(name: &str, png_bytes: &[u8]) {
    let path = golden_dir().join(name);
    if std::env::var_os("BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&path, png_bytes).unwrap();
        eprintln!("blessed {}", path.display());
        return;
    }
    let want_bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; create it with BLESS=1 cargo test --test render",
            path.display()
        )
    });
    let (got, want) = (decode(png_bytes), decode(&want_bytes));
    assert_eq!(
        (got.width, got.height),
        (want.width, want.height),
        "{name}: size"
    );
    let differing = got
        .rgb
        .chunks_exact(3)
        .zip(want.rgb.chunks_exact(3))
        .filter(|(a, b)| {
            a.iter()
                .zip(b.iter())
                .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE)
        })
        .count();
    let total = (got.width * got.height) as f64;
    assert!(
        differing as f64 <= total * MAX_DIFFERING,
        "{name}: {differing} pixels differ from the golden image (re-bless with BLESS=1 if intended)"
    );
}

#[test]
fn golden_initial_position() {
    let png = render(
        &BoardView::from(&Position::new()),
        &Highlights::none(),
        &opts(256, Orientation::White, "brown"),
    )
    .unwrap();
    check_golden("initial-brown-256.png", &png);
}

#[test]
fn golden_scholars_mate_from_blacks_side() {
    let pos =
        Position::from_fen("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4")
            .unwrap();
    let h = Highlights {
        last_move: Some((Square::H5, Square::F7)),
        castle_rook: None,
        check: check_square(&pos),
    };
    let png = render(
        &BoardView::from(&pos),
        &h,
        &opts(256, Orientation::Black, "blue"),
    )
    .unwrap();
    check_golden("scholars-mate-blue-black-256.png", &png);
}

#[test]
fn golden_odd_size_green() {
    // 200 px is not a multiple of 8: squares are 25 px wide.
    let pos = Position::from_fen("8/5pk1/6p1/3Q4/8/6P1/5PKP/3q4 w - - 4 41").unwrap();
    let h = Highlights {
        last_move: Some((Square::D4, Square::D1)),
        castle_rook: None,
        check: None,
    };
    let png = render(
        &BoardView::from(&pos),
        &h,
        &opts(203, Orientation::White, "green"),
    )
    .unwrap();
    check_golden("endgame-green-203.png", &png);
}

#[test]
fn golden_back_rank_mate_brown_512() {
    // The default theme and size, a mated white king: the check glow as the bot shows it.
    let pos = Position::from_fen("4k3/8/8/8/8/8/3PPP2/r3K3 w - - 0 1").unwrap();
    let h = Highlights {
        last_move: Some((Square::A8, Square::A1)),
        castle_rook: None,
        check: check_square(&pos),
    };
    let png = render(
        &BoardView::from(&pos),
        &h,
        &opts(512, Orientation::White, "brown"),
    )
    .unwrap();
    check_golden("back-rank-mate-brown-512.png", &png);
}

#[test]
fn the_default_pieces_are_our_own_set_and_dejavu_stays_an_option() {
    use cajitas::render::{PieceSource, Renderer};
    let pos = Position::new();
    let o = opts(512, Orientation::White, "brown");
    let draw_with = |source: &PieceSource| {
        Renderer::with_pieces(source)
            .unwrap()
            .render(&BoardView::from(&pos), &Highlights::none(), &o)
            .unwrap()
    };
    let default = render(&BoardView::from(&pos), &Highlights::none(), &o).unwrap();
    assert_eq!(default, draw_with(&PieceSource::Cajitas));
    assert_eq!(default, draw_with(&PieceSource::default()));
    assert_ne!(default, draw_with(&PieceSource::DejaVu));
}

/// `docs/pieces-dejavu-vs-cajitas.png`, shown in the README: the same position drawn with the
/// DejaVu glyphs (left) and our own set (right), at 512 px (top) and at 128 px, beside the
/// 128 px board enlarged three times pixel for pixel (bottom).
fn piece_comparison() -> Vec<u8> {
    use cajitas::render::raster::RgbImage;
    use cajitas::render::{PieceSource, Renderer};
    let pos = Position::from_fen(
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
    )
    .unwrap();
    let (margin, gap, column) = (16u32, 24u32, 520u32);
    let (width, height) = (2 * margin + 2 * column + gap, 3 * margin + 512 + 3 * 128);
    let mut sheet = vec![255u8; (width * height * 3) as usize];
    let mut paste = |img: &RgbImage, left: u32, top: u32, zoom: u32| {
        for y in 0..img.height() * zoom {
            for x in 0..img.width() * zoom {
                let i = (((top + y) * width + left + x) * 3) as usize;
                sheet[i..i + 3].copy_from_slice(&img.pixel(x / zoom, y / zoom));
            }
        }
    };
    for (n, source) in [PieceSource::DejaVu, PieceSource::Cajitas]
        .iter()
        .enumerate()
    {
        let renderer = Renderer::with_pieces(source).unwrap();
        let board = |size| {
            renderer
                .render_image(
                    &BoardView::from(&pos),
                    &Highlights::none(),
                    &opts(size, Orientation::White, "brown"),
                )
                .unwrap()
        };
        let left = margin + n as u32 * (column + gap);
        paste(&board(512), left, margin, 1);
        let small = board(128);
        paste(&small, left, 2 * margin + 512, 1);
        paste(&small, left + 136, 2 * margin + 512, 3);
    }
    RgbImage::from_rgb(width, height, sheet).encode_png()
}

#[test]
fn the_readme_comparison_of_the_piece_sets_is_current() {
    // Re-bless with BLESS=1 like the golden images; it lives in docs/ for the README.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/pieces-dejavu-vs-cajitas.png");
    let png = piece_comparison();
    if std::env::var_os("BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &png).unwrap();
        eprintln!("blessed {}", path.display());
        return;
    }
    let want = std::fs::read(&path).expect("docs/pieces-dejavu-vs-cajitas.png (BLESS=1 makes it)");
    let (got, want) = (decode(&png), decode(&want));
    assert_eq!((got.width, got.height), (want.width, want.height));
    let differing = got
        .rgb
        .chunks_exact(3)
        .zip(want.rgb.chunks_exact(3))
        .filter(|(a, b)| {
            a.iter()
                .zip(b.iter())
                .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE)
        })
        .count();
    assert!(
        differing as f64 <= f64::from(got.width * got.height) * MAX_DIFFERING,
        "docs/pieces-dejavu-vs-cajitas.png: {differing} pixels differ (re-bless with BLESS=1)"
    );
}
