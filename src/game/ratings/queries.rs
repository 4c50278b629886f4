//! Reading the ratings: a server's leaderboard and a player's stats.

use cajitas_rules::{Color, Position, Uci};

use super::{RatingChange, Ratings, Shown, Speed, as_of, pool_of};
use crate::game::{ChannelRef, GameError, UserRef};
use crate::store::{OpeningMoveRow, RatingChangeRow, RatingRow, Side};

/// Players per leaderboard page.
pub const LEADERBOARD_PAGE: u32 = 10;

/// How many recent games the stats list.
pub const RECENT_GAMES: usize = 5;

/// How many opening families the stats list per colour.
pub const TOP_OPENINGS: usize = 5;

/// An opening family a player played with one colour: how often, and how it went.
#[derive(Debug, Clone, PartialEq)]
pub struct OpeningStats {
    /// The family, lichess's name before the colon ("Sicilian Defense").
    pub family: &'static str,
    /// Games.
    pub games: u32,
    /// Their results, for the player.
    pub score: Wdl,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderEntry {
    /// 1 for the best.
    pub rank: u64,
    /// The player.
    pub user: UserRef,
    /// Their rating as shown now.
    pub shown: Shown,
    /// Rated games.
    pub games: u32,
}

/// Where the viewer stands.
#[derive(Debug, Clone, PartialEq)]
pub enum MyStanding {
    /// Listed, at `rank`.
    Ranked {
        /// 1 for the best.
        rank: u64,
        /// Their rating as shown now.
        shown: Shown,
    },
    /// Not listed: too few rated games, or a rating not steady (as of now).
    Unranked {
        /// Their rated games in this speed.
        games: u32,
        /// Their rating, when they have one (the RD as of now).
        shown: Option<Shown>,
        /// What keeps them off the list.
        missing: Missing,
    },
}

/// What keeps a player off a leaderboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Rated games: they have fewer than [`super::RANKED_MIN_GAMES`]; their RD as of
    /// now is steady enough.
    Games,
    /// A steady rating: they have the games, but their RD as of now (widened by inactivity)
    /// is 110 or more.
    Steadiness,
    /// Both (a new player).
    Both,
}

/// A page of a server's leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderboardView {
    /// The speed.
    pub speed: Speed,
    /// The page shown, from 0.
    pub page: u32,
    /// How many pages there are (at least 1).
    pub pages: u32,
    /// How many players are listed in all.
    pub total: u64,
    /// The pool's version when read: a button made from this view is stale once it moves.
    pub version: i64,
    /// The page's lines.
    pub entries: Vec<LeaderEntry>,
    /// Where the viewer stands.
    pub me: MyStanding,
}

/// Wins, draws and losses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Wdl {
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

impl Wdl {
    /// Twice the points scored (a win 2, a draw 1), an integer to compare.
    fn points2(&self) -> u32 {
        2 * self.wins + self.draws
    }

    fn add(&mut self, score: f64) {
        if score >= 1.0 {
            self.wins += 1;
        } else if score <= 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// The current streak: the last result, repeated `len` times in a row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Streak {
    /// 1 (wins), 0.5 (draws) or 0 (losses).
    pub score: f64,
    /// How many in a row.
    pub len: u32,
}

/// One point of a rating history: after a rated game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChartPoint {
    /// When (Unix ms).
    pub at: i64,
    /// The rating after the game.
    pub rating: f64,
    /// The deviation after the game.
    pub deviation: f64,
}

/// A player's ratings in one speed.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedStats {
    /// The speed.
    pub speed: Speed,
    /// The rating as shown now (the RD widened by inactivity).
    pub shown: Shown,
    /// Rated games.
    pub games: u32,
    /// With white.
    pub white: Wdl,
    /// With black.
    pub black: Wdl,
    /// The highest rating after a rated game.
    pub peak: f64,
    /// The current streak.
    pub streak: Option<Streak>,
    /// The rating after each rated game, oldest first.
    pub history: Vec<ChartPoint>,
}

/// One of the last rated games.
#[derive(Debug, Clone, PartialEq)]
pub struct RecentGame {
    /// The game.
    pub game_id: i64,
    /// Where it was played: its thread, or its channel when it had none.
    pub place: ChannelRef,
    /// The opponent.
    pub opponent: UserRef,
    /// The player's colour.
    pub colour: Color,
    /// The player's score: 1, 0.5 or 0.
    pub score: f64,
    /// The player's rating change.
    pub change: RatingChange,
    /// When it ended (Unix ms).
    pub at: i64,
}

/// A player's stats in a server.
#[derive(Debug, Clone, PartialEq)]
pub struct StatsView {
    /// The player.
    pub user: UserRef,
    /// Per speed, those with rated games.
    pub speeds: Vec<SpeedStats>,
    /// The last rated games, newest first (every speed).
    pub recent: Vec<RecentGame>,
    /// The puzzle rating as shown now and its rated attempts, for someone who has one here.
    pub puzzles: Option<(Shown, u32)>,
    /// The puzzle rating after each rated attempt, oldest first (the chart's puzzle line).
    pub puzzle_history: Vec<ChartPoint>,
    /// The best Puzzle Streak here (puzzles solved; 0 without one).
    pub puzzle_streak: u32,
    /// The daily puzzle streak: consecutive days up to today or yesterday solved here.
    pub daily_streak: u32,
    /// The opening families played most with white, then with black ([`TOP_OPENINGS`]
    /// each, most played first), over every finished game here, rated or not.
    pub openings: [Vec<OpeningStats>; 2],
}

/// The opening families `player` played most with each colour, from the first moves of their
/// games ([`crate::store::Games::opening_moves_of`]); grouped by family as lichess's opening
/// explorer groups them, most played first (then the better score, then the name).
pub fn top_openings(rows: &[OpeningMoveRow], player: u64) -> [Vec<OpeningStats>; 2] {
    use std::collections::HashMap;
    let mut by: [HashMap<&'static str, (u32, Wdl)>; 2] = Default::default();
    let start = Position::new();
    for game in rows.chunk_by(|a, b| a.game_id == b.game_id) {
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(game.len());
        for m in game {
            let Some(mv) = m.uci.parse::<Uci>().ok().and_then(|u| u.to_move(&pos).ok()) else {
                break;
            };
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        let Some(found) = crate::openings::of_game(&start, &moves) else {
            continue;
        };
        let first = &game[0];
        let black = first.white != player;
        let score = match (first.result.as_str(), black) {
            ("1-0", false) | ("0-1", true) => 1.0,
            ("1-0" | "0-1", _) => 0.0,
            _ => 0.5,
        };
        let e = by[usize::from(black)]
            .entry(found.opening.family())
            .or_default();
        e.0 += 1;
        e.1.add(score);
    }
    by.map(|m| {
        let mut list: Vec<OpeningStats> = m
            .into_iter()
            .map(|(family, (games, score))| OpeningStats {
                family,
                games,
                score,
            })
            .collect();
        list.sort_by(|a, b| {
            b.games
                .cmp(&a.games)
                .then(b.score.points2().cmp(&a.score.points2()))
                .then(a.family.cmp(b.family))
        });
        list.truncate(TOP_OPENINGS);
        list
    })
}

fn shown_now(r: &RatingRow, now: i64) -> Shown {
    as_of(r.rating, r.deviation, r.volatility, r.rated_at, now).into()
}

/// What keeps `r` off its leaderboard at `now`, or `None` when it is listed.
fn missing(r: &RatingRow, now: i64) -> Option<Missing> {
    let games = r.games >= super::RANKED_MIN_GAMES;
    match (games, crate::store::steady_at(r, now)) {
        (true, true) => None,
        (false, true) => Some(Missing::Games),
        (true, false) => Some(Missing::Steadiness),
        (false, false) => Some(Missing::Both),
    }
}

fn speed_stats(r: &RatingRow, changes: &[RatingChangeRow], now: i64) -> SpeedStats {
    let (mut white, mut black) = (Wdl::default(), Wdl::default());
    let mut peak = f64::MIN;
    for c in changes {
        match c.colour {
            Side::White => white.add(c.score),
            Side::Black => black.add(c.score),
        }
        peak = peak.max(c.rating_after);
    }
    let streak = changes.last().map(|last| Streak {
        score: last.score,
        len: changes
            .iter()
            .rev()
            .take_while(|c| c.score == last.score)
            .count() as u32,
    });
    SpeedStats {
        speed: r.speed,
        shown: shown_now(r, now),
        games: r.games,
        white,
        black,
        peak: if changes.is_empty() { r.rating } else { peak },
        streak,
        history: changes
            .iter()
            .map(|c| ChartPoint {
                at: c.at,
                rating: c.rating_after,
                deviation: c.deviation_after,
            })
            .collect(),
    }
}

impl Ratings<'_> {
    /// Page `page` (from 0; past the end, the last page) of the leaderboard of the server
    /// of `place` in `speed`, with where `viewer` stands. With `version` (from a button),
    /// refused with [`GameError::PositionChanged`] when a rated game changed the pool since.
    pub fn leaderboard(
        &self,
        place: ChannelRef,
        speed: Speed,
        page: u32,
        viewer: u64,
        version: Option<i64>,
    ) -> Result<LeaderboardView, GameError> {
        let now = self.svc.now();
        let pool = pool_of(place.guild, place.channel);
        self.svc.read(|tx| {
            let current = tx.ratings_version(pool, speed)?;
            if version.is_some_and(|v| v != current) {
                return Err(GameError::PositionChanged);
            }
            // The page count and the viewer's rank from one pass over the index.
            let mine = tx.rating(pool, speed, viewer)?;
            // Listed or not by the RD as of now, as the "?" of a provisional rating shows.
            let listed = mine.as_ref().filter(|r| missing(r, now).is_none());
            let (total, above) = tx.ranked_count_and_above(pool, speed, now, listed)?;
            let pages = total.div_ceil(u64::from(LEADERBOARD_PAGE)).max(1);
            let page = u64::from(page).min(pages - 1);
            let offset = page * u64::from(LEADERBOARD_PAGE);
            let entries = tx
                .leaderboard(pool, speed, now, offset, LEADERBOARD_PAGE)?
                .into_iter()
                .enumerate()
                .map(|(i, (r, u))| LeaderEntry {
                    rank: offset + i as u64 + 1,
                    shown: shown_now(&r, now),
                    games: r.games,
                    user: u.into(),
                })
                .collect();
            let me = match (mine, above) {
                (Some(r), Some(above)) => MyStanding::Ranked {
                    rank: above + 1,
                    shown: shown_now(&r, now),
                },
                (Some(r), None) => MyStanding::Unranked {
                    games: r.games,
                    shown: Some(shown_now(&r, now)),
                    missing: missing(&r, now).unwrap_or(Missing::Steadiness),
                },
                (None, _) => MyStanding::Unranked {
                    games: 0,
                    shown: None,
                    missing: Missing::Both,
                },
            };
            Ok(LeaderboardView {
                speed,
                page: page as u32,
                pages: pages.min(u64::from(u32::MAX)) as u32,
                total,
                version: current,
                entries,
                me,
            })
        })
    }

    /// `user`'s ratings and results in the server of `place`: per speed, and their last
    /// rated games.
    pub fn stats(&self, place: ChannelRef, user: &UserRef) -> Result<StatsView, GameError> {
        let now = self.svc.now();
        let pool = pool_of(place.guild, place.channel);
        self.svc.read(|tx| {
            let shown_user: UserRef = match tx.user(user.id)? {
                Some(u) => u.into(),
                None => user.capped().into(),
            };
            let mut speeds = Vec::new();
            let mut all: Vec<RatingChangeRow> = Vec::new();
            for r in tx.ratings_of(pool, user.id)? {
                let changes = tx.rating_changes(pool, r.speed, user.id)?;
                speeds.push(speed_stats(&r, &changes, now));
                all.extend(changes.into_iter().rev().take(RECENT_GAMES));
            }
            all.sort_by_key(|c| std::cmp::Reverse((c.at, c.game_id)));
            let mut recent = Vec::new();
            for c in all.into_iter().take(RECENT_GAMES) {
                let Some(g) = tx.game(c.game_id)? else {
                    continue;
                };
                let (me, opponent) = match c.colour {
                    Side::White => (&g.white, &g.black),
                    Side::Black => (&g.black, &g.white),
                };
                recent.push(RecentGame {
                    game_id: g.id,
                    // Its thread when it had one (where its moves are), else its channel.
                    place: ChannelRef {
                        guild: g.guild,
                        channel: g.thread.unwrap_or(g.channel),
                    },
                    opponent: opponent.clone().into(),
                    colour: match c.colour {
                        Side::White => Color::White,
                        Side::Black => Color::Black,
                    },
                    score: c.score,
                    change: RatingChange::from_row(&c, me.clone().into()),
                    at: c.at,
                });
            }
            let moves = tx.opening_moves_of(
                place.guild.unwrap_or(place.channel),
                user.id,
                cajitas_rules::Fen::INITIAL,
                crate::openings::SEARCH_MAX_PLIES as u32,
            )?;
            let puzzles = tx.puzzle_rating(pool, user.id)?.map(|r| {
                let shown = as_of(r.rating, r.deviation, r.volatility, r.rated_at, now);
                (shown.into(), r.attempts)
            });
            let puzzle_history = tx
                .puzzle_rating_history(pool, user.id)?
                .into_iter()
                .map(|(at, rating, deviation)| ChartPoint {
                    at,
                    rating,
                    deviation,
                })
                .collect();
            let puzzle_streak = tx.best_puzzle_run(pool, user.id)?.unwrap_or(0);
            let daily_streak = crate::game::daily::consecutive(
                &tx.daily_days_solved(pool, user.id)?,
                crate::game::day_of(now).0,
            );
            Ok(StatsView {
                user: shown_user,
                speeds,
                recent,
                puzzles,
                puzzle_history,
                puzzle_streak,
                daily_streak,
                openings: top_openings(&moves, user.id),
            })
        })
    }
}
