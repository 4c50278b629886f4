//! The Discord front end: the only module that knows serenity and poise.
//!
//! `cajitas run` calls [`run`]: it builds a tokio runtime, opens the game service, connects to
//! Discord and answers slash commands, buttons and autocomplete until SIGINT/SIGTERM.
//! Handlers stay thin: parse the interaction, call the game service (on the blocking pool),
//! reply. One `errors::on_error` turns every error into a reply.
//!
//! Four rooms that import one way: `commands` (one file per command family) names
//! `interaction` (the `Call` preamble, button ids, the router, replies, errors, the gate) and
//! `present` (how games look: the embed and board, threads, the notifier, mentions); the
//! process and its connection are in `gateway`. This file keeps the entry: `Data`, its
//! `blocking`, the command list and `run`.
//!
//! Test seam: with `DISCORD_API_BASE` set (a loopback URL, or a trusted REST proxy, see
//! [`crate::config::ApiBase`]), every REST call goes to that base URL (with serenity's
//! ratelimiter off, which would otherwise ignore the proxy) and the gateway URL comes from
//! that server's `GET /api/v10/gateway`.

mod commands;
mod gateway;
mod interaction;
mod present;

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;

use crate::config::BotConfig;
use crate::game::{GameService, ServiceOptions};
use crate::render::Renderer;

use commands::{
    arena, challenge, clocks, draw, engine, help, info, moves, puzzle, ratings, resign, roundrobin,
    settings, takeback,
};
use gateway::http::http_client;
use gateway::signals::Signals;
use gateway::{localize, setup, shards, telemetry};
use interaction::{budget, errors, gate, reply, router};
use present::view;

pub use errors::Error;
pub use gateway::bookkeeping::{Bookkeeping, HANDLED_INTERACTIONS_KEPT};
pub use present::notify::DiscordNotifier;
pub use setup::COMMANDS_HASH_KEY_GLOBAL;

/// The poise context every command gets.
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// Everything the handlers share.
pub struct Data {
    /// The configuration `cajitas run` was started with.
    pub config: BotConfig,
    /// The game service (blocking: use [`Data::blocking`]).
    pub game: GameService,
    /// The board renderer (built once, shared).
    pub renderer: &'static Renderer,
    /// Handled interactions and bot settings (blocking, like the service).
    pub bookkeeping: Arc<Bookkeeping>,
    /// The chess engine, when there is one (`/play`, `/analysis`).
    pub engine: Option<engine::Engine>,
    /// Wakes the daily puzzle's poster (a server just set its hour).
    pub daily_bell: Arc<tokio::sync::Notify>,
}

/// How often the daily puzzle's poster looks for posts due (and for posts whose claim lapsed).
const DAILY_EVERY: Duration = Duration::from_secs(60);

/// What to send when an operation is slow enough to need a defer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defer {
    /// A loading message (commands): the answer comes as a followup.
    Message,
    /// No visible change (buttons): the answer then edits the clicked message.
    Update,
    /// A loading message only its caller sees: the answer is private (a daily puzzle's).
    Private,
}

/// After this long without a result, the interaction is deferred so Discord's 3 s window
/// is never missed. Refusals are found well before (they need no write), so they stay
/// ephemeral.
pub(crate) const DEFER_AFTER: Duration = Duration::from_millis(1500);

impl Data {
    /// Runs `op` with the game service and the renderer on tokio's blocking pool (SQLite and rendering never
    /// block a runtime worker). When it takes longer than `DEFER_AFTER` (1.5 s), the interaction is
    /// deferred first (`defer`), so the first answer always arrives in time. The notices its
    /// operations commit are posted after the interaction's answer
    /// (`Responder::after_answer`).
    pub async fn blocking<T, F>(
        &self,
        responder: &reply::Responder<'_>,
        defer: Defer,
        op: F,
    ) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&view::Ops) -> Result<T, Error> + Send + 'static,
    {
        let ops = view::Ops {
            game: self.game.clone(),
            renderer: self.renderer,
            attachment_limit: responder.attachment_limit(),
            notices: std::sync::Mutex::new(Vec::new()),
        };
        // The notices its operations commit (a game's summary in its channel) wait for the
        // interaction's answer.
        let mut task = tokio::task::spawn_blocking(move || {
            let mut result = op(&ops);
            let mut notices = ops.notices.into_inner().unwrap_or_else(|p| p.into_inner());
            // A refusal that ended the game on time leaves that ending's notices.
            if let Err(Error::Game(crate::game::GameError::TimeRanOut { notices: ended })) =
                &mut result
            {
                notices.append(ended);
            }
            (result, notices)
        });
        let joined = tokio::select! {
            joined = &mut task => joined,
            // From when the interaction's handling began, not from now: work done before this
            // call (reading the server's language) counts against Discord's 3 s too.
            () = tokio::time::sleep_until((responder.received() + DEFER_AFTER).into()) => {
                let deferred = match defer {
                    Defer::Message => responder.defer(false).await,
                    Defer::Update => responder.defer_update().await,
                    Defer::Private => responder.defer(true).await,
                };
                if let Err(e) = deferred {
                    tracing::warn!(interaction = %responder.id(), error = %reply::scrubbed(&e), "could not defer");
                }
                task.await
            }
        };
        let (result, notices) =
            joined.map_err(|e| Error::Failed(anyhow::anyhow!("blocking task failed: {e}")))?;
        if !notices.is_empty() {
            let game = self.game.clone();
            responder.after_answer(Box::new(move || game.post_notices(notices)));
        }
        result
    }
}

/// How long a shutdown waits for the interactions in flight.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Runs the bot until SIGINT/SIGTERM, serving its metrics on `metrics` when given
/// (`CAJITAS_METRICS`). Blocks the calling thread.
pub fn run(config: BotConfig, metrics: Option<crate::telemetry::Endpoint>) -> anyhow::Result<()> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Two async workers at most (tokio's default is one per core): they parse and send,
        // the blocking pool does the work, and each worker keeps a malloc arena of its own.
        .worker_threads(crate::config::default_threads(cores))
        // The game service and rendering (tokio's blocking pool). The service serialises on
        // one SQLite connection: more threads than cores only kept their own malloc arenas
        // (each holding a rendered board's buffers): peak RSS under the discord bench was
        // 43 MB with 8, 36-40 MB with 4, 33 MB with 2 on a 2-core host.
        .max_blocking_threads(config.blocking_threads)
        .thread_name("cajitas")
        .build()?;
    runtime.block_on(run_async(config, metrics))
}

/// All the slash commands, in the order `/help` lists them.
/// Their descriptions and Spanish localisations come from Fluent (`commands.ftl`).
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    let mut commands = vec![
        challenge::challenge(),
        challenge::accept(),
        challenge::decline(),
        challenge::cancel(),
        moves::move_(),
        info::board(),
        resign::resign(),
        draw::draw(),
        takeback::takeback(),
        resign::abort(),
        clocks::claim_win(),
        engine::play(),
        engine::analysis(),
        info::pgn(),
        info::gif(),
        info::history(),
        ratings::leaderboard(),
        ratings::stats(),
        puzzle::puzzle(),
        arena::arena(),
        roundrobin::roundrobin(),
        settings::settings(),
        help::help(),
    ];
    localize::localize(&mut commands);
    commands
}

async fn run_async(
    config: BotConfig,
    metrics: Option<crate::telemetry::Endpoint>,
) -> anyhow::Result<()> {
    // Listen for SIGTERM/SIGINT before anything slow (the renderer, the database, the
    // gateway): a signal that arrives while the bot starts is kept for the shutdown task
    // below instead of killing the process with the default action.
    let mut signals = Signals::listen();
    tracing::debug!("listening for SIGTERM and SIGINT");
    let metrics = match metrics {
        Some(endpoint) => {
            let addr = endpoint.local_addr()?;
            let server = endpoint.serve(crate::telemetry::install()?)?;
            if addr.ip().is_loopback() {
                tracing::info!(%addr, "metrics served at http://{addr}/metrics");
            } else {
                tracing::info!(%addr, "metrics served at http://{addr}/metrics, beyond this machine \
                    (an address written in {}): keep it behind a firewall", crate::config::METRICS_VAR);
            }
            Some(server)
        }
        None => None,
    };
    if let Some(base) = config.api_base.as_ref().filter(|b| b.trusted_proxy) {
        tracing::warn!(
            api_base = %base.redacted(),
            "every REST call goes to the trusted proxy named by {}; \
             the proxy must keep to Discord's rate limits",
            crate::config::API_BASE_TRUSTED_VAR
        );
    }
    let http = http_client(&config);
    // This process's share of the bot's global REST limit, unless a trusted proxy keeps it.
    let trusted_proxy = config.api_base.as_ref().is_some_and(|b| b.trusted_proxy);
    budget::install((!trusted_proxy).then(|| match config.shards {
        Some(r) => budget::RestBudget::share(r.count(), r.total),
        None => budget::RestBudget::share(1, 1),
    }));

    // The pieces (CAJITAS_PIECES: a built-in set or a folder), their sprites and the empty
    // board are made once, before the first move needs them.
    let pieces = config.pieces.clone();
    let renderer = tokio::task::spawn_blocking(move || -> anyhow::Result<&'static Renderer> {
        let r: &'static Renderer = match pieces {
            crate::render::PieceSource::Cajitas => crate::render::default_renderer(),
            other => Box::leak(Box::new(Renderer::with_pieces(&other).map_err(|e| {
                anyhow::anyhow!(
                    "cannot load the pieces named by {}: {e}",
                    crate::config::PIECES_VAR
                )
            })?)),
        };
        if let Err(e) = r.prepare(&crate::render::RenderOptions::default()) {
            tracing::warn!(error = %e, "could not prepare the renderer");
        }
        Ok(r)
    })
    .await??;

    // Posts outside an interaction go through their own client with the same settings.
    let notifier = Arc::new(DiscordNotifier::new(
        Arc::new(http_client(&config)),
        renderer,
        tokio::runtime::Handle::current(),
    ));
    let game = {
        let db = config.db.clone();
        let engine_settings = config.engine.clone();
        // The engine's processes start with their first search; its player is prepared now
        // so that the service is opened with its port.
        let engine = crate::engine::pool_from(&engine_settings)
            .map(|pool| (pool, crate::engine::EnginePlayer::prepare()));
        // The scheduler's lag, for the metrics.
        let observer: Option<crate::game::EventObserver> = metrics.as_ref().map(|_| {
            Arc::new(|kind: crate::store::EventKind, lag_ms: i64| {
                ::metrics::histogram!(crate::telemetry::SCHEDULER_LAG, "kind" => kind.as_str())
                    .record(lag_ms as f64 / 1000.0);
            }) as crate::game::EventObserver
        });
        let opts = ServiceOptions {
            challenge_ttl: config.challenge_ttl,
            notifier,
            abandon_after: config.abandon_after,
            engine_name: crate::engine::player_name(&config.engine),
            engine_games_per_user: config.engine.games_per_user,
            engine_turns: engine.as_ref().map(|(_, player)| player.turns()),
            event_observer: observer,
            ..ServiceOptions::default()
        };
        let clock = opts.clock.clone();
        tokio::task::spawn_blocking(move || {
            let game = GameService::open_db(&db, opts).map_err(|e| {
                anyhow::anyhow!(
                    "cannot open the database {}: {}",
                    crate::config::describe_db(&db),
                    e.chain()
                )
            })?;
            let books = Arc::new(Bookkeeping::new(game.shared_store(), clock));
            // The ids handled are also pruned hourly while the bot runs (see
            // `Bookkeeping::first_delivery`).
            if let Err(e) = books.forget_interactions(HANDLED_INTERACTIONS_KEPT) {
                tracing::warn!(error = %e, "could not prune the handled interactions");
            }
            // The player looks at the games against the engine now (an engine whose turn it
            // is moves at once).
            let engine = engine.map(|(pool, player)| engine::Engine {
                // The console's games (`cajitas local` on the same database) are its own.
                player: Arc::new(player.start_in(
                    game.clone(),
                    pool.clone(),
                    crate::engine::player::RETRY_EVERY,
                    crate::game::EventScope::Except(crate::console::local_channel().channel),
                )),
                pool,
                analyses: crate::engine::AnalysisQueue::new(engine_settings.analyses),
                budget: crate::engine::Budget::nodes(engine_settings.analysis_nodes),
            });
            Ok::<_, anyhow::Error>((game, books, engine))
        })
        .await??
    };
    let (game, bookkeeping, engine) = game;
    // The finished games are searched for puzzles at idle priority while the bot runs (see
    // `engine::searcher`); the thread stops when this is dropped, at the end of `run`.
    let _searcher = engine.as_ref().map(|e| {
        crate::engine::searcher::PuzzleSearcher::start(
            game.clone(),
            e.pool.clone(),
            crate::engine::puzzler::DEFAULT_NODES,
            crate::engine::searcher::LOOK_EVERY,
        )
    });
    // What a scrape reads fresh (set once the client's shard manager exists).
    let sampled = (game.clone(), engine.as_ref().map(|e| e.pool.clone()));
    match &config.engine.program {
        Some(p) => {
            tracing::info!(engine = %p.display(), processes = config.engine.processes, "chess engine found")
        }
        None => tracing::info!("no chess engine: /play and /analysis say how to install one"),
    }
    // Timeouts and reminders of every game but `cajitas local`'s (channel `local`, whose own
    // scheduler handles them): one blocking thread (see `game::scheduler`).
    let scheduler = crate::game::Scheduler::start(
        game.clone(),
        crate::game::EventScope::Except(crate::console::local_channel().channel),
    );

    // With PostgreSQL, a deadline another process sets wakes this one's scheduler too.
    if let Some(coordination) = bookkeeping.coordination() {
        match coordination.listen_deadlines() {
            Ok(wakeups) => scheduler.follow(wakeups),
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for the other processes' deadlines")
            }
        }
    }

    // The daily puzzles: claimed and posted every minute, and at once when a server sets its
    // hour (see `game::Daily`: each day's post goes out once across processes).
    let daily_bell = Arc::new(tokio::sync::Notify::new());
    {
        let (game, books, bell) = (
            game.clone(),
            Arc::clone(&bookkeeping),
            Arc::clone(&daily_bell),
        );
        let http = Arc::new(http_client(&config));
        tokio::spawn(async move {
            let mut every = tokio::time::interval(DAILY_EVERY);
            loop {
                tokio::select! {
                    _ = every.tick() => {}
                    () = bell.notified() => {}
                }
                commands::puzzle::post_dailies(&game, &books, renderer, &http).await;
            }
        });
    }

    let message_moves = config.message_moves;
    let config_shards = config.shards;
    // Several processes share a PostgreSQL database: their IDENTIFYs take turns.
    let coordination = if config_shards.is_some() {
        bookkeeping.coordination()
    } else {
        None
    };
    let books_for_gate = Arc::clone(&bookkeeping);
    let options = poise::FrameworkOptions {
        commands: commands(),
        on_error: |e| Box::pin(errors::on_error(e)),
        event_handler: |framework, event| Box::pin(router::on_event(framework, event)),
        // Owners are not used; this saves a REST call at start.
        initialize_owners: false,
        ..Default::default()
    };
    let framework = poise::Framework::new(options, move |ctx, ready, framework| {
        Box::pin(async move {
            let data = Data {
                config,
                game,
                renderer,
                bookkeeping,
                engine,
                daily_bell,
            };
            // Never fails: a failed setup would leave poise waiting forever for its data.
            setup::on_ready(ctx, ready, framework, &data).await;
            Ok(data)
        })
    });
    let gate = gate::Gate::new(framework, books_for_gate);
    let tracker = gate.tracker();

    // GUILDS only, unless moves typed as messages were asked for (Message Content is a
    // privileged intent: it must also be enabled in the developer portal).
    let intents = if message_moves {
        tracing::info!("moves typed as plain messages are read (CAJITAS_MESSAGE_MOVES)");
        serenity::GatewayIntents::GUILDS
            | serenity::GatewayIntents::GUILD_MESSAGES
            | serenity::GatewayIntents::MESSAGE_CONTENT
    } else {
        serenity::GatewayIntents::GUILDS
    };
    let mut client = serenity::ClientBuilder::new_with_http(http, intents).framework(gate);
    if metrics.is_some() {
        // serenity hands its ratelimiter's reports to the client's event handlers only.
        client = client.event_handler(telemetry::RateLimits);
    }
    let mut client = client.await?;
    if let Some(server) = &metrics {
        let (game, pool) = sampled;
        server.set_refresh(telemetry::refresh(
            game,
            pool,
            Arc::clone(&client.shard_manager),
        ));
    }

    let shard_manager = Arc::clone(&client.shard_manager);
    let signal_tracker = tracker.clone();
    let stopped = Arc::new(tokio::sync::Notify::new());
    let stop = Arc::clone(&stopped);
    tokio::spawn(async move {
        let signal = signals.next().await;
        tracing::info!(%signal, "shutting down: no new interactions, finishing the ones in flight");
        signal_tracker.close();
        // A second signal ends the process at once, whatever is still running.
        tokio::spawn(async move {
            let signal = signals.next().await;
            tracing::warn!(%signal, "second signal: stopping now");
            std::process::exit(if signal == "SIGINT" { 130 } else { 143 });
        });
        if !signal_tracker.wait_idle(SHUTDOWN_GRACE).await {
            tracing::warn!(
                in_flight = signal_tracker.in_flight(),
                "interactions still in flight after {SHUTDOWN_GRACE:?}; stopping anyway"
            );
        }
        shard_manager.shutdown_all().await;
        // When no shard ever connected, `shutdown_all` returns at once and `client.start()`
        // never does (it keeps retrying the gateway): this ends the wait for it.
        stop.notify_one();
    });

    tokio::select! {
        started = shards::run(&mut client, config_shards, coordination) => started?,
        () = stopped.notified() => {}
    }
    // The gateway is closed; handlers that were still running get their bounded wait.
    tracker.close();
    tracker.wait_idle(SHUTDOWN_GRACE).await;
    drop(client);
    // Its round in progress (if any) finishes; then the thread ends.
    let _ = tokio::task::spawn_blocking(move || scheduler.stop()).await;
    tracing::info!("stopped");
    Ok(())
}
