//! The game service's refusals ([`GameError`]) in the player's language, one message per
//! variant, for either front end: the [`Presentation`] writes the places, moments and
//! commands a refusal names. Its English, on the console, is also `GameError`'s `Display`
//! (`error_display.rs`).

use cajitas_rules::Lang;

use super::present::{Command, Presentation};
use super::words::san_in;
use crate::game::{GameError, TimeControl};
use crate::tr;

/// `error` as a player reads it in `lang`, on the front end `p`.
pub fn game_error(lang: Lang, p: Presentation, error: &GameError) -> String {
    let command = |c: Command| p.command(lang, c);
    match error {
        GameError::NoGame => tr!(lang, "error-no-game", command = command(Command::Challenge)),
        GameError::NoFinishedGame => tr!(lang, "error-no-finished-game"),
        GameError::NoPuzzle => tr!(lang, "error-no-puzzle"),
        GameError::UnknownPuzzle(id) => tr!(lang, "error-unknown-puzzle", id = id.as_str()),
        GameError::UnknownTheme(theme) => {
            tr!(lang, "error-unknown-theme", theme = theme.as_str())
        }
        GameError::NoPuzzleLeft => tr!(lang, "error-no-puzzle-left"),
        GameError::NoHintInStreak => tr!(lang, "error-no-hint-in-streak"),
        GameError::NoDailyPuzzle => tr!(lang, "error-no-daily-puzzle"),
        GameError::DailyHourRange => tr!(lang, "error-daily-hour-range"),
        GameError::NoTournament => tr!(lang, "error-no-tournament"),
        GameError::TournamentInChannel => tr!(lang, "error-tournament-in-channel"),
        GameError::ArenaDuration { allowed } => tr!(
            lang,
            "error-arena-duration",
            allowed = allowed
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        GameError::ArenaNeedsLiveClock => tr!(lang, "error-arena-live-clock"),
        GameError::NotInTournament => tr!(lang, "error-not-in-tournament"),
        GameError::TournamentOver => tr!(lang, "error-tournament-over"),
        GameError::NoArenaGame => tr!(lang, "error-no-arena-game"),
        GameError::BerserkTooLate => tr!(lang, "error-berserk-too-late"),
        GameError::AbortInTournament => tr!(lang, "error-abort-in-tournament"),
        GameError::RoundRobinPlayers { min, max } => tr!(
            lang,
            "error-roundrobin-players",
            min = min.to_string(),
            max = max.to_string()
        ),
        GameError::RoundRobinTwice => tr!(lang, "error-roundrobin-twice"),
        GameError::PuzzleRatingRange { min, max } => tr!(
            lang,
            "error-puzzle-rating-range",
            min = super::num(f64::from(*min)),
            max = super::num(f64::from(*max))
        ),
        GameError::GameOver => tr!(
            lang,
            "error-game-over",
            command = command(Command::Challenge)
        ),
        GameError::NotAPlayer => tr!(lang, "error-not-a-player"),
        GameError::NotYourTurn => tr!(lang, "error-not-your-turn"),
        GameError::PositionChanged => tr!(lang, "error-position-changed"),
        GameError::Move(e) => super::read_errors::read_error(lang, e),
        GameError::TooLong { max, .. } => {
            tr!(lang, "error-too-long", max = super::num(*max as f64))
        }
        GameError::EmptyMove => tr!(lang, "error-empty-move"),
        GameError::NoChallenge => tr!(lang, "error-no-challenge"),
        GameError::ChallengeExpired => tr!(
            lang,
            "error-challenge-expired",
            command = command(Command::Challenge)
        ),
        GameError::ChallengeClosed(how) => tr!(lang, "error-challenge-closed", how = *how),
        GameError::CannotChallengeSelf => tr!(lang, "error-challenge-self"),
        GameError::CannotChallengeBot => tr!(lang, "error-challenge-bot"),
        GameError::BotCannotPlay => tr!(lang, "error-bot-cannot-play"),
        GameError::ChallengePending => tr!(lang, "error-challenge-pending"),
        GameError::GameInProgress => tr!(lang, "error-game-in-progress"),
        GameError::NotChallenged => tr!(lang, "error-not-challenged"),
        GameError::OwnChallenge => tr!(
            lang,
            "error-own-challenge",
            command = command(Command::Cancel)
        ),
        GameError::TooManyPings { wait_secs } => tr!(
            lang,
            "error-too-many-pings",
            limit = super::num(crate::game::PING_LIMIT as f64),
            wait = super::num(*wait_secs as f64)
        ),
        GameError::OpenChallengeDecline => tr!(lang, "error-open-challenge-decline"),
        GameError::NotChallenger => tr!(lang, "error-not-challenger"),
        GameError::DrawAlreadyOffered => tr!(lang, "error-draw-already-offered"),
        GameError::NoDrawOffer => tr!(lang, "error-no-draw-offer"),
        GameError::OwnDrawOffer => tr!(lang, "error-own-draw-offer"),
        GameError::NothingToClaim => tr!(lang, "error-nothing-to-claim"),
        GameError::NothingToClaimWith(san) => {
            tr!(lang, "error-nothing-to-claim-with", san = san_in(lang, san))
        }
        GameError::ClaimNotYourTurn => tr!(lang, "error-claim-not-your-turn"),
        GameError::AbortTooLate => tr!(lang, "error-abort-too-late"),
        GameError::NothingToTakeBack => tr!(lang, "error-nothing-to-take-back"),
        GameError::NoTakeback => tr!(lang, "error-no-takeback"),
        GameError::OwnTakeback => tr!(lang, "error-own-takeback"),
        GameError::InGameThread { parent } => {
            tr!(lang, "error-in-game-thread", parent = p.place(*parent))
        }
        GameError::SeveralGames { threads } => {
            tr!(lang, "error-several-games", links = places(p, threads))
        }
        GameError::GamesInThreads { threads } => {
            tr!(lang, "error-games-in-threads", links = places(p, threads))
        }
        GameError::TooManyEngineGames {
            limit,
            places: games,
        } => tr!(
            lang,
            "error-too-many-engine-games",
            limit = super::num(f64::from(*limit)),
            links = places(p, games)
        ),
        GameError::SeveralChallenges => tr!(lang, "error-several-challenges"),
        GameError::TimeRanOut { .. } => tr!(lang, "error-time-ran-out"),
        GameError::ClaimNotUntimed => tr!(lang, "error-claim-not-untimed"),
        GameError::ClaimAgainstEngine => tr!(lang, "error-claim-against-engine"),
        GameError::ClaimOwnTurn => tr!(lang, "error-claim-own-turn"),
        GameError::ClaimTooEarly { at_ms, as_of_ms } => tr!(
            lang,
            "error-claim-too-early",
            // Only an untimed game can be claimed.
            at = p.moment(lang, *at_ms, *as_of_ms, TimeControl::Untimed)
        ),
        GameError::TakebackInRatedGame => tr!(lang, "error-takeback-rated"),
        GameError::Failed(_) => tr!(lang, "error-internal"),
    }
}

/// Threads as `p` names them (Discord: links, shown as the threads' names), one after the
/// other. Only Discord has threads.
fn places(p: Presentation, threads: &[u64]) -> String {
    threads
        .iter()
        .map(|&t| p.place(t))
        .collect::<Vec<_>>()
        .join(" ")
}
