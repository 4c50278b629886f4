//! What happens when the gateway says READY: log the invite URL and register the slash
//! commands (globally, or in DISCORD_GUILD_ID).

use poise::serenity_prelude as serenity;

use crate::discord::gateway::releaser::Releaser;
use crate::discord::{Data, Error};

/// The permissions the bot needs, and nothing more.
pub fn permissions() -> serenity::Permissions {
    serenity::Permissions::VIEW_CHANNEL
        | serenity::Permissions::SEND_MESSAGES
        | serenity::Permissions::SEND_MESSAGES_IN_THREADS
        | serenity::Permissions::CREATE_PUBLIC_THREADS
        | serenity::Permissions::EMBED_LINKS
        | serenity::Permissions::ATTACH_FILES
        | serenity::Permissions::READ_MESSAGE_HISTORY
}

/// The URL that invites the bot with the scopes `bot applications.commands`.
pub fn invite_url(client_id: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={client_id}&permissions={}&scope=bot%20applications.commands",
        permissions().bits()
    )
}

/// Runs once, at the first READY. Never fails: poise would wait forever for its data.
pub async fn on_ready(
    ctx: &serenity::Context,
    ready: &serenity::Ready,
    framework: &poise::Framework<Data, Error>,
    data: &Data,
) {
    tracing::info!(user = %ready.user.name, "connected to Discord");
    let client_id = match ctx.http.get_current_application_info().await {
        Ok(app) => app.id.get(),
        Err(e) => {
            tracing::warn!(error = %crate::discord::interaction::reply::scrubbed(&e), "could not read the application info; using READY's application id");
            ready.application.id.get()
        }
    };
    tracing::info!(url = %invite_url(client_id), "invite the bot with this URL");

    register(ctx, framework, data, client_id).await;
}

/// The database key holding the hash of the commands last registered globally.
pub const COMMANDS_HASH_KEY_GLOBAL: &str = "discord.commands_hash.global";

/// The database key for the hash of the commands registered in one place.
fn hash_key(guild: Option<u64>) -> String {
    match guild {
        Some(g) => format!("discord.commands_hash.guild.{g}"),
        None => COMMANDS_HASH_KEY_GLOBAL.to_string(),
    }
}

/// A stable hash (FNV-1a, 64 bits) of what would be registered, application id included.
pub fn commands_hash(application_id: u64, commands_json: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in application_id
        .to_le_bytes()
        .iter()
        .chain(commands_json.as_bytes())
    {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// JSON with every object's keys sorted: the same commands give the same text in every
/// process (localizations live in hash maps, whose order changes from run to run).
pub fn canonical_json(v: &serde_json::Value) -> String {
    fn write(v: &serde_json::Value, out: &mut String) {
        match v {
            serde_json::Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::Value::String(k.clone()).to_string());
                    out.push(':');
                    write(&map[k], out);
                }
                out.push('}');
            }
            serde_json::Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(v, &mut out);
    out
}

/// Registers the commands (one bulk overwrite), unless the same set was already registered
/// in the same place: Discord allows 200 command creations a day, so a restart must not
/// spend them. The hash of the registered JSON is kept in the database.
async fn register(
    ctx: &serenity::Context,
    framework: &poise::Framework<Data, Error>,
    data: &Data,
    application_id: u64,
) {
    let commands = poise::builtins::create_application_commands(&framework.options().commands);
    let json = match serde_json::to_value(&commands) {
        Ok(v) => canonical_json(&v),
        Err(e) => {
            tracing::error!(error = %e, "could not serialise the commands");
            return;
        }
    };
    let guild = data.config.guild_id.filter(|&g| g != 0);
    let hash = commands_hash(application_id, &json);
    let key = hash_key(guild);
    // Processes sharing a PostgreSQL database register one at a time: the first registers,
    // the others then find its hash (the lock is released when `_registering` is dropped).
    let books = std::sync::Arc::clone(&data.bookkeeping);
    let _registering = match tokio::task::spawn_blocking(move || {
        books.lock(crate::store::NamedLock::CommandRegistration)
    })
    .await
    {
        Ok(Ok(guard)) => guard.map(Releaser::new),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "could not take the registration lock; registering anyway");
            None
        }
        Err(e) => {
            tracing::warn!(error = %e, "could not take the registration lock; registering anyway");
            None
        }
    };
    let books = std::sync::Arc::clone(&data.bookkeeping);
    let lookup_key = key.clone();
    let stored = tokio::task::spawn_blocking(move || books.fresh_setting(&lookup_key)).await;
    match stored {
        Ok(Ok(Some(h))) if h == hash => {
            tracing::info!(guild = ?guild, "slash commands unchanged since the last registration; not registering");
            return;
        }
        Ok(Err(e)) => tracing::warn!(error = %e, "could not read the last registration"),
        Err(e) => tracing::warn!(error = %e, "could not read the last registration"),
        Ok(Ok(_)) => {}
    }
    let count = commands.len();
    let result = match guild {
        Some(g) => serenity::GuildId::new(g)
            .set_commands(ctx, commands)
            .await
            .map(|_| ()),
        None => serenity::Command::set_global_commands(ctx, commands)
            .await
            .map(|_| ()),
    };
    match result {
        Ok(()) => {
            tracing::info!(count, guild = ?guild, "registered the slash commands");
            let books = std::sync::Arc::clone(&data.bookkeeping);
            let saved = tokio::task::spawn_blocking(move || books.set_setting(&key, &hash)).await;
            if !matches!(saved, Ok(Ok(()))) {
                tracing::warn!("could not record the registration; the next start registers again");
            }
        }
        Err(e) => {
            tracing::error!(error = %crate::discord::interaction::reply::scrubbed(&e), "could not register the slash commands")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commands_hash_is_stable_and_sensitive() {
        let a = commands_hash(1, "[{\"name\":\"help\"}]");
        assert_eq!(a, commands_hash(1, "[{\"name\":\"help\"}]"));
        assert_ne!(a, commands_hash(2, "[{\"name\":\"help\"}]"));
        assert_ne!(a, commands_hash(1, "[{\"name\":\"hello\"}]"));
        // FNV-1a of the empty input with id 0 is fixed forever (stored hashes stay valid).
        assert_eq!(commands_hash(0, ""), "a8c7f832281a39c5");
    }

    #[test]
    fn canonical_json_sorts_keys_at_every_level() {
        let a: serde_json::Value =
            serde_json::from_str(r#"{"b":1,"a":{"y":[{"q":1,"p":2}],"x":"s"}}"#).unwrap();
        assert_eq!(
            canonical_json(&a),
            r#"{"a":{"x":"s","y":[{"p":2,"q":1}]},"b":1}"#
        );
    }

    #[test]
    fn the_registered_json_is_the_same_in_every_build_of_the_list() {
        let once = canonical_json(
            &serde_json::to_value(poise::builtins::create_application_commands(
                &crate::discord::commands(),
            ))
            .unwrap(),
        );
        for _ in 0..5 {
            let again = canonical_json(
                &serde_json::to_value(poise::builtins::create_application_commands(
                    &crate::discord::commands(),
                ))
                .unwrap(),
            );
            assert_eq!(once, again);
        }
    }

    #[test]
    fn invite_url_has_the_minimal_permissions_and_both_scopes() {
        let url = invite_url(42);
        // View Channel 1<<10, Send Messages 1<<11, Embed Links 1<<14, Attach Files 1<<15,
        // Read Message History 1<<16, Create Public Threads 1<<35, Send Messages in Threads
        // 1<<38.
        let bits: u64 =
            (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 35) | (1 << 38);
        assert_eq!(
            url,
            format!(
                "https://discord.com/oauth2/authorize?client_id=42&permissions={bits}&scope=bot%20applications.commands"
            )
        );
    }
}
