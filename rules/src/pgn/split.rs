//! Splits a token stream into games, still knowing nothing about positions: each raw game
//! has its tags, its main-line move tokens (variations skipped) with their lines, its
//! termination marker, and the first syntax error found in it, if any.

use super::lexer::{Lexer, TokenKind};
use super::{MAX_PLIES, PgnResult};

/// One game's text, cut out of a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RawGame<'a> {
    /// The line the game starts on.
    pub line: usize,
    pub tags: Vec<(String, String)>,
    /// Main-line moves as written, each with its line.
    pub moves: Vec<(&'a str, usize)>,
    pub result: Option<PgnResult>,
    /// The first syntax error: line, message, offending text, and how many moves were
    /// read before it.
    pub error: Option<SyntaxError>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub line: usize,
    pub message: String,
    pub input: String,
    pub ply: usize,
}

impl RawGame<'_> {
    fn fail(&mut self, line: usize, message: String, input: String) {
        if self.error.is_none() {
            self.error = Some(SyntaxError {
                line,
                message,
                input,
                ply: self.moves.len(),
            });
        }
    }
}

/// An iterator of raw games.
pub(crate) struct Splitter<'a> {
    lexer: std::iter::Peekable<Lexer<'a>>,
}

impl<'a> Splitter<'a> {
    pub(crate) fn new(src: &'a str) -> Splitter<'a> {
        Splitter {
            lexer: Lexer::new(src).peekable(),
        }
    }
}

impl<'a> Iterator for Splitter<'a> {
    type Item = RawGame<'a>;

    fn next(&mut self) -> Option<RawGame<'a>> {
        let mut game: Option<RawGame<'a>> = None;
        // Nesting depth of variations, and the line of the outermost open one.
        let mut depth = 0usize;
        let mut variation_line = 0;
        let mut in_movetext = false;
        loop {
            // A tag pair after the movetext starts the next game (a missing result is
            // tolerated), as does one inside a variation never closed.
            if let Some(Ok(t)) = self.lexer.peek()
                && matches!(t.kind, TokenKind::Tag { .. })
                && (in_movetext || depth > 0)
            {
                break;
            }
            let Some(token) = self.lexer.next() else {
                break;
            };
            let token = match token {
                Ok(t) => t,
                Err(e) => {
                    let g = game.get_or_insert_with(|| RawGame {
                        line: e.line,
                        ..RawGame::default()
                    });
                    g.fail(e.line, e.message, e.input);
                    continue;
                }
            };
            let line = token.line;
            let starts = !matches!(token.kind, TokenKind::Comment | TokenKind::Annotation);
            if game.is_none() && !starts {
                continue;
            }
            let g = game.get_or_insert_with(|| RawGame {
                line,
                ..RawGame::default()
            });
            match token.kind {
                TokenKind::OpenVariation => {
                    if depth == 0 {
                        variation_line = line;
                    }
                    depth += 1;
                    in_movetext = true;
                }
                TokenKind::CloseVariation => {
                    if depth == 0 {
                        g.fail(line, "')' closes no variation".into(), ")".into());
                    } else {
                        depth -= 1;
                    }
                }
                _ if depth > 0 => {}
                TokenKind::Tag { name, value } => {
                    if g.tags.len() < MAX_TAGS {
                        g.tags.push((name.to_string(), value));
                    } else {
                        g.fail(
                            line,
                            format!("more than {MAX_TAGS} tag pairs"),
                            name.to_string(),
                        );
                    }
                }
                TokenKind::MoveNumber => in_movetext = true,
                TokenKind::Symbol(s) => {
                    in_movetext = true;
                    if g.moves.len() >= MAX_PLIES {
                        g.fail(
                            line,
                            format!(
                                "the game has more than {MAX_PLIES} plies, the most a game may have"
                            ),
                            s.to_string(),
                        );
                    } else if g.error.is_none() {
                        g.moves.push((s, line));
                    }
                }
                TokenKind::Result(r) => {
                    g.result = Some(r);
                    return game;
                }
                TokenKind::Comment | TokenKind::Annotation => {}
            }
        }
        if let Some(g) = game.as_mut()
            && depth > 0
        {
            g.fail(
                variation_line,
                format!("the variation opened by '(' on line {variation_line} is never closed"),
                "(".into(),
            );
        }
        game
    }
}

/// The most tag pairs a game may have (real games have a few dozen at most).
const MAX_TAGS: usize = 1000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_games_with_and_without_results() {
        let src = "{intro}\n[Event \"a\"]\n1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 1-0\n\
                   {between}\n[Event \"b\"]\n1. d4\n[Event \"c\"]\n\n*\n1. c4 *";
        let games: Vec<_> = Splitter::new(src).collect();
        assert_eq!(games.len(), 4);
        assert_eq!(games[0].line, 2);
        assert_eq!(games[0].tags, vec![("Event".to_string(), "a".to_string())]);
        assert_eq!(games[0].moves, vec![("e4", 3), ("e5", 3), ("Nf3", 3)]);
        assert_eq!(games[0].result, Some(PgnResult::WhiteWins));
        assert_eq!(games[1].moves, vec![("d4", 6)]);
        assert_eq!(games[1].result, None);
        assert_eq!(games[2].tags[0].1, "c");
        assert!(games[2].moves.is_empty());
        assert_eq!(games[2].result, Some(PgnResult::Unknown));
        assert_eq!(games[3].moves, vec![("c4", 10)]);
        assert!(games.iter().all(|g| g.error.is_none()));
    }

    #[test]
    fn an_unclosed_variation_fails_its_game_only() {
        let src = "[Event \"a\"]\n1. e4 (1. d4 d5\n\n[Event \"b\"]\n1. c4 *";
        let games: Vec<_> = Splitter::new(src).collect();
        assert_eq!(games.len(), 2);
        let e = games[0].error.as_ref().unwrap();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("never closed"), "{}", e.message);
        assert!(games[1].error.is_none());
        assert_eq!(games[1].moves, vec![("c4", 5)]);
    }

    #[test]
    fn exactly_the_ply_cap_is_fine() {
        let src = "Nf3 Nf6 Ng1 Ng8\n".repeat(MAX_PLIES / 4);
        let games: Vec<_> = Splitter::new(&src).collect();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves.len(), MAX_PLIES);
        assert!(games[0].error.is_none());
    }

    #[test]
    fn the_ply_cap_is_an_error() {
        let mut src = String::new();
        for _ in 0..(MAX_PLIES / 4 + 1) {
            src.push_str("Nf3 Nf6 Ng1 Ng8\n");
        }
        src.push_str("*\n1. e4 *");
        let games: Vec<_> = Splitter::new(&src).collect();
        let e = games[0].error.as_ref().unwrap();
        assert_eq!(e.ply, MAX_PLIES);
        assert_eq!(e.line, MAX_PLIES / 4 + 1);
        assert!(e.message.contains("2000"));
        assert_eq!(games[1].moves.len(), 1);
    }
}
