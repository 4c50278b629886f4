//! `/puzzle` and its buttons (Hint, Solution, Next); `/move` answers the caller's open puzzle
//! through [`answer`] when they play no game where they typed it.
//!
//! A puzzle's messages are public: others see the board as the solver plays. Only the solver's
//! buttons act (the custom id carries the solver and the attempt).

use poise::serenity_prelude as serenity;

use crate::discord::interaction::call::{Asked, Call, Click};
use crate::discord::interaction::custom_id::ButtonId;
use crate::discord::interaction::errors::Refusal;
use crate::discord::interaction::reply::{Reply, cap_chars, channel_message};
use crate::discord::present::threads;
use crate::discord::present::view::{self, BOARD_FILE, Ops};
use crate::discord::{Context, Defer, Error};
use crate::game::{
    ChannelRef, DailyPost, DailyView, GameService, Lang, PuzzleOrigin, PuzzleRequest, PuzzleStatus,
    PuzzleView, UserRef,
};
use crate::i18n::{self, Presentation};
use crate::tr;

/// A puzzle's view with its board, drawn on the blocking pool.
pub struct PuzzleShown {
    /// The attempt.
    pub view: PuzzleView,
    /// The board from the solver's side, the last move tinted.
    pub png: Vec<u8>,
}

/// Draws `view`'s board, or after a streak's solved puzzle the next one's (blocking: only
/// inside a handler's blocking closure).
pub fn show(g: &Ops, view: PuzzleView) -> anyhow::Result<PuzzleShown> {
    let on_board = view.next.as_deref().unwrap_or(&view);
    let png = view::board_png(
        g.renderer,
        &on_board.position,
        Some(on_board.last_move),
        on_board.solver,
    )?;
    Ok(PuzzleShown { view, png })
}

/// What `/puzzle` serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum PuzzleMode {
    /// Puzzle Streak: rising difficulty until the first mistake, unrated, no hints.
    #[name = "streak"]
    Streak,
}

/// Where `/puzzle`'s puzzle comes from (see [`PuzzleOrigin`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum PuzzleSourceChoice {
    /// Either, the server's own preferred.
    #[name = "any"]
    Any,
    /// Puzzles found in this server's games.
    #[name = "server"]
    Server,
    /// lichess's open database.
    #[name = "lichess"]
    Lichess,
}

impl From<PuzzleSourceChoice> for PuzzleOrigin {
    fn from(c: PuzzleSourceChoice) -> PuzzleOrigin {
        match c {
            PuzzleSourceChoice::Any => PuzzleOrigin::Any,
            PuzzleSourceChoice::Server => PuzzleOrigin::Server,
            PuzzleSourceChoice::Lichess => PuzzleOrigin::Lichess,
        }
    }
}

/// The public message of a puzzle: `lines`, the board, and the solver's buttons (Hint and
/// Solution while it is played; Next always).
pub fn puzzle_reply(lines: Vec<String>, shown: PuzzleShown, lang: Lang, solver: u64) -> Reply {
    // After a streak's solved puzzle, the buttons are the next one's.
    let v = shown.view.next.as_deref().unwrap_or(&shown.view);
    let mut buttons = Vec::new();
    if v.status == PuzzleStatus::Playing && v.streak.is_none() {
        buttons.push(
            ButtonId::PuzzleHint {
                attempt: v.attempt_id,
                user: solver,
            }
            .button(&tr!(lang, "button-hint"), serenity::ButtonStyle::Secondary),
        );
    }
    if v.status == PuzzleStatus::Playing {
        buttons.push(
            ButtonId::PuzzleSolution {
                attempt: v.attempt_id,
                user: solver,
            }
            .button(&tr!(lang, "button-solution"), serenity::ButtonStyle::Danger),
        );
    }
    buttons.push(ButtonId::PuzzleNext { user: solver }.button(
        &tr!(lang, "button-next-puzzle"),
        serenity::ButtonStyle::Primary,
    ));
    let alt = view::alt(&v.position, lang);
    let png = shown.png;
    Reply {
        content: cap_chars(&lines.join("\n"), 2000),
        components: vec![serenity::CreateActionRow::Buttons(buttons)],
        attachments: vec![serenity::CreateAttachment::bytes(png, BOARD_FILE).description(alt)],
        // A puzzle's message names its solver only.
        mentions: vec![solver],
        ..Reply::default()
    }
}

/// Solve a chess puzzle from lichess's open database, rated on your puzzle rating
#[poise::command(slash_command)]
pub async fn puzzle(
    ctx: Context<'_>,
    #[description = "A theme, e.g. fork, pin, mate in 2 (any by default)"]
    #[max_length = 40]
    theme: Option<String>,
    #[description = "Choose around this rating instead of yours"]
    #[min = 400]
    #[max = 3200]
    rating: Option<i32>,
    #[description = "A lichess puzzle id, e.g. 000rZ"]
    #[max_length = 16]
    id: Option<String>,
    #[description = "Streak: puzzles of rising difficulty until your first mistake"] mode: Option<
        PuzzleMode,
    >,
    #[description = "From this server's games, lichess's, or any (this server's preferred)"]
    source: Option<PuzzleSourceChoice>,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let req = i18n::puzzles::with_theme_id(PuzzleRequest {
        id,
        theme,
        rating,
        source: source.map_or(PuzzleOrigin::Any, PuzzleOrigin::from),
    });
    let (shown, solver) = call
        .blocking(Defer::Message, move |g, actor, ch| {
            let v = match mode {
                Some(PuzzleMode::Streak) => g.puzzles().start_streak(actor, ch)?,
                None => g.puzzles().start(actor, ch, &req)?,
            };
            Ok((show(g, v)?, actor.id))
        })
        .await?;
    // Where games get threads, the puzzle gets its own: chosen here first (a refusal opens
    // no thread), then moved into the thread opened on the answer.
    let w = call.where_typed();
    if w.place.threads && w.place.parent.is_none() {
        return in_own_thread(&call, shown, lang, w.lacks_permission).await;
    }
    let lines = i18n::puzzles::start_lines(lang, &shown.view);
    call.send(puzzle_reply(lines, shown, lang, solver)).await
}

/// How long opening a puzzle's thread may take.
const OPEN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The name of a puzzle's thread: `Puzzle 000rZ · alice` (at most Discord's 100 characters).
pub fn puzzle_thread_name(lang: Lang, id: &str, solver: &str) -> String {
    let name = tr!(
        lang,
        "puzzle-thread-name",
        id = cap_chars(id, crate::puzzles::MAX_ID_CHARS),
        name = cap_chars(solver, 40)
    );
    cap_chars(&name, threads::THREAD_NAME_MAX)
}

/// Posts the puzzle just started in `call`'s channel in a thread of its own, opened on the
/// answer (its heading), and moves the attempt there; the answer then links to it. Where
/// the thread cannot be opened, the puzzle is played in the channel, as without threads
/// (said once per channel when the bot lacks the permission).
async fn in_own_thread(
    call: &Call<'_>,
    shown: PuzzleShown,
    lang: Lang,
    lacks_permission: bool,
) -> Result<(), Error> {
    let http = call.http();
    let channel = call.place.channel;
    let solver = call.actor.id;
    let id = shown.view.puzzle.id.clone();
    let heading = i18n::puzzles::heading(lang, &shown.view);
    call.r.send(Reply::text(heading)).await?;
    let opened = match call.r.original_message().await {
        Ok(message) => {
            let name = puzzle_thread_name(lang, &id, &call.actor.name);
            tokio::time::timeout(OPEN_TIMEOUT, threads::open(http, channel, message, &name))
                .await
                .unwrap_or(threads::Opened::Failed)
        }
        Err(e) => {
            tracing::warn!(error = %crate::discord::interaction::reply::scrubbed(&e), "could not read the message a puzzle's thread opens on");
            threads::Opened::Failed
        }
    };
    let explain = match opened {
        threads::Opened::Thread(thread) => {
            let attempt = shown.view.attempt_id;
            let moved = call
                .blocking(Defer::Message, move |g, actor, ch| {
                    let v = g.puzzles().move_to_thread(actor, ch, attempt, thread)?;
                    Ok(show(g, v)?)
                })
                .await;
            match moved {
                Ok(there) => {
                    let lines = i18n::puzzles::start_lines(lang, &there.view);
                    let post = channel_message(puzzle_reply(lines, there, lang, solver));
                    if let Err(e) = threads::post_in(http, thread, post).await {
                        tracing::warn!(thread, error = %crate::discord::interaction::reply::scrubbed(&e), "could not post a puzzle in its thread");
                    }
                    let text = tr!(
                        lang,
                        "puzzle-in-thread",
                        id = id,
                        thread = threads::link(thread)
                    );
                    call.r.update(Reply::text(text)).await?;
                    return Ok(());
                }
                // Answered meanwhile (a racing /move): it stays where it is.
                Err(e) => {
                    tracing::info!(error = %e, "a puzzle was not moved into its thread");
                    false
                }
            }
        }
        threads::Opened::Refused => true,
        threads::Opened::Failed => lacks_permission,
    };
    let explain = explain && threads::explain_once(call.data(), channel).await;
    let mut lines = i18n::puzzles::start_lines(lang, &shown.view);
    if explain {
        lines.insert(0, tr!(lang, "threads-fallback"));
    }
    call.r
        .update(puzzle_reply(lines, shown, lang, solver))
        .await?;
    Ok(())
}

/// Whether a move `actor` types in `ch` answers their puzzle: they have one open there and
/// play no game there (blocking).
pub fn answers_puzzle(g: &Ops, actor: &UserRef, ch: ChannelRef) -> bool {
    matches!(g.puzzles().answerable(actor, ch), Ok(Some(_)))
}

/// `actor` answers their puzzle in `ch` with `text` (blocking).
pub fn answer(
    g: &Ops,
    actor: &UserRef,
    ch: ChannelRef,
    text: &str,
    lang: Lang,
) -> Result<PuzzleShown, Error> {
    let v = g.puzzles().answer(actor, ch, text, lang)?;
    Ok(show(g, v)?)
}

/// The lines of a puzzle's message after a hint, the solution or a move: the heading, the hint,
/// who played what (`who`, for `/move`'s answer; a wrong move is named by the end's own line
/// instead), then what it did.
pub fn answer_lines(
    lang: Lang,
    solver: &UserRef,
    v: &PuzzleView,
    who: Option<String>,
) -> Vec<String> {
    let mut lines = vec![i18n::puzzles::heading(lang, v)];
    lines.extend(i18n::puzzles::hint_line(lang, v));
    if let (Some(who), Some(san), false) = (who, &v.played, v.status == PuzzleStatus::Failed) {
        lines.push(tr!(
            lang,
            "move-played",
            who = who,
            san = i18n::san_in(lang, san)
        ));
    }
    lines.extend(i18n::puzzles::answer_lines(
        lang,
        Presentation::Discord,
        solver,
        v,
    ));
    lines
}

/// The daily puzzle's post: its lines (title, heading, the opponent's move, the live count),
/// the board after the opponent's move from the solver's side (drawn here: blocking), and the
/// Solve button anyone may press.
pub fn daily_reply(
    renderer: &crate::render::Renderer,
    lang: Lang,
    v: &DailyView,
) -> anyhow::Result<Reply> {
    let start = crate::puzzles::Attempt::start(v.puzzle);
    let png = view::board_png(
        renderer,
        start.position(),
        Some(start.last_move()),
        start.solver(),
    )?;
    Ok(Reply {
        content: cap_chars(&i18n::puzzles::daily_lines(lang, v).join("\n"), 2000),
        components: vec![serenity::CreateActionRow::Buttons(vec![
            ButtonId::DailySolve {
                guild: v.guild,
                day: v.day,
            }
            .button(&tr!(lang, "button-solve"), serenity::ButtonStyle::Primary),
        ])],
        attachments: vec![
            serenity::CreateAttachment::bytes(png, BOARD_FILE)
                .description(view::alt(start.position(), lang)),
        ],
        ..Reply::default()
    })
}

/// Posts every daily puzzle due (blocking work on the blocking pool): each claimed post is
/// sent with its nonce, then marked posted; a failed one is claimed again once its lease
/// lapses. Returns how many went out.
pub async fn post_dailies(
    game: &GameService,
    books: &std::sync::Arc<crate::discord::gateway::bookkeeping::Bookkeeping>,
    renderer: &'static crate::render::Renderer,
    http: &serenity::Http,
) -> usize {
    let g = game.clone();
    let due = match tokio::task::spawn_blocking(move || g.daily().claim_due()).await {
        Ok(Ok(due)) => due,
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "could not claim the daily puzzles due");
            return 0;
        }
        Err(e) => {
            tracing::warn!(error = %e, "the daily puzzles' claim failed");
            return 0;
        }
    };
    let mut posted = 0;
    for post in due {
        if post_daily(game, books, renderer, http, &post).await {
            posted += 1;
        }
    }
    posted
}

async fn post_daily(
    game: &GameService,
    books: &std::sync::Arc<crate::discord::gateway::bookkeeping::Bookkeeping>,
    renderer: &'static crate::render::Renderer,
    http: &serenity::Http,
    post: &DailyPost,
) -> bool {
    let (g, b, guild, day) = (
        game.clone(),
        std::sync::Arc::clone(books),
        post.guild,
        post.day,
    );
    let drawn = tokio::task::spawn_blocking(move || {
        let lang = daily_lang(&b, guild);
        let v = g
            .daily()
            .of_day(guild, day)?
            .ok_or(crate::game::GameError::NoDailyPuzzle)?;
        daily_reply(renderer, lang, &v)
    })
    .await;
    let reply = match drawn {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            tracing::warn!(guild, error = %e, "could not draw the daily puzzle");
            return false;
        }
        Err(e) => {
            tracing::warn!(guild, error = %e, "drawing the daily puzzle failed");
            return false;
        }
    };
    let message = crate::discord::interaction::reply::channel_message(reply)
        .nonce(serenity::Nonce::String(post.nonce.clone()))
        .enforce_nonce(true);
    match crate::discord::present::threads::post_in(http, post.channel, message).await {
        Ok(m) => {
            let (g, p) = (game.clone(), post.clone());
            let marked =
                tokio::task::spawn_blocking(move || g.daily().posted(&p, m.id.get())).await;
            if !matches!(marked, Ok(Ok(()))) {
                tracing::warn!(guild, "could not mark the daily puzzle posted");
            }
            true
        }
        Err(e) => {
            crate::discord::gateway::telemetry::rest_error("post", &e);
            tracing::warn!(guild, error = %crate::discord::interaction::reply::scrubbed(&e), "could not post the daily puzzle; it is tried again in a minute");
            false
        }
    }
}

/// The language of `guild`'s daily puzzle posts: the server's language, else English.
fn daily_lang(books: &crate::discord::gateway::bookkeeping::Bookkeeping, guild: u64) -> Lang {
    crate::discord::interaction::langs::guild_language(books, Some(guild)).public(Lang::En)
}

/// After an attempt at a daily puzzle ended: its post's live count, edited.
pub async fn update_daily_count(data: &crate::discord::Data, http: &serenity::Http, v: &DailyView) {
    let Some(message) = v.message else {
        return;
    };
    let books = std::sync::Arc::clone(&data.bookkeeping);
    let guild = v.guild;
    let lang = tokio::task::spawn_blocking(move || daily_lang(&books, guild))
        .await
        .unwrap_or(Lang::En);
    let content = cap_chars(&i18n::puzzles::daily_lines(lang, v).join("\n"), 2000);
    crate::discord::interaction::budget::take().await;
    if let Err(e) = serenity::ChannelId::new(v.channel)
        .edit_message(
            http,
            serenity::MessageId::new(message),
            serenity::EditMessage::new().content(content),
        )
        .await
    {
        tracing::warn!(error = %crate::discord::interaction::reply::scrubbed(&e), "could not update the daily puzzle's count");
    }
}

/// The Solve button of a daily puzzle's post: the presser's own attempt, shown to them only.
pub async fn daily_button(c: &Click<'_>, guild: u64, day: i64) -> Result<(), Error> {
    let lang = c.r.lang();
    let shown = c
        .blocking(Defer::Private, move |g, actor, _| {
            let v = g.puzzles().start_daily(actor, guild, day)?;
            Ok(show(g, v)?)
        })
        .await?;
    let lines = i18n::puzzles::start_lines(lang, &shown.view);
    let solver = c.actor.id;
    let mut reply = puzzle_reply(lines, shown, lang, solver);
    reply.ephemeral = true;
    c.send(reply).await
}

/// A click on a puzzle's Hint, Solution or Next: the solver's only.
pub async fn button(c: &Click<'_>, id: ButtonId) -> Result<(), Error> {
    let (user, attempt) = match id {
        ButtonId::PuzzleHint { attempt, user } | ButtonId::PuzzleSolution { attempt, user } => {
            (user, Some(attempt))
        }
        ButtonId::PuzzleNext { user } => (user, None),
        _ => return Err(Refusal::UnknownButton.into()),
    };
    if c.click.user.id.get() != user {
        return Err(Refusal::NotYourButton.into());
    }
    let lang = c.public_lang().await;
    let solver = c.actor.clone();
    let (shown, start) = c
        .blocking(Defer::Message, move |g, actor, ch| {
            let p = g.puzzles();
            if let Some(attempt) = attempt {
                // A button of an attempt that is no longer the open one has expired.
                match p.open(actor, ch)? {
                    Some(open) if open.attempt_id == attempt => {}
                    _ => return Err(Refusal::ButtonExpired.into()),
                }
            }
            let (v, start) = match id {
                ButtonId::PuzzleHint { .. } => (p.hint(actor, ch)?, false),
                ButtonId::PuzzleSolution { .. } => (p.solution(actor, ch)?, false),
                _ => (p.start(actor, ch, &PuzzleRequest::default())?, true),
            };
            Ok((show(g, v)?, start))
        })
        .await?;
    let lines = if start {
        i18n::puzzles::start_lines(lang, &shown.view)
    } else {
        answer_lines(lang, &solver, &shown.view, None)
    };
    let daily = shown.view.daily.clone();
    let ended = shown.view.status != PuzzleStatus::Playing;
    let mut reply = puzzle_reply(lines, shown, lang, user);
    if let Some(d) = &daily {
        // A daily puzzle's attempt is private; its end moves the post's live count.
        reply.ephemeral = true;
        if ended {
            update_daily_count(c.data, c.http, d).await;
        }
    }
    c.send(reply).await
}
