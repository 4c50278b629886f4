//! `roundrobin …` in the console: a round robin in the local channel of players named on the
//! line, its games played with `as NAME` (each player's moves go to their round's game), the
//! next round opening when a round's last game ends, every line through
//! [`crate::i18n::round_robins`].

use std::io::{self, Write};

use super::command::RoundRobinCommand;
use super::local_user;
use super::print::refusal;
use super::session::Session;
use crate::game::RoundRobinTerms;
use crate::i18n::round_robins;

impl Session {
    /// Runs one `roundrobin` command.
    pub(super) fn round_robin(
        &mut self,
        cmd: RoundRobinCommand,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let svc = self.service.clone();
        let t = svc.tournaments();
        let (me, ch, lang) = (self.me.clone(), self.ch, self.lang.get());
        match cmd {
            RoundRobinCommand::Create {
                players,
                time,
                double,
                rated,
            } => {
                let terms = RoundRobinTerms {
                    players: players.iter().map(|n| local_user(n)).collect(),
                    time,
                    double,
                    rated,
                    name: Some(round_robins::default_name(lang, time)),
                };
                match t.create_round_robin(&me, ch, &terms, lang) {
                    Ok(made) => {
                        let rounds = crate::game::tournament::berger::round_count(
                            terms.players.len(),
                            double,
                        );
                        let line = round_robins::created_line(lang, &made.tournament, rounds);
                        writeln!(out, "{line}")?;
                        svc.post_notices(made.notices);
                    }
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
            RoundRobinCommand::Standings => match t.round_robin_standings(ch) {
                Ok(s) => {
                    for line in round_robins::standings_lines(lang, &s) {
                        writeln!(out, "{line}")?;
                    }
                }
                Err(e) => refusal(out, &e, lang)?,
            },
            RoundRobinCommand::Withdraw(name) => {
                let who = name.as_deref().map_or(me, local_user);
                match t.withdraw_round_robin(&who, ch) {
                    Ok(w) => {
                        writeln!(out, "{}", round_robins::withdrawn_line(lang, &w))?;
                        svc.post_notices(w.notices);
                    }
                    Err(e) => refusal(out, &e, lang)?,
                }
            }
        }
        Ok(())
    }
}
