//! The console side of the service's outbound port: a notice is printed as a line (with
//! the board's picture written to the boards folder, when there is one).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::game::{Notice, NoticeKind, Notifier, NotifyError};

/// Prints notices to a writer (standard output in `cajitas local`).
pub struct ConsoleNotifier {
    out: Mutex<Box<dyn Write + Send>>,
    boards: Option<PathBuf>,
}

impl std::fmt::Debug for ConsoleNotifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConsoleNotifier")
            .field("boards", &self.boards)
            .finish_non_exhaustive()
    }
}

impl ConsoleNotifier {
    /// Prints to `out`; with `boards`, also writes each notice's board there as a PNG.
    pub fn new(out: Box<dyn Write + Send>, boards: Option<PathBuf>) -> ConsoleNotifier {
        ConsoleNotifier {
            out: Mutex::new(out),
            boards,
        }
    }
}

impl Notifier for ConsoleNotifier {
    fn post(&self, notice: &Notice) -> Result<(), NotifyError> {
        let v = &notice.game;
        let what = match notice.kind {
            NoticeKind::GameState => super::status_line(v),
        };
        let picture = match &self.boards {
            Some(dir) => match super::write_png(dir, v) {
                Ok(path) => format!(" (board: {})", path.display()),
                Err(e) => format!(" (could not write the board image: {e})"),
            },
            None => String::new(),
        };
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        writeln!(out, "[notice] {what}{picture}")
            .and_then(|()| out.flush())
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
}
