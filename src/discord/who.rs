//! Who acts, where, and in which language: from an interaction to the game service's types.

use poise::serenity_prelude as serenity;

use crate::game::{ChannelRef, Lang, UserRef};

/// The game service's user for a Discord user (display name preferred, capped by the service).
pub fn user_ref(u: &serenity::User) -> UserRef {
    let name = u.global_name.as_deref().unwrap_or(&u.name);
    UserRef::new(u.id.get(), name, u.bot)
}

/// The game service's channel (a thread is a channel).
pub fn channel_ref(guild: Option<serenity::GuildId>, channel: serenity::ChannelId) -> ChannelRef {
    ChannelRef {
        guild: guild.map(|g| g.get()),
        channel: channel.get(),
    }
}

/// The language moves are read in: Spanish (`R` is rey) for `es-ES` and `es-419`, and for any
/// other Spanish locale Discord may add; English (`R` is rook) otherwise.
pub fn lang_of(locale: Option<&str>) -> Lang {
    match locale {
        Some(l) if l == "es" || l.starts_with("es-") => Lang::Es,
        _ => Lang::En,
    }
}

/// A Discord mention of a user.
pub fn mention(u: &UserRef) -> String {
    format!("<@{}>", u.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spanish_locales_read_r_as_king() {
        assert_eq!(lang_of(Some("es-ES")), Lang::Es);
        assert_eq!(lang_of(Some("es-419")), Lang::Es);
        assert_eq!(lang_of(Some("en-US")), Lang::En);
        assert_eq!(lang_of(Some("en-GB")), Lang::En);
        assert_eq!(lang_of(Some("pt-BR")), Lang::En);
        assert_eq!(lang_of(None), Lang::En);
    }
}
