//! The console side of the service's outbound port: a notice is printed as a line (with
//! the board's picture written to the boards folder, when there is one).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use super::ConsoleLang;
use crate::game::{Notice, Notifier, NotifyError};
use crate::tr;

/// Prints notices to a writer (standard output in `cajitas local`).
pub struct ConsoleNotifier {
    out: Mutex<Box<dyn Write + Send>>,
    boards: Option<PathBuf>,
    lang: ConsoleLang,
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
            out: Mutex::new(out),
            boards,
            lang: ConsoleLang::new(cajitas_rules::Lang::En),
        }
    }

    /// Prints in `lang`, the session's language (switched by its `lang` command).
    pub fn speaking(self, lang: ConsoleLang) -> ConsoleNotifier {
        ConsoleNotifier { lang, ..self }
    }
}

impl Notifier for ConsoleNotifier {
    fn post(&self, notice: &Notice) -> Result<Option<u64>, NotifyError> {
        let v = &notice.game;
        let lang = self.lang.get();
        // The console has no threads and no buttons: every notice shows where the game stands.
        let what = super::clocks::notice_line(&notice.kind, v, lang);
        let picture = match &self.boards {
            Some(dir) => match super::write_png(dir, v) {
                Ok(path) => {
                    let path = path.display().to_string();
                    format!(" {}", tr!(lang, "console-notice-board", path = path))
                }
                Err(e) => format!(" {}", tr!(lang, "console-board-image-failed", error = e)),
            },
            None => String::new(),
        };
        let line = tr!(lang, "console-notice", text = what);
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        writeln!(out, "{line}{picture}")
            // A rated game that ended on time: both players' changes, as after any ending.
            .and_then(|()| super::ratings::print_changes(&mut *out, v, lang))
            .and_then(|()| out.flush())
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
        svc.start_game(&alice, &bob, ch, &cajitas_rules::Position::new())
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
        svc.start_game(&alice, &bob, ch, &cajitas_rules::Position::new())
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
