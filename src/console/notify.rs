//! The console side of the service's outbound port: a notice is printed as a line (with
//! the board's picture written to the boards folder, when there is one).

use std::collections::VecDeque;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use super::ConsoleLang;
use crate::game::{Notice, NoticeKind, Notifier, NotifyError, TournamentNews, TournamentNotice};
use crate::{i18n, tr};

/// How many of the states the session showed itself are remembered (see [`Notices::shown`]).
const SHOWN: usize = 16;

/// Prints notices to a writer (standard output in `cajitas local`).
pub struct ConsoleNotifier {
    printer: Notices,
    boards: Option<PathBuf>,
    lang: ConsoleLang,
}

/// The notifier's printer, shared with the session: while the session runs a command it
/// holds the notices that come (they print after the command's answer), and it tells which
/// game states it showed itself (the engine's move it waited for), whose notices are not
/// printed again.
#[derive(Clone)]
pub struct Notices(Arc<Mutex<Printer>>);

/// A game's state: its id and ply.
type State = (i64, u32);

/// A notice held: the state it shows, if it shows only that, and its text.
type Held = (Option<State>, Vec<u8>);

struct Printer {
    out: Box<dyn Write + Send>,
    /// The notices held, in order.
    held: Option<Vec<Held>>,
    /// The last states the session showed.
    shown: VecDeque<State>,
}

impl Notices {
    fn lock(&self) -> MutexGuard<'_, Printer> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Holds the notices that come from now on, until [`Notices::release`].
    pub fn hold(&self) {
        let mut p = self.lock();
        if p.held.is_none() {
            p.held = Some(Vec::new());
        }
    }

    /// The session showed game `game_id` at `ply` with its status line: a notice of only
    /// that state is not printed.
    pub fn shown(&self, game_id: i64, ply: u32) {
        let mut p = self.lock();
        if p.shown.len() == SHOWN {
            p.shown.pop_front();
        }
        p.shown.push_back((game_id, ply));
    }

    /// Prints the notices held, in order (less those the session showed), and prints the
    /// next ones as they come.
    pub fn release(&self) -> io::Result<()> {
        let mut p = self.lock();
        let Some(held) = p.held.take() else {
            return Ok(());
        };
        for (state, text) in held {
            if !state.is_some_and(|s| p.shown.contains(&s)) {
                p.out.write_all(&text)?;
            }
        }
        p.out.flush()
    }
}

impl std::fmt::Debug for ConsoleNotifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConsoleNotifier")
            .field("boards", &self.boards)
            .field("lang", &self.lang.get())
            .finish_non_exhaustive()
    }
}

impl ConsoleNotifier {
    /// Prints to `out`, in English; with `boards`, also writes each notice's board there as
    /// a PNG.
    pub fn new(out: Box<dyn Write + Send>, boards: Option<PathBuf>) -> ConsoleNotifier {
        ConsoleNotifier {
            printer: Notices(Arc::new(Mutex::new(Printer {
                out,
                held: None,
                shown: VecDeque::new(),
            }))),
            boards,
            lang: ConsoleLang::new(cajitas_rules::Lang::En),
        }
    }

    /// Prints in `lang`, the session's language (switched by its `lang` command).
    pub fn speaking(self, lang: ConsoleLang) -> ConsoleNotifier {
        ConsoleNotifier { lang, ..self }
    }

    /// Its printer, for the session ([`super::Session::notices`]).
    pub fn notices(&self) -> Notices {
        self.printer.clone()
    }
}

impl Notifier for ConsoleNotifier {
    fn post(&self, notice: &Notice) -> Result<Option<u64>, NotifyError> {
        // The console is one place: the line a thread's game leaves in its channel (an
        // arena's games have places of their own) repeats what its ending printed.
        if notice.kind == NoticeKind::Summary {
            return Ok(None);
        }
        let v = &notice.game;
        let lang = self.lang.get();
        // The console has no threads and no buttons: every notice shows where the game stands.
        let what = i18n::notices::notice_text(lang, i18n::Presentation::Console, &notice.kind, v);
        let picture = match &self.boards {
            Some(dir) => match super::print::write_png(dir, v) {
                Ok(path) => {
                    let path = path.display().to_string();
                    format!(" {}", tr!(lang, "console-notice-board", path = path))
                }
                Err(e) => format!(" {}", tr!(lang, "console-board-image-failed", error = e)),
            },
            None => String::new(),
        };
        // A tournament's pairing prints as its own line (`[arena] pairing: …`).
        let line = match notice.kind {
            NoticeKind::Paired { .. } => what,
            _ => tr!(lang, "console-notice", text = what),
        };
        let mut text = Vec::new();
        writeln!(text, "{line}{picture}")
            // A rated game that ended on time: both players' changes, as after any ending.
            .and_then(|()| super::ratings::print_changes(&mut text, v, lang))
            // A tournament game that ended on time: the points it gave.
            .and_then(|()| {
                i18n::tournaments::points_lines(lang, v)
                    .iter()
                    .try_for_each(|l| writeln!(text, "{l}"))
            })
            .map_err(|e| NotifyError::Delivery(e.to_string()))?;
        // A game's new state (the engine's move) shows only its status line.
        let state = matches!(notice.kind, NoticeKind::GameState).then_some((v.game_id, v.ply));
        self.print(state, text)
    }

    fn post_tournament(&self, notice: &TournamentNotice) -> Result<Option<u64>, NotifyError> {
        let lang = self.lang.get();
        let lines = match &notice.news {
            TournamentNews::Started(v) => vec![i18n::tournaments::started_line(lang, v)],
            TournamentNews::Finished(s) => i18n::tournaments::final_lines(lang, s),
            TournamentNews::RoundRobinFinished(s) => i18n::round_robins::final_lines(lang, s),
            // The console has no live post: `arena standings` prints them.
            TournamentNews::Standings { .. } => return Ok(None),
        };
        let mut text = Vec::new();
        for l in lines {
            writeln!(text, "{l}").map_err(|e| NotifyError::Delivery(e.to_string()))?;
        }
        self.print(None, text)
    }
}

impl ConsoleNotifier {
    /// Prints `text` now, or after the command that runs (held); a game's state (`state`:
    /// its id and ply) already shown is not printed again.
    fn print(&self, state: Option<State>, text: Vec<u8>) -> Result<Option<u64>, NotifyError> {
        let mut p = self.printer.lock();
        if state.is_some_and(|s| p.shown.contains(&s)) {
            return Ok(None);
        }
        if let Some(held) = &mut p.held {
            held.push((state, text));
            return Ok(None);
        }
        p.out
            .write_all(&text)
            .and_then(|()| p.out.flush())
            .map(|()| None)
            .map_err(|e| NotifyError::Delivery(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::game::{GameService, ServiceOptions};

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_notice_is_printed_with_its_board() {
        let dir = std::env::temp_dir().join(format!(
            "cajitas-console-notice-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        let printed = Shared::default();
        let notifier = ConsoleNotifier::new(Box::new(printed.clone()), Some(dir.clone()));
        let opts = ServiceOptions {
            notifier: Arc::new(notifier),
            ..ServiceOptions::default()
        };
        let svc = GameService::open_in_memory(opts).unwrap();
        let (alice, bob) = (
            super::super::local_user("alice"),
            super::super::local_user("bob"),
        );
        let ch = super::super::local_channel();
        svc.challenges()
            .start_game(&alice, &bob, ch, &cajitas_rules::Position::new())
            .unwrap();
        let v = svc.announce(ch).unwrap();
        let text = String::from_utf8(printed.0.lock().unwrap().clone()).unwrap();
        assert!(text.starts_with("[notice] "), "{text}");
        assert!(text.contains(&super::super::status_line(&v)), "{text}");
        let png = std::fs::read(dir.join(format!("game-{}-ply-000.png", v.game_id))).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_timeout_of_a_rated_game_prints_both_rating_changes() {
        use crate::game::ratings::{RatingChange, Shown, Speed};
        use crate::game::{Notice, NoticeKind};
        let printed = Shared::default();
        let notifier = ConsoleNotifier::new(Box::new(printed.clone()), None);
        let svc = GameService::open_in_memory(ServiceOptions::default()).unwrap();
        let (alice, bob) = (
            super::super::local_user("alice"),
            super::super::local_user("bob"),
        );
        let ch = super::super::local_channel();
        let mut game = svc
            .challenges()
            .start_game(&alice, &bob, ch, &cajitas_rules::Position::new())
            .unwrap();
        let change = |user: &crate::game::UserRef, colour, before: f64, after: f64| RatingChange {
            user: user.clone(),
            colour,
            speed: Speed::Live,
            before: Shown {
                rating: before,
                deviation: 60.0,
            },
            after: Shown {
                rating: after,
                deviation: 120.0,
            },
        };
        game.rating_changes = vec![
            change(&alice, cajitas_rules::Color::White, 1523.0, 1508.0),
            change(&bob, cajitas_rules::Color::Black, 1490.0, 1505.0),
        ];
        notifier
            .post(&Notice {
                place: ch,
                kind: NoticeKind::TimedOut,
                game,
                mentions: Vec::new(),
                nonce: None,
            })
            .unwrap();
        let text = String::from_utf8(printed.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains("alice 1523 → 1508?"), "{text}");
        assert!(text.contains("bob 1490 → 1505?"), "{text}");
    }

    #[test]
    fn a_notice_follows_the_sessions_language() {
        let printed = Shared::default();
        let lang = ConsoleLang::new(cajitas_rules::Lang::Es);
        let notifier = ConsoleNotifier::new(Box::new(printed.clone()), None).speaking(lang.clone());
        let opts = ServiceOptions {
            notifier: Arc::new(notifier),
            ..ServiceOptions::default()
        };
        let svc = GameService::open_in_memory(opts).unwrap();
        let (alice, bob) = (
            super::super::local_user("alice"),
            super::super::local_user("bob"),
        );
        let ch = super::super::local_channel();
        svc.challenges()
            .start_game(&alice, &bob, ch, &cajitas_rules::Position::new())
            .unwrap();
        svc.announce(ch).unwrap();
        lang.set(cajitas_rules::Lang::En);
        svc.announce(ch).unwrap();
        let text = String::from_utf8(printed.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "[aviso] Jugada 1: juegan las blancas (alice).",
                "[notice] Move 1: White to move (alice).",
            ]
        );
    }
}
