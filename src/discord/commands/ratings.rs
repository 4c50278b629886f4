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
use crate::game::{GameError, Lang, PuzzleBoard, PuzzleBoardView};
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
    /// Puzzle ratings.
    #[name = "puzzles"]
    Puzzles,
    /// Puzzle Streak records.
    #[name = "streak"]
    Streak,
    /// Chess960, every clock.
    #[name = "chess960"]
    Chess960,
}

/// What a leaderboard ranks: a game speed's ratings, or a puzzle leaderboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Board {
    Games(Speed),
    Puzzles(PuzzleBoard),
}

impl From<SpeedChoice> for Board {
    fn from(s: SpeedChoice) -> Board {
        match s {
            SpeedChoice::Live => Board::Games(Speed::Live),
            SpeedChoice::Correspondence => Board::Games(Speed::Correspondence),
            SpeedChoice::Puzzles => Board::Puzzles(PuzzleBoard::Ratings),
            SpeedChoice::Streak => Board::Puzzles(PuzzleBoard::Streaks),
            SpeedChoice::Chess960 => Board::Games(Speed::Chess960),
        }
    }
}

/// A puzzle leaderboard in a button's custom id (after the speeds' codes).
fn board_code(b: PuzzleBoard) -> u8 {
    match b {
        PuzzleBoard::Ratings => 2,
        PuzzleBoard::Streaks => 3,
    }
}

/// The board of a custom id's code.
fn board_of_code(c: u8) -> Option<Board> {
    match c {
        2 => Some(Board::Puzzles(PuzzleBoard::Ratings)),
        3 => Some(Board::Puzzles(PuzzleBoard::Streaks)),
        c => speed_of_code(c).map(Board::Games),
    }
}

/// The speed shown when none is asked for: correspondence, the speed of the default
/// challenge (3 days per move) and of untimed games.
const DEFAULT_SPEED: Speed = Speed::Correspondence;

/// A speed in a button's custom id (2 and 3 are the puzzle boards', [`board_code`]).
pub fn speed_code(s: Speed) -> u8 {
    match s {
        Speed::Live => 0,
        Speed::Correspondence => 1,
        Speed::Chess960 => 4,
    }
}

/// The speed of a custom id's code.
pub fn speed_of_code(c: u8) -> Option<Speed> {
    match c {
        0 => Some(Speed::Live),
        1 => Some(Speed::Correspondence),
        4 => Some(Speed::Chess960),
        _ => None,
    }
}

/// Previous and Next for page `page` of `pages`, made by `button`.
fn page_buttons(
    lang: Lang,
    page: u32,
    pages: u32,
    button: impl Fn(u32) -> ButtonId,
) -> Vec<serenity::CreateActionRow> {
    if pages <= 1 {
        return Vec::new();
    }
    vec![serenity::CreateActionRow::Buttons(vec![
        button(page.saturating_sub(1))
            .button(
                &tr!(lang, "button-previous"),
                serenity::ButtonStyle::Secondary,
            )
            .disabled(page == 0),
        button(page + 1)
            .button(&tr!(lang, "button-next"), serenity::ButtonStyle::Secondary)
            .disabled(page + 1 >= pages),
    ])]
}

/// The embed of a leaderboard page.
fn board_embed(
    lang: Lang,
    title: String,
    lines: &[String],
    page: u32,
    pages: u32,
) -> serenity::CreateEmbed {
    serenity::CreateEmbed::new()
        .title(title)
        .description(cap_chars(&lines.join("\n"), 4000))
        .footer(serenity::CreateEmbedFooter::new(tr!(
            lang,
            "leaderboard-page",
            page = crate::i18n::num(page + 1),
            pages = crate::i18n::num(pages)
        )))
        .colour(0x5865F2)
}

/// A puzzle leaderboard's message for `viewer`, with its page buttons.
fn puzzle_board_reply(v: &PuzzleBoardView, viewer: u64, lang: Lang) -> Reply {
    let text = crate::i18n::puzzles::board_text(lang, Presentation::Discord, v);
    let mut lines = text.lines;
    lines.push(String::new());
    lines.push(text.standing);
    Reply {
        embeds: vec![board_embed(lang, text.title, &lines, v.page, v.pages)],
        components: page_buttons(lang, v.page, v.pages, |page| ButtonId::LeaderboardPage {
            speed: board_code(v.board),
            page,
            version: 0,
            user: viewer,
        }),
        ..Reply::default()
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
    let title = tr!(lang, "leaderboard-title", speed = speed);
    Reply {
        embeds: vec![board_embed(lang, title, &lines, v.page, v.pages)],
        components: page_buttons(lang, v.page, v.pages, |page| ButtonId::LeaderboardPage {
            speed: speed_code(v.speed),
            page,
            version: v.version,
            user: viewer,
        }),
        ..Reply::default()
    }
}

/// The server's best players
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Live, correspondence, puzzle ratings or Puzzle Streak (correspondence by default)"]
    speed: Option<SpeedChoice>,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let viewer = call.actor.id;
    let board = speed.map_or(Board::Games(DEFAULT_SPEED), Board::from);
    let lang = call.public_lang().await;
    let reply = call
        .blocking(Defer::Message, move |g, _, ch| {
            Ok(match board {
                Board::Games(speed) => leaderboard_reply(
                    &g.ratings().leaderboard(ch, speed, 0, viewer, None)?,
                    viewer,
                    lang,
                ),
                Board::Puzzles(b) => {
                    puzzle_board_reply(&g.puzzles().leaderboard(ch, b, 0, viewer)?, viewer, lang)
                }
            })
        })
        .await?;
    call.send(reply).await
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
    let board = board_of_code(speed).ok_or(Refusal::UnknownButton)?;
    let lang = c.public_lang().await;
    let reply = c
        .blocking(Defer::Update, move |g, _, ch| match board {
            Board::Games(speed) => g
                .ratings()
                .leaderboard(ch, speed, page, user, Some(version))
                .map(|v| leaderboard_reply(&v, user, lang))
                .map_err(|e| match e {
                    GameError::PositionChanged => Error::Refused(Refusal::LeaderboardChanged),
                    other => other.into(),
                }),
            Board::Puzzles(b) => Ok(puzzle_board_reply(
                &g.puzzles().leaderboard(ch, b, page, user)?,
                user,
                lang,
            )),
        })
        .await?;
    c.update(reply).await
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
    let puzzles = ratings::puzzle_stats_lines(lang, Presentation::Discord, s);
    if !puzzles.is_empty() {
        e = e.field(tr!(lang, "stats-puzzles-title"), puzzles.join("\n"), false);
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
