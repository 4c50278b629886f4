//! One line of `cajitas local`, parsed into a [`Command`] before anything runs.

use cajitas_rules::Lang;

use crate::game::ratings::Speed;
use crate::game::{ColourChoice, PuzzleBoard, PuzzleOrigin, PuzzleRequest, TimeControl};
use crate::{i18n, tr};

/// What to do about a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawAction {
    /// Offer a draw.
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline it.
    Decline,
    /// Claim a draw (threefold repetition, 50 moves).
    Claim,
}

/// What to do about a takeback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakebackAction {
    /// Ask the opponent to take back one's last move (and their reply, if any).
    Request,
    /// Accept the opponent's request: the game is rewound.
    Accept,
    /// Decline it.
    Decline,
}

/// A console command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `quit`, `exit`.
    Quit,
    /// `help`, `?`.
    Help,
    /// `as NAME`: act as another user.
    As(String),
    /// `lang [en|es]`: show or set how moves are read.
    Lang(Option<Lang>),
    /// `challenge [NAME] [white|black|random] [TIME] [rated:true|false] [chess960[:N]]`
    /// (TIME: `1d` … `14d`, `3+2` … `30+20`, `untimed`; 3 days per move by default; rated
    /// by default; standard chess by default).
    Challenge {
        /// Whom; `None` for an open challenge.
        opponent: Option<String>,
        /// The challenger's colour.
        colour: ColourChoice,
        /// The time control.
        time: TimeControl,
        /// Whether the game counts for the ratings (rated by default).
        rated: bool,
        /// `None`: standard chess; `Some(None)`: Chess960 from a random start position;
        /// `Some(Some(n))`: from start position `n` (0–959).
        chess960: Option<Option<u32>>,
    },
    /// `claim-win [draw]`: claims an untimed game whose opponent has not moved for the
    /// abandonment period.
    ClaimWin {
        /// A draw instead of the win.
        draw: bool,
    },
    /// `play [1-8] [white|black|random]`: a game against the computer (level 1 and a
    /// random colour by default).
    Play {
        /// The engine's level, 1–8.
        level: u8,
        /// The person's colour.
        colour: ColourChoice,
    },
    /// `accept`.
    Accept,
    /// `decline`.
    Decline,
    /// `cancel`.
    Cancel,
    /// `move TEXT [claim]` (or `m`).
    Move {
        /// The move as typed.
        text: String,
        /// Whether a draw is claimed with it.
        claim: bool,
    },
    /// `draw offer|accept|decline|claim`.
    Draw(DrawAction),
    /// `takeback [accept|decline]`.
    Takeback(TakebackAction),
    /// `resign`.
    Resign,
    /// `abort`.
    Abort,
    /// `board`.
    Board,
    /// `pgn`.
    Pgn,
    /// `history`.
    History,
    /// `stats [NAME]`: ratings, results and the rating chart (one's own by default).
    Stats(Option<String>),
    /// `leaderboard [live|correspondence]`.
    Leaderboard(Option<Speed>),
    /// `puzzle [THEME] [RATING]` or `puzzle id:ID`: a puzzle, chosen or by its id.
    Puzzle(PuzzleRequest),
    /// `puzzle streak` (in Spanish also `problema racha`): a Puzzle Streak.
    PuzzleStreak,
    /// `leaderboard puzzles|streak`: a puzzle leaderboard.
    PuzzleLeaderboard(PuzzleBoard),
    /// `hint`: the piece to move in one's puzzle.
    Hint,
    /// `solution`: give up one's puzzle and see its solution.
    Solution,
    /// `arena …`: an arena in the channel.
    Arena(ArenaCommand),
    /// `roundrobin …` (in Spanish also `liguilla …`): a round robin in the channel.
    RoundRobin(RoundRobinCommand),
}

/// What `arena` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArenaCommand {
    /// `arena create 30m 3+2 [rated:false] [starts:Nm]`.
    Create {
        /// Its duration, in minutes.
        minutes: u32,
        /// Its clock.
        time: TimeControl,
        /// Rated (by default).
        rated: bool,
        /// Minutes until it starts.
        starts_in: Option<u32>,
    },
    /// `arena join`.
    Join,
    /// `arena pause`.
    Pause,
    /// `arena withdraw`.
    Withdraw,
    /// `arena berserk`.
    Berserk,
    /// `arena standings`.
    Standings,
}

/// How `arena` is written.
const ARENA_USAGE: &str = "arena create 30m|45m|60m|90m TIME [rated:true|false] [starts:Nm] | arena join|pause|withdraw|berserk|standings";

/// `30m` (or `30`): minutes.
fn minutes(a: &str) -> Option<u32> {
    let n = a.strip_suffix(['m', 'M']).unwrap_or(a);
    (!n.is_empty() && n.len() <= 5 && n.chars().all(|c| c.is_ascii_digit()))
        .then(|| n.parse().ok())
        .flatten()
}

/// `arena`'s sub-command and options (the Spanish words too: `crear`, `unirse`, `pausa`,
/// `retirarse`, `clasificacion`).
fn parse_arena(args: &[&str], lang: Lang) -> Result<Command, CommandError> {
    let usage = || CommandError::Usage(ARENA_USAGE);
    let (first, rest) = args.split_first().ok_or_else(usage)?;
    let is = |english: &str, id: &str| word_is(lang, first, english, id);
    let simple = if is("join", "console-arena-join") {
        Some(ArenaCommand::Join)
    } else if is("pause", "console-arena-pause") {
        Some(ArenaCommand::Pause)
    } else if is("withdraw", "console-arena-withdraw") {
        Some(ArenaCommand::Withdraw)
    } else if is("berserk", "console-arena-berserk") {
        Some(ArenaCommand::Berserk)
    } else if is("standings", "console-arena-standings") {
        Some(ArenaCommand::Standings)
    } else {
        None
    };
    if let Some(c) = simple {
        return if rest.is_empty() {
            Ok(Command::Arena(c))
        } else {
            Err(usage())
        };
    }
    if !is("create", "console-arena-create") {
        return Err(usage());
    }
    let (mut mins, mut time, mut rated, mut starts) = (None, None, None, None);
    for a in rest {
        let again = if let Some(r) = rated_option(lang, a).map_err(|_| usage())? {
            rated.replace(r).is_some()
        } else if let Some((key, value)) = a.split_once(':') {
            if !word_is(lang, key, "starts", "console-arena-starts") {
                return Err(usage());
            }
            starts.replace(minutes(value).ok_or_else(usage)?).is_some()
        } else if let Ok(t) = a.parse::<TimeControl>() {
            time.replace(t).is_some()
        } else if let Some(m) = minutes(a) {
            mins.replace(m).is_some()
        } else {
            return Err(usage());
        };
        if again {
            return Err(usage());
        }
    }
    Ok(Command::Arena(ArenaCommand::Create {
        minutes: mins.ok_or_else(usage)?,
        time: time.ok_or_else(usage)?,
        rated: rated.unwrap_or(true),
        starts_in: starts,
    }))
}

/// What `roundrobin` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundRobinCommand {
    /// `roundrobin create NAME NAME NAME … TIME [double] [rated:true|false]` (in Spanish
    /// `liguilla crear … [doble] [puntuada:sí|no]`): 3 to 16 players, seated in the order
    /// given; rated by default.
    Create {
        /// The players' names, seat 1 first.
        players: Vec<String>,
        /// Its games' time control.
        time: TimeControl,
        /// Everyone meets everyone twice.
        double: bool,
        /// Whether its games count for the ratings.
        rated: bool,
    },
    /// `roundrobin standings` (`liguilla clasificación`).
    Standings,
    /// `roundrobin withdraw [as NAME]` (`liguilla retirarse`): the acting user, or NAME, leaves.
    Withdraw(Option<String>),
}

/// Why a line is not a command; its `Display` is what the console prints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A command used the wrong way; the usage line.
    #[error("Usage: {0}")]
    Usage(&'static str),
    /// `lang` with a language the bot does not speak.
    #[error("unknown language {0:?}: use en or es")]
    UnknownLang(String),
    /// `challenge` with an unknown colour.
    #[error("Unknown colour {0:?}: use white, black or random.")]
    UnknownColour(String),
    /// Not a command at all.
    #[error("Unknown command {0:?}. Type `help` for the list.")]
    Unknown(String),
}

impl CommandError {
    /// What the console prints, in `lang` (the `Display` text is the English one, which clap
    /// shows for a bad `--lang`).
    pub fn message(&self, lang: Lang) -> String {
        match self {
            CommandError::Usage(usage) => tr!(lang, "console-usage", usage = *usage),
            CommandError::UnknownLang(l) => {
                tr!(lang, "console-unknown-lang", lang = format!("{l:?}"))
            }
            CommandError::UnknownColour(c) => {
                tr!(lang, "console-unknown-colour", colour = format!("{c:?}"))
            }
            CommandError::Unknown(c) => {
                tr!(lang, "console-unknown-command", command = format!("{c:?}"))
            }
        }
    }
}

/// Reads a language name: `en`/`english` or `es`/`spanish`/`español`.
pub fn parse_lang(s: &str) -> Result<Lang, CommandError> {
    match s.trim().to_lowercase().as_str() {
        "en" | "english" => Ok(Lang::En),
        "es" | "spanish" | "español" | "espanol" => Ok(Lang::Es),
        other => Err(CommandError::UnknownLang(other.chars().take(40).collect())),
    }
}

fn colour_of(s: &str, lang: Lang) -> Option<ColourChoice> {
    match s.to_lowercase().as_str() {
        "white" | "blancas" => Some(ColourChoice::White),
        "black" | "negras" => Some(ColourChoice::Black),
        "random" | "azar" => Some(ColourChoice::Random),
        _ if spanish(lang, s, "cmd-challenge.colour-random") => Some(ColourChoice::Random),
        _ => None,
    }
}

/// The console's commands that are slash commands too, by their English word: in Spanish
/// their word is the slash command's Spanish name (`cmd-<word>.name`, commands.ftl), so the
/// console and Discord read the same words.
const SLASH_WORDS: [&str; 19] = [
    "challenge",
    "claim-win",
    "play",
    "accept",
    "decline",
    "cancel",
    "move",
    "draw",
    "takeback",
    "resign",
    "abort",
    "board",
    "pgn",
    "history",
    "stats",
    "leaderboard",
    "puzzle",
    "help",
    "roundrobin",
];

/// A word as compared: lower case, without accents, a space as `-` (`Clasificación` and
/// `clasificacion`, `al azar` and `al-azar` are the same word).
fn fold(s: &str) -> String {
    s.trim()
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'á' => 'a',
            'é' => 'e',
            'í' => 'i',
            'ó' => 'o',
            'ú' | 'ü' => 'u',
            ' ' => '-',
            c => c,
        })
        .collect()
}

/// Whether the console speaks Spanish and `typed` is the Spanish word of the Fluent message
/// (or attribute) `id`.
fn spanish(lang: Lang, typed: &str, id: &str) -> bool {
    lang == Lang::Es && fold(typed) == fold(&i18n::text(Lang::Es, id, None))
}

/// The English command of a Spanish command word: a slash command's Spanish name, or
/// `salir` (`console-quit-word`).
fn spanish_command(word: &str) -> Option<&'static str> {
    if spanish(Lang::Es, word, "console-quit-word") {
        return Some("quit");
    }
    SLASH_WORDS
        .into_iter()
        .find(|w| spanish(Lang::Es, word, &format!("cmd-{w}.name")))
}

/// Whether `typed` is the option word `english`, or (in Spanish) the word of Fluent's `id`.
fn word_is(lang: Lang, typed: &str, english: &str, id: &str) -> bool {
    typed.eq_ignore_ascii_case(english) || spanish(lang, typed, id)
}

/// `rated:true|false` (in Spanish also `puntuada:sí|no`): `None` for another option, an
/// error for another value.
fn rated_option(lang: Lang, a: &str) -> Result<Option<bool>, CommandError> {
    let Some((key, value)) = a.split_once(':') else {
        return Ok(None);
    };
    if !word_is(lang, key, "rated", "cmd-challenge.rated-name") {
        return Ok(None);
    }
    match fold(value).as_str() {
        "true" | "yes" | "si" => Ok(Some(true)),
        "false" | "no" => Ok(Some(false)),
        _ => Err(CommandError::Usage(CHALLENGE_USAGE)),
    }
}

/// `chess960` or `chess960:N` (N in 0–959): `None` for another word, an error for a bad N.
fn chess960_option(a: &str) -> Result<Option<Option<u32>>, CommandError> {
    let (word, number) = match a.split_once(':') {
        Some((w, n)) => (w, Some(n)),
        None => (a, None),
    };
    if !word.eq_ignore_ascii_case("chess960") {
        return Ok(None);
    }
    match number {
        None => Ok(Some(None)),
        Some(n) => match n.parse::<u32>() {
            Ok(n) if n < 960 => Ok(Some(Some(n))),
            _ => Err(CommandError::Usage(CHALLENGE_USAGE)),
        },
    }
}

/// Whether `a` is written like a time control (`4d`, `4+4`), offered or not.
fn looks_like_time(a: &str) -> bool {
    let days = a
        .strip_suffix(['d', 'D'])
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    days || a.contains('+')
}

/// `challenge`'s options, in any order (as the slash command's): a name, a colour, a time
/// control, `rated:…`, each at most once.
fn parse_challenge(args: &[&str], lang: Lang) -> Result<Command, CommandError> {
    let usage = || CommandError::Usage(CHALLENGE_USAGE);
    let (mut rated, mut time, mut colour, mut chess960) = (None, None, None, None);
    let mut names = Vec::new();
    for a in args {
        let again = if let Some(r) = rated_option(lang, a)? {
            rated.replace(r).is_some()
        } else if let Some(n) = chess960_option(a)? {
            chess960.replace(n).is_some()
        } else if let Ok(t) = a.parse::<TimeControl>() {
            time.replace(t).is_some()
        } else if looks_like_time(a) {
            // A time control that is not offered.
            return Err(usage());
        } else if let Some(c) = colour_of(a, lang) {
            colour.replace(c).is_some()
        } else {
            names.push(*a);
            false
        };
        if again {
            return Err(usage());
        }
    }
    let opponent = match names.as_slice() {
        [] => None,
        [one] => Some(one.to_string()),
        // `challenge bob green`: a colour mistyped.
        [_, second] if colour.is_none() => {
            return Err(CommandError::UnknownColour(
                second.chars().take(40).collect(),
            ));
        }
        _ => return Err(usage()),
    };
    Ok(Command::Challenge {
        opponent,
        colour: colour.unwrap_or(ColourChoice::Random),
        time: time.unwrap_or(TimeControl::DEFAULT),
        rated: rated.unwrap_or(true),
        chess960,
    })
}

/// How `puzzle` is written.
const PUZZLE_USAGE: &str =
    "puzzle [THEME] [RATING] [source:any|server|lichess] | puzzle id:ID | puzzle streak";

/// `puzzle`'s options, in any order: a theme (its id or name, in one or more words), a rating
/// (a number of three digits or more), `source:any|server|lichess` (in Spanish also
/// `origen:cualquiera|servidor|lichess`), or alone `id:ID`.
fn parse_puzzle(lang: Lang, args: &[&str]) -> Result<Command, CommandError> {
    let usage = || CommandError::Usage(PUZZLE_USAGE);
    let mut req = PuzzleRequest::default();
    let mut sourced = false;
    for a in args {
        let source = a
            .split_once(':')
            .filter(|(key, _)| word_is(lang, key, "source", "cmd-puzzle.source-name"));
        let again = if let Some((_, value)) = source {
            req.source = [
                PuzzleOrigin::Any,
                PuzzleOrigin::Server,
                PuzzleOrigin::Lichess,
            ]
            .into_iter()
            .find(|o| {
                let id = format!("cmd-puzzle.source-{}", o.as_str());
                word_is(lang, value, o.as_str(), &id)
            })
            .ok_or_else(usage)?;
            std::mem::replace(&mut sourced, true)
        } else if let Some(id) = a.strip_prefix("id:") {
            id.is_empty() || req.id.replace(id.to_owned()).is_some()
        } else if a.len() >= 3 && a.chars().all(|c| c.is_ascii_digit()) {
            // A rating has three digits or more (400 to 3200): a shorter number belongs to
            // the theme's name ("mate en 2").
            let rating = a.parse::<i32>().map_err(|_| usage())?;
            req.rating.replace(rating).is_some()
        } else {
            // A theme's name may have several words ("mate en 2").
            match &mut req.theme {
                Some(t) => {
                    t.push(' ');
                    t.push_str(a);
                }
                None => req.theme = Some((*a).to_owned()),
            }
            false
        };
        if again {
            return Err(usage());
        }
    }
    if req.id.is_some() && (req.theme.is_some() || req.rating.is_some() || sourced) {
        return Err(usage());
    }
    Ok(Command::Puzzle(req))
}

/// How `roundrobin` is written.
pub const ROUNDROBIN_USAGE: &str = "roundrobin create NAME NAME NAME … TIME [double] [rated:true|false] | roundrobin standings | roundrobin withdraw [as NAME]";

/// The most names `roundrobin create` reads (more are refused by the service's count anyway).
const MAX_ROUNDROBIN_NAMES: usize = 32;

/// `roundrobin`'s subcommands; `create`'s options in any order after the subcommand: the
/// names in seat order, one time control, `double`, `rated:…`, each option at most once.
fn parse_roundrobin(args: &[&str], lang: Lang) -> Result<Command, CommandError> {
    let usage = || CommandError::Usage(ROUNDROBIN_USAGE);
    let Some((sub, rest)) = args.split_first() else {
        return Err(usage());
    };
    if word_is(lang, sub, "standings", "cmd-roundrobin-standings.name") {
        return if rest.is_empty() {
            Ok(Command::RoundRobin(RoundRobinCommand::Standings))
        } else {
            Err(usage())
        };
    }
    if word_is(lang, sub, "withdraw", "cmd-roundrobin-withdraw.name") {
        return match rest {
            [] => Ok(Command::RoundRobin(RoundRobinCommand::Withdraw(None))),
            [word, name @ ..] if word.eq_ignore_ascii_case("as") && !name.is_empty() => Ok(
                Command::RoundRobin(RoundRobinCommand::Withdraw(Some(name.join(" ")))),
            ),
            _ => Err(usage()),
        };
    }
    if !word_is(lang, sub, "create", "cmd-roundrobin-create.name") {
        return Err(usage());
    }
    let (mut time, mut double, mut rated) = (None, false, None);
    let mut players = Vec::new();
    for a in rest {
        let again = if let Some(r) = rated_option(lang, a).map_err(|_| usage())? {
            rated.replace(r).is_some()
        } else if word_is(lang, a, "double", "cmd-roundrobin-create.double-name") {
            std::mem::replace(&mut double, true)
        } else if let Ok(t) = a.parse::<TimeControl>() {
            time.replace(t).is_some()
        } else if looks_like_time(a) {
            return Err(usage());
        } else {
            if players.len() == MAX_ROUNDROBIN_NAMES {
                return Err(usage());
            }
            players.push((*a).to_owned());
            false
        };
        if again {
            return Err(usage());
        }
    }
    let Some(time) = time else {
        return Err(usage());
    };
    Ok(Command::RoundRobin(RoundRobinCommand::Create {
        players,
        time,
        double,
        rated: rated.unwrap_or(true),
    }))
}

/// How `play` is written.
const PLAY_USAGE: &str = "play [1-8] [white|black|random]";

/// How `challenge` is written.
const CHALLENGE_USAGE: &str = "challenge [NAME] [white|black|random] [1d|2d|3d|5d|7d|10d|14d|3+2|5+3|10+5|15+10|30+20|untimed] [rated:true|false] [chess960[:0-959]]";

impl Command {
    /// Parses one line with the English command words: `Ok(None)` for a blank line or a `#`
    /// comment.
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        Command::parse_in(line, Lang::En)
    }

    /// Parses one line of a console speaking `lang`: in Spanish the Spanish words of the
    /// slash commands and their options work too (`desafiar`, `tablas ofrecer`, `salir`).
    pub fn parse_in(line: &str, lang: Lang) -> Result<Option<Command>, CommandError> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let args: Vec<&str> = rest.split_whitespace().collect();
        let word = cmd.to_lowercase();
        let word = match lang {
            Lang::Es => spanish_command(&word).unwrap_or(word.as_str()),
            _ => word.as_str(),
        };
        let first = args.first().copied().unwrap_or_default();
        let command = match word {
            "quit" | "exit" => Command::Quit,
            "help" | "?" => Command::Help,
            "as" if rest.is_empty() => return Err(CommandError::Usage("as NAME")),
            "as" => Command::As(rest.to_owned()),
            "lang" => Command::Lang(args.first().map(|a| parse_lang(a)).transpose()?),
            "challenge" => parse_challenge(&args, lang)?,
            "claim-win" => match args.as_slice() {
                [] => Command::ClaimWin { draw: false },
                [d] if word_is(lang, d, "draw", "cmd-claim-win.draw-name") => {
                    Command::ClaimWin { draw: true }
                }
                _ => return Err(CommandError::Usage("claim-win [draw]")),
            },
            "play" => {
                let (mut level, mut colour) = (None, None);
                for a in &args {
                    match (a.parse::<u8>(), colour_of(a, lang)) {
                        (Ok(n), _) if (1..=8).contains(&n) && level.is_none() => level = Some(n),
                        (_, Some(c)) if colour.is_none() => colour = Some(c),
                        _ => return Err(CommandError::Usage(PLAY_USAGE)),
                    }
                }
                Command::Play {
                    level: level.unwrap_or(1),
                    colour: colour.unwrap_or_default(),
                }
            }
            "accept" => Command::Accept,
            "decline" => Command::Decline,
            "cancel" => Command::Cancel,
            "move" | "m" => {
                let (text, claim) = match rest.rsplit_once(char::is_whitespace) {
                    Some((t, c)) if word_is(lang, c, "claim", "cmd-draw.action-claim") => {
                        (t.trim(), true)
                    }
                    _ => (rest, false),
                };
                Command::Move {
                    text: text.to_owned(),
                    claim,
                }
            }
            "draw" => {
                let is = |english, id| word_is(lang, first, english, id);
                Command::Draw(if is("offer", "cmd-draw.action-offer") {
                    DrawAction::Offer
                } else if is("accept", "cmd-draw.action-accept") {
                    DrawAction::Accept
                } else if is("decline", "cmd-draw.action-decline") {
                    DrawAction::Decline
                } else if is("claim", "cmd-draw.action-claim") {
                    DrawAction::Claim
                } else {
                    return Err(CommandError::Usage("draw offer|accept|decline|claim"));
                })
            }
            "takeback" => Command::Takeback(if args.is_empty() {
                TakebackAction::Request
            } else if word_is(lang, first, "accept", "cmd-accept.name") {
                TakebackAction::Accept
            } else if word_is(lang, first, "decline", "cmd-decline.name") {
                TakebackAction::Decline
            } else {
                return Err(CommandError::Usage("takeback [accept|decline]"));
            }),
            "arena" => parse_arena(&args, lang)?,
            "resign" => Command::Resign,
            "abort" => Command::Abort,
            "board" => Command::Board,
            "pgn" => Command::Pgn,
            "history" => Command::History,
            "stats" => Command::Stats((!rest.is_empty()).then(|| rest.to_owned())),
            "leaderboard"
                if args.len() == 1
                    && word_is(lang, args[0], "puzzles", "cmd-leaderboard.speed-puzzles") =>
            {
                Command::PuzzleLeaderboard(PuzzleBoard::Ratings)
            }
            "leaderboard"
                if args.len() == 1
                    && word_is(lang, args[0], "streak", "cmd-leaderboard.speed-streak") =>
            {
                Command::PuzzleLeaderboard(PuzzleBoard::Streaks)
            }
            "leaderboard" => {
                Command::Leaderboard(match args.first().map(|a| a.to_lowercase()).as_deref() {
                    None => None,
                    Some("live") | Some("vivo") => Some(Speed::Live),
                    Some("correspondence") | Some("correspondencia") => Some(Speed::Correspondence),
                    Some("chess960") => Some(Speed::Chess960),
                    Some(a) if spanish(lang, a, "cmd-leaderboard.speed-live") => Some(Speed::Live),
                    _ => {
                        return Err(CommandError::Usage(
                            "leaderboard [live|correspondence|chess960|puzzles|streak]",
                        ));
                    }
                })
            }
            "puzzle"
                if args.len() == 1
                    && word_is(lang, args[0], "streak", "cmd-puzzle.mode-streak") =>
            {
                Command::PuzzleStreak
            }
            "puzzle" => parse_puzzle(lang, &args)?,
            "roundrobin" => parse_roundrobin(&args, lang)?,
            "hint" if args.is_empty() => Command::Hint,
            "solution" if args.is_empty() => Command::Solution,
            other => return Err(CommandError::Unknown(other.chars().take(40).collect())),
        };
        Ok(Some(command))
    }
}

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
