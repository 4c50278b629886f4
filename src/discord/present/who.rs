//! Who acts and where: from an interaction to the game service's types.

use poise::serenity_prelude as serenity;

use crate::game::{ChannelRef, UserRef};

/// The game service's user for a Discord user (display name preferred, capped by the service).
pub fn user_ref(u: &serenity::User) -> UserRef {
    let name = u.global_name.as_deref().unwrap_or(&u.name);
    UserRef::new(u.id.get(), name, u.bot)
}

/// The game service's user for a user seen as a member of a guild: their server nickname
/// (`nick`) when they have one, else their display name, else their username.
pub fn member_ref(u: &serenity::User, nick: Option<&str>) -> UserRef {
    match nick.filter(|n| !n.trim().is_empty()) {
        Some(nick) => UserRef::new(u.id.get(), nick, u.bot),
        None => user_ref(u),
    }
}

/// The user who typed a command, named as the guild shows them (see [`member_ref`]).
pub fn author_ref(ctx: crate::discord::Context<'_>) -> UserRef {
    let nick = match ctx {
        poise::Context::Application(a) => a
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.nick.as_deref()),
        poise::Context::Prefix(p) => p.msg.member.as_ref().and_then(|m| m.nick.as_deref()),
    };
    member_ref(ctx.author(), nick)
}

/// The user who clicked a button, named as the guild shows them (see [`member_ref`]).
pub fn clicker_ref(click: &serenity::ComponentInteraction) -> UserRef {
    member_ref(
        &click.user,
        click.member.as_ref().and_then(|m| m.nick.as_deref()),
    )
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
    crate::i18n::Presentation::Discord.player(u)
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
