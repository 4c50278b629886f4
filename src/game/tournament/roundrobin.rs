//! A round robin's standings and its withdrawal rule. Pure: the games and the withdrawals
//! in, the ranked table out.
//!
//! - Points: a win 1, a draw ½, a loss 0 (counted here in half-points).
//! - Tie-breaks, in order: Sonneborn-Berger (the sum of the points of the opponents a player
//!   beat, plus half the points of those they drew with, each at their final score; counted
//!   here in quarter-points), then the direct encounter (the points each tied player scored
//!   in the games among the tied players, both games of a double round robin included).
//!   Players still tied share the rank and are listed in seat order.
//! - Withdrawal, FIDE Handbook C.06 (FIDE Tournament Rules), article 5.4: a player who
//!   withdraws having completed less than 50% of their games keeps their results in the
//!   table for rating, but the points scored by them or against them do not count in the
//!   standings ([`Withdrawal::Cancelled`]); one who has completed at least 50% keeps their
//!   score in the standings, and their unplayed games are lost by forfeit
//!   ([`Withdrawal::Forfeits`]; the opponent wins `+`, and when both withdrew neither scores).

use std::cmp::Ordering;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// 1–0.
    WhiteWon,
    /// ½–½.
    Drawn,
    /// 0–1.
    BlackWon,
}

/// One game of the schedule, between two players (indices into the player list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub white: usize,
    pub black: usize,
    /// `None` while the game is not over (or not yet begun).
    pub outcome: Option<Outcome>,
}

/// What a player's withdrawal did to their results, decided once when they withdrew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withdrawal {
    /// Less than half their games were completed: none of their games count.
    Cancelled,
    /// At least half were: their games count, the unplayed ones lost by forfeit.
    Forfeits,
}

impl Withdrawal {
    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Withdrawal::Cancelled => "cancelled",
            Withdrawal::Forfeits => "forfeits",
        }
    }

    /// Reads the stored word.
    pub fn parse(word: &str) -> Option<Withdrawal> {
        match word {
            "cancelled" => Some(Withdrawal::Cancelled),
            "forfeits" => Some(Withdrawal::Forfeits),
            _ => None,
        }
    }
}

/// FIDE's rule (C.06, 5.4): `completed` of the player's `scheduled` games are over when they
/// withdraw. Less than 50% cancels their results; 50% or more keeps them.
pub fn withdrawal(completed: usize, scheduled: usize) -> Withdrawal {
    if 2 * completed < scheduled {
        Withdrawal::Cancelled
    } else {
        Withdrawal::Forfeits
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player's index in the list given.
    pub player: usize,
    /// 1-based; shared by players tied on every criterion. `None` for a player whose
    /// results were cancelled (listed last).
    pub rank: Option<usize>,
    /// Points, in half-points.
    pub halves: u32,
    /// Sonneborn-Berger, in quarter-points.
    pub sb_quarters: u32,
    /// Points in the games among the players tied with this one on points and SB, in
    /// half-points (0 when not tied).
    pub direct_halves: u32,
    /// Games that counted: played, or won or lost by forfeit.
    pub counted: usize,
    pub withdrawn: Option<Withdrawal>,
}

impl Standing {
    /// The points as printed: "2", "2.5".
    pub fn points_text(&self) -> String {
        halves_text(self.halves)
    }

    /// Sonneborn-Berger as printed: "3", "3.5", "3.25", "3.75".
    pub fn sb_text(&self) -> String {
        let whole = self.sb_quarters / 4;
        match self.sb_quarters % 4 {
            0 => whole.to_string(),
            1 => format!("{whole}.25"),
            2 => format!("{whole}.5"),
            _ => format!("{whole}.75"),
        }
    }
}

/// Half-points as printed: "2", "2.5".
pub fn halves_text(halves: u32) -> String {
    if halves.is_multiple_of(2) {
        (halves / 2).to_string()
    } else {
        format!("{}.5", halves / 2)
    }
}

/// A game as it counts in the standings: the half-points each side scored, and whether it
/// was played (a forfeit was not).
#[derive(Clone, Copy)]
struct Counted {
    white: usize,
    black: usize,
    white_halves: u32,
    black_halves: u32,
}

/// The games that count, each with its score (see the module's rules).
fn counted(games: &[Game], withdrawn: &[Option<Withdrawal>]) -> Vec<Counted> {
    let state = |p: usize| withdrawn.get(p).copied().flatten();
    games
        .iter()
        .filter_map(|g| {
            let (w, b) = (state(g.white), state(g.black));
            if w == Some(Withdrawal::Cancelled) || b == Some(Withdrawal::Cancelled) {
                return None;
            }
            let (white_halves, black_halves) = match g.outcome {
                Some(Outcome::WhiteWon) => (2, 0),
                Some(Outcome::Drawn) => (1, 1),
                Some(Outcome::BlackWon) => (0, 2),
                // Unplayed: lost by forfeit by whoever withdrew.
                None => match (w.is_some(), b.is_some()) {
                    (false, false) => return None,
                    (true, false) => (0, 2),
                    (false, true) => (2, 0),
                    (true, true) => (0, 0),
                },
            };
            Some(Counted {
                white: g.white,
                black: g.black,
                white_halves,
                black_halves,
            })
        })
        .collect()
}

/// The standings of `players` players (indices 0..players, in seat order) after `games`,
/// with each player's withdrawal if any (`withdrawn[i]`, shorter slices mean none).
/// Ordered by rank, cancelled players last.
pub fn standings(
    players: usize,
    games: &[Game],
    withdrawn: &[Option<Withdrawal>],
) -> Vec<Standing> {
    let state = |p: usize| withdrawn.get(p).copied().flatten();
    let games: Vec<Counted> = counted(games, withdrawn)
        .into_iter()
        .filter(|g| g.white < players && g.black < players)
        .collect();
    let mut halves = vec![0u32; players];
    let mut count = vec![0usize; players];
    for g in &games {
        halves[g.white] += g.white_halves;
        halves[g.black] += g.black_halves;
        count[g.white] += 1;
        count[g.black] += 1;
    }
    // SB in quarters: a win adds twice the opponent's half-points, a draw once.
    let mut sb = vec![0u32; players];
    for g in &games {
        sb[g.white] += g.white_halves * halves[g.black];
        sb[g.black] += g.black_halves * halves[g.white];
    }
    let mut rows: Vec<Standing> = (0..players)
        .map(|p| Standing {
            player: p,
            rank: None,
            halves: halves[p],
            sb_quarters: sb[p],
            direct_halves: 0,
            counted: count[p],
            withdrawn: state(p),
        })
        .collect();
    let cancelled = |s: &Standing| s.withdrawn == Some(Withdrawal::Cancelled);
    // Direct encounter within each group tied on points and SB.
    for p in 0..players {
        if cancelled(&rows[p]) {
            continue;
        }
        let tied = |q: usize| {
            q != p
                && !cancelled(&rows[q])
                && rows[q].halves == rows[p].halves
                && rows[q].sb_quarters == rows[p].sb_quarters
        };
        rows[p].direct_halves = games
            .iter()
            .map(|g| {
                if g.white == p && tied(g.black) {
                    g.white_halves
                } else if g.black == p && tied(g.white) {
                    g.black_halves
                } else {
                    0
                }
            })
            .sum();
    }
    let key = |s: &Standing| {
        (
            cancelled(s),
            std::cmp::Reverse((s.halves, s.sb_quarters, s.direct_halves)),
        )
    };
    rows.sort_by(|a, b| key(a).cmp(&key(b)).then(a.player.cmp(&b.player)));
    for i in 0..rows.len() {
        if cancelled(&rows[i]) {
            break;
        }
        rows[i].rank = Some(
            if i > 0 && key(&rows[i - 1]).cmp(&key(&rows[i])) == Ordering::Equal {
                rows[i - 1].rank.unwrap_or(i + 1)
            } else {
                i + 1
            },
        );
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::Outcome::*;
    use super::*;

    fn g(white: usize, black: usize, outcome: Outcome) -> Game {
        Game {
            white,
            black,
            outcome: Some(outcome),
        }
    }

    fn pending(white: usize, black: usize) -> Game {
        Game {
            white,
            black,
            outcome: None,
        }
    }

    /// (player, rank, points, SB) per line.
    fn table(s: &[Standing]) -> Vec<(usize, Option<usize>, String, String)> {
        s.iter()
            .map(|r| (r.player, r.rank, r.points_text(), r.sb_text()))
            .collect()
    }

    #[test]
    fn points_then_sonneborn_berger_by_hand() {
        // Four players, all six games. 0 beats 1 and 2, draws 3 (2.5); 1 beats 2 and 3 (2);
        // 2 beats 3 (1); 3 draws 0 (0.5).
        let games = [
            g(0, 1, WhiteWon),
            g(2, 0, BlackWon),
            g(0, 3, Drawn),
            g(1, 2, WhiteWon),
            g(3, 1, BlackWon),
            g(2, 3, WhiteWon),
        ];
        let s = standings(4, &games, &[]);
        // SB: 0 = 2 + 1 + 0.5/2 = 3.25; 1 = 1 + 0.5 = 1.5; 2 = 0.5; 3 = 2.5/2 = 1.25.
        assert_eq!(
            table(&s),
            [
                (0, Some(1), "2.5".into(), "3.25".into()),
                (1, Some(2), "2".into(), "1.5".into()),
                (2, Some(3), "1".into(), "0.5".into()),
                (3, Some(4), "0.5".into(), "1.25".into()),
            ]
        );
    }

    #[test]
    fn sonneborn_berger_separates_equal_points() {
        // 0 and 1 both on 2 points; 1's wins came against stronger opponents.
        let games = [
            g(1, 0, WhiteWon), // 1 beats 0
            g(0, 2, WhiteWon), // 0 beats 2
            g(0, 3, WhiteWon), // 0 beats 3
            g(2, 1, WhiteWon), // 2 beats 1
            g(1, 3, WhiteWon), // 1 beats 3
            g(3, 2, WhiteWon), // 3 beats 2
        ];
        // Points: 0 = 2, 1 = 2, 2 = 1, 3 = 1.
        // SB: 0 = 1 + 1 = 2; 1 = 2 + 1 = 3; 2 = 2; 3 = 1.
        let s = standings(4, &games, &[]);
        assert_eq!(
            table(&s),
            [
                (1, Some(1), "2".into(), "3".into()),
                (0, Some(2), "2".into(), "2".into()),
                (2, Some(3), "1".into(), "2".into()),
                (3, Some(4), "1".into(), "1".into()),
            ]
        );
    }

    #[test]
    fn the_direct_encounter_orders_a_pair_level_on_points_and_sb() {
        // Six players. 1 = w0 w2 w3 w4 l5 = 4; 0 = w2 w3 w4 l1 l5 = 3; 4 = w2 w3 w5 l0 l1 = 3;
        // 5 = w0 w1 l4 d2 d3 = 3; 2 = d3 d5 = 1; 3 = d2 d5 = 1.
        // SB 0 = p2 + p3 + p4 = 5; SB 4 = p2 + p3 + p5 = 5; SB 5 = p0 + p1 + p2/2 + p3/2 = 8.
        // 0 and 4 are level on points and SB; 0 beat 4, so 0 ranks before 4.
        let games = [
            g(1, 0, WhiteWon),
            g(0, 2, WhiteWon),
            g(0, 3, WhiteWon),
            g(0, 4, WhiteWon),
            g(5, 0, WhiteWon),
            g(1, 2, WhiteWon),
            g(1, 3, WhiteWon),
            g(4, 1, BlackWon),
            g(5, 1, WhiteWon),
            g(4, 2, WhiteWon),
            g(4, 3, WhiteWon),
            g(5, 4, BlackWon),
            g(2, 5, Drawn),
            g(3, 5, Drawn),
            g(2, 3, Drawn),
        ];
        let s = standings(6, &games, &[]);
        let order: Vec<_> = s.iter().map(|r| (r.player, r.rank)).collect();
        assert_eq!(
            order,
            [
                (1, Some(1)),
                (5, Some(2)),
                (0, Some(3)),
                (4, Some(4)),
                (2, Some(5)),
                (3, Some(5)),
            ]
        );
        assert_eq!((s[2].sb_quarters, s[3].sb_quarters), (20, 20));
        assert_eq!((s[2].direct_halves, s[3].direct_halves), (2, 0));
    }

    #[test]
    fn players_level_on_everything_share_the_rank_in_seat_order() {
        // A cycle of three: 0 beat 1, 1 beat 2, 2 beat 0. Same points, SB and encounter.
        let games = [g(0, 1, WhiteWon), g(1, 2, WhiteWon), g(2, 0, WhiteWon)];
        let s = standings(3, &games, &[]);
        let lines: Vec<_> = s
            .iter()
            .map(|r| (r.player, r.rank, r.direct_halves))
            .collect();
        assert_eq!(lines, [(0, Some(1), 2), (1, Some(1), 2), (2, Some(1), 2)]);
        // Five level players behind a sixth who beat them all: each of 0..=4 beat two others
        // (points 2, SB 2 + 2 = 4, encounter 2 among the five): all share rank 2.
        let games = [
            g(0, 1, WhiteWon),
            g(0, 4, WhiteWon),
            g(2, 0, WhiteWon),
            g(3, 0, WhiteWon),
            g(5, 0, WhiteWon),
            g(1, 2, WhiteWon),
            g(1, 3, WhiteWon),
            g(4, 1, WhiteWon),
            g(5, 1, WhiteWon),
            g(2, 4, WhiteWon),
            g(3, 2, WhiteWon),
            g(5, 2, WhiteWon),
            g(4, 3, WhiteWon),
            g(5, 3, WhiteWon),
            g(5, 4, WhiteWon),
        ];
        let s = standings(6, &games, &[]);
        assert_eq!((s[0].player, s[0].rank), (5, Some(1)));
        for (i, r) in s[1..].iter().enumerate() {
            assert_eq!((r.player, r.rank), (i, Some(2)));
            assert_eq!((r.halves, r.sb_quarters, r.direct_halves), (4, 16, 4));
        }
        // Nothing played: everyone first, in seat order.
        let s = standings(3, &[], &[]);
        assert!(s.iter().all(|r| r.rank == Some(1) && r.halves == 0));
    }

    #[test]
    fn the_withdrawal_threshold_is_half_the_games_completed() {
        // 5 players: 4 games each. 1 completed → cancelled; 2 completed (50%) → forfeits.
        assert_eq!(withdrawal(0, 4), Withdrawal::Cancelled);
        assert_eq!(withdrawal(1, 4), Withdrawal::Cancelled);
        assert_eq!(withdrawal(2, 4), Withdrawal::Forfeits);
        assert_eq!(withdrawal(3, 4), Withdrawal::Forfeits);
        // Odd number of games (4 players, 3 each): 1 of 3 < 50%, 2 of 3 ≥ 50%.
        assert_eq!(withdrawal(1, 3), Withdrawal::Cancelled);
        assert_eq!(withdrawal(2, 3), Withdrawal::Forfeits);
        // Double round robin of 4: 6 games; 2 cancelled, 3 forfeits.
        assert_eq!(withdrawal(2, 6), Withdrawal::Cancelled);
        assert_eq!(withdrawal(3, 6), Withdrawal::Forfeits);
        for w in [Withdrawal::Cancelled, Withdrawal::Forfeits] {
            assert_eq!(Withdrawal::parse(w.as_str()), Some(w));
        }
        assert_eq!(Withdrawal::parse("nope"), None);
    }

    /// Four players, 0 withdraws after one game (before half): its games vanish.
    #[test]
    fn a_withdrawal_before_half_cancels_every_result_of_that_player() {
        let games = [
            g(0, 3, WhiteWon), // 0 beat 3: cancelled with 0
            g(1, 2, Drawn),
            pending(3, 2),
            pending(0, 1),
            pending(1, 3),
            pending(2, 0),
        ];
        let w = withdrawal(1, 3);
        assert_eq!(w, Withdrawal::Cancelled);
        let s = standings(4, &games, &[Some(w)]);
        assert_eq!(s.last().unwrap().player, 0);
        assert_eq!(s.last().unwrap().rank, None);
        assert_eq!(s.last().unwrap().halves, 0);
        let by = |p: usize| s.iter().find(|r| r.player == p).unwrap().clone();
        // 3's loss to 0 is gone; 0's unplayed games give nobody anything.
        assert_eq!((by(1).halves, by(2).halves, by(3).halves), (1, 1, 0));
        assert_eq!((by(1).counted, by(3).counted), (1, 0));
        // The rest play on.
        let mut games = games;
        games[2].outcome = Some(WhiteWon);
        games[4].outcome = Some(BlackWon);
        let s = standings(4, &games, &[Some(w)]);
        let lines: Vec<_> = s.iter().map(|r| (r.player, r.rank, r.halves)).collect();
        // 1 = d2 l3 = .5; 2 = d1 l3 = .5; 3 = w2 w1 = 2.
        assert_eq!(
            lines,
            [
                (3, Some(1), 4),
                (1, Some(2), 1),
                (2, Some(2), 1),
                (0, None, 0)
            ]
        );
    }

    /// Four players, 0 withdraws after two games (at least half): results kept, the rest
    /// lost by forfeit.
    #[test]
    fn a_withdrawal_at_half_keeps_the_results_and_forfeits_the_rest() {
        let games = [
            g(0, 3, WhiteWon),
            g(1, 2, Drawn),
            g(2, 0, Drawn),
            g(3, 1, Drawn),
            pending(0, 1),
            pending(2, 3),
        ];
        let w = withdrawal(2, 3);
        assert_eq!(w, Withdrawal::Forfeits);
        let s = standings(4, &games, &[Some(w)]);
        let by = |p: usize| s.iter().find(|r| r.player == p).unwrap().clone();
        // 0 keeps 1.5; 1 wins 0–1 by forfeit; 2–3 not yet played.
        assert_eq!(by(0).halves, 3);
        assert!(by(0).rank.is_some());
        assert_eq!(by(1).halves, 1 + 1 + 2);
        assert_eq!((by(0).counted, by(1).counted, by(2).counted), (3, 3, 2));
        // Both withdrawn with forfeits and unplayed: neither scores.
        let s = standings(4, &games, &[Some(w), Some(Withdrawal::Forfeits)]);
        let by = |p: usize| s.iter().find(|r| r.player == p).unwrap().clone();
        assert_eq!((by(0).halves, by(1).halves), (3, 2));
        // 2–3 is unplayed with 3 withdrawn: 2 wins it.
        let s = standings(
            4,
            &games,
            &[Some(w), None, None, Some(Withdrawal::Forfeits)],
        );
        let by = |p: usize| s.iter().find(|r| r.player == p).unwrap().clone();
        assert_eq!((by(2).halves, by(3).halves), (1 + 1 + 2, 1));
    }

    #[test]
    fn printed_numbers() {
        assert_eq!(halves_text(0), "0");
        assert_eq!(halves_text(5), "2.5");
        let mut s = standings(3, &[], &[]);
        assert!(s.iter().all(|r| r.rank == Some(1)));
        s[0].sb_quarters = 13;
        assert_eq!(s[0].sb_text(), "3.25");
        s[0].sb_quarters = 15;
        assert_eq!(s[0].sb_text(), "3.75");
        s[0].sb_quarters = 14;
        assert_eq!(s[0].sb_text(), "3.5");
    }
}
