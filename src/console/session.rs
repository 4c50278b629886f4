//! A console session: who acts, in which language, on which service; each line read, parsed
//! into a [`Command`] and run against the game service, its answer printed through
//! [`super::print`] (every text through [`crate::i18n`]).

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

use super::print::{ascii_position, refusal, show_challenge, show_game, status_line_in};
use super::{
    Command, CommandError, ConsoleLang, DrawAction, EscapeControls, LOCAL_CHANNEL_NAME, LineRead,
    LineReader, MAX_LINE_BYTES, MAX_LINE_CHARS, Notices, TakebackAction, local_channel, local_user,
    ratings,
};
use crate::game::{ChannelRef, GameService, Lang, PuzzleStatus, PuzzleView, UserRef};
use crate::i18n::{self, Presentation};
use crate::tr;

/// One console session: who acts, in which language, on which service.
pub struct Session {
    pub(super) service: GameService,
    pub(super) me: UserRef,
    pub(super) lang: ConsoleLang,
    pub(super) ch: ChannelRef,
    /// Where to write a PNG of the board after each move (none: no PNG).
    pub boards: Option<PathBuf>,
    /// The computer as a player, when there is an engine (`play`).
    pub engine: Option<Arc<crate::engine::EnginePlayer>>,
    /// The notifier's printer, when notices print on the session's terminal: held while a
    /// command runs ([`super::ConsoleNotifier::notices`]).
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
        if let Some(p) = self.open_puzzle() {
            cajitas_rules::read_move(&p.position, &text, lang).ok()?;
            return Some(Command::Move { text, claim });
        }
        let v = self.service.queries().board(self.game_place()).ok()?;
        if v.finished || v.aborted {
            return None;
        }
        cajitas_rules::read_move(&v.position, &text, lang).ok()?;
        Some(Command::Move { text, claim })
    }

    /// Where the acting user's game commands go: their tournament game in progress, else the
    /// channel.
    fn game_place(&self) -> ChannelRef {
        self.service
            .tournaments()
            .game_place_of(self.me.id)
            .ok()
            .flatten()
            .unwrap_or(self.ch)
    }

    /// The puzzle the acting user has open here, when a move is theirs to answer it with:
    /// while they play no game here (a game's moves go to the game).
    fn open_puzzle(&self) -> Option<PuzzleView> {
        self.service
            .puzzles()
            .answerable(&self.me, self.ch)
            .ok()
            .flatten()
    }

    /// Prints a puzzle's answer, the solution, or (while it goes on) the board after the
    /// bot's reply.
    fn show_puzzle(&self, out: &mut impl Write, v: &PuzzleView, lang: Lang) -> io::Result<()> {
        for line in i18n::puzzles::answer_lines(lang, Presentation::Console, &self.me, v) {
            writeln!(out, "{line}")?;
        }
        match &v.next {
            Some(next) => write!(out, "{}", ascii_position(&next.position))?,
            None if v.status == PuzzleStatus::Playing => {
                write!(out, "{}", ascii_position(&v.position))?;
            }
            None => {}
        }
        Ok(())
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
        let me = self.me.clone();
        // A game command acts on the acting user's tournament game when they play one (an
        // arena's games each have a place of their own), else on the channel's game.
        let ch = match cmd {
            Command::Move { .. }
            | Command::Draw(_)
            | Command::Takeback(_)
            | Command::Resign
            | Command::Abort
            | Command::Board => self.game_place(),
            _ => self.ch,
        };
        let lang = self.lang.get();
        let who = || me.name.clone();
        match cmd {
            Command::Quit => return Ok(Flow::Quit),
            Command::Help => {
                writeln!(out, "{}", tr!(lang, "console-help"))?;
                writeln!(out, "{}", tr!(lang, "console-help-roundrobin"))?;
            }
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
                chess960,
            } => {
                let opponent = opponent.as_deref().map(local_user);
                let terms = crate::game::ChallengeTerms {
                    colour,
                    time,
                    rated,
                    variant: match chess960 {
                        None => crate::game::Variant::Standard,
                        Some(n) => n
                            .and_then(crate::game::Variant::chess960)
                            .unwrap_or_else(crate::game::Variant::random_chess960),
                    },
                };
                match svc
                    .challenges()
                    .challenge_with(&me, ch, opponent.as_ref(), terms)
                {
                    Ok(c) => show_challenge(out, &c, lang)?,
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Play { level, colour } => self.play_computer(level, colour, out)?,
            Command::Accept => match svc.challenges().accept(&me, ch) {
                Ok(v) => {
                    let begins = i18n::challenges::game_begins(lang, Presentation::Console, &v);
                    writeln!(out, "{begins}")?;
                    show_game(out, &v, lang)?;
                    self.show_png(out, &v, lang)?;
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::Decline => match svc.challenges().decline(&me, ch) {
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
            Command::Cancel => match svc.challenges().cancel(&me, ch) {
                Ok(_) => writeln!(
                    out,
                    "{}",
                    tr!(lang, "challenge-withdrawn", challenger = who())
                )?,
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::Move { text, claim: false } if self.open_puzzle().is_some() => {
                match svc.puzzles().answer(&me, ch, &text, lang) {
                    Ok(v) => self.show_puzzle(out, &v, lang)?,
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Move { text, claim } => {
                match svc.play().play_move(&me, ch, &text, lang, claim) {
                    Ok(mut r) => {
                        svc.post_notices(std::mem::take(&mut r.notices));
                        let san = i18n::san_in(lang, &r.san);
                        let line = match r.claimed {
                            Some(c) => tr!(
                                lang,
                                "console-move-claims",
                                who = who(),
                                claim = i18n::status::claim_key(c),
                                san = san
                            ),
                            None => tr!(lang, "console-move-played", who = who(), san = san),
                        };
                        writeln!(out, "{line}")?;
                        show_game(out, &r.view, lang)?;
                        ratings::print_changes(out, &r.view, lang)?;
                        print_points(out, &r.view, lang)?;
                        self.show_png(out, &r.view, lang)?;
                        self.await_engine(&r.view, out)?;
                    }
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Draw(action) => {
                let result = match action {
                    DrawAction::Offer => svc
                        .play()
                        .draw_offer(&me, ch, None)
                        .map(|d| (posted(d), tr!(lang, "status-draw-offer", player = who()))),
                    DrawAction::Accept => svc
                        .play()
                        .draw_accept(&me, ch, None)
                        .map(|d| (posted(d), tr!(lang, "draw-accepts", who = who()))),
                    DrawAction::Decline => svc
                        .play()
                        .draw_decline(&me, ch, None)
                        .map(|v| (v, tr!(lang, "draw-declines", who = who()))),
                    DrawAction::Claim => svc
                        .play()
                        .draw_claim(&me, ch)
                        .map(|d| (posted(d), tr!(lang, "draw-claims", who = who()))),
                };
                match result {
                    Ok((v, what)) => {
                        writeln!(out, "{what}")?;
                        writeln!(out, "{}", status_line_in(&v, lang))?;
                        ratings::print_changes(out, &v, lang)?;
                        print_points(out, &v, lang)?;
                    }
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Takeback(action) => {
                let result = match action {
                    TakebackAction::Request => {
                        svc.play().takeback_request(&me, ch, None).map(|t| {
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
                        })
                    }
                    TakebackAction::Accept => svc.play().takeback_accept(&me, ch, None).map(|t| {
                        let what = tr!(
                            lang,
                            "takeback-accepts",
                            who = who(),
                            plies = crate::i18n::num(t.plies)
                        );
                        (t, what)
                    }),
                    TakebackAction::Decline => svc
                        .play()
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
            Command::Resign => match svc.play().resign(&me, ch, None).map(posted) {
                Ok(v) => {
                    writeln!(out, "{}", tr!(lang, "resigns", who = who()))?;
                    writeln!(out, "{}", status_line_in(&v, lang))?;
                    ratings::print_changes(out, &v, lang)?;
                    print_points(out, &v, lang)?;
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::ClaimWin { draw } => {
                match svc.play().claim_abandoned(&me, ch, draw).map(posted) {
                    Ok(v) => {
                        let status = status_line_in(&v, lang);
                        let text = tr!(lang, "claim-win-done", player = who(), status = status);
                        writeln!(out, "{text}")?;
                    }
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Abort => match svc.play().abort(&me, ch).map(posted) {
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
            Command::Board => match svc.queries().board(ch) {
                Ok(v) => show_game(out, &v, lang)?,
                Err(e) => refusal(out, &e, lang)?,
            },
            // The PGN stays English SAN, whatever the console's language.
            Command::Pgn => match svc.queries().pgn(ch) {
                Ok(p) => writeln!(out, "{}", p.trim_end())?,
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::History => match svc.queries().history(ch, 10) {
                Ok(h) if h.is_empty() => writeln!(out, "{}", tr!(lang, "console-history-empty"))?,
                Ok(h) => {
                    for e in h {
                        let line = i18n::status::history_line(lang, Presentation::Console, &e);
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
                match svc.ratings().stats(ch, &who) {
                    Ok(s) => ratings::print_stats(out, &s, self.boards.as_deref(), lang)?,
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Puzzle(_) | Command::PuzzleStreak => {
                let started = match cmd {
                    Command::Puzzle(req) => {
                        svc.puzzles()
                            .start(&me, ch, &i18n::puzzles::with_theme_id(req))
                    }
                    _ => svc.puzzles().start_streak(&me, ch),
                };
                match started {
                    Ok(v) => {
                        for line in i18n::puzzles::start_lines(lang, &v) {
                            writeln!(out, "{line}")?;
                        }
                        write!(out, "{}", ascii_position(&v.position))?;
                    }
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Hint => match svc.puzzles().hint(&me, ch) {
                Ok(v) => {
                    if let Some(line) = i18n::puzzles::hint_line(lang, &v) {
                        writeln!(out, "{line}")?;
                    }
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::Solution => match svc.puzzles().solution(&me, ch) {
                Ok(v) => self.show_puzzle(out, &v, lang)?,
                Err(e) => refusal(out, &e, lang)?,
            },
            Command::PuzzleLeaderboard(board) => {
                match svc.puzzles().leaderboard(ch, board, 0, me.id) {
                    Ok(v) => {
                        let text = i18n::puzzles::board_text(lang, Presentation::Console, &v);
                        writeln!(out, "{}", text.title)?;
                        for line in text.lines.iter().chain([&text.standing]) {
                            writeln!(out, "{line}")?;
                        }
                    }
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            Command::Arena(a) => self.arena(a, out)?,
            Command::RoundRobin(r) => self.round_robin(r, out)?,
            Command::Leaderboard(speed) => {
                let speed = speed.unwrap_or(ratings::DEFAULT_SPEED);
                match svc.ratings().leaderboard(ch, speed, 0, me.id, None) {
                    Ok(v) => ratings::print_leaderboard(out, &v, lang)?,
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
        }
        Ok(Flow::Continue)
    }
}

/// The points a tournament game that just ended gave its players (`[arena] alice +2`).
fn print_points(out: &mut impl Write, v: &crate::game::GameView, lang: Lang) -> io::Result<()> {
    for line in i18n::tournaments::points_lines(lang, v) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
