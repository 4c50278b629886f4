//! The one place where errors become replies: refusals are ephemeral messages with the
//! reason; unexpected failures give the user a short apology and the log the details with
//! the interaction id.

use std::fmt;

use poise::serenity_prelude as serenity;

use super::Data;
use super::reply::{Reply, Responder, scrub, scrubbed};
use crate::game::GameError;

/// What a handler can fail with.
#[derive(Debug)]
pub enum Error {
    /// The user asked for something that is not allowed now; the text says why.
    Refused(String),
    /// Something went wrong on our side.
    Failed(anyhow::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Refused(m) => f.write_str(m),
            Error::Failed(e) => f.write_str(&super::reply::scrub(&format!("{e:#}"))),
        }
    }
}

impl std::error::Error for Error {}

impl From<serenity::Error> for Error {
    fn from(e: serenity::Error) -> Self {
        Error::Failed(e.into())
    }
}

impl From<GameError> for Error {
    fn from(e: GameError) -> Self {
        if e.is_refusal() {
            Error::Refused(e.to_string())
        } else {
            Error::Failed(anyhow::anyhow!("game service: {e:?}"))
        }
    }
}

impl From<anyhow::Error> for Error {
    fn from(e: anyhow::Error) -> Self {
        Error::Failed(e)
    }
}

/// The apology an unexpected failure gets.
pub fn apology(id: serenity::InteractionId) -> String {
    format!(
        "Sorry, something went wrong on my side and I could not finish that. \
         Please try again in a moment. (reference {id})"
    )
}

/// Answers `error` on `responder`: ephemeral refusal, or apology + log.
pub async fn report(responder: &Responder<'_>, error: &Error) {
    let reply = match error {
        Error::Refused(msg) => {
            tracing::debug!(interaction = %responder.id(), reason = %msg, "refused");
            Reply::ephemeral(msg.clone())
        }
        Error::Failed(e) => {
            tracing::error!(interaction = %responder.id(), error = %scrub(&format!("{e:?}")), "interaction failed");
            Reply::ephemeral(apology(responder.id()))
        }
    };
    if let Err(e) = responder.send(reply).await {
        tracing::warn!(interaction = %responder.id(), error = %scrubbed(&e), "could not send the error reply");
    }
}

/// A responder for a poise application context.
pub fn responder<'a>(ctx: &poise::ApplicationContext<'a, Data, Error>) -> Responder<'a> {
    Responder::new(
        &ctx.serenity_context().http,
        ctx.interaction.id,
        &ctx.interaction.token,
        ctx.has_sent_initial_response,
    )
}

/// poise's error hook.
pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            if let poise::Context::Application(actx) = ctx {
                report(&responder(&actx), &error).await;
            } else {
                tracing::warn!(error = %error, "error in a prefix command");
            }
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            let msg = match input {
                Some(input) => format!(
                    "I could not read `{}`: {error}",
                    super::reply::cap_chars(&input, 100)
                ),
                None => format!("I could not read that command: {error}"),
            };
            if let poise::Context::Application(actx) = ctx {
                report(&responder(&actx), &Error::Refused(msg)).await;
            }
        }
        poise::FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            tracing::warn!(interaction = %ctx.interaction.id, %description, "command structure mismatch");
            report(
                &responder(&ctx),
                &Error::Refused(
                    "This command looks out of date; Discord may take a minute to refresh the \
                     command list. Please try again."
                        .into(),
                ),
            )
            .await;
        }
        poise::FrameworkError::EventHandler { error, event, .. } => {
            tracing::error!(error = %error, event = ?event.snake_case_name(), "event handler failed");
        }
        poise::FrameworkError::Setup { error, .. } => {
            tracing::error!(error = %error, "setup failed");
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %scrubbed(&e), "could not report an error");
            }
        }
    }
}
