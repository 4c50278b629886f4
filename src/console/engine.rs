//! Playing the computer in the console: `play [level] [colour]` over the same game service
//! as everything else, the engine's moves played by the engine room on its own threads (only
//! in the console's channel). After each of the person's moves the session waits for the
//! engine's reply and shows it, so that a game reads in order, typed or scripted.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::Session;
use super::print::{refusal, show_game};
use crate::game::{ColourChoice, GameView};
use crate::{i18n, tr};

/// The longest wait for the engine's reply: a queued request's own limit, plus its search
/// and a restart after a failure. The engine room announces a failure well before.
const ENGINE_WAIT: Duration = Duration::from_secs(90);

/// How often the session looks whether the engine moved.
const POLL: Duration = Duration::from_millis(20);

impl Session {
    /// `play [level] [colour]`: a game against the engine at `level` in the console's
    /// channel; its first move, when it is White, is awaited and shown.
    pub(super) fn play_computer(
        &mut self,
        level: u8,
        colour: ColourChoice,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let lang = self.lang.get();
        if self.engine.is_none() {
            return writeln!(out, "{}", tr!(lang, "analyse-no-engine"));
        }
        match self
            .service
            .engine()
            .play_engine(&self.me, self.ch, level, colour, lang)
        {
            Ok(v) => {
                let Some((engine_colour, level)) = v.engine() else {
                    return Ok(());
                };
                let text = tr!(
                    lang,
                    "console-play-started",
                    id = i18n::num(v.game_id as f64),
                    who = self.me.name.clone(),
                    engine = engine_name(&self.service.options().engine_name, level, lang),
                    colour = i18n::colour_key(!engine_colour)
                );
                writeln!(out, "{text}")?;
                show_game(out, &v, lang)?;
                self.show_png(out, &v, lang)?;
                self.await_engine(&v, out)
            }
            Err(e) => refusal(out, &e, lang),
        }
    }

    /// After the person acted in `before`, a game against the engine where it is now the
    /// engine's turn: waits until the engine moved (or its failure was announced, by the
    /// notifier), and shows its move.
    pub(super) fn await_engine(&self, before: &GameView, out: &mut impl Write) -> io::Result<()> {
        let (Some(player), Some((colour, level))) = (&self.engine, before.engine()) else {
            return Ok(());
        };
        if before.finished || before.aborted || before.to_move != colour {
            return Ok(());
        }
        let lang = self.lang.get();
        let id = before.game_id;
        let deadline = Instant::now() + ENGINE_WAIT;
        loop {
            match self.service.engine().engine_turn(id) {
                Ok(None) => break,
                // Announced by the notifier; the person may go on (resign, abort, wait).
                Ok(Some(_)) if player.is_waiting(id) => return Ok(()),
                Ok(Some(_)) if Instant::now() < deadline => std::thread::sleep(POLL),
                Ok(Some(_)) => return Ok(()),
                Err(e) => return refusal(out, &e, lang),
            }
        }
        let v = match self.service.queries().game(id) {
            Ok(v) => v,
            Err(e) => return refusal(out, &e, lang),
        };
        if v.ply <= before.ply {
            return Ok(());
        }
        let san = v
            .last_san
            .as_deref()
            .map(|s| i18n::san_in(lang, s))
            .unwrap_or_default();
        let text = tr!(
            lang,
            "console-engine-moved",
            engine = engine_name(&self.service.options().engine_name, level, lang),
            san = san
        );
        writeln!(out, "{text}")?;
        show_game(out, &v, lang)?;
        // The engine player's notice of this move says what was just shown.
        if let Some(n) = &self.notices {
            n.shown(v.game_id, v.ply);
        }
        self.show_png(out, &v, lang)
    }
}

/// "Stockfish, level 3" in `lang`, for the engine named `name`.
fn engine_name(name: &str, level: u8, lang: crate::game::Lang) -> String {
    tr!(
        lang,
        "engine-player",
        name = name.to_owned(),
        level = i18n::num(level)
    )
}
