//! One preamble for every slash command: a [`Call`] gives the responder, who acts (as the
//! server names them), where (the channel or thread it was typed in) and, on asking, the
//! interaction's languages. A handler is then `Call::new(ctx)?`, one blocking call into the
//! game service ([`Call::blocking`]), and one reply.

use cajitas_rules::Lang;
use poise::serenity_prelude as serenity;

use crate::discord::interaction::errors::{Refusal, responder};
use crate::discord::interaction::langs::Langs;
use crate::discord::interaction::reply::{Reply, Responder};
use crate::discord::present::threads::{self, Where};
use crate::discord::present::view::Ops;
use crate::discord::present::who::{author_ref, channel_ref, clicker_ref, mention};
use crate::discord::{Context, Data, Defer, Error};
use crate::game::{ChannelRef, GameView, UserRef};

/// A slash command being answered.
pub struct Call<'a> {
    /// poise's context of the command (its interaction, options and framework).
    pub actx: poise::ApplicationContext<'a, Data, Error>,
    /// The interaction's answer.
    pub r: Responder<'a>,
    /// Who typed the command, named as the server shows them.
    pub actor: UserRef,
    /// The channel (or thread) it was typed in.
    pub place: ChannelRef,
}

impl<'a> Call<'a> {
    /// The call of `ctx`; only slash commands are answered (prefix commands are refused).
    pub fn new(ctx: Context<'a>) -> Result<Call<'a>, Error> {
        let poise::Context::Application(actx) = ctx else {
            return Err(Refusal::SlashOnly.into());
        };
        Ok(Call {
            r: responder(&actx),
            actor: author_ref(ctx),
            place: channel_ref(ctx.guild_id(), ctx.channel_id()),
            actx,
        })
    }

    /// The handlers' shared state.
    pub fn data(&self) -> &'a Data {
        self.actx.data()
    }

    /// serenity's HTTP client, for posts beside the answer (a game's thread).
    pub fn http(&self) -> &'a serenity::Http {
        &self.actx.serenity_context().http
    }

    /// Where the command was typed, and whether a game started there gets a thread.
    pub fn where_typed(&self) -> Where {
        let i = &self.actx.interaction;
        threads::where_of(
            self.data(),
            i.guild_id,
            i.channel_id,
            i.channel.as_ref(),
            i.app_permissions,
        )
    }

    /// The languages of this interaction (the server's setting: one read, then cached).
    pub async fn langs(&self) -> Langs {
        self.data()
            .langs(self.place.guild, Some(&self.actx.interaction.locale))
            .await
    }

    /// The language of the public messages this interaction causes.
    pub async fn public_lang(&self) -> Lang {
        self.langs().await.public
    }

    /// The actor as a mention.
    pub fn who(&self) -> String {
        mention(&self.actor)
    }

    /// Runs `op` with the game service, the actor and the place on the blocking pool (see
    /// [`Data::blocking`]: deferred with `defer` when it runs late).
    pub async fn blocking<T, F>(&self, defer: Defer, op: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Ops, &UserRef, ChannelRef) -> Result<T, Error> + Send + 'static,
    {
        let (actor, place) = (self.actor.clone(), self.place);
        self.data()
            .blocking(&self.r, defer, move |g| op(g, &actor, place))
            .await
    }

    /// Sends the answer.
    pub async fn send(&self, reply: Reply) -> Result<(), Error> {
        self.r.send(reply).await?;
        Ok(())
    }

    /// Sends the answer that shows `view`'s game, typed here: in the game's thread when it
    /// has one (see [`threads::send_game`]).
    pub async fn send_game(&self, view: &GameView, reply: Reply) -> Result<(), Error> {
        threads::send_game(self.http(), &self.r, self.place.channel, view, reply).await
    }
}

/// A button being answered (see [`super::router`]).
pub struct Click<'a> {
    /// The handlers' shared state.
    pub data: &'a Data,
    /// The interaction's answer.
    pub r: &'a Responder<'a>,
    /// serenity's HTTP client, for posts beside the answer.
    pub http: &'a serenity::Http,
    /// The click.
    pub click: &'a serenity::ComponentInteraction,
    /// Who clicked, named as the server shows them.
    pub actor: UserRef,
    /// The channel (or thread) of the clicked message.
    pub place: ChannelRef,
}

impl<'a> Click<'a> {
    /// The click `click`, answered on `r`.
    pub fn new(
        data: &'a Data,
        r: &'a Responder<'a>,
        http: &'a serenity::Http,
        click: &'a serenity::ComponentInteraction,
    ) -> Click<'a> {
        Click {
            data,
            r,
            http,
            click,
            actor: clicker_ref(click),
            place: channel_ref(click.guild_id, click.channel_id),
        }
    }

    /// Where the button was clicked, and whether a game started there gets a thread.
    pub fn where_clicked(&self) -> Where {
        let c = self.click;
        threads::where_of(
            self.data,
            c.guild_id,
            c.channel_id,
            c.channel.as_ref(),
            c.app_permissions,
        )
    }

    /// The languages of this interaction (the server's setting: one read, then cached).
    pub async fn langs(&self) -> Langs {
        self.data
            .langs(self.place.guild, Some(&self.click.locale))
            .await
    }

    /// The language of the public messages this click causes.
    pub async fn public_lang(&self) -> Lang {
        self.langs().await.public
    }

    /// The clicker as a mention.
    pub fn who(&self) -> String {
        mention(&self.actor)
    }

    /// Runs `op` with the game service, the clicker and the place on the blocking pool (see
    /// [`Data::blocking`]: deferred with `defer` when it runs late).
    pub async fn blocking<T, F>(&self, defer: Defer, op: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Ops, &UserRef, ChannelRef) -> Result<T, Error> + Send + 'static,
    {
        let (actor, place) = (self.actor.clone(), self.place);
        self.data
            .blocking(self.r, defer, move |g| op(g, &actor, place))
            .await
    }

    /// Replaces the clicked message.
    pub async fn update(&self, reply: Reply) -> Result<(), Error> {
        self.r.update(reply).await?;
        Ok(())
    }

    /// Sends the answer.
    pub async fn send(&self, reply: Reply) -> Result<(), Error> {
        self.r.send(reply).await?;
        Ok(())
    }

    /// Sends the answer that shows `view`'s game: in the game's thread when it has one (see
    /// [`threads::send_game`]).
    pub async fn send_game(&self, view: &GameView, reply: Reply) -> Result<(), Error> {
        threads::send_game(self.http, self.r, self.place.channel, view, reply).await
    }
}
