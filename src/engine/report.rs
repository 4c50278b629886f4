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
    /// The heading of the worst moves.
    pub worst_title: String,
    /// The worst moves, worst first (or the line that says there were none).
    pub worst: Vec<String>,
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
        worst_title: tr!(lang, "analysis-worst-title"),
        worst: if worst.is_empty() {
            vec![tr!(lang, "analysis-none")]
        } else {
            worst
        },
    }
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
