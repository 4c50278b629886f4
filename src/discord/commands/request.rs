//! A standing request's Accept and Decline buttons answered: a draw offer (`/draw`) or a
//! takeback request (`/takeback`).

use crate::discord::interaction::call::{Asked, Click};
use crate::discord::interaction::errors::Refusal;
use crate::discord::present::view::{Ops, Shown, game_reply};
use crate::discord::{Defer, Error};
use crate::game::{ChannelRef, GameError, GameView, Lang, Seen, UserRef};

/// Answers a click on the Accept or Decline button of a request made in `game` at `ply`:
/// `answer` does it for the clicker (its game, and what the reply needs); a refusal that
/// `stale` names (the request no longer stands there) says the button has expired. The
/// request's message is replaced by `say`'s text over the game.
pub async fn answer_request<T, F>(
    c: &Click<'_>,
    (game, ply): (i64, u32),
    stale: fn(&GameError) -> bool,
    answer: F,
    say: impl FnOnce(Lang, String, T) -> String,
) -> Result<(), Error>
where
    T: Send + 'static,
    F: FnOnce(&Ops, &UserRef, ChannelRef, Seen) -> Result<(T, GameView), GameError>
        + Send
        + 'static,
{
    let lang = c.public_lang().await;
    let (said, shown): (T, Shown) = c
        .blocking(Defer::Update, move |g, actor, ch| {
            let (said, view) = answer(g, actor, ch, Seen::at(game, ply)).map_err(|e| {
                if stale(&e) {
                    Error::Refused(Refusal::ButtonExpired)
                } else {
                    e.into()
                }
            })?;
            Ok((said, g.show(view)?))
        })
        .await?;
    c.update(game_reply(say(lang, c.who(), said), shown, lang))
        .await
}
