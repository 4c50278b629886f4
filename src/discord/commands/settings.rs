//! `/settings language:es|en|auto`: the language of a server's public game messages, kept in
//! the `bot_settings` table (`guild-language:{guild_id}`). With `auto` (the default) a public
//! message is in the language of the interaction that caused it.
//!
//! The daily puzzle: `daily-hour:HH` (UTC) and `daily-channel:#x` (where typed by default;
//! the hour set before when only the channel is given), `daily-stop:true`.
//!
//! `guild_locale` is not used: Discord sends `en-US` for every server that is not a
//! Community server.

use crate::discord::interaction::call::{Asked, Call};
use crate::discord::interaction::langs::{GuildLanguage, guild_language, key};
use crate::discord::interaction::reply::Reply;
use poise::serenity_prelude as serenity;

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
    #[description = "Post a daily puzzle in this channel every day at this hour (UTC, 0-23)"]
    #[rename = "daily-hour"]
    #[min = 0]
    #[max = 23]
    daily_hour: Option<u8>,
    #[description = "Stop the daily puzzle"]
    #[rename = "daily-stop"]
    daily_stop: Option<bool>,
    #[description = "The daily puzzle's channel (this one by default)"]
    #[rename = "daily-channel"]
    #[channel_types("Text", "News")]
    daily_channel: Option<serenity::PartialChannel>,
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
    if daily_hour.is_some() || daily_stop == Some(true) || daily_channel.is_some() {
        if !may_manage {
            r.send(Reply::ephemeral(tr!(lang, "settings-need-manage")))
                .await?;
            return Ok(());
        }
        let text = if daily_stop == Some(true) {
            call.blocking(Defer::Message, move |g, _, _| Ok(g.daily().stop(guild)?))
                .await?;
            tr!(lang, "settings-daily-stopped")
        } else {
            // The channel named, else this one; the hour given, else the one set before.
            let here = call.place.channel;
            let channel = daily_channel.map_or(here, |c| c.id.get());
            let hour = call
                .blocking(Defer::Message, move |g, _, _| {
                    let hour = match daily_hour {
                        Some(h) => Some(h),
                        None => g.daily().setting(guild)?.map(|s| s.hour),
                    };
                    if let Some(h) = hour {
                        g.daily().configure(guild, channel, h)?;
                    }
                    Ok(hour)
                })
                .await?;
            match hour {
                None => tr!(lang, "settings-daily-need-hour"),
                Some(hour) => {
                    // Due now when the hour has passed today: the poster looks at once.
                    ctx.data().daily_bell.notify_one();
                    let hour = format!("{hour:02}");
                    if channel == here {
                        tr!(lang, "settings-daily-set", hour = hour)
                    } else {
                        let channel = crate::i18n::Presentation::Discord.place(channel);
                        tr!(
                            lang,
                            "settings-daily-set-in",
                            channel = channel,
                            hour = hour
                        )
                    }
                }
            }
        };
        r.send(Reply::ephemeral(text)).await?;
        return Ok(());
    }
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
