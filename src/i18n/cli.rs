//! The command-line tools' texts about games (`cajitas replay`, `analyse`, `render`) in the
//! language of `--lang`: PGN errors, moves that cannot be played, the players' default names.

use cajitas_rules::pgn::{self, PgnError, PgnErrorKind};
use cajitas_rules::{Color, Lang, Outcome, PlayError};

use super::words::colour_key;
use crate::tr;

/// `error` as `lang` writes it, `line N: ` first (as the rules crate's `Display` does).
/// The move errors are in `lang`; a PGN syntax error or a FEN tag's fault keeps the rules
/// crate's English inside the translated frame.
pub fn pgn_error(lang: Lang, error: &PgnError) -> String {
    let message = pgn_error_message(lang, error);
    if error.line == 0 {
        message
    } else {
        tr!(
            lang,
            "cli-pgn-line",
            line = error.line.to_string(),
            message = message
        )
    }
}

/// `error` without its line, as `lang` writes it (see [`pgn_error`]).
pub fn pgn_error_message(lang: Lang, error: &PgnError) -> String {
    let at_move = |reason: String| {
        let input = pgn::echo(&error.input);
        match &error.move_number {
            Some(number) => tr!(
                lang,
                "cli-pgn-move",
                number = number.clone(),
                input = input,
                reason = reason
            ),
            None => tr!(lang, "cli-pgn-token", input = input, reason = reason),
        }
    };
    match &error.kind {
        PgnErrorKind::Move(e) => at_move(super::read_error(lang, e)),
        PgnErrorKind::GameOver(o) => at_move(game_over(lang, *o)),
        PgnErrorKind::TooLarge { bytes } => tr!(
            lang,
            "cli-pgn-too-large",
            bytes = super::num(*bytes as f64),
            max = super::num((pgn::MAX_FILE_BYTES / (1024 * 1024)) as f64)
        ),
        PgnErrorKind::Fen(why) => tr!(lang, "cli-pgn-fen", reason = why.to_string()),
        PgnErrorKind::Variant(v) => tr!(lang, "cli-pgn-variant", variant = pgn::echo(v)),
        PgnErrorKind::Syntax(_) => error.message(),
    }
}

/// Why no move can be played after `outcome`: "The game was already over: …".
pub fn game_over(lang: Lang, outcome: Outcome) -> String {
    let (winner, termination) = match outcome {
        Outcome::Decisive { winner, reason } => (colour_key(winner), reason.as_str()),
        Outcome::Draw { reason } => ("none", reason.as_str()),
    };
    tr!(
        lang,
        "cli-game-over",
        winner = winner,
        termination = termination
    )
}

/// Why [`Game::try_play`](cajitas_rules::Game::try_play) refused a move.
pub fn play_error(lang: Lang, error: &PlayError) -> String {
    match error {
        PlayError::GameOver(o) => game_over(lang, *o),
        PlayError::IllegalMove(_) => tr!(lang, "read-not-legal"),
    }
}

/// The name shown for a player the input does not name: "White", "Blancas".
pub fn default_name(lang: Lang, side: Color) -> String {
    tr!(lang, "colour-name", colour = colour_key(side))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cajitas_rules::DrawReason;

    #[test]
    fn pgn_move_errors_and_game_over_in_both_languages() {
        let err = pgn::read_game("[Event \"x\"]\n\n1. e4 e5 2. Nf4 *", Lang::En).unwrap_err();
        assert_eq!(
            pgn_error(Lang::En, &err),
            err.to_string(),
            "English stays what the rules crate says"
        );
        assert_eq!(
            pgn_error(Lang::Es, &err),
            "línea 3: 2. Nf4: Ningún caballo puede llegar a f4. ¿Quisiste decir Cf3, Ce2 o Ch3?"
        );
        let draw = Outcome::Draw {
            reason: DrawReason::Fivefold,
        };
        assert_eq!(
            game_over(Lang::Es, draw),
            "La partida ya había terminado: tablas por quíntuple repetición de jugadas."
        );
        assert_eq!(
            game_over(Lang::En, draw),
            "The game was already over: draw by fivefold repetition."
        );
        assert_eq!(default_name(Lang::Es, Color::White), "Blancas");
        assert_eq!(default_name(Lang::En, Color::Black), "Black");
    }
}
