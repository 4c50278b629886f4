//! `/arena create|join|pause|withdraw|berserk|standings`: lichess's arena in a channel (the
//! service's `Tournaments`). The waves are the scheduler's; each pairing's thread is opened by
//! the notifier (`present/notify.rs`), which moves the game into it.

use poise::serenity_prelude as serenity;

use crate::discord::interaction::call::{Asked, Call, Click};
use crate::discord::interaction::custom_id::ButtonId;
use crate::discord::interaction::reply::{MAX_CONTENT, Reply, cap_chars, channel_message};
use crate::discord::present::threads::post_in;
use crate::discord::{Context, Defer, Error};
use crate::game::ArenaTerms;
use crate::i18n::tournaments;
use crate::tr;

/// Players per page of `/arena standings`.
const STANDINGS_PAGE: usize = 20;

/// How long an arena lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Length {
    /// 30 minutes.
    #[name = "30 min"]
    Thirty,
    /// 45 minutes.
    #[name = "45 min"]
    FortyFive,
    /// 60 minutes.
    #[name = "60 min"]
    Sixty,
    /// 90 minutes.
    #[name = "90 min"]
    Ninety,
}

impl Length {
    fn minutes(self) -> u32 {
        match self {
            Length::Thirty => 30,
            Length::FortyFive => 45,
            Length::Sixty => 60,
            Length::Ninety => 90,
        }
    }
}

/// An arena: play as many games as you can in the time; the most points win
#[poise::command(
    slash_command,
    subcommands("create", "join", "pause", "withdraw", "berserk", "standings")
)]
pub async fn arena(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Make an arena in this channel (Manage Server, or the role /settings names)
#[poise::command(slash_command)]
pub async fn create(
    ctx: Context<'_>,
    #[description = "How long it lasts"] duration: Length,
    #[description = "The live clock of its games"] time: crate::discord::commands::clocks::Time,
    #[description = "Whether its games count for the ratings (rated by default)"] rated: Option<
        bool,
    >,
    #[description = "Minutes until it starts (5 by default)"]
    #[rename = "starts_in"]
    #[min = 0]
    #[max = 1440]
    starts_in: Option<u32>,
    #[description = "Its name"]
    #[max_length = 50]
    name: Option<String>,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let member = call.actx.interaction.member.as_ref();
    let may_manage = member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild());
    // Else the role `/settings arena-role` names.
    let role = match (may_manage, call.place.guild) {
        (false, Some(guild)) => {
            let books = std::sync::Arc::clone(&call.data().bookkeeping);
            tokio::task::spawn_blocking(move || {
                books
                    .setting(&crate::discord::commands::settings::arena_role_key(guild))
                    .ok()
                    .flatten()
                    .and_then(|v| v.parse::<u64>().ok())
            })
            .await
            .ok()
            .flatten()
        }
        _ => None,
    };
    let has_role =
        role.is_some_and(|role| member.is_some_and(|m| m.roles.iter().any(|r| r.get() == role)));
    if !may_manage && !has_role {
        call.r
            .send(Reply::ephemeral(tr!(call.r.lang(), "arena-need-manage")))
            .await?;
        return Ok(());
    }
    let time: crate::game::TimeControl = time.into();
    let terms = ArenaTerms {
        minutes: duration.minutes(),
        time,
        rated: rated.unwrap_or(true),
        starts_in,
        name: Some(name.unwrap_or_else(|| tournaments::default_arena_name(lang, time))),
    };
    let shown_terms = terms.clone();
    let (view, standings) = call
        .blocking(Defer::Message, move |g, actor, ch| {
            let view = g.tournaments().create_arena(actor, ch, &terms, lang)?;
            let standings = g.tournaments().standings_of(view.id)?;
            Ok((view, standings))
        })
        .await?;
    let join = ButtonId::ArenaJoin {
        tournament: view.id,
    };
    call.send(Reply {
        components: vec![serenity::CreateActionRow::Buttons(vec![
            join.button(&tr!(lang, "button-join"), serenity::ButtonStyle::Success),
        ])],
        ..Reply::text(tournaments::created_line(lang, &view, &shown_terms))
    })
    .await?;
    // The live standings post, edited by the scheduler as they change (at most every 5 s).
    let text = tournaments::standings_lines(lang, &standings).join("\n");
    let post = channel_message(Reply::text(text));
    match post_in(call.http(), view.place.channel, post).await {
        Ok(m) => {
            let (game, id, message) = (call.data().game.clone(), view.id, m.id.get());
            let recorded = tokio::task::spawn_blocking(move || {
                game.tournaments().set_standings_message(id, message)
            })
            .await;
            if !matches!(recorded, Ok(Ok(()))) {
                tracing::warn!(tournament = id, "could not record the standings post");
            }
        }
        Err(e) => {
            tracing::warn!(tournament = view.id, error = %crate::discord::interaction::reply::scrubbed(&e), "could not post the live standings");
        }
    }
    scheduled_event(&call, &view, lang).await
}

/// A Discord scheduled event for an arena that starts later, so the server's members get
/// Discord's own reminder. Without the permission to create events, its maker is told once,
/// privately, and the arena goes on without one.
async fn scheduled_event(
    call: &Call<'_>,
    view: &crate::game::TournamentView,
    lang: crate::game::Lang,
) -> Result<(), Error> {
    let (Some(guild), Some(ends_at)) = (view.place.guild, view.ends_at) else {
        return Ok(());
    };
    let now = crate::game::Clock::now_ms(&crate::game::SystemClock);
    // Discord refuses an event that starts in the past; an arena that starts now needs none.
    if view.starts_at < now + 60_000 {
        return Ok(());
    }
    let time = |ms: i64| serenity::Timestamp::from_unix_timestamp(ms / 1000);
    let (Ok(start), Ok(end)) = (time(view.starts_at), time(ends_at)) else {
        return Ok(());
    };
    let location = format!(
        "https://discord.com/channels/{guild}/{}",
        view.place.channel
    );
    let event = serenity::CreateScheduledEvent::new(
        serenity::ScheduledEventType::External,
        view.name.clone(),
        start,
    )
    .end_time(end)
    .location(location)
    .description(tournaments::event_description(lang, view));
    crate::discord::interaction::budget::take().await;
    if let Err(e) = serenity::GuildId::new(guild)
        .create_scheduled_event(call.http(), event)
        .await
    {
        tracing::info!(guild, error = %crate::discord::interaction::reply::scrubbed(&e), "no scheduled event for the arena");
        call.r
            .send(Reply::ephemeral(tr!(call.r.lang(), "arena-no-event")))
            .await?;
    }
    Ok(())
}

/// Join this channel's arena (or come back after a pause)
#[poise::command(slash_command)]
pub async fn join(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let view = call
        .blocking(Defer::Message, |g, actor, ch| {
            Ok(g.tournaments().join(actor, ch)?)
        })
        .await?;
    call.send(Reply::text(tournaments::joined_line(lang, &view)))
        .await
}

/// The Join button of an arena's announcement.
pub async fn join_button(c: &Click<'_>, tournament: i64) -> Result<(), Error> {
    let lang = c.public_lang().await;
    let view = c
        .blocking(Defer::Message, move |g, actor, ch| {
            Ok(g.tournaments().join_at(actor, ch, Some(tournament))?)
        })
        .await?;
    c.send(Reply::text(tournaments::joined_line(lang, &view)))
        .await
}

/// Pause: not paired until you join again
#[poise::command(slash_command)]
pub async fn pause(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.r.lang();
    let view = call
        .blocking(Defer::Private, |g, actor, ch| {
            Ok(g.tournaments().pause(actor, ch)?)
        })
        .await?;
    call.send(Reply::ephemeral(tournaments::paused_line(lang, &view)))
        .await
}

/// Leave this channel's arena (your points stay)
#[poise::command(slash_command)]
pub async fn withdraw(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.r.lang();
    let view = call
        .blocking(Defer::Private, |g, actor, ch| {
            Ok(g.tournaments().withdraw(actor, ch)?)
        })
        .await?;
    call.send(Reply::ephemeral(tournaments::withdrawn_line(lang, &view)))
        .await
}

/// Berserk: halve your clock before your first move; a long enough win scores one more
#[poise::command(slash_command)]
pub async fn berserk(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let shown = call
        .blocking(Defer::Message, |g, actor, _| {
            Ok(g.show(g.tournaments().berserk(actor)?)?)
        })
        .await?;
    let view = shown.view.clone();
    let reply =
        crate::discord::present::view::game_reply(tournaments::berserk_line(lang), shown, lang);
    call.send_game(&view, reply).await
}

/// This channel's arena standings
#[poise::command(slash_command)]
pub async fn standings(
    ctx: Context<'_>,
    #[description = "The page (20 players a page; the first by default)"]
    #[min = 1]
    #[max = 1000]
    page: Option<u32>,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.r.lang();
    let s = call
        .blocking(Defer::Message, |g, _, ch| {
            Ok(g.tournaments().standings(ch)?)
        })
        .await?;
    let page = page.unwrap_or(1).saturating_sub(1) as usize;
    let text = tournaments::standings_page(lang, &s, page, STANDINGS_PAGE).join("\n");
    // A line is at most a name (100) and a sheet: 20 of them stay within Discord's 2,000
    // characters but for the longest sheets, which the cap cuts.
    call.send(Reply::text(cap_chars(&text, MAX_CONTENT))).await
}
