//! `GameError`'s `Display`, for logs and tools: a refusal's English comes from the English
//! bundle (the words a console player reads), so it is written once; a failure says only
//! that it is one, its causes being its `source` ([`GameError::chain`]).

use std::fmt;

use cajitas_rules::Lang;

use super::game_errors::game_error;
use super::present::Presentation;
use crate::game::GameError;

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Failed(_) => f.write_str("internal error"),
            refusal => f.write_str(&game_error(Lang::En, Presentation::Console, refusal)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::{Failure, GameError};

    #[test]
    fn a_refusals_english_is_the_english_bundles_and_a_failure_keeps_its_cause() {
        assert_eq!(
            GameError::NotYourTurn.to_string(),
            "It is not your turn: wait for your opponent's move."
        );
        let failed = GameError::Failed(Failure::Vanished("game 5".into()));
        assert_eq!(failed.to_string(), "internal error");
        assert_eq!(failed.chain(), "internal error: game 5 vanished");
    }
}
