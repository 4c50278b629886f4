//! Round robins in words, for both fronts: one made, its rounds' games
//! (`[roundrobin] round 2: alice (white) vs bob (black) · game 12`), a withdrawal and the
//! rule it took, the standings (`1. alice 2.5 3.25`: rank, name, points, Sonneborn-Berger).

use cajitas_rules::Lang;

use crate::game::{
    GameView, RoundRobinLine, RoundRobinStandings, RoundRobinWithdrawn, TimeControl, TournamentView,
};
use crate::store::TournamentStatus;
use crate::tr;

/// The name of a round robin whose maker gave none: "Round robin 3+2".
pub fn default_name(lang: Lang, time: TimeControl) -> String {
    tr!(lang, "roundrobin-default-name", time = time.to_string())
}

/// A round robin just made.
pub fn created_line(lang: Lang, v: &TournamentView, rounds: usize) -> String {
    tr!(
        lang,
        "roundrobin-created",
        name = v.name.clone(),
        players = v.players.to_string(),
        rounds = rounds.to_string(),
        time = v.time.to_string(),
        rated = if v.rated { "yes" } else { "no" }
    )
}

/// A game of a round: `[roundrobin] round R: WHITE (white) vs BLACK (black) · game N`.
pub fn round_line(lang: Lang, round: u32, game: &GameView) -> String {
    tr!(
        lang,
        "roundrobin-round",
        round = round.to_string(),
        white = game.white.name.clone(),
        black = game.black.name.clone(),
        game = game.game_id.to_string()
    )
}

/// A round's game as posted in its thread, the players as the front end shows them.
pub fn round_post(lang: Lang, round: u32, white: &str, black: &str) -> String {
    tr!(
        lang,
        "roundrobin-round-post",
        round = round.to_string(),
        white = white.to_owned(),
        black = black.to_owned()
    )
}

/// A withdrawal and what it did.
pub fn withdrawn_line(lang: Lang, w: &RoundRobinWithdrawn) -> String {
    tr!(
        lang,
        "roundrobin-withdrawn",
        name = w.user.name.clone(),
        tournament = w.tournament.name.clone(),
        rule = w.withdrawal.as_str()
    )
}

/// One line: `RANK. NAME POINTS SB`.
pub fn standing_line(lang: Lang, l: &RoundRobinLine) -> String {
    let name = l.user.name.clone();
    match (l.rank, l.withdrawn) {
        (None, _) => tr!(lang, "roundrobin-standings-cancelled", name = name),
        (Some(rank), w) => tr!(
            lang,
            if w.is_some() {
                "roundrobin-standings-withdrawn"
            } else {
                "roundrobin-standings-line"
            },
            rank = rank.to_string(),
            name = name,
            points = l.points.clone(),
            sb = l.sb.clone()
        ),
    }
}

/// The standings: a heading, then one line per player.
pub fn standings_lines(lang: Lang, s: &RoundRobinStandings) -> Vec<String> {
    let status = match s.tournament.status {
        TournamentStatus::Finished => "finished",
        _ => "started",
    };
    let mut lines = vec![tr!(
        lang,
        "roundrobin-standings-heading",
        name = s.tournament.name.clone(),
        round = s.round.to_string(),
        rounds = s.rounds.to_string(),
        status = status
    )];
    lines.extend(s.lines.iter().map(|l| standing_line(lang, l)));
    lines
}

/// The end: `[roundrobin] final standings`, then the standings' lines.
pub fn final_lines(lang: Lang, s: &RoundRobinStandings) -> Vec<String> {
    let mut lines = vec![tr!(lang, "roundrobin-final")];
    lines.extend(s.lines.iter().map(|l| standing_line(lang, l)));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tournament::roundrobin::Withdrawal;
    use crate::game::{ChannelRef, UserRef};
    use crate::store::TournamentKind;

    fn standings(status: TournamentStatus) -> RoundRobinStandings {
        let line = |rank, name: &str, points: &str, sb: &str, withdrawn| RoundRobinLine {
            rank,
            user: UserRef::new(1, name, false),
            points: points.into(),
            sb: sb.into(),
            games: 3,
            withdrawn,
        };
        RoundRobinStandings {
            tournament: TournamentView {
                id: 1,
                kind: TournamentKind::RoundRobin,
                name: "Club night".into(),
                place: ChannelRef {
                    guild: None,
                    channel: 1,
                },
                time: "1d".parse().unwrap(),
                rated: true,
                status,
                starts_at: 0,
                ends_at: None,
                lang: Lang::En,
                players: 4,
            },
            round: 3,
            rounds: 3,
            lines: vec![
                line(Some(1), "alice", "2.5", "2.5", None),
                line(Some(2), "bob", "2", "2.5", Some(Withdrawal::Forfeits)),
                line(None, "dan", "0", "0", Some(Withdrawal::Cancelled)),
            ],
        }
    }

    #[test]
    fn standings_lines_in_both_languages() {
        let s = standings(TournamentStatus::Started);
        assert_eq!(
            standings_lines(Lang::En, &s),
            [
                "Club night · round 3 of 3 · in progress",
                "1. alice 2.5 2.5",
                "2. bob 2 2.5 (withdrew)",
                "-. dan (withdrew: results cancelled)",
            ]
        );
        assert_eq!(
            standings_lines(Lang::Es, &s),
            [
                "Club night · ronda 3 de 3 · en juego",
                "1. alice 2.5 2.5",
                "2. bob 2 2.5 (se retiró)",
                "-. dan (se retiró: resultados anulados)",
            ]
        );
        let s = standings(TournamentStatus::Finished);
        let fin = final_lines(Lang::En, &s);
        assert_eq!(fin[0], "[roundrobin] final standings");
        assert_eq!(fin[1], "1. alice 2.5 2.5");
        assert_eq!(
            final_lines(Lang::Es, &s)[0],
            "[roundrobin] clasificación final"
        );
        assert_eq!(
            standings_lines(Lang::En, &s)[0],
            "Club night · round 3 of 3 · final"
        );
    }
}
