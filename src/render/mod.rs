//! Board pictures: `render(view, highlights, options) -> PNG bytes`.
//!
//! The work is split so that each move costs only pixel copies and a PNG encode:
//!
//! - [`pieces`]: the piece art (our own SVG set, the DejaVu Sans chess glyphs, or 12 SVG
//!   files from a folder), rasterised into sprites once per square size;
//! - [`board`]: the empty board with its coordinate labels, built once per (theme, size,
//!   orientation), plus a fully tinted copy for last-move squares and the check glow;
//! - [`raster`]: per move, copy the cached board, copy the two last-move squares from the
//!   tinted copy, blit the glow and the pieces (premultiplied source-over, integers only),
//!   and encode an RGB PNG with the png crate's fast compression;
//! - [`text`]: lines of text (a GIF's names, a chart's labels) shaped with the font's tables
//!   built once and drawn from glyphs rasterised once;
//! - [`theme`]: themes as data (`assets/themes/*.toml`, embedded);
//! - [`view`]: the board view built from the rules crate's types, and the alt text.
//!
//! A [`Renderer`] holds the piece art and the caches; it is built once and shared. Its
//! caches only memoise pure functions of their keys, so `render` is pure and deterministic:
//! the same input gives the same bytes.

pub mod board;
pub mod chart;
pub mod eval_chart;
pub mod gif;
mod lzw;
pub mod pieces;
pub mod raster;
pub mod text;
pub mod theme;
pub mod view;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use cajitas_rules::Color;
use resvg::usvg::fontdb;

pub use board::Geometry;
pub use pieces::{PieceSet, PieceSetError, PieceSource};
pub use theme::{DEFAULT_THEME, Theme};
pub use view::{BoardView, Highlights, alt_text, alt_text_in};

use board::{BlendedPieces, BoardBase};
use raster::{RgbImage, Sprite};

/// The smallest board side accepted, in pixels.
pub const MIN_SIZE: u32 = 128;
/// The largest board side accepted, in pixels.
pub const MAX_SIZE: u32 = 1024;
/// The default board side, in pixels.
pub const DEFAULT_SIZE: u32 = 512;

/// Which side is at the bottom of the picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Orientation {
    /// White at the bottom (a1 bottom-left).
    #[default]
    White,
    /// Black at the bottom (h8 bottom-left).
    Black,
}

/// The side at the bottom: white's side gives [`Orientation::White`].
impl From<Color> for Orientation {
    fn from(side: Color) -> Orientation {
        match side {
            Color::White => Orientation::White,
            Color::Black => Orientation::Black,
        }
    }
}

/// A board size brought into `MIN_SIZE..=MAX_SIZE`, with a message when it had to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClampedSize {
    /// The size used.
    pub size: u32,
    /// Set when the requested size was out of range: says what was used instead.
    pub note: Option<String>,
}

/// Brings a requested board size into range; the note tells the user what happened.
pub fn clamp_size(requested: u64) -> ClampedSize {
    let size = requested.clamp(u64::from(MIN_SIZE), u64::from(MAX_SIZE)) as u32;
    let note = (u64::from(size) != requested).then(|| {
        format!(
            "board size {requested} px is out of range ({MIN_SIZE} to {MAX_SIZE}); using {size} px"
        )
    });
    ClampedSize { size, note }
}

/// How to draw: size, orientation, theme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderOptions {
    /// Board side in pixels; clamped into `MIN_SIZE..=MAX_SIZE` (see [`clamp_size`]).
    pub size: u32,
    /// Which side is at the bottom.
    pub orientation: Orientation,
    /// A theme name known to the renderer (`brown`, `blue`, `green`).
    pub theme: String,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            size: DEFAULT_SIZE,
            orientation: Orientation::White,
            theme: DEFAULT_THEME.to_string(),
        }
    }
}

/// Why a board could not be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The theme name is not one of the renderer's themes.
    #[error("unknown theme {name:?}; the themes are: {known}")]
    UnknownTheme {
        /// The name asked for (capped at 64 characters).
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// A game to draw has a move that is not legal in the position it is played in.
    #[error("move {} of the game is not legal in its position", ply + 1)]
    IllegalMove {
        /// How many plies were played before it.
        ply: usize,
    },
}

/// How many cached empty boards / sprite sets are kept before the caches are emptied
/// (sizes are free-form, so the key space is large; a bot uses one or two keys).
const CACHE_LIMIT: usize = 24;

/// The value `cache` holds under `key`, made by `make` and kept when it holds none. A cache
/// that reaches `limit` entries is emptied first: what it holds is cheap to make again, and
/// a bot uses few keys at once. The lock is held while `make` runs, so two threads never
/// make the same value (`make` must not use the same cache).
fn try_cached<K: Eq + std::hash::Hash, V: Clone, E>(
    cache: &Mutex<HashMap<K, V>>,
    key: K,
    limit: usize,
    make: impl FnOnce() -> Result<V, E>,
) -> Result<V, E> {
    let mut cache = cache.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(v) = cache.get(&key) {
        return Ok(v.clone());
    }
    let v = make()?;
    if cache.len() >= limit {
        cache.clear();
    }
    cache.insert(key, v.clone());
    Ok(v)
}

/// [`try_cached`] for a `make` that cannot fail.
fn cached<K: Eq + std::hash::Hash, V: Clone>(
    cache: &Mutex<HashMap<K, V>>,
    key: K,
    limit: usize,
    make: impl FnOnce() -> V,
) -> V {
    try_cached(cache, key, limit, || {
        Ok::<V, std::convert::Infallible>(make())
    })
    .unwrap_or_else(|never| match never {})
}

/// The renderer: piece art and themes, and the caches of sprites and empty boards.
/// Build it once (it parses the art) and share it; `render` takes `&self`.
pub struct Renderer {
    pieces: PieceSet,
    themes: Vec<Theme>,
    fonts: Arc<fontdb::Database>,
    /// Piece sprites per square side.
    sprites: Mutex<HashMap<u32, Arc<Vec<Sprite>>>>,
    /// Empty boards per (theme index, board side, orientation).
    boards: Mutex<HashMap<(usize, u32, Orientation), Arc<BoardBase>>>,
    /// The pieces over the square colours per (theme index, square side).
    blended: Mutex<HashMap<(usize, u32), Arc<BlendedPieces>>>,
    /// GIF palettes per (theme index, board side).
    palettes: Mutex<HashMap<(usize, u32), Arc<gif::GifPalette>>>,
    /// The standard start position's first GIF frame rows per (theme index, board side).
    gif_starts: Mutex<HashMap<(usize, u32), Arc<gif::BoardRows>>>,
    /// The GIF strip's result lines per (board side, text): the first row and the pixels.
    result_lines: Mutex<HashMap<(u32, String), gif::ResultLine>>,
    /// The GIF strip's openings per (board side, name): where they go and the pixels.
    opening_tails: Mutex<HashMap<(u32, String), Arc<gif::OpeningTail>>>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("pieces", &self.pieces)
            .field("themes", &self.theme_names())
            .finish_non_exhaustive()
    }
}

impl Renderer {
    /// A renderer with the default built-in pieces (our own `cajitas` set) and the built-in
    /// themes.
    pub fn new() -> Renderer {
        let fonts = pieces::embedded_fonts();
        let set = PieceSet::cajitas(&fonts);
        Renderer::with_fonts(set, fonts)
    }

    /// A renderer with the pieces named by a setting (`CAJITAS_PIECES`, `--pieces`): a
    /// built-in set or a folder.
    pub fn with_pieces(source: &PieceSource) -> Result<Renderer, PieceSetError> {
        let fonts = pieces::embedded_fonts();
        let set = PieceSet::load(source, &fonts)?;
        Ok(Renderer::with_fonts(set, fonts))
    }

    /// A renderer with the 12 pieces `wK.svg` … `bP.svg` from a folder (e.g. the folder
    /// named by `CAJITAS_PIECES`).
    pub fn with_pieces_dir(dir: &Path) -> Result<Renderer, PieceSetError> {
        let fonts = pieces::embedded_fonts();
        let set = PieceSet::from_dir(dir, &fonts)?;
        Ok(Renderer::with_fonts(set, fonts))
    }

    fn with_fonts(pieces: PieceSet, fonts: Arc<fontdb::Database>) -> Renderer {
        Renderer {
            pieces,
            themes: theme::builtin_themes(),
            fonts,
            sprites: Mutex::new(HashMap::new()),
            boards: Mutex::new(HashMap::new()),
            blended: Mutex::new(HashMap::new()),
            palettes: Mutex::new(HashMap::new()),
            gif_starts: Mutex::new(HashMap::new()),
            result_lines: Mutex::new(HashMap::new()),
            opening_tails: Mutex::new(HashMap::new()),
        }
    }

    /// The theme names, the default first.
    pub fn theme_names(&self) -> Vec<&str> {
        self.themes.iter().map(|t| t.name.as_str()).collect()
    }

    /// The theme called `name`.
    pub fn theme(&self, name: &str) -> Result<&Theme, RenderError> {
        self.theme_index(name).map(|i| &self.themes[i])
    }

    fn theme_index(&self, name: &str) -> Result<usize, RenderError> {
        self.themes
            .iter()
            .position(|t| t.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| RenderError::UnknownTheme {
                name: name.chars().take(64).collect(),
                known: self.theme_names().join(", "),
            })
    }

    /// Rasterises the sprites and the empty board for these options now, so the first
    /// `render` with them is as fast as the rest.
    pub fn prepare(&self, options: &RenderOptions) -> Result<(), RenderError> {
        let (t, geo) = self.resolve(options)?;
        self.sprites_for(geo.square);
        self.board_for(t, geo, options.orientation);
        Ok(())
    }

    fn resolve(&self, options: &RenderOptions) -> Result<(usize, Geometry), RenderError> {
        let t = self.theme_index(&options.theme)?;
        let size = clamp_size(u64::from(options.size)).size;
        Ok((t, Geometry::new(size)))
    }

    fn sprites_for(&self, side: u32) -> Arc<Vec<Sprite>> {
        cached(&self.sprites, side, CACHE_LIMIT, || {
            Arc::new(self.pieces.rasterise(side))
        })
    }

    fn board_for(&self, theme: usize, geo: Geometry, o: Orientation) -> Arc<BoardBase> {
        cached(&self.boards, (theme, geo.size, o), CACHE_LIMIT, || {
            Arc::new(BoardBase::build(
                &self.themes[theme],
                geo,
                o == Orientation::White,
                &self.fonts,
            ))
        })
    }

    fn blended_for(&self, theme: usize, side: u32) -> Arc<BlendedPieces> {
        cached(&self.blended, (theme, side), CACHE_LIMIT, || {
            Arc::new(BlendedPieces::build(
                &self.themes[theme],
                &self.sprites_for(side),
            ))
        })
    }

    /// Draws the board and returns the pixels (what [`Renderer::render`] encodes).
    pub fn render_image(
        &self,
        view: &BoardView,
        highlights: &Highlights,
        options: &RenderOptions,
    ) -> Result<RgbImage, RenderError> {
        let mut img = RgbImage::new(0, 0, [0, 0, 0]);
        self.draw(&mut img, view, highlights, options)?;
        Ok(img)
    }

    /// Draws the board into `img` (resized to the board, its allocation reused).
    fn draw(
        &self,
        img: &mut RgbImage,
        view: &BoardView,
        highlights: &Highlights,
        options: &RenderOptions,
    ) -> Result<(), RenderError> {
        let board = self.board_parts(options)?;
        board.draw_band(img, view, highlights, 0..8);
        Ok(())
    }

    /// What a board of `options` is drawn from.
    fn board_parts(&self, options: &RenderOptions) -> Result<BoardParts, RenderError> {
        let (t, geo) = self.resolve(options)?;
        Ok(BoardParts {
            geo,
            sprites: self.sprites_for(geo.square),
            blended: Some(self.blended_for(t, geo.square)),
            base: self.board_for(t, geo, options.orientation),
            white_bottom: options.orientation == Orientation::White,
        })
    }

    /// Draws the board as PNG bytes (8-bit RGB, `options.size` pixels square after clamping).
    ///
    /// The board is drawn a row of squares at a time into a band kept by the calling thread
    /// (the blocking pool's few threads), and each band goes on to the PNG encoder: the
    /// whole picture (768 KiB at 512 px) is never in memory.
    pub fn render(
        &self,
        view: &BoardView,
        highlights: &Highlights,
        options: &RenderOptions,
    ) -> Result<Vec<u8>, RenderError> {
        thread_local! {
            static BAND: std::cell::RefCell<RgbImage> =
                std::cell::RefCell::new(RgbImage::new(0, 0, [0, 0, 0]));
        }
        let board = self.board_parts(options)?;
        let size = board.geo.size;
        BAND.with(|band| {
            // A band already borrowed (never, as drawing does not render) gets a fresh one.
            let mut fresh;
            let mut kept = band.try_borrow_mut().ok();
            let img = match kept.as_deref_mut() {
                Some(img) => img,
                None => {
                    fresh = RgbImage::new(0, 0, [0, 0, 0]);
                    &mut fresh
                }
            };
            Ok(raster::encode_png_bands(size, size, |out| {
                for row in 0..8 {
                    board.draw_band(img, view, highlights, row..row + 1);
                    out.push(img.data())?;
                }
                Ok(())
            })
            .expect("PNG into memory"))
        })
    }
}

/// What one board is drawn from: its layout, sprites and empty board.
struct BoardParts {
    geo: Geometry,
    sprites: Arc<Vec<Sprite>>,
    /// The pieces over the plain square colours (`None`: every piece blended, as the tests'
    /// reference draws).
    blended: Option<Arc<BlendedPieces>>,
    base: Arc<BoardBase>,
    white_bottom: bool,
}

impl BoardParts {
    /// Draws the rows of squares `rows` (0 = top) into `img`, which becomes the band of the
    /// picture they cover (its allocation reused): the empty board, the last move's squares
    /// tinted, the glow under a king in check, the pieces. A sprite never leaves its square,
    /// so a band holds all of its squares' drawing.
    fn draw_band(
        &self,
        img: &mut RgbImage,
        view: &BoardView,
        highlights: &Highlights,
        rows: std::ops::Range<usize>,
    ) {
        let (geo, base) = (self.geo, &self.base);
        let top = geo.cell(0, rows.start).1;
        // Square index (a1 = 0) -> (column, row) in the picture, for squares in the band.
        let cell = |sq: usize| {
            let (file, rank) = (sq % 8, sq / 8);
            let (col, row) = if self.white_bottom {
                (file, 7 - rank)
            } else {
                (7 - file, rank)
            };
            rows.contains(&row).then_some((col, row))
        };
        base.draw_plain_band(img, rows.clone());
        for (col, row) in highlights.last_move_squares().filter_map(cell) {
            base.copy_tinted_cell_in_band(img, col, row, top);
        }
        if let Some((col, row)) = highlights.check_square().and_then(cell) {
            let (x, y) = geo.sprite_origin(col, row);
            img.blit(&base.check, x, y - top);
        }
        let check = highlights.check_square();
        for (sq, piece) in view.pieces() {
            if let Some((col, row)) = cell(sq) {
                let tinted = highlights.last_move_squares().any(|s| s == sq);
                self.draw_piece(img, piece, (col, row), top, tinted, check == Some(sq));
            }
        }
    }

    /// Draws `piece` on the cell `(col, row)` of the picture, in a band whose top pixel row
    /// is `top`, over the cell as drawn (tinted or not, glowing or not). On a cell of one
    /// colour (no label, no glow) it is the piece as already drawn over that colour, copied.
    fn draw_piece(
        &self,
        img: &mut RgbImage,
        piece: usize,
        (col, row): (usize, usize),
        top: u32,
        tinted: bool,
        check: bool,
    ) {
        let (x, y) = self.geo.sprite_origin(col, row);
        let flat = self.base.flat_colour(col, row, tinted).filter(|_| !check);
        let ready = self
            .blended
            .as_deref()
            .zip(flat)
            .and_then(|(b, c)| b.get(piece, c));
        match ready {
            Some(b) => img.paste(&b.pixels, x + b.left, y - top + b.top),
            None => img.blit(&self.sprites[piece], x, y - top),
        }
    }
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new()
    }
}

/// The shared renderer with the built-in pieces, built on first use.
pub fn default_renderer() -> &'static Renderer {
    static RENDERER: OnceLock<Renderer> = OnceLock::new();
    RENDERER.get_or_init(Renderer::new)
}

/// Draws a board with the built-in pieces as PNG bytes: see [`Renderer::render`].
pub fn render(
    view: &BoardView,
    highlights: &Highlights,
    options: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    default_renderer().render(view, highlights, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position after `line` (UCI moves from the start) and its last move.
    fn played(line: &[&str]) -> (cajitas_rules::Position, Option<cajitas_rules::Move>) {
        let (pos, moves) = played_moves(line);
        (pos, moves.last().copied())
    }

    /// The position after `line` (UCI moves from the start) and the moves.
    pub(super) fn played_moves(
        line: &[&str],
    ) -> (cajitas_rules::Position, Vec<cajitas_rules::Move>) {
        let mut pos = cajitas_rules::Position::new();
        let mut moves = Vec::new();
        for uci in line {
            let m = uci
                .parse::<cajitas_rules::Uci>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play(m);
            moves.push(m);
        }
        (pos, moves)
    }

    #[test]
    fn the_png_drawn_band_by_band_is_the_whole_picture() {
        // A capture with check (two tinted squares, the king glowing) and a castling, at
        // sizes whose squares differ by a pixel, from both sides.
        let play = |line: &[&str]| {
            let (pos, last) = played(line);
            let hl = Highlights::after(&pos, last);
            (pos, hl)
        };
        let opening = ["e2e4", "e7e5", "g1f3", "f8c5", "f1c4", "g8f6", "e1g1"];
        let castled = play(&opening);
        let check = play(&[&opening[..], &["c5f2"]].concat());
        assert!(check.1.check_square().is_some());
        let r = default_renderer();
        for (pos, hl) in [&check, &castled] {
            assert_eq!(hl.last_move_squares().count(), 2);
            for size in [128, 130, 511, 512, 1024] {
                for orientation in [Orientation::White, Orientation::Black] {
                    let options = RenderOptions {
                        size,
                        orientation,
                        ..RenderOptions::default()
                    };
                    let view = BoardView::from(pos);
                    let whole = r.render_image(&view, hl, &options).unwrap();
                    let png = r.render(&view, hl, &options).unwrap();
                    let mut reader = png::Decoder::new(std::io::Cursor::new(&png))
                        .read_info()
                        .unwrap();
                    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
                    let info = reader.next_frame(&mut pixels).unwrap();
                    assert_eq!((info.width, info.height), (size, size));
                    assert!(
                        pixels[..info.buffer_size()] == *whole.data(),
                        "{size} px, {orientation:?}"
                    );
                }
            }
        }
    }

    // A piece on a square of one colour is copied from the pieces drawn over that colour:
    // the picture is the one every piece blended onto the board gives, byte for byte, at
    // every theme, at sizes whose cells are wider than the pieces (130, 203) or not, from
    // both sides, with last-move squares, a castling rook's squares and a king in check.
    #[test]
    fn pieces_copied_over_their_square_colour_are_the_pieces_blended() {
        let r = default_renderer();
        let mut rng = fastrand::Rng::with_seed(5);
        let mut boards = 0;
        for game in 0..24 {
            // Every fourth game is 1. e4 f5 2. Qh5+: Black's king in check on e8.
            let (mut pos, mut last) = played(if game % 4 == 0 {
                &["e2e4", "f7f5", "d1h5"]
            } else {
                &[]
            });
            for _ in 0..rng.usize(0..80) * usize::from(game % 4 != 0) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.usize(..moves.len())];
                pos.play(m);
                last = Some(m);
            }
            let hl = Highlights::after(&pos, last);
            let view = BoardView::from(&pos);
            for theme in r.theme_names() {
                let options = RenderOptions {
                    size: [128, 130, 203, 512][game % 4],
                    orientation: [Orientation::White, Orientation::Black][game / 4 % 2],
                    theme: theme.to_owned(),
                };
                let parts = r.board_parts(&options).unwrap();
                let mut got = RgbImage::new(0, 0, [0; 3]);
                parts.draw_band(&mut got, &view, &hl, 0..8);
                let reference = BoardParts {
                    blended: None,
                    ..parts
                };
                let mut want = RgbImage::new(0, 0, [0; 3]);
                reference.draw_band(&mut want, &view, &hl, 0..8);
                assert!(got == want, "game {game}, {theme}, {options:?}");
                boards += 1;
            }
        }
        assert_eq!(boards, 24 * r.theme_names().len());
    }

    // What the module says it keeps: the pieces over the square colours of a 512 px board
    // (64 px squares, each only over its ink's bounding box) stay under 400 KiB.
    #[test]
    fn the_pieces_kept_over_their_square_colours_stay_small() {
        let r = default_renderer();
        let bytes = r.blended_for(0, Geometry::new(512).square).pixel_bytes();
        assert!(bytes > 0 && bytes < 400 * 1024, "{bytes} bytes");
    }

    #[test]
    fn sizes_are_clamped_with_a_message() {
        assert_eq!(
            clamp_size(512),
            ClampedSize {
                size: 512,
                note: None
            }
        );
        let small = clamp_size(16);
        assert_eq!(small.size, MIN_SIZE);
        assert!(small.note.unwrap().contains("using 128 px"));
        assert_eq!(clamp_size(u64::MAX).size, MAX_SIZE);
    }

    #[test]
    fn unknown_theme_lists_the_known_ones() {
        let r = default_renderer();
        let err = r.theme("purple").unwrap_err().to_string();
        assert!(err.contains("brown, blue, green"), "{err}");
        assert!(r.theme("Blue").is_ok());
    }
}
