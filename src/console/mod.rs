//! `cajitas local`: play in the terminal without a Discord token, through the same
//! [game service](crate::game) and database as the bot, in a channel named `local`.
//!
//! Commands come one per line and mirror the slash commands (`help` lists them); in Spanish
//! their Spanish names work too ([`Command::parse_in`]), and a line that is no command but a
//! legal move for the side to move is played as `move`. Standard
//! input may be a pipe, so a whole session can be scripted; refusals print the service's
//! message and the session goes on. It ends with `quit` or at the end of the input, with exit
//! status 0 either way.
//!
//! It speaks the language of `--lang`, switched with `lang en|es` ([`ConsoleLang`]): every
//! text comes from the Fluent bundles ([`crate::i18n`], `console.ftl` and the shared
//! `cajitas.ftl`), moves are shown in that language's letters (`Cf3`), and the same language
//! decides how typed moves are read. The PGN stays English SAN; the ASCII board has no words.
//!
//! Everything the session prints goes through [`EscapeControls`]: a control character other
//! than the newline (in a player's name, say) is shown as a Rust-style escape, `\u{1b}` for
//! ESC, so no name can move the cursor, clear the screen or retitle the terminal.

mod clocks;
mod command;
mod engine;
mod notify;
mod ratings;
mod terminal;

pub use command::{Command, CommandError, DrawAction, TakebackAction};

pub use notify::{ConsoleNotifier, Notices};
pub use terminal::{EscapeControls, LineRead, LineReader};

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::sync::{Arc, Mutex};

use cajitas_rules::{DrawClaim, Outcome, Square};

use crate::config;
use crate::game::{
    ChallengeView, ChannelRef, ColourChoice, GameError, GameService, GameView, Lang,
    ServiceOptions, Status, UserRef,
};
use crate::i18n;
use crate::render::{self, BoardView, Highlights, RenderOptions};
use crate::store::Database;
use crate::tr;

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
    /// The console's language, and how to read moves: `es` prints Spanish and reads R as rey
    /// (king) and D, T, A, C as queen, rook, bishop, knight; `en` prints English and reads R
    /// as rook.
    #[arg(long, value_parser = parse_lang, default_value = "en")]
    pub lang: Lang,
    /// The database (the bot's, by default): a SQLite file, or a PostgreSQL URL
    /// (`postgres://…`), as `CAJITAS_DB`.
    #[arg(long, env = "CAJITAS_DB", hide_env_values = true, default_value = config::DEFAULT_DB,
          value_parser = config::parse_db)]
    pub db: Database,
    /// Where the PNG boards go (default: `cajitas-local-boards` beside a SQLite database, or
    /// in the current directory).
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
            let parent = match &args.db {
                Database::Sqlite(path) => path.parent().filter(|p| !p.as_os_str().is_empty()),
                Database::Postgres(_) => None,
            };
            parent
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."))
                .join("cajitas-local-boards")
        })
    });
    let lang = ConsoleLang::new(args.lang);
    let notifier =
        ConsoleNotifier::new(Box::new(EscapeControls::new(io::stdout())), boards.clone())
            .speaking(lang.clone());
    let notices = notifier.notices();
    // Every setting the bot checks is checked here too (the same `.env` serves both).
    let read = config::BotConfig::check_env().and_then(|()| {
        let ttl = crate::config::challenge_ttl_from_env()?;
        Ok((
            ttl,
            crate::config::abandon_after_from_env()?,
            config::EngineSettings::from_env()?,
        ))
    });
    let (opts, engine_settings) = match read {
        Ok((challenge_ttl, abandon_after, engine)) => (
            ServiceOptions {
                challenge_ttl,
                abandon_after,
                notifier: std::sync::Arc::new(notifier),
                site: crate::game::Site::Console,
                engine_name: crate::engine::player_name(&engine),
                engine_games_per_user: engine.games_per_user,
                ..ServiceOptions::default()
            },
            engine,
        ),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // The computer, when there is an engine: its player is prepared first, so that the
    // service is opened with its port.
    let engine = crate::engine::pool_from(&engine_settings)
        .map(|pool| (pool, crate::engine::EnginePlayer::prepare()));
    let opts = ServiceOptions {
        engine_turns: engine.as_ref().map(|(_, player)| player.turns()),
        ..opts
    };
    let new_file = match &args.db {
        Database::Sqlite(path) => !path.exists(),
        Database::Postgres(_) => false,
    };
    let service = match GameService::open_db(&args.db, opts) {
        Ok(s) => {
            if new_file {
                // Said first, so that a mistyped path is seen before anything is played.
                let path = config::describe_db(&args.db);
                eprintln!("{}", tr!(args.lang, "console-new-database", path = path));
            }
            s
        }
        Err(e) => {
            // A PostgreSQL URL is shown without its password.
            let path = config::describe_db(&args.db);
            let text = tr!(
                args.lang,
                "console-cannot-open-db",
                path = path,
                error = e.chain()
            );
            eprintln!("{text}");
            return ExitCode::FAILURE;
        }
    };
    let stdin = io::stdin();
    let interactive = stdin.is_terminal();
    // The console's own games' deadlines and reminders (channel `local` only: `cajitas run`
    // on the same database skips them). What fell due while nobody ran is done, and printed,
    // before the first command is read.
    let _scheduler = crate::game::Scheduler::start_caught_up(
        service.clone(),
        crate::game::EventScope::Only(local_channel().channel),
    );
    // The computer, when there is an engine: it plays in the console's channel only.
    let engine = engine.map(|(pool, player)| {
        Arc::new(player.start_in(
            service.clone(),
            pool,
            crate::engine::player::RETRY_EVERY,
            crate::game::EventScope::Only(local_channel().channel),
        ))
    });
    let mut session = Session::with_lang(service, &args.as_user, lang);
    session.boards = boards;
    session.engine = engine;
    session.notices = Some(notices);
    // Not locked for the whole session: the notifier prints from other threads (the
    // scheduler's notices, the engine's failures) between the session's lines.
    match session.run(stdin.lock(), io::stdout(), interactive) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (e.g. piped into `head`) is not worth a failure status.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The console's language, shared by the session (which switches it with `lang`) and its
/// notifier: it decides both how moves are read and in which language everything is printed.
#[derive(Debug, Clone)]
pub struct ConsoleLang(Arc<Mutex<Lang>>);

impl ConsoleLang {
    /// Starts in `lang`.
    pub fn new(lang: Lang) -> ConsoleLang {
        ConsoleLang(Arc::new(Mutex::new(lang)))
    }

    /// The language now.
    pub fn get(&self) -> Lang {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Switches to `lang`.
    pub fn set(&self, lang: Lang) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = lang;
    }
}

/// One console session: who acts, in which language, on which service.
pub struct Session {
    service: GameService,
    me: UserRef,
    lang: ConsoleLang,
    ch: ChannelRef,
    /// Where to write a PNG of the board after each move (none: no PNG).
    pub boards: Option<PathBuf>,
    /// The computer as a player, when there is an engine (`play`).
    pub engine: Option<Arc<crate::engine::EnginePlayer>>,
    /// The notifier's printer, when notices print on the session's terminal: held while a
    /// command runs ([`ConsoleNotifier::notices`]).
    pub notices: Option<Notices>,
}

/// What one input line asks for.
enum Flow {
    Continue,
    Quit,
}

impl Session {
    /// A session acting as `name`, reading moves and printing in `lang`, in the `local`
    /// channel.
    pub fn new(service: GameService, name: &str, lang: Lang) -> Session {
        Session::with_lang(service, name, ConsoleLang::new(lang))
    }

    /// Like [`Session::new`], with a language shared with others (the notifier).
    pub fn with_lang(service: GameService, name: &str, lang: ConsoleLang) -> Session {
        Session {
            service,
            me: local_user(name),
            lang,
            ch: local_channel(),
            boards: None,
            engine: None,
            notices: None,
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
            let welcome = tr!(
                self.lang.get(),
                "console-welcome",
                name = self.me.name.clone(),
                channel = LOCAL_CHANNEL_NAME
            );
            writeln!(out, "{welcome}")?;
        }
        let mut lines = LineReader::new(input, MAX_LINE_BYTES);
        let too_long = |lang| {
            tr!(
                lang,
                "console-line-too-long",
                max = i18n::num(MAX_LINE_CHARS as f64)
            )
        };
        loop {
            if interactive {
                write!(out, "{}> ", self.me.name)?;
                out.flush()?;
            }
            let lang = self.lang.get();
            let line = match lines.next_line()? {
                LineRead::End => break,
                LineRead::TooLong => {
                    writeln!(out, "{}", too_long(lang))?;
                    continue;
                }
                LineRead::Line(bytes) => match std::str::from_utf8(bytes) {
                    Ok(l) if l.chars().count() > MAX_LINE_CHARS => {
                        writeln!(out, "{}", too_long(lang))?;
                        continue;
                    }
                    Ok(l) => l.to_owned(),
                    // Not UTF-8: say so and read on.
                    Err(_) => {
                        writeln!(out, "{}", tr!(lang, "console-not-utf8"))?;
                        continue;
                    }
                },
            };
            // The notices that come while a command runs (the engine's move it waits for,
            // a timeout) print after its answer, not inside it.
            if let Some(n) = &self.notices {
                n.hold();
            }
            let flow = self.execute(&line, &mut out);
            out.flush()?;
            if let Some(n) = &self.notices {
                n.release()?;
            }
            match flow? {
                Flow::Continue => {}
                Flow::Quit => break,
            }
        }
        out.flush()
    }

    fn execute(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        let lang = self.lang.get();
        match Command::parse_in(line, lang) {
            Ok(Some(cmd)) => self.run_command(cmd, out),
            Ok(None) => Ok(Flow::Continue),
            Err(e) => {
                let bare = match e {
                    CommandError::Unknown(_) => self.bare_move(line, lang),
                    _ => None,
                };
                match bare {
                    Some(cmd) => self.run_command(cmd, out),
                    None => {
                        writeln!(out, "{}", e.message(lang))?;
                        Ok(Flow::Continue)
                    }
                }
            }
        }
    }

    /// A line that is no command but a legal move for the side to move in the channel's
    /// game (`e4`, `Cf3`, `Nf3 claim`): that `move` (refused as any move when it is not the
    /// acting user's turn).
    fn bare_move(&self, line: &str, lang: Lang) -> Option<Command> {
        let Ok(Some(Command::Move { text, claim })) =
            Command::parse_in(&format!("move {}", line.trim()), lang)
        else {
            return None;
        };
        let v = self.service.board(self.ch).ok()?;
        if v.finished || v.aborted {
            return None;
        }
        cajitas_rules::read_move(&v.position, &text, lang).ok()?;
        Some(Command::Move { text, claim })
    }

    /// Runs one parsed command.
    fn run_command(&mut self, cmd: Command, out: &mut impl Write) -> io::Result<Flow> {
        let svc = self.service.clone();
        // An operation's notices are posted once it committed; the console's notifier holds
        // them until the command's answer is printed. (A game of `local` is played in the
        // channel itself, never in a thread: its endings leave no summary.)
        let posted = |done: crate::game::Done| {
            svc.post_notices(done.notices);
            done.view
        };
        let (me, ch) = (self.me.clone(), self.ch);
        let lang = self.lang.get();
        let who = || me.name.clone();
        match cmd {
            Command::Quit => return Ok(Flow::Quit),
            Command::Help => writeln!(out, "{}", tr!(lang, "console-help"))?,
            Command::As(name) => {
                self.me = local_user(&name);
                let name = self.me.name.clone();
                writeln!(out, "{}", tr!(lang, "console-now-acting", name = name))?;
            }
            Command::Lang(Some(l)) => {
                self.lang.set(l);
                writeln!(out, "{}", tr!(l, "console-lang-set"))?;
            }
            Command::Lang(None) => writeln!(out, "{}", tr!(lang, "console-lang-now"))?,
            Command::Challenge {
                opponent,
                colour,
                time,
                rated,
            } => {
                let opponent = opponent.as_deref().map(local_user);
                let terms = crate::game::ChallengeTerms {
                    colour,
                    time,
                    rated,
                };
                match svc.challenge_with(&me, ch, opponent.as_ref(), terms) {
                    Ok(c) => show_challenge(out, &c, lang)?,
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Play { level, colour } => self.play_computer(level, colour, out)?,
            Command::Accept => match svc.accept(&me, ch) {
                Ok(v) => {
                    let begins = tr!(
                        lang,
                        "console-game-begins",
                        id = i18n::num(v.game_id as f64),
                        white = v.white.name.clone(),
                        black = v.black.name.clone()
                    );
                    writeln!(out, "{begins}")?;
                    show_game(out, &v, lang)?;
                    self.show_png(out, &v, lang)?;
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::Decline => match svc.decline(&me, ch) {
                Ok(c) => {
                    let text = tr!(
                        lang,
                        "challenge-declined",
                        who = who(),
                        challenger = c.challenger.name.clone()
                    );
                    writeln!(out, "{text}")?;
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::Cancel => match svc.cancel(&me, ch) {
                Ok(_) => writeln!(
                    out,
                    "{}",
                    tr!(lang, "challenge-withdrawn", challenger = who())
                )?,
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::Move { text, claim } => match svc.play_move(&me, ch, &text, lang, claim) {
                Ok(mut r) => {
                    svc.post_notices(std::mem::take(&mut r.notices));
                    let san = i18n::san_in(lang, &r.san);
                    let line = match r.claimed {
                        Some(c) => tr!(
                            lang,
                            "console-move-claims",
                            who = who(),
                            claim = claim_key(c),
                            san = san
                        ),
                        None => tr!(lang, "console-move-played", who = who(), san = san),
                    };
                    writeln!(out, "{line}")?;
                    show_game(out, &r.view, lang)?;
                    ratings::print_changes(out, &r.view, lang)?;
                    self.show_png(out, &r.view, lang)?;
                    self.await_engine(&r.view, out)?;
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::Draw(action) => {
                let result = match action {
                    DrawAction::Offer => svc
                        .draw_offer(&me, ch, None)
                        .map(|d| (posted(d), tr!(lang, "status-draw-offer", player = who()))),
                    DrawAction::Accept => svc
                        .draw_accept(&me, ch, None)
                        .map(|d| (posted(d), tr!(lang, "draw-accepts", who = who()))),
                    DrawAction::Decline => svc
                        .draw_decline(&me, ch, None)
                        .map(|v| (v, tr!(lang, "draw-declines", who = who()))),
                    DrawAction::Claim => svc
                        .draw_claim(&me, ch)
                        .map(|d| (posted(d), tr!(lang, "draw-claims", who = who()))),
                };
                match result {
                    Ok((v, what)) => {
                        writeln!(out, "{what}")?;
                        writeln!(out, "{}", status_line_in(&v, lang))?;
                        ratings::print_changes(out, &v, lang)?;
                    }
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Takeback(action) => {
                let result = match action {
                    TakebackAction::Request => svc.takeback_request(&me, ch, None).map(|t| {
                        let opponent = t.game.player(!t.by).name.clone();
                        // Against the computer it is granted at once.
                        let key = if t.granted {
                            "takeback-granted"
                        } else {
                            "takeback-asks"
                        };
                        let what = tr!(
                            lang,
                            key,
                            who = who(),
                            opponent = opponent,
                            plies = crate::i18n::num(t.plies)
                        );
                        (t, what)
                    }),
                    TakebackAction::Accept => svc.takeback_accept(&me, ch, None).map(|t| {
                        let what = tr!(
                            lang,
                            "takeback-accepts",
                            who = who(),
                            plies = crate::i18n::num(t.plies)
                        );
                        (t, what)
                    }),
                    TakebackAction::Decline => svc
                        .takeback_decline(&me, ch, None)
                        .map(|t| (t, tr!(lang, "takeback-declines", who = who()))),
                };
                match result {
                    Ok((t, what)) => {
                        writeln!(out, "{what}")?;
                        if action == TakebackAction::Accept || t.granted {
                            show_game(out, &t.game, lang)?;
                            self.show_png(out, &t.game, lang)?;
                        } else {
                            writeln!(out, "{}", status_line_in(&t.game, lang))?;
                        }
                    }
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Resign => match svc.resign(&me, ch, None).map(posted) {
                Ok(v) => {
                    writeln!(out, "{}", tr!(lang, "resigns", who = who()))?;
                    writeln!(out, "{}", status_line_in(&v, lang))?;
                    ratings::print_changes(out, &v, lang)?;
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::ClaimWin { draw } => match svc.claim_abandoned(&me, ch, draw).map(posted) {
                Ok(v) => {
                    let status = status_line_in(&v, lang);
                    let text = tr!(lang, "claim-win-done", player = who(), status = status);
                    writeln!(out, "{text}")?;
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::Abort => match svc.abort(&me, ch).map(posted) {
                Ok(v) => {
                    let aborted = tr!(
                        lang,
                        "console-aborted",
                        who = who(),
                        id = i18n::num(v.game_id as f64)
                    );
                    writeln!(out, "{aborted} {}", status_line_in(&v, lang))?;
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::Board => match svc.board(ch) {
                Ok(v) => show_game(out, &v, lang)?,
                Err(e) => refusal(out, &e, lang)?,
            },
            // The PGN stays English SAN, whatever the console's language.
            Command::Pgn => match svc.pgn(ch) {
                Ok(p) => writeln!(out, "{}", p.trim_end())?,
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::History => match svc.history(ch, 10) {
                Ok(h) if h.is_empty() => writeln!(out, "{}", tr!(lang, "console-history-empty"))?,
                Ok(h) => {
                    for e in h {
                        let line = tr!(
                            lang,
                            "console-history-line",
                            id = i18n::num(e.game_id as f64),
                            white = e.white.name.clone(),
                            black = e.black.name.clone(),
                            result = e.result.clone(),
                            reason = tr!(lang, "termination", termination = e.termination.clone()),
                            plies = i18n::num(e.plies)
                        );
                        writeln!(out, "{line}")?;
                    }
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::Stats(name) => {
                let who = name
                    .as_deref()
                    .map(local_user)
                    .unwrap_or_else(|| me.clone());
                match svc.stats(ch, &who) {
                    Ok(s) => ratings::print_stats(out, &s, self.boards.as_deref(), lang)?,
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Leaderboard(speed) => {
                let speed = speed.unwrap_or(ratings::DEFAULT_SPEED);
                match svc.leaderboard(ch, speed, 0, me.id, None) {
                    Ok(v) => ratings::print_leaderboard(out, &v, lang)?,
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
        }
        Ok(Flow::Continue)
    }
}

impl Session {
    /// Renders the board to a PNG file and prints its path (a failure is reported, not fatal).
    fn show_png(&self, out: &mut impl Write, v: &GameView, lang: Lang) -> io::Result<()> {
        let Some(dir) = &self.boards else {
            return Ok(());
        };
        let line = match write_png(dir, v) {
            Ok(path) => tr!(
                lang,
                "console-board-image",
                path = path.display().to_string()
            ),
            Err(e) => tr!(lang, "console-board-image-failed", error = e),
        };
        writeln!(out, "{line}")
    }
}

/// A one-line status in English: who is to move, check, the result, or a claim hint.
pub fn status_line(v: &GameView) -> String {
    status_line_in(v, Lang::En)
}

/// A one-line status in `lang`: who is to move, check, the result, or a claim hint.
pub fn status_line_in(v: &GameView, lang: Lang) -> String {
    match v.status() {
        Status::Aborted => tr!(lang, "status-aborted"),
        Status::Over {
            outcome: Outcome::Decisive { winner, reason },
            result,
        } => tr!(
            lang,
            "console-win",
            reason = reason.as_str(),
            colour = i18n::colour_key(winner),
            winner = v.player(winner).name.clone(),
            result = result.to_owned()
        ),
        Status::Over {
            outcome: Outcome::Draw { reason },
            result,
        } => tr!(
            lang,
            "status-draw",
            reason = reason.as_str(),
            result = result.to_owned()
        ),
        Status::Playing {
            fullmove,
            to_move,
            check,
            draw_offer_by,
            claimable_now,
            claimable,
        } => {
            let mover = v.player(to_move).name.clone();
            let mut s = vec![tr!(
                lang,
                "console-to-move",
                fullmove = i18n::num(fullmove as f64),
                colour = i18n::colour_key(to_move),
                player = mover.clone()
            )];
            if check {
                s.push(tr!(lang, "check"));
            }
            if let Some(by) = draw_offer_by {
                s.push(tr!(
                    lang,
                    "console-draw-offered",
                    colour = i18n::colour_key(by)
                ));
            }
            let names = |claims: &[DrawClaim]| {
                let names: Vec<String> = claims
                    .iter()
                    .map(|c| tr!(lang, "claim-reason", claim = claim_key(*c)))
                    .collect();
                names.join(&tr!(lang, "list-sep"))
            };
            if !claimable_now.is_empty() {
                s.push(tr!(
                    lang,
                    "console-may-claim-now",
                    player = mover.clone(),
                    what = names(claimable_now)
                ));
            } else if !claimable.is_empty() {
                s.push(tr!(
                    lang,
                    "console-may-claim-with-move",
                    player = mover,
                    what = names(claimable)
                ));
            }
            s.join(" ")
        }
    }
}

/// The `claim-reason` selector of a claim.
fn claim_key(c: DrawClaim) -> &'static str {
    match c {
        DrawClaim::ThreefoldRepetition => "threefold",
        DrawClaim::FiftyMoves => "fifty",
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

/// A refusal in `lang` ([`i18n::game_error`]); an unexpected failure is logged and
/// apologised for.
fn refusal(out: &mut impl Write, e: &GameError, lang: Lang) -> io::Result<()> {
    if e.is_refusal() {
        writeln!(
            out,
            "{}",
            i18n::game_error(lang, i18n::Presentation::Console, e)
        )
    } else {
        tracing::error!(error = %e.chain(), "cajitas local: unexpected failure");
        writeln!(out, "{}", tr!(lang, "console-sorry", error = e.chain()))
    }
}

fn show_challenge(out: &mut impl Write, c: &ChallengeView, lang: Lang) -> io::Result<()> {
    let colour = match c.colour {
        ColourChoice::White => "white",
        ColourChoice::Black => "black",
        ColourChoice::Random => "random",
    };
    let challenger = c.challenger.name.clone();
    let text = match &c.opponent {
        Some(o) => tr!(
            lang,
            "console-challenge",
            challenger = challenger,
            opponent = o.name.clone(),
            colour = colour
        ),
        None => tr!(
            lang,
            "console-challenge-open",
            challenger = challenger,
            colour = colour
        ),
    };
    let rated = tr!(
        lang,
        "challenge-rated",
        rated = if c.rated { "yes" } else { "no" }
    );
    writeln!(out, "{text} {rated}")?;
    writeln!(out, "{}", i18n::clock::challenge_line(lang, c.time))
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

fn show_game(out: &mut impl Write, v: &GameView, lang: Lang) -> io::Result<()> {
    write!(out, "{}", ascii_board(v))?;
    let (side, points) = match v.material {
        0 => ("even", 0),
        m if m > 0 => ("white", m),
        m => ("black", -m),
    };
    let material = tr!(
        lang,
        "console-material",
        side = side,
        points = i18n::num(points)
    );
    writeln!(out, "{}  [{material}]", status_line_in(v, lang))?;
    for line in clocks::clock_lines(v, lang) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_consoles_channel_is_the_one_the_store_indexes() {
        // Migration 0012's partial index and the store's queries name this number.
        assert_eq!(local_channel().channel, crate::store::LOCAL_CHANNEL_ID);
        assert_eq!(
            crate::store::local_channel_sql!(),
            (crate::store::LOCAL_CHANNEL_ID as i64).to_string()
        );
        for m in [
            include_str!("../../migrations/0012_local_event_index.sql"),
            include_str!("../../migrations/postgres/0012_local_event_index.sql"),
        ] {
            assert!(m.contains(&format!(
                "channel_id = {}",
                crate::store::local_channel_sql!()
            )));
        }
    }

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
