//! The round robin through the tournaments' foundation (issue 32): made with its players in
//! seat order, its rounds opened one at a time on FIDE's Berger tables ([`super::plan`]),
//! each round's games at once in places of their own, its standings on points,
//! Sonneborn-Berger and the direct encounter, FIDE's withdrawal rule.
//!
//! - The maker names 3 to 16 distinct people (no bot); round 1 opens in the transaction
//!   that makes it. Any time control is allowed, correspondence included.
//! - Round R + 1 opens when every game of round R is over, in the transaction that ended the
//!   round's last game ([`Tournaments::round_robin_after_game`], called by the game's
//!   ending), its games' posts made after the commit: a round opens once, with the result
//!   that completed the one before, and a restart finds either both or neither. After the
//!   last round the round robin is due, and the tournaments' round ([`Tournaments::run_due`])
//!   finishes it and posts its final standings, claimed by compare-and-set as an arena's wave
//!   is.
//! - A withdrawal is decided once, when made ([`super::roundrobin::withdrawal`]), and
//!   stored; the player's game in progress is lost (resigned), and their games of later rounds
//!   are never opened.

use std::collections::{HashMap, HashSet};

use super::plan::{Next, Plan, Recorded};
use super::roundrobin::{Outcome as RrOutcome, Withdrawal};
use super::wave::Pair;
use super::{Step, TournamentView, Tournaments};
use crate::game::time_control::TimeControl;
use crate::game::{ChannelRef, Failure, GameError, Lang, Notice, UserRef};
use crate::store::{
    EntrantRow, EntrantStatus, NewTournament, PairingRow, Side, TournamentKind, TournamentRow,
    TournamentStatus, Tx, UserRow,
};

/// What a round robin's maker asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRobinTerms {
    /// The players, seat 1 first (3 to 16, distinct, people).
    pub players: Vec<UserRef>,
    /// Its games' clock (live, correspondence or none).
    pub time: TimeControl,
    /// Everyone meets everyone twice.
    pub double: bool,
    /// Whether its games count for the ratings.
    pub rated: bool,
    /// Its name (the front ends give `i18n::round_robins::default_name` when the maker gave
    /// none; the clock's notation when `None`).
    pub name: Option<String>,
}

/// One line of a round robin's standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRobinLine {
    /// 1 is first; shared when level on everything; `None` for a player whose results were
    /// cancelled by their withdrawal.
    pub rank: Option<usize>,
    /// Who.
    pub user: UserRef,
    /// Points as printed ("2.5").
    pub points: String,
    /// Sonneborn-Berger as printed ("3.25").
    pub sb: String,
    /// Games counted (played, or won or lost by forfeit).
    pub games: usize,
    /// Their withdrawal, if they withdrew.
    pub withdrawn: Option<Withdrawal>,
}

/// A round robin's standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRobinStandings {
    /// The tournament.
    pub tournament: TournamentView,
    /// The last round opened (0 before the first).
    pub round: usize,
    /// How many rounds it has.
    pub rounds: usize,
    /// Every player, by rank, the cancelled last.
    pub lines: Vec<RoundRobinLine>,
}

/// A round robin made: the tournament and its first round's games.
#[derive(Debug, Clone)]
pub struct RoundRobinMade {
    /// The tournament.
    pub tournament: TournamentView,
    /// Each game of round 1 (a `Paired` notice each, both players mentioned).
    pub notices: Vec<Notice>,
}

/// A withdrawal made.
#[derive(Debug, Clone)]
pub struct RoundRobinWithdrawn {
    /// The tournament.
    pub tournament: TournamentView,
    /// Who withdrew.
    pub user: UserRef,
    /// What it did to their results.
    pub withdrawal: Withdrawal,
    /// The end of their game in progress, if they had one.
    pub notices: Vec<Notice>,
}

impl Tournaments<'_> {
    /// Makes a round robin of `terms.players` in `ch` (one open tournament per channel) and
    /// opens its first round.
    pub fn create_round_robin(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        terms: &RoundRobinTerms,
        lang: Lang,
    ) -> Result<RoundRobinMade, GameError> {
        let n = terms.players.len();
        if !(super::berger::MIN_PLAYERS..=super::berger::MAX_PLAYERS).contains(&n) {
            return Err(GameError::RoundRobinPlayers {
                min: super::berger::MIN_PLAYERS,
                max: super::berger::MAX_PLAYERS,
            });
        }
        let players: Vec<UserRow> = terms.players.iter().map(UserRef::capped).collect();
        let mut seen = HashSet::new();
        if players.iter().any(|p| p.is_bot) || actor.is_bot {
            return Err(GameError::BotCannotPlay);
        }
        if !players.iter().all(|p| seen.insert(p.id)) {
            return Err(GameError::RoundRobinTwice);
        }
        let name = super::tournament_name(terms.name.as_deref(), terms.time)?;
        let me = actor.capped();
        let made = self.svc.write(|tx, now| {
            if !tx.open_tournaments(ch.channel)?.is_empty() {
                return Err(GameError::TournamentInChannel);
            }
            tx.upsert_user(&me, now)?;
            for p in &players {
                tx.upsert_user(p, now)?;
            }
            let id = tx.insert_tournament(&NewTournament {
                kind: TournamentKind::RoundRobin,
                guild: ch.guild,
                channel: ch.channel,
                name: &name,
                created_by: me.id,
                tc: terms.time.to_row(),
                rated: terms.rated,
                cycles: if terms.double { 2 } else { 1 },
                lang: lang.code(),
                now,
                starts_at: now,
                ends_at: None,
            })?;
            let t = tx
                .tournament(id)?
                .ok_or_else(|| GameError::from(Failure::Vanished("tournament".into())))?;
            for p in &players {
                Self::enter(tx, &t, p.id, now)?;
            }
            let state = (t.status, t.next_wave_at, t.waves);
            if !tx.advance_tournament(t.id, state, (TournamentStatus::Started, None, 0))? {
                return Err(Failure::Vanished("tournament".into()).into());
            }
            let t = tx.tournament(id)?.unwrap_or(t);
            let notices = match self.round_robin_step(tx, &t, now)? {
                Some(Step::Paired(n)) => n,
                _ => Vec::new(),
            };
            let t = tx.tournament(id)?.unwrap_or(t);
            Ok(RoundRobinMade {
                tournament: Self::view_in(tx, &t)?,
                notices,
            })
        })?;
        Ok(made)
    }

    /// `actor` withdraws from the round robin open in `ch`, by FIDE's rule: before half
    /// their games are over, their results are cancelled; after, their games not yet played
    /// are lost by forfeit. Their game in progress is lost.
    pub fn withdraw_round_robin(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
    ) -> Result<RoundRobinWithdrawn, GameError> {
        self.svc.write(|tx, now| {
            let (t, e) = Self::open_entrant(tx, ch, TournamentKind::RoundRobin, actor.id)?;
            let (plan, pairings, _) = Self::plan_in(tx, &t)?;
            let recorded = recorded(&pairings);
            let withdrawal = plan.withdrawal(&recorded, e.user);
            tx.set_entrant_status(t.id, e.user, EntrantStatus::Withdrawn, None)?;
            tx.set_entrant_withdrawal(t.id, e.user, withdrawal.as_str())?;
            let mut notices = Vec::new();
            if let Some(game) = pairings
                .iter()
                .find(|p| !p.finished && (p.white == e.user || p.black == e.user))
                .and_then(|p| p.game)
            {
                self.lose_game(tx, game, e.user, now, &mut notices)?;
            }
            tx.set_standings_due(t.id, true)?;
            Ok(RoundRobinWithdrawn {
                tournament: Self::view_in(tx, &t)?,
                user: UserRef::new(e.user, &e.name, false),
                withdrawal,
                notices,
            })
        })
    }

    /// The standings of the round robin open in `ch`, else of its last tournament when that
    /// was a round robin.
    pub fn round_robin_standings(&self, ch: ChannelRef) -> Result<RoundRobinStandings, GameError> {
        self.svc.read(|tx| {
            let t = match Self::open_in(tx, ch)? {
                Some(t) => t,
                None => tx
                    .last_tournament(ch.channel)?
                    .ok_or(GameError::NoTournament)?,
            };
            if t.kind != TournamentKind::RoundRobin {
                return Err(GameError::NoTournament);
            }
            Self::round_robin_standings_in(tx, &t)
        })
    }

    pub(super) fn round_robin_standings_in(
        tx: &dyn Tx,
        t: &TournamentRow,
    ) -> Result<RoundRobinStandings, GameError> {
        let (plan, pairings, entrants) = Self::plan_in(tx, t)?;
        let withdrawals = withdrawals(tx, t)?;
        let table = plan.standings(&recorded(&pairings), &withdrawals);
        let by_user: HashMap<u64, &EntrantRow> = entrants.iter().map(|e| (e.user, e)).collect();
        let lines = table
            .iter()
            .map(|s| {
                let user = plan.players()[s.player];
                let name = by_user.get(&user).map_or("?", |e| e.name.as_str());
                RoundRobinLine {
                    rank: s.rank,
                    user: UserRef::new(user, name, false),
                    points: s.points_text(),
                    sb: s.sb_text(),
                    games: s.counted,
                    withdrawn: s.withdrawn,
                }
            })
            .collect();
        Ok(RoundRobinStandings {
            tournament: Self::view_in(tx, t)?,
            round: t.waves as usize,
            rounds: plan.rounds(),
            lines,
        })
    }

    /// The round robin's work when due: opens the next round, or finishes it after the last.
    pub(super) fn round_robin_step(
        &self,
        tx: &dyn Tx,
        t: &TournamentRow,
        now: i64,
    ) -> Result<Option<Step>, GameError> {
        let (plan, pairings, entrants) = Self::plan_in(tx, t)?;
        let withdrawn: HashSet<u64> = entrants
            .iter()
            .filter(|e| e.status == EntrantStatus::Withdrawn)
            .map(|e| e.user)
            .collect();
        let state = (t.status, t.next_wave_at, t.waves);
        match plan.next(&recorded(&pairings), &withdrawn) {
            Next::Playing { .. } => {
                tx.advance_tournament(t.id, state, (TournamentStatus::Started, None, t.waves))?;
                Ok(None)
            }
            Next::Open { round, games } => {
                let to = (TournamentStatus::Started, None, round as u32);
                if !tx.advance_tournament(t.id, state, to)? {
                    return Ok(None);
                }
                let by_user: HashMap<u64, &EntrantRow> =
                    entrants.iter().map(|e| (e.user, e)).collect();
                let mut notices = Vec::with_capacity(games.len());
                for (white, black) in games {
                    let pair = Pair { white, black };
                    notices.push(self.start_pairing(tx, t, round as u32, pair, &by_user, now)?);
                }
                tx.set_standings_due(t.id, true)?;
                Ok(Some(Step::Paired(notices)))
            }
            Next::Finished => {
                let to = (TournamentStatus::Finished, None, t.waves);
                if !tx.advance_tournament(t.id, state, to)? {
                    return Ok(None);
                }
                let t = tx.tournament(t.id)?.unwrap_or_else(|| t.clone());
                let standings = Self::round_robin_standings_in(tx, &t)?;
                Ok(Some(Step::RoundRobinFinished(standings)))
            }
        }
    }

    /// After a tournament game ended, in the transaction that ended it: when it was the
    /// last game of its round robin's round, the next round opens (its games' notices go to
    /// `out`, posted after the commit); after the last round, the round robin is due to
    /// finish (the tournaments' round posts its final standings). Nothing for another game.
    pub(in crate::game) fn round_robin_after_game(
        &self,
        tx: &dyn Tx,
        game: i64,
        now: i64,
        out: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        let Some(p) = tx.pairing_of_game(game)? else {
            return Ok(());
        };
        let Some(t) = tx.tournament(p.tournament)? else {
            return Ok(());
        };
        if t.kind != TournamentKind::RoundRobin || t.status != TournamentStatus::Started {
            return Ok(());
        }
        let (plan, pairings, entrants) = Self::plan_in(tx, &t)?;
        let withdrawn: HashSet<u64> = entrants
            .iter()
            .filter(|e| e.status == EntrantStatus::Withdrawn)
            .map(|e| e.user)
            .collect();
        match plan.next(&recorded(&pairings), &withdrawn) {
            Next::Playing { .. } => {}
            Next::Open { .. } => {
                if let Some(Step::Paired(notices)) = self.round_robin_step(tx, &t, now)? {
                    out.extend(notices);
                }
            }
            Next::Finished => {
                let state = (t.status, t.next_wave_at, t.waves);
                let to = (TournamentStatus::Started, Some(now), t.waves);
                if tx.advance_tournament(t.id, state, to)? {
                    self.svc.inner.bell.ring_if_before(now);
                }
            }
        }
        Ok(())
    }

    /// The plan of `t` (its players in seat order), its pairings and its entrants.
    fn plan_in(
        tx: &dyn Tx,
        t: &TournamentRow,
    ) -> Result<(Plan, Vec<PairingRow>, Vec<EntrantRow>), GameError> {
        let mut entrants = tx.entrants(t.id)?;
        entrants.sort_by_key(|e| e.seed);
        let players: Vec<u64> = entrants.iter().map(|e| e.user).collect();
        let plan = Plan::new(players, t.cycles == 2)
            .map_err(|_| GameError::from(Failure::Vanished("round robin".into())))?;
        Ok((plan, tx.pairings(t.id)?, entrants))
    }

    /// `loser` loses game `game` (a withdrawal), in this transaction.
    fn lose_game(
        &self,
        tx: &dyn Tx,
        game: i64,
        loser: u64,
        now: i64,
        out: &mut Vec<Notice>,
    ) -> Result<(), GameError> {
        let Some(row) = tx.game(game)? else {
            return Ok(());
        };
        let winner = if row.white.id == loser {
            cajitas_rules::Color::Black
        } else {
            cajitas_rules::Color::White
        };
        let loaded = self.svc.load(tx, row)?;
        let outcome = cajitas_rules::Outcome::Decisive {
            winner,
            reason: cajitas_rules::WinReason::Resignation,
        };
        self.svc.finish(tx, loaded, outcome, now, out)?;
        Ok(())
    }
}

/// The games recorded, as the plan reads them.
fn recorded(pairings: &[PairingRow]) -> Vec<Recorded> {
    pairings
        .iter()
        .map(|p| Recorded {
            round: p.round as usize,
            white: p.white,
            black: p.black,
            outcome: p.finished.then_some(match p.winner {
                Some(Side::White) => RrOutcome::WhiteWon,
                Some(Side::Black) => RrOutcome::BlackWon,
                None => RrOutcome::Drawn,
            }),
        })
        .collect()
}

/// Each withdrawn player's rule, as stored.
fn withdrawals(tx: &dyn Tx, t: &TournamentRow) -> Result<Vec<(u64, Withdrawal)>, GameError> {
    Ok(tx
        .entrant_withdrawals(t.id)?
        .into_iter()
        .filter_map(|(user, w)| Some((user, Withdrawal::parse(&w)?)))
        .collect())
}
