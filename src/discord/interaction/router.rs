//! The router: a button click goes to the command family that made the button (by its
//! [`ButtonId`]), and, when enabled, a message that may be a move to `commands::messages`.
//! It stands above the commands and is called by poise's event hook only.

use std::sync::atomic::AtomicBool;

use poise::serenity_prelude as serenity;

use crate::discord::commands::{
    arena, challenge, draw, messages, puzzle, ratings, resign, takeback,
};
use crate::discord::interaction::call::Click;
use crate::discord::interaction::custom_id::ButtonId;
use crate::discord::interaction::errors::{Refusal, report};
use crate::discord::interaction::reply::{self, Responder};
use crate::discord::{Data, Error};

/// poise's event hook: routes button clicks (and, when enabled, messages that may be moves).
pub async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(click),
    } = event
    {
        let sent = AtomicBool::new(false);
        let responder = Responder::new(
            &framework.serenity_context.http,
            click.id,
            &click.token,
            &sent,
        )
        .with_lang(crate::i18n::lang_of_locale(Some(&click.locale)))
        .with_attachment_limit(click.attachment_size_limit);
        let data = framework.user_data;
        let result = match ButtonId::parse(&click.data.custom_id) {
            Some(id) => {
                handle(
                    data,
                    &responder,
                    &framework.serenity_context.http,
                    click,
                    id,
                )
                .await
            }
            None => Err(Refusal::UnknownButton.into()),
        };
        if let Err(e) = result {
            report(&responder, &e).await;
        }
    }
    if let serenity::FullEvent::Message { new_message } = event
        && !framework.user_data.config.message_moves
    {
        // Said so that a test knows the message was handled (events run concurrently).
        tracing::debug!(message = %new_message.id, "message not read: moves typed as messages are off");
    }
    if let serenity::FullEvent::Message { new_message } = event
        && framework.user_data.config.message_moves
        && let Err(e) =
            messages::on_message(framework.serenity_context, framework.user_data, new_message).await
    {
        tracing::error!(message = %new_message.id, error = %reply::scrubbed(&e), "a move typed as a message failed");
    }
    Ok(())
}

async fn handle(
    data: &Data,
    r: &Responder<'_>,
    http: &serenity::Http,
    click: &serenity::ComponentInteraction,
    id: ButtonId,
) -> Result<(), Error> {
    let c = &Click::new(data, r, http, click);
    match id {
        ButtonId::ChallengeAccept { challenge } => challenge::accept_button(c, challenge).await,
        ButtonId::ChallengeDecline { challenge } => challenge::decline_button(c, challenge).await,
        ButtonId::DrawAccept { game, ply } => draw::answer_button(c, game, ply, true).await,
        ButtonId::DrawDecline { game, ply } => draw::answer_button(c, game, ply, false).await,
        ButtonId::TakebackAccept { game, ply } => takeback::answer_button(c, game, ply, true).await,
        ButtonId::TakebackDecline { game, ply } => {
            takeback::answer_button(c, game, ply, false).await
        }
        ButtonId::ResignConfirm { game, ply, user } => {
            resign::confirm_button(c, game, ply, user).await
        }
        ButtonId::Rematch { game } => challenge::rematch_button(c, game).await,
        ButtonId::LeaderboardPage { .. } => ratings::page_button(c, id).await,
        ButtonId::PuzzleHint { .. }
        | ButtonId::PuzzleSolution { .. }
        | ButtonId::PuzzleNext { .. } => puzzle::button(c, id).await,
        ButtonId::DailySolve { guild, day } => puzzle::daily_button(c, guild, day).await,
        ButtonId::ArenaJoin { tournament } => arena::join_button(c, tournament).await,
    }
}
