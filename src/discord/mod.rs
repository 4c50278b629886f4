//! The Discord front end: the only module that knows serenity and poise.
//!
//! `cajitas run` calls [`run`]: it builds a tokio runtime, opens the game service, connects to
//! Discord and answers slash commands, buttons and autocomplete until SIGINT/SIGTERM.
//! Handlers stay thin: parse the interaction, call the game service (on the blocking pool),
//! reply. One [`errors::on_error`] turns every error into a reply.
//!
//! Test seam: with `DISCORD_API_BASE` set, every REST call goes to that base URL (with
//! serenity's ratelimiter off, which would otherwise ignore the proxy) and the gateway URL
//! comes from that server's `GET /api/v10/gateway`.

mod errors;
mod gate;
mod help;
pub mod reply;
mod setup;

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;

use crate::config::BotConfig;

pub use errors::Error;

/// The poise context every command gets.
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// Everything the handlers share.
pub struct Data {
    /// The configuration `cajitas run` was started with.
    pub config: BotConfig,
}

/// How long a shutdown waits for the interactions in flight.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Runs the bot until SIGINT/SIGTERM. Blocks the calling thread.
pub fn run(config: BotConfig) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("cajitas")
        .build()?;
    runtime.block_on(run_async(config))
}

/// All the slash commands, in the order `/help` lists them.
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    vec![help::help()]
}

async fn run_async(config: BotConfig) -> anyhow::Result<()> {
    let mut http = serenity::HttpBuilder::new(config.token.expose());
    if let Some(base) = &config.api_base {
        // Both are needed: serenity's ratelimiter ignores the proxy.
        http = http
            .proxy(base.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    }
    let http = http.build();

    let options = poise::FrameworkOptions {
        commands: commands(),
        on_error: |e| Box::pin(errors::on_error(e)),
        // Owners are not used; this saves a REST call at start.
        initialize_owners: false,
        ..Default::default()
    };
    let framework = poise::Framework::new(options, move |ctx, ready, framework| {
        Box::pin(async move {
            let data = Data { config };
            // Never fails: a failed setup would leave poise waiting forever for its data.
            setup::on_ready(ctx, ready, framework, &data).await;
            Ok(data)
        })
    });
    let gate = gate::Gate::new(framework);
    let tracker = gate.tracker();

    let mut client = serenity::ClientBuilder::new_with_http(http, serenity::GatewayIntents::GUILDS)
        .framework(gate)
        .await?;

    let shard_manager = Arc::clone(&client.shard_manager);
    let signal_tracker = tracker.clone();
    tokio::spawn(async move {
        let signal = wait_for_signal().await;
        tracing::info!(%signal, "shutting down: no new interactions, finishing the ones in flight");
        signal_tracker.close();
        if !signal_tracker.wait_idle(SHUTDOWN_GRACE).await {
            tracing::warn!(
                in_flight = signal_tracker.in_flight(),
                "interactions still in flight after {SHUTDOWN_GRACE:?}; stopping anyway"
            );
        }
        shard_manager.shutdown_all().await;
    });

    client.start().await?;
    // The gateway is closed; handlers that were still running get their bounded wait.
    tracker.close();
    tracker.wait_idle(SHUTDOWN_GRACE).await;
    drop(client);
    tracing::info!("stopped");
    Ok(())
}

async fn wait_for_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = tokio::signal::ctrl_c() => "SIGINT",
                _ = term.recv() => "SIGTERM",
            },
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                "SIGINT"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "SIGINT"
    }
}
