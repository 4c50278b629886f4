//! Time controls in Discord: the `time` option of `/challenge`, the clock in the embed and
//! the challenge message, the scheduler's posts (timeouts, reminders), and `/claim-win`.

use crate::discord::interaction::call::{Asked, Call};
use crate::discord::present::view::game_reply;
use crate::discord::{Context, Defer, Error};
use crate::game::TimeControl;
use crate::i18n::{Presentation, status};
use crate::tr;

/// The `time` option of `/challenge`: lichess's correspondence days and live clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Time {
    /// 1 day per move.
    #[name = "1 day"]
    D1,
    /// 2 days per move.
    #[name = "2 days"]
    D2,
    /// 3 days per move (the default).
    #[name = "3 days"]
    D3,
    /// 5 days per move.
    #[name = "5 days"]
    D5,
    /// 7 days per move.
    #[name = "7 days"]
    D7,
    /// 10 days per move.
    #[name = "10 days"]
    D10,
    /// 14 days per move.
    #[name = "14 days"]
    D14,
    /// 3 minutes + 2 s per move.
    #[name = "3+2"]
    L3p2,
    /// 5 minutes + 3 s per move.
    #[name = "5+3"]
    L5p3,
    /// 10 minutes + 5 s per move.
    #[name = "10+5"]
    L10p5,
    /// 15 minutes + 10 s per move.
    #[name = "15+10"]
    L15p10,
    /// 30 minutes + 20 s per move.
    #[name = "30+20"]
    L30p20,
    /// No clock.
    #[name = "untimed"]
    Untimed,
}

impl From<Time> for TimeControl {
    fn from(t: Time) -> TimeControl {
        let text = match t {
            Time::D1 => "1d",
            Time::D2 => "2d",
            Time::D3 => "3d",
            Time::D5 => "5d",
            Time::D7 => "7d",
            Time::D10 => "10d",
            Time::D14 => "14d",
            Time::L3p2 => "3+2",
            Time::L5p3 => "5+3",
            Time::L10p5 => "10+5",
            Time::L15p10 => "15+10",
            Time::L30p20 => "30+20",
            Time::Untimed => "untimed",
        };
        text.parse().unwrap_or_default()
    }
}

/// Claim an untimed game whose opponent stopped moving (after 7 days by default)
#[poise::command(slash_command, rename = "claim-win")]
pub async fn claim_win(
    ctx: Context<'_>,
    #[description = "Take a draw instead of the win"] draw: Option<bool>,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let draw = draw.unwrap_or(false);
    let shown = call
        .blocking(Defer::Message, move |g, actor, ch| {
            Ok(g.show(g.after(g.play().claim_abandoned(actor, ch, draw)?))?)
        })
        .await?;
    let text = tr!(
        lang,
        "claim-win-done",
        player = call.who(),
        status = status::status_line(lang, Presentation::Discord, &shown.view)
    );
    call.send(game_reply(text, shown, lang)).await
}
