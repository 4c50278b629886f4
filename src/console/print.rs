//! What the console prints: a game (the board as text, its status line, material and clock
//! lines, all worded by [`crate::i18n`] with [`Presentation::Console`]), a challenge, a
//! refusal, and the board's PNG beside the session.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use cajitas_rules::{Position, Square};

use super::Session;
use crate::game::{ChallengeView, GameError, GameView, Lang};
use crate::i18n::{self, Presentation};
use crate::render::{self, BoardView, Highlights, RenderOptions};
use crate::tr;

impl Session {
    /// Renders the board to a PNG file and prints its path (a failure is reported, not fatal).
    pub(super) fn show_png(
        &self,
        out: &mut impl Write,
        v: &GameView,
        lang: Lang,
    ) -> io::Result<()> {
        let Some(dir) = &self.boards else {
            return Ok(());
        };
        let line = match write_png(dir, v) {
            Ok(path) => tr!(
                lang,
                "console-board-image",
                path = path.display().to_string()
            ),
            Err(e) => tr!(lang, "console-board-image-failed", error = e),
        };
        writeln!(out, "{line}")
    }
}

/// The console's status line in English ([`status_line_in`]).
pub fn status_line(v: &GameView) -> String {
    status_line_in(v, Lang::En)
}

/// The console's status line in `lang`: who is to move, check, the result, or a claim hint,
/// as [`i18n::status::status_line`] words it for the console.
pub fn status_line_in(v: &GameView, lang: Lang) -> String {
    i18n::status::status_line(lang, Presentation::Console, v)
}

pub(super) fn write_png(dir: &Path, v: &GameView) -> Result<PathBuf, String> {
    let opts = RenderOptions {
        orientation: v.orientation().into(),
        ..RenderOptions::default()
    };
    let highlights = Highlights::after(&v.position, v.last_move);
    let png = render::render(&BoardView::from(&v.position), &highlights, &opts)
        .map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("game-{}-ply-{:03}.png", v.game_id, v.ply));
    // Replaced, not written through: a symlink planted at this path must not aim the write.
    crate::files::write_replacing(&path, &png).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// A refusal in `lang` ([`i18n::game_error`]); an unexpected failure is logged and
/// apologised for.
pub(super) fn refusal(out: &mut impl Write, e: &GameError, lang: Lang) -> io::Result<()> {
    if e.is_refusal() {
        writeln!(out, "{}", i18n::game_error(lang, Presentation::Console, e))
    } else {
        tracing::error!(error = %e.chain(), "cajitas local: unexpected failure");
        writeln!(out, "{}", tr!(lang, "console-sorry", error = e.chain()))
    }
}

pub(super) fn show_challenge(
    out: &mut impl Write,
    c: &ChallengeView,
    lang: Lang,
) -> io::Result<()> {
    let text = i18n::challenges::challenge_text(lang, Presentation::Console, c);
    writeln!(out, "{text}")
}

/// The board as text, white at the bottom.
pub fn ascii_board(v: &GameView) -> String {
    ascii_position(&v.position)
}

/// A position's board as text, white at the bottom.
pub fn ascii_position(position: &Position) -> String {
    let mut s = String::new();
    let board = position.board();
    for rank in (0..8).rev() {
        s.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let sq = Square::new(rank * 8 + file);
            let c = board.piece_at(sq).map(|p| p.char()).unwrap_or('.');
            s.push(' ');
            s.push(c);
        }
        s.push('\n');
    }
    s.push_str("   a b c d e f g h\n");
    s
}

pub(super) fn show_game(out: &mut impl Write, v: &GameView, lang: Lang) -> io::Result<()> {
    write!(out, "{}", ascii_board(v))?;
    let material = i18n::status::material(lang, Presentation::Console, v);
    writeln!(out, "{}  [{material}]", status_line_in(v, lang))?;
    if let Some(line) = i18n::challenges::variant_line(lang, v.variant) {
        writeln!(out, "{line}")?;
    }
    if let Some(line) = i18n::status::opening_line(lang, v) {
        writeln!(out, "{line}")?;
    }
    for line in i18n::clock::clock_lines(lang, Presentation::Console, v) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
