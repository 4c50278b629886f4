//! Tournaments in words, for both fronts: an arena made, joined, paused, left; berserk; its
//! pairings (`[arena] pairing: alice (white) vs bob (black) · game 12`), the points each game
//! gave (`[arena] alice +4`), the standings (`1. alice 12  2 2 4🔥 4🔥 0`) and the podium.

use cajitas_rules::Lang;

use crate::game::{
    ArenaTerms, GameView, Mark, StandingLine, Standings, TimeControl, TournamentView,
};
use crate::store::TournamentStatus;
use crate::tr;

/// The name of an arena whose maker gave none: "Arena 3+2".
pub fn default_arena_name(lang: Lang, time: TimeControl) -> String {
    tr!(lang, "arena-default-name", time = time.to_string())
}

/// An arena just made: its terms and start.
pub fn created_line(lang: Lang, v: &TournamentView, terms: &ArenaTerms) -> String {
    tr!(
        lang,
        "arena-created",
        name = v.name.clone(),
        minutes = terms.minutes.to_string(),
        time = v.time.to_string(),
        rated = if v.rated { "yes" } else { "no" },
        starts = terms
            .starts_in
            .unwrap_or(crate::game::tournament::DEFAULT_STARTS_IN_MINUTES)
            .to_string()
    )
}

/// The description of an arena's Discord scheduled event.
pub fn event_description(lang: Lang, v: &TournamentView) -> String {
    tr!(lang, "arena-event-description", time = v.time.to_string())
}

/// `actor` joined (or came back).
pub fn joined_line(lang: Lang, v: &TournamentView) -> String {
    tr!(
        lang,
        "arena-joined",
        name = v.name.clone(),
        players = super::num(v.players as f64)
    )
}

/// `actor` paused.
pub fn paused_line(lang: Lang, v: &TournamentView) -> String {
    tr!(lang, "arena-paused", name = v.name.clone())
}

/// `actor` left.
pub fn withdrawn_line(lang: Lang, v: &TournamentView) -> String {
    tr!(lang, "arena-withdrawn", name = v.name.clone())
}

/// Berserk taken.
pub fn berserk_line(lang: Lang) -> String {
    tr!(lang, "arena-berserk")
}

/// The arena began.
pub fn started_line(lang: Lang, v: &TournamentView) -> String {
    tr!(lang, "arena-started", name = v.name.clone())
}

/// A pairing: who plays White, who Black, and the game's number.
pub fn pairing_line(lang: Lang, game: &GameView) -> String {
    tr!(
        lang,
        "arena-pairing",
        white = game.white.name.clone(),
        black = game.black.name.clone(),
        game = game.game_id.to_string()
    )
}

/// The points a finished tournament game gave each player (`+0` included), White first;
/// nothing for a game of no tournament.
pub fn points_lines(lang: Lang, game: &GameView) -> Vec<String> {
    let Some(p) = game.tournament else {
        return Vec::new();
    };
    [(&game.white.name, p.white), (&game.black.name, p.black)]
        .into_iter()
        .map(|(name, mark)| {
            tr!(
                lang,
                "arena-points",
                name = name.clone(),
                points = mark.points.to_string()
            )
        })
        .collect()
}

/// A sheet as shown: each game's points, `🔥` after one scored on fire, `B` after a berserk
/// game.
pub fn sheet_text(sheet: &[Mark]) -> String {
    sheet
        .iter()
        .map(|m| {
            let mut s = m.points.to_string();
            if m.fire {
                s.push('🔥');
            }
            if m.berserk {
                s.push('B');
            }
            s
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One standings line: `RANK. NAME POINTS  SHEET`.
pub fn standing_line(lang: Lang, l: &StandingLine) -> String {
    tr!(
        lang,
        "arena-standings-line",
        rank = l.rank.to_string(),
        name = l.user.name.clone(),
        points = l.score.to_string(),
        sheet = sheet_text(&l.sheet)
    )
    .trim_end()
    .to_owned()
}

/// The standings: a heading, then one line per player (or that nobody joined).
pub fn standings_lines(lang: Lang, s: &Standings) -> Vec<String> {
    let status = match s.tournament.status {
        TournamentStatus::Created => "created",
        TournamentStatus::Started => "started",
        TournamentStatus::Finished => "finished",
    };
    let mut lines = vec![tr!(
        lang,
        "arena-standings-heading",
        name = s.tournament.name.clone(),
        status = status,
        players = super::num(s.tournament.players as f64)
    )];
    if s.lines.is_empty() {
        lines.push(tr!(lang, "arena-standings-empty"));
    }
    lines.extend(s.lines.iter().map(|l| standing_line(lang, l)));
    lines
}

/// Page `page` (from 0) of the standings, `per_page` players a page: the heading, the page's
/// lines, then which page of how many when there are several.
pub fn standings_page(lang: Lang, s: &Standings, page: usize, per_page: usize) -> Vec<String> {
    let all = standings_lines(lang, s);
    let (heading, lines) = all
        .split_first()
        .map_or((None, &[][..]), |(h, l)| (Some(h), l));
    let pages = lines.len().div_ceil(per_page.max(1)).max(1);
    let page = page.min(pages - 1);
    let mut out: Vec<String> = heading.cloned().into_iter().collect();
    out.extend(lines.iter().skip(page * per_page).take(per_page).cloned());
    if pages > 1 {
        out.push(tr!(
            lang,
            "arena-standings-page",
            page = super::num((page + 1) as f64),
            pages = super::num(pages as f64)
        ));
    }
    out
}

/// The end: `[arena] final standings`, the standings' lines, then the podium with the top
/// three's performance.
pub fn final_lines(lang: Lang, s: &Standings) -> Vec<String> {
    let mut lines = vec![tr!(lang, "arena-final")];
    lines.extend(s.lines.iter().map(|l| standing_line(lang, l)));
    lines.extend(s.lines.iter().take(3).map(|l| podium_line(lang, l)));
    lines
}

/// One step of the podium.
pub fn podium_line(lang: Lang, l: &StandingLine) -> String {
    tr!(
        lang,
        "arena-podium",
        rank = super::num(l.rank),
        name = l.user.name.clone(),
        points = l.score.to_string(),
        performance = l
            .performance
            .map_or_else(|| "?".to_owned(), |p| p.to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::UserRef;
    use crate::store::EntrantStatus;

    #[test]
    fn the_standings_on_pages() {
        use crate::game::{ChannelRef, TournamentView};
        use crate::store::{TournamentKind, TournamentStatus};
        let line = |rank: u32| StandingLine {
            rank,
            user: UserRef::new(u64::from(rank), &format!("p{rank}"), false),
            score: 50 - rank as i32,
            sheet: Vec::new(),
            on_fire: false,
            status: EntrantStatus::Active,
            rating: 1500,
            performance: None,
            playing: false,
        };
        let s = Standings {
            tournament: TournamentView {
                id: 1,
                kind: TournamentKind::Arena,
                name: "Arena 3+2".into(),
                place: ChannelRef {
                    guild: None,
                    channel: 1,
                },
                time: TimeControl::Live {
                    base_secs: 180,
                    increment_secs: 2,
                },
                rated: true,
                status: TournamentStatus::Started,
                starts_at: 0,
                ends_at: None,
                lang: Lang::En,
                players: 45,
            },
            lines: (1..=45).map(line).collect(),
        };
        let second = standings_page(Lang::En, &s, 1, 20);
        assert_eq!(second.len(), 22, "{second:?}");
        assert!(second[1].starts_with("21. p21 29"), "{second:?}");
        assert_eq!(second.last().unwrap(), "Page 2 of 3");
        let last = standings_page(Lang::Es, &s, 9, 20);
        assert!(last[1].starts_with("41. p41"), "{last:?}");
        assert_eq!(last.last().unwrap(), "Página 3 de 3");
        assert_eq!(standings_page(Lang::En, &s, 0, 50).len(), 46);
    }

    #[test]
    fn a_sheet_marks_fire_and_berserk() {
        let m = |points, fire, berserk| Mark {
            points,
            fire,
            berserk,
        };
        assert_eq!(
            sheet_text(&[
                m(2, false, false),
                m(2, false, true),
                m(4, true, false),
                m(5, true, true)
            ]),
            "2 2B 4🔥 5🔥B"
        );
    }

    #[test]
    fn standings_lines_in_both_languages() {
        let line = StandingLine {
            rank: 1,
            user: UserRef::new(1, "alice", false),
            score: 8,
            sheet: vec![
                Mark {
                    points: 2,
                    fire: false,
                    berserk: false,
                },
                Mark {
                    points: 2,
                    fire: false,
                    berserk: false,
                },
                Mark {
                    points: 4,
                    fire: true,
                    berserk: false,
                },
            ],
            on_fire: true,
            status: EntrantStatus::Active,
            rating: 1500,
            performance: Some(1900),
            playing: false,
        };
        for lang in [Lang::En, Lang::Es] {
            assert_eq!(standing_line(lang, &line), "1. alice 8  2 2 4🔥");
        }
        assert!(podium_line(Lang::Es, &line).contains("rendimiento 1900"));
        assert!(podium_line(Lang::En, &line).contains("performance 1900"));
    }
}
