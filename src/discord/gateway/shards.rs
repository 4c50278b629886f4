//! Starting the gateway shards of this process (`CAJITAS_SHARDS`), and, when several
//! processes share a PostgreSQL database, serialising their IDENTIFYs across processes.
//!
//! Discord lets a bot IDENTIFY `max_concurrency` shards per 5 s, one per rate-limit bucket
//! `shard_id % max_concurrency`, whichever process runs them. serenity's shard queuer keeps
//! 5 s between the shards of one process only, and its shard runners IDENTIFY again by
//! themselves when a session is lost. So with a [`Coordination`] every gateway connection of
//! the process goes through the IDENTIFY relay ([`super::relay`]), which holds each
//! IDENTIFY, at boot or after a lost session, until the bucket's advisory lock is this
//! process's. A process that dies releases its locks with its connections.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use crate::config::ShardRange;
use crate::store::Coordination;

/// Runs the client's shards until they end: one shard (`None`), or `range` in this process,
/// each IDENTIFY under its bucket's lock when `coordination` is given.
pub async fn run(
    client: &mut serenity::Client,
    range: Option<ShardRange>,
    coordination: Option<Arc<dyn Coordination>>,
) -> serenity::Result<()> {
    let range = range.unwrap_or(ShardRange {
        first: 0,
        last: 0,
        total: 1,
    });
    if let Some(coordination) = coordination {
        let max_concurrency = match client.http.get_bot_gateway().await {
            Ok(g) => u32::try_from(g.session_start_limit.max_concurrency.max(1)).unwrap_or(1),
            Err(e) => {
                tracing::warn!(error = %crate::discord::interaction::reply::scrubbed(&e), "could not read max_concurrency; using 1");
                1
            }
        };
        let upstream = client.ws_url.lock().await.clone();
        match super::relay::open(upstream, coordination, max_concurrency).await {
            Ok(relay) => *client.ws_url.lock().await = relay,
            Err(e) => {
                tracing::warn!(error = %e, "could not open the IDENTIFY relay; shards IDENTIFY without the shared lock");
            }
        }
    }
    // serenity's range is inclusive of its end, whatever its type says.
    client
        .start_shard_range(range.first..range.last, range.total)
        .await
}
