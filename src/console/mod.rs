//! `cajitas local`: play in the terminal without a Discord token, through the same
//! [game service](crate::game) and database as the bot, in a channel named `local`.
//!
//! Commands come one per line and mirror the slash commands (`help` lists them). Standard
//! input may be a pipe, so a whole session can be scripted; refusals print the service's
//! message and the session goes on. It ends with `quit` or at the end of the input, with exit
//! status 0 either way.
//!
//! Everything the session prints goes through [`EscapeControls`]: a control character other
//! than the newline (in a player's name, say) is shown as a Rust-style escape, `\u{1b}` for
//! ESC, so no name can move the cursor, clear the screen or retitle the terminal.

mod command;
mod notify;
mod terminal;

pub use command::{Command, CommandError, DrawAction};

pub use notify::ConsoleNotifier;
pub use terminal::{EscapeControls, LineRead, LineReader};

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
/// The longest input line read, in characters; a longer line is discarded whole, with a
/// message, and never held in memory (see [`LineReader`]).
pub const MAX_LINE_CHARS: usize = 500;
/// The most bytes held for one line: [`MAX_LINE_CHARS`] characters of up to 4 bytes, and a
/// `\r` before the newline.
const MAX_LINE_BYTES: usize = MAX_LINE_CHARS * 4 + 1;

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
    command::parse_lang(s).map_err(|e| e.to_string())
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
    let boards = (!args.no_png).then(|| {
        args.boards.clone().unwrap_or_else(|| {
            let parent = args.db.parent().filter(|p| !p.as_os_str().is_empty());
            parent
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."))
                .join("cajitas-local-boards")
        })
    });
    let notifier =
        ConsoleNotifier::new(Box::new(EscapeControls::new(io::stdout())), boards.clone());
    let opts = match crate::config::challenge_ttl_from_env() {
        Ok(challenge_ttl) => ServiceOptions {
            challenge_ttl,
            notifier: std::sync::Arc::new(notifier),
            site: crate::game::Site::Console,
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
    session.boards = boards;
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
        out: impl Write,
        interactive: bool,
    ) -> io::Result<()> {
        let mut out = EscapeControls::new(out);
        if interactive {
            writeln!(
                out,
                "Cajitas local: playing as {} in channel `{LOCAL_CHANNEL_NAME}`. Type `help`.",
                self.me.name
            )?;
        }
        let mut lines = LineReader::new(input, MAX_LINE_BYTES);
        loop {
            if interactive {
                write!(out, "{}> ", self.me.name)?;
                out.flush()?;
            }
            let line = match lines.next_line()? {
                LineRead::End => break,
                LineRead::TooLong => {
                    writeln!(
                        out,
                        "That line is longer than {MAX_LINE_CHARS} characters; ignored."
                    )?;
                    continue;
                }
                LineRead::Line(bytes) => match std::str::from_utf8(bytes) {
                    Ok(l) if l.chars().count() > MAX_LINE_CHARS => {
                        writeln!(
                            out,
                            "That line is longer than {MAX_LINE_CHARS} characters; ignored."
                        )?;
                        continue;
                    }
                    Ok(l) => l.to_owned(),
                    // Not UTF-8: say so and read on.
                    Err(_) => {
                        writeln!(out, "That line is not valid UTF-8 text; ignored.")?;
                        continue;
                    }
                },
            };
            match self.execute(&line, &mut out)? {
                Flow::Continue => {}
                Flow::Quit => break,
            }
        }
        out.flush()
    }

    fn execute(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        match Command::parse(line) {
            Ok(Some(cmd)) => self.run_command(cmd, out),
            Ok(None) => Ok(Flow::Continue),
            Err(e) => {
                writeln!(out, "{e}")?;
                Ok(Flow::Continue)
            }
        }
    }

    /// Runs one parsed command.
    fn run_command(&mut self, cmd: Command, out: &mut impl Write) -> io::Result<Flow> {
        let svc = self.service.clone();
        let (me, ch) = (self.me.clone(), self.ch);
        match cmd {
            Command::Quit => return Ok(Flow::Quit),
            Command::Help => writeln!(out, "{HELP}")?,
            Command::As(name) => {
                self.me = local_user(&name);
                writeln!(out, "Now acting as {}.", self.me.name)?;
            }
            Command::Lang(Some(l)) => {
                self.lang = l;
                writeln!(out, "Moves are now read in {}.", lang_name(l))?;
            }
            Command::Lang(None) => writeln!(
                out,
                "Moves are read in {}. Usage: lang en|es",
                lang_name(self.lang)
            )?,
            Command::Challenge { opponent, colour } => {
                let opponent = opponent.as_deref().map(local_user);
                match svc.challenge(&me, ch, opponent.as_ref(), colour) {
                    Ok(c) => show_challenge(out, &c, "challenges")?,
                    Err(e) => refusal(out, &e)?,
                }
            }
            Command::Accept => match svc.accept(&me, ch) {
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
            Command::Decline => match svc.decline(&me, ch) {
                Ok(c) => writeln!(
                    out,
                    "{} declined the challenge of {}.",
                    me.name, c.challenger.name
                )?,
                Err(e) => refusal(out, &e)?,
            },
            Command::Cancel => match svc.cancel(&me, ch) {
                Ok(_) => writeln!(out, "{} withdrew the challenge.", me.name)?,
                Err(e) => refusal(out, &e)?,
            },
            Command::Move { text, claim } => {
                match svc.play_move(&me, ch, &text, self.lang, claim) {
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
            Command::Draw(action) => {
                let result = match action {
                    DrawAction::Offer => {
                        svc.draw_offer(&me, ch, None).map(|v| (v, "offers a draw"))
                    }
                    DrawAction::Accept => svc
                        .draw_accept(&me, ch, None)
                        .map(|v| (v, "accepts the draw")),
                    DrawAction::Decline => svc
                        .draw_decline(&me, ch, None)
                        .map(|v| (v, "declines the draw")),
                    DrawAction::Claim => svc.draw_claim(&me, ch).map(|v| (v, "claims a draw")),
                };
                match result {
                    Ok((v, what)) => {
                        writeln!(out, "{} {what}.", me.name)?;
                        writeln!(out, "{}", status_line(&v))?;
                    }
                    Err(e) => refusal(out, &e)?,
                }
            }
            Command::Resign => match svc.resign(&me, ch, None) {
                Ok(v) => {
                    writeln!(out, "{} resigns.", me.name)?;
                    writeln!(out, "{}", status_line(&v))?;
                }
                Err(e) => refusal(out, &e)?,
            },
            Command::Abort => match svc.abort(&me, ch) {
                Ok(v) => writeln!(
                    out,
                    "{} aborted game {}. {}",
                    me.name,
                    v.game_id,
                    status_line(&v)
                )?,
                Err(e) => refusal(out, &e)?,
            },
            Command::Board => match svc.board(ch) {
                Ok(v) => show_game(out, &v)?,
                Err(e) => refusal(out, &e)?,
            },
            Command::Pgn => match svc.pgn(ch) {
                Ok(p) => writeln!(out, "{}", p.trim_end())?,
                Err(e) => refusal(out, &e)?,
            },
            Command::History => match svc.history(ch, 10) {
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
    // Replaced, not written through: a symlink planted at this path must not aim the write.
    crate::files::write_replacing(&path, &png).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

fn lang_name(l: Lang) -> &'static str {
    match l {
        Lang::Es => "Spanish (R = rey)",
        _ => "English (R = rook)",
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
    use std::io::Read;

    #[test]
    fn local_ids_are_stable_and_outside_snowflakes() {
        assert_eq!(local_user_id("Alice"), local_user_id(" alice "));
        assert_ne!(local_user_id("alice"), local_user_id("bob"));
        assert!(local_user_id("alice") >= 1 << 63);
    }

    #[test]
    fn the_line_reader_never_holds_more_than_its_cap() {
        // 50 MB in one line, then two short lines (one with CRLF, the last without newline).
        let long = io::repeat(b'x').take(50 << 20);
        let input = io::BufReader::new(long.chain(&b"\nhelp\r\nquit"[..]));
        let mut r = LineReader::new(input, 100);
        let cap = r.buffer_capacity();
        assert!(cap < 200, "{cap}");
        assert_eq!(r.next_line().unwrap(), LineRead::TooLong);
        assert_eq!(r.buffer_capacity(), cap);
        assert_eq!(r.next_line().unwrap(), LineRead::Line(b"help"));
        assert_eq!(r.next_line().unwrap(), LineRead::Line(b"quit"));
        assert_eq!(r.next_line().unwrap(), LineRead::End);
        assert_eq!(r.buffer_capacity(), cap);

        // Exactly the cap is a line; one byte more is not, even when split across reads.
        let input = io::BufReader::with_capacity(7, &b"0123456789\n01234567890\n\n"[..]);
        let mut r = LineReader::new(input, 10);
        assert_eq!(r.next_line().unwrap(), LineRead::Line(b"0123456789"));
        assert_eq!(r.next_line().unwrap(), LineRead::TooLong);
        assert_eq!(r.next_line().unwrap(), LineRead::Line(b""));
        assert_eq!(r.next_line().unwrap(), LineRead::End);
        assert_eq!(r.buffer_capacity(), 10);
    }

    #[test]
    fn an_endless_line_is_read_in_constant_memory() {
        // What `< /dev/zero` gives: one line that never ends. Read 200 MB of it.
        let input = io::BufReader::new(io::repeat(0).take(200 << 20));
        let mut r = LineReader::new(input, MAX_LINE_BYTES);
        let cap = r.buffer_capacity();
        assert_eq!(r.next_line().unwrap(), LineRead::TooLong);
        assert_eq!(r.buffer_capacity(), cap);
        assert!(cap <= 2 * MAX_LINE_BYTES);
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_passes_through() {
        let mut out = EscapeControls::new(Vec::new());
        write!(out, "a\u{1b}[2Jb\u{7}\t\r\u{7f}\u{9b}ñ♘\\x\n").unwrap();
        // A character split across two writes, and a byte that is not UTF-8.
        let knight = "♘".as_bytes();
        out.write_all(&knight[..1]).unwrap();
        out.write_all(&knight[1..]).unwrap();
        out.write_all(b"\xff\n").unwrap();
        let text = String::from_utf8(out.into_inner()).unwrap();
        assert_eq!(
            text,
            "a\\u{1b}[2Jb\\u{7}\\u{9}\\u{d}\\u{7f}\\u{9b}ñ♘\\x\n♘\u{fffd}\n"
        );
    }
}
