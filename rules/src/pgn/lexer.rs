//! The PGN tokeniser: turns text into tokens with line numbers, knowing nothing about
//! positions. Tolerant of what real files contain (a BOM, CRLF, `%` escape lines, `;` and
//! `{}` comments, NAGs, annotation glyphs, move numbers glued to moves); strict and precise
//! about what it cannot read (an unclosed comment or tag value), naming the line.

use super::PgnResult;

/// What a token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TokenKind<'a> {
    /// `[Name "value"]`, the value unescaped.
    Tag { name: &'a str, value: String },
    /// `12.`, `12...`, or a bare `12`.
    MoveNumber,
    /// A move as written (annotation glyphs `!`/`?` stripped), for the move reader.
    Symbol(&'a str),
    /// An annotation with no effect on the game: `!?`, `$12`, `+-`, `=`, a separate `e.p.`.
    Annotation,
    /// A `{...}` or `;...` comment (its text is not kept: nothing needs it yet).
    Comment,
    /// A game termination marker.
    Result(PgnResult),
    /// `(`
    OpenVariation,
    /// `)`
    CloseVariation,
}

/// A token and the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub kind: TokenKind<'a>,
    pub line: usize,
}

/// A lexical error: the 1-based line, a message, and the offending text (may be empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LexError {
    pub line: usize,
    pub message: String,
    pub input: String,
}

/// The tokeniser. After an error it resynchronises (at the end of the bad line, or at the
/// end of the input for an unclosed comment) and goes on.
pub(crate) struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    line: usize,
    /// A symbol glued behind a move number (`12.e4`), returned next.
    pending: Option<Token<'a>>,
}

/// Characters that end a symbol.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '$' | '"')
}

/// Evaluation glyphs that some programs write as plain text instead of NAGs.
fn is_annotation_glyph(c: char) -> bool {
    matches!(
        c,
        '!' | '?'
            | '+'
            | '-'
            | '='
            | '/'
            | '∞'
            | '±'
            | '∓'
            | '⩲'
            | '⩱'
            | '□'
            | '⨀'
            | '○'
            | '⟳'
            | '↑'
            | '→'
            | '⇆'
            | '⊥'
            | 'Δ'
            | '∆'
            | '⌓'
            | '<'
            | '>'
    )
}

impl<'a> Lexer<'a> {
    /// A lexer over `src`; a leading byte order mark is skipped.
    pub(crate) fn new(src: &'a str) -> Lexer<'a> {
        let pos = if src.starts_with('\u{feff}') { 3 } else { 0 };
        Lexer {
            src,
            pos,
            line: 1,
            pending: None,
        }
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0
            || self.src[..self.pos].ends_with('\n')
            || (self.pos == 3 && self.src.starts_with('\u{feff}'))
    }

    /// Skips to just before the next newline (or the end).
    fn skip_line(&mut self) {
        match self.src[self.pos..].find('\n') {
            Some(i) => self.pos += i,
            None => self.pos = self.src.len(),
        }
    }

    fn error(&self, line: usize, message: impl Into<String>, input: &str) -> LexError {
        LexError {
            line,
            message: message.into(),
            input: super::echo(input),
        }
    }

    /// `[` has been consumed.
    fn tag(&mut self, line: usize) -> Result<Token<'a>, LexError> {
        // Where the tag starts: on failure the error shows the line from there. Only then
        // is that text looked at, and only its first characters: looking at the rest of
        // the line for every tag made a line of many tags quadratic.
        let tag_start = self.pos - 1;
        let fail = |lexer: &mut Lexer<'a>, why: &str| {
            let rest = &lexer.src[tag_start..];
            let shown = rest[..rest.find('\n').unwrap_or(rest.len())].trim_end_matches('\r');
            let err = lexer.error(line, format!("malformed tag pair: {why}"), shown);
            lexer.skip_line();
            Err(err)
        };
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == '"' || c == ']' {
                break;
            }
            self.bump();
        }
        let name = &self.src[start..self.pos];
        if name.is_empty() {
            return fail(self, "the tag has no name");
        }
        if !name.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || c == '_'
                || c == '+'
                || c == '#'
                || c == '='
                || c == ':'
                || c == '-'
        }) {
            return fail(self, "the tag name has characters a tag name cannot have");
        }
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
        if self.peek() != Some('"') {
            return fail(self, "the tag value must be a string in double quotes");
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some('\n') | Some('\r') => {
                    return fail(self, "the tag value is not closed by '\"' on its line");
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some('\\') => {
                    self.bump();
                    match self.peek() {
                        Some(c @ ('"' | '\\')) => {
                            self.bump();
                            value.push(c);
                        }
                        _ => value.push('\\'),
                    }
                }
                Some(c) => {
                    self.bump();
                    value.push(c);
                }
            }
        }
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
        if self.peek() != Some(']') {
            return fail(self, "expected ']' after the tag value");
        }
        self.bump();
        Ok(Token {
            kind: TokenKind::Tag { name, value },
            line,
        })
    }

    /// Classifies a run of symbol characters. Move numbers glued in front (`12.e4`, and
    /// chains like `1.1.1.e4`, all read as one number) give a [`TokenKind::MoveNumber`] now
    /// and the rest as the pending token. A loop, not a recursion: a chain of any length
    /// takes constant stack.
    fn symbol(&mut self, text: &'a str, line: usize) -> Token<'a> {
        let mut rest = text;
        let mut numbered = false;
        loop {
            let after_digits = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            let after_dots = after_digits.trim_start_matches(['.', '…']);
            if after_digits.len() == rest.len() || after_dots.len() == after_digits.len() {
                break;
            }
            // `12.` or `12...`, maybe with more glued on.
            numbered = true;
            rest = after_dots;
        }
        if !numbered {
            return Token {
                kind: classify(text),
                line,
            };
        }
        if !rest.is_empty() {
            self.pending = Some(Token {
                kind: classify(rest),
                line,
            });
        }
        Token {
            kind: TokenKind::MoveNumber,
            line,
        }
    }
}

/// The kind of a run of symbol characters with no move number glued in front (a bare `12`
/// is still a move number).
fn classify(text: &str) -> TokenKind<'_> {
    match text {
        "1-0" => TokenKind::Result(PgnResult::WhiteWins),
        "0-1" => TokenKind::Result(PgnResult::BlackWins),
        "1/2-1/2" | "½-½" => TokenKind::Result(PgnResult::Draw),
        "*" => TokenKind::Result(PgnResult::Unknown),
        "e.p." | "ep" | "e.p" => TokenKind::Annotation,
        _ if text.bytes().all(|b| b.is_ascii_digit()) => TokenKind::MoveNumber,
        // `0-0`, `0-0-0` and anything else starting with a digit: a move for the reader.
        _ if text.starts_with(|c: char| c.is_ascii_digit()) => TokenKind::Symbol(text),
        _ => {
            let stripped = text.trim_end_matches(['!', '?']);
            if stripped.is_empty() || (text != "--" && text.chars().all(is_annotation_glyph)) {
                TokenKind::Annotation
            } else {
                TokenKind::Symbol(stripped)
            }
        }
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<Token<'a>, LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(t) = self.pending.take() {
            return Some(Ok(t));
        }
        loop {
            // `%` in the first column escapes the whole line.
            if self.at_line_start() && self.peek() == Some('%') {
                self.skip_line();
                continue;
            }
            let c = self.peek()?;
            if c.is_whitespace() || c == '\u{feff}' {
                self.bump();
                continue;
            }
            let line = self.line;
            let start = self.pos;
            self.bump();
            let token = match c {
                '[' => self.tag(line),
                '{' => match self.src[self.pos..].find('}') {
                    Some(i) => {
                        let body = &self.src[self.pos..self.pos + i];
                        self.line += body.matches('\n').count();
                        self.pos += i + 1;
                        Ok(Token {
                            kind: TokenKind::Comment,
                            line,
                        })
                    }
                    None => {
                        self.pos = self.src.len();
                        Err(self.error(line, "a comment '{' is never closed by '}'", "{"))
                    }
                },
                ';' => {
                    self.skip_line();
                    Ok(Token {
                        kind: TokenKind::Comment,
                        line,
                    })
                }
                '$' => {
                    while matches!(self.peek(), Some('0'..='9')) {
                        self.bump();
                    }
                    Ok(Token {
                        kind: TokenKind::Annotation,
                        line,
                    })
                }
                '(' => Ok(Token {
                    kind: TokenKind::OpenVariation,
                    line,
                }),
                ')' => Ok(Token {
                    kind: TokenKind::CloseVariation,
                    line,
                }),
                '}' | ']' | '"' => Err(self.error(
                    line,
                    format!("unexpected '{c}' outside a comment or a tag pair"),
                    &c.to_string(),
                )),
                _ => {
                    while let Some(c) = self.peek() {
                        if is_delimiter(c) {
                            break;
                        }
                        self.bump();
                    }
                    let text = &self.src[start..self.pos];
                    Ok(self.symbol(text, line))
                }
            };
            return Some(token);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Result<(TokenKind<'_>, usize), usize>> {
        Lexer::new(src)
            .map(|t| t.map(|t| (t.kind, t.line)).map_err(|e| e.line))
            .collect()
    }

    #[test]
    fn tags_moves_and_results() {
        use TokenKind::*;
        let got = kinds(
            "\u{feff}[Event \"A \\\"big\\\" one \\\\ \"]\r\n[Site \"x\"]\r\n\r\n1.e4 e5!? 2. Nf3 $1 {a\ncomment} 2... Nc6 ; rest\n(2... d6) 1/2-1/2 *",
        );
        let want = vec![
            Ok((
                Tag {
                    name: "Event",
                    value: "A \"big\" one \\ ".into(),
                },
                1,
            )),
            Ok((
                Tag {
                    name: "Site",
                    value: "x".into(),
                },
                2,
            )),
            Ok((MoveNumber, 4)),
            Ok((Symbol("e4"), 4)),
            Ok((Symbol("e5"), 4)),
            Ok((MoveNumber, 4)),
            Ok((Symbol("Nf3"), 4)),
            Ok((Annotation, 4)),
            Ok((Comment, 4)),
            Ok((MoveNumber, 5)),
            Ok((Symbol("Nc6"), 5)),
            Ok((Comment, 5)),
            Ok((OpenVariation, 6)),
            Ok((MoveNumber, 6)),
            Ok((Symbol("d6"), 6)),
            Ok((CloseVariation, 6)),
            Ok((Result(PgnResult::Draw), 6)),
            Ok((Result(PgnResult::Unknown), 6)),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn castling_with_zeros_is_a_move_and_glyphs_are_annotations() {
        use TokenKind::*;
        let got = kinds("0-0 0-0-0 +- = !! e8=Q+! -- e.p. 12...exd6 1-0 0-1");
        let want = vec![
            Ok((Symbol("0-0"), 1)),
            Ok((Symbol("0-0-0"), 1)),
            Ok((Annotation, 1)),
            Ok((Annotation, 1)),
            Ok((Annotation, 1)),
            Ok((Symbol("e8=Q+"), 1)),
            Ok((Symbol("--"), 1)),
            Ok((Annotation, 1)),
            Ok((MoveNumber, 1)),
            Ok((Symbol("exd6"), 1)),
            Ok((Result(PgnResult::WhiteWins), 1)),
            Ok((Result(PgnResult::BlackWins), 1)),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn move_numbers_glued_to_move_numbers_give_one_number_and_the_move() {
        use TokenKind::*;
        assert_eq!(
            kinds("1.1.e4 2...3.Nf3 4.5. 6.0-0"),
            vec![
                Ok((MoveNumber, 1)),
                Ok((Symbol("e4"), 1)),
                Ok((MoveNumber, 1)),
                Ok((Symbol("Nf3"), 1)),
                Ok((MoveNumber, 1)),
                Ok((MoveNumber, 1)),
                Ok((Symbol("0-0"), 1)),
            ]
        );
        // A loop, not a recursion per number: a 200,000-deep chain fits any stack.
        let chain = format!("{}e4", "1.".repeat(200_000));
        assert_eq!(
            kinds(&chain),
            vec![Ok((MoveNumber, 1)), Ok((Symbol("e4"), 1))]
        );
    }

    #[test]
    fn escape_lines_are_skipped() {
        let got = kinds("% a comment line\ne4\n%another\n");
        assert_eq!(got, vec![Ok((TokenKind::Symbol("e4"), 2))]);
    }

    #[test]
    fn errors_name_the_line_and_the_lexer_goes_on() {
        let got = kinds("[Event \"x\"]\n[Site \"unclosed]\ne4\n[Bad x]\n{ never closed\n\n");
        assert_eq!(
            got,
            vec![
                Ok((
                    TokenKind::Tag {
                        name: "Event",
                        value: "x".into()
                    },
                    1
                )),
                Err(2),
                Ok((TokenKind::Symbol("e4"), 3)),
                Err(4),
                Err(5),
            ]
        );
        let e = Lexer::new("\n\n}").find_map(|t| t.err()).unwrap();
        assert_eq!(e.line, 3);
        assert!(e.message.contains('}'), "{}", e.message);
    }
}
