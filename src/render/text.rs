//! Lines of text in the embedded DejaVu Sans, drawn from glyphs rasterised once.
//!
//! A chart's dozen labels and a GIF's names were laid out through an SVG document each
//! time: usvg parsed it, built harfrust's shaping tables for the font again for every
//! `<text>` (7% of a chart's time) and rasterised every glyph's outline again. Here the
//! shaping tables are built once per face, and each glyph is rasterised once per size and
//! quarter-pixel position (by tiny-skia's anti-aliased filler, as resvg does) and kept as a
//! coverage mask; a line is shaped (kerning and ligatures as usvg shapes them) and its
//! glyphs' masks are blended onto the picture.
//!
//! The kept masks are bounded ([`GLYPHS_KEPT`]): past that, the store starts again, so
//! text that goes through many glyphs costs rasterising, never memory.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use harfrust::{Direction, FontRef, ShapeOptions, ShaperData, UnicodeBuffer};
use resvg::tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Transform};
use skrifa::MetadataProvider;
use skrifa::instance::{LocationRef, Size};
use skrifa::outline::{DrawSettings, OutlinePen};

use super::raster::RgbImage;

/// Glyph masks kept at most (a few hundred are used: digits and letters at a few sizes and
/// positions). Each is a few hundred bytes.
pub const GLYPHS_KEPT: usize = 4096;

/// Positions of a glyph within a pixel, per axis: a glyph is drawn at the nearest quarter.
const PHASES: f32 = 4.0;

/// A face of the embedded font.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Weight {
    /// DejaVu Sans.
    Regular,
    /// DejaVu Sans Bold.
    Bold,
}

/// Where a line's `x` is: its start, middle or end (SVG's `text-anchor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The line starts at `x`.
    Start,
    /// The line is centred on `x`.
    Middle,
    /// The line ends at `x`.
    End,
}

/// A face's data and its shaping tables, built once.
struct Face {
    data: &'static [u8],
    shaping: ShaperData,
}

/// The two faces and the kept glyph masks.
struct Engine {
    faces: [Face; 2],
    glyphs: RwLock<HashMap<Key, Option<Arc<Mask>>>>,
}

/// A glyph at one size and one position within a pixel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    weight: Weight,
    glyph: u32,
    /// The font size in 1/64 px.
    size: u32,
    /// The quarter pixel, across and down.
    phase: (u8, u8),
}

/// A glyph's coverage: `width`×`height` alpha values whose top-left pixel is (`left`,
/// `top`) from the pixel of the glyph's origin; `ink` is its outline's bounds (left, top,
/// right, bottom) from the origin, in pixels.
#[derive(Debug)]
struct Mask {
    left: i32,
    top: i32,
    width: u32,
    alpha: Vec<u8>,
    ink: [f32; 4],
}

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let face = |data: &'static [u8]| Face {
            data,
            shaping: FontRef::new(data)
                .map(|f| ShaperData::new(&f))
                .expect("the embedded DejaVu Sans is a font"),
        };
        Engine {
            faces: [face(dejavu::sans::regular()), face(dejavu::sans::bold())],
            glyphs: RwLock::new(HashMap::new()),
        }
    })
}

/// One line of text laid out at a place: its glyphs, ready to draw.
#[derive(Debug, Clone)]
pub struct TextLine {
    /// Each drawn glyph's mask and the pixel of its mask's top-left corner.
    glyphs: Vec<(Arc<Mask>, i32, i32)>,
    /// The pen's travel: the line's advance, in pixels.
    advance: f32,
    /// The union of the glyphs' outline bounds (left, top, right, bottom), if any is drawn.
    ink: Option<[f32; 4]>,
}

impl TextLine {
    /// Lays out `text` in `weight` at `size` px, its baseline at `y` and its `anchor` at
    /// `x`, shaped as usvg shapes SVG text (the font's kerning and ligatures, left to right).
    pub fn new(text: &str, weight: Weight, size: f32, x: f32, y: f32, anchor: Anchor) -> TextLine {
        let e = engine();
        let face = &e.faces[weight as usize];
        let Ok(font) = FontRef::new(face.data) else {
            return TextLine::empty();
        };
        let shaper = face.shaping.shaper(&font).build();
        let mut buffer = UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.set_direction(Direction::LeftToRight);
        buffer.guess_segment_properties();
        let shaped = shaper.shape(buffer, ShapeOptions::new());
        let scale = size / shaper.units_per_em().max(1) as f32;
        let advance: f32 = shaped
            .glyph_positions()
            .iter()
            .map(|p| p.x_advance as f32 * scale)
            .sum();
        let start = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - advance / 2.0,
            Anchor::End => x - advance,
        };
        let size_key = (size * 64.0).round().max(1.0) as u32;
        let mut line = TextLine {
            glyphs: Vec::with_capacity(shaped.len()),
            advance,
            ink: None,
        };
        let mut pen = start;
        for (info, pos) in shaped.glyph_infos().iter().zip(shaped.glyph_positions()) {
            let gx = pen + pos.x_offset as f32 * scale;
            let gy = y - pos.y_offset as f32 * scale;
            pen += pos.x_advance as f32 * scale;
            let (ix, px) = split(gx);
            let (iy, py) = split(gy);
            let key = Key {
                weight,
                glyph: info.glyph_id,
                size: size_key,
                phase: (px, py),
            };
            if let Some(m) = e.mask(key) {
                let [l, t, r, b] = m.ink;
                let (ox, oy) = (
                    ix as f32 + f32::from(px) / PHASES,
                    iy as f32 + f32::from(py) / PHASES,
                );
                let ink = [ox + l, oy + t, ox + r, oy + b];
                line.ink = Some(match line.ink {
                    None => ink,
                    Some(u) => [
                        u[0].min(ink[0]),
                        u[1].min(ink[1]),
                        u[2].max(ink[2]),
                        u[3].max(ink[3]),
                    ],
                });
                let (mx, my) = (ix + m.left, iy + m.top);
                line.glyphs.push((m, mx, my));
            }
        }
        line
    }

    fn empty() -> TextLine {
        TextLine {
            glyphs: Vec::new(),
            advance: 0.0,
            ink: None,
        }
    }

    /// The line's advance (its width as laid out), in pixels.
    pub fn advance(&self) -> f32 {
        self.advance
    }

    /// The bounds (left, top, right, bottom) of what the line draws, or `None` for a line of
    /// spaces or no text.
    pub fn ink(&self) -> Option<[f32; 4]> {
        self.ink
    }

    /// The same line moved `dx` pixels right.
    pub fn shifted(mut self, dx: i32) -> TextLine {
        for g in &mut self.glyphs {
            g.1 += dx;
        }
        if let Some(ink) = &mut self.ink {
            ink[0] += dx as f32;
            ink[2] += dx as f32;
        }
        self
    }

    /// Draws the line over `img` in `colour` (what lies outside is left out).
    pub fn draw(&self, img: &mut RgbImage, colour: [u8; 3]) {
        for (m, mx, my) in &self.glyphs {
            img.blend_coverage(*mx, *my, m.width, &m.alpha, colour);
        }
    }

    /// Draws the line turned a quarter anticlockwise about (`ox`, `oy`), reading upwards (as
    /// SVG's `rotate(-90)`): a line laid out at (0, 0) then turned has its baseline on the
    /// column `ox` and its anchor at row `oy`.
    pub fn draw_turned(&self, img: &mut RgbImage, colour: [u8; 3], ox: i32, oy: i32) {
        for (m, mx, my) in &self.glyphs {
            for (i, &a) in m.alpha.iter().enumerate() {
                let (col, row) = ((i as u32 % m.width) as i32, (i as u32 / m.width) as i32);
                // The layout's pixel (x, y) lands on (ox + y, oy - 1 - x); `blend_coverage`
                // leaves out what falls outside the image.
                if a != 0 {
                    img.blend_coverage(ox + my + row, oy - 1 - (mx + col), 1, &[a], colour);
                }
            }
        }
    }
}

/// A coordinate's whole pixel and its nearest quarter within it (0..4, carried over).
fn split(v: f32) -> (i32, u8) {
    let q = (v * PHASES).round();
    let whole = (q / PHASES).floor();
    (whole as i32, (q - whole * PHASES) as u8)
}

impl Engine {
    /// The glyph's mask, rasterised on first use and kept; `None` for a glyph that draws
    /// nothing (a space).
    fn mask(&self, key: Key) -> Option<Arc<Mask>> {
        if let Some(m) = self.glyphs.read().ok().and_then(|g| g.get(&key).cloned()) {
            return m;
        }
        let mask = self.rasterise(key).map(Arc::new);
        if let Ok(mut kept) = self.glyphs.write() {
            if kept.len() >= GLYPHS_KEPT {
                kept.clear();
            }
            kept.insert(key, mask.clone());
        }
        mask
    }

    /// Rasterises one glyph: its outline at the key's size, moved by its quarter pixels,
    /// filled with anti-aliasing (non-zero, as SVG text is filled).
    fn rasterise(&self, key: Key) -> Option<Mask> {
        let font = skrifa::FontRef::new(self.faces[key.weight as usize].data).ok()?;
        let outline = font.outline_glyphs().get(skrifa::GlyphId::new(key.glyph))?;
        let (fx, fy) = (
            f32::from(key.phase.0) / PHASES,
            f32::from(key.phase.1) / PHASES,
        );
        let mut pen = Pen {
            path: PathBuilder::new(),
            dx: fx,
            dy: fy,
        };
        let size = key.size as f32 / 64.0;
        outline
            .draw(
                DrawSettings::unhinted(Size::new(size), LocationRef::default()),
                &mut pen,
            )
            .ok()?;
        let path = pen.path.finish()?;
        let b = path.bounds();
        let (left, top) = (b.left().floor() as i32, b.top().floor() as i32);
        let (right, bottom) = (b.right().ceil() as i32, b.bottom().ceil() as i32);
        let (width, height) = ((right - left).max(1) as u32, (bottom - top).max(1) as u32);
        let mut pm = Pixmap::new(width, height)?;
        let mut paint = Paint::default();
        paint.set_color_rgba8(255, 255, 255, 255);
        paint.anti_alias = true;
        pm.fill_path(
            &path,
            &paint,
            FillRule::Winding,
            Transform::from_translate(-left as f32, -top as f32),
            None,
        );
        Some(Mask {
            left,
            top,
            width,
            alpha: pm.data().chunks_exact(4).map(|p| p[3]).collect(),
            ink: [b.left() - fx, b.top() - fy, b.right() - fx, b.bottom() - fy],
        })
    }
}

/// An outline pen that builds a tiny-skia path in pixels: y downwards, moved by the glyph's
/// quarter pixels.
struct Pen {
    path: PathBuilder,
    dx: f32,
    dy: f32,
}

impl OutlinePen for Pen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.path.move_to(x + self.dx, self.dy - y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.path.line_to(x + self.dx, self.dy - y);
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.path
            .quad_to(cx0 + self.dx, self.dy - cy0, x + self.dx, self.dy - y);
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.path.cubic_to(
            cx0 + self.dx,
            self.dy - cy0,
            cx1 + self.dx,
            self.dy - cy1,
            x + self.dx,
            self.dy - y,
        );
    }
    fn close(&mut self) {
        self.path.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::pieces::{FONT_FAMILY, embedded_fonts, parse_svg};

    const INK: [u8; 3] = [0x22, 0x22, 0x22];

    /// `text` drawn by resvg from an SVG `<text>` (with `transform`) on white, as the charts
    /// drew their texts before.
    fn by_resvg(w: u32, h: u32, text: &str, weight: Weight, size: f32, at: &str) -> RgbImage {
        let bold = if weight == Weight::Bold {
            r#" font-weight="bold""#
        } else {
            ""
        };
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"><rect width="{w}" height="{h}" fill="#fff"/><text {at} font-family="{FONT_FAMILY}" font-size="{size}"{bold} fill="#222222">{text}</text></svg>"##
        );
        let tree = parse_svg(&svg, &embedded_fonts()).unwrap();
        let mut pm = Pixmap::new(w, h).unwrap();
        resvg::render(&tree, Transform::identity(), &mut pm.as_mut());
        RgbImage::from_opaque(&pm)
    }

    /// The largest difference of a channel, and the pixels whose channels differ by more
    /// than 32 levels (an eighth of a pixel's shift at an edge is at most that).
    fn compare(a: &RgbImage, b: &RgbImage) -> (u8, usize) {
        let diffs = a.data().iter().zip(b.data()).map(|(x, y)| x.abs_diff(*y));
        let max = diffs.clone().max().unwrap_or(0);
        let far = a
            .data()
            .chunks_exact(3)
            .zip(b.data().chunks_exact(3))
            .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 32))
            .count();
        (max, far)
    }

    // Each line is drawn where and as resvg drew the same SVG text: the same glyphs, kerning
    // ("AV", "To") and anchors, at whole, half and quarter pixels, in both weights. Only the
    // edges differ, a glyph being placed at the nearest quarter pixel: no channel by more
    // than 64 levels, and at most 100 pixels by more than 32 (the line one pixel off differs
    // so on 580 to 1,300).
    #[test]
    fn lines_are_drawn_as_resvg_draws_the_same_text() {
        let cases = [
            (
                "Rating 1500 — Ärger AV To",
                Weight::Regular,
                19.0,
                10.3,
                30.5,
                Anchor::Start,
            ),
            (
                "alice – bob",
                Weight::Bold,
                24.0,
                200.0,
                34.0,
                Anchor::Middle,
            ),
            (
                "2026-12-03",
                Weight::Regular,
                19.0,
                390.6,
                60.25,
                Anchor::End,
            ),
            (
                "Жук · Ωμέγα fi",
                Weight::Regular,
                21.76,
                150.0,
                50.7,
                Anchor::Start,
            ),
        ];
        for (t, weight, size, x, y, anchor) in cases {
            let name = match anchor {
                Anchor::Start => "start",
                Anchor::Middle => "middle",
                Anchor::End => "end",
            };
            let at = format!(r#"x="{x}" y="{y}" text-anchor="{name}""#);
            let want = by_resvg(400, 80, t, weight, size, &at);
            let mut got = RgbImage::new(400, 80, [255, 255, 255]);
            let line = TextLine::new(t, weight, size, x, y, anchor);
            line.draw(&mut got, INK);
            let (max, far) = compare(&want, &got);
            let mut off = RgbImage::new(400, 80, [255, 255, 255]);
            TextLine::new(t, weight, size, x + 1.0, y, anchor).draw(&mut off, INK);
            assert!(
                max <= 64 && far <= 100,
                "{t}: max {max}, {far} pixels off by > 32"
            );
            // The tolerance tells: the same line one pixel to the right is far off.
            assert!(compare(&want, &off).1 > 500, "{t}");
            let dark = |img: &RgbImage| img.data().chunks(3).filter(|p| p[0] < 128).count();
            assert!(
                dark(&got) > 40 && dark(&got).abs_diff(dark(&want)) <= dark(&want) / 10,
                "{t}"
            );
            // The ink is where the drawn pixels are.
            let [l, top, r, b] = line.ink().unwrap();
            let cols: Vec<u32> = (0..400)
                .filter(|&c| (0..80).any(|row| got.pixel(c, row)[0] < 200))
                .collect();
            let rows: Vec<u32> = (0..80)
                .filter(|&row| (0..400).any(|c| got.pixel(c, row)[0] < 200))
                .collect();
            assert!(
                (l - cols[0] as f32).abs() <= 1.5
                    && (r - (cols[cols.len() - 1] + 1) as f32).abs() <= 1.5,
                "{t}: ink {l}..{r}, drawn {cols:?}"
            );
            assert!(
                (top - rows[0] as f32).abs() <= 1.5
                    && (b - (rows[rows.len() - 1] + 1) as f32).abs() <= 1.5,
                "{t}: ink {top}..{b}"
            );
        }
    }

    // A turned line lands where SVG's `translate(ox oy) rotate(-90)` puts it.
    #[test]
    fn a_turned_line_reads_upwards_as_svg_rotates_it() {
        let want = by_resvg(
            60,
            300,
            "Rating AV",
            Weight::Regular,
            19.0,
            r#"transform="translate(22 150) rotate(-90)" text-anchor="middle""#,
        );
        let mut got = RgbImage::new(60, 300, [255, 255, 255]);
        TextLine::new("Rating AV", Weight::Regular, 19.0, 0.0, 0.0, Anchor::Middle)
            .draw_turned(&mut got, INK, 22, 150);
        let (max, far) = compare(&want, &got);
        assert!(
            max <= 64 && far <= 60,
            "max {max}, {far} pixels off by > 32"
        );
    }

    #[test]
    fn spaces_advance_without_ink_and_shifting_moves_everything() {
        let spaces = TextLine::new("   ", Weight::Regular, 20.0, 0.0, 20.0, Anchor::Start);
        assert!(spaces.ink().is_none() && spaces.advance() > 10.0);
        let a = TextLine::new("ab", Weight::Regular, 20.0, 10.0, 20.0, Anchor::Start);
        let b = a.clone().shifted(7);
        let (ia, ib) = (a.ink().unwrap(), b.ink().unwrap());
        assert_eq!((ia[0] + 7.0, ia[2] + 7.0, ia[1]), (ib[0], ib[2], ib[1]));
        let (mut x, mut y) = (
            RgbImage::new(60, 30, [255; 3]),
            RgbImage::new(60, 30, [255; 3]),
        );
        a.draw(&mut x, INK);
        b.draw(&mut y, INK);
        assert_eq!(x.crop(0, 0, 50, 30), y.crop(7, 0, 57, 30));
        // Drawn past every edge, nothing panics and what is inside is drawn.
        let mut small = RgbImage::new(8, 8, [255; 3]);
        TextLine::new("WWW", Weight::Bold, 30.0, -5.0, 12.0, Anchor::Start).draw(&mut small, INK);
        TextLine::new("WWW", Weight::Bold, 30.0, 0.0, 0.0, Anchor::Start)
            .draw_turned(&mut small, INK, 4, 4);
        assert!(small.data().chunks(3).any(|p| p[0] < 128));
    }

    // However many glyphs go through, the kept masks stay within their bound.
    #[test]
    fn the_kept_glyphs_stay_bounded() {
        let text: String = (0x400..0x500).filter_map(char::from_u32).collect();
        for size in 0..20 {
            let line = TextLine::new(
                &text,
                Weight::Regular,
                10.0 + size as f32,
                0.25,
                0.5,
                Anchor::Start,
            );
            assert!(line.advance() > 0.0);
            assert!(engine().glyphs.read().unwrap().len() <= GLYPHS_KEPT);
        }
    }
}
