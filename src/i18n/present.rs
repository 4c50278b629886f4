//! How a front end shows the facts a sentence names: a player, a channel or thread, a moment,
//! a command. The sentences are worded once (the Fluent files) and take these as
//! placeables; a [`Presentation`] decides their form, so that Discord and the console word
//! each fact through the same function and the console never prints Discord markup.

use cajitas_rules::Lang;

use crate::game::calendar::CivilDate;
use crate::game::{TimeControl, UserRef};
use crate::tr;

/// Where a text is shown, and so how the facts it names are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presentation {
    /// Discord: players are mentions, places are links (`<#id>`), moments are Discord
    /// timestamps (`<t:UNIX:R>`, each client shows its own time zone), commands are the slash
    /// commands' names in the reader's language (`/claim-win`, `/reclamar-victoria`).
    Discord,
    /// `cajitas local`: players and places are plain names, moments the UTC date and the time
    /// left (`2030-06-08 12:00:00 UTC (~4 d 0 h)`), commands the console's words
    /// (`claim-win`).
    Console,
}

/// A command a sentence tells the reader to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// `/challenge`, the console's `challenge`.
    Challenge,
    /// `/cancel`, the console's `cancel`.
    Cancel,
    /// `/claim-win`, the console's `claim-win`.
    ClaimWin,
}

impl Command {
    /// The slash command's Fluent id (its localized `.name`), and the console's word.
    fn ids(self) -> (&'static str, &'static str) {
        match self {
            Command::Challenge => ("cmd-challenge", "challenge"),
            Command::Cancel => ("cmd-cancel", "cancel"),
            Command::ClaimWin => ("cmd-claim-win", "claim-win"),
        }
    }
}

impl Presentation {
    /// A text with Discord's bold marks (`**`): kept on Discord, dropped for a terminal.
    pub fn bold(self, text: String) -> String {
        match self {
            Presentation::Discord => text,
            Presentation::Console => text.replace("**", ""),
        }
    }

    /// A player: Discord mentions a person (`<@id>`) and writes the engine, which has no
    /// account, in bold; the console writes the name.
    pub fn player(self, u: &UserRef) -> String {
        match (self, u.engine_level()) {
            (Presentation::Discord, Some(_)) => format!("**{}**", u.name),
            (Presentation::Discord, None) => format!("<@{}>", u.id),
            (Presentation::Console, _) => u.name.clone(),
        }
    }

    /// A channel or thread: Discord links it (`<#id>`, shown as its name); the console,
    /// which has no threads of its own, writes its number (`#id`).
    pub fn place(self, id: u64) -> String {
        match self {
            Presentation::Discord => format!("<#{id}>"),
            Presentation::Console => format!("#{id}"),
        }
    }

    /// The moment `at_ms` (Unix ms) as seen at `as_of_ms`: a Discord timestamp counting down,
    /// or the console's UTC date and the time left (written as `control`'s clocks are).
    pub fn moment(self, lang: Lang, at_ms: i64, as_of_ms: i64, control: TimeControl) -> String {
        match self {
            Presentation::Discord => format!("<t:{}:R>", at_ms.div_euclid(1000)),
            Presentation::Console => {
                let left = (at_ms - as_of_ms).max(0);
                let secs = at_ms.div_euclid(1000);
                let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
                let date = CivilDate::of_days(days);
                format!(
                    "{date} {:02}:{:02}:{:02} UTC (~{})",
                    rem / 3600,
                    rem / 60 % 60,
                    rem % 60,
                    remaining(lang, control, left)
                )
            }
        }
    }

    /// The day of the moment `at_ms` (Unix ms): a Discord timestamp showing the date in each
    /// reader's time zone (`<t:UNIX:d>`), or the console's UTC date (`2030-06-08`).
    pub fn day(self, at_ms: i64) -> String {
        match self {
            Presentation::Discord => format!("<t:{}:d>", at_ms.div_euclid(1000)),
            Presentation::Console => CivilDate::of_unix_ms(at_ms).to_string(),
        }
    }

    /// A command, quoted as the reader types it: `` `/claim-win` `` (the slash command's
    /// name in `lang`) or `` `claim-win` `` (the console's word).
    pub fn command(self, lang: Lang, c: Command) -> String {
        let (slash, word) = c.ids();
        match self {
            Presentation::Discord => format!("`/{}`", tr!(lang, &format!("{slash}.name"))),
            Presentation::Console => format!("`{word}`"),
        }
    }
}

/// A remaining time in `lang`: `4:05` or `1:02:03` under a day (live clocks), `2 d 5 h`
/// (correspondence) or `5 h 3 min` over an hour for days-per-move games.
pub fn remaining(lang: Lang, tc: TimeControl, ms: i64) -> String {
    let secs = ms.max(0) / 1000;
    let (d, h, m, s) = (secs / 86_400, secs / 3600 % 24, secs / 60 % 60, secs % 60);
    match tc {
        TimeControl::Live { .. } if secs >= 3600 => tr!(
            lang,
            "clock-hms",
            hours = (secs / 3600).to_string(),
            minutes = format!("{m:02}"),
            seconds = format!("{s:02}")
        ),
        TimeControl::Live { .. } => tr!(
            lang,
            "clock-ms",
            minutes = (secs / 60).to_string(),
            seconds = format!("{s:02}")
        ),
        _ if d > 0 => tr!(
            lang,
            "clock-days",
            days = d.to_string(),
            hours = h.to_string()
        ),
        _ => tr!(
            lang,
            "clock-hours",
            hours = h.to_string(),
            minutes = m.to_string()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_fact_in_each_presentation() {
        let (d, c) = (Presentation::Discord, Presentation::Console);
        let u = UserRef::new(42, "ana", false);
        assert_eq!(d.player(&u), "<@42>");
        assert_eq!(c.player(&u), "ana");
        assert_eq!(d.place(7), "<#7>");
        assert_eq!(c.place(7), "#7");
        // 2030-06-08 12:00 UTC, seen four days before.
        let at = 1_907_150_400_000;
        let tc = TimeControl::Untimed;
        assert_eq!(
            d.moment(Lang::En, at, at - 4 * 86_400_000, tc),
            "<t:1907150400:R>"
        );
        assert_eq!(
            c.moment(Lang::En, at, at - 4 * 86_400_000, tc),
            "2030-06-08 12:00:00 UTC (~4 d 0 h)"
        );
        assert_eq!(d.day(at), "<t:1907150400:d>");
        assert_eq!(c.day(at), "2030-06-08");
        assert_eq!(d.command(Lang::En, Command::ClaimWin), "`/claim-win`");
        assert_eq!(
            d.command(Lang::Es, Command::ClaimWin),
            "`/reclamar-victoria`"
        );
        assert_eq!(d.command(Lang::Es, Command::Challenge), "`/desafiar`");
        assert_eq!(c.command(Lang::Es, Command::ClaimWin), "`claim-win`");
    }
}
