//! What to draw, in the rules crate's terms: the pieces on their squares, the highlights,
//! and the alt text that describes the same position in words.

use cajitas_rules::{Board, CastlingMode, Color, File, Lang, Move, Piece, Position, Role, Square};

use super::pieces::piece_index;
use crate::i18n::{colour_key, role_key};
use crate::tr;

/// The pieces to draw, one per square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    cells: [Option<Piece>; 64],
}

impl BoardView {
    /// An empty board.
    pub fn empty() -> BoardView {
        BoardView { cells: [None; 64] }
    }

    /// Puts a piece on a square (or clears it).
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.cells[sq.index()] = piece;
    }

    /// The piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.cells[sq.index()]
    }

    /// `(square index a1 = 0, sprite index)` of every piece, a1 first.
    pub(crate) fn pieces(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|p| (i, sprite_index(p))))
    }
}

impl Default for BoardView {
    fn default() -> Self {
        BoardView::empty()
    }
}

impl From<&Board> for BoardView {
    fn from(board: &Board) -> Self {
        let mut view = BoardView::empty();
        for (sq, piece) in board.iter() {
            view.set(sq, Some(piece));
        }
        view
    }
}

impl From<&Position> for BoardView {
    fn from(pos: &Position) -> Self {
        BoardView::from(pos.board())
    }
}

fn sprite_index(p: Piece) -> usize {
    piece_index(p.color == Color::Black, p.role.index())
}

/// What to mark on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Highlights {
    /// The last move's two squares (from, to), both tinted.
    pub last_move: Option<(Square, Square)>,
    /// A Chess960 castling's rook: its two squares (from, to), tinted too, since the king's
    /// alone may not show the move (a king that stays, or moves one file).
    pub castle_rook: Option<(Square, Square)>,
    /// The square of a king in check: a red glow is drawn under it.
    pub check: Option<Square>,
}

impl Highlights {
    /// No highlight.
    pub fn none() -> Highlights {
        Highlights::default()
    }

    /// The highlights the bot shows after `last_move` led to `pos`: the move's origin and
    /// destination (for castling, the king's; in Chess960 the rook's too), and the checked
    /// king, if any.
    pub fn after(pos: &Position, last_move: Option<Move>) -> Highlights {
        let castle_rook = match last_move {
            Some(Move::Castle { king, rook }) if pos.castling_mode() == CastlingMode::Chess960 => {
                let file = if rook.index() > king.index() {
                    File::F
                } else {
                    File::D
                };
                Some((rook, Square::from_coords(file, rook.rank())))
            }
            _ => None,
        };
        Highlights {
            last_move: last_move.map(|m| (m.from(), m.to())),
            castle_rook,
            check: check_square(pos),
        }
    }

    pub(crate) fn last_move_squares(&self) -> impl Iterator<Item = usize> {
        self.last_move
            .into_iter()
            .chain(self.castle_rook)
            .flat_map(|(a, b)| [a.index(), b.index()])
    }

    pub(crate) fn check_square(&self) -> Option<usize> {
        self.check.map(|s| s.index())
    }
}

#[cfg(test)]
mod highlight_tests {
    use super::*;

    fn squares(h: &Highlights) -> Vec<usize> {
        let mut v: Vec<usize> = h.last_move_squares().collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn a_chess960_castling_tints_the_king_and_the_rook_from_and_to() {
        let idx = |s: &str| s.parse::<Square>().unwrap().index();
        // #518 read as Chess960, White castles short: e1, g1 (king), h1, f1 (rook).
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        for (mode, want) in [
            (CastlingMode::Standard, vec![idx("e1"), idx("g1")]),
            (
                CastlingMode::Chess960,
                vec![idx("f1"), idx("e1"), idx("g1"), idx("h1")],
            ),
        ] {
            let mut pos = Position::from_fen_with(fen, mode).unwrap();
            let m = pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.castling_side() == Some(cajitas_rules::CastlingSide::KingSide))
                .unwrap();
            pos.play(m);
            let mut want = want;
            want.sort_unstable();
            assert_eq!(squares(&Highlights::after(&pos, Some(m))), want, "{mode:?}");
        }
        // A king that stays on g1 (rook on h1): g1, h1 and f1 are tinted.
        let mut pos =
            Position::from_fen_with("4k3/8/8/8/8/8/8/6KR w H - 0 1", CastlingMode::Chess960)
                .unwrap();
        let m = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.is_castle())
            .unwrap();
        pos.play(m);
        let mut want = vec![idx("f1"), idx("g1"), idx("h1")];
        want.sort_unstable();
        assert_eq!(squares(&Highlights::after(&pos, Some(m))), want);
    }
}

/// The king of the side to move, if it is in check.
pub fn check_square(pos: &Position) -> Option<Square> {
    if pos.is_check() {
        pos.board().king_of(pos.turn())
    } else {
        None
    }
}

/// Discord's limit for an attachment description.
pub const ALT_TEXT_MAX: usize = 1024;

/// A short description of the position for screen readers, in English: side to move, check
/// or mate, then each side's pieces by square, e.g. `White to move. White: king e1, rooks a1
/// h1, pawns e4. Black: king e8, queen d8.` At most [`ALT_TEXT_MAX`] characters.
pub fn alt_text(pos: &Position) -> String {
    alt_text_in(pos, Lang::En)
}

/// [`alt_text`] in `lang` (the words come from the Fluent bundles: `alt-*`).
pub fn alt_text_in(pos: &Position, lang: Lang) -> String {
    let turn = colour_key(pos.turn());
    let mut sentences = vec![tr!(lang, "alt-to-move", colour = turn)];
    if pos.is_checkmate() {
        sentences.push(tr!(lang, "alt-checkmated", colour = turn));
    } else if pos.is_check() {
        sentences.push(tr!(lang, "alt-in-check", colour = turn));
    } else if pos.is_stalemate() {
        sentences.push(tr!(lang, "alt-stalemate"));
    }
    let sep = tr!(lang, "list-sep");
    for color in [Color::White, Color::Black] {
        let mut groups = Vec::new();
        for role in [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            let squares: Vec<String> = pos
                .board()
                .by_piece(Piece { color, role })
                .into_iter()
                .map(|s| s.to_string())
                .collect();
            if squares.is_empty() {
                continue;
            }
            groups.push(tr!(
                lang,
                "alt-pieces",
                role = role_key(role),
                count = crate::i18n::num(squares.len() as f64),
                squares = squares.join(" ")
            ));
        }
        if groups.is_empty() {
            groups.push(tr!(lang, "alt-no-pieces"));
        }
        sentences.push(format!(
            "{} {}.",
            tr!(lang, "alt-side", colour = colour_key(color)),
            groups.join(&sep)
        ));
    }
    cap_chars(sentences.join(" "), ALT_TEXT_MAX)
}

/// Cuts a string to at most `max` characters, ending with `…` when cut.
fn cap_chars(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alt_text_of_the_initial_position() {
        let text = alt_text(&Position::new());
        assert!(text.starts_with("White to move. White: king e1, queen d1, rooks a1 h1, bishops c1 f1, knights b1 g1, pawns a2 b2 c2 d2 e2 f2 g2 h2. Black: king e8,"), "{text}");
        assert!(text.ends_with("pawns a7 b7 c7 d7 e7 f7 g7 h7."), "{text}");
    }

    #[test]
    fn alt_text_says_check_and_mate() {
        // Fool's mate.
        let mate =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap();
        assert!(alt_text(&mate).starts_with("White to move. White is checkmated."));
        let check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        let text = alt_text(&check);
        assert!(
            text.starts_with(
                "White to move. White is in check. White: king e1. Black: king e8, rook e2."
            ),
            "{text}"
        );
        assert_eq!(check_square(&check), Some(Square::E1));
    }

    #[test]
    fn alt_text_is_capped() {
        let long = "x".repeat(2000);
        let capped = cap_chars(long, ALT_TEXT_MAX);
        assert_eq!(capped.chars().count(), ALT_TEXT_MAX);
        assert!(capped.ends_with('…'));
        // The longest real description (32 pieces) fits without a cut.
        assert!(alt_text(&Position::new()).chars().count() < ALT_TEXT_MAX);
    }

    #[test]
    fn view_from_board_has_every_piece() {
        let view = BoardView::from(&Board::new());
        assert_eq!(view.pieces().count(), 32);
        assert_eq!(
            view.piece_at(Square::E8),
            Some(Piece {
                color: Color::Black,
                role: Role::King
            })
        );
    }
}
