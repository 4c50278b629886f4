//! Ratings in words, shared by Discord and the console: a rating change, the leaderboard's
//! lines and the viewer's own line, a player's stats. The [`Presentation`] writes the players
//! and picks the front's form where the two differ (Discord bolds the rank and links a recent
//! game; the console numbers it).

use cajitas_rules::{Color, Lang};

use super::present::Presentation;
use crate::game::ratings::RANKED_MIN_GAMES;
use crate::game::ratings::{
    LeaderEntry, Missing, MyStanding, OpeningStats, RatingChange, RecentGame, Shown, SpeedStats,
};
use crate::game::ratings::{StatsView, signed};
use crate::game::{ChannelRef, UserRef};
use crate::tr;

/// One line per rating change of a game that ended: "alice 1523 → 1538 (+15)".
pub fn change_lines(lang: Lang, p: Presentation, changes: &[RatingChange]) -> Vec<String> {
    changes
        .iter()
        .map(|c| change_line(lang, p, &c.user, c.before, c.after))
        .collect()
}

/// One rating change, "alice 1523 → 1538 (+15)": a game's, or a puzzle attempt's.
pub fn change_line(
    lang: Lang,
    p: Presentation,
    user: &UserRef,
    before: Shown,
    after: Shown,
) -> String {
    tr!(
        lang,
        "rating-change",
        name = p.player(user),
        before = before.text(),
        after = after.text(),
        diff = signed(after.rounded() - before.rounded())
    )
}

/// A leaderboard's line: rank, player, rating and rated games.
pub fn leaderboard_line(lang: Lang, p: Presentation, e: &LeaderEntry) -> String {
    let id = match p {
        Presentation::Discord => "leaderboard-line",
        Presentation::Console => "console-leaderboard-line",
    };
    tr!(
        lang,
        id,
        rank = e.rank.to_string(),
        name = p.player(&e.user),
        rating = e.shown.text(),
        games = super::num(e.games)
    )
}

/// The line under a leaderboard about its viewer: their rank, or what keeps them off it.
pub fn standing_line(lang: Lang, me: &MyStanding) -> String {
    match me {
        MyStanding::Ranked { rank, shown } => tr!(
            lang,
            "leaderboard-you",
            rank = rank.to_string(),
            rating = shown.text()
        ),
        MyStanding::Unranked {
            games,
            shown,
            missing,
        } => unranked_line(lang, *games, *shown, *missing),
    }
}

/// Why the viewer of a leaderboard is not on it, saying only what is missing: rated games
/// ("3 rated games of the 5 needed."), a steady rating ("RD 131 now, under 110 needed"), or
/// both. `shown` is their rating as of now, with its widened RD.
fn unranked_line(lang: Lang, games: u32, shown: Option<Shown>, missing: Missing) -> String {
    let (games, min) = (super::num(games), super::num(RANKED_MIN_GAMES));
    match (missing, shown) {
        (Missing::Games, _) => tr!(
            lang,
            "leaderboard-you-unranked-games",
            games = games,
            min = min
        ),
        (Missing::Steadiness, Some(s)) => tr!(
            lang,
            "leaderboard-you-unranked-steadiness",
            rd = super::num(s.deviation.round() as u32)
        ),
        (Missing::Steadiness | Missing::Both, _) => {
            tr!(lang, "leaderboard-you-unranked", games = games, min = min)
        }
    }
}

/// The heading of a player's stats in one speed: the speed, the rating and its RD, and
/// whether it is provisional (bold on Discord, plain in the console).
pub fn stats_heading(lang: Lang, p: Presentation, sp: &SpeedStats) -> String {
    let head = tr!(
        lang,
        "stats-speed",
        speed = sp.speed.as_str(),
        rating = sp.shown.text(),
        rd = format!("{:.0}", sp.shown.deviation),
        provisional = if sp.shown.provisional() { "yes" } else { "no" }
    );
    p.bold(head)
}

/// The lines under a speed's heading: rated games and peak, the results with each colour,
/// the current streak.
pub fn stats_lines(lang: Lang, sp: &SpeedStats) -> Vec<String> {
    let mut lines = vec![tr!(
        lang,
        "stats-games",
        games = super::num(sp.games),
        peak = format!("{:.0}", sp.peak)
    )];
    for (colour, wdl) in [("white", sp.white), ("black", sp.black)] {
        lines.push(tr!(
            lang,
            "stats-colour",
            colour = colour,
            wins = wdl.wins.to_string(),
            draws = wdl.draws.to_string(),
            losses = wdl.losses.to_string()
        ));
    }
    if let Some(st) = sp.streak {
        lines.push(tr!(
            lang,
            "stats-streak",
            score = result_key(st.score),
            len = super::num(st.len)
        ));
    }
    lines
}

/// A player's puzzle rating in their stats: the rating, its RD, whether it is provisional, and
/// the rated attempts (bold on Discord, plain in the console).
pub fn puzzles_line(lang: Lang, p: Presentation, shown: Shown, attempts: u32) -> String {
    let line = tr!(
        lang,
        "stats-puzzles",
        rating = shown.text(),
        rd = format!("{:.0}", shown.deviation),
        provisional = if shown.provisional() { "yes" } else { "no" },
        attempts = super::num(attempts)
    );
    p.bold(line)
}

/// The puzzle section of a player's stats: their puzzle rating line, their best Puzzle Streak
/// and their daily puzzle streak when they have them; empty for someone with none.
pub fn puzzle_stats_lines(lang: Lang, p: Presentation, s: &StatsView) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some((shown, attempts)) = s.puzzles {
        lines.push(puzzles_line(lang, p, shown, attempts));
    }
    if s.puzzle_streak > 0 {
        lines.push(tr!(
            lang,
            "stats-puzzle-streak",
            best = super::num(s.puzzle_streak)
        ));
    }
    if s.daily_streak > 0 {
        lines.push(tr!(
            lang,
            "stats-daily-streak",
            days = super::num(s.daily_streak)
        ));
    }
    lines
}

/// A player's most played openings, a section per colour that has some: its heading
/// ("Openings with white") and one line per family.
pub fn opening_sections(
    lang: Lang,
    openings: &[Vec<OpeningStats>; 2],
) -> Vec<(String, Vec<String>)> {
    [Color::White, Color::Black]
        .into_iter()
        .zip(openings)
        .filter(|(_, list)| !list.is_empty())
        .map(|(colour, list)| {
            (
                tr!(lang, "stats-openings", colour = super::colour_key(colour)),
                opening_lines(lang, list),
            )
        })
        .collect()
}

/// One line per opening family: its name, games and results (+W =D −L).
fn opening_lines(lang: Lang, list: &[OpeningStats]) -> Vec<String> {
    list.iter()
        .map(|o| {
            tr!(
                lang,
                "stats-opening-line",
                family = o.family,
                games = super::num(o.games),
                wins = o.score.wins.to_string(),
                draws = o.score.draws.to_string(),
                losses = o.score.losses.to_string()
            )
        })
        .collect()
}

/// A recent rated game of a player: the result, the opponent, the rating after it and the
/// change; Discord links where it was played, the console gives its number.
pub fn recent_line(lang: Lang, p: Presentation, g: &RecentGame) -> String {
    match p {
        Presentation::Discord => tr!(
            lang,
            "stats-recent-line",
            result = result_key(g.score),
            opponent = p.player(&g.opponent),
            rating = g.change.after.text(),
            diff = g.change.diff_text(),
            link = discord_link(g.place)
        ),
        Presentation::Console => tr!(
            lang,
            "console-stats-recent-line",
            result = result_key(g.score),
            opponent = p.player(&g.opponent),
            id = super::num(g.game_id as f64),
            rating = g.change.after.text(),
            diff = g.change.diff_text()
        ),
    }
}

/// A link to where a game was played on Discord: its thread, or its channel.
fn discord_link(place: ChannelRef) -> String {
    match place.guild {
        Some(guild) => format!("https://discord.com/channels/{guild}/{}", place.channel),
        None => format!("https://discord.com/channels/@me/{}", place.channel),
    }
}

/// The Fluent selector of a score: `win`, `draw` or `loss`.
fn result_key(score: f64) -> &'static str {
    if score >= 1.0 {
        "win"
    } else if score <= 0.0 {
        "loss"
    } else {
        "draw"
    }
}
