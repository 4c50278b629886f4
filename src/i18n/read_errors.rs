//! The move reader's errors ([`ReadError`]) in the player's language, by variant. The rules
//! crate keeps its English `Display` (logs, tests, the CLI tools); players read these.

use cajitas_rules::{
    CastleProblem, CastlingSide, IllegalReason, Lang, Malformed, ReadError, ReadErrorKind, Role,
};

use super::words::{list_or, role_key, san_in};
use crate::tr;

/// `error` as a player reads it in `lang`: the sentence, then "Did you mean …?" with the
/// suggestions in `lang`'s notation when the sentence does not already list them.
pub fn read_error(lang: Lang, error: &ReadError) -> String {
    let sentence = kind(lang, &error.kind);
    let listed = matches!(
        error.kind,
        ReadErrorKind::Ambiguous { .. } | ReadErrorKind::IncompletePromotion { .. }
    );
    if listed || error.suggestions.is_empty() {
        return sentence;
    }
    let moves: Vec<String> = error
        .suggestions
        .iter()
        .map(|s| san_in(lang, &s.to_string()))
        .collect();
    format!(
        "{sentence} {}",
        tr!(lang, "read-did-you-mean", moves = list_or(lang, &moves))
    )
}

fn kind(lang: Lang, kind: &ReadErrorKind) -> String {
    match kind {
        ReadErrorKind::Malformed { problem } => malformed(lang, problem),
        ReadErrorKind::Illegal { reason } => illegal(lang, reason),
        ReadErrorKind::Ambiguous { candidates } => {
            let moves: Vec<String> = candidates
                .iter()
                .map(|s| san_in(lang, &s.to_string()))
                .collect();
            tr!(lang, "read-ambiguous", moves = list_or(lang, &moves))
        }
        ReadErrorKind::IncompletePromotion { to, choices } => {
            let roles: Vec<String> = choices
                .iter()
                .map(|r| tr!(lang, "role-name", role = role_key(*r)))
                .collect();
            tr!(
                lang,
                "read-incomplete-promotion",
                to = to.to_string(),
                roles = list_or(lang, &roles)
            )
        }
    }
}

fn malformed(lang: Lang, problem: &Malformed) -> String {
    match problem {
        Malformed::Empty => tr!(lang, "read-empty"),
        Malformed::TooLong { max } => tr!(lang, "read-too-long", max = super::num(*max as f64)),
        Malformed::NullMove => tr!(lang, "read-null-move"),
        Malformed::UnknownPiece { letter } => {
            tr!(lang, "read-unknown-piece", letter = letter.to_string())
        }
        Malformed::NoDestination => tr!(lang, "read-no-destination"),
        Malformed::TrailingText { text } => tr!(lang, "read-trailing-text", text = text.clone()),
        Malformed::Unreadable => tr!(lang, "read-unreadable"),
    }
}

fn castle_problem(p: CastleProblem) -> &'static str {
    match p {
        CastleProblem::KingMoved => "king-moved",
        CastleProblem::RookMoved => "rook-moved",
        CastleProblem::PiecesInTheWay => "pieces-in-the-way",
        CastleProblem::OutOfCheck => "out-of-check",
        CastleProblem::ThroughAttackedSquare => "through-attacked-square",
        CastleProblem::IntoCheck => "into-check",
    }
}

fn illegal(lang: Lang, reason: &IllegalReason) -> String {
    let role = |r: &Role| role_key(*r);
    match reason {
        IllegalReason::NoLegalMoves => tr!(lang, "read-no-legal-moves"),
        IllegalReason::NoSuchPiece { role: r } => tr!(lang, "read-no-such-piece", role = role(r)),
        IllegalReason::CannotReach {
            role: r,
            from_file,
            from_rank,
            to,
        } => {
            let to = to.to_string();
            match (from_file, from_rank) {
                (None, None) => tr!(lang, "read-cannot-reach", role = role(r), to = to),
                (Some(f), None) => tr!(
                    lang,
                    "read-cannot-reach-file",
                    role = role(r),
                    file = f.to_string(),
                    to = to
                ),
                (None, Some(k)) => tr!(
                    lang,
                    "read-cannot-reach-rank",
                    role = role(r),
                    rank = k.to_string(),
                    to = to
                ),
                (Some(f), Some(k)) => tr!(
                    lang,
                    "read-cannot-reach-from",
                    role = role(r),
                    from = format!("{f}{k}"),
                    to = to
                ),
            }
        }
        IllegalReason::PawnCaptureWithoutFile { to } => {
            tr!(lang, "read-pawn-capture-without-file", to = to.to_string())
        }
        IllegalReason::EmptySquare { square } => {
            tr!(lang, "read-empty-square", square = square.to_string())
        }
        IllegalReason::NotYourPiece { square, role: r } => tr!(
            lang,
            "read-not-your-piece",
            square = square.to_string(),
            role = role(r)
        ),
        IllegalReason::WrongPiece {
            square,
            found,
            named,
        } => tr!(
            lang,
            "read-wrong-piece",
            square = square.to_string(),
            found = tr!(lang, "role-indefinite", role = role(found)),
            named = tr!(lang, "role-indefinite", role = role(named))
        ),
        IllegalReason::OwnPieceThere { square, role: r } => tr!(
            lang,
            "read-own-piece-there",
            square = square.to_string(),
            role = role(r)
        ),
        IllegalReason::Pinned { role: r, square } => tr!(
            lang,
            "read-pinned",
            square = square.to_string(),
            role = role(r)
        ),
        IllegalReason::InCheck => tr!(lang, "read-in-check"),
        IllegalReason::KingWouldBeInCheck => tr!(lang, "read-king-would-be-in-check"),
        IllegalReason::Castle { side, problem } => tr!(
            lang,
            "read-castle",
            side = match side {
                CastlingSide::KingSide => "king",
                CastlingSide::QueenSide => "queen",
            },
            problem = castle_problem(*problem)
        ),
        IllegalReason::NotAPromotion => tr!(lang, "read-not-a-promotion"),
        IllegalReason::CannotPromoteTo { role: r } => {
            tr!(lang, "read-cannot-promote-to", role = role(r))
        }
        IllegalReason::NotLegal => tr!(lang, "read-not-legal"),
    }
}
