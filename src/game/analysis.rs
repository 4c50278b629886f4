//! The link to a game on lichess's analysis board.
//!
//! `https://lichess.org/analysis/pgn/` followed by the moves in English SAN joined by `_`
//! (lichess reads `_` as a space); when that would be longer than a link button allows,
//! `https://lichess.org/analysis/standard/` followed by the final FEN with `_` for spaces.
//! A Chess960 game's link is always its final position on lichess's Chess960 board,
//! `https://lichess.org/analysis/chess960/` and the X-FEN (lichess's `pgn/` path reads
//! standard chess only).

/// The longest URL a Discord link button holds.
pub const LINK_URL_MAX: usize = 512;

const PGN_BASE: &str = "https://lichess.org/analysis/pgn/";
const FEN_BASE: &str = "https://lichess.org/analysis/standard/";
const CHESS960_BASE: &str = "https://lichess.org/analysis/chess960/";

/// Escapes what a URL path cannot carry as is: `#` would start the fragment and `+` may be
/// read as a space, so SAN's check and mate signs become `%2B` and `%23`. Everything else a
/// SAN or a FEN holds (letters, digits, `x`, `-`, `=`, `/`) is left alone; `%` is escaped
/// for completeness.
fn escape(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '#' => out.push_str("%23"),
            '+' => out.push_str("%2B"),
            '%' => out.push_str("%25"),
            ' ' => out.push('_'),
            c => out.push(c),
        }
    }
}

/// The analysis URL of a game from the standard starting position with the moves `sans`
/// (English SAN) and the final position `final_fen`: the moves when the URL fits in `max`
/// characters, else the final position.
pub fn lichess_analysis_url(sans: &[String], final_fen: &str, max: usize) -> String {
    let mut url = String::from(PGN_BASE);
    for (i, san) in sans.iter().enumerate() {
        if i > 0 {
            url.push('_');
        }
        escape(&mut url, san);
        if url.len() > max {
            break;
        }
    }
    if url.len() <= max {
        return url;
    }
    let mut url = String::from(FEN_BASE);
    escape(&mut url, final_fen);
    url
}

/// The analysis URL of a Chess960 game whose final position is `final_fen` (X-FEN):
/// lichess's Chess960 analysis board on that position.
pub fn lichess_chess960_url(final_fen: &str) -> String {
    let mut url = String::from(CHESS960_BASE);
    escape(&mut url, final_fen);
    url
}

/// The analysis URL of a game of `variant` (see [`lichess_analysis_url`] and
/// [`lichess_chess960_url`]).
pub fn lichess_url(variant: super::Variant, sans: &[String], final_fen: &str) -> String {
    if variant.is_chess960() {
        lichess_chess960_url(final_fen)
    } else {
        lichess_analysis_url(sans, final_fen, LINK_URL_MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chess960_game_links_to_the_chess960_board() {
        let v = super::super::Variant::chess960(0).unwrap();
        let fen = "bbqnnrkr/pppppppp/8/8/5P2/8/PPPPP1PP/BBQNNRKR b KQkq - 0 1";
        assert_eq!(
            lichess_url(v, &sans(&["f4"]), fen),
            "https://lichess.org/analysis/chess960/bbqnnrkr/pppppppp/8/8/5P2/8/PPPPP1PP/BBQNNRKR_b_KQkq_-_0_1"
        );
        assert_eq!(
            lichess_url(super::super::Variant::Standard, &sans(&["f4"]), fen),
            "https://lichess.org/analysis/pgn/f4"
        );
    }

    fn sans(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| (*s).to_owned()).collect()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn moves_are_joined_by_underscores_with_check_and_mate_escaped() {
        let url = lichess_analysis_url(
            &sans(&["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]),
            START,
            LINK_URL_MAX,
        );
        assert_eq!(
            url,
            "https://lichess.org/analysis/pgn/e4_e5_Bc4_Nc6_Qh5_Nf6_Qxf7%23"
        );
        let url = lichess_analysis_url(&sans(&["e4", "f5", "Qh5+", "g6", "a8=Q+"]), START, 512);
        assert!(url.ends_with("/pgn/e4_f5_Qh5%2B_g6_a8=Q%2B"), "{url}");
    }

    #[test]
    fn no_moves_is_the_empty_analysis_board() {
        assert_eq!(
            lichess_analysis_url(&[], START, LINK_URL_MAX),
            "https://lichess.org/analysis/pgn/"
        );
    }

    #[test]
    fn the_moves_fit_at_exactly_the_limit_and_fall_back_one_past_it() {
        // "Nf3_Nf6_Ng1_Ng8_..." grows by 4 characters a move.
        let many: Vec<String> = ["Nf3", "Nf6", "Ng1", "Ng8"]
            .iter()
            .cycle()
            .take(300)
            .map(|s| (*s).to_owned())
            .collect();
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 100 51";
        let n = (1..many.len())
            .rev()
            .find(|&n| lichess_analysis_url(&many[..n], fen, usize::MAX).len() <= LINK_URL_MAX)
            .unwrap();
        let full = lichess_analysis_url(&many[..n], fen, usize::MAX);
        // Exactly at the limit: the moves.
        let url = lichess_analysis_url(&many[..n], fen, full.len());
        assert_eq!(url, full);
        assert!(url.starts_with(PGN_BASE));
        // One character less room: the final position.
        let url = lichess_analysis_url(&many[..n], fen, full.len() - 1);
        assert_eq!(
            url,
            "https://lichess.org/analysis/standard/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_100_51"
        );
        // And with the button's limit: n moves fit, n + 1 do not.
        assert!(lichess_analysis_url(&many[..n], fen, LINK_URL_MAX).starts_with(PGN_BASE));
        assert!(lichess_analysis_url(&many[..n + 1], fen, LINK_URL_MAX).starts_with(FEN_BASE));
    }

    #[test]
    fn an_escaped_sign_counts_three_characters_at_the_boundary() {
        let moves = sans(&["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
        let url = lichess_analysis_url(&moves, START, usize::MAX);
        assert_eq!(
            url.len(),
            PGN_BASE.len() + "e4_e5_Bc4_Nc6_Qh5_Nf6_Qxf7%23".len()
        );
        assert!(lichess_analysis_url(&moves, START, url.len()).starts_with(PGN_BASE));
        assert!(lichess_analysis_url(&moves, START, url.len() - 1).starts_with(FEN_BASE));
    }
}
