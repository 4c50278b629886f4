//! A game's variant: standard chess, or Chess960 from one of its 960 numbered start
//! positions (issue 31). Chosen with the challenge, stored with it and its game (migration
//! 0022, the position's number, NULL for standard chess), kept by a rematch.

use cajitas_rules::{CastlingMode, Chess960, FenError, Position};

use super::Failure;

/// What a game is played as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Variant {
    /// Standard chess from the initial position.
    #[default]
    Standard,
    /// Chess960 from the start position with this number.
    Chess960(Chess960),
}

impl Variant {
    /// Chess960 from a start position drawn at random, each of the 960 as likely.
    pub fn random_chess960() -> Variant {
        Variant::Chess960(Chess960::from_seed(fastrand::u64(..)))
    }

    /// Chess960 from start position `n`, if `n` is in `0..960`.
    pub fn chess960(n: u32) -> Option<Variant> {
        Chess960::new(n).map(Variant::Chess960)
    }

    /// The Chess960 start position's number, if it is Chess960.
    pub fn chess960_number(self) -> Option<u32> {
        match self {
            Variant::Standard => None,
            Variant::Chess960(n) => Some(n.number()),
        }
    }

    /// Whether it is Chess960.
    pub fn is_chess960(self) -> bool {
        matches!(self, Variant::Chess960(_))
    }

    /// How its positions castle.
    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960(_) => CastlingMode::Chess960,
        }
    }

    /// Its start position.
    pub fn start(self) -> Position {
        match self {
            Variant::Standard => Position::new(),
            Variant::Chess960(n) => n.to_position(),
        }
    }

    /// The variant of a stored challenge or game (its `chess960` column).
    pub(crate) fn from_db(chess960: Option<u32>) -> Result<Variant, Failure> {
        match chess960 {
            None => Ok(Variant::Standard),
            Some(n) => Variant::chess960(n)
                .ok_or_else(|| Failure::bad_game(format!("Chess960 position {n} out of range"))),
        }
    }

    /// The variant of a game started from `start` directly: Chess960 when the position is
    /// in Chess960 mode and one of its start positions, standard otherwise; `None` for a
    /// Chess960 position that is no start position (a game must name its start).
    pub fn of_start(start: &Position) -> Option<Variant> {
        if start.castling_mode().is_chess960() {
            Chess960::of(start.board()).map(Variant::Chess960)
        } else {
            Some(Variant::Standard)
        }
    }

    /// A stored FEN of a game of this variant, read in its castling mode.
    pub fn read_fen(self, fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, self.castling_mode())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_positions_and_modes() {
        assert_eq!(Variant::chess960(960), None);
        let v = Variant::chess960(0).unwrap();
        assert_eq!(v.chess960_number(), Some(0));
        assert_eq!(
            v.start().fen(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
        );
        assert!(v.start().castling_mode().is_chess960());
        assert_eq!(Variant::of_start(&v.start()), Some(v));
        assert_eq!(Variant::of_start(&Position::new()), Some(Variant::Standard));
        assert_eq!(Variant::Standard.chess960_number(), None);
        assert!(Variant::from_db(Some(960)).is_err());
        assert_eq!(
            Variant::from_db(Some(518)).unwrap(),
            Variant::chess960(518).unwrap()
        );
        // #518 is the standard position, read in Chess960 mode: O-O is king takes rook.
        let p = Variant::from_db(Some(518))
            .unwrap()
            .read_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
            .unwrap();
        let castle = p
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.is_castle())
            .unwrap();
        assert!(matches!(
            p.uci(castle).to_string().as_str(),
            "e1h1" | "e1a1"
        ));
        // Drawn at random: every draw in range, not always the same one.
        let draws: std::collections::HashSet<_> = (0..64)
            .map(|_| Variant::random_chess960().chess960_number().unwrap())
            .collect();
        assert!(draws.len() > 1 && draws.iter().all(|&n| n < 960));
    }
}
