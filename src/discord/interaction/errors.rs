//! The one place where errors become replies: refusals are ephemeral messages with the
//! reason; unexpected failures give the user a short apology and the log the details with
//! the interaction id.

use std::fmt;

use poise::serenity_prelude as serenity;

use cajitas_rules::Lang;

use crate::discord::Data;
use crate::discord::interaction::reply::{Reply, Responder, scrub, scrubbed};
use crate::game::GameError;
use crate::i18n::{Presentation, game_error};
use crate::tr;

/// What a handler can fail with. Refusals stay typed until `report` turns them into the
/// reply's text, so a reply can be chosen by variant (and, later, by language).
#[derive(Debug)]
pub enum Error {
    /// The game service refused (a [`GameError::is_refusal`] error).
    Game(GameError),
    /// The Discord front end refused (a button, an argument).
    Refused(Refusal),
    /// Something went wrong on our side.
    Failed(anyhow::Error),
}

/// What the Discord front end itself refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A prefix (text) command: only slash commands are answered.
    SlashOnly,
    /// A button of an older position or game.
    ButtonExpired,
    /// A resignation's confirm button after the position changed.
    ResignButtonExpired,
    /// A button meant for another user.
    NotYourButton,
    /// A button whose id this bot does not know (any more).
    UnknownButton,
    /// An option Discord sent that could not be read: the text typed (capped), and why.
    BadArgument {
        /// What was typed, if Discord sent it.
        input: Option<String>,
        /// The parser's reason.
        reason: String,
    },
    /// The command does not match the registered one (Discord still refreshing its list).
    OutOfDate,
    /// A leaderboard page button after a rated game changed the pool.
    LeaderboardChanged,
    /// A leaderboard page button pressed by someone else than who ran `/leaderboard`.
    LeaderboardNotYours,
}

impl Refusal {
    /// The text the user reads, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Refusal::SlashOnly => tr!(lang, "refusal-slash-only"),
            Refusal::ButtonExpired => tr!(lang, "refusal-button-expired"),
            Refusal::ResignButtonExpired => tr!(lang, "refusal-resign-expired"),
            Refusal::NotYourButton => tr!(lang, "refusal-not-your-button"),
            Refusal::UnknownButton => tr!(lang, "refusal-unknown-button"),
            Refusal::LeaderboardChanged => tr!(lang, "error-leaderboard-changed"),
            Refusal::LeaderboardNotYours => tr!(lang, "error-leaderboard-not-yours"),
            Refusal::BadArgument {
                input: Some(input),
                reason,
            } => tr!(
                lang,
                "refusal-bad-argument",
                input = crate::discord::interaction::reply::cap_chars(input, 100),
                reason = reason.clone()
            ),
            Refusal::BadArgument {
                input: None,
                reason,
            } => tr!(lang, "refusal-bad-command", reason = reason.clone()),
            Refusal::OutOfDate => tr!(lang, "refusal-out-of-date"),
        }
    }
}

impl Error {
    /// What the user reads, in `lang` (for a failure: the apology without reference).
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Error::Game(e) => game_error(lang, Presentation::Discord, e),
            Error::Refused(r) => r.text(lang),
            Error::Failed(_) => tr!(lang, "error-internal"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Game(e) => write!(f, "{e}"),
            Error::Refused(r) => f.write_str(&r.text(Lang::En)),
            Error::Failed(e) => f.write_str(&crate::discord::interaction::reply::scrub(&format!(
                "{e:#}"
            ))),
        }
    }
}

impl std::error::Error for Error {}

impl From<serenity::Error> for Error {
    fn from(e: serenity::Error) -> Self {
        Error::Failed(e.into())
    }
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Self {
        Error::Refused(r)
    }
}

impl From<GameError> for Error {
    fn from(e: GameError) -> Self {
        if e.is_refusal() {
            Error::Game(e)
        } else {
            // The failure with its causes, for the log; the user gets the apology.
            Error::Failed(anyhow::anyhow!("game service: {}", e.chain()))
        }
    }
}

impl From<anyhow::Error> for Error {
    fn from(e: anyhow::Error) -> Self {
        Error::Failed(e)
    }
}

/// The apology an unexpected failure gets, in `lang`.
pub fn apology(lang: Lang, id: serenity::InteractionId) -> String {
    tr!(lang, "apology", id = id.to_string())
}

/// Answers `error` on `responder`: ephemeral refusal, or apology + log.
pub async fn report(responder: &Responder<'_>, error: &Error) {
    crate::discord::gateway::telemetry::mark(match error {
        Error::Game(_) | Error::Refused(_) => crate::discord::gateway::telemetry::Outcome::Refused,
        Error::Failed(_) => crate::discord::gateway::telemetry::Outcome::Failed,
    });
    let reply = match error {
        Error::Game(_) | Error::Refused(_) => {
            tracing::debug!(interaction = %responder.id(), reason = %error, "refused");
            Reply::ephemeral(error.text(responder.lang()))
        }
        Error::Failed(e) => {
            tracing::error!(interaction = %responder.id(), error = %scrub(&format!("{e:?}")), "interaction failed");
            Reply::ephemeral(apology(responder.lang(), responder.id()))
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
    .with_lang(crate::i18n::lang_of_locale(Some(&ctx.interaction.locale)))
    .with_attachment_limit(ctx.interaction.attachment_size_limit)
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
            let refusal = Refusal::BadArgument {
                input,
                reason: error.to_string(),
            };
            if let poise::Context::Application(actx) = ctx {
                report(&responder(&actx), &refusal.into()).await;
            }
        }
        poise::FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            tracing::warn!(interaction = %ctx.interaction.id, %description, "command structure mismatch");
            report(&responder(&ctx), &Refusal::OutOfDate.into()).await;
        }
        poise::FrameworkError::CommandPanic { payload, ctx, .. } => {
            // A bug of ours: the user gets the apology in their language, the log the details.
            let e = anyhow::anyhow!("a command panicked: {}", payload.as_deref().unwrap_or("?"));
            if let poise::Context::Application(actx) = ctx {
                report(&responder(&actx), &Error::Failed(e)).await;
            } else {
                tracing::error!(error = %e, "a prefix command panicked");
            }
        }
        poise::FrameworkError::EventHandler { error, event, .. } => {
            event_handler_failed(&error, event);
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

/// The event handler (the router of buttons and modals) failed: logged (its clicks have
/// been answered by then, or Discord says the interaction failed).
pub fn event_handler_failed(error: &Error, event: &serenity::FullEvent) {
    tracing::error!(error = %error, event = ?event.snake_case_name(), "event handler failed");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::variant_tests::assert_rendered;

    #[test]
    fn every_refusal_and_the_apology_render_in_both_languages() {
        let all = [
            Refusal::SlashOnly,
            Refusal::ButtonExpired,
            Refusal::ResignButtonExpired,
            Refusal::NotYourButton,
            Refusal::UnknownButton,
            Refusal::BadArgument {
                input: Some("zz".into()),
                reason: "not a number".into(),
            },
            Refusal::BadArgument {
                input: None,
                reason: "not a number".into(),
            },
            Refusal::OutOfDate,
        ];
        for r in &all {
            assert_rendered(&r.text(Lang::En), &r.text(Lang::Es));
        }
        let id = serenity::InteractionId::new(42);
        assert_rendered(&apology(Lang::En, id), &apology(Lang::Es, id));
        assert!(apology(Lang::Es, id).contains("42"));
    }
}
