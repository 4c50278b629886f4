//! Who acts and where: from an interaction to the game service's types.

use poise::serenity_prelude as serenity;

use crate::game::{ChannelRef, UserRef};

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

/// A Discord mention of a user; the computer, which has no Discord account, by its name.
pub fn mention(u: &UserRef) -> String {
    match u.engine_level() {
        Some(_) => format!("**{}**", u.name),
        None => format!("<@{}>", u.id),
    }
}

/// A player as the embed names them: a mention, or the engine and its level in `lang`.
pub fn player_in(u: &UserRef, lang: crate::game::Lang) -> String {
    match u.engine_level() {
        Some(level) => crate::tr!(
            lang,
            "engine-player",
            name = u.name.clone(),
            level = crate::i18n::num(level)
        ),
        None => mention(u),
    }
}
