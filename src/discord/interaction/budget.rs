//! This process's share of Discord's global REST limit (about 50 requests per second per bot,
//! whatever the number of processes): `50 × its shards ÷ the total shards`, as a token bucket
//! that REST calls wait on. Interaction callbacks and followups are not counted: Discord does
//! not bind interaction endpoints to the global limit, and they must answer within 3 s. Every
//! other request with the bot's token is: the notifier's posts, the replies to moves typed
//! as messages, and the threads' requests (posting in, reopening, archiving; not opening a
//! game's thread, which answers a person within the interaction's time).
//! Start-up requests (the gateway's address, the application, command registration) come
//! before any load and are not. A trusted REST proxy
//! (`CAJITAS_API_BASE_TRUSTED`) keeps the bot's limits itself: no budget then.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Discord's global REST limit per bot, requests per second.
pub const GLOBAL_PER_SEC: f64 = 50.0;

/// A token bucket: `per_sec` tokens a second, at most one second's worth saved.
#[derive(Debug)]
pub struct RestBudget {
    per_sec: f64,
    state: tokio::sync::Mutex<(f64, Instant)>,
}

impl RestBudget {
    /// A budget of `per_sec` requests a second (at least one a minute).
    pub fn new(per_sec: f64) -> RestBudget {
        let per_sec = per_sec.max(1.0 / 60.0);
        RestBudget {
            per_sec,
            state: tokio::sync::Mutex::new((per_sec.max(1.0), Instant::now())),
        }
    }

    /// The share of a process running `shards` of `total` shards.
    pub fn share(shards: u32, total: u32) -> RestBudget {
        RestBudget::new(GLOBAL_PER_SEC * f64::from(shards) / f64::from(total.max(1)))
    }

    /// Requests a second.
    pub fn per_sec(&self) -> f64 {
        self.per_sec
    }

    /// Waits until one request may be sent, and counts it.
    pub async fn take(&self) {
        let wait = {
            let mut state = self.state.lock().await;
            self.reserve(&mut state, Instant::now())
        };
        if let Some(wait) = wait {
            tokio::time::sleep(wait).await;
        }
    }

    /// Waits for one request's turn, then makes what it sends with `make`: a request that
    /// waits holds nothing it has not made yet (a board, say).
    pub async fn then<F: std::future::Future>(&self, make: F) -> F::Output {
        self.take().await;
        make.await
    }

    /// Counts one request at `now` in `state` (the tokens left and when they were counted):
    /// how long it must wait to be sent, `None` for at once.
    fn reserve(&self, state: &mut (f64, Instant), now: Instant) -> Option<Duration> {
        let (tokens, last) = state;
        let capacity = self.per_sec.max(1.0);
        *tokens = (*tokens + now.saturating_duration_since(*last).as_secs_f64() * self.per_sec)
            .min(capacity);
        *last = now;
        // Reserve the token now; a negative balance is the queue ahead.
        *tokens -= 1.0;
        if *tokens >= 0.0 {
            None
        } else {
            Some(Duration::from_secs_f64(-*tokens / self.per_sec))
        }
    }
}

static BUDGET: OnceLock<RestBudget> = OnceLock::new();

/// Sets this process's budget (once, at start); `None`: no budget (a trusted proxy).
pub fn install(budget: Option<RestBudget>) {
    if let Some(b) = budget {
        tracing::info!(
            per_sec = b.per_sec(),
            "REST budget of this process (requests outside interactions' answers)"
        );
        let _ = BUDGET.set(b);
    }
}

/// Waits for this process's budget, when it has one.
pub async fn take() {
    if let Some(b) = BUDGET.get() {
        b.take().await;
    }
}

/// [`RestBudget::then`] on this process's budget, when it has one.
pub async fn take_then<F: std::future::Future>(make: F) -> F::Output {
    match BUDGET.get() {
        Some(b) => b.then(make).await,
        None => make.await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn what_a_request_sends_is_made_once_its_turn_has_come() {
        let b = RestBudget::new(20.0);
        // The second's worth saved at the start goes at once.
        for _ in 0..20 {
            b.take().await;
        }
        // The next request waits about 50 ms for its token: only then is its message made.
        let t0 = Instant::now();
        let made_at = b.then(async { Instant::now() }).await;
        let waited = made_at.duration_since(t0);
        assert!(
            waited >= Duration::from_millis(40),
            "made after {waited:?}, before its turn"
        );
    }

    #[test]
    fn the_share_follows_the_shards() {
        assert_eq!(RestBudget::share(1, 1).per_sec(), 50.0);
        assert_eq!(RestBudget::share(4, 8).per_sec(), 25.0);
        assert_eq!(RestBudget::share(1, 16).per_sec(), 3.125);
    }

    #[test]
    fn a_burst_past_one_second_of_budget_waits() {
        // On instants the test chooses, not the machine's time.
        let b = RestBudget::new(100.0);
        let t0 = Instant::now();
        let mut state = (100.0, t0);
        let ms = |d: Option<Duration>| d.map(|d| (d.as_secs_f64() * 1e3).round() as u64);
        // The first second's worth is free.
        for i in 0..100 {
            assert_eq!(b.reserve(&mut state, t0), None, "request {i}");
        }
        // 50 more at once, at 100/s: each waits 10 ms more than the one before, 0.5 s last.
        let waits: Vec<_> = (0..50).map(|_| ms(b.reserve(&mut state, t0))).collect();
        assert_eq!(waits, (1..=50).map(|k| Some(10 * k)).collect::<Vec<_>>());
        // Once they are sent (0.5 s later), the queue is empty and the next waits 10 ms.
        let t1 = t0 + Duration::from_millis(500);
        assert_eq!(ms(b.reserve(&mut state, t1)), Some(10));
        // After a quiet second and more, a second's worth is free again, and no more.
        let t2 = t1 + Duration::from_millis(1500);
        for i in 0..100 {
            assert_eq!(
                b.reserve(&mut state, t2),
                None,
                "request {i} after the pause"
            );
        }
        assert_eq!(ms(b.reserve(&mut state, t2)), Some(10));
    }
}
