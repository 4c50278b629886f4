//! The languages of an interaction: ephemeral replies in the user's Discord locale, public
//! messages in the server's setting (`/settings language`, kept in the `bot_settings` table
//! as `guild-language:{guild_id}`) or, with `auto`, in the user's locale too.

use cajitas_rules::Lang;

use crate::discord::Bookkeeping;
use crate::discord::Data;

/// A server's language setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, poise::ChoiceParameter)]
pub enum GuildLanguage {
    /// Each public message in the language of whoever caused it.
    #[default]
    #[name = "auto"]
    Auto,
    /// Spanish.
    #[name = "es"]
    Es,
    /// English.
    #[name = "en"]
    En,
}

impl GuildLanguage {
    /// The stored value and Fluent selector: `auto`, `es` or `en`.
    pub fn code(self) -> &'static str {
        match self {
            GuildLanguage::Auto => "auto",
            GuildLanguage::Es => "es",
            GuildLanguage::En => "en",
        }
    }

    fn parse(s: &str) -> GuildLanguage {
        match s {
            "es" => GuildLanguage::Es,
            "en" => GuildLanguage::En,
            _ => GuildLanguage::Auto,
        }
    }

    /// The language of a public message caused by someone whose language is `caused_by`.
    pub fn public(self, caused_by: Lang) -> Lang {
        match self {
            GuildLanguage::Auto => caused_by,
            GuildLanguage::Es => Lang::Es,
            GuildLanguage::En => Lang::En,
        }
    }
}

/// The `bot_settings` key of a server's language.
pub fn key(guild: u64) -> String {
    format!("guild-language:{guild}")
}

/// The language setting of `guild` (`auto` outside servers, and when it cannot be read).
/// Blocking the first time a server is asked about, from memory afterwards.
pub fn guild_language(books: &Bookkeeping, guild: Option<u64>) -> GuildLanguage {
    let Some(guild) = guild else {
        return GuildLanguage::Auto;
    };
    match books.setting(&key(guild)) {
        Ok(v) => v.as_deref().map(GuildLanguage::parse).unwrap_or_default(),
        Err(e) => {
            tracing::warn!(guild, error = %e, "could not read the server's language");
            GuildLanguage::Auto
        }
    }
}

/// The languages of one interaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Langs {
    /// Ephemeral replies: the interaction's locale.
    pub reply: Lang,
    /// Public messages: the server's setting, or the interaction's locale with `auto`.
    pub public: Lang,
}

impl Data {
    /// The languages of an interaction in `guild` from a user whose Discord locale is
    /// `locale` (one read of the settings, on the blocking pool).
    pub async fn langs(&self, guild: Option<u64>, locale: Option<&str>) -> Langs {
        let reply = crate::i18n::lang_of_locale(locale);
        let cached = guild.and_then(|g| self.bookkeeping.cached_setting(&key(g)));
        let setting = match (guild, cached) {
            (None, _) => GuildLanguage::Auto,
            (Some(_), Some(v)) => v.as_deref().map(GuildLanguage::parse).unwrap_or_default(),
            (Some(_), None) => {
                let books = std::sync::Arc::clone(&self.bookkeeping);
                tokio::task::spawn_blocking(move || guild_language(&books, guild))
                    .await
                    .unwrap_or_default()
            }
        };
        Langs {
            reply,
            public: setting.public(reply),
        }
    }
}
