//! Rematch: from a finished game, a new challenge between the same players with the colours
//! swapped and the same settings, posted through the [`Notifier`](super::Notifier) in the
//! game's channel (threads cannot nest: the new game gets a thread of its own).

use super::{
    ChallengeView, ChannelRef, GameError, GameService, Notice, NoticeKind, Place, TimeControl,
    UserRef,
};
use crate::store::{ChallengeStatus, ColourPick, GameStatus};

impl GameService {
    /// `actor`, a player of the finished game `game_id`, challenges the other player again,
    /// with the colours swapped. The challenge is made in the game's channel (`threads`:
    /// whether games there get threads of their own, see [`Place::threads`]), under the same
    /// rules as [`GameService::challenge`], then posted through the notifier, and the
    /// message posted recorded as the challenge's. A challenge whose post failed is
    /// withdrawn, so that it blocks nothing.
    pub fn rematch(
        &self,
        actor: &UserRef,
        game_id: i64,
        threads: bool,
    ) -> Result<ChallengeView, GameError> {
        let me = actor.capped();
        let (challenge, game) = self.write(|tx, now| {
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
            let home = ChannelRef {
                guild: row.guild,
                channel: row.channel,
            };
            let at = Place {
                at: home,
                parent: None,
                threads,
            };
            // The same settings: the time control of the finished game.
            let terms = super::challenges::Terms {
                colour,
                time: TimeControl::from_row(row.tc),
                rated: row.rated,
            };
            let c = self.new_challenge(tx, at, &me, Some(&them), terms, now)?;
            let game = self.view(self.load(tx, row)?)?;
            Ok((ChallengeView::from_row(c), game))
        })?;
        let notice = Notice {
            place: game.home(),
            kind: NoticeKind::Rematch(challenge.clone()),
            mentions: challenge.opponent.iter().map(|o| o.id).collect(),
            nonce: Some(format!("cjr{}", challenge.id)),
            game,
        };
        match self.inner.opts.notifier.post(&notice) {
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
                self.write(|tx, now| {
                    tx.resolve_challenge(id, ChallengeStatus::Cancelled, None, None, now)?;
                    Ok(())
                })?;
                Err(GameError::Internal(format!("rematch not posted: {e}")))
            }
        }
    }
}
