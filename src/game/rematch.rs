//! Rematch: from a finished game, a new challenge between the same players with the colours
//! swapped and the same settings, posted through the [`Notifier`](super::Notifier) in the
//! game's channel (threads cannot nest: the new game gets a thread of its own).

use super::{
    ChallengeView, Challenges, ChannelRef, ColourChoice, EngineGames, Failure, GameError, Notice,
    NoticeKind, Place, TimeControl, UserRef,
};
use crate::store::{ChallengeStatus, ColourPick, GameStatus};

impl Challenges<'_> {
    /// `actor`, a player of the finished game `game_id`, challenges the other player again,
    /// with the colours swapped. The challenge is made in the game's channel (`threads`:
    /// whether games there get threads of their own, see [`Place::threads`]), under the same
    /// rules as [`Self::challenge`], then posted through the notifier, and the
    /// message posted recorded as the challenge's. A challenge whose post failed is
    /// withdrawn, so that it blocks nothing.
    pub fn rematch(
        &self,
        actor: &UserRef,
        game_id: i64,
        threads: bool,
    ) -> Result<ChallengeView, GameError> {
        let me = actor.capped();
        let (challenge, game) = self.svc.write(|tx, now| {
            let row = tx.game(game_id)?.ok_or(GameError::NoGame)?;
            if row.status == GameStatus::Active {
                return Err(GameError::PositionChanged);
            }
            let (them, colour) = if row.white.id == me.id {
                (row.black.clone(), ColourPick::Black)
            } else if row.black.id == me.id {
                (row.white.clone(), ColourPick::White)
            } else {
                return Err(GameError::NotAPlayer);
            };
            // The computer accepts no challenge: its rematch is a new game
            // ([`EngineGames::engine_rematch`]).
            if them.is_bot || super::engine_level_of(them.id).is_some() {
                return Err(GameError::BotCannotPlay);
            }
            let home = ChannelRef {
                guild: row.guild,
                channel: row.channel,
            };
            let at = Place {
                at: home,
                parent: None,
                threads,
            };
            // The same settings: the time control of the finished game, and its start
            // position (a Chess960 rematch keeps its number, as lichess's does).
            let terms = super::challenges::Terms {
                colour,
                time: TimeControl::from_row(row.tc),
                rated: row.rated,
                variant: super::Variant::from_db(row.chess960)?,
            };
            let c = self.new_challenge(tx, at, &me, Some(&them), terms, now)?;
            let game = self.svc.view(self.svc.load(tx, row)?)?;
            Ok((ChallengeView::from_row(c), game))
        })?;
        let notice = Notice {
            place: game.home(),
            kind: NoticeKind::Rematch(challenge.clone()),
            mentions: challenge.opponent.iter().map(|o| o.id).collect(),
            nonce: Some(format!("cjr{}", challenge.id)),
            game,
        };
        match self.svc.inner.opts.notifier.post(&notice) {
            Ok(message) => {
                let mut c = challenge;
                if let Some(m) = message {
                    self.set_challenge_message(c.id, m)?;
                    c.message = Some(m);
                }
                Ok(c)
            }
            Err(e) => {
                let id = challenge.id;
                self.svc.write(|tx, now| {
                    tx.resolve_challenge(id, ChallengeStatus::Cancelled, None, None, now)?;
                    Ok(())
                })?;
                Err(Failure::Notify {
                    what: "rematch not posted",
                    cause: e,
                }
                .into())
            }
        }
    }
}

/// The new game a rematch of a game against the computer starts (see
/// [`EngineGames::engine_rematch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineRematch {
    /// The computer's level, the finished game's.
    pub level: u8,
    /// The person's colour: the one the computer had.
    pub colour: ColourChoice,
    /// The finished game's channel, where the new game starts (threads cannot nest: it gets
    /// a thread of its own where games get threads).
    pub home: ChannelRef,
    /// The finished game's variant: a Chess960 rematch starts from the same position.
    pub variant: super::Variant,
}

impl EngineGames<'_> {
    /// The rematch of the finished game `game_id` when it was played against the computer:
    /// a new game at the same level, the colours swapped, for its person to start at
    /// `home` as `/play` starts one ([`Self::play_engine_at`]); `None` for a game
    /// between two people (their rematch is a challenge, [`Challenges::rematch`]).
    pub fn engine_rematch(
        &self,
        actor: &UserRef,
        game_id: i64,
    ) -> Result<Option<EngineRematch>, GameError> {
        self.svc.read(|tx| {
            let row = tx.game(game_id)?.ok_or(GameError::NoGame)?;
            let (white, black) = (
                super::engine_level_of(row.white.id),
                super::engine_level_of(row.black.id),
            );
            let (level, colour, person) = match (white, black) {
                (Some(level), None) => (level, ColourChoice::White, row.black.id),
                (None, Some(level)) => (level, ColourChoice::Black, row.white.id),
                _ => return Ok(None),
            };
            if row.status == GameStatus::Active {
                return Err(GameError::PositionChanged);
            }
            if person != actor.id {
                return Err(GameError::NotAPlayer);
            }
            Ok(Some(EngineRematch {
                level,
                colour,
                variant: super::Variant::from_db(row.chess960)?,
                home: ChannelRef {
                    guild: row.guild,
                    channel: row.channel,
                },
            }))
        })
    }
}
