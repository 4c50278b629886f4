//! `/leaderboard [speed]` (10 players a page, Previous/Next buttons for the caller, refused
//! once a rated game changed the pool) and `/stats [user]` (ratings per speed, results by
//! colour, peak, streak, the last games, and the rating chart as `rating.png`).

use poise::serenity_prelude as serenity;

use crate::discord::interaction::call::{Asked, Call, Click};
use crate::discord::interaction::custom_id::ButtonId;
use crate::discord::interaction::errors::Refusal;
use crate::discord::interaction::reply::{Reply, cap_chars};
use crate::discord::present::who::user_ref;
use crate::discord::{Context, Defer, Error};
use crate::game::ratings::{LeaderboardView, RANKED_MIN_GAMES, Speed, StatsView};
use crate::game::{GameError, Lang};
use crate::i18n::{Presentation, ratings};
use crate::render::chart::{Chart, rating_chart};
use crate::tr;

/// The chart's file name.
pub const CHART_FILE: &str = "rating.png";

/// A rating pool's speed, as the commands offer it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum SpeedChoice {
    /// Live clocks.
    #[name = "live"]
    Live,
    /// Correspondence and untimed games.
    #[name = "correspondence"]
    Correspondence,
    /// Chess960, every clock.
    #[name = "chess960"]
    Chess960,
}

impl From<SpeedChoice> for Speed {
    fn from(s: SpeedChoice) -> Speed {
        match s {
            SpeedChoice::Live => Speed::Live,
            SpeedChoice::Correspondence => Speed::Correspondence,
            SpeedChoice::Chess960 => Speed::Chess960,
        }
    }
}

/// The speed shown when none is asked for: correspondence, the speed of the default
/// challenge (3 days per move) and of untimed games.
const DEFAULT_SPEED: Speed = Speed::Correspondence;

/// A speed in a button's custom id.
pub fn speed_code(s: Speed) -> u8 {
    match s {
        Speed::Live => 0,
        Speed::Correspondence => 1,
        Speed::Chess960 => 2,
    }
}

/// The speed of a custom id's code.
pub fn speed_of_code(c: u8) -> Option<Speed> {
    match c {
        0 => Some(Speed::Live),
        1 => Some(Speed::Correspondence),
        2 => Some(Speed::Chess960),
        _ => None,
    }
}

/// The leaderboard message for `viewer`, in `lang`, with its page buttons.
fn leaderboard_reply(v: &LeaderboardView, viewer: u64, lang: Lang) -> Reply {
    let speed = v.speed.as_str();
    let mut lines: Vec<String> = v
        .entries
        .iter()
        .map(|e| ratings::leaderboard_line(lang, Presentation::Discord, e))
        .collect();
    if lines.is_empty() {
        lines.push(tr!(
            lang,
            "leaderboard-empty",
            min = crate::i18n::num(RANKED_MIN_GAMES)
        ));
    }
    lines.push(String::new());
    lines.push(ratings::standing_line(lang, &v.me));
    let embed = serenity::CreateEmbed::new()
        .title(tr!(lang, "leaderboard-title", speed = speed))
        .description(cap_chars(&lines.join("\n"), 4000))
        .footer(serenity::CreateEmbedFooter::new(tr!(
            lang,
            "leaderboard-page",
            page = crate::i18n::num(v.page + 1),
            pages = crate::i18n::num(v.pages)
        )))
        .colour(0x5865F2);
    let button = |page: u32| ButtonId::LeaderboardPage {
        speed: speed_code(v.speed),
        page,
        version: v.version,
        user: viewer,
    };
    let components = if v.pages > 1 {
        vec![serenity::CreateActionRow::Buttons(vec![
            button(v.page.saturating_sub(1))
                .button(
                    &tr!(lang, "button-previous"),
                    serenity::ButtonStyle::Secondary,
                )
                .disabled(v.page == 0),
            button(v.page + 1)
                .button(&tr!(lang, "button-next"), serenity::ButtonStyle::Secondary)
                .disabled(v.page + 1 >= v.pages),
        ])]
    } else {
        Vec::new()
    };
    Reply {
        embeds: vec![embed],
        components,
        ..Reply::default()
    }
}

/// The server's best players
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Live or correspondence (correspondence by default)"] speed: Option<
        SpeedChoice,
    >,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let viewer = call.actor.id;
    let speed = speed.map(Speed::from).unwrap_or(DEFAULT_SPEED);
    let lang = call.public_lang().await;
    let view = call
        .blocking(Defer::Message, move |g, _, ch| {
            Ok(g.ratings().leaderboard(ch, speed, 0, viewer, None)?)
        })
        .await?;
    call.send(leaderboard_reply(&view, viewer, lang)).await
}

/// Previous/Next: only for the one who ran `/leaderboard`, and only while the pool is as it
/// was when the page was shown.
pub async fn page_button(c: &Click<'_>, id: ButtonId) -> Result<(), Error> {
    let ButtonId::LeaderboardPage {
        speed,
        page,
        version,
        user,
    } = id
    else {
        return Err(Refusal::UnknownButton.into());
    };
    if c.click.user.id.get() != user {
        return Err(Refusal::LeaderboardNotYours.into());
    }
    let speed = speed_of_code(speed).ok_or(Refusal::UnknownButton)?;
    let lang = c.public_lang().await;
    let view = c
        .blocking(Defer::Update, move |g, _, ch| {
            g.ratings()
                .leaderboard(ch, speed, page, user, Some(version))
                .map_err(|e| match e {
                    GameError::PositionChanged => Error::Refused(Refusal::LeaderboardChanged),
                    other => other.into(),
                })
        })
        .await?;
    c.update(leaderboard_reply(&view, user, lang)).await
}

/// The stats embed, in `lang`.
fn stats_embed(s: &StatsView, lang: Lang) -> serenity::CreateEmbed {
    let name = s.user.name.clone();
    let mut e = serenity::CreateEmbed::new()
        .title(cap_chars(
            &tr!(lang, "stats-title", name = name.clone()),
            256,
        ))
        .colour(0x5865F2)
        .image(format!("attachment://{CHART_FILE}"));
    if s.speeds.is_empty() {
        let name = Presentation::Discord.player(&s.user);
        e = e.description(tr!(lang, "stats-none", name = name));
    }
    for sp in &s.speeds {
        let lines = ratings::stats_lines(lang, sp);
        e = e.field(
            ratings::stats_heading(lang, Presentation::Discord, sp),
            cap_chars(&lines.join("\n"), 1024),
            false,
        );
    }
    if !s.recent.is_empty() {
        let lines: Vec<String> = s
            .recent
            .iter()
            .map(|g| ratings::recent_line(lang, Presentation::Discord, g))
            .collect();
        e = e.field(
            tr!(lang, "stats-recent"),
            cap_chars(&lines.join("\n"), 1024),
            false,
        );
    }
    if let Some((shown, attempts)) = s.puzzles {
        e = e.field(
            tr!(lang, "stats-puzzles-title"),
            ratings::puzzles_line(lang, Presentation::Discord, shown, attempts),
            false,
        );
    }
    for (heading, lines) in ratings::opening_sections(lang, &s.openings) {
        e = e.field(heading, cap_chars(&lines.join("\n"), 1024), true);
    }
    e
}

/// Ratings, results and the rating chart of a player in this server
#[poise::command(slash_command)]
pub async fn stats(
    ctx: Context<'_>,
    #[description = "Whose stats (yours by default)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let who = user_ref(user.as_ref().unwrap_or(ctx.author()));
    let lang = call.public_lang().await;
    let (stats, png) = call
        .blocking(Defer::Message, move |g, _, ch| {
            let stats = g.ratings().stats(ch, &who)?;
            let png = rating_chart(&Chart::of_stats(&stats, lang));
            Ok((stats, png))
        })
        .await?;
    let alt = cap_chars(
        &tr!(lang, "stats-chart-alt", name = stats.user.name.clone()),
        1024,
    );
    call.send(Reply {
        embeds: vec![stats_embed(&stats, lang)],
        attachments: vec![serenity::CreateAttachment::bytes(png, CHART_FILE).description(alt)],
        ..Reply::default()
    })
    .await
}
