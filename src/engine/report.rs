//! An analysis in words, for the bot's reply and `cajitas analyse`: each side's counts and
//! the worst moves with the engine's best move, in the reader's language and letters.

use cajitas_rules::{Color, Lang, san};

use super::analysis::{Analysis, Reason};
use crate::i18n::{colour_key, num, san_in};
use crate::tr;

/// How many of the worst moves are shown.
pub const WORST_SHOWN: usize = 3;

/// The words of an analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// "Analysis: White vs Black (1-0)".
    pub title: String,
    /// White's counts, then Black's.
    pub sides: [String; 2],
    /// The opening and the last move in the book, when the game has one.
    pub opening: Option<String>,
    /// The heading of the worst moves.
    pub worst_title: String,
    /// The worst moves, worst first (or the line that says there were none).
    pub worst: Vec<String>,
}

impl Report {
    /// The lines under the title: the opening, when the game has one, then each side's counts.
    pub fn lines(&self) -> Vec<&str> {
        self.opening
            .iter()
            .chain(&self.sides)
            .map(String::as_str)
            .collect()
    }
}

/// `a` in words, the players named `white` and `black`, the game's `result`.
pub fn report(a: &Analysis, white: &str, black: &str, result: &str, lang: Lang) -> Report {
    let side = |c: Color, name: &str| {
        let [i, m, b] = a.counts(c);
        tr!(
            lang,
            "analysis-side",
            colour = colour_key(c),
            player = name.to_owned(),
            inaccuracies = num(i as f64),
            mistakes = num(m as f64),
            blunders = num(b as f64)
        )
    };
    let start_number = a.start.fullmoves();
    let start_black = a.start.turn() == Color::Black;
    let worst: Vec<String> = a
        .worst(WORST_SHOWN)
        .into_iter()
        .map(|adv| {
            let pos = a.position_before(adv.ply);
            let played = san_in(lang, &san(&pos, a.moves[adv.ply]).to_string());
            let best = a.best[adv.ply]
                .map(|m| san_in(lang, &san(&pos, m).to_string()))
                .unwrap_or_else(|| "—".into());
            let number = start_number as usize + (adv.ply + usize::from(start_black)) / 2;
            tr!(
                lang,
                "analysis-worst",
                number = number.to_string(),
                colour = colour_key(adv.mover),
                played = played,
                judgement = adv.judgement.as_str(),
                reason = match adv.reason {
                    Reason::Chances => "chances",
                    Reason::MateCreated => "mate-created",
                    Reason::MateLost => "mate-lost",
                },
                best = best
            )
        })
        .collect();
    Report {
        title: tr!(
            lang,
            "analysis-title",
            white = white.to_owned(),
            black = black.to_owned(),
            result = result.to_owned()
        ),
        sides: [side(Color::White, white), side(Color::Black, black)],
        opening: opening_line(a, lang),
        worst_title: tr!(lang, "analysis-worst-title"),
        worst: if worst.is_empty() {
            vec![tr!(lang, "analysis-none")]
        } else {
            worst
        },
    }
}

/// The game's opening and the last move whose position is in the table ("Opening: C50
/// Italian Game, in the book until 3… Bc5"), when it has one.
fn opening_line(a: &Analysis, lang: Lang) -> Option<String> {
    let found = crate::openings::of_game(&a.start, &a.moves)?;
    // A game with an opening starts from the standard position: ply 1 is White's first move.
    let index = found.ply as usize - 1;
    let pos = a.position_before(index);
    Some(tr!(
        lang,
        "analysis-opening",
        eco = found.opening.eco,
        name = found.opening.name,
        number = (index / 2 + 1).to_string(),
        colour = colour_key(pos.turn()),
        played = san_in(lang, &san(&pos, a.moves[index]).to_string())
    ))
}

/// The chart of `a` as PNG bytes (±10 pawns, judged moves marked).
pub fn chart(a: &Analysis) -> Vec<u8> {
    let marks: Vec<crate::render::eval_chart::Mark> = a
        .advices
        .iter()
        .map(|adv| crate::render::eval_chart::Mark {
            index: adv.ply + 1,
            severity: adv.judgement as u8 + 1,
        })
        .collect();
    crate::render::eval_chart::eval_chart(
        &a.pawns(10.0),
        &marks,
        crate::render::eval_chart::ChartOptions::default(),
    )
}

#[cfg(test)]
mod tests {
    use cajitas_rules::{Position, read_move};

    use super::*;
    use crate::engine::analysis::Eval;

    fn analysis(start: Position, moves: &str) -> Analysis {
        let mut pos = start.clone();
        let moves: Vec<_> = moves
            .split_whitespace()
            .map(|t| {
                let m = read_move(&pos, t, Lang::En).unwrap();
                pos.play(m);
                m
            })
            .collect();
        let n = moves.len() + 1;
        Analysis {
            start,
            moves,
            evals: vec![Eval::Cp(0); n],
            best: vec![None; n],
            advices: Vec::new(),
        }
    }

    #[test]
    fn the_report_names_the_opening_and_the_last_move_in_the_book() {
        // The Giuoco Piano after 3...Bc5; 4.h3 leaves the book.
        let a = analysis(Position::new(), "e4 e5 Nf3 Nc6 Bc4 Bc5 h3 a6");
        let r = report(&a, "alice", "bob", "1-0", Lang::En);
        assert_eq!(
            r.opening.as_deref(),
            Some("Opening: C50 Italian Game: Giuoco Piano, in the book until 3… Bc5")
        );
        assert_eq!(r.lines()[0], r.opening.as_deref().unwrap());
        assert_eq!(r.lines().len(), 3);
        let r = report(&a, "alice", "bob", "1-0", Lang::Es);
        assert_eq!(
            r.opening.as_deref(),
            Some("Apertura: C50 Italian Game: Giuoco Piano, en el libro hasta 3… Ac5")
        );
        // White's move: "1. e4".
        let a = analysis(Position::new(), "c4 a5 h4");
        let r = report(&a, "alice", "bob", "*", Lang::En);
        assert!(r.opening.unwrap().ends_with("in the book until 1. c4"));
        // From a setup: no opening, no line.
        let setup = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let r = report(&analysis(setup, "e4"), "alice", "bob", "*", Lang::En);
        assert_eq!((r.opening.clone(), r.lines().len()), (None, 2));
    }
}
