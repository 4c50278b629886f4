//! The slash commands' texts from Fluent (`assets/i18n/*/commands.ftl`): English descriptions,
//! and the Spanish names, descriptions and choice names as Discord's `es-ES` and `es-419`
//! localisations. A test checks that every command, option and choice has them and that
//! they keep Discord's rules.

use std::borrow::Cow;

use cajitas_rules::Lang;

use crate::discord::{Data, Error};
use crate::i18n;

/// The Discord locales that get the Spanish texts.
pub const SPANISH_LOCALES: [&str; 2] = ["es-ES", "es-419"];

/// The Fluent message of a command.
pub fn message_id(command: &str) -> String {
    format!("cmd-{command}")
}

fn spanish(text: String) -> Cow<'static, [(Cow<'static, str>, Cow<'static, str>)]> {
    SPANISH_LOCALES
        .iter()
        .map(|l| (Cow::Borrowed(*l), Cow::Owned(text.clone())))
        .collect::<Vec<_>>()
        .into()
}

/// A choice's name as a Fluent attribute: `+` and spaces become `-` (`3+2` → `3-2`, `3 days`
/// → `3-days`).
pub fn choice_key(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Fills `commands`' descriptions (English) and Spanish localisations from Fluent.
pub fn localize(commands: &mut [poise::Command<Data, Error>]) {
    for c in commands {
        let id = message_id(&c.name);
        localize_one(c, &id);
    }
}

/// Fills one command's texts from the Fluent message `id`, and its subcommands' from
/// `{id}-{subcommand}` (`cmd-arena-create`).
fn localize_one(c: &mut poise::Command<Data, Error>, id: &str) {
    for sub in &mut c.subcommands {
        let sub_id = format!("{id}-{}", sub.name);
        localize_one(sub, &sub_id);
    }
    let attr = |a: &str| format!("{id}.{a}");
    c.description = Some(i18n::text(Lang::En, &attr("description"), None).into());
    c.name_localizations = spanish(i18n::text(Lang::Es, &attr("name"), None));
    c.description_localizations = spanish(i18n::text(Lang::Es, &attr("description"), None));
    for p in &mut c.parameters {
        let pa = |a: &str| attr(&format!("{}-{a}", p.name));
        p.description = Some(i18n::text(Lang::En, &pa("description"), None).into());
        p.name_localizations = spanish(i18n::text(Lang::Es, &pa("name"), None));
        p.description_localizations = spanish(i18n::text(Lang::Es, &pa("description"), None));
        let choices: Vec<poise::CommandParameterChoice> = p
            .choices
            .iter()
            .map(|ch| {
                let mut ch = ch.clone();
                ch.localizations = spanish(i18n::text(Lang::Es, &pa(&choice_key(&ch.name)), None));
                ch
            })
            .collect();
        p.choices = choices.into();
    }
}
