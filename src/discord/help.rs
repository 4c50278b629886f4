//! `/help`: the commands and the notations accepted, with examples in English and Spanish.

use super::errors::responder;
use super::reply::Reply;
use super::{Context, Error};

/// The help text (under Discord's 2,000 characters; a test checks it).
pub const HELP: &str = "\
**Cajitas: chess in this channel**
`/challenge [opponent] [colour]` challenge someone (or anyone), your colour white, black or random
`/accept` `/decline` answer a challenge · `/cancel` withdraw yours
`/move <move> [claim_draw]` play a move (suggestions as you type)
`/board` show the board · `/pgn` the game as PGN · `/history` the last games here
`/draw offer|accept|decline|claim` · `/resign` (asks to confirm) · `/abort` before both have moved

**Notations**
• SAN: `e4` `Nf3` `exd5` `O-O` `e8=Q` `Qh4#` (lower case works too: `nf3`)
• Coordinates: `e2e4` `g1f3` `e7e8q`
• Figurines: `♘f3` `♕h5`
• Spanish letters (R rey, D dama, T torre, A alfil, C caballo): `Cf3` `Axc4` `Dh5` `e8=D`. \
With a Spanish Discord language (es-ES, es-419), `R` is the king; otherwise `R` is a rook.

**Ayuda en español**
`/challenge` reta a alguien · `/accept` acepta · `/move` juega, p. ej. `/move Cf3` o `/move e2e4` \
· `/draw` tablas · `/resign` abandona · `/board` el tablero.";

/// Shows the commands and the move notations.
#[poise::command(
    slash_command,
    description_localized("es-ES", "Los comandos y las notaciones que entiendo"),
    description_localized("es-419", "Los comandos y las notaciones que entiendo")
)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    responder(&actx).send(Reply::ephemeral(HELP)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_fits_in_one_message_and_shows_both_languages() {
        assert!(HELP.chars().count() < 2000, "{}", HELP.chars().count());
        for needle in ["/challenge", "/move", "e2e4", "Nf3", "Cf3", "es-ES", "♘f3"] {
            assert!(HELP.contains(needle), "{needle}");
        }
    }
}
