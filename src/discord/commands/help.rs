//! `/help`: the commands and the notations accepted, with examples in English and Spanish.

use crate::discord::interaction::call::{Asked, Call};
use crate::discord::interaction::reply::Reply;
use crate::discord::{Context, Error};
use crate::tr;

/// Shows the commands and the move notations.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let text = help_text(call.r.lang(), call.data().config.abandon_after);
    call.send(Reply::ephemeral(text)).await
}

/// The help in `lang`, naming the server's abandonment period (`CAJITAS_ABANDON_DAYS`).
fn help_text(lang: crate::game::Lang, abandon_after: std::time::Duration) -> String {
    let days = abandon_after.as_secs() / 86_400;
    tr!(lang, "help", days = crate::i18n::num(days as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::Lang;

    #[test]
    fn help_fits_in_one_message_in_both_languages() {
        let en = help_text(Lang::En, crate::game::DEFAULT_ABANDON_AFTER);
        assert!(en.chars().count() < 2000, "{}", en.chars().count());
        for needle in ["/challenge", "/move", "e2e4", "Nf3", "Cf3", "es-ES", "♘f3"] {
            assert!(en.contains(needle), "{needle}");
        }
        let es = help_text(Lang::Es, crate::game::DEFAULT_ABANDON_AFTER);
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

    #[test]
    fn help_names_the_servers_abandonment_period() {
        let day = std::time::Duration::from_secs(86_400);
        let cases = [
            (Lang::En, 7, "has not moved for 7 days"),
            (Lang::En, 1, "has not moved for a day"),
            (Lang::En, 30, "has not moved for 30 days"),
            (Lang::Es, 7, "lleva 7 días sin jugar"),
            (Lang::Es, 1, "lleva un día sin jugar"),
        ];
        for (lang, days, needle) in cases {
            let text = help_text(lang, day * days);
            assert!(text.contains(needle), "{lang:?} {days}: {text}");
        }
    }
}
