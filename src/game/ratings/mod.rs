//! Ratings: Glicko-2 exactly as lichess rates a game ([`glicko`]), one pool per server (guild)
//! and per [`Speed`]; games outside a server rate in a pool of their channel, so the
//! console's `local` channel is a pool of its own.
//!
//! A rated game changes both players' ratings in [`GameService::end_game`](super::GameService),
//! in the same transaction that ends it: the ending is ply-checked (only one ending of a game
//! ever lands), and the history has one row per game and player (`UNIQUE (game_id,
//! user_id)`), so a result counts exactly once whatever is redelivered or races.
//! [`Ratings::rebuild_ratings`] recomputes everything from the stored games through the
//! same function, in `(finished_at, id)` order with the stored end times, so it gives the
//! incremental result bit for bit.

pub mod glicko;
mod queries;

use cajitas_rules::Color;

pub use self::glicko::{Glicko, PROVISIONAL_DEVIATION, Params};
pub use self::queries::{
    ChartPoint, LEADERBOARD_PAGE, LeaderEntry, LeaderboardView, Missing, MyStanding, OpeningStats,
    RecentGame, SpeedStats, StatsView, Streak, TOP_OPENINGS, Wdl, top_openings,
};
/// The leaderboard's thresholds and a pool's speed: the words the game shares with the store
/// (see [`crate::vocab`]).
pub use crate::vocab::{RANKED_MAX_DEVIATION, RANKED_MIN_GAMES, Speed};

use super::{GameError, GameService, UserRef};
use crate::store::{GameRow, GameStatus, RatingChangeRow, RatingRow, Side, Tx, UserRow};

/// The rating system in use: lichess's parameters.
pub const PARAMS: Params = Params::LICHESS;

/// The speed of `game`, the one place it is decided: a Chess960 game is
/// [`Speed::Chess960`] whatever its clock (one Chess960 rating, as lichess has); otherwise a
/// live clock is [`Speed::Live`], correspondence and untimed games are
/// [`Speed::Correspondence`].
pub fn speed_of(game: &GameRow) -> Speed {
    if game.chess960.is_some() {
        return Speed::Chess960;
    }
    super::TimeControl::from_row(game.tc).speed()
}

/// The pool of a game played in `guild`/`channel`: the guild's id, or outside a server the
/// channel's (the i64 with the same bits, as stored).
pub fn pool_of(guild: Option<u64>, channel: u64) -> i64 {
    guild.unwrap_or(channel) as i64
}

/// Whether a game is played against the engine (or any bot account): never rated.
pub fn is_engine_game(game: &GameRow) -> bool {
    let engine = |u: &UserRow| u.is_bot || super::engine::engine_level_of(u.id).is_some();
    engine(&game.white) || engine(&game.black)
}

/// Fewer moves than this per side leave a game unrated.
pub const MIN_MOVES_PER_SIDE: u32 = 2;

/// Why a game does not count for the ratings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unrated {
    /// Played as a casual game (`rated:false`).
    Casual,
    /// Against an engine.
    Engine,
    /// Aborted, or not over.
    NoResult,
    /// Fewer than two moves per side.
    TooShort,
}

/// The ratings `game`, still being played, would change if it ended now with a result, as
/// `(pool, speed, player)` for [`crate::store::Ratings::lock_ratings`]; `None` when such an
/// end is unrated.
pub fn ratings_at_stake(game: &GameRow) -> Option<[(i64, Speed, u64); 2]> {
    let rated = game.rated && !is_engine_game(game) && game.ply >= 2 * MIN_MOVES_PER_SIDE;
    let (pool, speed) = (pool_of(game.guild, game.channel), speed_of(game));
    rated.then(|| [game.white.id, game.black.id].map(|u| (pool, speed, u)))
}

/// `None` when `game` counts for the ratings, otherwise why not.
pub fn unrated_reason(game: &GameRow) -> Option<Unrated> {
    if !game.rated {
        Some(Unrated::Casual)
    } else if is_engine_game(game) {
        Some(Unrated::Engine)
    } else if game.status != GameStatus::Finished {
        Some(Unrated::NoResult)
    } else if game.ply < 2 * MIN_MOVES_PER_SIDE {
        Some(Unrated::TooShort)
    } else {
        None
    }
}

/// A stored rating (`rating`, `deviation`, `volatility` as of `rated_at`) as it stands at
/// `now`: its deviation widened by the rating periods without games since. The game ratings'
/// update and display, and the puzzle rating's, all read a stored rating through it.
pub(crate) fn as_of(
    rating: f64,
    deviation: f64,
    volatility: f64,
    rated_at: i64,
    now: i64,
) -> Glicko {
    let stored = Glicko {
        rating,
        deviation,
        volatility,
    };
    Glicko {
        deviation: PARAMS.decayed_after_ms(stored, now - rated_at),
        ..stored
    }
}

/// A rating as shown: rounded, with "?" while provisional.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shown {
    /// The rating.
    pub rating: f64,
    /// The deviation (widened by inactivity up to when it is shown).
    pub deviation: f64,
}

impl From<Glicko> for Shown {
    fn from(g: Glicko) -> Shown {
        Shown {
            rating: g.rating,
            deviation: g.deviation,
        }
    }
}

impl Shown {
    /// The rating rounded to a whole number.
    pub fn rounded(&self) -> i64 {
        self.rating.round() as i64
    }

    /// Whether it is provisional (RD ≥ 110).
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// "1523" or "1490?".
    pub fn text(&self) -> String {
        format!(
            "{}{}",
            self.rounded(),
            if self.provisional() { "?" } else { "" }
        )
    }
}

/// One player's rating change after a rated game, for the final message.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    /// The player.
    pub user: UserRef,
    /// Their colour.
    pub colour: Color,
    /// The pool's speed.
    pub speed: Speed,
    /// Before the game (the deviation widened by inactivity, as used).
    pub before: Shown,
    /// After it.
    pub after: Shown,
}

impl RatingChange {
    /// The change as shown: the rounded ratings' difference.
    pub fn diff(&self) -> i64 {
        self.after.rounded() - self.before.rounded()
    }

    /// "+15", "−15" (a minus sign) or "±0".
    pub fn diff_text(&self) -> String {
        signed(self.diff())
    }

    fn from_row(c: &RatingChangeRow, user: UserRef) -> RatingChange {
        RatingChange {
            user,
            colour: match c.colour {
                Side::White => Color::White,
                Side::Black => Color::Black,
            },
            speed: c.speed,
            before: Shown {
                rating: c.rating_before,
                deviation: c.deviation_before,
            },
            after: Shown {
                rating: c.rating_after,
                deviation: c.deviation_after,
            },
        }
    }
}

/// "+15", "−15" (U+2212) or "±0".
pub fn signed(n: i64) -> String {
    match n {
        0 => "±0".to_owned(),
        n if n > 0 => format!("+{n}"),
        n => format!("\u{2212}{}", n.unsigned_abs()),
    }
}

/// What a rebuild did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RebuildReport {
    /// Rated games replayed.
    pub games: usize,
    /// Players with a rating afterwards (counted once per pool and speed).
    pub ratings: usize,
}

impl GameService {
    /// Rates `game` (just finished at `now`, or replayed by a rebuild with its stored end
    /// time) when it counts: both ratings are computed from the players' ratings before it,
    /// widened by their inactivity, and written with one history row each. Returns the
    /// changes (none for an unrated game). Refused as internal when the game was already
    /// counted: the caller's transaction then rolls back.
    pub(super) fn rate_in(
        tx: &dyn Tx,
        game: &GameRow,
        now: i64,
    ) -> Result<Vec<RatingChange>, GameError> {
        if unrated_reason(game).is_some() {
            return Ok(Vec::new());
        }
        let pool = pool_of(game.guild, game.channel);
        let speed = speed_of(game);
        let white_score = match game.winner {
            Some(Side::White) => 1.0,
            Some(Side::Black) => 0.0,
            None => 0.5,
        };
        // Both ratings in one read, both history rows and both ratings in one write each.
        let rows = tx.rating_pair(pool, speed, [game.white.id, game.black.id])?;
        let [(w, w_games), (b, b_games)] = rows.map(|row| match row {
            Some(r) => (
                as_of(r.rating, r.deviation, r.volatility, r.rated_at, now),
                r.games,
            ),
            None => (PARAMS.start, 0),
        });
        let (w_new, b_new) = PARAMS.rate_game(w, b, white_score);
        let change =
            |user: &UserRow, colour, before: Glicko, after: Glicko, score| RatingChangeRow {
                game_id: game.id,
                pool,
                speed,
                user_id: user.id,
                colour,
                score,
                rating_before: before.rating,
                deviation_before: before.deviation,
                rating_after: after.rating,
                deviation_after: after.deviation,
                volatility_after: after.volatility,
                at: now,
            };
        let rating = |user: &UserRow, after: Glicko, games: u32| RatingRow {
            pool,
            speed,
            user_id: user.id,
            rating: after.rating,
            deviation: after.deviation,
            volatility: after.volatility,
            games: games + 1,
            rated_at: now,
        };
        let changes = [
            change(&game.white, Side::White, w, w_new, white_score),
            change(&game.black, Side::Black, b, b_new, 1.0 - white_score),
        ];
        let ratings = [
            rating(&game.white, w_new, w_games),
            rating(&game.black, b_new, b_games),
        ];
        if !tx.record_rating_changes(&changes, &ratings)? {
            return Err(super::Failure::bad_game(format!(
                "game {}: its result was already counted",
                game.id
            ))
            .into());
        }
        Ok(vec![
            RatingChange::from_row(&changes[0], game.white.clone().into()),
            RatingChange::from_row(&changes[1], game.black.clone().into()),
        ])
    }

    /// The rating changes recorded for game `game_id`, between `white` and `black`, read in
    /// `tx` (empty for an unrated game).
    pub(in crate::game) fn rating_changes_in(
        tx: &dyn Tx,
        game_id: i64,
        white: &UserRef,
        black: &UserRef,
    ) -> Result<Vec<RatingChange>, GameError> {
        Ok(tx
            .game_rating_changes(game_id)?
            .iter()
            .map(|c| {
                let user = if c.user_id == white.id { white } else { black };
                RatingChange::from_row(c, user.clone())
            })
            .collect())
    }
}

/// Ratings: the leaderboard, a player's stats (with the points of their rating chart), the
/// rating changes a game caused, and the rebuild of every rating. From
/// [`GameService::ratings`].
#[derive(Debug, Clone, Copy)]
pub struct Ratings<'a> {
    pub(in crate::game) svc: &'a GameService,
}

impl Ratings<'_> {
    /// The rating changes a game caused (empty for an unrated game).
    pub fn rating_changes(&self, game_id: i64) -> Result<Vec<RatingChange>, GameError> {
        self.svc.read(|tx| {
            let game = tx.game(game_id)?.ok_or(GameError::NoGame)?;
            let (white, black) = (game.white.into(), game.black.into());
            GameService::rating_changes_in(tx, game_id, &white, &black)
        })
    }

    /// `cajitas ratings rebuild`: forgets every rating and replays every finished rated game
    /// in `(finished_at, id)` order with its stored end time, in one transaction (a failure
    /// leaves the ratings as they were).
    pub fn rebuild_ratings(&self) -> Result<RebuildReport, GameError> {
        self.svc.write(|tx, _now| {
            tx.clear_ratings()?;
            let games = tx.rated_games()?;
            let mut players = std::collections::HashSet::new();
            let mut rated = 0;
            for g in &games {
                let at = g.finished_at.unwrap_or(g.updated_at);
                let changes = GameService::rate_in(tx, g, at)?;
                if !changes.is_empty() {
                    rated += 1;
                }
                for c in changes {
                    players.insert((pool_of(g.guild, g.channel), c.speed, c.user.id));
                }
            }
            Ok(RebuildReport {
                games: rated,
                ratings: players.len(),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_and_marks() {
        assert_eq!(signed(15), "+15");
        assert_eq!(signed(-15), "\u{2212}15");
        assert_eq!(signed(0), "±0");
        let s = Shown {
            rating: 1489.6,
            deviation: 110.0,
        };
        assert_eq!(s.text(), "1490?");
        let s = Shown {
            rating: 1523.4,
            deviation: 109.9,
        };
        assert_eq!(s.text(), "1523");
    }

    #[test]
    fn the_leaderboard_thresholds_match_the_index() {
        assert_eq!(RANKED_MAX_DEVIATION, PROVISIONAL_DEVIATION);
        for sql in [
            include_str!("../../../migrations/0008_ratings.sql"),
            include_str!("../../../migrations/0015_leaderboard_inactivity.sql"),
            include_str!("../../../migrations/postgres/0015_leaderboard_inactivity.sql"),
        ] {
            assert!(sql.contains(&format!(
                "WHERE games >= {} AND deviation < {}",
                RANKED_MIN_GAMES, RANKED_MAX_DEVIATION
            )));
        }
    }

    /// The leaderboard's test of the RD as of now (the stores' SQL, without a square root) is
    /// the decay the "?" is shown by: listed exactly while not provisional.
    #[test]
    fn the_leaderboard_tests_the_rd_the_provisional_mark_shows() {
        use crate::store::{RatingRow, ranked_at};
        use crate::vocab::RANKED_RD2_PER_MS;
        let per_ms = glicko::PERIODS_PER_DAY / 86_400_000.0 * glicko::SCALE * glicko::SCALE;
        assert!((RANKED_RD2_PER_MS - per_ms).abs() <= per_ms * 1e-15);
        let day = 86_400_000;
        for (rd, vol) in [
            (45.0, 0.06),
            (60.0, 0.06),
            (90.0, 0.09),
            (109.0, 0.1),
            (80.0, 0.03),
        ] {
            let row = RatingRow {
                pool: 1,
                speed: Speed::Live,
                user_id: 1,
                rating: 1500.0,
                deviation: rd,
                volatility: vol,
                games: 5,
                rated_at: 0,
            };
            let g = Glicko {
                rating: 1500.0,
                deviation: rd,
                volatility: vol,
            };
            // Every 6 hours for 3 years, not only near the boundary.
            for t in (0..3 * 365 * 4).map(|q| q * day / 4) {
                let shown = Shown {
                    rating: 1500.0,
                    deviation: PARAMS.decayed_after_ms(g, t),
                };
                assert_eq!(ranked_at(&row, t), !shown.provisional(), "{rd} {vol} {t}");
            }
            // The stored moment is the boundary of the RD test (migration 0017): steady a
            // millisecond before it, RD² + t·k·σ² at 110² or above from it on.
            let until = crate::store::steady_until(rd, vol, 0);
            assert!(
                ranked_at(&row, until - 1) && !ranked_at(&row, until),
                "{rd} {vol}"
            );
            let rd2 = |t: i64| rd * rd + t as f64 * RANKED_RD2_PER_MS * (vol * vol);
            assert!(rd2(until - 1) < 110.0 * 110.0 && rd2(until) >= 110.0 * 110.0 - 1e-9);
            // Time never runs backwards.
            assert!(ranked_at(&row, -day));
            assert!(!ranked_at(&RatingRow { games: 4, ..row }, 0));
        }
    }
}
