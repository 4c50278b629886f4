//! An arena player's score sheet, as lichess's (lila `modules/tournament/…/arena/ArenaSheet.scala`,
//! its version 2, in force since 2020-04-21, for a tournament with streaks): each game's points
//! from its result, its length in plies, the player's berserk, and the games before it.
//!
//! - A win is 2 points; a draw 1; a loss 0.
//! - **On fire**: when the player's two previous games were both wins, a win is 4 and a draw 2,
//!   until a game that is not a win.
//! - **Berserk**: a berserk player's win gets 1 more when the game lasted at least
//!   [`BERSERK_MIN_PLIES`] plies.
//! - **Quick draw**: a draw in fewer than [`QUICK_DRAW_PLIES`] plies scores 0.
//! - **Draw streak**: a draw that follows an earlier draw with no win in between (losses may
//!   come between) scores 0, unless the game lasted at least [`LONG_GAME_PLIES`] plies (or the
//!   player is on fire).

/// A berserk win scores its extra point only when the game lasted at least this many plies
/// (lila's `Pairing.notSoQuickFinish`).
pub const BERSERK_MIN_PLIES: u32 = 14;
/// A draw in fewer plies than this is a quick draw and scores nothing (lila's `quickDraw`).
pub const QUICK_DRAW_PLIES: u32 = 20;
/// A draw of at least this many plies scores even in a draw streak (lila's `longGame`).
pub const LONG_GAME_PLIES: u32 = 60;

/// A game's result for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// They won.
    Win,
    /// Drawn.
    Draw,
    /// They lost.
    Loss,
}

/// One finished game as the sheet sees it, for one of its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SheetGame {
    /// Their result.
    pub result: GameResult,
    /// How many plies the game lasted.
    pub plies: u32,
    /// Whether they went berserk in it.
    pub berserk: bool,
}

/// How a game scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Score {
    /// The result it scored.
    pub result: GameResult,
    /// Its points.
    pub points: u32,
    /// Scored on fire (the two games before it were wins): its points were doubled.
    pub fire: bool,
    /// The player went berserk.
    pub berserk: bool,
    /// A draw that scored nothing: a quick draw, or a draw in a draw streak.
    pub void_draw: bool,
}

/// A player's sheet: their games' scores in the order played.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sheet {
    scores: Vec<Score>,
    total: u32,
}

impl Sheet {
    /// An empty sheet.
    pub fn new() -> Sheet {
        Sheet::default()
    }

    /// The sheet of `games`, in the order played.
    pub fn of(games: impl IntoIterator<Item = SheetGame>) -> Sheet {
        let mut s = Sheet::new();
        for g in games {
            s.add(g);
        }
        s
    }

    /// The scores, in the order played.
    pub fn scores(&self) -> &[Score] {
        &self.scores
    }

    /// The total of the points.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// On fire: the last two games were both wins, so the next win scores 4 and a draw 2.
    pub fn on_fire(&self) -> bool {
        matches!(
            self.scores.as_slice(),
            [.., a, b] if a.result == GameResult::Win && b.result == GameResult::Win
        )
    }

    /// In a draw streak: the last game that was not a loss was a draw (quick or not).
    fn in_draw_streak(&self) -> bool {
        self.scores
            .iter()
            .rev()
            .find(|s| s.result != GameResult::Loss)
            .is_some_and(|s| s.result == GameResult::Draw)
    }

    /// What `g` scores after the games of this sheet, without adding it.
    pub fn score_of(&self, g: SheetGame) -> Score {
        let fire = self.on_fire();
        let (points, fire, void_draw) = match g.result {
            GameResult::Win => {
                let base = if fire { 4 } else { 2 };
                let bonus = u32::from(g.berserk && g.plies >= BERSERK_MIN_PLIES);
                (base + bonus, fire, false)
            }
            GameResult::Draw if g.plies < QUICK_DRAW_PLIES => (0, false, true),
            GameResult::Draw if fire => (2, true, false),
            GameResult::Draw if g.plies < LONG_GAME_PLIES && self.in_draw_streak() => {
                (0, false, true)
            }
            GameResult::Draw => (1, false, false),
            GameResult::Loss => (0, false, false),
        };
        Score {
            result: g.result,
            points,
            fire,
            berserk: g.berserk,
            void_draw,
        }
    }

    /// Adds `g`, the next game played; returns its score.
    pub fn add(&mut self, g: SheetGame) -> Score {
        let s = self.score_of(g);
        self.scores.push(s);
        self.total += s.points;
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(result: GameResult, plies: u32) -> SheetGame {
        SheetGame {
            result,
            plies,
            berserk: false,
        }
    }
    use GameResult::{Draw, Loss, Win};

    fn points(games: &[SheetGame]) -> Vec<u32> {
        Sheet::of(games.iter().copied())
            .scores()
            .iter()
            .map(|s| s.points)
            .collect()
    }

    #[test]
    fn a_win_is_two_a_draw_one_a_loss_nothing() {
        assert_eq!(points(&[g(Win, 40), g(Loss, 40), g(Draw, 40)]), [2, 0, 1]);
    }

    #[test]
    fn two_wins_in_a_row_set_the_player_on_fire_until_a_game_that_is_not_a_win() {
        let games = [
            g(Win, 40),
            g(Win, 40),
            g(Win, 40),  // on fire: 4
            g(Win, 40),  // still: 4
            g(Draw, 40), // on fire: a draw is 2, and ends the fire
            g(Win, 40),  // 2
            g(Win, 40),  // 2 (only one win before it)
            g(Win, 40),  // 4
            g(Loss, 40), // 0, ends it
            g(Win, 40),  // 2
        ];
        assert_eq!(points(&games), [2, 2, 4, 4, 2, 2, 2, 4, 0, 2]);
        let fire: Vec<bool> = Sheet::of(games).scores().iter().map(|s| s.fire).collect();
        assert_eq!(
            fire,
            [
                false, false, true, true, true, false, false, true, false, false
            ]
        );
        assert_eq!(Sheet::of(games).total(), 24);
    }

    #[test]
    fn a_berserk_win_scores_one_more_when_it_lasted_fourteen_plies() {
        let b = |plies| SheetGame {
            result: Win,
            plies,
            berserk: true,
        };
        assert_eq!(points(&[b(13)]), [2]);
        assert_eq!(points(&[b(14)]), [3]);
        // On fire: 4 + 1.
        assert_eq!(points(&[g(Win, 30), g(Win, 30), b(30)]), [2, 2, 5]);
        // A berserk draw or loss gets nothing more.
        let bd = SheetGame {
            result: Draw,
            plies: 40,
            berserk: true,
        };
        assert_eq!(points(&[bd]), [1]);
    }

    #[test]
    fn a_draw_in_fewer_than_twenty_plies_scores_nothing() {
        assert_eq!(points(&[g(Draw, 19)]), [0]);
        assert_eq!(points(&[g(Draw, 20)]), [1]);
        // Even on fire.
        assert_eq!(points(&[g(Win, 30), g(Win, 30), g(Draw, 19)]), [2, 2, 0]);
        let s = Sheet::of([g(Draw, 19)]);
        assert!(s.scores()[0].void_draw);
    }

    #[test]
    fn a_draw_after_a_draw_with_no_win_between_scores_nothing_unless_sixty_plies() {
        assert_eq!(points(&[g(Draw, 30), g(Draw, 30)]), [1, 0]);
        assert_eq!(points(&[g(Draw, 30), g(Loss, 30), g(Draw, 30)]), [1, 0, 0]);
        assert_eq!(points(&[g(Draw, 30), g(Draw, 60)]), [1, 1]);
        assert_eq!(points(&[g(Draw, 30), g(Draw, 59)]), [1, 0]);
        // A win between ends the streak.
        assert_eq!(points(&[g(Draw, 30), g(Win, 30), g(Draw, 30)]), [1, 2, 1]);
        // A quick draw starts a streak too.
        assert_eq!(points(&[g(Draw, 10), g(Draw, 30)]), [0, 0]);
        // A first draw after only losses is no streak.
        assert_eq!(points(&[g(Loss, 30), g(Draw, 30)]), [0, 1]);
    }
}
