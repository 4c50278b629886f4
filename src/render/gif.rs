//! A game as an animated GIF, drawn the way lichess's lila-gif does it:
//!
//! - one fixed global palette per (theme, size), taken from the board, the tinted board, the
//!   check glow and every piece sprite on every kind of square, so no colour quantisation
//!   happens per game; each rendered pixel is mapped to its palette entry through a
//!   precomputed 15-bit table (cached with the palette);
//! - the first frame is the whole picture; each later frame holds only the bounding box of
//!   the squares that changed, with the pixels that kept their colour transparent, and
//!   disposal "keep";
//! - [`PLY_DELAY_CS`] per ply, [`LAST_DELAY_CS`] on the last frame, looping forever;
//! - a strip under the board holds the players' names, and on the last frame the result, in
//!   the game's language.
//!
//! [`fit_gif`] makes a GIF smaller until it fits a byte limit (Discord's
//! `attachment_size_limit`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use cajitas_rules::{Game, Lang, Outcome, Position};
use resvg::tiny_skia::{Pixmap, Transform};

use super::board::Geometry;
use super::lzw::Lzw;
use super::pieces::{FONT_FAMILY, parse_svg};
use super::raster::{RgbImage, Sprite};
use super::text::{Anchor, TextLine, Weight};
use super::view::{BoardView, Highlights};
use super::{
    BoardParts, CACHE_LIMIT, MIN_SIZE, Orientation, RenderError, RenderOptions, Renderer, cached,
    clamp_size, try_cached,
};
use crate::i18n::colour_key;
use crate::tr;

/// Delay of each frame but the last, in hundredths of a second (lila-gif: 80).
pub const PLY_DELAY_CS: u16 = 80;
/// Delay of the last frame, in hundredths of a second.
pub const LAST_DELAY_CS: u16 = 300;
/// Discord's default `attachment_size_limit`: 10 MiB.
pub const DEFAULT_BYTE_LIMIT: u64 = 10 << 20;
/// The longest player name drawn, in characters (longer ones end with `…`).
pub const NAME_MAX_CHARS: usize = 24;
/// The board sizes [`fit_gif`] tries, largest first, after the requested one.
pub const GIF_SIZES: [u32; 6] = [1024, 720, 512, 384, 256, MIN_SIZE];

/// How many result lines (per width and text) are kept rasterised.
const RESULT_LINES_KEPT: usize = 64;

/// The palette index that means "transparent: keep the previous frame's pixel".
const TRANSPARENT: u8 = 255;
/// Background and text colours of the names/result strip (lichess's dark background).
const STRIP_BG: [u8; 3] = [0x26, 0x24, 0x21];
const STRIP_FG: [u8; 3] = [0xf0, 0xee, 0xe9];

/// How to draw a game as a GIF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GifOptions {
    /// Board side in pixels (clamped like a PNG board); the strip adds to the height.
    pub size: u32,
    /// A theme name known to the renderer.
    pub theme: String,
    /// Delay of each frame but the last, in hundredths of a second.
    pub ply_delay_cs: u16,
    /// Delay of the last frame, in hundredths of a second.
    pub last_delay_cs: u16,
    /// Draw every `stride`-th position only (1 = every ply; the last position is always
    /// drawn). [`fit_gif`] raises it when smaller pictures are not enough; each frame then
    /// lasts `stride` times longer.
    pub stride: usize,
}

impl Default for GifOptions {
    fn default() -> Self {
        GifOptions {
            size: super::DEFAULT_SIZE,
            theme: super::DEFAULT_THEME.to_string(),
            ply_delay_cs: PLY_DELAY_CS,
            last_delay_cs: LAST_DELAY_CS,
            stride: 1,
        }
    }
}

/// What to write in the strip: the players and, on the last frame, the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GifCaption {
    /// White's name, as shown (any text: characters the font lacks become `□`).
    pub white: String,
    /// Black's name.
    pub black: String,
    /// How the game ended, if it did.
    pub outcome: Option<Outcome>,
    /// The language of the result line.
    pub lang: Lang,
    /// The game's opening name, shown after the names when the line has room for it.
    pub opening: Option<String>,
}

/// The fixed palette of one (theme, size) and its lookup table.
#[derive(Debug)]
pub struct GifPalette {
    /// 256 RGB triples (768 bytes); entry 255 is the transparent one.
    rgb: Vec<u8>,
    /// 15-bit RGB (5 bits each) → palette index.
    table: Vec<u8>,
}

impl GifPalette {
    /// The palette bytes (256 RGB triples).
    pub fn rgb(&self) -> &[u8] {
        &self.rgb
    }

    /// The colour of palette entry `i`.
    pub fn colour(&self, i: u8) -> [u8; 3] {
        let i = usize::from(i) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// The palette index for a colour.
    #[inline]
    pub fn index(&self, c: [u8; 3]) -> u8 {
        self.table[key15(c)]
    }

    /// Builds the palette from a sample of every colour the frames can hold: fixed entries
    /// first (strip colours and their anti-aliasing ramp), then the sample's colours by
    /// frequency, skipping near-duplicates while there is room to.
    fn build(fixed: &[[u8; 3]], sample: &HashMap<[u8; 3], u32>) -> GifPalette {
        let mut by_freq: Vec<([u8; 3], u32)> = sample.iter().map(|(c, n)| (*c, *n)).collect();
        by_freq.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut chosen: Vec<[u8; 3]> = Vec::with_capacity(255);
        for c in fixed {
            if !chosen.contains(c) {
                chosen.push(*c);
            }
        }
        for min_dist in [48, 12, 0] {
            for (c, _) in &by_freq {
                if chosen.len() >= 255 {
                    break;
                }
                if chosen.iter().all(|p| dist2(*p, *c) > min_dist) {
                    chosen.push(*c);
                }
            }
        }
        let mut rgb = Vec::with_capacity(768);
        for c in &chosen {
            rgb.extend_from_slice(c);
        }
        rgb.resize(768, 0);
        let mut table = vec![0u8; 1 << 15];
        for (k, slot) in table.iter_mut().enumerate() {
            let centre = [
                ((k >> 10) as u8) << 3 | 4,
                ((k >> 5 & 31) as u8) << 3 | 4,
                ((k & 31) as u8) << 3 | 4,
            ];
            let mut best = (u32::MAX, 0u8);
            for (i, p) in chosen.iter().enumerate() {
                let d = dist2(*p, centre);
                if d < best.0 {
                    best = (d, i as u8);
                }
            }
            *slot = best.1;
        }
        // The most frequent colours (squares, strip) map to themselves exactly.
        for (i, c) in chosen.iter().enumerate().take(64).rev() {
            table[key15(*c)] = i as u8;
        }
        GifPalette { rgb, table }
    }
}

#[inline]
fn key15(c: [u8; 3]) -> usize {
    (usize::from(c[0] >> 3) << 10) | (usize::from(c[1] >> 3) << 5) | usize::from(c[2] >> 3)
}

#[inline]
fn dist2(a: [u8; 3], b: [u8; 3]) -> u32 {
    let d = |x: u8, y: u8| {
        let v = i32::from(x) - i32::from(y);
        (v * v) as u32
    };
    // Weighted towards green, as the eye is.
    2 * d(a[0], b[0]) + 4 * d(a[1], b[1]) + 3 * d(a[2], b[2])
}

/// The strip's height for a board of `size` pixels.
pub fn strip_height(size: u32) -> u32 {
    (size / 8).max(24)
}

/// The strip's font size in pixels for a GIF `size` pixels wide.
fn strip_font_size(size: u32) -> f32 {
    strip_height(size) as f32 * 0.34
}

/// A name as drawn: characters the embedded DejaVu Sans lacks (CJK, emoji, …) become `□`,
/// control characters are dropped, and it is capped at [`NAME_MAX_CHARS`].
pub fn drawable_name(name: &str) -> String {
    let mut out = drawable(name);
    if out.chars().count() > NAME_MAX_CHARS {
        out = out.chars().take(NAME_MAX_CHARS - 1).collect();
        out.push('…');
    }
    out
}

/// A text as drawn: characters the font lacks become `□`, control characters are dropped.
fn drawable(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .map(|c| if font_has(c) { c } else { '□' })
        .collect()
}

/// Whether DejaVu Sans draws `c`: Latin, Greek, Cyrillic, their extensions, punctuation,
/// currency, arrows, maths and the geometric shapes (a safe under-approximation).
fn font_has(c: char) -> bool {
    matches!(u32::from(c),
        0x20..=0x7e | 0xa0..=0x52f | 0x1e00..=0x1fff | 0x2000..=0x206f | 0x20a0..=0x20bf
        | 0x2100..=0x22ff | 0x2500..=0x25ff | 0x2654..=0x265f)
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The result line in `lang`, e.g. `1-0 · White wins by checkmate`.
pub fn result_text(outcome: Option<Outcome>, lang: Lang) -> String {
    match outcome {
        None => tr!(lang, "gif-unfinished"),
        Some(Outcome::Decisive { winner, reason }) => tr!(
            lang,
            "gif-win",
            colour = colour_key(winner),
            reason = reason.as_str(),
            result = if winner == cajitas_rules::Color::White {
                "1-0"
            } else {
                "0-1"
            }
        ),
        Some(Outcome::Draw { reason }) => {
            tr!(lang, "gif-draw", reason = reason.as_str(), result = "½-½")
        }
    }
}

/// Maps the pixels `[x0, x1)` of one RGB row to palette indices into `buf`: a pixel whose
/// index is the one already shown (`prev`) becomes transparent.
#[inline]
fn map_run(
    palette: &GifPalette,
    memo: &mut ([u8; 3], u8),
    row: &[u8],
    x0: u32,
    x1: u32,
    prev: &mut [u8],
    buf: &mut Vec<u8>,
) {
    let (x0, x1) = (x0 as usize, x1 as usize);
    // Written in place rather than pushed: no capacity check per pixel.
    let at = buf.len();
    buf.resize(at + (x1 - x0), TRANSPARENT);
    let run = &row[x0 * 3..x1 * 3];
    if run.len() > 3 && run[3..] == run[..run.len() - 3] {
        // One colour throughout (the strip's background, a square's rows around its piece):
        // one lookup, and a loop without a branch.
        let c = [run[0], run[1], run[2]];
        if c != memo.0 {
            *memo = (c, palette.index(c));
        }
        let i = memo.1;
        for (out, shown) in buf[at..].iter_mut().zip(&mut prev[x0..x1]) {
            *out = if *shown == i { TRANSPARENT } else { i };
            *shown = i;
        }
        return;
    }
    let pixels = run.chunks_exact(3);
    for ((out, shown), px) in buf[at..].iter_mut().zip(&mut prev[x0..x1]).zip(pixels) {
        let c = [px[0], px[1], px[2]];
        if c != memo.0 {
            *memo = (c, palette.index(c));
        }
        if *shown != memo.1 {
            *shown = memo.1;
            *out = memo.1;
        }
    }
}

/// The board part of a GIF's first frame: every board pixel's palette index (what the next
/// frames compare with) and the LZW encoder after those rows (its bytes so far in `packed`),
/// the strip rows still to come. The standard start position's is made once per (theme,
/// size) and cloned: mapping and compressing a whole board was most of a short game's GIF
/// (a timeout after two moves, say).
pub(super) struct BoardRows {
    indices: Vec<u8>,
    lzw: Lzw,
    packed: Vec<u8>,
}

/// A result line of the GIF strip: the first row it covers, and its pixels.
pub(super) type ResultLine = Arc<(u32, Sprite)>;

/// The strip's `· opening`, laid out from x = 0 and rasterised once per (width, opening):
/// its visible pixels and where they lie.
#[derive(Debug)]
pub(super) struct OpeningTail {
    /// The sprite's first column, from where the tail was laid out (x = 0).
    left: f32,
    /// The right edge of its ink, from x = 0: the room it takes beside the names.
    right: f32,
    /// The sprite's first row.
    top: u32,
    /// The visible pixels.
    sprite: Sprite,
}

impl OpeningTail {
    /// A tail that fits nowhere (its text could not be laid out).
    fn never() -> OpeningTail {
        OpeningTail {
            left: 0.0,
            right: f32::INFINITY,
            top: 0,
            sprite: Sprite::from_pixmap(&Pixmap::new(1, 1).expect("1×1 pixmap")),
        }
    }
}

/// How many openings' tails are kept, a few KiB each (the cache starts again when full).
const OPENING_TAILS_KEPT: usize = 128;

/// The names' baseline in the strip, as a share of its height.
const STRIP_BASELINE: f32 = 0.42;

/// One position's drawing state per square: (piece sprite, tinted, check glow).
type SquareState = [(Option<usize>, bool, bool); 64];

fn square_states(view: &BoardView, hl: &Highlights) -> SquareState {
    let mut s: SquareState = [(None, false, false); 64];
    for (sq, piece) in view.pieces() {
        s[sq].0 = Some(piece);
    }
    for sq in hl.last_move_squares() {
        s[sq].1 = true;
    }
    if let Some(sq) = hl.check_square() {
        s[sq].2 = true;
    }
    s
}

impl Renderer {
    /// The fixed palette for a theme and board size, built once and cached.
    pub fn gif_palette(&self, theme: &str, size: u32) -> Result<Arc<GifPalette>, RenderError> {
        let t = self.theme_index(theme)?;
        let size = clamp_size(u64::from(size)).size;
        Ok(cached(&self.palettes, (t, size), CACHE_LIMIT, || {
            Arc::new(self.build_palette(t, size))
        }))
    }

    /// Samples the colours of a theme's boards, pieces and glow at `size` into a palette.
    fn build_palette(&self, t: usize, size: u32) -> GifPalette {
        let geo = Geometry::new(size);
        let sprites = self.sprites_for(geo.square);
        let base = self.board_for(t, geo, Orientation::White);
        let mut sample: HashMap<[u8; 3], u32> = HashMap::new();
        let mut count = |img: &RgbImage, x0: u32, y0: u32, x1: u32, y1: u32| {
            for y in y0..y1 {
                for x in x0..x1 {
                    *sample.entry(img.pixel(x, y)).or_default() += 1;
                }
            }
        };
        let (plain, tinted) = (base.plain_image(), base.tinted_image());
        count(&plain, 0, 0, size, size);
        count(&tinted, 0, 0, size, size);
        // Every piece, and the glow under a king, on the four kinds of square.
        let (sq_w, sq_h) = (geo.square, geo.square);
        for img in [&plain, &tinted] {
            for (col, row) in [(0, 0), (1, 0)] {
                let (x0, y0, _, _) = geo.cell(col, row);
                for (i, sprite) in sprites.iter().enumerate() {
                    let mut cell = RgbImage::new(sq_w, sq_h, img.pixel(x0 + 1, y0 + 1));
                    if i % 6 == 0 {
                        cell.blit(&base.check, 0, 0);
                    }
                    cell.blit(sprite, 0, 0);
                    count(&cell, 0, 0, sq_w, sq_h);
                }
            }
        }
        // The strip: its two colours and the anti-aliasing ramp between them.
        let mut fixed = vec![STRIP_BG, STRIP_FG];
        for k in 1..16u32 {
            let mix = |a: u8, b: u8| ((u32::from(a) * (16 - k) + u32::from(b) * k) / 16) as u8;
            fixed.push([
                mix(STRIP_BG[0], STRIP_FG[0]),
                mix(STRIP_BG[1], STRIP_FG[1]),
                mix(STRIP_BG[2], STRIP_FG[2]),
            ]);
        }
        let theme = &self.themes[t];
        for light in [true, false] {
            for tint in [false, true] {
                let c = theme.square(light, tint);
                fixed.push([c.0, c.1, c.2]);
            }
        }
        GifPalette::build(&fixed, &sample)
    }

    /// The first frame's board rows for `start` (White's side, nothing highlighted): from
    /// the cache for the standard start position, else drawn now.
    fn first_board_rows(
        &self,
        t: usize,
        start: &Position,
        palette: &GifPalette,
        render_opts: &RenderOptions,
    ) -> Result<Arc<BoardRows>, RenderError> {
        let make = || self.board_rows(start, palette, render_opts).map(Arc::new);
        if *start == Position::new() {
            try_cached(&self.gif_starts, (t, render_opts.size), CACHE_LIMIT, make)
        } else {
            make()
        }
    }

    /// Draws `start` and maps its board to `palette`, compressing the rows (see [`BoardRows`]).
    fn board_rows(
        &self,
        start: &Position,
        palette: &GifPalette,
        render_opts: &RenderOptions,
    ) -> Result<BoardRows, RenderError> {
        let size = render_opts.size;
        let board = self.render_image(
            &BoardView::from(start),
            &Highlights::after(start, None),
            render_opts,
        )?;
        let n = (size * size) as usize;
        let mut indices = vec![TRANSPARENT; n];
        let mut buf = Vec::with_capacity(n);
        let mut memo = ([0u8, 0, 0], palette.index([0, 0, 0]));
        for y in 0..size as usize {
            let src = &board.data()[y * size as usize * 3..];
            let at = y * size as usize;
            map_run(
                palette,
                &mut memo,
                src,
                0,
                size,
                &mut indices[at..],
                &mut buf,
            );
        }
        let mut lzw = Lzw::new(8);
        let mut packed = Vec::with_capacity(64 * 1024);
        lzw.begin(&mut packed);
        lzw.push(&buf, &mut packed);
        Ok(BoardRows {
            indices,
            lzw,
            packed,
        })
    }

    /// The strip under the board, with the players' names, and the opening after them when
    /// the line has room for it (within a fiftieth of the width on each side).
    ///
    /// The names differ from game to game and are laid out each time; the opening is one of
    /// lichess's 3,807 names, laid out and rasterised once per width
    /// ([`Renderer::opening_tail`]) and placed after the names, the two centred together.
    fn gif_strip(&self, width: u32, caption: &GifCaption) -> RgbImage {
        let h = strip_height(width);
        let mut img = RgbImage::new(width, h, STRIP_BG);
        let names = format!(
            "{} – {}",
            drawable_name(&caption.white),
            drawable_name(&caption.black)
        );
        // Laid out from glyphs rasterised once (`super::text`): the names differ from game
        // to game, and laying them out through an SVG document was a quarter of a short
        // game's GIF.
        let line = TextLine::new(
            &names,
            Weight::Regular,
            strip_font_size(width),
            width as f32 / 2.0,
            h as f32 * STRIP_BASELINE,
            Anchor::Middle,
        );
        let centre = width as f32 / 2.0;
        let [left, _, right, _] = line.ink().unwrap_or([centre, 0.0, centre, 0.0]);
        let margin = width as f32 / 50.0;
        let tail = caption
            .opening
            .as_deref()
            .map(|o| self.opening_tail(width, o))
            .filter(|t| right - left + t.right <= width as f32 - 2.0 * margin);
        // Centred alone, or moved left so that the names and the opening are centred together.
        let dx = tail.as_ref().map_or(0.0, |t| {
            ((width as f32 - (right - left) - t.right) / 2.0 - left).round()
        });
        line.shifted(dx as i32).draw(&mut img, STRIP_FG);
        if let Some(t) = tail {
            let x = right + dx + t.left;
            img.blit(&t.sprite, x.round().max(0.0) as u32, t.top);
        }
        img
    }

    /// The strip's `· opening` laid out from x = 0 on the names' baseline and rasterised,
    /// kept per (width, opening): see [`OpeningTail`].
    fn opening_tail(&self, width: u32, opening: &str) -> Arc<OpeningTail> {
        let key = (width, opening.to_owned());
        cached(&self.opening_tails, key, OPENING_TAILS_KEPT, || {
            Arc::new(self.draw_opening_tail(width, opening))
        })
    }

    /// Lays out and rasterises an opening's tail (see [`Renderer::opening_tail`]).
    fn draw_opening_tail(&self, width: u32, opening: &str) -> OpeningTail {
        let h = strip_height(width);
        // The space before the dot is kept (`xml:space`): it parts the dot from the names as
        // the space of a single line would.
        let text = format!(
            r#"<text x="0" y="{y}" xml:space="preserve"> · {t}</text>"#,
            y = h as f32 * STRIP_BASELINE,
            t = xml_escape(&drawable(opening))
        );
        let (svg, h) = self.strip_svg(width, &text);
        // As wide as the strip: a longer tail never fits beside any names.
        let (Ok(tree), Some(mut pm)) = (parse_svg(&svg, &self.fonts), Pixmap::new(width, h)) else {
            return OpeningTail::never();
        };
        resvg::render(&tree, Transform::identity(), &mut pm.as_mut());
        let (top, rows) = Sprite::from_pixmap(&pm).crop_rows();
        let (left, sprite) = rows.crop_cols();
        OpeningTail {
            left: left as f32,
            right: tree.root().abs_bounding_box().right(),
            top,
            sprite,
        }
    }

    /// The result line of the last frame's strip, in bold under the names: the first row it
    /// covers and its pixels. There are few results (a reason and a winner, per language),
    /// so each is laid out and rasterised once per width and kept.
    fn result_line(&self, width: u32, result: &str) -> ResultLine {
        let key = (width, result.to_owned());
        cached(&self.result_lines, key, RESULT_LINES_KEPT, || {
            Arc::new(self.draw_result_line(width, result))
        })
    }

    /// Lays out and rasterises a result line (see [`Renderer::result_line`]).
    fn draw_result_line(&self, width: u32, result: &str) -> (u32, Sprite) {
        let h = strip_height(width);
        let r = drawable(result);
        let text = format!(
            r#"<text x="{x}" y="{y}" text-anchor="middle" font-weight="bold">{t}</text>"#,
            x = width as f32 / 2.0,
            y = h as f32 * 0.86,
            t = xml_escape(&r)
        );
        match self.strip_text(width, &text) {
            Some(pm) => Sprite::from_pixmap(&pm).crop_rows(),
            None => (
                0,
                Sprite::from_pixmap(&Pixmap::new(1, 1).expect("1×1 pixmap")),
            ),
        }
    }

    /// SVG `<text>` elements drawn in the strip's font and colour on a transparent strip.
    fn strip_text(&self, width: u32, texts: &str) -> Option<Pixmap> {
        let (svg, h) = self.strip_svg(width, texts);
        let tree = parse_svg(&svg, &self.fonts).ok()?;
        let mut pm = Pixmap::new(width, h)?;
        resvg::render(&tree, Transform::identity(), &mut pm.as_mut());
        Some(pm)
    }

    /// The SVG of the strip's `<text>` elements, and the strip's height.
    fn strip_svg(&self, width: u32, texts: &str) -> (String, u32) {
        let h = strip_height(width);
        let fs = strip_font_size(width);
        let fg = format!("#{:02x}{:02x}{:02x}", STRIP_FG[0], STRIP_FG[1], STRIP_FG[2]);
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}"><g font-family="{FONT_FAMILY}" font-size="{fs}" fill="{fg}">{texts}</g></svg>"#
        );
        (svg, h)
    }

    /// Draws a game as an animated GIF: one frame per position (plies + 1, or fewer with
    /// `options.stride > 1`), from White's side, the last move tinted, the names in a strip
    /// under the board and the result on the last frame.
    pub fn game_gif(
        &self,
        game: &Game,
        caption: &GifCaption,
        options: &GifOptions,
    ) -> Result<Vec<u8>, RenderError> {
        self.gif_of_positions(game.start(), game.moves(), caption, options)
    }

    /// [`Renderer::game_gif`] from a start position and the moves played from it.
    pub fn gif_of_positions(
        &self,
        start: &Position,
        moves: &[cajitas_rules::Move],
        caption: &GifCaption,
        options: &GifOptions,
    ) -> Result<Vec<u8>, RenderError> {
        let palette = self.gif_palette(&options.theme, options.size)?;
        let size = clamp_size(u64::from(options.size)).size;
        let geo = Geometry::new(size);
        let render_opts = RenderOptions {
            size,
            orientation: Orientation::White,
            theme: options.theme.clone(),
        };
        let strip_h = strip_height(size);
        let (w, h) = (size, size + strip_h);
        let strip_names = self.gif_strip(size, caption);
        let mut strip_last = strip_names.clone();
        let line = self.result_line(size, &result_text(caption.outcome, caption.lang));
        strip_last.blit(&line.1, 0, line.0);

        // The positions to draw: every `stride`-th one, and always the last.
        let stride = options.stride.max(1);
        let mut frames: Vec<(Position, Highlights)> = Vec::new();
        let mut pos = start.clone();
        frames.push((pos.clone(), Highlights::after(&pos, None)));
        for (i, m) in moves.iter().enumerate() {
            // The moves come from the caller: one that is not legal is an error, not a panic.
            pos.try_play(*m)
                .map_err(|_| RenderError::IllegalMove { ply: i })?;
            if (i + 1) % stride == 0 || i + 1 == moves.len() {
                frames.push((pos.clone(), Highlights::after(&pos, Some(*m))));
            }
        }

        let mut out = Vec::with_capacity(64 * 1024);
        {
            let mut enc = ::gif::Encoder::new(&mut out, w as u16, h as u16, palette.rgb())
                .expect("GIF header into memory");
            enc.set_repeat(::gif::Repeat::Infinite)
                .expect("GIF loop extension into memory");
            // Every pixel's palette index as shown so far: the first frame's board rows, then
            // its strip (filled in by the first frame, which covers the whole picture).
            let mut prev: Vec<u8> = Vec::with_capacity((w * h) as usize);
            let mut prev_state: Option<SquareState> = None;
            let t = self.theme_index(&options.theme)?;
            let parts = self.board_parts(&render_opts)?;
            // The changed squares of one row of squares, drawn when the frame's rows reach
            // it: a band of the board's width and one square's height (no whole board is
            // kept: unchanged squares are never read).
            let mut band = RgbImage::new(0, 0, [0, 0, 0]);
            let mut band_row = usize::MAX;
            let mut changed = [false; 64];
            // The row of the square under each pixel row of the board.
            let mut row_of = vec![0u8; size as usize];
            for i in 0..8 {
                let (_, b, _, d) = geo.cell(i, i);
                row_of[b as usize..d as usize].fill(i as u8);
            }
            let mut buf: Vec<u8> = Vec::new();
            // Frames are compressed by our run-aware LZW (`super::lzw`): the general one
            // spent over 90% of the time walking its table through transparent runs. The
            // first frame's encoder is the cached one's copy, which later frames reuse.
            let mut lzw: Option<Lzw> = None;
            let mut packed: Vec<u8> = Vec::new();
            let n = frames.len();
            for (k, (pos, hl)) in frames.iter().enumerate() {
                let view = BoardView::from(pos);
                let state = square_states(&view, hl);
                let last = k + 1 == n;
                // The changed region, in pixels: [x0, x1) × [y0, y1). Only the changed
                // squares are redrawn, exactly as `render_image` draws them (a sprite never
                // leaves its square).
                let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
                match &prev_state {
                    None => {
                        // The board rows come ready (`first_board_rows`); `board` is read
                        // only in the squares later frames redraw.
                        (x0, y0, x1, y1) = (0, 0, w, h);
                    }
                    Some(before) => {
                        for sq in 0..64 {
                            changed[sq] = before[sq] != state[sq];
                            if changed[sq] {
                                let (a, b, c, d) = geo.cell(sq % 8, 7 - sq / 8);
                                (x0, y0, x1, y1) = (x0.min(a), y0.min(b), x1.max(c), y1.max(d));
                            }
                        }
                        if last {
                            (x0, y0, x1, y1) = (0, y0.min(size), w, h);
                        }
                    }
                }
                if x0 >= x1 || y0 >= y1 {
                    // Nothing changed (a null move): one transparent pixel keeps the timing.
                    (x0, y0, x1, y1) = (0, 0, 1, 1);
                }
                let strip = if last { &strip_last } else { &strip_names };
                buf.clear();
                let mut memo = ([0u8, 0, 0], palette.index([0, 0, 0]));
                let whole = prev_state.is_none();
                let mut first = None;
                if whole {
                    let rows = self.first_board_rows(t, pos, &palette, &render_opts)?;
                    prev.extend_from_slice(&rows.indices);
                    prev.resize((w * h) as usize, TRANSPARENT);
                    first = Some(rows);
                }
                for y in if whole { size } else { y0 }..y1 {
                    if y >= size {
                        let row = ((y - size) * w * 3) as usize..((y - size + 1) * w * 3) as usize;
                        let src = &strip.data()[row.clone()];
                        if !whole && src == &strip_names.data()[row] {
                            // The first frame showed this row of the names' strip, and no
                            // frame since drew over it: every pixel is already shown.
                            buf.resize(buf.len() + (x1 - x0) as usize, TRANSPARENT);
                            continue;
                        }
                        let at = (y * w) as usize;
                        map_run(&palette, &mut memo, src, x0, x1, &mut prev[at..], &mut buf);
                        continue;
                    }
                    // Board rows, square by square: unchanged squares stay transparent, unread.
                    let picture_row = usize::from(row_of[y as usize]);
                    let r = (7 - picture_row) * 8;
                    let top = geo.cell(0, picture_row).1;
                    if band_row != picture_row {
                        band_row = picture_row;
                        draw_changed_row(&mut band, &parts, picture_row, &changed, &state);
                    }
                    let src = &band.data()[((y - top) * w * 3) as usize..];
                    let at = (y * w) as usize;
                    for col in 0..8 {
                        let (a, _, c, _) = geo.cell(col, 0);
                        let (sa, sc) = (a.max(x0), c.min(x1));
                        if sa >= sc {
                            continue;
                        }
                        if changed[r + col] {
                            map_run(&palette, &mut memo, src, sa, sc, &mut prev[at..], &mut buf);
                        } else {
                            buf.resize(buf.len() + (sc - sa) as usize, TRANSPARENT);
                        }
                    }
                }
                let delay = if last {
                    options.last_delay_cs
                } else {
                    options
                        .ply_delay_cs
                        .saturating_mul(u16::try_from(stride).unwrap_or(u16::MAX))
                };
                packed.clear();
                match first {
                    Some(rows) => {
                        // The strip rows continue the cached encoder.
                        packed.extend_from_slice(&rows.packed);
                        let first = lzw.insert(rows.lzw.clone());
                        first.push(&buf, &mut packed);
                        first.finish(&mut packed);
                    }
                    None => lzw
                        .get_or_insert_with(|| Lzw::new(8))
                        .encode(&buf, &mut packed),
                }
                let frame = ::gif::Frame {
                    delay,
                    dispose: ::gif::DisposalMethod::Keep,
                    transparent: Some(TRANSPARENT),
                    left: x0 as u16,
                    top: y0 as u16,
                    width: (x1 - x0) as u16,
                    height: (y1 - y0) as u16,
                    buffer: Cow::Borrowed(&packed),
                    ..::gif::Frame::default()
                };
                enc.write_lzw_pre_encoded_frame(&frame)
                    .expect("GIF frame into memory");
                prev_state = Some(state);
                // The next frame draws its own changed squares.
                band_row = usize::MAX;
            }
        }
        // Handed on without the doubling's spare capacity (up to half of it): a finished
        // game's GIF waits for its upload beside the others of a burst of endings. A GIF
        // this large is a mapping of its own, which shrinks in place.
        out.shrink_to_fit();
        Ok(out)
    }
}

/// Draws the changed squares (`changed`, by square index) of the row of squares
/// `picture_row` (0 = top, White's side at the bottom) as `state` shows them into `band`,
/// which becomes that row's band of the board (its other squares' pixels are left as they
/// were: they are never read). Each square exactly as `render_image` draws it: the plain or
/// tinted cell, the glow under a king in check, the piece.
fn draw_changed_row(
    band: &mut RgbImage,
    parts: &BoardParts,
    picture_row: usize,
    changed: &[bool; 64],
    state: &SquareState,
) {
    let (geo, base) = (parts.geo, &parts.base);
    let (_, top, _, bottom) = geo.cell(0, picture_row);
    band.reshape(geo.size, bottom - top);
    for col in 0..8 {
        let sq = (7 - picture_row) * 8 + col;
        if !changed[sq] {
            continue;
        }
        let (piece, tinted, check) = state[sq];
        if tinted {
            base.copy_tinted_cell_in_band(band, col, picture_row, top);
        } else {
            base.copy_plain_cell_in_band(band, col, picture_row, top);
        }
        if check {
            let (px, py) = geo.sprite_origin(col, picture_row);
            band.blit(&base.check, px, py - top);
        }
        if let Some(p) = piece {
            parts.draw_piece(band, p, (col, picture_row), top, tinted, check);
        }
    }
}

/// Makes a GIF that fits in `limit` bytes: first with fewer pixels (the sizes of
/// [`GIF_SIZES`] below the requested one), then, at the smallest size, with frames cut
/// (every 2nd, 3rd, … position, each shown longer). Returns the bytes and the options used.
pub fn fit_gif(
    renderer: &Renderer,
    start: &Position,
    moves: &[cajitas_rules::Move],
    caption: &GifCaption,
    options: &GifOptions,
    limit: u64,
) -> Result<(Vec<u8>, GifOptions), RenderError> {
    let size = clamp_size(u64::from(options.size)).size;
    let mut sizes = vec![size];
    sizes.extend(GIF_SIZES.iter().copied().filter(|&s| s < size));
    let mut opts = options.clone();
    let mut last = Vec::new();
    for s in sizes {
        opts.size = s;
        last = renderer.gif_of_positions(start, moves, caption, &opts)?;
        if last.len() as u64 <= limit {
            return Ok((last, opts));
        }
    }
    let mut stride = opts.stride.max(1);
    while stride < moves.len().max(1) {
        stride *= 2;
        opts.stride = stride;
        last = renderer.gif_of_positions(start, moves, caption, &opts)?;
        if last.len() as u64 <= limit {
            return Ok((last, opts));
        }
    }
    Ok((last, opts))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Mapping a row gives, pixel for pixel, the palette's index or transparent where that
    // index is already shown, and records what is shown: whole runs of one colour (its
    // shortcut) and mixed ones, from any column, over pixels shown before or not.
    #[test]
    fn map_run_maps_each_pixel_as_one_lookup_would() {
        let r = Renderer::new();
        let palette = r.gif_palette(crate::render::DEFAULT_THEME, 256).unwrap();
        let mut rng = fastrand::Rng::with_seed(11);
        let colours = [
            [0u8, 0, 0],
            [240, 217, 181],
            [181, 136, 99],
            STRIP_BG,
            [9, 200, 77],
        ];
        for _ in 0..500 {
            let w = rng.usize(1..40);
            let solid = rng.bool();
            let row: Vec<u8> = (0..w)
                .flat_map(|_| colours[if solid { 1 } else { rng.usize(..colours.len()) }])
                .collect();
            let prev: Vec<u8> = (0..w)
                .map(|x| {
                    let shown = palette.index([row[x * 3], row[x * 3 + 1], row[x * 3 + 2]]);
                    if rng.bool() { shown } else { rng.u8(..) }
                })
                .collect();
            let (x0, x1) = (rng.usize(..w), w);
            let mut got_prev = prev.clone();
            let mut got = vec![7u8];
            let mut memo = ([1u8, 2, 3], palette.index([1, 2, 3]));
            map_run(
                &palette,
                &mut memo,
                &row,
                x0 as u32,
                x1 as u32,
                &mut got_prev,
                &mut got,
            );
            let mut want_prev = prev.clone();
            let mut want = vec![7u8];
            for x in x0..x1 {
                let i = palette.index([row[x * 3], row[x * 3 + 1], row[x * 3 + 2]]);
                want.push(if want_prev[x] == i { TRANSPARENT } else { i });
                want_prev[x] = i;
            }
            assert_eq!((got, got_prev), (want, want_prev), "{row:?} from {x0}");
        }
    }

    /// The first and last columns of `img` with a pixel that is not the strip's background.
    fn ink_columns(img: &RgbImage) -> Option<(u32, u32)> {
        let inked = |x: u32| (0..img.height()).any(|y| img.pixel(x, y) != STRIP_BG);
        let first = (0..img.width()).find(|&x| inked(x))?;
        let last = (0..img.width()).rev().find(|&x| inked(x))?;
        Some((first, last))
    }

    /// The names and the opening, drawn apart (the opening from its cache), take the columns
    /// that one line of both, laid out whole, takes.
    #[test]
    fn the_opening_lies_where_a_single_line_puts_it() {
        let renderer = Renderer::new();
        let mut beside = 0;
        for width in [240, 480, 720] {
            for (white, black, opening) in [
                ("alice", "bob", "King's Pawn Game"),
                ("Magnus", "Hikaru", "Italian Game: Giuoco Piano"),
                ("Ana", "Bea", "Sicilian Defense: Najdorf Variation"),
            ] {
                let caption = GifCaption {
                    white: white.into(),
                    black: black.into(),
                    outcome: None,
                    lang: Lang::En,
                    opening: Some(opening.into()),
                };
                let strip = renderer.gif_strip(width, &caption);
                let h = strip_height(width);
                let whole = format!(
                    r#"<text x="{x}" y="{y}" text-anchor="middle">{t}</text>"#,
                    x = width as f32 / 2.0,
                    y = h as f32 * STRIP_BASELINE,
                    t = xml_escape(&format!("{white} – {black} · {opening}"))
                );
                let mut one_line = RgbImage::new(width, h, STRIP_BG);
                one_line.blit_pixmap(&renderer.strip_text(width, &whole).unwrap());
                let (got, want) = (ink_columns(&strip), ink_columns(&one_line));
                let fits = want.is_some_and(|(a, b)| {
                    a as f32 >= width as f32 / 50.0 && b as f32 <= width as f32 * 49.0 / 50.0
                });
                let names_only = {
                    let mut c = caption.clone();
                    c.opening = None;
                    renderer.gif_strip(width, &c)
                };
                if !fits {
                    assert_eq!(strip, names_only, "{width} px, {opening}: the names alone");
                    continue;
                }
                assert!(strip != names_only, "{width} px, {opening}: drawn");
                beside += 1;
                let ((g0, g1), (w0, w1)) = (got.unwrap(), want.unwrap());
                assert!(
                    g0.abs_diff(w0) <= 2 && g1.abs_diff(w1) <= 2,
                    "{width} px, {opening}: columns {g0}..{g1}, one line {w0}..{w1}"
                );
            }
        }
        assert!(
            beside >= 3,
            "{beside} strips with the opening beside the names"
        );
    }

    /// A GIF waits for its upload with the others of a burst of endings: it is handed on
    /// without spare capacity.
    #[test]
    fn a_gif_carries_no_spare_capacity() {
        let renderer = Renderer::new();
        let (_, moves) = crate::render::tests::played_moves(&[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5",
        ]);
        let caption = GifCaption {
            white: "alice".into(),
            black: "bob".into(),
            outcome: None,
            lang: Lang::En,
            opening: None,
        };
        let gif = renderer
            .gif_of_positions(&Position::new(), &moves, &caption, &GifOptions::default())
            .unwrap();
        assert!(gif.len() > 64 * 1024 / 4, "{} bytes", gif.len());
        assert_eq!(gif.capacity(), gif.len());
    }
}
