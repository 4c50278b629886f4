//! `/play` (a game against the computer), the Rematch of such a game (a new game, colours
//! swapped, started the same way), and `/analysis` (the caller's last finished game of the
//! channel, or the channel's, analysed by the engine). Without an engine they answer,
//! ephemerally, how to add one.
//!
//! Where games get threads (`CAJITAS_THREADS=auto` and the permissions), a game against the
//! computer gets one too, as an accepted challenge does: opened on `/play`'s answer, with
//! the same fallback to the channel; its end leaves the same summary in the channel.
//! The engine's moves are posted by the engine room through the service's notifier, in the
//! game's thread (or channel); the
//! analysis runs on a thread of its own (never the runtime's, never the blocking pool),
//! while this handler edits the deferred reply with its progress at most every 2 s.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::choices::{Colour, VariantChoice, variant_of};
use crate::discord::interaction::call::{Asked, Call, Click};
use crate::discord::interaction::reply::Responder;
use crate::discord::interaction::reply::{Reply, cap_chars, channel_message};
use crate::discord::present::threads::{self, Opened, Where};
use crate::discord::present::view::game_reply;
use crate::discord::present::who::{mention, player_in};
use crate::discord::{Context, Data, Defer, Error};
use crate::engine::{Analysis, AnalysisQueue, Budget, EnginePlayer, Pool, analyse, report};
use crate::game::{ColourChoice, EngineRematch, Lang, Place, UserRef, Variant, engine_user_id};
use crate::i18n::colour_key;
use crate::tr;

/// The engine, when the bot has one.
pub struct Engine {
    /// The processes.
    pub pool: Pool,
    /// The computer as a player (kept alive here).
    pub player: Arc<EnginePlayer>,
    /// Who may analyse now.
    pub analyses: AnalysisQueue,
    /// Each analysis's budget per position (`CAJITAS_ANALYSIS_NODES`).
    pub budget: Budget,
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
    #[description = "Standard chess or Chess960 (standard by default)"] variant: Option<
        VariantChoice,
    >,
    #[description = "The Chess960 start position, 0 to 959 (random by default)"]
    #[min = 0]
    #[max = 959]
    position: Option<u32>,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let data = call.data();
    if data.engine.is_none() {
        let text = tr!(call.r.lang(), "engine-missing");
        return call.send(Reply::ephemeral(text)).await;
    }
    let start = EngineStart {
        actor: call.actor.clone(),
        w: call.where_typed(),
        level: level.unwrap_or(1).clamp(1, 8),
        colour: colour.map(Into::into).unwrap_or_default(),
        variant: variant_of(variant, position),
        lang: call.public_lang().await,
        via: Via::Answer,
        here: call.place.channel,
    };
    start_engine(data, &call.r, call.http(), start).await
}

/// The Rematch button of a finished game against the computer: a new game at the same
/// level, the colours swapped, started in the game's channel as `/play` starts one (in a
/// thread of its own where games get threads).
pub async fn rematch(c: &Click<'_>, again: EngineRematch, lang: Lang) -> Result<(), Error> {
    let data = c.data;
    if data.engine.is_none() {
        return c
            .send(Reply::ephemeral(tr!(c.r.lang(), "engine-missing")))
            .await;
    }
    let threads = threads::threads_allowed(data, c.click.app_permissions);
    let w = Where {
        place: Place {
            at: again.home,
            parent: None,
            threads,
        },
        lacks_permission: data.config.threads && !threads,
    };
    let start = EngineStart {
        actor: c.actor.clone(),
        w,
        level: again.level,
        colour: again.colour,
        variant: again.variant,
        lang,
        via: Via::Post,
        here: c.place.channel,
    };
    start_engine(data, c.r, c.http, start).await
}

/// How a new game against the computer is announced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Via {
    /// `/play`: by the interaction's answer (the game's thread is opened on it).
    Answer,
    /// A Rematch button: by a post in the channel (the game's thread is opened on it); the
    /// click is answered with a link.
    Post,
}

/// A game against the computer to start.
struct EngineStart {
    actor: UserRef,
    /// Where it starts.
    w: Where,
    level: u8,
    colour: ColourChoice,
    /// Standard chess or Chess960 (the engine then searches with `UCI_Chess960` on).
    variant: Variant,
    lang: Lang,
    via: Via,
    /// The channel or thread of the interaction.
    here: u64,
}

/// Starts a game against the computer: where games get threads, its thread is opened first
/// (on the answer, or on a post in the channel), after checking that the game can start;
/// where it cannot be opened, the game is played in the channel.
async fn start_engine(
    data: &Data,
    r: &Responder<'_>,
    http: &serenity::Http,
    start: EngineStart,
) -> Result<(), Error> {
    let EngineStart {
        actor,
        w,
        level,
        colour,
        variant,
        lang,
        via,
        here,
    } = start;
    let defer = match via {
        Via::Answer => Defer::Message,
        Via::Post => Defer::Update,
    };
    let who = mention(&actor);
    let me = actor.id;
    let engine = UserRef::new(
        engine_user_id(level),
        &data.game.options().engine_name,
        true,
    );
    let mut place = w.place;
    let mut explain = w.lacks_permission;
    let mut thread = None;
    let mut named = None;
    let mut posted = None;
    if place.threads {
        // Refusals first (read only): a thread is opened only for a game that can start.
        let (a, p) = (actor.clone(), place);
        data.blocking(r, defer, move |g| Ok(g.engine().engine_playable(&a, p)?))
            .await?;
        // The message the game's thread is opened on, as a challenge's is.
        let opening = tr!(
            lang,
            "play-opening",
            who = who.clone(),
            engine = player_in(&engine, lang)
        );
        let message = match via {
            Via::Answer => {
                r.send(Reply {
                    mentions: vec![me],
                    ..Reply::text(opening)
                })
                .await?;
                r.original_message().await
            }
            Via::Post => {
                let opening = format!("{} {opening}", tr!(lang, "rematch-title"));
                let reply = Reply {
                    mentions: vec![me],
                    ..Reply::text(opening)
                };
                threads::post_in(http, place.at.channel, channel_message(reply))
                    .await
                    .map(|m| m.id.get())
                    .inspect(|&m| posted = Some(m))
            }
        };
        let opened = match message {
            Ok(message) => {
                let now = data.game.options().clock.now_ms();
                // White first; a colour left to chance is tossed when the game starts, and
                // the thread renamed after the toss if need be.
                let (me_name, it) = (actor.name.clone(), player_in(&engine, lang));
                let name = match colour {
                    ColourChoice::Black => threads::thread_name(&it, &me_name, now, lang),
                    ColourChoice::White | ColourChoice::Random => {
                        threads::thread_name(&me_name, &it, now, lang)
                    }
                };
                named = Some((name.clone(), now));
                tokio::time::timeout(
                    OPEN_TIMEOUT,
                    threads::open(http, place.at.channel, message, &name),
                )
                .await
                .unwrap_or(Opened::Failed)
            }
            Err(e) => {
                tracing::warn!(error = %crate::discord::interaction::reply::scrubbed(&e), "could not post the message a game's thread opens on");
                Opened::Failed
            }
        };
        match opened {
            Opened::Thread(t) => thread = Some(t),
            Opened::Refused => {
                place.threads = false;
                explain = true;
            }
            Opened::Failed => place.threads = false,
        }
    }
    let started = data
        .blocking(r, defer, move |g| {
            let view = g.engine().play_engine_with(
                &actor,
                place,
                (level, colour, variant),
                lang,
                thread,
            )?;
            Ok(g.show(view)?)
        })
        .await;
    let shown = match started {
        Ok(shown) => shown,
        Err(e) => {
            // The opening message announced a game that did not start: it goes, and the
            // refusal comes ephemerally (poise's error hook).
            let deleted = match (via, posted) {
                (Via::Answer, _) if w.place.threads => r.delete_original().await,
                (Via::Post, Some(m)) => {
                    serenity::ChannelId::new(w.place.at.channel)
                        .delete_message(http, serenity::MessageId::new(m))
                        .await
                }
                _ => Ok(()),
            };
            if let Err(d) = deleted {
                tracing::warn!(error = %crate::discord::interaction::reply::scrubbed(&d), "could not delete the opening message of a game that did not start");
            }
            return Err(e);
        }
    };
    let human = if shown.view.white.id == me {
        cajitas_rules::Color::White
    } else {
        cajitas_rules::Color::Black
    };
    let content = tr!(
        lang,
        "play-started",
        who = who.clone(),
        engine = player_in(&engine, lang),
        colour = colour_key(human)
    );
    let view = shown.view.clone();
    match view.thread {
        Some(t) if view.elsewhere_than(w.place.at) => {
            // The game's thread gets the first board; the answer links to it.
            let board = game_reply(content, shown, lang);
            if let Err(e) = threads::post_in(http, t, channel_message(board)).await {
                tracing::warn!(thread = t, error = %crate::discord::interaction::reply::scrubbed(&e), "could not post the first board in the game's thread");
            }
            let text = tr!(
                lang,
                "play-in-thread",
                who = who,
                engine = player_in(&engine, lang),
                thread = threads::link(t)
            );
            match via {
                Via::Answer => {
                    r.update(Reply {
                        mentions: vec![me],
                        ..Reply::text(text)
                    })
                    .await?;
                }
                Via::Post => r.send(Reply::ephemeral(text)).await?,
            }
            if let Some((name, at)) = &named {
                threads::name_white_first(http, t, &view, name, *at, lang).await;
            }
        }
        _ => {
            // Played here: in a thread where it was typed, in a channel without threads, or
            // in the channel where the thread could not be opened (said once per channel
            // when for want of permissions).
            let explain = explain && threads::explain_once(data, place.at.channel).await;
            let content = if explain {
                format!("{}\n{content}", tr!(lang, "threads-fallback"))
            } else {
                content
            };
            let reply = game_reply(content, shown, lang);
            match via {
                Via::Answer if r.has_responded() => r.update(reply).await?,
                Via::Answer => r.send(reply).await?,
                // A rematch clicked in the finished game's thread: the board goes to the
                // channel, the click gets a link.
                Via::Post => threads::send_game(http, r, here, &view, reply).await?,
            }
        }
    }
    Ok(())
}

/// How long opening a game's thread may take.
const OPEN_TIMEOUT: Duration = Duration::from_secs(10);

/// What the analysis thread tells the handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Progress {
    /// Waiting its turn, this many analyses ahead.
    Queued(usize),
    /// Running: this many positions done.
    Running(usize),
}

/// Analyse this channel's last finished game with the engine
#[poise::command(slash_command)]
pub async fn analysis(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let r = &call.r;
    let Some((pool, analyses, budget)) = call
        .data()
        .engine
        .as_ref()
        .map(|e| (e.pool.clone(), e.analyses.clone(), e.budget))
    else {
        r.send(Reply::ephemeral(tr!(r.lang(), "engine-missing")))
            .await?;
        return Ok(());
    };
    let lang = call.public_lang().await;
    let key = budget.key();
    let (game, stored) = call
        .blocking(Defer::Message, move |g, actor, ch| {
            let game = g.engine().last_finished_game_for(actor, ch)?;
            let stored = g.engine().stored_analysis(game.game_id, &key)?;
            Ok((game, stored))
        })
        .await?;
    let (white, black, result) = (
        game.white.name.clone(),
        game.black.name.clone(),
        game.result.clone(),
    );
    // A game analysed before at this budget: the same report, at once.
    if let Some(a) = stored.and_then(|rec| Analysis::from_record(&game.game, &rec)) {
        let words = report::report(&a, &white, &black, &result, lang);
        return send_report(r, lang, words, report::chart(&a)).await;
    }
    // One analysis in progress per person; the rest wait their turn, told their place.
    let person = call.actor.id;
    let mut ticket = match analyses.enter(person) {
        Ok(t) => t,
        Err(crate::engine::AlreadyAnalysing) => {
            r.send(Reply::ephemeral(tr!(lang, "analysis-already-running")))
                .await?;
            return Ok(());
        }
    };
    // The answer takes seconds: a deferred reply, edited as the engine works.
    r.defer(false).await?;
    let total = game.game.moves().len() + 1;
    let first = if ticket.is_running() {
        Progress::Running(0)
    } else {
        Progress::Queued(ticket.ahead())
    };
    let (progress_tx, mut progress) = tokio::sync::watch::channel(first);
    let (done_tx, done) = tokio::sync::oneshot::channel();
    let names = (white.clone(), black.clone());
    let game_id = game.game_id;
    let service = call.data().game.clone();
    std::thread::Builder::new()
        .name("cajitas-analysis".into())
        .spawn(move || {
            ticket.wait_turn(|ahead| {
                let _ = progress_tx.send(Progress::Queued(ahead));
            });
            let _ = progress_tx.send(Progress::Running(0));
            let out = analyse(&pool, &game.game, budget, person, |d, _| {
                let _ = progress_tx.send(Progress::Running(d));
            });
            drop(ticket);
            let out = out.map(|a| {
                if let Err(e) =
                    service.engine().store_analysis(game_id, &budget.key(), &a.to_record())
                {
                    tracing::warn!(game = game_id, error = %e.chain(), "could not store the analysis");
                }
                let words = report::report(&a, &names.0, &names.1, &result, lang);
                (words, report::chart(&a))
            });
            let _ = done_tx.send(out);
        })
        .map_err(|e| Error::Failed(anyhow::anyhow!("analysis thread: {e}")))?;
    let mut tick = tokio::time::interval(PROGRESS_EVERY);
    tick.tick().await;
    let mut shown = None;
    tokio::pin!(done);
    let outcome = loop {
        tokio::select! {
            out = &mut done => break out,
            _ = tick.tick() => {
                let now = *progress.borrow_and_update();
                if shown != Some(now) {
                    shown = Some(now);
                    let text = match now {
                        Progress::Queued(ahead) => tr!(lang, "analysis-queued",
                            ahead = crate::i18n::num(ahead as f64)),
                        Progress::Running(done) => tr!(lang, "analysis-progress",
                            done = crate::i18n::num(done as f64),
                            total = crate::i18n::num(total as f64)),
                    };
                    if let Err(e) = r.update(Reply::text(text)).await {
                        tracing::warn!(error = %crate::discord::interaction::reply::scrubbed(&e), "could not show the analysis progress");
                    }
                }
            }
        }
    };
    match outcome {
        Ok(Ok((words, png))) => send_report(r, lang, words, png).await?,
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

/// Shows an analysis's report and chart as the answer (an edit of the deferred reply, or
/// the reply itself when nothing was deferred).
async fn send_report(
    r: &crate::discord::interaction::reply::Responder<'_>,
    lang: Lang,
    words: report::Report,
    png: Vec<u8>,
) -> Result<(), Error> {
    let embed = serenity::CreateEmbed::new()
        .title(cap_chars(&words.title, 256))
        .description(cap_chars(&words.lines().join("\n"), 4000))
        .field(
            cap_chars(&words.worst_title, 256),
            cap_chars(&words.worst.join("\n"), 1024),
            false,
        )
        .colour(0x5865F2)
        .image(format!("attachment://{CHART_FILE}"));
    let reply = Reply {
        content: String::new(),
        embeds: vec![embed],
        attachments: vec![
            serenity::CreateAttachment::bytes(png, CHART_FILE)
                .description(tr!(lang, "analysis-chart")),
        ],
        ..Reply::default()
    };
    if r.has_responded() {
        r.update(reply).await?;
    } else {
        r.send(reply).await?;
    }
    Ok(())
}
