//! `/takeback` and the Accept/Decline buttons of a takeback request.

use poise::serenity_prelude as serenity;

use super::request::answer_request;
use crate::discord::interaction::call::{Asked, Call, Click};
use crate::discord::interaction::custom_id::{ButtonId, request_buttons};
use crate::discord::present::view::game_reply;
use crate::discord::present::who::mention;
use crate::discord::{Context, Defer, Error};
use crate::game::{GameError, Lang};
use crate::tr;

/// The request's buttons, tied to the game and the ply it was asked at.
fn takeback_buttons(game: i64, ply: u32, lang: Lang) -> Vec<serenity::CreateActionRow> {
    request_buttons(
        ButtonId::TakebackAccept { game, ply },
        ButtonId::TakebackDecline { game, ply },
        [
            tr!(lang, "button-accept-takeback"),
            tr!(lang, "button-decline-takeback"),
        ],
    )
}

/// Ask your opponent to take back your last move
#[poise::command(slash_command)]
pub async fn takeback(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let who = call.who();
    let lang = call.public_lang().await;
    let (asked, shown) = call
        .blocking(Defer::Message, move |g, actor, ch| {
            let asked = g.play().takeback_request(actor, ch, None)?;
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
        return call.send(game_reply(content, shown, lang)).await;
    }
    let opponent = shown.view.player(!asked.by);
    let content = tr!(
        lang,
        "takeback-asks",
        who = who,
        opponent = mention(opponent),
        plies = crate::i18n::num(asked.plies)
    );
    let view = shown.view.clone();
    let mut reply = game_reply(content, shown, lang);
    reply.components = takeback_buttons(view.game_id, asked.ply, lang);
    call.send_game(&view, reply).await
}

/// The Accept/Decline buttons of a request: only valid in the game and position it was made
/// for (a move since makes it stale); the request message is replaced by the result.
pub async fn answer_button(c: &Click<'_>, game: i64, ply: u32, accept: bool) -> Result<(), Error> {
    answer_request(
        c,
        (game, ply),
        |e| {
            matches!(
                e,
                GameError::PositionChanged | GameError::NoTakeback | GameError::GameOver
            )
        },
        move |g, actor, ch, seen| {
            let done = if accept {
                g.play().takeback_accept(actor, ch, seen)?
            } else {
                g.play().takeback_decline(actor, ch, seen)?
            };
            Ok((done.plies, done.game))
        },
        |lang, who, plies| match accept {
            true => tr!(
                lang,
                "takeback-accepts",
                who = who,
                plies = crate::i18n::num(plies)
            ),
            false => tr!(lang, "takeback-declines", who = who),
        },
    )
    .await
}
