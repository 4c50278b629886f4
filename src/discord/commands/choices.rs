//! The choices of more than one command: the challenger's colour and the variant
//! (`/challenge`, `/play`).

use crate::game::{ColourChoice, Variant};

/// The challenger's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Colour {
    /// Play white.
    #[name = "white"]
    White,
    /// Play black.
    #[name = "black"]
    Black,
    /// A coin toss when the challenge is accepted.
    #[name = "random"]
    Random,
}

impl From<Colour> for ColourChoice {
    fn from(c: Colour) -> Self {
        match c {
            Colour::White => ColourChoice::White,
            Colour::Black => ColourChoice::Black,
            Colour::Random => ColourChoice::Random,
        }
    }
}

/// Standard chess or Chess960.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum VariantChoice {
    /// Standard chess.
    #[name = "standard"]
    Standard,
    /// Chess960 (Fischer Random).
    #[name = "chess960"]
    Chess960,
}

/// The variant of a command's options: Chess960 when asked for or when a start position is
/// given (`position` in 0..960, the option's bounds; a random one when none is), standard
/// otherwise. A position given with `variant:standard` is left aside: standard chess has one.
pub fn variant_of(choice: Option<VariantChoice>, position: Option<u32>) -> Variant {
    match (choice, position) {
        (Some(VariantChoice::Standard), _) | (None, None) => Variant::Standard,
        (_, Some(n)) => Variant::chess960(n).unwrap_or_else(Variant::random_chess960),
        (Some(VariantChoice::Chess960), None) => Variant::random_chess960(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_from_the_options() {
        assert_eq!(variant_of(None, None), Variant::Standard);
        assert_eq!(
            variant_of(Some(VariantChoice::Standard), Some(7)),
            Variant::Standard
        );
        assert_eq!(variant_of(None, Some(7)), Variant::chess960(7).unwrap());
        assert_eq!(
            variant_of(Some(VariantChoice::Chess960), Some(959)),
            Variant::chess960(959).unwrap()
        );
        assert!(variant_of(Some(VariantChoice::Chess960), None).is_chess960());
        // Out of the option's bounds (Discord enforces them): still Chess960, never a panic.
        assert!(variant_of(None, Some(960)).is_chess960());
    }
}
