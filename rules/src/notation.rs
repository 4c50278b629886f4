//! The piece letters of each notation, in one table: what SAN is written with
//! ([`crate::San::display`]) and what the move reader accepts ([`crate::read_move`]).

use crate::types::{Color, Piece, Role};

/// How the pieces of a move are written.
///
/// ```
/// use cajitas_rules::{Notation, Role};
/// assert_eq!(Role::Knight.letter(Notation::English), 'N');
/// assert_eq!(Role::Knight.letter(Notation::Spanish), 'C');
/// assert_eq!(Role::Knight.letter(Notation::Figurine), '♘');
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// English letters: K Q R B N (P for pawns, which SAN leaves out).
    #[default]
    English,
    /// Spanish letters: R rey, D dama, T torre, A alfil, C caballo (P peón).
    Spanish,
    /// Figurines (FAN): the white glyphs ♔ ♕ ♖ ♗ ♘ (♙), for either side's moves.
    Figurine,
}

/// Per notation, the letter of each role in [`Role::index`] order (pawn first).
const LETTERS: [[char; 6]; 3] = [
    ['P', 'N', 'B', 'R', 'Q', 'K'],
    ['P', 'C', 'A', 'T', 'D', 'R'],
    [
        '\u{2659}', '\u{2658}', '\u{2657}', '\u{2656}', '\u{2655}', '\u{2654}',
    ],
];

/// The black figurines (♟ ♞ ♝ ♜ ♛ ♚), in the same order.
const BLACK_FIGURINES: [char; 6] = [
    '\u{265F}', '\u{265E}', '\u{265D}', '\u{265C}', '\u{265B}', '\u{265A}',
];

impl Notation {
    const fn row(self) -> usize {
        match self {
            Notation::English => 0,
            Notation::Spanish => 1,
            Notation::Figurine => 2,
        }
    }
}

impl Role {
    /// The piece letter in `notation`: upper case for letters, the white glyph for
    /// figurines.
    ///
    /// ```
    /// use cajitas_rules::{Notation, Role};
    /// assert_eq!(Role::King.letter(Notation::Spanish), 'R');
    /// assert_eq!(Role::Rook.letter(Notation::Spanish), 'T');
    /// assert_eq!(Role::Queen.letter(Notation::English), 'Q');
    /// ```
    pub const fn letter(self, notation: Notation) -> char {
        LETTERS[notation.row()][self.index()]
    }

    /// The role whose letter in `notation` is `c`: an upper-case letter exactly, or for
    /// figurines either side's glyph.
    ///
    /// ```
    /// use cajitas_rules::{Notation, Role};
    /// assert_eq!(Role::from_letter('D', Notation::Spanish), Some(Role::Queen));
    /// assert_eq!(Role::from_letter('d', Notation::Spanish), None);
    /// assert_eq!(Role::from_letter('♞', Notation::Figurine), Some(Role::Knight));
    /// assert_eq!(Role::from_letter('♘', Notation::Figurine), Some(Role::Knight));
    /// ```
    pub fn from_letter(c: char, notation: Notation) -> Option<Role> {
        let row = &LETTERS[notation.row()];
        let found = row.iter().position(|&l| l == c).or_else(|| {
            (notation == Notation::Figurine)
                .then(|| BLACK_FIGURINES.iter().position(|&l| l == c))
                .flatten()
        });
        found.map(|i| Role::ALL[i])
    }
}

impl Piece {
    /// The figurine of this piece in its colour: ♔ for the white king, ♚ for the black.
    ///
    /// ```
    /// use cajitas_rules::{Color, Piece, Role};
    /// assert_eq!(Piece { color: Color::White, role: Role::Queen }.figurine(), '♕');
    /// assert_eq!(Piece { color: Color::Black, role: Role::Queen }.figurine(), '♛');
    /// ```
    pub const fn figurine(self) -> char {
        match self.color {
            Color::White => LETTERS[Notation::Figurine.row()][self.role.index()],
            Color::Black => BLACK_FIGURINES[self.role.index()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_letter_reads_back() {
        for notation in [Notation::English, Notation::Spanish, Notation::Figurine] {
            for role in Role::ALL {
                assert_eq!(
                    Role::from_letter(role.letter(notation), notation),
                    Some(role)
                );
            }
        }
        for role in Role::ALL {
            assert_eq!(role.letter(Notation::English), role.upper_char());
            for color in Color::ALL {
                let glyph = Piece { color, role }.figurine();
                assert_eq!(Role::from_letter(glyph, Notation::Figurine), Some(role));
            }
        }
    }
}
