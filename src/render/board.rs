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
    pub plain: RgbImage,
    /// Every square tinted as a last-move square, labels included, cell by cell (row-major
    /// from the top-left cell of the picture): highlighted squares are copied from here. A
    /// cell without a label is one colour and is kept as that colour: a whole tinted board
    /// (768 KiB at 512 px, per orientation) was most of the renderer's memory.
    tinted: Vec<TintedCell>,
    /// The red glow drawn under a king in check, `square` pixels wide.
    pub check: Sprite,
    geo: Geometry,
}

/// One cell of the tinted board.
#[derive(Debug)]
enum TintedCell {
    /// Every pixel of the cell has this colour.
    Fill([u8; 3]),
    /// The cell's pixels (a label is drawn on it).
    Pixels(RgbImage),
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
        // Kept cell by cell: exactly the pixels of the whole tinted board, in far less memory.
        let mut cells = Vec::with_capacity(64);
        for row in 0..8 {
            for col in 0..8 {
                let (x0, y0, x1, y1) = geo.cell(col, row);
                let fill = tinted.pixel(x0, y0);
                cells.push(if tinted.rect_is(x0, y0, x1, y1, fill) {
                    TintedCell::Fill(fill)
                } else {
                    TintedCell::Pixels(tinted.crop(x0, y0, x1, y1))
                });
            }
        }
        BoardBase {
            plain,
            tinted: cells,
            check: check_glow(theme.check, geo.square, fonts),
            geo,
        }
    }

    /// Copies the cell (`col`, `row` of the picture) of the tinted board into `img` (a
    /// picture of the board's size).
    pub fn copy_tinted_cell(&self, img: &mut RgbImage, col: usize, row: usize) {
        let (x0, y0, x1, y1) = self.geo.cell(col, row);
        match &self.tinted[row * 8 + col] {
            TintedCell::Fill(c) => img.fill_rect(x0, y0, x1, y1, *c),
            TintedCell::Pixels(cell) => img.paste(cell, x0, y0),
        }
    }

    /// The whole tinted board (built on demand: the GIF palette samples it).
    pub fn tinted_image(&self) -> RgbImage {
        let mut img = self.plain.clone();
        for row in 0..8 {
            for col in 0..8 {
                self.copy_tinted_cell(&mut img, col, row);
            }
        }
        img
    }

    /// The bytes of pixels this board keeps (the plain board, the tinted cells with a label,
    /// the glow).
    pub fn pixel_bytes(&self) -> usize {
        let cells: usize = self
            .tinted
            .iter()
            .map(|c| match c {
                TintedCell::Fill(_) => 0,
                TintedCell::Pixels(img) => img.data().len(),
            })
            .sum();
        self.plain.data().len() + cells + self.check.pixels().len()
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
    fn the_tinted_board_is_kept_in_a_fraction_of_a_board() {
        // It was a second whole board (768 KiB at 512 px, per orientation and theme); only
        // the cells with a label are kept as pixels now, and they give the same picture.
        let fonts = super::super::pieces::embedded_fonts();
        let theme = &super::super::theme::builtin_themes()[0];
        let geo = Geometry::new(512);
        let base = BoardBase::build(theme, geo, true, &fonts);
        let board = 512 * 512 * 3;
        assert!(
            base.pixel_bytes() < board + board / 3,
            "{} bytes for a {board}-byte board",
            base.pixel_bytes()
        );
        let tinted = base.tinted_image();
        let light = [
            theme.square(true, true).0,
            theme.square(true, true).1,
            theme.square(true, true).2,
        ];
        let (x0, y0, x1, y1) = geo.cell(0, 0);
        assert!(
            tinted.rect_is(x0, y0, x1, y1, light),
            "a1's neighbour a8 is a light square, tinted"
        );
        assert_ne!(tinted, base.plain);
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
