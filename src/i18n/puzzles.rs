//! Puzzles in words, for both fronts: the heading (`Puzzle 000rZ · rating 633 · Black to
//! move`), the bot's moves (`[puzzle] Nxe6`), the hint, and an attempt's end (a wrong move,
//! `Solved` or `Failed`, the rating change worded as a game's, the solution).

use cajitas_rules::Lang;

use super::present::Presentation;
use super::words::{colour_key, role_key, san_in};
use crate::game::ratings::RANKED_MIN_GAMES;
use crate::game::{
    PuzzleBoard, PuzzleBoardView, PuzzleLeader, PuzzleRequest, PuzzleScore, PuzzleStatus,
    PuzzleView, UserRef,
};
use crate::tr;

/// The first line of a puzzle: its id, its rating and the solver's side (to move at the
/// start, and whenever the solver is to find a move).
pub fn heading(lang: Lang, v: &PuzzleView) -> String {
    puzzle_heading(lang, &v.puzzle)
}

/// [`heading`] of a puzzle not yet attempted (the solver's side is the puzzle's).
fn puzzle_heading(lang: Lang, p: &crate::puzzles::Puzzle) -> String {
    tr!(
        lang,
        "puzzle-heading",
        id = p.id.clone(),
        rating = p.rating.to_string(),
        colour = colour_key(p.solver())
    )
}

/// A puzzle's first two lines: its heading, then the opponent's first move.
fn opening_lines(lang: Lang, p: &crate::puzzles::Puzzle) -> [String; 2] {
    let first = cajitas_rules::SanPlus::from_move(&p.start, p.moves[0]);
    [puzzle_heading(lang, p), bot_move(lang, &first.to_string())]
}

/// A move the bot plays for the puzzle's side (stored in English SAN).
pub fn bot_move(lang: Lang, san: &str) -> String {
    tr!(lang, "puzzle-bot-move", san = san_in(lang, san))
}

/// The opening line of a puzzle just started: the heading, then the opponent's first move
/// (before them, at a Puzzle Streak's start, what a streak is).
pub fn start_lines(lang: Lang, v: &PuzzleView) -> Vec<String> {
    let mut lines = Vec::new();
    if v.streak.is_some_and(|s| s.solved == 0 && !s.ended) {
        lines.push(tr!(lang, "puzzle-streak-start"));
    }
    let [head, first] = opening_lines(lang, &v.puzzle);
    lines.push(head);
    lines.extend(v.source.as_ref().map(|s| source_line(lang, s)));
    lines.push(first);
    lines
}

/// Where a puzzle of the server's games comes from: `From alice vs bob, move 23`, and the
/// link to the game's thread when it had one. Names are written as stored, never as
/// mentions (a puzzle pings nobody).
pub fn source_line(lang: Lang, s: &crate::game::PuzzleSource) -> String {
    let (white, black, number) = (s.white.clone(), s.black.clone(), s.move_number.to_string());
    match &s.thread_url {
        Some(url) => tr!(
            lang,
            "puzzle-source-thread",
            white = white,
            black = black,
            number = number,
            url = url.clone()
        ),
        None => tr!(
            lang,
            "puzzle-source",
            white = white,
            black = black,
            number = number
        ),
    }
}

/// A Puzzle Streak's state after an answer or the solution: the count while it goes on, the
/// score and the person's best once it is over.
pub fn streak_line(lang: Lang, v: &PuzzleView) -> Option<String> {
    let s = v.streak?;
    let solved = super::num(s.solved);
    Some(if !s.ended {
        tr!(lang, "puzzle-streak-count", solved = solved)
    } else if s.solved >= s.ladder {
        tr!(lang, "puzzle-streak-top", solved = solved)
    } else {
        tr!(
            lang,
            "puzzle-streak-over",
            solved = solved,
            best = super::num(s.best)
        )
    })
}

/// The hint of `v` (after [`crate::game::Puzzles::hint`]): the piece to move.
pub fn hint_line(lang: Lang, v: &PuzzleView) -> Option<String> {
    let h = v.hint?;
    Some(tr!(
        lang,
        "puzzle-hint",
        role = role_key(h.role),
        square = h.from.to_string()
    ))
}

/// What an answer or the solution did, line by line: the bot's reply while the attempt goes
/// on; at the end a wrong move, `Solved` or `Failed`, the rating change of `solver` as a
/// game's is worded, and the solution after a failure.
pub fn answer_lines(lang: Lang, p: Presentation, solver: &UserRef, v: &PuzzleView) -> Vec<String> {
    let mut lines = Vec::new();
    match v.status {
        PuzzleStatus::Playing | PuzzleStatus::Abandoned => {
            if let Some(reply) = &v.reply {
                lines.push(bot_move(lang, reply));
            }
            return lines;
        }
        PuzzleStatus::Solved => lines.push(tr!(lang, "puzzle-solved")),
        PuzzleStatus::Failed => {
            if let Some(played) = &v.played {
                lines.push(tr!(lang, "puzzle-wrong", san = san_in(lang, played)));
            }
            lines.push(tr!(lang, "puzzle-failed"));
        }
    }
    if let Some(c) = &v.change {
        lines.push(super::ratings::change_line(
            lang, p, solver, c.before, c.after,
        ));
    }
    if !v.solution.is_empty() {
        let moves: Vec<String> = v.solution.iter().map(|s| san_in(lang, s)).collect();
        lines.push(tr!(lang, "puzzle-solution", moves = moves.join(" ")));
    }
    lines.extend(streak_line(lang, v));
    if let Some(next) = &v.next {
        lines.extend(start_lines(lang, next));
    }
    lines
}

/// The daily puzzle's post: its title with the day's date, the puzzle's heading and the
/// opponent's first move, and the live count.
pub fn daily_lines(lang: Lang, v: &crate::game::DailyView) -> Vec<String> {
    let mut lines = vec![tr!(
        lang,
        "daily-heading",
        date = crate::game::calendar::CivilDate::of_days(v.day).to_string()
    )];
    lines.extend(opening_lines(lang, v.puzzle));
    lines.push(daily_count(lang, v));
    lines
}

/// The daily puzzle's live count: "12 solved · 3 failed".
pub fn daily_count(lang: Lang, v: &crate::game::DailyView) -> String {
    tr!(
        lang,
        "daily-count",
        solved = super::num(v.solved),
        failed = super::num(v.failed)
    )
}

/// A puzzle leaderboard in words, for both fronts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardText {
    /// "Leaderboard · Puzzles".
    pub title: String,
    /// Its lines, or the one line saying why it is empty.
    pub lines: Vec<String>,
    /// The viewer's rank, or why they are not listed.
    pub standing: String,
}

/// The speed word of a puzzle leaderboard (a variant of Fluent's `speed`).
fn board_word(b: PuzzleBoard) -> &'static str {
    match b {
        PuzzleBoard::Ratings => "puzzles",
        PuzzleBoard::Streaks => "streak",
    }
}

fn leader_line(lang: Lang, p: Presentation, e: &PuzzleLeader) -> String {
    let console = p == Presentation::Console;
    match e.score {
        PuzzleScore::Rating { shown, attempts } => tr!(
            lang,
            if console {
                "console-puzzle-leaderboard-line"
            } else {
                "puzzle-leaderboard-line"
            },
            rank = e.rank.to_string(),
            name = p.player(&e.user),
            rating = shown.text(),
            attempts = super::num(attempts)
        ),
        PuzzleScore::Streak(best) => tr!(
            lang,
            if console {
                "console-streak-leaderboard-line"
            } else {
                "streak-leaderboard-line"
            },
            rank = e.rank.to_string(),
            name = p.player(&e.user),
            best = super::num(best)
        ),
    }
}

/// `v` in words: the title, the page's lines, and where the viewer stands.
pub fn board_text(lang: Lang, p: Presentation, v: &PuzzleBoardView) -> BoardText {
    let min = super::num(RANKED_MIN_GAMES);
    let mut lines: Vec<String> = v.entries.iter().map(|e| leader_line(lang, p, e)).collect();
    if lines.is_empty() {
        lines.push(match v.board {
            PuzzleBoard::Ratings => tr!(lang, "puzzle-leaderboard-empty", min = min.clone()),
            PuzzleBoard::Streaks => tr!(lang, "streak-leaderboard-empty"),
        });
    }
    let standing = match (&v.me, v.mine, v.board) {
        (Some(me), _, _) => tr!(
            lang,
            "leaderboard-you",
            rank = me.rank.to_string(),
            rating = match me.score {
                PuzzleScore::Rating { shown, .. } => shown.text(),
                PuzzleScore::Streak(best) => best.to_string(),
            }
        ),
        (None, mine, PuzzleBoard::Ratings) => {
            let attempts = match mine {
                Some(PuzzleScore::Rating { attempts, .. }) => attempts,
                _ => 0,
            };
            tr!(
                lang,
                "puzzle-leaderboard-you-unranked",
                attempts = super::num(attempts),
                min = min
            )
        }
        (None, _, PuzzleBoard::Streaks) => tr!(lang, "streak-leaderboard-you-none"),
    };
    BoardText {
        title: tr!(lang, "leaderboard-title", speed = board_word(v.board)),
        lines,
        standing,
    }
}

#[cfg(test)]
mod tests {
    use cajitas_rules::{Color, Role, Square};

    use super::*;
    use crate::game::PuzzleChange;
    use crate::game::ratings::Shown;
    use crate::puzzles::{Attempt, Hint, shared};

    fn view(status: PuzzleStatus) -> PuzzleView {
        let puzzle = shared().get("002X3").unwrap();
        let a = Attempt::start(puzzle);
        PuzzleView {
            attempt_id: 1,
            puzzle: std::sync::Arc::new(puzzle.clone()),
            source: None,
            position: a.position().clone(),
            last_move: a.last_move(),
            solver: Color::White,
            status,
            hinted: false,
            rated: true,
            played: Some("Qa8+".into()),
            reply: Some("Qb8".into()),
            solution: vec!["Qa8+".into(), "Qb8".into(), "Qxb8#".into()],
            hint: Some(Hint {
                role: Role::Queen,
                from: Square::G2,
            }),
            change: Some(PuzzleChange {
                before: Shown {
                    rating: 1500.0,
                    deviation: 500.0,
                },
                after: Shown {
                    rating: 1510.7,
                    deviation: 485.0,
                },
            }),
            streak: None,
            next: None,
            daily: None,
        }
    }

    #[test]
    fn every_puzzle_text_in_both_languages() {
        let alice = UserRef::new(1, "alice", false);
        let en = |s| answer_lines(Lang::En, Presentation::Console, &alice, &view(s));
        assert_eq!(
            start_lines(Lang::En, &view(PuzzleStatus::Playing)),
            ["Puzzle 002X3 · rating 970 · White to move", "[puzzle] Rxa3"]
        );
        assert_eq!(en(PuzzleStatus::Playing), ["[puzzle] Qb8"]);
        assert_eq!(
            en(PuzzleStatus::Failed),
            [
                "Qa8+ is not the move.",
                "Failed",
                "alice 1500? → 1511? (+11)",
                "Solution: Qa8+ Qb8 Qxb8#"
            ]
        );
        let es = answer_lines(
            Lang::Es,
            Presentation::Discord,
            &alice,
            &view(PuzzleStatus::Solved),
        );
        assert_eq!(es[0], "Resuelto");
        assert_eq!(es[1], "<@1> 1500? → 1511? (+11)");
        assert_eq!(es[2], "Solución: Da8+ Db8 Dxb8#");
        assert_eq!(
            hint_line(Lang::Es, &view(PuzzleStatus::Playing)).unwrap(),
            "Pista: mueve la dama de g2. Este intento ya no es puntuado."
        );
        assert_eq!(
            start_lines(Lang::Es, &view(PuzzleStatus::Playing))[1],
            "[problema] Txa3"
        );
    }

    #[test]
    fn a_streak_in_both_languages() {
        use crate::game::StreakView;
        let alice = UserRef::new(1, "alice", false);
        let streak = |solved, ended| StreakView {
            solved,
            ended,
            best: 7,
            ladder: 149,
        };
        let mut first = view(PuzzleStatus::Playing);
        first.streak = Some(streak(0, false));
        assert_eq!(
            start_lines(Lang::En, &first)[0],
            "Puzzle Streak: puzzles of rising difficulty, one after another, without hints, \
             until your first mistake."
        );
        let mut solved = view(PuzzleStatus::Solved);
        solved.change = None;
        solved.solution.clear();
        solved.streak = Some(streak(3, false));
        let mut next = view(PuzzleStatus::Playing);
        next.streak = Some(streak(3, false));
        solved.next = Some(Box::new(next));
        assert_eq!(
            answer_lines(Lang::En, Presentation::Console, &alice, &solved),
            [
                "Solved",
                "Streak: 3",
                "Puzzle 002X3 · rating 970 · White to move",
                "[puzzle] Rxa3"
            ]
        );
        let mut failed = view(PuzzleStatus::Failed);
        failed.change = None;
        failed.streak = Some(streak(3, true));
        let es = answer_lines(Lang::Es, Presentation::Console, &alice, &failed);
        assert_eq!(
            es.last().unwrap(),
            "Fin de la racha: 3 resueltos · tu mejor racha: 7"
        );
        failed.streak = Some(streak(149, true));
        assert_eq!(
            streak_line(Lang::En, &failed).unwrap(),
            "You climbed the whole ladder: 149 solved!"
        );
    }
}

/// A puzzle theme's name in `lang` ("Fork", "Ataque doble"), by lichess's id (`fork`).
pub fn theme_name(lang: Lang, id: &str) -> String {
    tr!(lang, "puzzle-theme", theme = id.to_owned())
}

/// Folds a typed theme for comparison: lower case, no accents, no spaces, hyphens or
/// apostrophes ("Mate en la esquina" and "mateenlaesquina" alike).
fn folded(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '\'' | '’' | '_'))
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'ä' => 'a',
            'é' | 'è' | 'ë' => 'e',
            'í' | 'ì' | 'ï' => 'i',
            'ó' | 'ò' | 'ö' => 'o',
            'ú' | 'ù' | 'ü' => 'u',
            other => other,
        })
        .collect()
}

/// lichess's id of the theme a person typed: its id, or its name in English or Spanish
/// (without regard to case, accents or spaces), among `ids`; what matches none is given back
/// as typed, for the service to refuse by name.
pub fn theme_id(typed: &str, ids: &[&str]) -> String {
    let want = folded(typed);
    ids.iter()
        .find(|id| {
            folded(id) == want
                || [Lang::En, Lang::Es]
                    .into_iter()
                    .any(|lang| folded(&theme_name(lang, id)) == want)
        })
        .map_or_else(|| typed.to_owned(), |id| (*id).to_owned())
}

/// `req` with its theme, typed by its id or its name in English or Spanish, as lichess's id
/// (see [`theme_id`]), for the service.
pub fn with_theme_id(mut req: PuzzleRequest) -> PuzzleRequest {
    req.theme = req
        .theme
        .map(|t| theme_id(&t, &crate::puzzles::shared().themes()));
    req
}

#[cfg(test)]
mod theme_tests {
    use super::*;

    #[test]
    fn every_theme_of_the_data_has_a_name_in_both_languages() {
        let ids = crate::puzzles::shared().themes();
        assert_eq!(ids.len(), 62);
        for id in &ids {
            for lang in [Lang::En, Lang::Es] {
                let name = theme_name(lang, id);
                assert_ne!(&name, id, "{id} has no name in {lang:?}");
            }
        }
    }

    #[test]
    fn a_theme_is_found_by_its_id_or_its_name_in_either_language() {
        let ids = crate::puzzles::shared().themes();
        assert_eq!(theme_id("fork", &ids), "fork");
        assert_eq!(theme_id("Ataque doble", &ids), "fork");
        assert_eq!(theme_id("ataque  DOBLE", &ids), "fork");
        assert_eq!(theme_id("Mate del pasillo", &ids), "backRankMate");
        assert_eq!(theme_id("back rank mate", &ids), "backRankMate");
        assert_eq!(theme_id("Mate de la ópera", &ids), "operaMate");
        assert_eq!(theme_id("mate de la opera", &ids), "operaMate");
        assert_eq!(theme_id("Mate en 2", &ids), "mateIn2");
        assert_eq!(theme_id("Coronación", &ids), "promotion");
        assert_eq!(theme_id("nonsense", &ids), "nonsense");
    }
}
