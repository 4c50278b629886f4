//! What the Discord front records for `CAJITAS_METRICS` (see [`crate::telemetry`] for the
//! endpoint and the names): the interactions by command and outcome and their first
//! callback's latency, the moves played here, REST failures and rate limits, and, read at
//! each scrape, the games in progress, the engine's queue and each shard's gateway latency.
//!
//! Everything goes through the `metrics` facade: without `CAJITAS_METRICS` no recorder is
//! installed and each call is a no-op. Labels come from fixed lists (the registered
//! commands, the button kinds, the outcomes, HTTP statuses), never from what a user typed.
//!
//! An interaction is followed by a task-local [`Current`], set by the gate around its
//! handling (poise runs a command, its error hook and the button router inline, in the
//! gate's task): the error hook marks its outcome, the first callback its latency.

use std::cell::Cell;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use poise::serenity_prelude as serenity;

use crate::game::GameService;
use crate::telemetry::{
    ACTIVE_GAMES, ENGINE_QUEUE, FIRST_CALLBACK, GATEWAY_LATENCY, INTERACTIONS, MOVES, REST_ERRORS,
    REST_RATE_LIMITED, Refresh,
};

/// How an interaction ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Handled: the user got what they asked for.
    Ok,
    /// Refused with a reason (a game rule, a stale button, a bad argument).
    Refused,
    /// Failed on our side: the user got an apology.
    Failed,
    /// Arrived during a shutdown: answered "restarting", nothing applied.
    Restarting,
    /// A repeat of an interaction already handled: dropped.
    Redelivered,
}

impl Outcome {
    /// The label value.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Refused => "refused",
            Outcome::Failed => "failed",
            Outcome::Restarting => "restarting",
            Outcome::Redelivered => "redelivered",
        }
    }
}

/// The interaction the current task handles.
struct Current {
    received: Instant,
    outcome: Cell<Outcome>,
    answered: Cell<bool>,
}

tokio::task_local! {
    static CURRENT: Current;
}

/// The label of an interaction: its command's name (one of the registered commands, else
/// `other`), `button:` and the button's kind, `autocomplete`, or `modal`.
pub fn command_label(interaction: &serenity::Interaction) -> String {
    match interaction {
        serenity::Interaction::Command(c) => known_command(&c.data.name),
        serenity::Interaction::Component(c) => button_label(&c.data.custom_id).to_owned(),
        serenity::Interaction::Autocomplete(_) => "autocomplete".to_owned(),
        serenity::Interaction::Modal(_) => "modal".to_owned(),
        _ => "other".to_owned(),
    }
}

fn known_command(name: &str) -> String {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        crate::discord::commands()
            .into_iter()
            .map(|c| c.name.into_owned())
            .collect()
    });
    if names.iter().any(|n| n == name) {
        name.to_owned()
    } else {
        "other".to_owned()
    }
}

/// `button:` and the kind of a button's custom id (`cj:KIND:…`, see `buttons.rs`).
fn button_label(custom_id: &str) -> &'static str {
    const KINDS: [&str; 13] = [
        "ca", "cd", "da", "dd", "ta", "td", "rs", "rm", "lb", "ph", "ps", "pn", "dp",
    ];
    const LABELS: [&str; 13] = [
        "button:challenge-accept",
        "button:challenge-decline",
        "button:draw-accept",
        "button:draw-decline",
        "button:takeback-accept",
        "button:takeback-decline",
        "button:resign-confirm",
        "button:rematch",
        "button:leaderboard-page",
        "button:puzzle-hint",
        "button:puzzle-solution",
        "button:puzzle-next",
        "button:daily-puzzle",
    ];
    let kind = custom_id
        .strip_prefix("cj:")
        .and_then(|r| r.split(':').next());
    match kind.and_then(|k| KINDS.iter().position(|&x| x == k)) {
        Some(i) => LABELS[i],
        None => "button:other",
    }
}

/// Runs `handling` (of an interaction whose [`command_label`] is `command`), then counts it
/// under its command and outcome (`outcome`, unless the error hook marks another). Its
/// first callback's latency counts from `received`.
pub async fn follow<F: std::future::Future<Output = ()>>(
    command: String,
    received: Instant,
    outcome: Outcome,
    handling: F,
) {
    let current = Current {
        received,
        outcome: Cell::new(outcome),
        answered: Cell::new(false),
    };
    let outcome = CURRENT
        .scope(current, async {
            handling.await;
            CURRENT.with(|c| c.outcome.get())
        })
        .await;
    metrics::counter!(INTERACTIONS, "command" => command, "outcome" => outcome.as_str())
        .increment(1);
}

/// Marks the current interaction's outcome (the error hook: refused or failed).
pub fn mark(outcome: Outcome) {
    let _ = CURRENT.try_with(|c| c.outcome.set(outcome));
}

/// The current interaction got its first callback: its latency from its arrival, once.
pub fn first_callback() {
    let _ = CURRENT.try_with(|c| {
        if !c.answered.replace(true) {
            metrics::histogram!(FIRST_CALLBACK).record(c.received.elapsed().as_secs_f64());
        }
    });
}

/// A person's move was played (and committed) through this process: `/move`, or a move
/// typed as a message. The engine's are counted by its player (`engine/player.rs`).
pub fn move_played() {
    metrics::counter!(MOVES, "by" => "player").increment(1);
}

/// A REST call of kind `call` (`callback`, `followup`, `edit`, `post`) failed with `error`.
pub fn rest_error(call: &'static str, error: &serenity::Error) {
    rest_failure(call, status_of(error));
}

/// A REST call of kind `call` failed: `status` is an HTTP status or `network`/`timeout`.
pub fn rest_failure(call: &'static str, status: &'static str) {
    metrics::counter!(REST_ERRORS, "call" => call, "status" => status).increment(1);
}

/// The status label of a REST error: the common HTTP statuses by number, any other by class.
fn status_of(error: &serenity::Error) -> &'static str {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            match r.status_code.as_u16() {
                400 => "400",
                401 => "401",
                403 => "403",
                404 => "404",
                429 => "429",
                500 => "500",
                502 => "502",
                503 => "503",
                504 => "504",
                s if s >= 500 => "5xx",
                _ => "4xx",
            }
        }
        serenity::Error::Http(serenity::HttpError::Request(r)) if r.is_timeout() => "timeout",
        serenity::Error::Http(serenity::HttpError::Request(_)) => "network",
        _ => "other",
    }
}

/// serenity's ratelimiter held a request back: a 429 it retries (`global` or per route),
/// or a bucket with nothing left that it waits out before sending.
pub fn rate_limited(info: &serenity::RatelimitInfo) {
    let scope = if info.global { "global" } else { "route" };
    metrics::counter!(REST_RATE_LIMITED, "scope" => scope).increment(1);
}

/// Counts serenity's rate limits on the client's HTTP (the client sends its ratelimiter's
/// reports to its event handlers).
pub struct RateLimits;

#[serenity::async_trait]
impl serenity::EventHandler for RateLimits {
    async fn ratelimit(&self, info: serenity::RatelimitInfo) {
        rate_limited(&info);
    }
}

/// What a scrape reads fresh: the games in progress (one count on the database, on the
/// blocking pool), the engine's queue, and each shard's gateway latency.
pub fn refresh(
    game: GameService,
    engine: Option<crate::engine::Pool>,
    shards: Arc<serenity::ShardManager>,
) -> Refresh {
    Arc::new(move || {
        let (game, engine, shards) = (game.clone(), engine.clone(), Arc::clone(&shards));
        Box::pin(async move {
            match tokio::task::spawn_blocking(move || game.queries().active_game_count()).await {
                Ok(Ok(n)) => metrics::gauge!(ACTIVE_GAMES).set(n as f64),
                Ok(Err(e)) => {
                    tracing::warn!(error = %e.chain(), "metrics: cannot count the active games")
                }
                Err(e) => tracing::warn!(error = %e, "metrics: cannot count the active games"),
            }
            let queued = match &engine {
                // A lock held for microseconds by the pool's threads: fine on the runtime.
                Some(pool) => pool.queued(),
                None => 0,
            };
            metrics::gauge!(ENGINE_QUEUE).set(queued as f64);
            let latencies: Vec<(u32, f64)> = shards
                .runners
                .lock()
                .await
                .iter()
                .filter_map(|(id, r)| r.latency.map(|l| (id.0, l.as_secs_f64())))
                .collect();
            for (shard, secs) in latencies {
                metrics::gauge!(GATEWAY_LATENCY, "shard" => shard.to_string()).set(secs);
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_labels_come_from_a_fixed_list() {
        assert_eq!(button_label("cj:ca:12"), "button:challenge-accept");
        assert_eq!(button_label("cj:lb:1:2:3:4"), "button:leaderboard-page");
        assert_eq!(button_label("cj:pn:1"), "button:puzzle-next");
        assert_eq!(button_label("cj:zz:1"), "button:other");
        assert_eq!(button_label("anything a client sends"), "button:other");
        assert_eq!(known_command("move"), "move");
        assert_eq!(known_command("drop-table-games"), "other");
    }

    #[tokio::test]
    async fn an_interaction_keeps_its_outcome_and_first_callback() {
        // Outside an interaction, these do nothing (and do not panic).
        mark(Outcome::Failed);
        first_callback();
        let current = Current {
            received: Instant::now(),
            outcome: Cell::new(Outcome::Ok),
            answered: Cell::new(false),
        };
        let (outcome, answered) = CURRENT
            .scope(current, async {
                mark(Outcome::Refused);
                first_callback();
                first_callback();
                CURRENT.with(|c| (c.outcome.get(), c.answered.get()))
            })
            .await;
        assert_eq!(outcome, Outcome::Refused);
        assert!(answered);
    }
}
