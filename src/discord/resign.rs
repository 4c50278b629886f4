//! `/resign` (confirmed with a button) and `/abort`.

use poise::serenity_prelude as serenity;

use super::buttons::ButtonId;
use super::errors::{Refusal, responder};
use super::reply::{Reply, Responder};
use super::view::game_reply;
use super::who::{author_ref, channel_ref, clicker_ref, mention};
use super::{Context, Data, Defer, Error};
use crate::game::GameError;
use crate::tr;

/// Resign the game (asks you to confirm)
#[poise::command(slash_command)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let r = responder(&actx);
    let user = ctx.author().id.get();
    let actor = author_ref(ctx);
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    // Checked now, so that a refusal is immediate and only the resigning player sees the button.
    let view = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| {
            let view = g.board_for(&actor, ch)?;
            if view.finished {
                return Err(GameError::GameOver.into());
            }
            if view.white.id != user && view.black.id != user {
                return Err(GameError::NotAPlayer.into());
            }
            Ok(view)
        })
        .await?;
    let confirm = ButtonId::ResignConfirm {
        game: view.game_id,
        ply: view.ply,
        user,
    };
    let lang = r.lang();
    r.send(Reply {
        content: tr!(lang, "resign-confirm"),
        components: vec![serenity::CreateActionRow::Buttons(vec![
            confirm.button(&tr!(lang, "button-resign"), serenity::ButtonStyle::Danger),
        ])],
        ephemeral: true,
        ..Reply::default()
    })
    .await?;
    Ok(())
}

/// The confirmation button: only for the player who asked, and only in the position where
/// they asked. The result is announced to the channel.
pub async fn confirm_button(
    data: &Data,
    r: &Responder<'_>,
    http: &serenity::Http,
    click: &serenity::ComponentInteraction,
    game: i64,
    ply: u32,
    user: u64,
) -> Result<(), Error> {
    if click.user.id.get() != user {
        return Err(Refusal::NotYourButton.into());
    }
    let actor = clicker_ref(click);
    let who = mention(&actor);
    let ch = channel_ref(click.guild_id, click.channel_id);
    let lang = data.langs(ch.guild, Some(&click.locale)).await.public;
    let shown = data
        .blocking(r, Defer::Message, move |g| {
            let seen = crate::game::Seen::at(game, ply);
            let view = g.resign(&actor, ch, seen).map_err(|e| match e {
                GameError::PositionChanged => Error::Refused(Refusal::ResignButtonExpired),
                other => other.into(),
            })?;
            Ok(g.show(g.after(view))?)
        })
        .await?;
    let reply = game_reply(tr!(lang, "resigns", who = who), &shown, lang);
    super::threads::send_game(http, r, ch.channel, &shown.view, reply).await?;
    Ok(())
}

/// Abort the game before both players have moved (no result)
#[poise::command(slash_command)]
pub async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let r = responder(&actx);
    let actor = author_ref(ctx);
    let who = mention(&actor);
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let lang = ctx.data().langs(ch.guild, ctx.locale()).await.public;
    let shown = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| {
            Ok(g.show(g.after(g.abort(&actor, ch)?))?)
        })
        .await?;
    let reply = game_reply(tr!(lang, "aborted", who = who), &shown, lang);
    let http = &ctx.serenity_context().http;
    super::threads::send_game(http, &r, ch.channel, &shown.view, reply).await?;
    Ok(())
}
