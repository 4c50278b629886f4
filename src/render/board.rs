//! The empty board, built once per (theme, size, orientation): squares, coordinate labels,
//! the same board with every square tinted as a last-move square, and the check glow.

use std::sync::Arc;

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::fontdb;

use super::pieces::{FONT_FAMILY, parse_svg};
use super::raster::{RgbImage, Sprite};
use super::theme::{Rgb, Theme};

/// Where the 64 squares sit in a board of `size` pixels. When `size` is not a multiple of
/// 8 the squares are `size / 8` or one pixel more, so the image is exactly `size` wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Board side in pixels.
    pub size: u32,
    /// `size / 8`: the side of the piece sprites.
    pub square: u32,
    edges: [u32; 9],
}

impl Geometry {
    /// The layout of a board `size` pixels wide (size >= 8).
    pub fn new(size: u32) -> Geometry {
        let mut edges = [0; 9];
        for (i, e) in edges.iter_mut().enumerate() {
            *e = i as u32 * size / 8;
        }
        Geometry {
            size,
            square: size / 8,
            edges,
        }
    }

    /// The pixel rectangle `(x0, y0, x1, y1)` (end exclusive) of the cell in column `col`
    /// (0 = left) and row `row` (0 = top).
    pub fn cell(&self, col: usize, row: usize) -> (u32, u32, u32, u32) {
        (
            self.edges[col],
            self.edges[row],
            self.edges[col + 1],
            self.edges[row + 1],
        )
    }

    /// The top-left corner at which a `square`-sized sprite is centred in a cell.
    pub fn sprite_origin(&self, col: usize, row: usize) -> (u32, u32) {
        let (x0, y0, x1, y1) = self.cell(col, row);
        (
            x0 + (x1 - x0 - self.square) / 2,
            y0 + (y1 - y0 - self.square) / 2,
        )
    }
}

/// Whether the cell at (col, row) is a light square. The top-left cell is light from
/// either side (a8 for white, h1 for black).
pub fn cell_is_light(col: usize, row: usize) -> bool {
    (col + row).is_multiple_of(2)
}

/// The coordinate labels of a cell: `(rank label, file label)`. Ranks are on the right-hand
/// column (top-right corner), files on the bottom row (bottom-left corner), as on lichess.
pub fn cell_labels(col: usize, row: usize, white_bottom: bool) -> (Option<char>, Option<char>) {
    let rank = (col == 7).then(|| {
        let n = if white_bottom { 7 - row } else { row };
        char::from(b'1' + n as u8)
    });
    let file = (row == 7).then(|| {
        let n = if white_bottom { col } else { 7 - col };
        char::from(b'a' + n as u8)
    });
    (rank, file)
}

/// The cached empty board for one (theme, size, orientation).
#[derive(Debug)]
pub struct BoardBase {
    /// Squares and labels.
    plain: Cells,
    /// Every square tinted as a last-move square, labels included: highlighted squares are
    /// copied from here.
    tinted: Cells,
    /// The red glow drawn under a king in check, `square` pixels wide.
    pub check: Sprite,
    geo: Geometry,
}

/// A whole board kept in a fraction of its pixels: a cell of one colour as that colour, a
/// cell with a label as its pixels, and each row of cells as one pixel row of its colours,
/// so that a board is drawn by copying rows, as fast as copying a whole picture. Two whole
/// boards per orientation (768 KiB each at 512 px) were most of the renderer's memory.
#[derive(Debug)]
struct Cells {
    /// Row-major from the top-left cell of the picture.
    cells: Vec<Cell>,
    /// Per row of cells, one pixel row across the board: each cell's colour (a cell with
    /// pixels is pasted over it).
    rows: Vec<Vec<u8>>,
}

/// One cell of a board.
#[derive(Debug)]
enum Cell {
    /// Every pixel of the cell has this colour.
    Fill([u8; 3]),
    /// The cell's pixels (a label is drawn on it).
    Pixels(RgbImage),
}

impl Cells {
    /// Keeps `board` (a picture of `geo`'s size) cell by cell.
    fn keep(board: &RgbImage, geo: Geometry) -> Cells {
        let mut cells = Vec::with_capacity(64);
        let mut rows = Vec::with_capacity(8);
        for row in 0..8 {
            let mut line = Vec::with_capacity((geo.size * 3) as usize);
            for col in 0..8 {
                let (x0, y0, x1, y1) = geo.cell(col, row);
                let fill = board.pixel(x0, y0);
                cells.push(if board.rect_is(x0, y0, x1, y1, fill) {
                    Cell::Fill(fill)
                } else {
                    Cell::Pixels(board.crop(x0, y0, x1, y1))
                });
                for _ in x0..x1 {
                    line.extend_from_slice(&fill);
                }
            }
            rows.push(line);
        }
        Cells { cells, rows }
    }

    /// Draws the whole board into `img` (resized to the board, its allocation reused).
    fn draw(&self, geo: Geometry, img: &mut RgbImage) {
        self.draw_band(geo, img, 0..8);
    }

    /// Draws the rows of cells `rows` (0 = top) into `img`, which becomes the band of the
    /// picture they cover (its allocation reused).
    fn draw_band(&self, geo: Geometry, img: &mut RgbImage, rows: std::ops::Range<usize>) {
        let top = geo.cell(0, rows.start).1;
        let bottom = geo.cell(0, rows.end - 1).3;
        let mut row = rows.start;
        img.copy_rows(geo.size, bottom - top, |y| {
            // Pixel rows come in order: the row of cells moves on past its bottom edge.
            while top + y >= geo.cell(0, row).3 {
                row += 1;
            }
            &self.rows[row]
        });
        for row in rows {
            for col in 0..8 {
                if let Cell::Pixels(cell) = &self.cells[row * 8 + col] {
                    let (x0, y0, _, _) = geo.cell(col, row);
                    img.paste(cell, x0, y0 - top);
                }
            }
        }
    }

    /// The colour of every pixel of the cell (`col`, `row`), unless a label is drawn on it.
    fn flat(&self, col: usize, row: usize) -> Option<[u8; 3]> {
        match &self.cells[row * 8 + col] {
            Cell::Fill(c) => Some(*c),
            Cell::Pixels(_) => None,
        }
    }

    /// Copies one cell (`col`, `row` of the picture) into `img`, a band of the picture whose
    /// top pixel row is `top`.
    fn copy_cell(&self, geo: Geometry, img: &mut RgbImage, col: usize, row: usize, top: u32) {
        let (x0, y0, x1, y1) = geo.cell(col, row);
        match &self.cells[row * 8 + col] {
            Cell::Fill(c) => img.fill_rect(x0, y0 - top, x1, y1 - top, *c),
            Cell::Pixels(cell) => img.paste(cell, x0, y0 - top),
        }
    }

    /// The bytes of pixels kept.
    fn pixel_bytes(&self) -> usize {
        let cells: usize = self
            .cells
            .iter()
            .map(|c| match c {
                Cell::Fill(_) => 0,
                Cell::Pixels(img) => img.data().len(),
            })
            .sum();
        cells + self.rows.iter().map(Vec::len).sum::<usize>()
    }
}

/// Each piece already drawn over each colour a square of a theme has (light or dark, plain
/// or last-move tinted): a piece on a square without a label is drawn by copying its rows
/// instead of blending each pixel, which was about a third of drawing a board. Kept per
/// (theme, square side), each only over its ink's bounding box (the rest of the square is
/// the square's colour, already drawn); at 512 px, 48 pieces of at most 64×64 pixels.
pub struct BlendedPieces {
    colours: [[u8; 3]; 4],
    /// `pieces[p * 4 + k]`: sprite `p` over `colours[k]`, its ink's bounding box only.
    pieces: Vec<Blended>,
}

/// One piece over one colour: the pixels of its ink's bounding box, whose top-left corner is
/// `(left, top)` in the sprite.
pub struct Blended {
    pub left: u32,
    pub top: u32,
    pub pixels: RgbImage,
}

impl BlendedPieces {
    /// Draws every sprite over the theme's four square colours.
    pub fn build(theme: &Theme, sprites: &[Sprite]) -> BlendedPieces {
        let colours =
            [(true, false), (false, false), (true, true), (false, true)].map(|(light, tinted)| {
                let c = theme.square(light, tinted);
                [c.0, c.1, c.2]
            });
        let mut pieces = Vec::with_capacity(sprites.len() * colours.len());
        for sprite in sprites {
            let (x0, y0, x1, y1) = sprite.ink_bounds();
            for c in colours {
                let mut img = RgbImage::new(sprite.width(), sprite.height(), c);
                img.blit(sprite, 0, 0);
                pieces.push(Blended {
                    left: x0,
                    top: y0,
                    pixels: img.crop(x0, y0, x1, y1),
                });
            }
        }
        BlendedPieces { colours, pieces }
    }

    /// Sprite `piece` over `colour`, if `colour` is one of the theme's square colours.
    pub fn get(&self, piece: usize, colour: [u8; 3]) -> Option<&Blended> {
        let k = self.colours.iter().position(|&c| c == colour)?;
        self.pieces.get(piece * self.colours.len() + k)
    }

    /// The bytes of pixels kept.
    pub fn pixel_bytes(&self) -> usize {
        self.pieces.iter().map(|b| b.pixels.data().len()).sum()
    }
}

impl BoardBase {
    /// Draws the empty board. Runs once per key, never per move.
    pub fn build(
        theme: &Theme,
        geo: Geometry,
        white_bottom: bool,
        fonts: &Arc<fontdb::Database>,
    ) -> BoardBase {
        let rgb = |c: Rgb| [c.0, c.1, c.2];
        let mut plain = RgbImage::new(geo.size, geo.size, rgb(theme.light));
        let mut tinted = plain.clone();
        for row in 0..8 {
            for col in 0..8 {
                let (x0, y0, x1, y1) = geo.cell(col, row);
                let light = cell_is_light(col, row);
                plain.fill_rect(x0, y0, x1, y1, rgb(theme.square(light, false)));
                tinted.fill_rect(x0, y0, x1, y1, rgb(theme.square(light, true)));
            }
        }
        if let Some(labels) = label_layer(theme, geo, white_bottom, fonts) {
            plain.blit_pixmap(&labels);
            tinted.blit_pixmap(&labels);
        }
        BoardBase {
            plain: Cells::keep(&plain, geo),
            tinted: Cells::keep(&tinted, geo),
            check: check_glow(theme.check, geo.square, fonts),
            geo,
        }
    }

    /// The one colour of the cell (`col`, `row` of the picture), plain or as a last-move
    /// square, or `None` for a cell with a label.
    pub fn flat_colour(&self, col: usize, row: usize, tinted: bool) -> Option<[u8; 3]> {
        if tinted {
            self.tinted.flat(col, row)
        } else {
            self.plain.flat(col, row)
        }
    }

    /// Draws the empty board into `img` (resized to the board, its allocation reused).
    pub fn draw_plain(&self, img: &mut RgbImage) {
        self.plain.draw(self.geo, img);
    }

    /// Draws the rows of cells `rows` (0 = top) of the empty board into `img`, which
    /// becomes the band of the picture they cover (its allocation reused).
    pub fn draw_plain_band(&self, img: &mut RgbImage, rows: std::ops::Range<usize>) {
        self.plain.draw_band(self.geo, img, rows);
    }

    /// Copies the cell (`col`, `row` of the picture) of the empty board into `img`, a band
    /// of the picture whose top pixel row is `top` (0 for the whole picture).
    pub fn copy_plain_cell_in_band(&self, img: &mut RgbImage, col: usize, row: usize, top: u32) {
        self.plain.copy_cell(self.geo, img, col, row, top);
    }

    /// Copies the cell (`col`, `row` of the picture) of the tinted board into `img`, a band
    /// of the picture whose top pixel row is `top`.
    pub fn copy_tinted_cell_in_band(&self, img: &mut RgbImage, col: usize, row: usize, top: u32) {
        self.tinted.copy_cell(self.geo, img, col, row, top);
    }

    /// The whole empty board (made on demand).
    pub fn plain_image(&self) -> RgbImage {
        let mut img = RgbImage::new(0, 0, [0, 0, 0]);
        self.plain.draw(self.geo, &mut img);
        img
    }

    /// The whole tinted board (made on demand: the GIF palette samples it).
    pub fn tinted_image(&self) -> RgbImage {
        let mut img = RgbImage::new(0, 0, [0, 0, 0]);
        self.tinted.draw(self.geo, &mut img);
        img
    }

    /// The bytes of pixels this board keeps (both boards' rows and labelled cells, the
    /// glow).
    pub fn pixel_bytes(&self) -> usize {
        self.plain.pixel_bytes() + self.tinted.pixel_bytes() + self.check.pixels().len()
    }
}

/// Size of the label font relative to a square (lichess: 8–12 px on 60–90 px squares).
const LABEL_SIZE: f32 = 0.2;

/// The 16 coordinate labels on a transparent layer, as one SVG rendered with the embedded
/// DejaVu Sans Bold.
fn label_layer(
    theme: &Theme,
    geo: Geometry,
    white_bottom: bool,
    fonts: &Arc<fontdb::Database>,
) -> Option<Pixmap> {
    let fs = (geo.square as f32 * LABEL_SIZE).max(7.0);
    let pad = (geo.square as f32 * 0.06).max(1.0);
    let mut texts = String::new();
    for row in 0..8 {
        for col in 0..8 {
            let (x0, y0, x1, y1) = geo.cell(col, row);
            let colour = theme.coord(cell_is_light(col, row)).hex();
            let (rank, file) = cell_labels(col, row, white_bottom);
            if let Some(r) = rank {
                let (x, y) = (x1 as f32 - pad, y0 as f32 + pad + fs * 0.73);
                texts.push_str(&format!(
                    r#"<text x="{x}" y="{y}" text-anchor="end" fill="{colour}">{r}</text>"#
                ));
            }
            if let Some(f) = file {
                let (x, y) = (x0 as f32 + pad, y1 as f32 - pad - fs * 0.2);
                texts.push_str(&format!(
                    r#"<text x="{x}" y="{y}" fill="{colour}">{f}</text>"#
                ));
            }
        }
    }
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{s}" height="{s}"><g font-family="{FONT_FAMILY}" font-weight="bold" font-size="{fs}">{texts}</g></svg>"#,
        s = geo.size
    );
    let tree = parse_svg(&svg, fonts).ok()?;
    let mut pm = Pixmap::new(geo.size, geo.size)?;
    resvg::render(&tree, Transform::identity(), &mut pm.as_mut());
    Some(pm)
}

/// A radial glow: the theme's check colour in the middle, darker and fading to nothing
/// towards the square's corners, drawn under the king. The stops are lichess's
/// (`radial-gradient(ellipse at center, …)`, whose radius reaches the corners, 50·√2 units
/// of a 100-unit square), with the solid core widened from 25% to 50% of the radius: a king
/// hides the middle of the square, and with lichess's core the checked square of the brown
/// theme is under 40 levels of (red − green) redder than unchecked at small sizes; with
/// this one it is 53 or more (see the test
/// `the_check_highlight_is_unmistakable_at_every_theme_and_size`). Rasterised once per
/// theme, size and orientation, with the rest of the [`BoardBase`].
fn check_glow(centre: Rgb, side: u32, fonts: &Arc<fontdb::Database>) -> Sprite {
    let scale = |c: Rgb, k: u32| {
        Rgb(
            (u32::from(c.0) * k / 100) as u8,
            (u32::from(c.1) * k / 100) as u8,
            (u32::from(c.2) * k / 100) as u8,
        )
    };
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" viewBox="0 0 100 100">
<radialGradient id="g" cx="50" cy="50" r="70.71" gradientUnits="userSpaceOnUse">
<stop offset="0" stop-color="{c0}"/><stop offset="0.5" stop-color="{c1}"/>
<stop offset="0.89" stop-color="{c2}" stop-opacity="0"/><stop offset="1" stop-color="{c2}" stop-opacity="0"/>
</radialGradient><rect width="100" height="100" fill="url(#g)"/></svg>"#,
        c0 = centre.hex(),
        c1 = scale(centre, 91).hex(),
        c2 = scale(centre, 66).hex(),
    );
    let mut pm = Pixmap::new(side, side).expect("square side is at least 16 px");
    if let Ok(tree) = parse_svg(&svg, fonts) {
        // The viewBox already maps the 100-unit drawing onto `side` pixels.
        resvg::render(&tree, Transform::identity(), &mut pm.as_mut());
    }
    Sprite::from_pixmap(&pm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_tile_the_board_exactly_for_any_size() {
        for size in [128, 130, 500, 511, 512, 1023, 1024] {
            let g = Geometry::new(size);
            assert_eq!(g.cell(0, 0).0, 0);
            assert_eq!(g.cell(7, 7).2, size);
            for i in 0..7 {
                assert_eq!(g.cell(i, 0).2, g.cell(i + 1, 0).0);
                let w = g.cell(i, 0).2 - g.cell(i, 0).0;
                assert!(w == g.square || w == g.square + 1, "{size}: {w}");
            }
        }
    }

    #[test]
    fn the_boards_are_kept_in_a_fraction_of_a_board_and_give_the_same_pictures() {
        // The plain board was a whole board (768 KiB at 512 px, per orientation and theme)
        // beside the tinted one's labelled cells, 1.2 boards in all; only the cells with a
        // label are kept as pixels now, with a row of colours per row of cells.
        let fonts = super::super::pieces::embedded_fonts();
        for theme in &super::super::theme::builtin_themes() {
            for (size, white_bottom) in [(512, true), (512, false), (130, true), (1023, false)] {
                let geo = Geometry::new(size);
                let base = BoardBase::build(theme, geo, white_bottom, &fonts);
                let board = (size * size * 3) as usize;
                assert!(
                    base.pixel_bytes() < board * 2 / 3,
                    "{} bytes for a {board}-byte board",
                    base.pixel_bytes()
                );
                // The same pictures as drawn whole: squares, then the labels over them.
                let rgb = |c: Rgb| [c.0, c.1, c.2];
                let labels = label_layer(theme, geo, white_bottom, &fonts).unwrap();
                for (tint, kept) in [(false, base.plain_image()), (true, base.tinted_image())] {
                    let mut whole = RgbImage::new(size, size, [0, 0, 0]);
                    for row in 0..8 {
                        for col in 0..8 {
                            let (x0, y0, x1, y1) = geo.cell(col, row);
                            let c = theme.square(cell_is_light(col, row), tint);
                            whole.fill_rect(x0, y0, x1, y1, rgb(c));
                        }
                    }
                    whole.blit_pixmap(&labels);
                    assert!(kept == whole, "{} {size} {white_bottom} {tint}", theme.name);
                    // Drawn into a canvas of another size, its allocation reused.
                    let mut canvas = RgbImage::new(7, 3, [1, 2, 3]);
                    if tint {
                        base.tinted.draw(geo, &mut canvas);
                    } else {
                        base.draw_plain(&mut canvas);
                    }
                    assert!(canvas == whole);
                    // Cell by cell, over anything.
                    let mut cells = RgbImage::new(size, size, [9, 9, 9]);
                    for row in 0..8 {
                        for col in 0..8 {
                            if tint {
                                base.copy_tinted_cell_in_band(&mut cells, col, row, 0);
                            } else {
                                base.copy_plain_cell_in_band(&mut cells, col, row, 0);
                            }
                        }
                    }
                    assert!(cells == whole);
                }
            }
        }
    }

    #[test]
    fn labels_follow_the_orientation() {
        // White at the bottom: the bottom-right cell is h1, the bottom-left is a1.
        assert_eq!(cell_labels(7, 7, true), (Some('1'), Some('h')));
        assert_eq!(cell_labels(0, 7, true), (None, Some('a')));
        assert_eq!(cell_labels(7, 0, true), (Some('8'), None));
        // Black at the bottom: bottom-right is a8, bottom-left is h8.
        assert_eq!(cell_labels(7, 7, false), (Some('8'), Some('a')));
        assert_eq!(cell_labels(0, 7, false), (None, Some('h')));
        assert_eq!(cell_labels(3, 3, false), (None, None));
    }

    #[test]
    fn check_glow_is_red_in_the_middle_and_clear_at_the_corners() {
        let fonts = super::super::pieces::embedded_fonts();
        let s = check_glow(Rgb(255, 0, 0), 64, &fonts);
        assert!(s.count_alpha_at_least(200) > 50);
        let mut img = RgbImage::new(64, 64, [255, 255, 255]);
        img.blit(&s, 0, 0);
        let mid = img.pixel(32, 32);
        assert!(mid[0] > 200 && mid[1] < 60 && mid[2] < 60, "{mid:?}");
        assert_eq!(img.pixel(0, 0), [255, 255, 255]);
    }
}
