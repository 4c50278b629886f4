//! serenity's HTTP client: Discord itself, or the configured base URL (the test seam), with
//! the ratelimiter's reports counted for the metrics.

use poise::serenity_prelude as serenity;

use crate::config::BotConfig;
use crate::discord::gateway::telemetry;
use crate::discord::interaction::reply;

/// serenity's HTTP client for `config`: Discord itself, or the configured base URL.
pub fn http_client(config: &BotConfig) -> serenity::Http {
    // Anything sent without its own `allowed_mentions` pings nobody.
    let mut http = serenity::HttpBuilder::new(config.token.expose())
        .default_allowed_mentions(reply::allowed_mentions(&[]));
    if let Some(base) = &config.api_base {
        // serenity 0.12's ratelimiter builds its requests without the proxy (they would go
        // to discord.com), so a base URL only takes effect with it off.
        http = http.proxy(base.url.as_str()).ratelimiter_disabled(true);
    } else {
        // The ratelimiter's reports (429s it retries, buckets it waits out) are counted for
        // the metrics. serenity's client replaces this callback on its own HTTP with one
        // that calls its event handlers (see `telemetry::RateLimits`); the notifier's keeps it.
        let client = reqwest::Client::builder()
            .use_rustls_tls()
            .build()
            .unwrap_or_default();
        let mut limiter =
            serenity::Ratelimiter::new(client.clone(), format!("Bot {}", config.token.expose()));
        limiter.set_ratelimit_callback(Box::new(|info| telemetry::rate_limited(&info)));
        http = http.client(client).ratelimiter(limiter);
    }
    http.build()
}
