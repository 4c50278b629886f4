//! `arena …` in the console: an arena in the local channel, its players acting with `as NAME`,
//! its waves run by the console's scheduler (so a whole arena plays in the console, in real or
//! virtual time), every line through [`crate::i18n::tournaments`].

use std::io::{self, Write};

use super::command::ArenaCommand;
use super::print::{refusal, show_game};
use super::session::Session;
use crate::game::ArenaTerms;
use crate::i18n::tournaments;

impl Session {
    /// Runs one `arena` command.
    pub(super) fn arena(&mut self, cmd: ArenaCommand, out: &mut impl Write) -> io::Result<()> {
        let svc = self.service.clone();
        let t = svc.tournaments();
        let (me, ch, lang) = (self.me.clone(), self.ch, self.lang.get());
        match cmd {
            ArenaCommand::Create {
                minutes,
                time,
                rated,
                starts_in,
            } => {
                let terms = ArenaTerms {
                    minutes,
                    time,
                    rated,
                    starts_in,
                    name: Some(tournaments::default_arena_name(lang, time)),
                };
                match t.create_arena(&me, ch, &terms, lang) {
                    Ok(v) => writeln!(out, "{}", tournaments::created_line(lang, &v, &terms))?,
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            ArenaCommand::Join => match t.join(&me, ch) {
                Ok(v) => writeln!(out, "{}", tournaments::joined_line(lang, &v))?,
                Err(e) => refusal(out, &e, lang)?,
            },
            ArenaCommand::Pause => match t.pause(&me, ch) {
                Ok(v) => writeln!(out, "{}", tournaments::paused_line(lang, &v))?,
                Err(e) => refusal(out, &e, lang)?,
            },
            ArenaCommand::Withdraw => match t.withdraw(&me, ch) {
                Ok(v) => writeln!(out, "{}", tournaments::withdrawn_line(lang, &v))?,
                Err(e) => refusal(out, &e, lang)?,
            },
            ArenaCommand::Berserk => match t.berserk(&me) {
                Ok(v) => {
                    writeln!(out, "{}", tournaments::berserk_line(lang))?;
                    show_game(out, &v, lang)?;
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            ArenaCommand::Standings => match t.standings(ch) {
                Ok(s) => {
                    for line in tournaments::standings_lines(lang, &s) {
                        writeln!(out, "{line}")?;
                    }
                }
                Err(e) => refusal(out, &e, lang)?,
            },
        }
        Ok(())
    }
}
