//! The choices of more than one command: the challenger's colour (`/challenge`, `/play`).

use crate::game::ColourChoice;

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
