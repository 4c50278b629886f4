//! A round robin's plan: its players in seat order laid on FIDE's Berger tables
//! ([`super::berger`]), which round opens next, which of its games are played (a withdrawn
//! player's are not), and the standings ([`super::roundrobin`]) from the games recorded.
//! Pure: users are plain ids, the games recorded are given by the caller (the store).
//!
//! The rounds open one at a time: round R + 1 opens, all its games at once, when every game
//! of round R is over. A round whose every game involves a withdrawn player (or that is all
//! byes) is passed over. A withdrawn player's games not yet opened are never opened.

use std::collections::HashSet;

use super::berger::{self, PlayerCount, Round};
use super::roundrobin::{self, Game, Outcome, Standing, Withdrawal};

/// A game the store recorded: its round, its players, its result once over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recorded {
    pub round: usize,
    pub white: u64,
    pub black: u64,
    /// `None` while it is played.
    pub outcome: Option<Outcome>,
}

/// The round robin of some players, seat 1 first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    players: Vec<u64>,
    rounds: Vec<Round>,
}

/// What to do next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// A game of the round `round` is still being played.
    Playing { round: usize },
    /// Open round `round` with these games (white, black), at once.
    Open {
        round: usize,
        games: Vec<(u64, u64)>,
    },
    /// Every round is over: the round robin is finished.
    Finished,
}

impl Plan {
    /// The plan for `players` in seat order (3..=16 of them), once or twice round.
    pub fn new(players: Vec<u64>, double: bool) -> Result<Plan, PlayerCount> {
        let rounds = berger::schedule(players.len(), double)?;
        Ok(Plan { players, rounds })
    }

    /// The players, seat 1 first.
    pub fn players(&self) -> &[u64] {
        &self.players
    }

    /// How many rounds it has.
    pub fn rounds(&self) -> usize {
        self.rounds.len()
    }

    /// The games each player has in the whole schedule (byes not counted).
    pub fn games_each(&self) -> usize {
        let n = self.players.len();
        let cycles = self.rounds.len() / (n + n % 2 - 1);
        cycles * (n - 1)
    }

    fn user(&self, seat: usize) -> u64 {
        self.players[seat - 1]
    }

    /// Round `round`'s games as users (white, black), every board of the table.
    pub fn boards(&self, round: usize) -> Vec<(u64, u64)> {
        self.rounds
            .get(round.wrapping_sub(1))
            .map(|r| {
                r.boards
                    .iter()
                    .map(|b| (self.user(b.white), self.user(b.black)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Who sits out round `round` (odd counts), if anyone.
    pub fn bye(&self, round: usize) -> Option<u64> {
        self.rounds
            .get(round.wrapping_sub(1))
            .and_then(|r| r.bye)
            .map(|s| self.user(s))
    }

    /// What comes after the games `recorded` (every game opened so far), with `withdrawn`
    /// players' games never opened. The last round opened is the highest round recorded.
    pub fn next(&self, recorded: &[Recorded], withdrawn: &HashSet<u64>) -> Next {
        let last = recorded.iter().map(|g| g.round).max().unwrap_or(0);
        if last > 0
            && recorded
                .iter()
                .any(|g| g.round == last && g.outcome.is_none())
        {
            return Next::Playing { round: last };
        }
        for round in last + 1..=self.rounds.len() {
            let games: Vec<(u64, u64)> = self
                .boards(round)
                .into_iter()
                .filter(|(w, b)| !withdrawn.contains(w) && !withdrawn.contains(b))
                .collect();
            if !games.is_empty() {
                return Next::Open { round, games };
            }
        }
        Next::Finished
    }

    /// How many of `user`'s games are over in `recorded`.
    pub fn completed(&self, recorded: &[Recorded], user: u64) -> usize {
        recorded
            .iter()
            .filter(|g| g.outcome.is_some() && (g.white == user || g.black == user))
            .count()
    }

    /// FIDE's rule for `user` withdrawing after `recorded` (see [`roundrobin::withdrawal`]).
    pub fn withdrawal(&self, recorded: &[Recorded], user: u64) -> Withdrawal {
        roundrobin::withdrawal(self.completed(recorded, user), self.games_each())
    }

    /// The standings after `recorded`, with each withdrawn player's rule; players by index
    /// in seat order ([`Standing::player`] is the seat − 1).
    pub fn standings(
        &self,
        recorded: &[Recorded],
        withdrawals: &[(u64, Withdrawal)],
    ) -> Vec<Standing> {
        let seat_of = |u: u64| self.players.iter().position(|&p| p == u);
        // Every game of the schedule, with its result when recorded (the round's board).
        let mut games = Vec::new();
        for round in 1..=self.rounds.len() {
            for (w, b) in self.boards(round) {
                let outcome = recorded
                    .iter()
                    .find(|g| g.round == round && g.white == w && g.black == b)
                    .and_then(|g| g.outcome);
                if let (Some(white), Some(black)) = (seat_of(w), seat_of(b)) {
                    games.push(Game {
                        white,
                        black,
                        outcome,
                    });
                }
            }
        }
        let mut withdrawn = vec![None; self.players.len()];
        for (user, w) in withdrawals {
            if let Some(s) = seat_of(*user) {
                withdrawn[s] = Some(*w);
            }
        }
        roundrobin::standings(self.players.len(), &games, &withdrawn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(round: usize, white: u64, black: u64, outcome: Option<Outcome>) -> Recorded {
        Recorded {
            round,
            white,
            black,
            outcome,
        }
    }

    #[test]
    fn the_seats_are_the_players_in_order() {
        let plan = Plan::new(vec![10, 20, 30, 40], false).unwrap();
        assert_eq!(plan.rounds(), 3);
        assert_eq!(plan.games_each(), 3);
        // The table for 4: 1-4 2-3 / 4-3 1-2 / 2-4 3-1.
        assert_eq!(plan.boards(1), [(10, 40), (20, 30)]);
        assert_eq!(plan.boards(2), [(40, 30), (10, 20)]);
        assert_eq!(plan.boards(3), [(20, 40), (30, 10)]);
        assert!(plan.boards(4).is_empty() && plan.boards(0).is_empty());
        assert_eq!(Plan::new(vec![1, 2], false), Err(PlayerCount(2)));
        let double = Plan::new(vec![1, 2, 3, 4, 5], true).unwrap();
        assert_eq!((double.rounds(), double.games_each()), (10, 8));
        assert_eq!(double.bye(1), Some(1));
    }

    #[test]
    fn a_round_opens_when_the_last_is_over_and_the_end_comes_after_the_last() {
        let plan = Plan::new(vec![1, 2, 3, 4], false).unwrap();
        let none = HashSet::new();
        assert_eq!(
            plan.next(&[], &none),
            Next::Open {
                round: 1,
                games: vec![(1, 4), (2, 3)]
            }
        );
        let mut recorded = vec![rec(1, 1, 4, Some(Outcome::WhiteWon)), rec(1, 2, 3, None)];
        assert_eq!(plan.next(&recorded, &none), Next::Playing { round: 1 });
        recorded[1].outcome = Some(Outcome::Drawn);
        assert_eq!(
            plan.next(&recorded, &none),
            Next::Open {
                round: 2,
                games: vec![(4, 3), (1, 2)]
            }
        );
        recorded.push(rec(2, 4, 3, Some(Outcome::BlackWon)));
        recorded.push(rec(2, 1, 2, Some(Outcome::Drawn)));
        recorded.push(rec(3, 2, 4, Some(Outcome::Drawn)));
        recorded.push(rec(3, 3, 1, Some(Outcome::WhiteWon)));
        assert_eq!(plan.next(&recorded, &none), Next::Finished);
        // 1 = w4 d2 l3 = 1.5; 2 = d3 d1 d4 = 1.5; 3 = d2 w4 w1 = 2.5; 4 = 0.5.
        let s = plan.standings(&recorded, &[]);
        let lines: Vec<_> = s.iter().map(|r| (r.player, r.halves)).collect();
        // 1 and 2 level on 1.5: SB 1 = p4 + p2/2 = .5 + .75 = 1.25; SB 2 = (p3 + p1 + p4)/2
        // = 2.25. 2 before 1.
        assert_eq!(lines, [(2, 5), (1, 3), (0, 3), (3, 1)]);
    }

    #[test]
    fn a_withdrawn_players_games_are_never_opened_and_empty_rounds_are_passed() {
        // Three players on the table for 4, seat 4 the bye: one game a round.
        let plan = Plan::new(vec![1, 2, 3], false).unwrap();
        assert_eq!(plan.boards(1), [(2, 3)]);
        assert_eq!(plan.boards(2), [(1, 2)]);
        assert_eq!(plan.boards(3), [(3, 1)]);
        assert_eq!(plan.bye(1), Some(1));
        let recorded = [rec(1, 2, 3, Some(Outcome::WhiteWon))];
        let gone: HashSet<u64> = [1].into();
        // 1 withdrew: round 2 (1-2) and round 3 (3-1) both have 1 in them: finished.
        assert_eq!(plan.next(&recorded, &gone), Next::Finished);
        let gone: HashSet<u64> = [3].into();
        assert_eq!(
            plan.next(&recorded, &gone),
            Next::Open {
                round: 2,
                games: vec![(1, 2)]
            }
        );
        // 3 completed 1 of 2: 50%, its results stay and round 3 is lost by forfeit.
        assert_eq!(plan.withdrawal(&recorded, 3), Withdrawal::Forfeits);
        assert_eq!(plan.withdrawal(&[], 3), Withdrawal::Cancelled);
        let recorded = [recorded[0], rec(2, 1, 2, Some(Outcome::Drawn))];
        let s = plan.standings(&recorded, &[(3, Withdrawal::Forfeits)]);
        let lines: Vec<_> = s
            .iter()
            .map(|r| (r.player, r.rank, r.halves, r.counted))
            .collect();
        // 1 = d2 + a forfeit win over 3 = 1.5, SB .75; 2 = w3 d1 = 1.5, SB .75; they drew:
        // level on everything, rank 1 shared in seat order. 3 = 0 with its forfeit.
        assert_eq!(
            lines,
            [(0, Some(1), 3, 2), (1, Some(1), 3, 2), (2, Some(3), 0, 2)]
        );
    }
}
