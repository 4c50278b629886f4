//! Challenges: made, accepted, declined, withdrawn, expired.

use cajitas_rules::{Lang, Position};

use super::time_control;
use super::variant::Variant;
use super::{
    ChallengeState, ChallengeView, ChannelRef, ColourChoice, Failure, GameError, GameService,
    GameView, PING_LIMIT, PING_WINDOW, Place, TimeControl, UserRef,
};
use crate::store::{ChallengeRow, ChallengeStatus, ColourPick, NewChallenge, NewGame, Tx, UserRow};

/// What a challenge offers: the challenger's colour, the time control, whether the game
/// counts for the ratings, and the variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChallengeTerms {
    /// The challenger's colour.
    pub colour: ColourChoice,
    /// The time control.
    pub time: TimeControl,
    /// Whether the game counts for the ratings.
    pub rated: bool,
    /// Standard chess or Chess960 (from which start position).
    pub variant: Variant,
}

impl ChallengeTerms {
    /// `colour`, and the defaults: 3 days per move, rated, standard chess.
    pub fn new(colour: ColourChoice) -> ChallengeTerms {
        ChallengeTerms {
            colour,
            time: TimeControl::DEFAULT,
            rated: true,
            variant: Variant::Standard,
        }
    }
}

/// A new challenge's terms as stored (see [`Challenges::new_challenge`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Terms {
    pub colour: ColourPick,
    pub time: TimeControl,
    pub rated: bool,
    pub variant: Variant,
}

/// Challenges: made, answered (accepted, declined, cancelled), and the rematch of a finished
/// game; also a game started directly between two people. From [`GameService::challenges`].
#[derive(Debug, Clone, Copy)]
pub struct Challenges<'a> {
    pub(super) svc: &'a GameService,
}

impl Challenges<'_> {
    /// `actor` challenges `opponent` (or anyone, when `None`) at `at`; `colour` is the
    /// challenger's. Refused when the opponent is the challenger or a bot, or when the
    /// challenger is a bot; in a game's thread (challenges go to its channel); and where
    /// games get no thread of their own ([`Place::threads`] off), when a challenge is
    /// already waiting or a game is in progress there. Where games get their own thread,
    /// each challenger has one pending challenge per channel. An expired challenge in the
    /// way is closed and replaced. The game gets the default time control, 3 days per move
    /// (see [`Self::challenge_timed`]).
    pub fn challenge(
        &self,
        actor: &UserRef,
        at: impl Into<Place>,
        opponent: Option<&UserRef>,
        colour: ColourChoice,
    ) -> Result<ChallengeView, GameError> {
        self.challenge_with(actor, at, opponent, ChallengeTerms::new(colour))
    }

    /// [`Self::challenge`] with the time control `time` (rated).
    pub fn challenge_timed(
        &self,
        actor: &UserRef,
        at: impl Into<Place>,
        opponent: Option<&UserRef>,
        colour: ColourChoice,
        time: TimeControl,
    ) -> Result<ChallengeView, GameError> {
        let terms = ChallengeTerms {
            time,
            ..ChallengeTerms::new(colour)
        };
        self.challenge_with(actor, at, opponent, terms)
    }

    /// [`Self::challenge`], its game counting for the ratings when `rated` (a
    /// challenge is rated unless said otherwise), with the default time control.
    pub fn challenge_rated(
        &self,
        actor: &UserRef,
        at: impl Into<Place>,
        opponent: Option<&UserRef>,
        colour: ColourChoice,
        rated: bool,
    ) -> Result<ChallengeView, GameError> {
        let terms = ChallengeTerms {
            rated,
            ..ChallengeTerms::new(colour)
        };
        self.challenge_with(actor, at, opponent, terms)
    }

    /// [`Self::challenge`] with every term said: colour, time control, rated.
    pub fn challenge_with(
        &self,
        actor: &UserRef,
        at: impl Into<Place>,
        opponent: Option<&UserRef>,
        terms: ChallengeTerms,
    ) -> Result<ChallengeView, GameError> {
        let ChallengeTerms {
            colour,
            time,
            rated,
            variant,
        } = terms;
        let at = at.into();
        let me = actor.capped();
        let them = opponent.map(UserRef::capped);
        if me.is_bot {
            return Err(GameError::BotCannotPlay);
        }
        if let Some(o) = &them {
            if o.id == me.id {
                return Err(GameError::CannotChallengeSelf);
            }
            if o.is_bot {
                return Err(GameError::CannotChallengeBot);
            }
        }
        self.svc.write(|tx, now| {
            let terms = Terms {
                colour: colour.to_db(),
                time,
                rated,
                variant,
            };
            let row = self.new_challenge(tx, at, &me, them.as_ref(), terms, now)?;
            Ok(ChallengeView::from_row(row))
        })
    }

    /// The checks and the write of a new challenge (see [`Self::challenge`]).
    pub(super) fn new_challenge(
        &self,
        tx: &dyn Tx,
        at: Place,
        me: &UserRow,
        them: Option<&UserRow>,
        terms: Terms,
        now: i64,
    ) -> Result<ChallengeRow, GameError> {
        let Terms {
            colour,
            time,
            rated,
            variant,
        } = terms;
        let ch = at.at;
        if let Some(parent) = at.parent
            && tx
                .last_game(ch.channel)?
                .is_some_and(|g| g.thread == Some(ch.channel))
        {
            return Err(GameError::InGameThread { parent });
        }
        let pending = tx.pending_challenges(ch.channel)?;
        if at.threads {
            for p in pending.iter().filter(|p| p.challenger.id == me.id) {
                if p.expires_at > now {
                    return Err(GameError::ChallengePending);
                }
                tx.resolve_challenge(p.id, ChallengeStatus::Expired, None, None, now)?;
            }
        } else {
            if tx.active_game(ch.channel)?.is_some() {
                return Err(GameError::GameInProgress);
            }
            for p in &pending {
                if p.expires_at > now {
                    return Err(GameError::ChallengePending);
                }
                tx.resolve_challenge(p.id, ChallengeStatus::Expired, None, None, now)?;
            }
        }
        tx.upsert_user(me, now)?;
        if let Some(o) = them {
            tx.upsert_user(o, now)?;
            GameService::ping(tx, me.id, o.id, "challenge", now)?;
        }
        let ttl = self.svc.inner.opts.challenge_ttl.as_millis() as i64;
        let id = tx.insert_challenge(&NewChallenge {
            guild: ch.guild,
            channel: ch.channel,
            challenger: me.id,
            opponent: them.map(|o| o.id),
            colour,
            now,
            expires_at: now.saturating_add(ttl),
            tc: time.to_row(),
            rated,
            chess960: variant.chess960_number(),
        })?;
        tx.challenge(id)?
            .ok_or_else(|| GameError::from(Failure::Vanished("challenge".into())))
    }

    /// Records the message that shows challenge `id` (the game's thread is opened on it when
    /// the challenge is accepted, maybe after the interaction that posted it expired).
    pub fn set_challenge_message(&self, id: i64, message: u64) -> Result<(), GameError> {
        self.svc.write(|tx, _| {
            if tx.set_challenge_message(id, message)? {
                Ok(())
            } else {
                Err(GameError::NoChallenge)
            }
        })
    }

    /// The pending challenge of a channel (an expired one shows as expired).
    pub fn pending_challenge(&self, ch: ChannelRef) -> Result<Option<ChallengeView>, GameError> {
        let now = self.svc.now();
        self.svc.read(|tx| {
            Ok(tx.pending_challenge(ch.channel)?.map(|c| {
                let mut v = ChallengeView::from_row(c);
                if v.expires_at <= now {
                    v.status = ChallengeState::Expired;
                }
                v
            }))
        })
    }

    /// Finds the challenge an answer is about, refusing what cannot be answered. Without an
    /// id: the one challenge of the channel addressed to `actor`, or else the one open
    /// challenge of someone else.
    fn answerable(
        tx: &dyn Tx,
        ch: ChannelRef,
        actor: u64,
        expected: Option<i64>,
        now: i64,
    ) -> Result<ChallengeRow, GameError> {
        let c = match expected {
            Some(id) => {
                let c = tx.challenge(id)?.filter(|c| c.channel == ch.channel);
                let c = c.ok_or(GameError::NoChallenge)?;
                match c.status {
                    ChallengeStatus::Pending => c,
                    ChallengeStatus::Expired => return Err(GameError::ChallengeExpired),
                    ChallengeStatus::Accepted => {
                        return Err(GameError::ChallengeClosed("accepted"));
                    }
                    ChallengeStatus::Declined => {
                        return Err(GameError::ChallengeClosed("declined"));
                    }
                    ChallengeStatus::Cancelled => {
                        return Err(GameError::ChallengeClosed("cancelled"));
                    }
                }
            }
            None => Self::the_challenge_for(tx, ch, actor, now)?,
        };
        if c.expires_at <= now {
            return Err(GameError::ChallengeExpired);
        }
        Ok(c)
    }

    /// The challenge of the channel that `actor` means without naming it.
    fn the_challenge_for(
        tx: &dyn Tx,
        ch: ChannelRef,
        actor: u64,
        now: i64,
    ) -> Result<ChallengeRow, GameError> {
        let all = tx.pending_challenges(ch.channel)?;
        let live: Vec<&ChallengeRow> = all.iter().filter(|c| c.expires_at > now).collect();
        let to_me: Vec<&&ChallengeRow> = live
            .iter()
            .filter(|c| c.opponent.as_ref().is_some_and(|o| o.id == actor))
            .collect();
        let open: Vec<&&ChallengeRow> = live
            .iter()
            .filter(|c| c.opponent.is_none() && c.challenger.id != actor)
            .collect();
        let one = match (to_me.as_slice(), open.as_slice()) {
            ([c], _) | ([], [c]) => (**c).clone(),
            ([], []) => match (live.as_slice(), all.first()) {
                // Someone else's, or the actor's own: the answer says why not.
                ([c, ..], _) => (*c).clone(),
                ([], Some(expired)) => expired.clone(),
                ([], None) => return Err(GameError::NoChallenge),
            },
            _ => return Err(GameError::SeveralChallenges),
        };
        Ok(one)
    }

    fn may_answer(c: &ChallengeRow, actor: &UserRow) -> Result<(), GameError> {
        if c.challenger.id == actor.id {
            return Err(GameError::OwnChallenge);
        }
        match &c.opponent {
            Some(o) if o.id != actor.id => Err(GameError::NotChallenged),
            _ => Ok(()),
        }
    }

    /// Accepts the pending challenge of the channel and starts the game.
    pub fn accept(&self, actor: &UserRef, ch: ChannelRef) -> Result<GameView, GameError> {
        self.accept_challenge(actor, ch, None)
    }

    /// Accepts a challenge; with `expected_challenge_id` (from a button), only that one: a
    /// button of an older challenge is refused instead of accepting a newer one.
    pub fn accept_challenge(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_challenge_id: Option<i64>,
    ) -> Result<GameView, GameError> {
        self.accept_challenge_in(actor, ch, expected_challenge_id, Lang::En)
    }

    /// [`Self::accept_challenge`], the game's posts that no interaction causes (moves
    /// typed as messages, notices) being in `lang`.
    pub fn accept_challenge_in(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_challenge_id: Option<i64>,
        lang: Lang,
    ) -> Result<GameView, GameError> {
        self.accept_at(actor, Place::plain(ch), expected_challenge_id, lang, None)
    }

    /// The challenge `actor` would accept at `at` (the one named, or the one they mean), if
    /// they may: read only, so that a front end opens the game's thread only for an accept
    /// that can succeed.
    pub fn acceptable(
        &self,
        actor: &UserRef,
        at: impl Into<Place>,
        expected_challenge_id: Option<i64>,
    ) -> Result<ChallengeView, GameError> {
        let at = at.into();
        let me = actor.capped();
        let now = self.svc.now();
        self.svc.read(|tx| {
            let c = Self::answerable(tx, at.at, me.id, expected_challenge_id, now)?;
            Self::may_answer(&c, &me)?;
            if me.is_bot {
                return Err(GameError::BotCannotPlay);
            }
            Ok(ChallengeView::from_row(c))
        })
    }

    /// Accepts a challenge made at `at` and starts the game, played: in the thread `at` is,
    /// when it is one; else in `thread`, the thread the front end opened for it (on the
    /// challenge's message); else in the channel itself, where one game at a time is played.
    pub fn accept_at(
        &self,
        actor: &UserRef,
        at: impl Into<Place>,
        expected_challenge_id: Option<i64>,
        lang: Lang,
        thread: Option<u64>,
    ) -> Result<GameView, GameError> {
        let at = at.into();
        let me = actor.capped();
        let ch = at.at;
        let (home, thread) = match at.parent {
            Some(parent) => (parent, Some(ch.channel)),
            None => (ch.channel, thread),
        };
        self.svc.write(|tx, now| {
            let c = Self::answerable(tx, ch, me.id, expected_challenge_id, now)?;
            Self::may_answer(&c, &me)?;
            if me.is_bot {
                return Err(GameError::BotCannotPlay);
            }
            if tx.active_game(thread.unwrap_or(ch.channel))?.is_some() {
                return Err(GameError::GameInProgress);
            }
            tx.upsert_user(&me, now)?;
            let challenger_white = match c.colour {
                ColourPick::White => true,
                ColourPick::Black => false,
                ColourPick::Random => fastrand::bool(),
            };
            let (white, black) = if challenger_white {
                (c.challenger.id, me.id)
            } else {
                (me.id, c.challenger.id)
            };
            let variant = Variant::from_db(c.chess960)?;
            let start = variant.start();
            let tc = TimeControl::from_row(c.tc);
            let clock = time_control::start(tc, now, 0, start.turn(), self.svc.abandon_ms());
            let game_id = tx.insert_game(&NewGame {
                guild: ch.guild,
                channel: home,
                white,
                black,
                start_fen: &start.fen(),
                now,
                lang: lang.code(),
                thread,
                tc: c.tc,
                clock: clock.to_row(),
                rated: c.rated,
                chess960: variant.chess960_number(),
            })?;
            self.svc
                .schedule(tx, game_id, ch.channel, 0, tc, &clock, 0)?;
            if !tx.resolve_challenge(
                c.id,
                ChallengeStatus::Accepted,
                Some(me.id),
                Some(game_id),
                now,
            )? {
                return Err(GameError::PositionChanged);
            }
            let row = tx
                .game(game_id)?
                .ok_or_else(|| GameError::from(Failure::Vanished("game".into())))?;
            self.svc.view(self.svc.load(tx, row)?)
        })
    }

    /// Starts a game between `white` and `black` from `start` directly, without a challenge
    /// (for tests, tools and set positions). The same rules apply as to a challenge: one
    /// game per channel, no bots, two different players. The game is untimed (see
    /// [`Self::start_game_timed`]) and unrated.
    pub fn start_game(
        &self,
        white: &UserRef,
        black: &UserRef,
        ch: ChannelRef,
        start: &Position,
    ) -> Result<GameView, GameError> {
        self.start_game_timed(white, black, ch, start, TimeControl::Untimed)
    }

    /// [`Self::start_game`] with the time control `time` (any, not only the offered
    /// ones: a one-second live clock, say).
    pub fn start_game_timed(
        &self,
        white: &UserRef,
        black: &UserRef,
        ch: ChannelRef,
        start: &Position,
        time: TimeControl,
    ) -> Result<GameView, GameError> {
        let (w, b) = (white.capped(), black.capped());
        if w.id == b.id {
            return Err(GameError::CannotChallengeSelf);
        }
        if w.is_bot || b.is_bot {
            return Err(GameError::BotCannotPlay);
        }
        let variant = Variant::of_start(start).ok_or_else(|| {
            Failure::bad_game("a Chess960 game starts from one of the 960 start positions")
        })?;
        let turn = start.turn();
        let start = start.fen();
        self.svc.write(|tx, now| {
            if tx.active_game(ch.channel)?.is_some() {
                return Err(GameError::GameInProgress);
            }
            tx.upsert_user(&w, now)?;
            tx.upsert_user(&b, now)?;
            let clock = time_control::start(time, now, 0, turn, self.svc.abandon_ms());
            let game_id = tx.insert_game(&NewGame {
                guild: ch.guild,
                channel: ch.channel,
                white: w.id,
                black: b.id,
                start_fen: &start,
                now,
                lang: Lang::En.code(),
                thread: None,
                tc: time.to_row(),
                clock: clock.to_row(),
                rated: false,
                chess960: variant.chess960_number(),
            })?;
            self.svc
                .schedule(tx, game_id, ch.channel, 0, time, &clock, 0)?;
            let row = tx
                .game(game_id)?
                .ok_or_else(|| GameError::from(Failure::Vanished("game".into())))?;
            let l = self.svc.load(tx, row)?;
            match l.game.outcome() {
                // A set position may already be over (mate, stalemate, dead): end it now.
                // Played in its channel (no thread), its ending calls for no notice.
                Some(outcome) => self.svc.finish(tx, l, outcome, now, &mut Vec::new()),
                None => self.svc.view(l),
            }
        })
    }

    /// Declines the pending challenge (only the challenged user; an open challenge cannot be
    /// declined, only withdrawn by the challenger or accepted).
    pub fn decline(&self, actor: &UserRef, ch: ChannelRef) -> Result<ChallengeView, GameError> {
        self.decline_challenge(actor, ch, None)
    }

    /// Declines a challenge; with `expected_challenge_id`, only that one.
    pub fn decline_challenge(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_challenge_id: Option<i64>,
    ) -> Result<ChallengeView, GameError> {
        let me = actor.capped();
        self.svc.write(|tx, now| {
            let c = Self::answerable(tx, ch, me.id, expected_challenge_id, now)?;
            Self::may_answer(&c, &me)?;
            if c.opponent.is_none() {
                // An open challenge is not addressed to anyone: nobody may close it for
                // everyone else. Only the challenger withdraws it (`cancel`).
                return Err(GameError::OpenChallengeDecline);
            }
            tx.upsert_user(&me, now)?;
            tx.resolve_challenge(c.id, ChallengeStatus::Declined, Some(me.id), None, now)?;
            let mut v = ChallengeView::from_row(c);
            v.status = ChallengeState::Declined;
            Ok(v)
        })
    }

    /// Withdraws the pending challenge (only the challenger).
    pub fn cancel(&self, actor: &UserRef, ch: ChannelRef) -> Result<ChallengeView, GameError> {
        let me = actor.capped();
        self.svc.write(|tx, now| {
            let all = tx.pending_challenges(ch.channel)?;
            let c = match all.iter().find(|c| c.challenger.id == me.id) {
                Some(c) => c.clone(),
                None if all.is_empty() => return Err(GameError::NoChallenge),
                None => return Err(GameError::NotChallenger),
            };
            tx.resolve_challenge(c.id, ChallengeStatus::Cancelled, Some(me.id), None, now)?;
            let mut v = ChallengeView::from_row(c);
            v.status = ChallengeState::Cancelled;
            Ok(v)
        })
    }
}

impl GameService {
    /// Counts one ping of `to` caused by `from` (a named challenge, a draw offer, a takeback
    /// request), refusing it when `from` already caused [`PING_LIMIT`] in the last
    /// [`PING_WINDOW`]. Stored, so the limit holds across restarts.
    pub(super) fn ping(
        tx: &dyn Tx,
        from: u64,
        to: u64,
        kind: &str,
        now: i64,
    ) -> Result<(), GameError> {
        let window = PING_WINDOW.as_millis() as i64;
        match tx.record_ping(from, to, kind, now, now - window, PING_LIMIT)? {
            None => Ok(()),
            Some(oldest) => Err(GameError::TooManyPings {
                wait_secs: (oldest + window - now).max(1000).div_euclid(1000) as u64,
            }),
        }
    }
}
