//! `cajitas local`'s ratings: the changes after a rated game, `stats [NAME]` (with the
//! rating chart written as a PNG beside the boards) and `leaderboard`, in text.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::game::ratings::{LeaderboardView, RANKED_MIN_GAMES, Speed, StatsView};
use crate::game::{GameView, Lang};
use crate::i18n::{Presentation, ratings};
use crate::render::chart::{Chart, rating_chart};
use crate::{i18n, tr};

/// Prints each player's rating change of a view that ended a rated game.
pub fn print_changes(out: &mut impl Write, v: &GameView, lang: Lang) -> io::Result<()> {
    for line in ratings::change_lines(lang, Presentation::Console, &v.rating_changes) {
        writeln!(out, "{line}")?;
    }
    Ok(())
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
        let head = ratings::stats_heading(lang, Presentation::Console, sp);
        writeln!(out, "{head}")?;
        for line in ratings::stats_lines(lang, sp) {
            writeln!(out, "  {line}")?;
        }
    }
    if !s.recent.is_empty() {
        writeln!(out, "{}", tr!(lang, "stats-recent"))?;
        for g in &s.recent {
            let line = ratings::recent_line(lang, Presentation::Console, g);
            writeln!(out, "  {line}")?;
        }
    }
    let puzzles = ratings::puzzle_stats_lines(lang, Presentation::Console, s);
    if !puzzles.is_empty() {
        writeln!(out, "{}", tr!(lang, "stats-puzzles-title"))?;
        for line in puzzles {
            writeln!(out, "  {line}")?;
        }
    }
    for (heading, lines) in ratings::opening_sections(lang, &s.openings) {
        writeln!(out, "{heading}")?;
        for line in lines {
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
        let line = ratings::leaderboard_line(lang, Presentation::Console, e);
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{}", ratings::standing_line(lang, &v.me))
}

/// The speed `leaderboard` shows without one: correspondence, the speed of the default
/// challenge (3 days per move) and of untimed games.
pub const DEFAULT_SPEED: Speed = Speed::Correspondence;
