//! `cajitas local`: play in the terminal without a Discord token, through the same
//! [game service](crate::game) and database as the bot, in a channel named `local`.
//!
//! Commands come one per line and mirror the slash commands (`help` lists them). Standard
//! input may be a pipe, so a whole session can be scripted; refusals print the service's
//! message and the session goes on. It ends with `quit` or at the end of the input, with exit
//! status 0 either way.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cajitas_rules::{DrawClaim, Square};

use crate::config;
use crate::game::{
    ChallengeView, ChannelRef, ColourChoice, GameError, GameService, GameView, Lang,
    ServiceOptions, Status, UserRef,
};
use crate::render::{self, BoardView, Highlights, RenderOptions};

/// The name of the console's channel.
pub const LOCAL_CHANNEL_NAME: &str = "local";
/// Who acts until `as NAME` says otherwise.
pub const DEFAULT_USER: &str = "alice";
/// The longest input line read; the rest of a longer line is ignored.
pub const MAX_LINE_CHARS: usize = 500;

/// Flags of `cajitas local`.
#[derive(Debug, Clone, clap::Args)]
pub struct LocalArgs {
    /// Act as this user (switch later with `as NAME`).
    #[arg(long = "as", value_name = "NAME", default_value = DEFAULT_USER)]
    pub as_user: String,
    /// How to read moves: `es` reads R as rey (king) and D, T, A, C as queen, rook, bishop,
    /// knight; `en` reads R as rook.
    #[arg(long, value_parser = parse_lang, default_value = "en")]
    pub lang: Lang,
    /// The SQLite database file (the bot's, by default).
    #[arg(long, env = "CAJITAS_DB", hide_env_values = true, default_value = config::DEFAULT_DB,
          value_parser = config::parse_db_path)]
    pub db: PathBuf,
    /// Where the PNG boards go (default: `cajitas-local-boards` beside the database).
    #[arg(long, value_name = "DIR")]
    pub boards: Option<PathBuf>,
    /// Do not render PNG boards.
    #[arg(long)]
    pub no_png: bool,
}

fn parse_lang(s: &str) -> Result<Lang, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "en" | "english" => Ok(Lang::En),
        "es" | "spanish" | "español" | "espanol" => Ok(Lang::Es),
        other => Err(format!("unknown language {other:?}: use en or es")),
    }
}

/// The stable id of a local user: a hash of the lower-cased name with the top bit set, so it
/// never equals a Discord snowflake (those stay below 2^63).
pub fn local_user_id(name: &str) -> u64 {
    // FNV-1a, 64 bits.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.trim().to_lowercase().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h | (1 << 63)
}

/// A local user.
pub fn local_user(name: &str) -> UserRef {
    UserRef::new(local_user_id(name), name, false)
}

/// The console's channel.
pub fn local_channel() -> ChannelRef {
    ChannelRef {
        guild: None,
        channel: local_user_id(LOCAL_CHANNEL_NAME),
    }
}

/// `cajitas local`: opens the database and runs the session on stdin/stdout.
pub fn main(args: LocalArgs) -> ExitCode {
    let opts = match crate::config::challenge_ttl_from_env() {
        Ok(challenge_ttl) => ServiceOptions {
            challenge_ttl,
            ..ServiceOptions::default()
        },
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let service = match GameService::open(&args.db, opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot open the database {}: {e}", args.db.display());
            return ExitCode::FAILURE;
        }
    };
    let stdin = io::stdin();
    let interactive = stdin.is_terminal();
    let mut session = Session::new(service, &args.as_user, args.lang);
    if !args.no_png {
        let dir = args.boards.clone().unwrap_or_else(|| {
            let parent = args.db.parent().filter(|p| !p.as_os_str().is_empty());
            parent
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."))
                .join("cajitas-local-boards")
        });
        session.boards = Some(dir);
    }
    let stdout = io::stdout();
    match session.run(stdin.lock(), stdout.lock(), interactive) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (e.g. piped into `head`) is not worth a failure status.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One console session: who acts, in which language, on which service.
pub struct Session {
    service: GameService,
    me: UserRef,
    lang: Lang,
    ch: ChannelRef,
    /// Where to write a PNG of the board after each move (none: no PNG).
    pub boards: Option<PathBuf>,
}

const HELP: &str = "\
Commands (one per line):
  as NAME                       act as NAME from now on
  challenge [NAME] [white|black|random]
                                challenge NAME (or anyone, without a name); the colour is yours
  accept | decline | cancel     answer or withdraw the challenge
  move TEXT [claim]             play a move: e4, Nf3, Cf3 (Spanish), e2e4, O-O, ♘f3 ...;
                                `claim` claims a draw together with the move
  draw offer|accept|decline|claim
  resign | abort                resign, or abort before both players have moved
  board | pgn | history         show the game, its PGN, the last finished games
  lang en|es                    how to read moves (es: R = rey, D T A C = dama torre alfil caballo)
  help | quit";

/// What one input line asks for.
enum Flow {
    Continue,
    Quit,
}

impl Session {
    /// A session acting as `name`, reading moves in `lang`, in the `local` channel.
    pub fn new(service: GameService, name: &str, lang: Lang) -> Session {
        Session {
            service,
            me: local_user(name),
            lang,
            ch: local_channel(),
            boards: None,
        }
    }

    /// Reads commands until `quit` or the end of `input`. Only I/O errors stop it early.
    pub fn run(
        &mut self,
        input: impl BufRead,
        mut out: impl Write,
        interactive: bool,
    ) -> io::Result<()> {
        if interactive {
            writeln!(
                out,
                "Cajitas local: playing as {} in channel `{LOCAL_CHANNEL_NAME}`. Type `help`.",
                self.me.name
            )?;
        }
        let mut lines = input.lines();
        loop {
            if interactive {
                write!(out, "{}> ", self.me.name)?;
                out.flush()?;
            }
            let Some(line) = lines.next() else { break };
            let line = match line {
                Ok(l) => l,
                // Not UTF-8: say so and read on.
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    writeln!(out, "That line is not valid UTF-8 text; ignored.")?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let line: String = line.chars().take(MAX_LINE_CHARS).collect();
            match self.execute(&line, &mut out)? {
                Flow::Continue => {}
                Flow::Quit => break,
            }
        }
        out.flush()
    }

    fn execute(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(Flow::Continue);
        }
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let args: Vec<&str> = rest.split_whitespace().collect();
        let svc = self.service.clone();
        let (me, ch) = (self.me.clone(), self.ch);
        match cmd.to_lowercase().as_str() {
            "quit" | "exit" => return Ok(Flow::Quit),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "as" => {
                if rest.is_empty() {
                    writeln!(out, "Usage: as NAME")?;
                } else {
                    self.me = local_user(rest);
                    writeln!(out, "Now acting as {}.", self.me.name)?;
                }
            }
            "lang" => match args.first().map(|a| parse_lang(a)) {
                Some(Ok(l)) => {
                    self.lang = l;
                    writeln!(out, "Moves are now read in {}.", lang_name(l))?;
                }
                Some(Err(e)) => writeln!(out, "{e}")?,
                None => writeln!(
                    out,
                    "Moves are read in {}. Usage: lang en|es",
                    lang_name(self.lang)
                )?,
            },
            "challenge" => {
                let (opponent, colour) = match parse_challenge(&args) {
                    Ok(x) => x,
                    Err(e) => {
                        writeln!(out, "{e}")?;
                        return Ok(Flow::Continue);
                    }
                };
                let opponent = opponent.map(local_user);
                match svc.challenge(&me, ch, opponent.as_ref(), colour) {
                    Ok(c) => show_challenge(out, &c, "challenges")?,
                    Err(e) => refusal(out, &e)?,
                }
            }
            "accept" => match svc.accept(&me, ch) {
                Ok(v) => {
                    writeln!(
                        out,
                        "Game {} begins: {} (white) against {} (black).",
                        v.game_id, v.white.name, v.black.name
                    )?;
                    show_game(out, &v)?;
                    self.show_png(out, &v)?;
                }
                Err(e) => refusal(out, &e)?,
            },
            "decline" => match svc.decline(&me, ch) {
                Ok(c) => writeln!(
                    out,
                    "{} declined the challenge of {}.",
                    me.name, c.challenger.name
                )?,
                Err(e) => refusal(out, &e)?,
            },
            "cancel" => match svc.cancel(&me, ch) {
                Ok(_) => writeln!(out, "{} withdrew the challenge.", me.name)?,
                Err(e) => refusal(out, &e)?,
            },
            "move" | "m" => {
                let (text, claim) = match rest.rsplit_once(char::is_whitespace) {
                    Some((t, "claim")) => (t.trim(), true),
                    _ => (rest, false),
                };
                match svc.play_move(&me, ch, text, self.lang, claim) {
                    Ok(r) => {
                        match r.claimed {
                            Some(c) => writeln!(
                                out,
                                "{} claims a draw by {} with {} (written, not played).",
                                me.name, c, r.san
                            )?,
                            None => writeln!(out, "{} plays {}.", me.name, r.san)?,
                        }
                        show_game(out, &r.view)?;
                        self.show_png(out, &r.view)?;
                    }
                    Err(e) => refusal(out, &e)?,
                }
            }
            "draw" => {
                let result = match args.first().map(|a| a.to_lowercase()).as_deref() {
                    Some("offer") => svc.draw_offer(&me, ch, None).map(|v| (v, "offers a draw")),
                    Some("accept") => svc
                        .draw_accept(&me, ch, None)
                        .map(|v| (v, "accepts the draw")),
                    Some("decline") => svc
                        .draw_decline(&me, ch, None)
                        .map(|v| (v, "declines the draw")),
                    Some("claim") => svc.draw_claim(&me, ch).map(|v| (v, "claims a draw")),
                    _ => {
                        writeln!(out, "Usage: draw offer|accept|decline|claim")?;
                        return Ok(Flow::Continue);
                    }
                };
                match result {
                    Ok((v, what)) => {
                        writeln!(out, "{} {what}.", me.name)?;
                        writeln!(out, "{}", status_line(&v))?;
                    }
                    Err(e) => refusal(out, &e)?,
                }
            }
            "resign" => match svc.resign(&me, ch, None) {
                Ok(v) => {
                    writeln!(out, "{} resigns.", me.name)?;
                    writeln!(out, "{}", status_line(&v))?;
                }
                Err(e) => refusal(out, &e)?,
            },
            "abort" => match svc.abort(&me, ch) {
                Ok(v) => writeln!(
                    out,
                    "{} aborted game {}. {}",
                    me.name,
                    v.game_id,
                    status_line(&v)
                )?,
                Err(e) => refusal(out, &e)?,
            },
            "board" => match svc.board(ch) {
                Ok(v) => show_game(out, &v)?,
                Err(e) => refusal(out, &e)?,
            },
            "pgn" => match svc.pgn(ch) {
                Ok(p) => writeln!(out, "{}", p.trim_end())?,
                Err(e) => refusal(out, &e)?,
            },
            "history" => match svc.history(ch, 10) {
                Ok(h) if h.is_empty() => writeln!(out, "No finished games here yet.")?,
                Ok(h) => {
                    for e in h {
                        let why = e.outcome.map(|o| o.to_string()).unwrap_or(e.termination);
                        let plies = match e.plies {
                            1 => "1 ply".to_owned(),
                            n => format!("{n} plies"),
                        };
                        writeln!(
                            out,
                            "game {}: {} - {}  {}  ({why}, {plies})",
                            e.game_id, e.white.name, e.black.name, e.result
                        )?;
                    }
                }
                Err(e) => refusal(out, &e)?,
            },
            other => writeln!(out, "Unknown command {other:?}. Type `help` for the list.")?,
        }
        Ok(Flow::Continue)
    }
}

impl Session {
    /// Renders the board to a PNG file and prints its path (a failure is reported, not fatal).
    fn show_png(&self, out: &mut impl Write, v: &GameView) -> io::Result<()> {
        let Some(dir) = &self.boards else {
            return Ok(());
        };
        match write_png(dir, v) {
            Ok(path) => writeln!(out, "Board image: {}", path.display()),
            Err(e) => writeln!(out, "(could not write the board image: {e})"),
        }
    }
}

/// A one-line status in English: who is to move, check, the result, or a claim hint.
pub fn status_line(v: &GameView) -> String {
    match v.status() {
        Status::Aborted => "Game aborted: no result.".to_owned(),
        Status::Over { outcome, result } => {
            let mut s = capitalise(&outcome.to_string());
            if let Some(w) = outcome.winner() {
                s.push_str(&format!(" ({} wins, {result}).", v.player(w).name));
            } else {
                s.push_str(&format!(" ({result})."));
            }
            s
        }
        Status::Playing {
            fullmove,
            to_move,
            check,
            draw_offer_by,
            claimable_now,
            claimable,
        } => {
            let mover = v.player(to_move);
            let mut s = format!(
                "Move {fullmove}: {} to move ({}).",
                to_move.name(),
                mover.name
            );
            if check {
                s.push_str(" Check!");
            }
            if let Some(by) = draw_offer_by {
                s.push_str(&format!(" {} offers a draw.", capitalise(by.name())));
            }
            let names = |claims: &[DrawClaim]| {
                claims
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            if !claimable_now.is_empty() {
                s.push_str(&format!(
                    " {} may claim a draw now ({}).",
                    mover.name,
                    names(claimable_now)
                ));
            } else if !claimable.is_empty() {
                s.push_str(&format!(
                    " {} may claim a draw together with a move ({}).",
                    mover.name,
                    names(claimable)
                ));
            }
            s
        }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn write_png(dir: &Path, v: &GameView) -> Result<PathBuf, String> {
    let opts = RenderOptions {
        orientation: v.orientation().into(),
        ..RenderOptions::default()
    };
    let highlights = Highlights::after(&v.position, v.last_move);
    let png = render::render(&BoardView::from(&v.position), &highlights, &opts)
        .map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("game-{}-ply-{:03}.png", v.game_id, v.ply));
    std::fs::write(&path, png).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

fn lang_name(l: Lang) -> &'static str {
    match l {
        Lang::Es => "Spanish (R = rey)",
        _ => "English (R = rook)",
    }
}

fn parse_challenge<'a>(args: &[&'a str]) -> Result<(Option<&'a str>, ColourChoice), String> {
    let colour_of = |s: &str| match s.to_lowercase().as_str() {
        "white" | "blancas" => Some(ColourChoice::White),
        "black" | "negras" => Some(ColourChoice::Black),
        "random" => Some(ColourChoice::Random),
        _ => None,
    };
    match args {
        [] => Ok((None, ColourChoice::Random)),
        [one] => match colour_of(one) {
            Some(c) => Ok((None, c)),
            None => Ok((Some(one), ColourChoice::Random)),
        },
        [name, colour] => match colour_of(colour) {
            Some(c) => Ok((Some(name), c)),
            None => Err(format!(
                "Unknown colour {colour:?}: use white, black or random."
            )),
        },
        _ => Err("Usage: challenge [NAME] [white|black|random]".to_owned()),
    }
}

fn refusal(out: &mut impl Write, e: &GameError) -> io::Result<()> {
    if e.is_refusal() {
        writeln!(out, "{e}")
    } else {
        tracing::error!(error = %e, "cajitas local: unexpected failure");
        writeln!(out, "Sorry, something went wrong: {e}")
    }
}

fn show_challenge(out: &mut impl Write, c: &ChallengeView, verb: &str) -> io::Result<()> {
    let whom = c
        .opponent
        .as_ref()
        .map(|o| o.name.clone())
        .unwrap_or_else(|| "anyone".to_owned());
    let colour = match c.colour {
        ColourChoice::White => "white",
        ColourChoice::Black => "black",
        ColourChoice::Random => "a random colour",
    };
    writeln!(
        out,
        "{} {verb} {whom} (the challenger plays {colour}). Answer with `accept` or `decline`.",
        c.challenger.name
    )
}

/// The board as text, white at the bottom.
pub fn ascii_board(v: &GameView) -> String {
    let mut s = String::new();
    let board = v.position.board();
    for rank in (0..8).rev() {
        s.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let sq = Square::new(rank * 8 + file);
            let c = board.piece_at(sq).map(|p| p.char()).unwrap_or('.');
            s.push(' ');
            s.push(c);
        }
        s.push('\n');
    }
    s.push_str("   a b c d e f g h\n");
    s
}

fn show_game(out: &mut impl Write, v: &GameView) -> io::Result<()> {
    write!(out, "{}", ascii_board(v))?;
    let material = match v.material {
        0 => "material even".to_owned(),
        m if m > 0 => format!("white +{m}"),
        m => format!("black +{}", -m),
    };
    writeln!(out, "{}  [{material}]", status_line(v))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_ids_are_stable_and_outside_snowflakes() {
        assert_eq!(local_user_id("Alice"), local_user_id(" alice "));
        assert_ne!(local_user_id("alice"), local_user_id("bob"));
        assert!(local_user_id("alice") >= 1 << 63);
    }

    #[test]
    fn challenge_arguments() {
        assert!(matches!(
            parse_challenge(&[]),
            Ok((None, ColourChoice::Random))
        ));
        assert!(matches!(
            parse_challenge(&["white"]),
            Ok((None, ColourChoice::White))
        ));
        assert!(matches!(
            parse_challenge(&["bob", "black"]),
            Ok((Some("bob"), ColourChoice::Black))
        ));
        assert!(parse_challenge(&["bob", "green"]).is_err());
        assert!(parse_challenge(&["a", "b", "c"]).is_err());
    }
}
