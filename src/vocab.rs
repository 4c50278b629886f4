//! The words the store and the game share: where a challenge, a game, an offer stands, a
//! side, a colour choice, a time control's kind, a scheduler event's kind, a rating pool's
//! speed, and the leaderboard's thresholds. The game gives them their meaning; the store
//! keeps their codes (each word's `as_str`, the text stored, and `FromStr`, which reads it
//! back). They live here, below both, because both speak them: the store's rows carry them
//! and its SQL names them (the leaderboard's partial index holds its thresholds), and the
//! store must not import the game, which sits above it. `game` re-exports them as its own.
//! Nothing here knows SQL, and this module imports nothing of the crate.

/// A stored text that is not one of an enum's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} {text:?}")]
pub struct UnknownValue {
    /// The enum (`GameStatus`, ...).
    pub kind: &'static str,
    /// The text found.
    pub text: String,
}

macro_rules! str_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $variant),+ }
        impl $name {
            /// The text stored in the database.
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $text),+ }
            }
        }
        impl std::str::FromStr for $name {
            type Err = UnknownValue;
            /// Reads the text stored in the database.
            fn from_str(s: &str) -> Result<Self, UnknownValue> {
                match s {
                    $($text => Ok(Self::$variant),)+
                    other => Err(UnknownValue { kind: stringify!($name), text: other.to_owned() }),
                }
            }
        }
    };
}

str_enum!(
    /// A side of the board, as stored.
    Side { White = "white", Black = "black" }
);
str_enum!(
    /// The challenger's colour choice, as stored.
    ColourPick { White = "white", Black = "black", Random = "random" }
);
str_enum!(
    /// Where a challenge stands.
    ChallengeStatus {
        /// Waiting for an answer.
        Pending = "pending",
        /// Accepted: a game started.
        Accepted = "accepted",
        /// Declined by the challenged user.
        Declined = "declined",
        /// Withdrawn by the challenger.
        Cancelled = "cancelled",
        /// Nobody answered in time.
        Expired = "expired",
    }
);
str_enum!(
    /// Where a game stands.
    GameStatus {
        /// Being played.
        Active = "active",
        /// Over, with a result.
        Finished = "finished",
        /// Ended without a result before both players moved.
        Aborted = "aborted",
    }
);
str_enum!(
    /// A rating pool's speed (migration 0008): live clocks, or correspondence and untimed
    /// games; Chess960 games of every clock are a pool of their own (migration 0022).
    Speed {
        /// Games with a live clock.
        Live = "live",
        /// Correspondence and untimed games.
        Correspondence = "correspondence",
        /// Chess960 games, whatever their clock.
        Chess960 = "chess960",
    }
);
str_enum!(
    /// Where an attempt at a puzzle stands (migration 0019).
    PuzzleStatus {
        /// The solver is to move.
        Playing = "playing",
        /// Solved.
        Solved = "solved",
        /// A wrong move, or the solution asked for.
        Failed = "failed",
        /// Left for another puzzle in the same place: never rated.
        Abandoned = "abandoned",
    }
);
str_enum!(
    /// Where a draw offer stands.
    OfferStatus {
        /// Standing.
        Open = "open",
        /// Accepted: the game was drawn.
        Accepted = "accepted",
        /// Declined by the opponent.
        Declined = "declined",
        /// The offerer withdrew it.
        Withdrawn = "withdrawn",
        /// The opponent moved instead of answering, or the game ended.
        Lapsed = "lapsed",
    }
);

str_enum!(
    /// The kind of a time control, as stored (migration 0007).
    ClockKind {
        /// No clock.
        Untimed = "untimed",
        /// Days per move.
        Correspondence = "correspondence",
        /// A Fischer clock.
        Live = "live",
    }
);
str_enum!(
    /// What a scheduler event does (migration 0007).
    EventKind {
        /// The player to move runs out of time.
        Timeout = "timeout",
        /// A correspondence reminder to the player to move.
        Reminder = "reminder",
        /// An untimed game's reminder to the player to move, before the opponent may claim.
        IdleReminder = "idle_reminder",
    }
);

str_enum!(
    /// A tournament's format (migration 0023).
    TournamentKind {
        /// lichess's arena: timed, paired continuously, scored by its sheet.
        Arena = "arena",
        /// Every player meets every other, on FIDE's Berger tables.
        RoundRobin = "roundrobin",
    }
);
str_enum!(
    /// Where a tournament stands.
    TournamentStatus {
        /// Announced, not begun: players may join.
        Created = "created",
        /// Under way.
        Started = "started",
        /// Over: its standings are final.
        Finished = "finished",
    }
);
str_enum!(
    /// Where a tournament's player stands.
    EntrantStatus {
        /// In, and paired when free.
        Active = "active",
        /// In, but not paired until they come back (an arena's pause).
        Paused = "paused",
        /// Out for good.
        Withdrawn = "withdrawn",
    }
);

/// A leaderboard lists players with at least this many rated games…
pub const RANKED_MIN_GAMES: u32 = 5;
/// …and a deviation below this as of now, widened by inactivity (the RD the "?" of a
/// provisional rating is shown by). The partial index `ratings_leaderboard` (migrations 0008
/// and 0015) holds those with enough games and a stored RD below it; inactivity only widens
/// the RD, so the listed players are among them.
pub const RANKED_MAX_DEVIATION: f64 = 110.0;
/// How much the square of a player's RD grows per millisecond without games, per unit of
/// their squared volatility: Glicko-2's decay `φ' = √(φ² + t·σ²)` (`t` rating periods,
/// 0.21436 a day, see `game::ratings::glicko`) on the Glicko scale is
/// `RD'² = RD² + ms · RANKED_RD2_PER_MS · σ²`, a test the SQL can make without a square root.
pub const RANKED_RD2_PER_MS: f64 = 0.21436 / 86_400_000.0 * (173.7178 * 173.7178);
