//! Challenges: made, accepted, declined, withdrawn, expired.

use cajitas_rules::{Lang, Position};

use super::{
    ChallengeState, ChallengeView, ChannelRef, ColourChoice, GameError, GameService, GameView,
    PING_LIMIT, PING_WINDOW, UserRef,
};
use crate::store::{ChallengeRow, ChallengeStatus, ColourPick, NewChallenge, NewGame, Tx, UserRow};

impl GameService {
    /// `actor` challenges `opponent` (or anyone, when `None`) in `ch`; `colour` is the
    /// challenger's. Refused when a challenge is already waiting or a game is in progress in
    /// the channel, when the opponent is the challenger or a bot, or when the challenger is a
    /// bot. An expired challenge in the channel is closed and replaced.
    pub fn challenge(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        opponent: Option<&UserRef>,
        colour: ColourChoice,
    ) -> Result<ChallengeView, GameError> {
        self.challenge_rated(actor, ch, opponent, colour, true)
    }

    /// [`GameService::challenge`], its game counting for the ratings when `rated` (a
    /// challenge is rated unless said otherwise).
    pub fn challenge_rated(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        opponent: Option<&UserRef>,
        colour: ColourChoice,
        rated: bool,
    ) -> Result<ChallengeView, GameError> {
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
        let ttl = self.inner.opts.challenge_ttl.as_millis() as i64;
        self.write(|tx, now| {
            if tx.active_game(ch.channel)?.is_some() {
                return Err(GameError::GameInProgress);
            }
            if let Some(p) = tx.pending_challenge(ch.channel)? {
                if p.expires_at > now {
                    return Err(GameError::ChallengePending);
                }
                tx.resolve_challenge(p.id, ChallengeStatus::Expired, None, None, now)?;
            }
            tx.upsert_user(&me, now)?;
            if let Some(o) = &them {
                tx.upsert_user(o, now)?;
                Self::ping(tx, me.id, o.id, "challenge", now)?;
            }
            let id = tx.insert_challenge(&NewChallenge {
                guild: ch.guild,
                channel: ch.channel,
                challenger: me.id,
                opponent: them.as_ref().map(|o| o.id),
                colour: colour.to_db(),
                now,
                expires_at: now.saturating_add(ttl),
                rated,
            })?;
            let row = tx
                .challenge(id)?
                .ok_or_else(|| GameError::Internal("challenge vanished".into()))?;
            Ok(ChallengeView::from_row(row))
        })
    }

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

    /// The pending challenge of a channel (an expired one shows as expired).
    pub fn pending_challenge(&self, ch: ChannelRef) -> Result<Option<ChallengeView>, GameError> {
        let now = self.now();
        self.read(|tx| {
            Ok(tx.pending_challenge(ch.channel)?.map(|c| {
                let mut v = ChallengeView::from_row(c);
                if v.expires_at <= now {
                    v.status = ChallengeState::Expired;
                }
                v
            }))
        })
    }

    /// Finds the challenge an answer is about, refusing what cannot be answered.
    fn answerable(
        tx: &dyn Tx,
        ch: ChannelRef,
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
            None => tx
                .pending_challenge(ch.channel)?
                .ok_or(GameError::NoChallenge)?,
        };
        if c.expires_at <= now {
            return Err(GameError::ChallengeExpired);
        }
        Ok(c)
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

    /// [`GameService::accept_challenge`], the game's posts that no interaction causes (moves
    /// typed as messages, notices) being in `lang`.
    pub fn accept_challenge_in(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
        expected_challenge_id: Option<i64>,
        lang: Lang,
    ) -> Result<GameView, GameError> {
        let me = actor.capped();
        self.write(|tx, now| {
            let c = Self::answerable(tx, ch, expected_challenge_id, now)?;
            Self::may_answer(&c, &me)?;
            if me.is_bot {
                return Err(GameError::BotCannotPlay);
            }
            if tx.active_game(ch.channel)?.is_some() {
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
            let start = Position::new().fen();
            let game_id = tx.insert_game(&NewGame {
                guild: ch.guild,
                channel: ch.channel,
                white,
                black,
                start_fen: &start,
                now,
                lang: lang.code(),
                rated: c.rated,
            })?;
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
                .ok_or_else(|| GameError::Internal("game vanished".into()))?;
            self.view(self.load(tx, row)?)
        })
    }

    /// Starts a game between `white` and `black` from `start` directly, without a challenge
    /// (for tests, tools and set positions). The same rules apply as to a challenge: one
    /// game per channel, no bots, two different players. Such a game is unrated.
    pub fn start_game(
        &self,
        white: &UserRef,
        black: &UserRef,
        ch: ChannelRef,
        start: &Position,
    ) -> Result<GameView, GameError> {
        let (w, b) = (white.capped(), black.capped());
        if w.id == b.id {
            return Err(GameError::CannotChallengeSelf);
        }
        if w.is_bot || b.is_bot {
            return Err(GameError::BotCannotPlay);
        }
        let start = start.fen();
        self.write(|tx, now| {
            if tx.active_game(ch.channel)?.is_some() {
                return Err(GameError::GameInProgress);
            }
            tx.upsert_user(&w, now)?;
            tx.upsert_user(&b, now)?;
            let game_id = tx.insert_game(&NewGame {
                guild: ch.guild,
                channel: ch.channel,
                white: w.id,
                black: b.id,
                start_fen: &start,
                now,
                lang: Lang::En.code(),
                rated: false,
            })?;
            let row = tx
                .game(game_id)?
                .ok_or_else(|| GameError::Internal("game vanished".into()))?;
            let l = self.load(tx, row)?;
            match l.game.outcome() {
                // A set position may already be over (mate, stalemate, dead): end it now.
                Some(outcome) => self.finish(tx, l, outcome, now),
                None => self.view(l),
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
        self.write(|tx, now| {
            let c = Self::answerable(tx, ch, expected_challenge_id, now)?;
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
        self.write(|tx, now| {
            let c = tx
                .pending_challenge(ch.channel)?
                .ok_or(GameError::NoChallenge)?;
            if c.challenger.id != me.id {
                return Err(GameError::NotChallenger);
            }
            tx.resolve_challenge(c.id, ChallengeStatus::Cancelled, Some(me.id), None, now)?;
            let mut v = ChallengeView::from_row(c);
            v.status = ChallengeState::Cancelled;
            Ok(v)
        })
    }
}
