//! `/draw offer|accept|decline|claim` and the Accept/Decline buttons of a draw offer.

use poise::serenity_prelude as serenity;

use super::request::answer_request;
use crate::discord::interaction::call::{Asked, Call, Click};
use crate::discord::interaction::custom_id::{ButtonId, request_buttons};
use crate::discord::present::view::game_reply;
use crate::discord::present::who::mention;
use crate::discord::{Context, Defer, Error};
use crate::game::{GameError, GameView, Lang};
use crate::tr;

/// What to do about a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Action {
    /// Offer a draw to the opponent.
    #[name = "offer"]
    Offer,
    /// Accept the opponent's offer.
    #[name = "accept"]
    Accept,
    /// Decline the opponent's offer.
    #[name = "decline"]
    Decline,
    /// Claim a draw by threefold repetition or the 50-move rule.
    #[name = "claim"]
    Claim,
}

/// The offer message's buttons, tied to the position of the offer.
fn offer_buttons(view: &GameView, lang: Lang) -> Vec<serenity::CreateActionRow> {
    let (game, ply) = (view.game_id, view.ply);
    request_buttons(
        ButtonId::DrawAccept { game, ply },
        ButtonId::DrawDecline { game, ply },
        [
            tr!(lang, "button-accept-draw"),
            tr!(lang, "button-decline-draw"),
        ],
    )
}

/// Offer, accept, decline or claim a draw
#[poise::command(slash_command)]
pub async fn draw(
    ctx: Context<'_>,
    #[description = "offer, accept, decline or claim"] action: Action,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let who = call.who();
    let lang = call.public_lang().await;
    let shown = call
        .blocking(Defer::Message, move |g, actor, ch| {
            let view = match action {
                Action::Offer => g.after(g.play().draw_offer(actor, ch, None)?),
                Action::Accept => g.after(g.play().draw_accept(actor, ch, None)?),
                Action::Decline => g.play().draw_decline(actor, ch, None)?,
                Action::Claim => g.after(g.play().draw_claim(actor, ch)?),
            };
            Ok(g.show(view)?)
        })
        .await?;
    // An offer that meets the opponent's standing offer is an agreement: the game is drawn.
    let agreed = action == Action::Offer && shown.view.finished;
    let view = shown.view.clone();
    let mut reply = match action {
        Action::Offer if agreed => {
            game_reply(tr!(lang, "draw-accepts-standing", who = who), shown, lang)
        }
        Action::Offer => {
            let opponent = if view.white.id == call.actor.id {
                &view.black
            } else {
                &view.white
            };
            game_reply(
                tr!(lang, "draw-offers", who = who, opponent = mention(opponent)),
                shown,
                lang,
            )
        }
        Action::Accept => game_reply(tr!(lang, "draw-accepts", who = who), shown, lang),
        Action::Decline => game_reply(tr!(lang, "draw-declines", who = who), shown, lang),
        Action::Claim => game_reply(tr!(lang, "draw-claims", who = who), shown, lang),
    };
    if action == Action::Offer && !agreed {
        reply.components = offer_buttons(&view, lang);
    }
    call.send_game(&view, reply).await
}

/// The Accept/Decline buttons of an offer: only valid in the game and position they were
/// made for; the offer message is replaced by the result.
pub async fn answer_button(c: &Click<'_>, game: i64, ply: u32, accept: bool) -> Result<(), Error> {
    answer_request(
        c,
        (game, ply),
        |e| matches!(e, GameError::PositionChanged | GameError::NoDrawOffer),
        move |g, actor, ch, seen| {
            let view = if accept {
                g.after(g.play().draw_accept(actor, ch, seen)?)
            } else {
                g.play().draw_decline(actor, ch, seen)?
            };
            Ok(((), view))
        },
        |lang, who, ()| match accept {
            true => tr!(lang, "draw-accepts", who = who),
            false => tr!(lang, "draw-declines", who = who),
        },
    )
    .await
}
