//! What happens when the gateway says READY: log the invite URL and register the slash
//! commands (globally, or in DISCORD_GUILD_ID).

use poise::serenity_prelude as serenity;

use super::{Data, Error};

/// The permissions the bot needs, and nothing more.
pub fn permissions() -> serenity::Permissions {
    serenity::Permissions::VIEW_CHANNEL
        | serenity::Permissions::SEND_MESSAGES
        | serenity::Permissions::SEND_MESSAGES_IN_THREADS
        | serenity::Permissions::EMBED_LINKS
        | serenity::Permissions::ATTACH_FILES
        | serenity::Permissions::READ_MESSAGE_HISTORY
}

/// The URL that invites the bot with the scopes `bot applications.commands`.
pub fn invite_url(client_id: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={client_id}&permissions={}&scope=bot%20applications.commands",
        permissions().bits()
    )
}

/// Runs once, at the first READY. Never fails: poise would wait forever for its data.
pub async fn on_ready(
    ctx: &serenity::Context,
    ready: &serenity::Ready,
    framework: &poise::Framework<Data, Error>,
    data: &Data,
) {
    tracing::info!(user = %ready.user.name, "connected to Discord");
    let client_id = match ctx.http.get_current_application_info().await {
        Ok(app) => app.id.get(),
        Err(e) => {
            tracing::warn!(error = %e, "could not read the application info; using READY's application id");
            ready.application.id.get()
        }
    };
    tracing::info!(url = %invite_url(client_id), "invite the bot with this URL");

    let commands = &framework.options().commands;
    let guild = data.config.guild_id.filter(|&g| g != 0);
    let result = match guild {
        Some(guild) => {
            poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(guild)).await
        }
        None => poise::builtins::register_globally(ctx, commands).await,
    };
    match result {
        Ok(()) => tracing::info!(
            count = commands.len(),
            guild = ?guild,
            "registered the slash commands"
        ),
        Err(e) => tracing::error!(error = %e, "could not register the slash commands"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invite_url_has_the_minimal_permissions_and_both_scopes() {
        let url = invite_url(42);
        // View Channel 1<<10, Send Messages 1<<11, Embed Links 1<<14, Attach Files 1<<15,
        // Read Message History 1<<16, Send Messages in Threads 1<<38.
        let bits: u64 = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 38);
        assert_eq!(
            url,
            format!(
                "https://discord.com/oauth2/authorize?client_id=42&permissions={bits}&scope=bot%20applications.commands"
            )
        );
    }
}
