//! `cajitas local`'s ratings: the changes after a rated game, `stats [NAME]` (with the
//! rating chart written as a PNG beside the boards) and `leaderboard`, in text.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::game::ratings::RANKED_MIN_GAMES;
use crate::game::ratings::{LeaderboardView, MyStanding, Speed, StatsView};
use crate::game::{GameView, Lang};
use crate::render::chart::{Chart, rating_chart};
use crate::{i18n, tr};

/// Prints each player's rating change of a view that ended a rated game.
pub fn print_changes(out: &mut impl Write, v: &GameView, lang: Lang) -> io::Result<()> {
    for c in &v.rating_changes {
        let line = tr!(
            lang,
            "console-rating-change",
            name = c.user.name.clone(),
            before = c.before.text(),
            after = c.after.text(),
            diff = c.diff_text()
        );
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn result_key(score: f64) -> &'static str {
    if score >= 1.0 {
        "win"
    } else if score <= 0.0 {
        "loss"
    } else {
        "draw"
    }
}

/// Prints `stats` and writes its chart into `boards` (when PNGs are on).
pub fn print_stats(
    out: &mut impl Write,
    s: &StatsView,
    boards: Option<&Path>,
    lang: Lang,
) -> io::Result<()> {
    let name = s.user.name.clone();
    writeln!(out, "{}", tr!(lang, "stats-title", name = name.clone()))?;
    if s.speeds.is_empty() {
        writeln!(out, "{}", tr!(lang, "stats-none", name = name.clone()))?;
    }
    for sp in &s.speeds {
        let head = tr!(
            lang,
            "stats-speed",
            speed = sp.speed.as_str(),
            rating = sp.shown.text(),
            rd = format!("{:.0}", sp.shown.deviation),
            provisional = if sp.shown.provisional() { "yes" } else { "no" }
        );
        // The Discord text's bold marks are not for a terminal.
        writeln!(out, "{}", head.replace("**", ""))?;
        let games = tr!(
            lang,
            "stats-games",
            games = i18n::num(sp.games),
            peak = format!("{:.0}", sp.peak)
        );
        writeln!(out, "  {games}")?;
        for (colour, wdl) in [("white", sp.white), ("black", sp.black)] {
            let line = tr!(
                lang,
                "stats-colour",
                colour = colour,
                wins = wdl.wins.to_string(),
                draws = wdl.draws.to_string(),
                losses = wdl.losses.to_string()
            );
            writeln!(out, "  {line}")?;
        }
        if let Some(st) = sp.streak {
            let line = tr!(
                lang,
                "stats-streak",
                score = result_key(st.score),
                len = i18n::num(st.len)
            );
            writeln!(out, "  {line}")?;
        }
    }
    if !s.recent.is_empty() {
        writeln!(out, "{}", tr!(lang, "stats-recent"))?;
        for g in &s.recent {
            let line = tr!(
                lang,
                "console-stats-recent-line",
                result = result_key(g.score),
                opponent = g.opponent.name.clone(),
                id = i18n::num(g.game_id as f64),
                rating = g.change.after.text(),
                diff = g.change.diff_text()
            );
            writeln!(out, "  {line}")?;
        }
    }
    if let Some(dir) = boards {
        let line = match write_chart(dir, s, lang) {
            Ok(path) => tr!(lang, "console-chart", path = path.display().to_string()),
            Err(e) => tr!(lang, "console-chart-failed", error = e),
        };
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Writes the chart of `s` as `rating-<user id>.png` in `dir`.
fn write_chart(dir: &Path, s: &StatsView, lang: Lang) -> Result<PathBuf, String> {
    let png = rating_chart(&Chart::of_stats(s, lang));
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("rating-{:x}.png", s.user.id));
    crate::files::write_replacing(&path, &png).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Prints a leaderboard page.
pub fn print_leaderboard(out: &mut impl Write, v: &LeaderboardView, lang: Lang) -> io::Result<()> {
    let speed = v.speed.as_str();
    writeln!(out, "{}", tr!(lang, "leaderboard-title", speed = speed))?;
    if v.entries.is_empty() {
        let empty = tr!(lang, "leaderboard-empty", min = i18n::num(RANKED_MIN_GAMES));
        writeln!(out, "{empty}")?;
    }
    for e in &v.entries {
        let line = tr!(
            lang,
            "console-leaderboard-line",
            rank = e.rank.to_string(),
            name = e.user.name.clone(),
            rating = e.shown.text(),
            games = i18n::num(e.games)
        );
        writeln!(out, "{line}")?;
    }
    let me = match &v.me {
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
        } => crate::i18n::ratings::unranked_line(lang, *games, *shown, *missing),
    };
    writeln!(out, "{me}")
}

/// The speed `leaderboard` shows without one: correspondence, the speed of the default
/// challenge (3 days per move) and of untimed games.
pub const DEFAULT_SPEED: Speed = Speed::Correspondence;
