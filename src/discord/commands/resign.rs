//! `/resign` (confirmed with a button) and `/abort`.

use poise::serenity_prelude as serenity;

use crate::discord::interaction::call::{Asked, Call, Click};
use crate::discord::interaction::custom_id::ButtonId;
use crate::discord::interaction::errors::Refusal;
use crate::discord::interaction::reply::Reply;
use crate::discord::present::view::game_reply;
use crate::discord::{Context, Defer, Error};
use crate::game::GameError;
use crate::tr;

/// Resign the game (asks you to confirm)
#[poise::command(slash_command)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let user = call.actor.id;
    // Checked now, so that a refusal is immediate and only the resigning player sees the button.
    let view = call
        .blocking(Defer::Message, move |g, actor, ch| {
            let view = g.queries().board_for(actor, ch)?;
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
    let lang = call.r.lang();
    call.send(Reply {
        content: tr!(lang, "resign-confirm"),
        components: vec![serenity::CreateActionRow::Buttons(vec![
            confirm.button(&tr!(lang, "button-resign"), serenity::ButtonStyle::Danger),
        ])],
        ephemeral: true,
        ..Reply::default()
    })
    .await
}

/// The confirmation button: only for the player who asked, and only in the position where
/// they asked. The result is announced to the channel.
pub async fn confirm_button(c: &Click<'_>, game: i64, ply: u32, user: u64) -> Result<(), Error> {
    if c.click.user.id.get() != user {
        return Err(Refusal::NotYourButton.into());
    }
    let lang = c.public_lang().await;
    let shown = c
        .blocking(Defer::Message, move |g, actor, ch| {
            let seen = crate::game::Seen::at(game, ply);
            let view = g.play().resign(actor, ch, seen).map_err(|e| match e {
                GameError::PositionChanged => Error::Refused(Refusal::ResignButtonExpired),
                other => other.into(),
            })?;
            Ok(g.show(g.after(view))?)
        })
        .await?;
    let view = shown.view.clone();
    let reply = game_reply(tr!(lang, "resigns", who = c.who()), shown, lang);
    c.send_game(&view, reply).await
}

/// Abort the game before both players have moved (no result)
#[poise::command(slash_command)]
pub async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let shown = call
        .blocking(Defer::Message, move |g, actor, ch| {
            Ok(g.show(g.after(g.play().abort(actor, ch)?))?)
        })
        .await?;
    let view = shown.view.clone();
    let reply = game_reply(tr!(lang, "aborted", who = call.who()), shown, lang);
    call.send_game(&view, reply).await
}
