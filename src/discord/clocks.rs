//! Time controls in Discord: the `time` option of `/challenge`, the clock in the embed and
//! the challenge message, the scheduler's posts (timeouts, reminders), and `/claim-win`.

use super::errors::responder;
use super::view::{game_reply, status};
use super::who::{author_ref, channel_ref, mention};
use super::{Context, Defer, Error};
use crate::game::{GameView, NoticeKind, TimeControl};
use crate::i18n::{Presentation, clock};
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

/// A Discord timestamp that every client shows in its own time zone, counting down.
pub fn timestamp(unix_ms: i64) -> String {
    format!("<t:{}:R>", unix_ms.div_euclid(1000))
}

/// The embed's clock field of a game: the control and both remaining times, and the
/// deadline of the player to move; `None` for a finished untimed game.
pub fn clock_field(view: &GameView, lang: crate::game::Lang) -> Option<String> {
    let c = &view.clock;
    let mut lines = Vec::new();
    if let Some(line) = clock::clock_line(lang, c) {
        lines.push(line);
    }
    // Against the computer nobody claims an abandoned game: no deadline to show.
    if let Some(deadline) = c.deadline.filter(|_| view.engine().is_none()) {
        lines.push(clock::deadline_line(
            lang,
            Presentation::Discord,
            c,
            view.player_to_move(),
            deadline,
        ));
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The text above the board of a post no interaction caused.
pub fn notice_text(kind: &NoticeKind, v: &GameView, lang: crate::game::Lang) -> String {
    let to_move = mention(v.player_to_move());
    let opponent = mention(v.player(!v.to_move));
    let deadline = v.clock.deadline.map(timestamp).unwrap_or_default();
    match kind {
        NoticeKind::GameState | NoticeKind::Summary | NoticeKind::Rematch(_) => status(v, lang),
        NoticeKind::EngineUnavailable => tr!(lang, "engine-unavailable"),
        NoticeKind::TimedOut if v.aborted => {
            tr!(lang, "timeout-aborted-post", player = to_move)
        }
        NoticeKind::TimedOut => tr!(
            lang,
            "timeout-post",
            player = to_move,
            status = status(v, lang)
        ),
        NoticeKind::Reminder => tr!(
            lang,
            "reminder-post",
            player = to_move,
            opponent = opponent,
            deadline = deadline
        ),
        NoticeKind::IdleReminder => tr!(
            lang,
            "idle-reminder-post",
            player = to_move,
            opponent = opponent,
            deadline = deadline
        ),
    }
}

/// Claim an untimed game whose opponent stopped moving (after 7 days by default)
#[poise::command(slash_command, rename = "claim-win")]
pub async fn claim_win(
    ctx: Context<'_>,
    #[description = "Take a draw instead of the win"] draw: Option<bool>,
) -> Result<(), Error> {
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let r = responder(&actx);
    let actor = author_ref(ctx);
    let who = mention(&actor);
    let ch = channel_ref(ctx.guild_id(), ctx.channel_id());
    let lang = ctx.data().langs(ch.guild, ctx.locale()).await.public;
    let draw = draw.unwrap_or(false);
    let shown = ctx
        .data()
        .blocking(&r, Defer::Message, move |g| {
            Ok(g.show(g.after(g.claim_abandoned(&actor, ch, draw)?))?)
        })
        .await?;
    let text = tr!(
        lang,
        "claim-win-done",
        player = who,
        status = status(&shown.view, lang)
    );
    r.send(game_reply(text, &shown, lang)).await?;
    Ok(())
}
