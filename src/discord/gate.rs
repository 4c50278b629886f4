//! The gate in front of poise: every gateway event passes here first.
//!
//! It tracks the interactions in flight (serenity's shutdown does not wait for running
//! handlers) and, once closing, takes no new ones.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tokio::sync::Notify;

use super::{Data, Error};

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
    /// Starts tracking one interaction, or `None` when shutting down.
    pub fn enter(&self) -> Option<InFlight> {
        self.inner.in_flight.fetch_add(1, Ordering::SeqCst);
        let guard = InFlight {
            inner: Arc::clone(&self.inner),
        };
        if self.inner.closing.load(Ordering::SeqCst) {
            return None; // the guard's drop undoes the count
        }
        Some(guard)
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

/// Wraps the poise framework.
pub struct Gate {
    inner: poise::Framework<Data, Error>,
    tracker: Tracker,
}

impl Gate {
    /// Puts the gate in front of `inner`.
    pub fn new(inner: poise::Framework<Data, Error>) -> Self {
        Self {
            inner,
            tracker: Tracker::default(),
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
        let serenity::FullEvent::InteractionCreate { interaction } = &event else {
            self.inner.dispatch(ctx, event).await;
            return;
        };
        let Some(_guard) = self.tracker.enter() else {
            tracing::info!(
                interaction = %interaction.id(),
                "shutting down: interaction not taken"
            );
            return;
        };
        self.inner.dispatch(ctx, event).await;
    }
}
