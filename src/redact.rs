//! Secrets kept out of what is printed and logged: a URL without its user information.
//! Below every room (config, the store and the front ends all use it), so it imports nothing.

/// `url` without what may be secret in it: the user information (`user:password@`), the
/// query and the fragment. For logs and messages.
///
/// A password may hold `/`, `?` or `#` unescaped (PostgreSQL's URL parser takes the user
/// information up to an `@`), so everything before the last `@` is dropped before the path,
/// query and fragment are looked for: an `@` in a query only hides more.
pub fn redact_url(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, url),
    };
    let (user_info, rest) = match rest.rsplit_once('@') {
        Some((_, rest)) => ("[redacted]@", rest),
        None => ("", rest),
    };
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    match scheme {
        Some(scheme) => format!("{scheme}://{user_info}{rest}"),
        None => format!("{user_info}{rest}"),
    }
}
