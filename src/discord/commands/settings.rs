//! `/settings language:es|en|auto`: the language of a server's public game messages, kept in
//! the `bot_settings` table (`guild-language:{guild_id}`). With `auto` (the default) a public
//! message is in the language of the interaction that caused it.
//!
//! `guild_locale` is not used: Discord sends `en-US` for every server that is not a
//! Community server.

use crate::discord::interaction::call::Call;
use crate::discord::interaction::langs::{GuildLanguage, guild_language, key};
use crate::discord::interaction::reply::Reply;
use crate::discord::{Context, Defer, Error};
use crate::tr;

/// Server settings
#[poise::command(
    slash_command,
    // Discord shows the command only to members with Manage Server; the handler checks too.
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "The language of public game messages (auto: each player's)"] language: Option<
        GuildLanguage,
    >,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let r = &call.r;
    let lang = r.lang();
    let Some(guild) = ctx.guild_id().map(|g| g.get()) else {
        r.send(Reply::ephemeral(tr!(lang, "settings-not-in-server")))
            .await?;
        return Ok(());
    };
    let may_manage = call
        .actx
        .interaction
        .member
        .as_ref()
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild());
    let text = match language {
        Some(_) if !may_manage => tr!(lang, "settings-need-manage"),
        Some(l) => {
            let books = std::sync::Arc::clone(&ctx.data().bookkeeping);
            ctx.data()
                .blocking(r, Defer::Message, move |_| {
                    books
                        .set_setting(&key(guild), l.code())
                        .map_err(|e| Error::Failed(e.into()))
                })
                .await?;
            tr!(lang, "settings-language-set", language = l.code())
        }
        None => {
            let books = std::sync::Arc::clone(&ctx.data().bookkeeping);
            let l = ctx
                .data()
                .blocking(r, Defer::Message, move |_| {
                    Ok(guild_language(&books, Some(guild)))
                })
                .await?;
            tr!(lang, "settings-language-now", language = l.code())
        }
    };
    r.send(Reply::ephemeral(text)).await?;
    Ok(())
}
