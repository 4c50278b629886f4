//! One preamble for every slash command: a [`Call`] gives the responder, who acts (as the
//! server names them), where (the channel or thread it was typed in) and, on asking, the
//! interaction's languages. A handler is then `Call::new(ctx)?`, one blocking call into the
//! game service ([`Asked::blocking`], which a click ([`Click`]) shares), and one reply.

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

    /// Where the command was typed, and whether a game started there gets a thread.
    pub fn where_typed(&self) -> Where {
        self.where_asked()
    }
}

impl<'a> Asked<'a> for Call<'a> {
    fn data(&self) -> &'a Data {
        self.actx.data()
    }
    fn responder(&self) -> &Responder<'a> {
        &self.r
    }
    fn http(&self) -> &'a serenity::Http {
        &self.actx.serenity_context().http
    }
    fn actor(&self) -> &UserRef {
        &self.actor
    }
    fn place(&self) -> ChannelRef {
        self.place
    }
    fn parts(&self) -> Parts<'_> {
        let i = &self.actx.interaction;
        Parts {
            guild: i.guild_id,
            channel_id: i.channel_id,
            channel: i.channel.as_ref(),
            app_permissions: i.app_permissions,
            locale: &i.locale,
        }
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
        self.where_asked()
    }

    /// Replaces the clicked message.
    pub async fn update(&self, reply: Reply) -> Result<(), Error> {
        self.r.update(reply).await?;
        Ok(())
    }
}

impl<'a> Asked<'a> for Click<'a> {
    fn data(&self) -> &'a Data {
        self.data
    }
    fn responder(&self) -> &Responder<'a> {
        self.r
    }
    fn http(&self) -> &'a serenity::Http {
        self.http
    }
    fn actor(&self) -> &UserRef {
        &self.actor
    }
    fn place(&self) -> ChannelRef {
        self.place
    }
    fn parts(&self) -> Parts<'_> {
        let c = self.click;
        Parts {
            guild: c.guild_id,
            channel_id: c.channel_id,
            channel: c.channel.as_ref(),
            app_permissions: c.app_permissions,
            locale: &c.locale,
        }
    }
}

/// What an interaction says of where it happened and in which language.
pub struct Parts<'p> {
    guild: Option<serenity::GuildId>,
    channel_id: serenity::ChannelId,
    channel: Option<&'p serenity::PartialChannel>,
    app_permissions: Option<serenity::Permissions>,
    locale: &'p str,
}

/// What a slash command ([`Call`]) and a click ([`Click`]) share: the handlers' state, the
/// answer, who acts and where; and, written once for both, what every handler does with them.
pub trait Asked<'a> {
    /// The handlers' shared state.
    fn data(&self) -> &'a Data;
    /// The interaction's answer.
    fn responder(&self) -> &Responder<'a>;
    /// serenity's HTTP client, for posts beside the answer (a game's thread).
    fn http(&self) -> &'a serenity::Http;
    /// Who acts, named as the server shows them.
    fn actor(&self) -> &UserRef;
    /// The channel (or thread) it happened in.
    fn place(&self) -> ChannelRef;
    /// Where it happened and its locale, as the interaction says.
    fn parts(&self) -> Parts<'_>;

    /// Where it happened, and whether a game started there gets a thread.
    fn where_asked(&self) -> Where {
        let p = self.parts();
        threads::where_of(
            self.data(),
            p.guild,
            p.channel_id,
            p.channel,
            p.app_permissions,
        )
    }

    /// The languages of this interaction (the server's setting: one read, then cached).
    fn langs(&self) -> impl Future<Output = Langs> + Send {
        let (data, guild) = (self.data(), self.place().guild);
        let locale = self.parts().locale.to_owned();
        async move { data.langs(guild, Some(&locale)).await }
    }

    /// The language of the public messages this interaction causes.
    fn public_lang(&self) -> impl Future<Output = Lang> + Send {
        let langs = self.langs();
        async move { langs.await.public }
    }

    /// The actor as a mention.
    fn who(&self) -> String {
        mention(self.actor())
    }

    /// Runs `op` with the game service, the actor and the place on the blocking pool (see
    /// [`Data::blocking`]: deferred with `defer` when it runs late).
    fn blocking<'s, T, F>(
        &'s self,
        defer: Defer,
        op: F,
    ) -> impl Future<Output = Result<T, Error>> + Send + 's
    where
        T: Send + 'static,
        F: FnOnce(&Ops, &UserRef, ChannelRef) -> Result<T, Error> + Send + 'static,
        Self: Sync,
        'a: 's,
    {
        let (actor, place) = (self.actor().clone(), self.place());
        let (data, r) = (self.data(), self.responder());
        async move { data.blocking(r, defer, move |g| op(g, &actor, place)).await }
    }

    /// Sends the answer.
    fn send<'s>(&'s self, reply: Reply) -> impl Future<Output = Result<(), Error>> + Send + 's
    where
        Self: Sync,
        'a: 's,
    {
        let r = self.responder();
        async move {
            r.send(reply).await?;
            Ok(())
        }
    }

    /// Sends the answer that shows `view`'s game: in the game's thread when it has one (see
    /// [`threads::send_game`]).
    fn send_game<'v>(
        &'v self,
        view: &'v GameView,
        reply: Reply,
    ) -> impl Future<Output = Result<(), Error>> + Send + 'v
    where
        Self: Sync,
        'a: 'v,
    {
        let (http, r, channel) = (self.http(), self.responder(), self.place().channel);
        async move { threads::send_game(http, r, channel, view, reply).await }
    }
}
