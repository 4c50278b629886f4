//! `/roundrobin create|standings|withdraw`: a round robin in a channel (the service's
//! `Tournaments`). Each round's games are `Paired` notices, posted after the answer: the
//! notifier opens each game's thread on its line in the channel, pinging both players, and
//! the service moves the game there (as an arena's pairings, `present/notify.rs`). The next
//! round opens with the result that ends a round, its notices posted by the command that ended
//! it.

use poise::serenity_prelude as serenity;

use crate::discord::interaction::call::{Asked, Call};
use crate::discord::interaction::reply::Reply;
use crate::discord::present::who::member_ref;
use crate::discord::{Context, Defer, Error};
use crate::game::tournament::berger;
use crate::game::{RoundRobinTerms, UserRef};
use crate::i18n::round_robins;

/// The most mentions read from `players` (more are refused by the count anyway).
const MAX_MENTIONS: usize = 32;

/// A round robin: everyone plays everyone, 3 to 16 players
#[poise::command(slash_command, subcommands("create", "standings", "withdraw"))]
pub async fn roundrobin(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The users mentioned in `text` (`<@id>` or `<@!id>`), in order, each as the guild shows
/// them when the interaction resolved them; a mention of nobody known is kept by its id.
pub fn mentioned(
    text: &str,
    resolved: &serenity::CommandDataResolved,
) -> Vec<Result<UserRef, u64>> {
    text.split('<')
        .skip(1)
        .filter_map(|chunk| {
            let (inner, _) = chunk.split_once('>')?;
            let id = inner.strip_prefix('@')?;
            let id = id.strip_prefix('!').unwrap_or(id);
            id.parse::<u64>().ok().filter(|&id| id != 0)
        })
        .take(MAX_MENTIONS)
        .map(|id| {
            let uid = serenity::UserId::new(id);
            match resolved.users.get(&uid) {
                Some(u) => {
                    let nick = resolved.members.get(&uid).and_then(|m| m.nick.as_deref());
                    Ok(member_ref(u, nick))
                }
                None => Err(id),
            }
        })
        .collect()
}

/// Start a round robin of the players mentioned, seated in that order
#[poise::command(slash_command)]
pub async fn create(
    ctx: Context<'_>,
    #[description = "The players, 3 to 16, mentioned (@…) in seat order"]
    #[max_length = 1000]
    players: String,
    #[description = "The games' clock, live or correspondence"]
    time: crate::discord::commands::clocks::Time,
    #[description = "Everyone meets everyone twice, once with each colour"] double: Option<bool>,
    #[description = "Whether its games count for the ratings (yes by default)"] rated: Option<bool>,
) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let mut named = Vec::new();
    for m in mentioned(&players, &call.actx.interaction.data.resolved) {
        match m {
            Ok(u) => named.push(u),
            // A mention the interaction did not resolve: asked of Discord.
            Err(id) => match serenity::UserId::new(id).to_user(call.actx.http()).await {
                Ok(u) => named.push(member_ref(&u, None)),
                Err(_) => named.push(UserRef::new(id, &id.to_string(), false)),
            },
        }
    }
    let double = double.unwrap_or(false);
    let time = time.into();
    let terms = RoundRobinTerms {
        players: named,
        time,
        double,
        rated: rated.unwrap_or(true),
        name: Some(round_robins::default_name(lang, time)),
    };
    let count = terms.players.len();
    let view = call
        .blocking(Defer::Message, move |g, actor, ch| {
            let made = g
                .tournaments()
                .create_round_robin(actor, ch, &terms, lang)?;
            g.post_after(made.notices);
            Ok(made.tournament)
        })
        .await?;
    let rounds = berger::round_count(count, double);
    call.send(Reply::text(round_robins::created_line(lang, &view, rounds)))
        .await
}

/// The standings: points, then Sonneborn-Berger, then the direct encounter
#[poise::command(slash_command)]
pub async fn standings(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.r.lang();
    let s = call
        .blocking(Defer::Message, |g, _, ch| {
            Ok(g.tournaments().round_robin_standings(ch)?)
        })
        .await?;
    // Sixteen lines and a heading stay well inside Discord's 2,000 characters.
    let text = round_robins::standings_lines(lang, &s).join("\n");
    call.send(Reply::text(text)).await
}

/// Leave it: before half your games are over, your results are cancelled
#[poise::command(slash_command)]
pub async fn withdraw(ctx: Context<'_>) -> Result<(), Error> {
    let call = Call::new(ctx)?;
    let lang = call.public_lang().await;
    let w = call
        .blocking(Defer::Message, |g, actor, ch| {
            let w = g.tournaments().withdraw_round_robin(actor, ch)?;
            g.post_after(w.notices.clone());
            Ok(w)
        })
        .await?;
    call.send(Reply::text(round_robins::withdrawn_line(lang, &w)))
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_read_in_order_and_unknown_ones_kept_by_id() {
        let resolved = serenity::CommandDataResolved::default();
        let got = mentioned("<@12> and <@!34>, <#56> <@0> <@x> <@78", &resolved);
        assert_eq!(got, [Err(12), Err(34)]);
        let many = "<@1> ".repeat(40);
        assert_eq!(mentioned(&many, &resolved).len(), MAX_MENTIONS);
    }
}
