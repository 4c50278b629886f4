//! `/takeback` and the Accept/Decline buttons of a takeback request.

use poise::serenity_prelude as serenity;

use super::buttons::ButtonId;
use super::errors::{Refusal, responder};
use super::reply::Responder;
use super::view::{Shown, game_reply};
use super::who::{channel_ref, mention, user_ref};
use super::{Context, Data, Defer, Error};
use crate::game::{GameError, Lang, Seen};
use crate::tr;

/// The request's buttons, tied to the game and the ply it was asked at.
fn request_buttons(game: i64, ply: u32, lang: Lang) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        ButtonId::TakebackAccept { game, ply }.button(
            &tr!(lang, "button-accept-takeback"),
            serenity::ButtonStyle::Success,
        ),
        ButtonId::TakebackDecline { game, ply }.button(
            &tr!(lang, "button-decline-takeback"),
            serenity::ButtonStyle::Secondary,
        ),
    ])]
}

/// Ask your opponent to take back your last move
#[poise::command(slash_command)]
pub async fn takeback(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let r = responder(&actx);
    let actor = user_ref(ctx.author());
    let who = mention(&actor);
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let lang = ctx.data().langs(ch.guild, ctx.locale()).await.public;
    let (asked, shown) = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| {
            let asked = g.takeback_request(&actor, ch, None)?;
            let shown = g.show(asked.game.clone())?;
            Ok((asked, shown))
        })
        .await?;
    if asked.granted {
        // Against the computer: taken back at once, nobody to ask.
        let content = tr!(
            lang,
            "takeback-granted",
            who = who,
            plies = crate::i18n::num(asked.plies)
        );
        r.send(game_reply(content, &shown, lang)).await?;
        return Ok(());
    }
    let opponent = shown.view.player(!asked.by);
    let content = tr!(
        lang,
        "takeback-asks",
        who = who,
        opponent = mention(opponent),
        plies = crate::i18n::num(asked.plies)
    );
    let mut reply = game_reply(content, &shown, lang);
    reply.components = request_buttons(shown.view.game_id, asked.ply, lang);
    let http = &ctx.serenity_context().http;
    super::threads::send_game(http, &r, ch.channel, &shown.view, reply).await?;
    Ok(())
}

/// The Accept/Decline buttons of a request: only valid in the game and position it was made
/// for (a move since makes it stale); the request message is replaced by the result.
pub async fn answer_button(
    data: &Data,
    r: &Responder<'_>,
    click: &serenity::ComponentInteraction,
    game: i64,
    ply: u32,
    accept: bool,
) -> Result<(), Error> {
    let actor = user_ref(&click.user);
    let who = mention(&actor);
    let ch = channel_ref(click.guild_id, click.channel_id);
    let lang = data.langs(ch.guild, Some(&click.locale)).await.public;
    let (plies, shown): (u32, Shown) = data
        .blocking(r, Defer::Update, move |g| {
            let seen = Seen::at(game, ply);
            let result = if accept {
                g.takeback_accept(&actor, ch, seen)
            } else {
                g.takeback_decline(&actor, ch, seen)
            };
            let done = result.map_err(|e| match e {
                GameError::PositionChanged | GameError::NoTakeback | GameError::GameOver => {
                    Error::Refused(Refusal::ButtonExpired)
                }
                other => other.into(),
            })?;
            Ok((done.plies, g.show(done.game)?))
        })
        .await?;
    let content = if accept {
        tr!(
            lang,
            "takeback-accepts",
            who = who,
            plies = crate::i18n::num(plies)
        )
    } else {
        tr!(lang, "takeback-declines", who = who)
    };
    r.update(game_reply(content, &shown, lang)).await?;
    Ok(())
}
