//! The gate in front of poise: every gateway event passes here first.
//!
//! It tracks the interactions in flight (serenity's shutdown does not wait for running
//! handlers) and, once closing, takes no new ones. It also drops redelivered interactions:
//! the same interaction id (as Discord may send again around a resume) is handled once; the
//! ids handled are kept in the database, so this holds across restarts too.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tokio::sync::Notify;

use crate::discord::Bookkeeping;
use crate::discord::gateway::telemetry::{self, Outcome};
use crate::discord::{Data, Error};

/// Counts the interactions being handled; `close` stops new ones.
#[derive(Clone, Default)]
pub struct Tracker {
    inner: Arc<TrackerInner>,
}

#[derive(Default)]
struct TrackerInner {
    closing: AtomicBool,
    in_flight: AtomicUsize,
    idle: Notify,
}

/// Held while one interaction is handled.
pub struct InFlight {
    inner: Arc<TrackerInner>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.inner.in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.inner.idle.notify_waiters();
        }
    }
}

impl Tracker {
    /// Starts tracking one interaction; the flag is true when shutting down (the
    /// interaction is then to be refused, not handled).
    pub fn enter(&self) -> (InFlight, bool) {
        self.inner.in_flight.fetch_add(1, Ordering::SeqCst);
        let guard = InFlight {
            inner: Arc::clone(&self.inner),
        };
        (guard, self.inner.closing.load(Ordering::SeqCst))
    }

    /// Takes no new interactions from now on.
    pub fn close(&self) {
        self.inner.closing.store(true, Ordering::SeqCst);
    }

    /// How many interactions are being handled.
    pub fn in_flight(&self) -> usize {
        self.inner.in_flight.load(Ordering::SeqCst)
    }

    /// Waits until nothing is in flight, at most `limit`. True when idle.
    pub async fn wait_idle(&self, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let idle = self.inner.idle.notified();
            if self.in_flight() == 0 {
                return true;
            }
            if tokio::time::timeout_at(deadline, idle).await.is_err() {
                return self.in_flight() == 0;
            }
        }
    }
}

/// Answers an interaction that arrives while the bot shuts down: an ephemeral "restarting"
/// for commands and buttons, no choices for autocomplete. Nothing is applied.
async fn refuse_while_restarting(ctx: &serenity::Context, interaction: &serenity::Interaction) {
    // In the language of whoever interacted (an ephemeral reply).
    let locale = match interaction {
        serenity::Interaction::Command(c) => Some(c.locale.as_str()),
        serenity::Interaction::Component(c) => Some(c.locale.as_str()),
        serenity::Interaction::Modal(m) => Some(m.locale.as_str()),
        _ => None,
    };
    let text = crate::tr!(crate::i18n::lang_of_locale(locale), "restarting");
    let message = || {
        serenity::CreateInteractionResponse::Message(
            serenity::CreateInteractionResponseMessage::new()
                .content(text.clone())
                .ephemeral(true),
        )
    };
    let sent = match interaction {
        serenity::Interaction::Command(c) => c.create_response(&ctx.http, message()).await,
        serenity::Interaction::Component(c) => c.create_response(&ctx.http, message()).await,
        serenity::Interaction::Modal(m) => m.create_response(&ctx.http, message()).await,
        serenity::Interaction::Autocomplete(a) => {
            a.create_response(
                &ctx.http,
                serenity::CreateInteractionResponse::Autocomplete(
                    serenity::CreateAutocompleteResponse::new(),
                ),
            )
            .await
        }
        _ => Ok(()),
    };
    match sent {
        Ok(()) => telemetry::first_callback(),
        Err(e) => {
            telemetry::rest_error("callback", &e);
            tracing::warn!(interaction = %interaction.id(), error = %crate::discord::interaction::reply::scrubbed(&e),
                "could not answer an interaction during shutdown");
        }
    }
}

/// Wraps the poise framework.
pub struct Gate {
    inner: poise::Framework<Data, Error>,
    tracker: Tracker,
    books: Arc<Bookkeeping>,
}

impl Gate {
    /// Puts the gate in front of `inner`; `game` records the interactions handled.
    pub fn new(inner: poise::Framework<Data, Error>, books: Arc<Bookkeeping>) -> Self {
        Self {
            inner,
            tracker: Tracker::default(),
            books,
        }
    }

    /// Whether this interaction is seen for the first time (and records it). Autocomplete
    /// requests change nothing and are not recorded. When the database cannot say, the
    /// interaction is handled: the service's ply checks still stop a double move.
    async fn first_delivery(&self, interaction: &serenity::Interaction) -> bool {
        if matches!(interaction, serenity::Interaction::Autocomplete(_)) {
            return true;
        }
        let id = interaction.id().get();
        let books = Arc::clone(&self.books);
        match tokio::task::spawn_blocking(move || books.first_delivery(id)).await {
            Ok(Ok(first)) => first,
            Ok(Err(e)) => {
                tracing::warn!(interaction = id, error = %e, "could not record the interaction");
                true
            }
            Err(e) => {
                tracing::warn!(interaction = id, error = %e, "could not record the interaction");
                true
            }
        }
    }

    /// The in-flight tracker (shared).
    pub fn tracker(&self) -> Tracker {
        self.tracker.clone()
    }
}

#[poise::async_trait]
impl serenity::Framework for Gate {
    async fn init(&mut self, client: &serenity::Client) {
        self.inner.init(client).await;
    }

    async fn dispatch(&self, ctx: serenity::Context, event: serenity::FullEvent) {
        if let serenity::FullEvent::Message { new_message } = &event {
            // Messages may be moves (CAJITAS_MESSAGE_MOVES): tracked like interactions.
            let (_guard, closing) = self.tracker.enter();
            if closing {
                tracing::info!(message = %new_message.id, "shutting down: message not taken");
                return;
            }
            self.inner.dispatch(ctx, event).await;
            return;
        }
        let serenity::FullEvent::InteractionCreate { interaction } = &event else {
            self.inner.dispatch(ctx, event).await;
            return;
        };
        // Counted even while closing, so the drain also waits for the "restarting" answer.
        let (_guard, closing) = self.tracker.enter();
        let received = std::time::Instant::now();
        let command = telemetry::command_label(interaction);
        if closing {
            tracing::info!(
                interaction = %interaction.id(),
                "shutting down: interaction not taken"
            );
            // Nothing is applied (nor recorded as handled): the user is told to try again.
            telemetry::follow(command, received, Outcome::Restarting, async {
                refuse_while_restarting(&ctx, interaction).await;
            })
            .await;
            return;
        }
        if !self.first_delivery(interaction).await {
            tracing::info!(interaction = %interaction.id(), "redelivered interaction ignored");
            telemetry::follow(command, received, Outcome::Redelivered, async {}).await;
            return;
        }
        telemetry::follow(
            command,
            received,
            Outcome::Ok,
            // The event is borrowed: this future already holds it (a `FullEvent` is about
            // 4 KB), and the handling's own holds no second copy.
            Box::pin(dispatch_interaction(&self.inner, ctx, &event)),
        )
        .await;
    }
}

/// What poise's `dispatch_event` does with an interaction, and only that: a slash command or
/// an autocomplete request to its command, then every interaction to the event handler (the
/// router of buttons and modals). poise's own future is sized for its largest path, prefix
/// commands with their edit tracking, about 24 KB held by every interaction in flight; this
/// one holds what an interaction needs.
async fn dispatch_interaction(
    fw: &poise::Framework<Data, Error>,
    ctx: serenity::Context,
    event: &serenity::FullEvent,
) {
    let framework = poise::FrameworkContext {
        serenity_context: &ctx,
        options: fw.options(),
        user_data: fw.user_data().await,
        shard_manager: fw.shard_manager(),
    };
    if let serenity::FullEvent::InteractionCreate { interaction } = event {
        let invocation_data = tokio::sync::Mutex::new(Box::new(()) as _);
        let mut command_tree = Vec::new();
        let responded = AtomicBool::new(false);
        match interaction {
            serenity::Interaction::Command(i) => {
                let options = i.data.options();
                let dispatched = poise::dispatch_interaction(
                    framework,
                    i,
                    &responded,
                    &invocation_data,
                    &options,
                    &mut command_tree,
                )
                .await;
                if let Err(error) = dispatched {
                    error.handle(framework.options).await;
                }
            }
            serenity::Interaction::Autocomplete(i) => {
                let options = i.data.options();
                let dispatched = poise::dispatch_autocomplete(
                    framework,
                    i,
                    &responded,
                    &invocation_data,
                    &options,
                    &mut command_tree,
                )
                .await;
                if let Err(error) = dispatched {
                    error.handle(framework.options).await;
                }
            }
            _ => {}
        }
    }
    if let Err(error) = (framework.options.event_handler)(framework, event).await {
        crate::discord::interaction::errors::event_handler_failed(&error, event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size of the future an async fn of these parameters returns.
    fn size_of_future<'a, F, Fut>(_f: F) -> usize
    where
        F: FnOnce(
            &'a poise::Framework<Data, Error>,
            serenity::Context,
            &'a serenity::FullEvent,
        ) -> Fut,
    {
        std::mem::size_of::<Fut>()
    }

    // Every interaction in flight holds its handling's future (a hundred under the `discord`
    // bench's load). That future borrows the event the gate's own future holds: with the
    // event moved in, it held two more copies of a `FullEvent` (about 4 KB each), 17.0 KB in
    // all in a test build against 9.2 KB.
    #[test]
    fn the_handling_of_an_interaction_holds_no_copy_of_its_event() {
        let event = std::mem::size_of::<serenity::FullEvent>();
        let handling = size_of_future(dispatch_interaction);
        assert!(event > 2048, "a FullEvent is {event} bytes");
        assert!(
            handling + event < 16 * 1024,
            "the handling's future is {handling} bytes, the event {event}"
        );
    }
}
