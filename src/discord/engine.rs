//! `/play` (a game against the computer) and `/analysis` (the channel's last finished game,
//! analysed by the engine). Without an engine both answer, ephemerally, how to add one.
//!
//! The engine's moves are posted by the engine room through the service's notifier; the
//! analysis runs on a thread of its own (never the runtime's, never the blocking pool),
//! while this handler edits the deferred reply with its progress at most every 2 s.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::challenge::Colour;
use super::errors::responder;
use super::reply::{Reply, cap_chars};
use super::view::game_reply;
use super::who::{channel_ref, mention, player_in, user_ref};
use super::{Context, Defer, Error};
use crate::engine::{Budget, EnginePlayer, Pool, analyse, report};
use crate::game::{ColourChoice, UserRef, engine_user_id};
use crate::i18n::colour_key;
use crate::tr;

/// The engine, when the bot has one.
pub struct Engine {
    /// The processes.
    pub pool: Pool,
    /// The computer as a player (kept alive here).
    pub player: Arc<EnginePlayer>,
}

/// How often the analysis reply is edited with its progress, at most.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// The chart's file name.
pub const CHART_FILE: &str = "analysis.png";

/// Play the computer in this channel
#[poise::command(slash_command)]
pub async fn play(
    ctx: Context<'_>,
    #[description = "Its strength, 1 (weakest) to 8 (strongest)"]
    #[min = 1]
    #[max = 8]
    level: Option<u8>,
    #[description = "Your colour (random by default)"] colour: Option<Colour>,
) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let r = responder(&actx);
    if ctx.data().engine.is_none() {
        r.send(Reply::ephemeral(tr!(r.lang(), "engine-missing")))
            .await?;
        return Ok(());
    }
    let actor = user_ref(ctx.author());
    let who = mention(&actor);
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let lang = ctx.data().langs(ch.guild, ctx.locale()).await.public;
    let level = level.unwrap_or(1).clamp(1, 8);
    let colour: ColourChoice = colour.map(Into::into).unwrap_or_default();
    let me = actor.id;
    let shown = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| {
            let view = g.play_engine(&actor, ch, level, colour, lang)?;
            Ok(g.show(view)?)
        })
        .await?;
    let human = if shown.view.white.id == me {
        cajitas_rules::Color::White
    } else {
        cajitas_rules::Color::Black
    };
    let engine = UserRef::new(engine_user_id(level), crate::game::ENGINE_NAME, true);
    let content = tr!(
        lang,
        "play-started",
        who = who,
        engine = player_in(&engine, lang),
        colour = colour_key(human)
    );
    r.send(game_reply(content, &shown, lang)).await?;
    Ok(())
}

/// Analyse this channel's last finished game with the engine
#[poise::command(slash_command)]
pub async fn analysis(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let r = responder(&actx);
    let Some(pool) = ctx.data().engine.as_ref().map(|e| e.pool.clone()) else {
        r.send(Reply::ephemeral(tr!(r.lang(), "engine-missing")))
            .await?;
        return Ok(());
    };
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let lang = ctx.data().langs(ch.guild, ctx.locale()).await.public;
    let game = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| Ok(g.last_finished_game(ch)?))
        .await?;
    // The answer takes seconds: a deferred reply, edited as the engine works.
    r.defer(false).await?;
    let total = game.game.moves().len() + 1;
    let (progress_tx, mut progress) = tokio::sync::watch::channel(0usize);
    let (done_tx, done) = tokio::sync::oneshot::channel();
    let (white, black, result) = (
        game.white.name.clone(),
        game.black.name.clone(),
        game.result.clone(),
    );
    let names = (white.clone(), black.clone());
    std::thread::Builder::new()
        .name("cajitas-analysis".into())
        .spawn(move || {
            let out = analyse(&pool, &game.game, Budget::default(), |d, _| {
                let _ = progress_tx.send(d);
            })
            .map(|a| {
                let words = report::report(&a, &names.0, &names.1, &result, lang);
                (words, report::chart(&a))
            });
            let _ = done_tx.send(out);
        })
        .map_err(|e| Error::Failed(anyhow::anyhow!("analysis thread: {e}")))?;
    let mut tick = tokio::time::interval(PROGRESS_EVERY);
    tick.tick().await;
    let mut shown = usize::MAX;
    tokio::pin!(done);
    let outcome = loop {
        tokio::select! {
            out = &mut done => break out,
            _ = tick.tick() => {
                let now = *progress.borrow_and_update();
                if now != shown {
                    shown = now;
                    let text = tr!(lang, "analysis-progress",
                        done = crate::i18n::num(now as f64), total = crate::i18n::num(total as f64));
                    if let Err(e) = r.update(Reply::text(text)).await {
                        tracing::warn!(error = %super::reply::scrubbed(&e), "could not show the analysis progress");
                    }
                }
            }
        }
    };
    match outcome {
        Ok(Ok((words, png))) => {
            let mut embed = serenity::CreateEmbed::new()
                .title(cap_chars(&words.title, 256))
                .description(cap_chars(&words.sides.join("\n"), 4000))
                .field(
                    cap_chars(&words.worst_title, 256),
                    cap_chars(&words.worst.join("\n"), 1024),
                    false,
                )
                .colour(0x5865F2);
            embed = embed.image(format!("attachment://{CHART_FILE}"));
            r.update(Reply {
                content: String::new(),
                embeds: vec![embed],
                attachments: vec![
                    serenity::CreateAttachment::bytes(png, CHART_FILE)
                        .description(tr!(lang, "analysis-chart")),
                ],
                ..Reply::default()
            })
            .await?;
        }
        Ok(Err(e)) => {
            tracing::warn!(error = %e, white, black, "analysis failed");
            r.update(Reply::text(tr!(lang, "analysis-failed"))).await?;
        }
        Err(_) => {
            r.update(Reply::text(tr!(lang, "analysis-failed"))).await?;
        }
    }
    Ok(())
}
