//! Starting the gateway shards of this process (`CAJITAS_SHARDS`), and, when several
//! processes share a PostgreSQL database, serialising their IDENTIFYs across processes.
//!
//! Discord lets a bot IDENTIFY `max_concurrency` shards per 5 s, one per rate-limit bucket
//! `shard_id % max_concurrency`, whichever process runs them. serenity's shard queuer keeps
//! 5 s between the shards of one process only, so with a [`Coordination`] each shard boots
//! while holding the advisory lock of its bucket, and keeps it until 5 s after its READY: the
//! next shard of that bucket, in this process or another, waits for it. The first shard boots
//! through `start_shard_range` (whose future is the client's life); the others through the
//! shard manager's `restart`, one after another (serenity then logs, once per shard, that it
//! could not shut down a shard that was not running yet: harmless). A process that dies
//! releases its locks with its connections. Reconnections that IDENTIFY again (after an
//! invalidated session) happen inside serenity's shard runner and do not take the lock.

use std::sync::Arc;
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;

use crate::config::ShardRange;
use crate::store::{Coordination, LockGuard, NamedLock};

/// How long after a shard's READY its bucket stays taken.
pub const IDENTIFY_SPACING: Duration = Duration::from_secs(5);
/// How long a shard may take from its boot to READY before the next one goes anyway.
const READY_WAIT: Duration = Duration::from_secs(30);

/// Runs the client's shards until they end: one shard (`None`), or `range` in this process,
/// each IDENTIFY under its bucket's lock when `coordination` is given.
pub async fn run(
    client: &mut serenity::Client,
    range: Option<ShardRange>,
    coordination: Option<Arc<dyn Coordination>>,
) -> serenity::Result<()> {
    let (range, coordination) = match (range, coordination) {
        (None, None) => return client.start().await,
        // serenity's range is inclusive of its end, whatever its type says.
        (Some(r), None) => return client.start_shard_range(r.first..r.last, r.total).await,
        (None, Some(c)) => (
            ShardRange {
                first: 0,
                last: 0,
                total: 1,
            },
            c,
        ),
        (Some(r), Some(c)) => (r, c),
    };
    let max_concurrency = match client.http.get_bot_gateway().await {
        Ok(g) => u32::try_from(g.session_start_limit.max_concurrency.max(1)).unwrap_or(1),
        Err(e) => {
            tracing::warn!(error = %super::reply::scrubbed(&e), "could not read max_concurrency; using 1");
            1
        }
    };
    let first = lock(
        &coordination,
        NamedLock::Identify(range.first % max_concurrency),
    )
    .await;
    let manager = Arc::clone(&client.shard_manager);
    let booter = tokio::spawn(async move {
        hold(&manager, range.first, first).await;
        for shard in range.first + 1..=range.last {
            let guard = lock(&coordination, NamedLock::Identify(shard % max_concurrency)).await;
            tracing::info!(shard, "starting shard");
            manager.restart(serenity::ShardId(shard)).await;
            hold(&manager, shard, guard).await;
        }
    });
    let result = client
        .start_shard_range(range.first..range.first, range.total)
        .await;
    booter.abort();
    result
}

/// Waits (off the runtime) for a shared lock; `None` when the database could not be asked,
/// after logging it (the shard then starts without waiting: better than not starting).
async fn lock(coordination: &Arc<dyn Coordination>, lock: NamedLock) -> Option<Box<dyn LockGuard>> {
    let c = Arc::clone(coordination);
    match tokio::task::spawn_blocking(move || c.lock(lock)).await {
        Ok(Ok(guard)) => Some(guard),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, ?lock, "could not take the IDENTIFY lock");
            None
        }
        Err(e) => {
            tracing::warn!(error = %e, ?lock, "could not take the IDENTIFY lock");
            None
        }
    }
}

/// Keeps `guard` until `shard` is connected (READY) and [`IDENTIFY_SPACING`] more, then
/// releases it off the runtime.
async fn hold(manager: &serenity::ShardManager, shard: u32, guard: Option<Box<dyn LockGuard>>) {
    let booted = Instant::now();
    loop {
        let connected = manager
            .runners
            .lock()
            .await
            .get(&serenity::ShardId(shard))
            .is_some_and(|r| r.stage == serenity::ConnectionStage::Connected);
        if connected || booted.elapsed() > READY_WAIT {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(IDENTIFY_SPACING).await;
    if let Some(guard) = guard {
        let _ = tokio::task::spawn_blocking(move || drop(guard)).await;
    }
}
