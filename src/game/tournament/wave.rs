//! An arena's pairing wave, as lichess's (lila `modules/tournament/…/arena/PairingSystem.scala`,
//! `AntmaPairing.scala`, `ColorHistory.scala`): the players waiting (joined, not paused, not in
//! a game) are paired at once.
//!
//! - In the first seconds of the arena ([`RECENTLY_STARTED_MS`]), neighbours in the standings
//!   are paired two by two, colours at random.
//! - Otherwise, in groups of at most [`MAX_GROUP`] players (the best two groups; with more
//!   players, up to six more groups are paired by neighbours), a **minimum-weight maximum
//!   matching** pairs the group: the cost of a pair is the distance in the standings times a
//!   rank factor (2000 at the top of the group, falling to 300 at its bottom) plus the
//!   distance in rating. Two players who just played each other are never paired (unless they
//!   are the only two players active), nor two players who each had [`MAX_STRIKE`] games in a
//!   row with the same colour.
//! - An odd number waiting: the one who came last waits for the next wave, unless nobody can
//!   be paired without them.
//! - Colours: the player with the fewer whites in a row (then the lower white-minus-black
//!   balance) gets White; a tie is decided by a coin.

/// The first seconds of an arena, when neighbours are paired without a matching (lila's
/// `isRecentlyStarted`: 15 s).
pub const RECENTLY_STARTED_MS: i64 = 15_000;
/// The largest group paired by the weighted matching (lila's `maxGroupSize`).
pub const MAX_GROUP: usize = 100;
/// Two players who both had this many games in a row with the same colour are not paired
/// (lila's `maxStrike`).
pub const MAX_STRIKE: i32 = 3;

/// A player's colours so far, as lila keeps them: `strike` counts the games in a row with the
/// same colour (positive for White, negative for Black), `balance` is whites minus blacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ColourHistory {
    /// Games in a row with one colour: `+n` White, `-n` Black.
    pub strike: i32,
    /// Games with White minus games with Black.
    pub balance: i32,
}

impl ColourHistory {
    /// After one more game, with White when `white`.
    pub fn after(self, white: bool) -> ColourHistory {
        if white {
            ColourHistory {
                strike: (self.strike + 1).max(1),
                balance: self.balance + 1,
            }
        } else {
            ColourHistory {
                strike: (self.strike - 1).min(-1),
                balance: self.balance - 1,
            }
        }
    }

    /// Whether two players may meet: not when both had [`MAX_STRIKE`] blacks in a row, nor
    /// both as many whites (one of them would have to have a fourth).
    pub fn could_play(self, other: ColourHistory) -> bool {
        (self.strike > -MAX_STRIKE || other.strike > -MAX_STRIKE)
            && (self.strike < MAX_STRIKE || other.strike < MAX_STRIKE)
    }

    /// Whether the first gets White against `other`: the lower strike, then the lower
    /// balance; a tie asks `coin`.
    pub fn first_gets_white(self, other: ColourHistory, coin: &mut dyn FnMut() -> bool) -> bool {
        match (self.strike, self.balance).cmp(&(other.strike, other.balance)) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => coin(),
        }
    }
}

/// A player waiting for a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiting {
    /// Who.
    pub user: u64,
    /// Their place in the standings (1 is first).
    pub rank: u32,
    /// The rating they are paired by.
    pub rating: i32,
    /// Their colours so far.
    pub colours: ColourHistory,
    /// Whom they played last, if anyone.
    pub last_opponent: Option<u64>,
    /// Since when they wait (Unix ms): the last to come waits when the number is odd.
    pub since: i64,
}

/// One pairing of a wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pair {
    /// Who plays White.
    pub white: u64,
    /// Who plays Black.
    pub black: u64,
}

/// What the wave knows of the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaveContext {
    /// The arena began less than [`RECENTLY_STARTED_MS`] ago.
    pub recently_started: bool,
    /// Only two players are active in the arena: they may meet again and again.
    pub only_two_active: bool,
}

/// Pairs the players of `waiting` (in any order) for one wave.
pub fn pair_wave(
    waiting: &[Waiting],
    ctx: WaveContext,
    coin: &mut dyn FnMut() -> bool,
) -> Vec<Pair> {
    let mut players: Vec<Waiting> = waiting.to_vec();
    players.sort_by_key(|p| (p.rank, p.user));
    if players.len() % 2 == 1 {
        // The one who came last waits, unless nobody can be paired without them.
        let last = players
            .iter()
            .enumerate()
            .max_by_key(|(_, p)| (p.since, p.user))
            .map(|(i, _)| i);
        let mut even = players.clone();
        if let Some(i) = last {
            even.remove(i);
        }
        let pairs = make_pairs(&even, ctx, coin);
        if !pairs.is_empty() {
            return pairs;
        }
    }
    make_pairs(&players, ctx, coin)
}

fn make_pairs(players: &[Waiting], ctx: WaveContext, coin: &mut dyn FnMut() -> bool) -> Vec<Pair> {
    if players.len() < 2 {
        return Vec::new();
    }
    if ctx.recently_started {
        return players
            .chunks_exact(2)
            .map(|two| {
                if coin() {
                    Pair {
                        white: two[0].user,
                        black: two[1].user,
                    }
                } else {
                    Pair {
                        white: two[1].user,
                        black: two[0].user,
                    }
                }
            })
            .collect();
    }
    if players.len() <= MAX_GROUP {
        return best_pairs(players, ctx, coin);
    }
    let group = (players.len() / 4 * 2).min(MAX_GROUP);
    let mut pairs = best_pairs(&players[..group], ctx, coin);
    pairs.extend(best_pairs(&players[group..2 * group], ctx, coin));
    let rest = &players[2 * group..players.len().min(8 * group)];
    pairs.extend(
        rest.chunks_exact(2)
            .map(|two| coloured(&two[0], &two[1], coin)),
    );
    pairs
}

fn coloured(a: &Waiting, b: &Waiting, coin: &mut dyn FnMut() -> bool) -> Pair {
    if a.colours.first_gets_white(b.colours, coin) {
        Pair {
            white: a.user,
            black: b.user,
        }
    } else {
        Pair {
            white: b.user,
            black: a.user,
        }
    }
}

/// The cost of pairing `a` with `b` within a group whose lowest rank is `max_rank`, or
/// `None` when they may not meet.
fn cost(a: &Waiting, b: &Waiting, max_rank: u32, ctx: WaveContext) -> Option<i64> {
    if ctx.only_two_active {
        return Some(1);
    }
    let just_played = a.last_opponent == Some(b.user) || b.last_opponent == Some(a.user);
    if just_played || !a.colours.could_play(b.colours) {
        return None;
    }
    let max_rank = i64::from(max_rank.max(1));
    let top = i64::from(a.rank.min(b.rank));
    let factor = 300 + 1700 * (max_rank - top) / max_rank;
    let ranks = (i64::from(a.rank) - i64::from(b.rank)).abs();
    let ratings = (i64::from(a.rating) - i64::from(b.rating)).abs();
    Some(ranks * factor + ratings)
}

/// The minimum-weight matching among the largest ones: each allowed pair weighs `big - cost`
/// with `big` above the sum of any matching's costs, so one more pair always outweighs any
/// saving in cost.
fn best_pairs(players: &[Waiting], ctx: WaveContext, coin: &mut dyn FnMut() -> bool) -> Vec<Pair> {
    let n = players.len();
    if n < 2 {
        return Vec::new();
    }
    let max_rank = players.iter().map(|p| p.rank).max().unwrap_or(1);
    let mut costs = vec![None; n * n];
    let mut worst = 0i64;
    for i in 0..n {
        for j in i + 1..n {
            let c = cost(&players[i], &players[j], max_rank, ctx);
            if let Some(c) = c {
                worst = worst.max(c);
            }
            costs[i * n + j] = c;
        }
    }
    let big = (worst + 1) * (n as i64 / 2 + 1);
    let weights: Vec<i64> = costs.iter().map(|c| c.map_or(0, |c| big - c)).collect();
    let mate = integer_blossom::max_weight_matching(&weights, n);
    let mut pairs = Vec::new();
    for (i, m) in mate.iter().enumerate() {
        if let Some(j) = *m
            && i < j
        {
            pairs.push(coloured(&players[i], &players[j], coin));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(user: u64, rank: u32, rating: i32) -> Waiting {
        Waiting {
            user,
            rank,
            rating,
            colours: ColourHistory::default(),
            last_opponent: None,
            since: 0,
        }
    }

    const LATER: WaveContext = WaveContext {
        recently_started: false,
        only_two_active: false,
    };

    fn sorted(mut pairs: Vec<Pair>) -> Vec<(u64, u64)> {
        let mut v: Vec<(u64, u64)> = pairs
            .drain(..)
            .map(|p| (p.white.min(p.black), p.white.max(p.black)))
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn neighbours_in_the_standings_are_paired() {
        let players = [w(1, 1, 1500), w(2, 2, 1500), w(3, 3, 1500), w(4, 4, 1500)];
        let pairs = pair_wave(&players, LATER, &mut || true);
        assert_eq!(sorted(pairs), [(1, 2), (3, 4)]);
    }

    #[test]
    fn rating_decides_between_equal_ranks() {
        // All tied in the standings (rank by join): the ratings close to each other meet.
        let players = [w(1, 1, 2000), w(2, 1, 1200), w(3, 1, 1990), w(4, 1, 1210)];
        let pairs = pair_wave(&players, LATER, &mut || true);
        assert_eq!(sorted(pairs), [(1, 3), (2, 4)]);
    }

    #[test]
    fn the_last_opponent_is_avoided_while_others_wait() {
        let mut players = [w(1, 1, 1500), w(2, 2, 1500), w(3, 3, 1500), w(4, 4, 1500)];
        players[0].last_opponent = Some(2);
        players[1].last_opponent = Some(1);
        let pairs = pair_wave(&players, LATER, &mut || true);
        assert!(!sorted(pairs.clone()).contains(&(1, 2)), "{pairs:?}");
        assert_eq!(pairs.len(), 2);
        // Two players alone may meet again only when they are the only two active.
        let two = [players[0], players[1]];
        assert!(pair_wave(&two, LATER, &mut || true).is_empty());
        let duel = WaveContext {
            only_two_active: true,
            ..LATER
        };
        assert_eq!(pair_wave(&two, duel, &mut || true).len(), 1);
    }

    #[test]
    fn an_odd_number_leaves_the_last_to_come_waiting() {
        let mut players = [w(1, 1, 1500), w(2, 2, 1500), w(3, 3, 1500)];
        players[0].since = 10;
        players[1].since = 30; // came last
        players[2].since = 20;
        let pairs = pair_wave(&players, LATER, &mut || true);
        assert_eq!(sorted(pairs), [(1, 3)]);
    }

    #[test]
    fn colours_go_to_the_one_with_fewer_whites_in_a_row() {
        let mut a = w(1, 1, 1500);
        let mut b = w(2, 2, 1500);
        a.colours = ColourHistory::default().after(true); // had White
        b.colours = ColourHistory::default().after(false); // had Black
        let pairs = pair_wave(&[a, b], LATER, &mut || true);
        assert_eq!(pairs, [Pair { white: 2, black: 1 }]);
        // Both with three whites in a row may not meet.
        let three = ColourHistory::default().after(true).after(true).after(true);
        assert_eq!(three.strike, 3);
        a.colours = three;
        b.colours = three;
        assert!(pair_wave(&[a, b], LATER, &mut || true).is_empty());
        // A tie asks the coin.
        let (c, d) = (w(3, 1, 1500), w(4, 2, 1500));
        assert_eq!(pair_wave(&[c, d], LATER, &mut || true)[0].white, 3);
        assert_eq!(pair_wave(&[c, d], LATER, &mut || false)[0].white, 4);
    }

    #[test]
    fn the_matching_pairs_everyone_it_can_even_at_a_cost() {
        // 1 and 2 are closest, but pairing them leaves 3 and 4, who just played: the
        // matching takes 1–3 and 2–4 (or 1–4 and 2–3) so that all four play.
        let mut players = [w(1, 1, 1500), w(2, 2, 1500), w(3, 3, 1500), w(4, 4, 1500)];
        players[2].last_opponent = Some(4);
        players[3].last_opponent = Some(3);
        let pairs = pair_wave(&players, LATER, &mut || true);
        assert_eq!(pairs.len(), 2, "{pairs:?}");
        assert!(!sorted(pairs).contains(&(3, 4)));
    }

    #[test]
    fn large_waves_pair_in_groups_and_everyone_at_most_once() {
        let players: Vec<Waiting> = (0..500u32)
            .map(|i| w(u64::from(i) + 1, i + 1, 1000 + (i as i32 * 7919) % 1500))
            .collect();
        let pairs = pair_wave(&players, LATER, &mut || true);
        let mut seen = std::collections::HashSet::new();
        for p in &pairs {
            assert!(seen.insert(p.white) && seen.insert(p.black), "paired twice");
        }
        // Two groups of 100 by matching, then 6 × 100 by neighbours: all 500 paired.
        assert_eq!(pairs.len(), 250);
    }

    #[test]
    fn at_the_start_neighbours_are_paired_two_by_two() {
        let players = [w(1, 1, 2000), w(2, 2, 1000), w(3, 3, 1990), w(4, 4, 1010)];
        let start = WaveContext {
            recently_started: true,
            only_two_active: false,
        };
        assert_eq!(
            sorted(pair_wave(&players, start, &mut || true)),
            [(1, 2), (3, 4)]
        );
    }
}
