//! PGN import: raw games from the splitter, played with the move reader of part 2.

use std::fmt;

use super::split::{RawGame, Splitter};
use super::{MAX_FILE_BYTES, PgnResult};
use crate::game::{Game, PlayError};
use crate::outcome::{DrawClaim, DrawReason, WinReason};
use crate::{
    CastlingMode, Chess960, Color, FenError, Lang, Outcome, Position, ReadError, read_move,
};

/// A game read from PGN.
#[derive(Debug, Clone)]
pub struct PgnGame {
    /// The tag pairs, in file order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The game: start position (the FEN tag's, or the initial one) and the main line.
    pub game: Game,
    /// The game termination marker at the end of the movetext, if there was one.
    pub result: Option<PgnResult>,
    /// The 1-based line the game starts on.
    pub line: usize,
}

impl PgnGame {
    /// The value of the first tag pair called `name` (case-sensitive, as PGN says).
    ///
    /// ```
    /// use cajitas_rules::{Lang, pgn};
    /// let g = pgn::read_game("[White \"Anderssen, Adolf\"]\n1. e4 *", Lang::En).unwrap();
    /// assert_eq!(g.tag("White"), Some("Anderssen, Adolf"));
    /// assert_eq!(g.tag("Black"), None);
    /// ```
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The tags to write this game out again with [`write_game`](super::write_game): the
    /// roster from its tags (`?` where missing), every other tag in `extra` (the writer
    /// leaves out the ones it writes from the game itself).
    ///
    /// ```
    /// use cajitas_rules::{Lang, pgn};
    /// let g = pgn::read_game("[White \"Ana\"]\n[WhiteElo \"1500\"]\n1. e4 *", Lang::En).unwrap();
    /// let tags = g.export_tags();
    /// assert_eq!((tags.white.as_str(), tags.black.as_str()), ("Ana", "?"));
    /// assert_eq!(tags.extra, vec![("WhiteElo".to_string(), "1500".to_string())]);
    /// ```
    pub fn export_tags(&self) -> super::Tags {
        let mut tags = super::Tags::default();
        for (name, value) in &self.tags {
            let field = match name.as_str() {
                "Event" => &mut tags.event,
                "Site" => &mut tags.site,
                "Date" => &mut tags.date,
                "Round" => &mut tags.round,
                "White" => &mut tags.white,
                "Black" => &mut tags.black,
                _ => {
                    tags.extra.push((name.clone(), value.clone()));
                    continue;
                }
            };
            *field = value.clone();
        }
        tags
    }

    /// How the game ended: its automatic ending if the moves reached one, otherwise what
    /// the result marker (or, without one, the Result tag) says, read as PGN files mean it:
    /// a win without mate is a resignation, or a timeout when the Termination tag says
    /// "time forfeit"; a draw is a claimed threefold repetition or 50-move draw when the
    /// final position allows that claim, otherwise an agreement (or, on time, the FIDE 6.9
    /// draw). `None` for `*` or no result.
    ///
    /// ```
    /// use cajitas_rules::{Color, Lang, Outcome, WinReason, pgn};
    /// let g = pgn::read_game("1. e4 e5 2. Qh5 Ke7 1-0", Lang::En).unwrap();
    /// assert_eq!(g.game.outcome(), None);
    /// assert_eq!(g.outcome(), Some(Outcome::Decisive { winner: Color::White,
    ///                                                   reason: WinReason::Resignation }));
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.game.outcome() {
            return Some(o);
        }
        let result = self
            .result
            .filter(|r| *r != PgnResult::Unknown)
            .or_else(|| self.tag("Result").and_then(|r| r.parse().ok()))?;
        let on_time = self
            .tag("Termination")
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("time forfeit"));
        Some(match result {
            PgnResult::WhiteWins | PgnResult::BlackWins => Outcome::Decisive {
                winner: if result == PgnResult::WhiteWins {
                    Color::White
                } else {
                    Color::Black
                },
                reason: if on_time {
                    WinReason::Timeout
                } else {
                    WinReason::Resignation
                },
            },
            PgnResult::Draw => {
                let claims = self.game.claimable_now();
                Outcome::Draw {
                    reason: if on_time {
                        DrawReason::TimeoutVsInsufficientMaterial
                    } else if claims.contains(&DrawClaim::ThreefoldRepetition) {
                        DrawReason::ThreefoldClaim
                    } else if claims.contains(&DrawClaim::FiftyMoves) {
                        DrawReason::FiftyMoveClaim
                    } else {
                        DrawReason::Agreement
                    },
                }
            }
            PgnResult::Unknown => return None,
        })
    }

    /// The game with [`PgnGame::outcome`] recorded in it (a resignation, agreement, claim or
    /// timeout), e.g. to write it out again with the same result.
    pub fn finished_game(&self) -> Game {
        let mut game = self.game.clone();
        if game.outcome().is_none() {
            match self.outcome() {
                Some(Outcome::Decisive {
                    winner,
                    reason: WinReason::Timeout,
                }) => {
                    let _ = game.timeout(!winner);
                }
                Some(Outcome::Decisive { winner, .. }) => {
                    let _ = game.resign(!winner);
                }
                Some(Outcome::Draw {
                    reason: DrawReason::ThreefoldClaim,
                }) => {
                    let _ = game.claim_draw(DrawClaim::ThreefoldRepetition);
                }
                Some(Outcome::Draw {
                    reason: DrawReason::FiftyMoveClaim,
                }) => {
                    let _ = game.claim_draw(DrawClaim::FiftyMoves);
                }
                Some(Outcome::Draw { .. }) => {
                    let _ = game.agree_draw();
                }
                None => {}
            }
        }
        game
    }
}

/// What went wrong reading PGN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// The text is not PGN here: an unclosed comment, a malformed tag pair, an unclosed
    /// variation, too many plies (more than [`MAX_PLIES`](super::MAX_PLIES)).
    Syntax(String),
    /// The text is larger than [`MAX_FILE_BYTES`].
    TooLarge {
        /// Its size in bytes.
        bytes: usize,
    },
    /// The FEN tag cannot be used: why (it is not FEN, or not a playable position).
    Fen(FenError),
    /// The Variant tag names a variant other than standard chess and Chess960.
    Variant(String),
    /// A move could not be read or is not legal.
    Move(ReadError),
    /// A move comes after the game had already ended (e.g. a fivefold repetition).
    GameOver(Outcome),
}

/// A PGN error, with where it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError {
    /// The 1-based line of the problem (0 for the whole text, e.g. when it is too large).
    pub line: usize,
    /// How many plies of the game were played before it.
    pub ply: usize,
    /// The offending text (a move as written, a tag line), possibly empty.
    pub input: String,
    /// The move number as PGN writes it before the failing move (`7.`, `7...`), if a move failed.
    pub move_number: Option<String>,
    /// What went wrong.
    pub kind: PgnErrorKind,
}

impl PgnError {
    /// The message without the line number (what `cajitas replay` prints as "error"). The
    /// text at fault is shown capped, through [`echo`](super::echo).
    pub fn message(&self) -> String {
        let input = super::echo(&self.input);
        match &self.kind {
            PgnErrorKind::Syntax(m) => m.clone(),
            PgnErrorKind::TooLarge { bytes } => format!(
                "the PGN text is {bytes} bytes, more than the {} MiB allowed",
                MAX_FILE_BYTES / (1024 * 1024)
            ),
            PgnErrorKind::Fen(why) => format!("the FEN tag cannot be used: {why}"),
            PgnErrorKind::Variant(v) => format!(
                "the variant \"{}\" is not supported, only standard chess and Chess960",
                super::echo(v)
            ),
            PgnErrorKind::Move(e) => match &self.move_number {
                Some(n) => format!("{n} {input}: {e}"),
                None => format!("{input}: {e}"),
            },
            PgnErrorKind::GameOver(o) => match &self.move_number {
                Some(n) => format!("{n} {input}: the game was already over ({o})"),
                None => format!("{input}: the game was already over ({o})"),
            },
        }
    }
}

/// `line N: message`.
///
/// ```
/// use cajitas_rules::{Lang, pgn};
/// let err = pgn::read_game("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *", Lang::En).unwrap_err();
/// assert_eq!(err.line, 3);
/// assert_eq!(err.ply, 2);
/// assert!(err.to_string().starts_with("line 3: 2. Ke3: "), "{err}");
/// ```
impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message())
        } else {
            write!(f, "line {}: {}", self.line, self.message())
        }
    }
}

impl std::error::Error for PgnError {}

/// The games of a PGN text, in order: each either read or the error that stopped it.
/// A failing game does not stop the next ones.
pub struct Games<'a> {
    splitter: Splitter<'a>,
    lang: Lang,
    start: Option<Position>,
}

impl Games<'_> {
    /// Games without a FEN tag start from `position` instead of the initial position
    /// (what `cajitas replay --fen` does).
    ///
    /// ```
    /// use cajitas_rules::{Lang, Position, pgn};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    /// let games: Vec<_> = pgn::read_games("1. e4 Kd7 *", Lang::En).unwrap()
    ///     .starting_from(pos).collect();
    /// assert_eq!(games[0].as_ref().unwrap().game.moves().len(), 2);
    /// ```
    pub fn starting_from(mut self, position: Position) -> Self {
        self.start = Some(position);
        self
    }
}

impl Iterator for Games<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let raw = self.splitter.next()?;
        Some(play_raw(raw, self.lang, self.start.as_ref()))
    }
}

/// Reads every game of a PGN text. Moves are read with [`read_move`] in `lang`, so the
/// tolerant forms people type work inside PGN too. A PGN file's movetext is standard SAN,
/// whose letters are English (`R` a rook): read files with [`Lang::En`] whatever the
/// reader's language, or Spanish `R` (rey) would turn `12...Rd8` into a king move where one
/// is legal. `cajitas replay`, `analyse` and `render` do so.
///
/// The text may have a byte order mark, CRLF line ends, `{}` and `;` comments (`%clk` and
/// `%eval` included), NAGs (`$1`), annotation glyphs (`!?`, `+-`), variations (skipped),
/// `%` escape lines, move numbers glued to moves (`12.e4`), a FEN tag without SetUp, and
/// a missing result or missing tag section.
///
/// # Errors
/// [`PgnErrorKind::TooLarge`] when the text is over [`MAX_FILE_BYTES`]. Errors within a game
/// come out of the iterator, one per failing game.
///
/// ```
/// use cajitas_rules::{Lang, pgn};
/// let text = "\u{feff}[Event \"a\"]\r\n\r\n1. e4 {[%clk 0:03:00]} e5 (1... c5) 2. Nf3!? $1 1-0\r\n\
///             \r\n[Event \"b\"]\r\n1. d4 d5 2. Kd3 *\r\n\r\n1. c4 *";
/// let games: Vec<_> = pgn::read_games(text, Lang::En).unwrap().collect();
/// assert_eq!(games.len(), 3);
/// assert_eq!(games[0].as_ref().unwrap().game.moves().len(), 3);
/// assert_eq!(games[0].as_ref().unwrap().result, Some(pgn::PgnResult::WhiteWins));
/// assert_eq!(games[1].as_ref().unwrap_err().line, 6);
/// assert_eq!(games[2].as_ref().unwrap().game.moves().len(), 1);
/// ```
pub fn read_games(text: &str, lang: Lang) -> Result<Games<'_>, PgnError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(PgnError {
            line: 0,
            ply: 0,
            input: String::new(),
            move_number: None,
            kind: PgnErrorKind::TooLarge { bytes: text.len() },
        });
    }
    Ok(Games {
        splitter: Splitter::new(text),
        lang,
        start: None,
    })
}

/// Reads the first game of a PGN text.
///
/// # Errors
/// As [`read_games`], or a syntax error when the text has no game at all.
///
/// ```
/// use cajitas_rules::{Lang, pgn};
/// let g = pgn::read_game("1. e4 e5 2. Cf3 Cc6 3. Ab5 *", Lang::Es).unwrap();
/// assert_eq!(g.game.moves().len(), 5);
/// assert!(pgn::read_game("  {nothing here}  ", Lang::En).is_err());
/// ```
pub fn read_game(text: &str, lang: Lang) -> Result<PgnGame, PgnError> {
    read_games(text, lang)?.next().unwrap_or_else(|| {
        Err(PgnError {
            line: 1,
            ply: 0,
            input: String::new(),
            move_number: None,
            kind: PgnErrorKind::Syntax("no game found in the text".into()),
        })
    })
}

/// Decodes PGN bytes: UTF-8 when they are; otherwise, after a UTF-8 byte order mark, UTF-8
/// with the bad bytes replaced (U+FFFD); otherwise Latin-1 (ISO 8859-1), which older PGN
/// files use. Every byte sequence decodes.
///
/// ```
/// use cajitas_rules::pgn;
/// assert_eq!(pgn::decode(b"Ca\xefssa"), "Caïssa");
/// assert_eq!(pgn::decode("Caïssa".as_bytes()), "Caïssa");
/// assert_eq!(pgn::decode(b"\xef\xbb\xbfCa\xefssa"), "\u{feff}Ca\u{fffd}ssa");
/// ```
pub fn decode(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) if bytes.starts_with(b"\xef\xbb\xbf") => String::from_utf8_lossy(bytes),
        Err(_) => std::borrow::Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
    }
}

/// The names PGN files give Chess960 (lichess writes "Chess960"; older files
/// "Fischerandom", ChessBase "Fischer Random"), compared without case.
fn is_chess960_variant(v: &str) -> bool {
    let v = v.trim().to_ascii_lowercase();
    matches!(
        v.as_str(),
        "chess960" | "chess 960" | "fischerandom" | "fischer random" | "fischerrandom" | "960"
    )
}

/// The variants that are standard chess under another name.
fn is_standard_variant(v: &str) -> bool {
    let v = v.trim().to_ascii_lowercase();
    matches!(
        v.as_str(),
        "" | "standard" | "chess" | "from position" | "normal"
    )
}

fn play_raw(raw: RawGame<'_>, lang: Lang, start: Option<&Position>) -> Result<PgnGame, PgnError> {
    if let Some(e) = raw.error {
        return Err(PgnError {
            line: e.line,
            ply: e.ply,
            input: e.input,
            move_number: None,
            kind: PgnErrorKind::Syntax(e.message),
        });
    }
    let tag = |name: &str| {
        raw.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let mode = match tag("Variant") {
        Some(v) if is_chess960_variant(v) => CastlingMode::Chess960,
        Some(v) if !is_standard_variant(v) => {
            return Err(PgnError {
                line: raw.line,
                ply: 0,
                input: v.to_string(),
                move_number: None,
                kind: PgnErrorKind::Variant(v.to_string()),
            });
        }
        _ => CastlingMode::Standard,
    };
    let fen_error = |fen: &str, e| PgnError {
        line: raw.line,
        ply: 0,
        input: fen.to_string(),
        move_number: None,
        kind: PgnErrorKind::Fen(e),
    };
    let position = match (tag("FEN"), start) {
        // Shredder-FEN letters say Chess960 even without the Variant tag.
        (Some(fen), _) => {
            let mode = if CastlingMode::implied_by_fen(fen).is_chess960() {
                CastlingMode::Chess960
            } else {
                mode
            };
            Position::from_fen_with(fen.trim(), mode).map_err(|e| fen_error(fen, e))?
        }
        // A Chess960 game without FEN starts from the caller's position read as Chess960,
        // or from the standard position (Chess960 #518).
        (None, Some(start)) if mode.is_chess960() && !start.castling_mode().is_chess960() => {
            let fen = start.fen();
            Position::from_fen_with(&fen, mode).map_err(|e| fen_error(&fen, e))?
        }
        (None, Some(start)) => start.clone(),
        (None, None) if mode.is_chess960() => Chess960::STANDARD.to_position(),
        (None, None) => Position::default(),
    };
    let mut game = Game::from_position(position);
    for (ply, &(text, line)) in raw.moves.iter().enumerate() {
        let pos = game.position();
        let move_number = Some(match pos.turn() {
            Color::White => format!("{}.", pos.fullmoves()),
            Color::Black => format!("{}...", pos.fullmoves()),
        });
        let fail = |kind| PgnError {
            line,
            ply,
            input: text.to_string(),
            move_number: move_number.clone(),
            kind,
        };
        if let Some(o) = game.outcome() {
            return Err(fail(PgnErrorKind::GameOver(o)));
        }
        let m = read_move(pos, text, lang).map_err(|e| fail(PgnErrorKind::Move(e)))?;
        match game.try_play(m) {
            Ok(()) => {}
            Err(PlayError::GameOver(o)) => return Err(fail(PgnErrorKind::GameOver(o))),
            Err(PlayError::IllegalMove(_)) => {
                // The reader only returns legal moves; kept as an error, never a panic.
                return Err(fail(PgnErrorKind::Syntax(format!(
                    "the move '{}' is not legal",
                    super::echo(text)
                ))));
            }
        }
    }
    Ok(PgnGame {
        tags: raw.tags,
        game,
        result: raw.result,
        line: raw.line,
    })
}
