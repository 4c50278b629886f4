//! Piece art: the built-in sets (our own SVG drawings, the default, or the DejaVu Sans chess
//! glyphs), or a folder of 12 SVG files.
//!
//! A [`PieceSet`] holds the 12 parsed SVG trees. They are rasterised into sprites once per
//! square size (see [`super::raster::Sprite`]); nothing here runs per move.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cajitas_rules::{Color, Piece, Role};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};

use super::raster::Sprite;
use crate::files::{CappedReadError, read_file_capped};

/// The file names of a piece folder, in [`piece_index`] order: white then black, each
/// pawn, knight, bishop, rook, queen, king.
pub const PIECE_FILES: [&str; 12] = [
    "wP.svg", "wN.svg", "wB.svg", "wR.svg", "wQ.svg", "wK.svg", "bP.svg", "bN.svg", "bB.svg",
    "bR.svg", "bQ.svg", "bK.svg",
];

/// The drawings of the built-in `cajitas` set, in [`PIECE_FILES`] order: our own design,
/// under the project's licence (`assets/pieces/cajitas/`).
const CAJITAS_SVGS: [&str; 12] = [
    include_str!("../../assets/pieces/cajitas/wP.svg"),
    include_str!("../../assets/pieces/cajitas/wN.svg"),
    include_str!("../../assets/pieces/cajitas/wB.svg"),
    include_str!("../../assets/pieces/cajitas/wR.svg"),
    include_str!("../../assets/pieces/cajitas/wQ.svg"),
    include_str!("../../assets/pieces/cajitas/wK.svg"),
    include_str!("../../assets/pieces/cajitas/bP.svg"),
    include_str!("../../assets/pieces/cajitas/bN.svg"),
    include_str!("../../assets/pieces/cajitas/bB.svg"),
    include_str!("../../assets/pieces/cajitas/bR.svg"),
    include_str!("../../assets/pieces/cajitas/bQ.svg"),
    include_str!("../../assets/pieces/cajitas/bK.svg"),
];

/// Which pieces to draw: a built-in set or a folder of 12 SVG files.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum PieceSource {
    /// Our own drawings (`assets/pieces/cajitas/`): the default.
    #[default]
    Cajitas,
    /// The chess glyphs of the embedded DejaVu Sans font.
    DejaVu,
    /// The files `wK.svg` … `bP.svg` of this folder.
    Dir(PathBuf),
}

impl PieceSource {
    /// The names of the built-in sets, as a setting or `--pieces` takes them.
    pub const BUILTIN_NAMES: [&str; 2] = ["cajitas", "dejavu"];

    /// Reads a setting (`CAJITAS_PIECES`, `--pieces`): unset or empty is the default set,
    /// `cajitas` or `dejavu` (any case) a built-in set, anything else a folder (write
    /// `./dejavu` for a folder of that name).
    pub fn from_setting(raw: Option<&std::ffi::OsStr>) -> PieceSource {
        let Some(raw) = raw.filter(|v| !v.is_empty()) else {
            return PieceSource::Cajitas;
        };
        match raw.to_str() {
            Some(s) if s.eq_ignore_ascii_case("cajitas") => PieceSource::Cajitas,
            Some(s) if s.eq_ignore_ascii_case("dejavu") => PieceSource::DejaVu,
            _ => PieceSource::Dir(PathBuf::from(raw)),
        }
    }
}

/// The family name of the embedded font (DejaVu Sans, from the `dejavu` crate).
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// Largest piece file accepted from a folder (cburnett files are under 1 KB).
const MAX_SVG_BYTES: u64 = 1 << 20;

/// The font database holding only the embedded DejaVu Sans (regular and bold): no system
/// font is ever looked up, so the output is the same on every machine.
pub fn embedded_fonts() -> Arc<fontdb::Database> {
    let mut db = fontdb::Database::new();
    // Read in place from the binary: a copy on the heap was 1.4 MB for the life of the bot.
    let regular: &'static [u8] = dejavu::sans::regular();
    let bold: &'static [u8] = dejavu::sans::bold();
    db.load_font_source(fontdb::Source::Binary(Arc::new(regular)));
    db.load_font_source(fontdb::Source::Binary(Arc::new(bold)));
    Arc::new(db)
}

/// Parses an SVG document with the embedded fonts only.
pub fn parse_svg(text: &str, fonts: &Arc<fontdb::Database>) -> Result<usvg::Tree, usvg::Error> {
    let opt = usvg::Options {
        fontdb: Arc::clone(fonts),
        font_family: FONT_FAMILY.to_string(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(text, &opt)
}

/// Why a piece folder could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum PieceSetError {
    /// A file is missing or unreadable.
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file is too large to be a piece.
    #[error("{path} is larger than 1 MiB; is it really a piece?")]
    TooLarge { path: PathBuf },
    /// A file is not a usable SVG document.
    #[error("{path} is not a usable SVG file: {reason}")]
    Svg { path: PathBuf, reason: String },
}

/// One piece's art: the SVG tree and the square (in the tree's units) that maps onto a board square.
#[derive(Clone)]
struct PieceArt {
    tree: usvg::Tree,
    /// left, top, side
    frame: (f32, f32, f32),
    /// Paint white whatever the drawing encloses but leaves uncovered (see [`fill_holes`]).
    fill_holes: bool,
}

/// The 12 pieces' art, parsed once.
#[derive(Clone)]
pub struct PieceSet {
    art: Vec<PieceArt>,
    name: String,
}

impl std::fmt::Debug for PieceSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PieceSet")
            .field("name", &self.name)
            .finish()
    }
}

/// The index of a piece in a [`PieceSet`] and in [`PIECE_FILES`]: `color * 6 + role`, with
/// white = 0, black = 1, and roles pawn = 0 … king = 5.
pub const fn piece_index(black: bool, role: usize) -> usize {
    (black as usize) * 6 + role
}

/// The frame of a drawing that fills the square: its whole canvas, centred, keeping its
/// proportions.
fn whole_canvas(tree: &usvg::Tree) -> (f32, f32, f32) {
    let size = tree.size();
    let side = size.width().max(size.height());
    (
        (size.width() - side) / 2.0,
        (size.height() - side) / 2.0,
        side,
    )
}

impl PieceSet {
    /// The pieces named by `source`: a built-in set, or the folder's 12 files.
    pub fn load(
        source: &PieceSource,
        fonts: &Arc<fontdb::Database>,
    ) -> Result<PieceSet, PieceSetError> {
        match source {
            PieceSource::Cajitas => Ok(PieceSet::cajitas(fonts)),
            PieceSource::DejaVu => Ok(PieceSet::dejavu(fonts)),
            PieceSource::Dir(dir) => PieceSet::from_dir(dir, fonts),
        }
    }

    /// The default built-in set: our own drawings (`assets/pieces/cajitas/*.svg`, embedded),
    /// filled shapes with an outline, drawn on a 100-unit square that maps onto a board
    /// square.
    pub fn cajitas(fonts: &Arc<fontdb::Database>) -> PieceSet {
        let art = CAJITAS_SVGS
            .iter()
            .enumerate()
            .map(|(i, svg)| {
                // The files are embedded and tested: this cannot fail in a tested build.
                let tree = parse_svg(svg, fonts).expect("built-in piece SVG parses");
                PieceArt {
                    frame: whole_canvas(&tree),
                    tree,
                    // On small squares the gaps between the queen's balls close into pockets.
                    fill_holes: i < 6,
                }
            })
            .collect();
        PieceSet {
            art,
            name: "cajitas".to_string(),
        }
    }

    /// The built-in DejaVu set: the chess glyphs of DejaVu Sans (U+2654–U+265F). White pieces are
    /// the solid glyph filled white under the outline glyph in black; black pieces are the
    /// solid glyph in black.
    pub fn dejavu(fonts: &Arc<fontdb::Database>) -> PieceSet {
        let mut trees = Vec::with_capacity(12);
        for black in [false, true] {
            for role in Role::ALL {
                let solid = Piece {
                    color: Color::Black,
                    role,
                }
                .figurine();
                let body = if black {
                    format!(r##"<text {TEXT_ATTRS} fill="#000">{solid}</text>"##)
                } else {
                    let outline = Piece {
                        color: Color::White,
                        role,
                    }
                    .figurine();
                    format!(
                        r##"<text {TEXT_ATTRS} fill="#fff">{solid}</text><text {TEXT_ATTRS} fill="#000">{outline}</text>"##
                    )
                };
                let svg = format!(
                    r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">{body}</svg>"#
                );
                // The text is fixed and the font is embedded: this cannot fail in a tested build.
                let tree = parse_svg(&svg, fonts).expect("built-in piece SVG parses");
                trees.push(tree);
            }
        }
        // One scale for all glyphs (a pawn stays smaller than a king), all on one baseline:
        // the union of the glyphs' vertical extents fills PIECE_HEIGHT of the square, and
        // each glyph is centred horizontally on its own box.
        let boxes: Vec<_> = trees.iter().map(|t| ink_box(t.root())).collect();
        let top = boxes.iter().map(|b| b.1).fold(f32::MAX, f32::min);
        let bottom = boxes.iter().map(|b| b.3).fold(f32::MIN, f32::max);
        let widest = boxes.iter().map(|b| b.2 - b.0).fold(0.0, f32::max);
        let side = ((bottom - top) / PIECE_HEIGHT).max(widest / PIECE_WIDTH);
        let frame_top = top - (side - (bottom - top)) / 2.0;
        let art = trees
            .into_iter()
            .zip(boxes)
            .enumerate()
            .map(|(i, (tree, b))| {
                let cx = (b.0 + b.2) / 2.0;
                PieceArt {
                    tree,
                    frame: (cx - side / 2.0, frame_top, side),
                    // White pieces: the solid glyph under the outline leaves gaps.
                    fill_holes: i < 6,
                }
            })
            .collect();
        PieceSet {
            art,
            name: "DejaVu Sans".to_string(),
        }
    }

    /// Loads the 12 files `wK.svg` … `bP.svg` from a folder (e.g. a copy of cburnett).
    /// Each drawing is scaled to fill the square, keeping its proportions.
    pub fn from_dir(dir: &Path, fonts: &Arc<fontdb::Database>) -> Result<PieceSet, PieceSetError> {
        let mut art = Vec::with_capacity(12);
        for file in PIECE_FILES {
            let path = dir.join(file);
            // Capped while reading: metadata says 0 bytes for a FIFO or /dev/zero.
            let bytes = match read_file_capped(&path, MAX_SVG_BYTES) {
                Ok(b) => b,
                Err(CappedReadError::TooLarge { .. }) => {
                    return Err(PieceSetError::TooLarge { path });
                }
                Err(CappedReadError::Io(source)) => {
                    return Err(PieceSetError::Read { path, source });
                }
            };
            let text = String::from_utf8(bytes).map_err(|_| PieceSetError::Svg {
                path: path.clone(),
                reason: "it is not UTF-8 text".to_string(),
            })?;
            let tree = parse_svg(&text, fonts).map_err(|e| PieceSetError::Svg {
                path: path.clone(),
                reason: e.to_string(),
            })?;
            art.push(PieceArt {
                frame: whole_canvas(&tree),
                tree,
                fill_holes: false,
            });
        }
        Ok(PieceSet {
            art,
            name: dir.display().to_string(),
        })
    }

    /// Where the set comes from (for logs).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Rasterises the 12 pieces for squares of `side` pixels.
    pub fn rasterise(&self, side: u32) -> Vec<Sprite> {
        self.art
            .iter()
            .map(|a| {
                let (left, top, frame) = a.frame;
                let k = side as f32 / frame;
                let t = Transform::from_row(k, 0.0, 0.0, k, -left * k, -top * k);
                let mut pm = Pixmap::new(side, side).expect("square side is at least 16 px");
                resvg::render(&a.tree, t, &mut pm.as_mut());
                if a.fill_holes {
                    fill_holes(&mut pm);
                }
                Sprite::from_pixmap(&pm)
            })
            .collect()
    }
}

/// Puts opaque white under every pixel the drawing encloses: pixels not reachable from the
/// border through mostly transparent ones (alpha below one half), and not next to one that
/// is (so the outer anti-aliased edge stays as drawn). A white DejaVu piece is the solid
/// glyph in white under the outline glyph in black, and the solid glyph has thin gaps (the
/// lines between a crown's lobes, a rook's bricks) just inside the outline: without this the
/// square, a last-move tint or the red check glow shows through them as coloured lines.
fn fill_holes(pm: &mut Pixmap) {
    let (w, h) = (pm.width() as usize, pm.height() as usize);
    let data = pm.data_mut();
    let alpha = |i: usize| data[i * 4 + 3];
    let passable = |i: usize| alpha(i) < 128;
    let mut outside = vec![false; w * h];
    let mut stack: Vec<usize> = (0..w * h)
        .filter(|&i| {
            let (x, y) = (i % w, i / w);
            (x == 0 || y == 0 || x + 1 == w || y + 1 == h) && passable(i)
        })
        .collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut outside[i], true) {
            continue;
        }
        let (x, y) = (i % w, i / w);
        for (ok, j) in [
            (x > 0, i.wrapping_sub(1)),
            (x + 1 < w, i + 1),
            (y > 0, i.wrapping_sub(w)),
            (y + 1 < h, i + w),
        ] {
            if ok && !outside[j] && passable(j) {
                stack.push(j);
            }
        }
    }
    let near_outside = |i: usize| {
        let (x, y) = (i % w, i / w);
        outside[i]
            || (x > 0 && outside[i - 1])
            || (x + 1 < w && outside[i + 1])
            || (y > 0 && outside[i - w])
            || (y + 1 < h && outside[i + w])
    };
    let enclosed: Vec<usize> = (0..w * h)
        .filter(|&i| alpha(i) < 255 && !near_outside(i))
        .collect();
    for i in enclosed {
        // Premultiplied source-over onto opaque white: c + 255 - a.
        let px = &mut data[i * 4..i * 4 + 4];
        let gap = 255 - px[3];
        for c in &mut px[..3] {
            *c = c.saturating_add(gap);
        }
        px[3] = 255;
    }
}

/// The share of a square's height the tallest built-in glyph fills.
const PIECE_HEIGHT: f32 = 0.78;
/// The most of a square's width any built-in glyph may fill.
const PIECE_WIDTH: f32 = 0.84;

/// The box `(left, top, right, bottom)` around the paths actually drawn (text bounding boxes
/// include the font's line height, which would shrink the glyphs).
fn ink_box(group: &usvg::Group) -> (f32, f32, f32, f32) {
    let mut b = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    let mut add = |r: usvg::Rect| {
        b = (
            b.0.min(r.left()),
            b.1.min(r.top()),
            b.2.max(r.right()),
            b.3.max(r.bottom()),
        );
    };
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => {
                let r = ink_box(g);
                if r.0 <= r.2 {
                    add(usvg::Rect::from_ltrb(r.0, r.1, r.2, r.3).unwrap_or(g.abs_bounding_box()));
                }
            }
            usvg::Node::Path(p) => add(p.abs_bounding_box()),
            usvg::Node::Text(t) => {
                let r = ink_box(t.flattened());
                if r.0 <= r.2 {
                    add(usvg::Rect::from_ltrb(r.0, r.1, r.2, r.3).unwrap_or(t.abs_bounding_box()));
                }
            }
            usvg::Node::Image(i) => add(i.abs_bounding_box()),
        }
    }
    b
}

const TEXT_ATTRS: &str =
    r#"x="50" y="80" font-family="DejaVu Sans" font-size="80" text-anchor="middle""#;

#[cfg(test)]
mod tests {
    use super::super::raster::RgbImage;
    use super::*;

    /// Twelve different, non-empty drawings; white pieces have a white body inside a dark
    /// outline, black pieces are dark (a light detail, but nothing white).
    fn assert_twelve_proper_pieces(set: &PieceSet) {
        let sprites = set.rasterise(64);
        assert_eq!(sprites.len(), 12);
        for (i, s) in sprites.iter().enumerate() {
            // A dropped glyph or drawing would leave an empty sprite.
            let opaque = s.count_alpha_at_least(128);
            assert!(
                opaque > 64 * 64 / 20,
                "{}: piece {i} has only {opaque} opaque pixels",
                set.name()
            );
        }
        // Twelve different drawings (a missing glyph would give twelve identical boxes).
        for i in 0..12 {
            for j in 0..i {
                assert!(
                    sprites[i].pixels() != sprites[j].pixels(),
                    "{}: pieces {i} and {j}",
                    set.name()
                );
            }
        }
        for (i, s) in sprites.iter().enumerate() {
            let opaque_white = s
                .pixels()
                .chunks_exact(4)
                .filter(|p| p[3] == 255 && p[0] > 230 && p[1] > 230 && p[2] > 230)
                .count();
            let opaque_dark = s
                .pixels()
                .chunks_exact(4)
                .filter(|p| p[3] == 255 && p[0] < 40)
                .count();
            assert!(opaque_dark > 40, "{}: piece {i}: no outline", set.name());
            if i < 6 {
                assert!(
                    opaque_white > 100,
                    "{}: white piece {i} has no white body",
                    set.name()
                );
            } else {
                assert_eq!(
                    opaque_white,
                    0,
                    "{}: black piece {i} has white pixels",
                    set.name()
                );
            }
        }
    }

    #[test]
    fn dejavu_glyphs_are_found_in_the_embedded_font() {
        assert_twelve_proper_pieces(&PieceSet::dejavu(&embedded_fonts()));
    }

    #[test]
    fn the_cajitas_drawings_are_twelve_proper_pieces() {
        assert_twelve_proper_pieces(&PieceSet::cajitas(&embedded_fonts()));
    }

    #[test]
    fn the_piece_setting_names_a_built_in_set_or_a_folder() {
        use std::ffi::OsStr;
        let read = |s: &str| PieceSource::from_setting(Some(OsStr::new(s)));
        assert_eq!(PieceSource::from_setting(None), PieceSource::Cajitas);
        assert_eq!(PieceSource::default(), PieceSource::Cajitas);
        assert_eq!(read(""), PieceSource::Cajitas);
        assert_eq!(read("cajitas"), PieceSource::Cajitas);
        assert_eq!(read("DejaVu"), PieceSource::DejaVu);
        assert_eq!(read("dejavu"), PieceSource::DejaVu);
        assert_eq!(
            read("/srv/cburnett"),
            PieceSource::Dir(PathBuf::from("/srv/cburnett"))
        );
        assert_eq!(
            read("./dejavu"),
            PieceSource::Dir(PathBuf::from("./dejavu"))
        );
    }

    /// How many pixels of `sprite`, drawn over pure red, are red and enclosed by the piece
    /// (not reachable from the sprite's border through red pixels).
    fn enclosed_red(sprite: &Sprite) -> usize {
        let side = sprite.width();
        let mut img = RgbImage::new(side, side, [255, 0, 0]);
        img.blit(sprite, 0, 0);
        let red = |i: usize| {
            let p = img.pixel((i as u32) % side, (i as u32) / side);
            p[0] > 150 && p[1] < 110 && p[2] < 110
        };
        let n = (side * side) as usize;
        let mut seen = vec![false; n];
        let mut stack: Vec<usize> = (0..n)
            .filter(|&i| {
                let (x, y) = ((i as u32) % side, (i as u32) / side);
                (x == 0 || y == 0 || x == side - 1 || y == side - 1) && red(i)
            })
            .collect();
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            let (x, y) = ((i as u32) % side, (i as u32) / side);
            let mut push = |j: usize| {
                if !seen[j] && red(j) {
                    stack.push(j);
                }
            };
            if x > 0 {
                push(i - 1);
            }
            if x + 1 < side {
                push(i + 1);
            }
            if y > 0 {
                push(i - side as usize);
            }
            if y + 1 < side {
                push(i + side as usize);
            }
        }
        (0..n).filter(|&i| red(i) && !seen[i]).count()
    }

    #[test]
    fn white_pieces_have_no_holes_for_the_square_to_show_through() {
        // Under a king in check the square is red, on the last move it is tinted: none of it
        // may show inside a white piece's body (DejaVu's solid glyphs have gaps that the
        // outline glyph does not cover).
        let fonts = embedded_fonts();
        for set in [PieceSet::cajitas(&fonts), PieceSet::dejavu(&fonts)] {
            for side in [16, 25, 32, 64, 128] {
                for (i, s) in set.rasterise(side).iter().enumerate().take(6) {
                    let holes = enclosed_red(s);
                    assert_eq!(
                        holes,
                        0,
                        "{}: white piece {i} at {side} px: {holes} red pixels inside",
                        set.name()
                    );
                }
            }
        }
    }

    /// The luminance (0–255, integer Rec. 601 weights) of each pixel of `sprite` drawn over
    /// a plain square of colour `under`.
    fn luminance_over(sprite: &Sprite, under: [u8; 3]) -> Vec<u32> {
        let side = sprite.width();
        let mut img = RgbImage::new(side, side, under);
        img.blit(sprite, 0, 0);
        img.data()
            .chunks_exact(3)
            .map(|p| (299 * u32::from(p[0]) + 587 * u32::from(p[1]) + 114 * u32::from(p[2])) / 1000)
            .collect()
    }

    /// How clearly a set reads at `side` px per square: the fewest pixels by which two pieces
    /// of one colour differ (luminance apart by more than 64 over a mid-grey square), and the
    /// fewest body pixels of a piece (near white for white pieces, near black for black
    /// ones, over a mid-grey square).
    fn legibility(set: &PieceSet, side: u32) -> (usize, usize) {
        let lum: Vec<Vec<u32>> = set
            .rasterise(side)
            .iter()
            .map(|s| luminance_over(s, [128, 128, 128]))
            .collect();
        let mut fewest_differing = usize::MAX;
        for colour in [0..6, 6..12] {
            for i in colour.clone() {
                for j in colour.start..i {
                    let differing = lum[i]
                        .iter()
                        .zip(&lum[j])
                        .filter(|(a, b)| a.abs_diff(**b) > 64)
                        .count();
                    fewest_differing = fewest_differing.min(differing);
                }
            }
        }
        let fewest_body = lum
            .iter()
            .enumerate()
            .map(|(i, l)| {
                l.iter()
                    .filter(|&&v| if i < 6 { v > 224 } else { v < 48 })
                    .count()
            })
            .min()
            .unwrap_or(0);
        (fewest_differing, fewest_body)
    }

    #[test]
    fn the_cajitas_set_reads_at_least_as_clearly_as_dejavu_at_128_and_512_px() {
        // The default set must be as easy to tell apart and as solid as the DejaVu glyphs it
        // replaced, on the smallest board (16 px squares) and the default one (64 px).
        let fonts = embedded_fonts();
        let (ours, dejavu) = (PieceSet::cajitas(&fonts), PieceSet::dejavu(&fonts));
        for side in [16, 64] {
            let (a, b) = (legibility(&ours, side), legibility(&dejavu, side));
            eprintln!("{side} px squares: cajitas {a:?}, dejavu {b:?}");
            assert!(
                a.0 >= b.0,
                "{side} px: two cajitas pieces differ in only {} pixels (dejavu: {})",
                a.0,
                b.0
            );
            assert!(
                a.1 >= b.1,
                "{side} px: a cajitas piece has only {} body pixels (dejavu: {})",
                a.1,
                b.1
            );
        }
    }

    #[test]
    fn a_missing_file_names_the_file() {
        let fonts = embedded_fonts();
        let err = PieceSet::from_dir(Path::new("/nonexistent-cajitas-pieces"), &fonts).unwrap_err();
        assert!(err.to_string().contains("wP.svg"), "{err}");
    }
}
