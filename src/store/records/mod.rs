//! One file per kind of record: its trait (what the game service may ask of it) and that
//! trait's one implementation, for every [`Backend`](super::sql::Backend), with the record's
//! statements written once (see [`super::sql`]). A new kind of record is one file here, plus
//! its migration for each backend.

mod bookkeeping;
mod challenges;
mod daily;
mod engines;
mod events;
mod games;
mod offers;
mod puzzles;
mod ratings;
mod server_puzzles;
mod takebacks;
mod tournaments;
mod users;

pub use self::bookkeeping::{Interactions, Pings, Settings};
pub use self::challenges::Challenges;
pub use self::daily::{Daily, DailyRow, DailySettingRow};
pub use self::engines::Engines;
pub use self::events::ClockEvents;
pub use self::games::Games;
pub use self::offers::DrawOffers;
pub use self::puzzles::{AttemptStep, NewAttempt, Puzzles};
pub use self::ratings::Ratings;
pub use self::server_puzzles::{NewServerPuzzle, PuzzleSearchRow, ServerPuzzleRow, ServerPuzzles};
pub use self::takebacks::Takebacks;
pub use self::tournaments::{
    EntrantRow, NewTournament, PAIRING_POST_LEASE_MS, PairingResult, PairingRow,
    STANDINGS_EDIT_EVERY_MS, TournamentRow, Tournaments,
};
pub use self::users::Users;

/// An open transaction: every kind of record, read and written in it.
pub trait Tx:
    Users
    + Challenges
    + Games
    + DrawOffers
    + Takebacks
    + Pings
    + Settings
    + Interactions
    + ClockEvents
    + Ratings
    + Engines
    + Puzzles
    + Daily
    + Tournaments
    + ServerPuzzles
{
}

impl<
    T: Users
        + Challenges
        + Games
        + DrawOffers
        + Takebacks
        + Pings
        + Settings
        + Interactions
        + ClockEvents
        + Ratings
        + Engines
        + Puzzles
        + Daily
        + Tournaments
        + ServerPuzzles,
> Tx for T
{
}
