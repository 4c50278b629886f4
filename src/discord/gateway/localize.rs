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
        localize_one(c, &id, &|lang, id| i18n::text(lang, id, None));
    }
}

/// Fills one command's texts from the Fluent message `id`, and its subcommands' from
/// `{id}-{subcommand}` (`cmd-arena-create`), each text looked up through `text`.
fn localize_one(
    c: &mut poise::Command<Data, Error>,
    id: &str,
    text: &dyn Fn(Lang, &str) -> String,
) {
    for sub in &mut c.subcommands {
        let sub_id = format!("{id}-{}", sub.name);
        localize_one(sub, &sub_id, text);
    }
    let attr = |a: &str| format!("{id}.{a}");
    c.description = Some(text(Lang::En, &attr("description")).into());
    c.name_localizations = spanish(text(Lang::Es, &attr("name")));
    c.description_localizations = spanish(text(Lang::Es, &attr("description")));
    for p in &mut c.parameters {
        let pa = |a: &str| attr(&format!("{}-{a}", p.name));
        p.description = Some(text(Lang::En, &pa("description")).into());
        p.name_localizations = spanish(text(Lang::Es, &pa("name")));
        p.description_localizations = spanish(text(Lang::Es, &pa("description")));
        let choices: Vec<poise::CommandParameterChoice> = p
            .choices
            .iter()
            .map(|ch| {
                let mut ch = ch.clone();
                ch.localizations = spanish(text(Lang::Es, &pa(&choice_key(&ch.name))));
                ch
            })
            .collect();
        p.choices = choices.into();
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;

    // Every text the registration looks up, subcommands' options and choices included, is
    // in its language's bundle: a missing one would reach Discord as English or "…".
    #[test]
    fn every_command_option_and_choice_has_its_texts() {
        let missing = RefCell::new(Vec::new());
        let looked_up = RefCell::new(0usize);
        let text = |lang: Lang, id: &str| {
            *looked_up.borrow_mut() += 1;
            if !i18n::has(lang, id) {
                missing.borrow_mut().push(format!("{}: {id}", lang.code()));
            }
            i18n::text(lang, id, None)
        };
        for mut c in crate::discord::commands() {
            let id = message_id(&c.name);
            localize_one(&mut c, &id, &text);
        }
        assert!(*looked_up.borrow() > 200, "{}", looked_up.borrow());
        assert_eq!(missing.into_inner(), Vec::<String>::new());
    }
}
