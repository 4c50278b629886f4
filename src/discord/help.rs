//! `/help`: the commands and the notations accepted, with examples in English and Spanish.

use super::errors::responder;
use super::reply::Reply;
use super::{Context, Error};
use crate::tr;

/// Shows the commands and the move notations.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let r = responder(&actx);
    let text = tr!(r.lang(), "help");
    r.send(Reply::ephemeral(text)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::Lang;

    #[test]
    fn help_fits_in_one_message_in_both_languages() {
        let en = tr!(Lang::En, "help");
        assert!(en.chars().count() < 2000, "{}", en.chars().count());
        for needle in ["/challenge", "/move", "e2e4", "Nf3", "Cf3", "es-ES", "♘f3"] {
            assert!(en.contains(needle), "{needle}");
        }
        let es = tr!(Lang::Es, "help");
        assert!(es.chars().count() < 2000, "{}", es.chars().count());
        for needle in [
            "/desafiar",
            "/jugada",
            "e2e4",
            "Cf3",
            "es-ES",
            "♘f3",
            "**Notaciones**",
        ] {
            assert!(es.contains(needle), "{needle}");
        }
    }
}
