//! `/challenge`, `/accept`, `/decline`, `/cancel`, and the Accept/Decline buttons of a
//! challenge message.

use poise::serenity_prelude as serenity;

use super::choices::{Colour, VariantChoice, variant_of};
use crate::discord::interaction::call::{Asked, Call, Click};
use crate::discord::interaction::errors::Refusal;
use crate::discord::interaction::reply::{Reply, Responder, channel_message};
use crate::discord::present::threads::{self, Opened, Where};
use crate::discord::present::view::{Shown, challenge_reply, game_reply, show_with};
use crate::discord::present::who::{member_ref, mention};
use crate::discord::{Context, Data, Defer, Error};
use crate::game::{ColourChoice, GameError, GameView, Lang};
use crate::i18n::{Presentation, challenges};
use crate::tr;

fn started_text(view: &GameView, lang: Lang) -> String {
    challenges::game_begins(lang, Presentation::Discord, view)
}

/// Challenge someone (or anyone) to a game of chess in this channel
#[poise::command(slash_command)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Whom you challenge (leave empty for an open challenge anyone may accept)"]
    opponent: Option<serenity::User>,
    #[description = "Your colour (random by default)"] colour: Option<Colour>,
    #[description = "Time control (3 days per move by default)"] time: Option<
        crate::discord::commands::clocks::Time,
    >,
    #[description = "Whether the game counts for the ratings (rated by default)"] rated: Option<
        bool,
    >,
    #[description = "Standard chess or Chess960 (standard by default)"] variant: Option<
        VariantChoice,
    >,
    #[description = "The Chess960 start position, 0 to 959 (random by default)"]
    #[min = 0]
    #[max = 959]
    position: Option<u32>,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let place = call.where_typed().place;
    // The opponent as the guild shows them: their nickname comes with the option's member.
    let opponent = opponent.as_ref().map(|u| {
        let resolved = &call.actx.interaction.data.resolved.members;
        member_ref(u, resolved.get(&u.id).and_then(|m| m.nick.as_deref()))
    });
    let colour: ColourChoice = colour.map(Into::into).unwrap_or_default();
    let terms = crate::game::ChallengeTerms {
        colour,
        time: time.map(Into::into).unwrap_or_default(),
        rated: rated.unwrap_or(true),
        variant: variant_of(variant, position),
    };
    let lang = call.public_lang().await;
    let view = call
        .blocking(Defer::Message, move |g, actor, _| {
            Ok(g.challenges()
                .challenge_with(actor, place, opponent.as_ref(), terms)?)
        })
        .await?;
    call.send(challenge_reply(&view, lang)).await?;
    if place.threads {
        // An `/accept` may come after the interaction's token died: the game's thread is
        // opened on this message, so its id is kept now.
        match call.r.original_message().await {
            Ok(message) => {
                let game = call.data().game.clone();
                let id = view.id;
                let kept = tokio::task::spawn_blocking(move || {
                    game.challenges().set_challenge_message(id, message)
                })
                .await;
                if !matches!(kept, Ok(Ok(()))) {
                    tracing::warn!(challenge = id, "could not keep the challenge's message");
                }
            }
            Err(e) => {
                tracing::warn!(challenge = view.id, error = %crate::discord::interaction::reply::scrubbed(&e), "could not read the challenge's message")
            }
        }
    }
    Ok(())
}

/// How many times an accept waits 100 ms for the message of a challenge posted a moment ago.
const MESSAGE_WAITS: usize = 10;
/// How recent such a challenge is (its message id is recorded right after it is posted).
const MESSAGE_WAIT_WINDOW_MS: i64 = 10_000;

/// An accept: who, where, which challenge (a button names it), the message clicked, the
/// game's language, and how to defer.
struct Accepting {
    actor: crate::game::UserRef,
    w: Where,
    expected: Option<i64>,
    clicked: Option<u64>,
    lang: Lang,
    defer: Defer,
}

/// What starting a game found.
struct Started {
    board: Board,
    /// Say why the game is played in the channel (once per channel).
    explain: bool,
    /// The name the game's thread was opened with, and when.
    named: Option<(String, i64)>,
}

/// A started game's board: drawn at once for a game played where it was accepted; a game
/// played in its thread has its board drawn when the post's turn in the REST budget comes,
/// so that games starting together do not each hold a PNG while they wait.
enum Board {
    Here(Shown),
    InThread(GameView),
}

impl Board {
    fn view(&self) -> &GameView {
        match self {
            Board::Here(shown) => &shown.view,
            Board::InThread(view) => view,
        }
    }
}

/// Accepts the challenge `expected` (or the one `actor` means) at `w`: where games get
/// threads, the game's thread is opened first on the challenge's message (`clicked`, or the
/// one kept when it was posted), after checking that the accept can succeed; where it
/// cannot be opened, the game is played in the channel.
async fn start(
    data: &Data,
    r: &Responder<'_>,
    http: &serenity::Http,
    accepting: Accepting,
) -> Result<Started, Error> {
    let Accepting {
        actor,
        w,
        expected,
        clicked,
        lang,
        defer,
    } = accepting;
    let mut place = w.place;
    let mut explain = w.lacks_permission;
    let mut thread = None;
    let mut named = None;
    if place.threads {
        let who = actor.clone();
        let c = data
            .blocking(r, defer, move |g| {
                g.challenges()
                    .acceptable(&who, place, expected)
                    .map_err(stale)
            })
            .await?;
        let now = data.game.options().clock.now_ms();
        // White first. A colour left to chance is tossed on accepting: the thread is named
        // challenger first, and renamed after the toss if need be.
        let (white, black) = match c.colour {
            ColourChoice::Black => (&actor.name, &c.challenger.name),
            ColourChoice::White | ColourChoice::Random => (&c.challenger.name, &actor.name),
        };
        let name = threads::thread_name(white, black, now, lang);
        named = Some((name.clone(), now));
        let mut message = clicked.or(c.message);
        // A challenge answered the moment it appeared: its message id is being recorded
        // (read back from Discord right after the challenge was posted).
        for _ in 0..MESSAGE_WAITS {
            if message.is_some() || now - c.created_at > MESSAGE_WAIT_WINDOW_MS {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            let (game, who, id) = (data.game.clone(), actor.clone(), c.id);
            message = tokio::task::spawn_blocking(move || {
                game.challenges().acceptable(&who, place, Some(id))
            })
            .await
            .ok()
            .and_then(Result::ok)
            .and_then(|c| c.message);
        }
        match message {
            Some(m) => {
                match in_time(r, defer, threads::open(http, place.at.channel, m, &name)).await {
                    Opened::Thread(t) => thread = Some(t),
                    Opened::Refused => {
                        place.threads = false;
                        explain = true;
                    }
                    Opened::Failed => place.threads = false,
                }
            }
            None => place.threads = false,
        }
    }
    let board = data
        .blocking(r, defer, move |g| {
            let view = g
                .challenges()
                .accept_at(&actor, place, expected, lang, thread)
                .map_err(stale)?;
            Ok(if view.elsewhere_than(place.at) {
                Board::InThread(view)
            } else {
                Board::Here(g.show(view)?)
            })
        })
        .await?;
    let explain = explain
        && board.view().thread.is_none()
        && threads::explain_once(data, place.at.channel).await;
    Ok(Started {
        board,
        explain,
        named,
    })
}

/// Awaits `fut` (a request to Discord before the interaction's answer), deferring the
/// interaction when it runs late, as [`Data::blocking`] does, so that Discord's 3 s window
/// is never missed; gives up on it after [`OPEN_TIMEOUT`].
async fn in_time(
    r: &Responder<'_>,
    defer: Defer,
    fut: impl std::future::Future<Output = Opened>,
) -> Opened {
    let fut = tokio::time::timeout(OPEN_TIMEOUT, fut);
    tokio::pin!(fut);
    let opened = tokio::select! {
        done = &mut fut => done,
        () = tokio::time::sleep_until((r.received() + crate::discord::DEFER_AFTER).into()) => {
            let deferred = match defer {
                Defer::Message => r.defer(false).await,
                Defer::Update => r.defer_update().await,
                Defer::Private => r.defer(true).await,
            };
            if let Err(e) = deferred {
                tracing::warn!(interaction = %r.id(), error = %crate::discord::interaction::reply::scrubbed(&e), "could not defer");
            }
            fut.await
        }
    };
    opened.unwrap_or_else(|_| {
        tracing::warn!(interaction = %r.id(), "opening a game's thread timed out; the game is played in the channel");
        Opened::Failed
    })
}

/// How long opening a game's thread may take.
const OPEN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The text of a game's first message: who plays which colour, and, once per channel, why
/// it is played in the channel.
fn first_text(view: &GameView, explain: bool, lang: Lang) -> String {
    let text = started_text(view, lang);
    if explain {
        format!("{}\n{text}", tr!(lang, "threads-fallback"))
    } else {
        text
    }
}

/// Where a game plays in a thread of this channel: the thread gets its first board (and,
/// when the coin put the accepting player on White, its name White first).
async fn first_board_in_thread(
    data: &Data,
    http: &serenity::Http,
    view: GameView,
    named: Option<(String, i64)>,
    lang: Lang,
) {
    let Some(thread) = view.thread else {
        return;
    };
    // Drawn once the post's turn in the REST budget comes, not while it waits.
    let renderer = data.renderer;
    let drawn = view.clone();
    let draw = async move {
        let shown = tokio::task::spawn_blocking(move || show_with(renderer, drawn)).await??;
        Ok(channel_message(game_reply(
            started_text(&shown.view, lang),
            shown,
            lang,
        )))
    };
    if let Err(e) = threads::post_drawn(http, thread, draw).await {
        tracing::warn!(thread, error = %e, "could not post the first board in the game's thread");
    }
    if let Some((name, at)) = &named {
        threads::name_white_first(http, thread, &view, name, *at, lang).await;
    }
}

/// The line that sends the players to their game's thread.
fn in_thread_reply(v: &GameView, lang: Lang) -> Reply {
    Reply {
        content: tr!(
            lang,
            "game-in-thread",
            white = mention(&v.white),
            black = mention(&v.black),
            thread = threads::link(v.place().channel)
        ),
        mentions: vec![v.white.id, v.black.id],
        ..Reply::default()
    }
}

/// Accept the challenge waiting in this channel
#[poise::command(slash_command)]
pub async fn accept(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let w = call.where_typed();
    // The game's own language is the accepting player's (or the server's setting).
    let lang = call.public_lang().await;
    let (r, http) = (&call.r, call.http());
    let accepting = Accepting {
        actor: call.actor.clone(),
        w,
        expected: None,
        clicked: None,
        lang,
        defer: Defer::Message,
    };
    let started = start(call.data(), r, http, accepting).await?;
    match started.board {
        Board::InThread(view) => {
            r.send(in_thread_reply(&view, lang)).await?;
            first_board_in_thread(call.data(), http, view, started.named, lang).await;
        }
        Board::Here(shown) => {
            let text = first_text(&shown.view, started.explain, lang);
            r.send(game_reply(text, shown, lang)).await?;
        }
    }
    Ok(())
}

/// Decline the challenge waiting in this channel
#[poise::command(slash_command)]
pub async fn decline(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let c = call
        .blocking(Defer::Message, move |g, actor, ch| {
            Ok(g.challenges().decline(actor, ch)?)
        })
        .await?;
    call.send(Reply::text(tr!(
        lang,
        "challenge-declined",
        who = call.who(),
        challenger = mention(&c.challenger)
    )))
    .await
}

/// Withdraw your challenge in this channel
#[poise::command(slash_command)]
pub async fn cancel(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let c = call
        .blocking(Defer::Message, move |g, actor, ch| {
            Ok(g.challenges().cancel(actor, ch)?)
        })
        .await?;
    call.send(Reply::text(tr!(
        lang,
        "challenge-withdrawn",
        challenger = mention(&c.challenger)
    )))
    .await
}

fn stale(e: GameError) -> Error {
    match e {
        GameError::PositionChanged => Error::Refused(Refusal::ButtonExpired),
        other => other.into(),
    }
}

/// The Accept button: the game starts, and the challenge message becomes the game's first
/// board.
pub async fn accept_button(c: &Click<'_>, challenge: i64) -> Result<(), Error> {
    let w = c.where_clicked();
    let lang = c.public_lang().await;
    let (r, http) = (c.r, c.http);
    let accepting = Accepting {
        actor: c.actor.clone(),
        w,
        expected: Some(challenge),
        clicked: Some(c.click.message.id.get()),
        lang,
        defer: Defer::Update,
    };
    let started = start(c.data, r, http, accepting).await?;
    match started.board {
        Board::InThread(view) => {
            // The challenge message opens the thread; the thread gets the board.
            r.update(in_thread_reply(&view, lang)).await?;
            first_board_in_thread(c.data, http, view, started.named, lang).await;
        }
        Board::Here(shown) => {
            let text = first_text(&shown.view, started.explain, lang);
            r.update(game_reply(text, shown, lang)).await?;
        }
    }
    Ok(())
}

/// The Rematch button of a final message: a new challenge to the other player, colours
/// swapped, posted in the game's channel (the clicker is told where, ephemerally); against
/// the computer, a new game at the same level, colours swapped, as `/play` starts one.
pub async fn rematch_button(c: &Click<'_>, game: i64) -> Result<(), Error> {
    let again = c
        .blocking(Defer::Update, move |g, actor, _| {
            Ok(g.engine().engine_rematch(actor, game)?)
        })
        .await?;
    if let Some(again) = again {
        let lang = c.public_lang().await;
        return super::engine::rematch(c, again, lang).await;
    }
    let threads = threads::threads_allowed(c.data, c.click.app_permissions);
    let posted = c
        .blocking(Defer::Update, move |g, actor, _| {
            Ok(g.challenges().rematch(actor, game, threads)?)
        })
        .await?;
    c.send(Reply::ephemeral(tr!(
        c.r.lang(),
        "rematch-posted",
        channel = threads::link(posted.channel)
    )))
    .await
}

/// The Decline button: the challenge message says so and loses its buttons.
pub async fn decline_button(c: &Click<'_>, challenge: i64) -> Result<(), Error> {
    let lang = c.public_lang().await;
    let declined = c
        .blocking(Defer::Update, move |g, actor, ch| {
            g.challenges()
                .decline_challenge(actor, ch, Some(challenge))
                .map_err(stale)
        })
        .await?;
    c.update(Reply::text(tr!(
        lang,
        "challenge-declined",
        who = c.who(),
        challenger = mention(&declined.challenger)
    )))
    .await
}
