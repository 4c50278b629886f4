//! Every text a player reads, in English and Spanish: Project Fluent bundles
//! (`assets/i18n/en/*.ftl`, `assets/i18n/es/*.ftl`), embedded in the binary and parsed once.
//!
//! Code builds no sentences: it names a message and passes its arguments ([`tr!`](crate::tr)); plurals and
//! numbers go through Fluent's rules. A message missing from one language falls back to
//! English and is logged; the tests compare both bundles id by id and attribute by attribute,
//! so a missing translation is a test failure, never a panic nor a raw id in front of a user.
//!
//! Placeables are not wrapped in Unicode isolation marks (U+2068/U+2069): they would end up
//! inside names, moves, mentions and autocomplete values.

pub mod challenges;
pub mod cli;
pub mod clock;
mod error_display;
mod game_errors;
pub mod notices;
pub mod present;
pub mod puzzles;
pub mod ratings;
mod read_errors;
pub mod round_robins;
pub mod status;
pub mod tournaments;
mod words;

use std::sync::LazyLock;

use cajitas_rules::Lang;
pub use fluent_bundle::FluentArgs;

pub use self::game_errors::game_error;
pub use self::present::Presentation;
pub use self::read_errors::read_error;
pub use self::words::{colour_key, list_and, list_or, role_key, san_in};
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentResource, FluentValue};

/// The Fluent sources of each language, in the order they are added to its bundle.
const SOURCES: [(Lang, &[&str]); 2] = [
    (
        Lang::En,
        &[
            include_str!("../../assets/i18n/en/cajitas.ftl"),
            include_str!("../../assets/i18n/en/commands.ftl"),
            include_str!("../../assets/i18n/en/console.ftl"),
            include_str!("../../assets/i18n/en/threads.ftl"),
            include_str!("../../assets/i18n/en/clocks.ftl"),
            include_str!("../../assets/i18n/en/ratings.ftl"),
            include_str!("../../assets/i18n/en/engine.ftl"),
            include_str!("../../assets/i18n/en/cli.ftl"),
            include_str!("../../assets/i18n/en/puzzles.ftl"),
            include_str!("../../assets/i18n/en/tournaments.ftl"),
        ],
    ),
    (
        Lang::Es,
        &[
            include_str!("../../assets/i18n/es/cajitas.ftl"),
            include_str!("../../assets/i18n/es/commands.ftl"),
            include_str!("../../assets/i18n/es/console.ftl"),
            include_str!("../../assets/i18n/es/threads.ftl"),
            include_str!("../../assets/i18n/es/clocks.ftl"),
            include_str!("../../assets/i18n/es/ratings.ftl"),
            include_str!("../../assets/i18n/es/engine.ftl"),
            include_str!("../../assets/i18n/es/cli.ftl"),
            include_str!("../../assets/i18n/es/puzzles.ftl"),
            include_str!("../../assets/i18n/es/tournaments.ftl"),
        ],
    ),
];

struct Bundles {
    en: FluentBundle<FluentResource>,
    es: FluentBundle<FluentResource>,
}

static BUNDLES: LazyLock<Bundles> = LazyLock::new(|| Bundles {
    en: bundle(Lang::En),
    es: bundle(Lang::Es),
});

fn bundle(lang: Lang) -> FluentBundle<FluentResource> {
    let id: unic_langid::LanguageIdentifier = match lang {
        Lang::En => "en-US",
        Lang::Es => "es-ES",
    }
    .parse()
    .expect("a valid language identifier");
    let mut b = FluentBundle::new_concurrent(vec![id]);
    b.set_use_isolating(false);
    for (l, sources) in SOURCES {
        if l != lang {
            continue;
        }
        for src in sources {
            // The files are ours and embedded: a syntax error is caught by the tests; what
            // parsed is still used.
            let res = FluentResource::try_new((*src).to_owned()).unwrap_or_else(|(r, errors)| {
                tracing::error!(?lang, ?errors, "Fluent syntax errors");
                r
            });
            if let Err(errors) = b.add_resource(res) {
                tracing::error!(?lang, ?errors, "duplicate Fluent messages");
            }
        }
    }
    b
}

fn of(lang: Lang) -> &'static FluentBundle<FluentResource> {
    match lang {
        Lang::En => &BUNDLES.en,
        Lang::Es => &BUNDLES.es,
    }
}

/// The language of a Discord locale: `es-ES` and `es-419` (and any other `es…`) are Spanish,
/// everything else English.
pub fn lang_of_locale(locale: Option<&str>) -> Lang {
    match locale {
        Some(l) if l == "es" || l.starts_with("es-") => Lang::Es,
        _ => Lang::En,
    }
}

/// The text of message `id` (or of its attribute, with `id.attr`) in `lang`, with `args`.
/// Falls back to English, then to a neutral ellipsis, when the message is missing.
pub fn text(lang: Lang, id: &str, args: Option<&FluentArgs<'_>>) -> String {
    format(lang, id, args)
        .or_else(|| {
            tracing::error!(lang = lang.code(), id, "missing translation");
            format(Lang::En, id, args)
        })
        .unwrap_or_else(|| "…".to_owned())
}

fn format(lang: Lang, id: &str, args: Option<&FluentArgs<'_>>) -> Option<String> {
    let bundle = of(lang);
    let (msg_id, attr) = match id.split_once('.') {
        Some((m, a)) => (m, Some(a)),
        None => (id, None),
    };
    let msg = bundle.get_message(msg_id)?;
    let pattern = match attr {
        Some(a) => msg.get_attribute(a)?.value(),
        None => msg.value()?,
    };
    let mut errors = Vec::new();
    let out = bundle.format_pattern(pattern, args, &mut errors);
    if !errors.is_empty() {
        tracing::error!(lang = lang.code(), id, ?errors, "Fluent formatting errors");
    }
    Some(out.into_owned())
}

/// Whether `lang` has message `id` (or attribute `id.attr`).
pub fn has(lang: Lang, id: &str) -> bool {
    let bundle = of(lang);
    match id.split_once('.') {
        Some((m, a)) => bundle
            .get_message(m)
            .is_some_and(|msg| msg.get_attribute(a).is_some()),
        None => bundle.get_message(id).is_some_and(|m| m.value().is_some()),
    }
}

/// Every message id of `lang`'s sources with its attribute names (for the parity tests).
pub fn catalogue(lang: Lang) -> Vec<(String, Vec<String>)> {
    use fluent_syntax::ast::Entry;
    let mut out = Vec::new();
    for (l, sources) in SOURCES {
        if l != lang {
            continue;
        }
        for src in sources {
            let Ok(res) = fluent_syntax::parser::parse(*src) else {
                continue;
            };
            for entry in res.body {
                if let Entry::Message(m) = entry {
                    let attrs = m.attributes.iter().map(|a| a.id.name.to_owned()).collect();
                    out.push((m.id.name.to_owned(), attrs));
                }
            }
        }
    }
    out
}

/// A number for Fluent (plural rules, number formatting).
pub fn num(n: impl Into<f64>) -> FluentValue<'static> {
    FluentValue::from(n.into())
}

/// `tr!(lang, "id")` or `tr!(lang, "id", name = value, …)`: the text of a message. Values are
/// anything `Into<FluentValue>` (strings, numbers).
#[macro_export]
macro_rules! tr {
    ($lang:expr, $id:expr) => {
        $crate::i18n::text($lang, $id, None)
    };
    ($lang:expr, $id:expr, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = $crate::i18n::FluentArgs::new();
        $( args.set(stringify!($name), $value); )+
        $crate::i18n::text($lang, $id, Some(&args))
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_have_the_same_messages_and_attributes() {
        let mut en = catalogue(Lang::En);
        let mut es = catalogue(Lang::Es);
        assert!(!en.is_empty());
        en.sort();
        es.sort();
        for ((id_en, attrs_en), (id_es, attrs_es)) in en.iter().zip(&es) {
            assert_eq!(id_en, id_es, "message ids differ");
            let (mut a, mut b) = (attrs_en.clone(), attrs_es.clone());
            a.sort();
            b.sort();
            assert_eq!(a, b, "attributes of {id_en} differ");
        }
        assert_eq!(en.len(), es.len(), "one language has more messages");
    }

    #[test]
    fn the_sources_parse_without_errors() {
        for (lang, sources) in SOURCES {
            for src in sources {
                if let Err((_, errors)) = FluentResource::try_new((*src).to_owned()) {
                    panic!("{lang:?}: {errors:?}");
                }
            }
        }
    }

    #[test]
    fn no_message_is_defined_twice() {
        for (lang, sources) in SOURCES {
            let id: unic_langid::LanguageIdentifier = "en-US".parse().unwrap();
            let mut b = FluentBundle::new_concurrent(vec![id]);
            for src in sources {
                let res = FluentResource::try_new((*src).to_owned()).unwrap();
                if let Err(errors) = b.add_resource(res) {
                    panic!("{lang:?}: {errors:?}");
                }
            }
        }
    }

    #[test]
    fn no_isolation_marks_and_plurals_work() {
        let s = tr!(Lang::Es, "check");
        assert!(!s.contains('\u{2068}') && !s.contains('\u{2069}'), "{s:?}");
        assert_eq!(lang_of_locale(Some("es-419")), Lang::Es);
        assert_eq!(lang_of_locale(Some("es-ES")), Lang::Es);
        assert_eq!(lang_of_locale(Some("en-GB")), Lang::En);
        assert_eq!(lang_of_locale(None), Lang::En);
    }
}

#[cfg(test)]
pub(crate) mod variant_tests {
    use cajitas_rules::{
        CastleProblem, CastlingSide, File, IllegalReason, Malformed, Rank, ReadError,
        ReadErrorKind, Role, Square,
    };

    use super::*;
    use crate::game::GameError;

    /// A rendered text: no fallback, no raw id, no unresolved placeable, no isolation mark.
    #[track_caller]
    pub(crate) fn assert_rendered(en: &str, es: &str) {
        for s in [en, es] {
            assert!(!s.is_empty() && s != "…", "{s:?}");
            assert!(!s.contains('{') && !s.contains('}'), "{s:?}");
            assert!(!s.contains('\u{2068}') && !s.contains('\u{2069}'), "{s:?}");
            for prefix in ["error-", "read-", "role-", "refusal-", "status-"] {
                assert!(!s.contains(prefix), "{s:?}");
            }
        }
        assert_ne!(en, es, "not translated");
    }

    fn sans(texts: &[&str]) -> Vec<cajitas_rules::San> {
        texts.iter().map(|t| t.parse().unwrap()).collect()
    }

    fn read_errors() -> Vec<ReadError> {
        let mut kinds = vec![
            ReadErrorKind::Ambiguous {
                candidates: sans(&["Nbd2", "Nfd2"]),
            },
            ReadErrorKind::IncompletePromotion {
                to: Square::E8,
                choices: Role::PROMOTIONS.to_vec(),
            },
        ];
        for problem in [
            Malformed::Empty,
            Malformed::TooLong { max: 32 },
            Malformed::NullMove,
            Malformed::UnknownPiece { letter: 'X' },
            Malformed::NoDestination,
            Malformed::TrailingText { text: "zz".into() },
            Malformed::Unreadable,
        ] {
            kinds.push(ReadErrorKind::Malformed { problem });
        }
        let mut reasons = vec![
            IllegalReason::NoLegalMoves,
            IllegalReason::PawnCaptureWithoutFile { to: Square::D5 },
            IllegalReason::EmptySquare { square: Square::E4 },
            IllegalReason::InCheck,
            IllegalReason::KingWouldBeInCheck,
            IllegalReason::NotAPromotion,
            IllegalReason::NotLegal,
            IllegalReason::WrongPiece {
                square: Square::G1,
                found: Role::Knight,
                named: Role::Queen,
            },
        ];
        for role in Role::ALL {
            reasons.extend([
                IllegalReason::NoSuchPiece { role },
                IllegalReason::CannotPromoteTo { role },
                IllegalReason::NotYourPiece {
                    square: Square::E5,
                    role,
                },
                IllegalReason::OwnPieceThere {
                    square: Square::E2,
                    role,
                },
                IllegalReason::Pinned {
                    role,
                    square: Square::C3,
                },
            ]);
            for (from_file, from_rank) in [
                (None, None),
                (Some(File::B), None),
                (None, Some(Rank::Second)),
                (Some(File::B), Some(Rank::First)),
            ] {
                reasons.push(IllegalReason::CannotReach {
                    role,
                    from_file,
                    from_rank,
                    to: Square::F3,
                });
            }
        }
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            for problem in [
                CastleProblem::KingMoved,
                CastleProblem::RookMoved,
                CastleProblem::PiecesInTheWay,
                CastleProblem::OutOfCheck,
                CastleProblem::ThroughAttackedSquare,
                CastleProblem::IntoCheck,
            ] {
                reasons.push(IllegalReason::Castle { side, problem });
            }
        }
        kinds.extend(
            reasons
                .into_iter()
                .map(|reason| ReadErrorKind::Illegal { reason }),
        );
        kinds
            .into_iter()
            .map(|kind| ReadError {
                kind,
                suggestions: sans(&["Nf3", "Ne2", "Nc3"]),
            })
            .collect()
    }

    #[test]
    fn every_read_error_variant_renders_in_both_languages() {
        for e in read_errors() {
            let (en, es) = (read_error(Lang::En, &e), read_error(Lang::Es, &e));
            assert_rendered(&en, &es);
        }
        let e = ReadError {
            kind: ReadErrorKind::Illegal {
                reason: IllegalReason::CannotReach {
                    role: Role::Knight,
                    from_file: None,
                    from_rank: None,
                    to: Square::F3,
                },
            },
            suggestions: sans(&["Nf3", "Ne2", "Nc3"]),
        };
        assert_eq!(
            read_error(Lang::Es, &e),
            "Ningún caballo puede llegar a f3. ¿Quisiste decir Cf3, Ce2 o Cc3?"
        );
        // English stays what the rules crate says.
        assert_eq!(read_error(Lang::En, &e), e.to_string());
    }

    #[test]
    fn english_read_errors_match_the_rules_crate() {
        for e in read_errors() {
            assert_eq!(read_error(Lang::En, &e), e.to_string(), "{e:?}");
        }
    }

    #[test]
    fn every_game_error_variant_renders_in_both_languages() {
        let all = vec![
            GameError::NoGame,
            GameError::GameOver,
            GameError::NotAPlayer,
            GameError::NotYourTurn,
            GameError::PositionChanged,
            GameError::Move(read_errors().remove(0)),
            GameError::TooLong {
                what: "move",
                max: 32,
            },
            GameError::EmptyMove,
            GameError::NoChallenge,
            GameError::ChallengeExpired,
            GameError::ChallengeClosed("accepted"),
            GameError::ChallengeClosed("declined"),
            GameError::ChallengeClosed("cancelled"),
            GameError::CannotChallengeSelf,
            GameError::CannotChallengeBot,
            GameError::BotCannotPlay,
            GameError::ChallengePending,
            GameError::GameInProgress,
            GameError::NotChallenged,
            GameError::OwnChallenge,
            GameError::TooManyPings { wait_secs: 42 },
            GameError::OpenChallengeDecline,
            GameError::NotChallenger,
            GameError::DrawAlreadyOffered,
            GameError::NoDrawOffer,
            GameError::OwnDrawOffer,
            GameError::NothingToTakeBack,
            GameError::NoTakeback,
            GameError::OwnTakeback,
            GameError::TakebackInRatedGame,
            GameError::NoFinishedGame,
            GameError::NoPuzzle,
            GameError::UnknownPuzzle("zzzzz".into()),
            GameError::UnknownTheme("nothing".into()),
            GameError::NoPuzzleLeft,
            GameError::NoHintInStreak,
            GameError::NoDailyPuzzle,
            GameError::DailyHourRange,
            GameError::NoTournament,
            GameError::TournamentInChannel,
            GameError::ArenaDuration {
                allowed: &[30, 45, 60, 90],
            },
            GameError::ArenaNeedsLiveClock,
            GameError::NotInTournament,
            GameError::TournamentOver,
            GameError::NoArenaGame,
            GameError::BerserkTooLate,
            GameError::AbortInTournament,
            GameError::RoundRobinPlayers { min: 3, max: 16 },
            GameError::RoundRobinTwice,
            GameError::PuzzleRatingRange {
                min: 400,
                max: 3200,
            },
            GameError::NothingToClaim,
            GameError::NothingToClaimWith("Nf3".into()),
            GameError::ClaimNotYourTurn,
            GameError::AbortTooLate,
            GameError::InGameThread { parent: 7 },
            GameError::SeveralGames {
                threads: vec![8, 9],
            },
            GameError::GamesInThreads { threads: vec![8] },
            GameError::SeveralChallenges,
            GameError::TimeRanOut { notices: vec![] },
            GameError::ClaimNotUntimed,
            GameError::ClaimAgainstEngine,
            GameError::ClaimOwnTurn,
            GameError::ClaimTooEarly {
                at_ms: 1_000_000,
                as_of_ms: 0,
            },
            GameError::Failed(crate::game::Failure::Vanished("x".into())),
        ];
        for p in [Presentation::Discord, Presentation::Console] {
            for e in &all {
                let (en, es) = (game_error(Lang::En, p, e), game_error(Lang::Es, p, e));
                assert_rendered(&en, &es);
                // The console never prints Discord markup: no links, timestamps, mentions
                // nor slash commands.
                if p == Presentation::Console {
                    for text in [&en, &es] {
                        for markup in ["<#", "<t:", "<@", "`/"] {
                            assert!(!text.contains(markup), "{markup} in {text:?}");
                        }
                    }
                }
            }
        }
        let claim = GameError::NothingToClaimWith("Nf3".into());
        assert!(game_error(Lang::Es, Presentation::Discord, &claim).contains("Cf3"));
        // Each fact as its front end writes it.
        let early = GameError::ClaimTooEarly {
            at_ms: 1_907_150_401_000,
            as_of_ms: 1_907_150_401_000 - 4 * 86_400_000,
        };
        assert_eq!(
            game_error(Lang::En, Presentation::Discord, &early),
            "Your opponent still has time to move: you can claim the game <t:1907150401:R>."
        );
        assert_eq!(
            game_error(Lang::En, Presentation::Console, &early),
            "Your opponent still has time to move: you can claim the game \
             2030-06-08 12:00:01 UTC (~4 d 0 h)."
        );
        let own = GameError::OwnChallenge;
        assert!(game_error(Lang::Es, Presentation::Discord, &own).contains("`/cancelar`"));
        assert!(game_error(Lang::Es, Presentation::Console, &own).contains("`cancel`"));
        let places = GameError::SeveralGames {
            threads: vec![8, 9],
        };
        assert!(game_error(Lang::En, Presentation::Discord, &places).contains("<#8> <#9>"));
        assert!(game_error(Lang::En, Presentation::Console, &places).contains("#8 #9"));
    }

    #[test]
    fn every_draw_and_win_reason_and_termination_renders_in_both_languages() {
        use cajitas_rules::{DrawReason, WinReason};
        for r in DrawReason::ALL {
            let t = |l| tr!(l, "status-draw", reason = r.as_str(), result = "1/2-1/2");
            assert_rendered(&t(Lang::En), &t(Lang::Es));
            let t = |l| tr!(l, "termination", termination = r.as_str());
            assert_rendered(&t(Lang::En), &t(Lang::Es));
        }
        for r in WinReason::ALL {
            let t = |l| tr!(l, "termination", termination = r.as_str());
            assert_rendered(&t(Lang::En), &t(Lang::Es));
        }
        assert_eq!(
            tr!(
                Lang::Es,
                "status-draw",
                reason = "threefold-repetition",
                result = "½-½"
            ),
            "Tablas por triple repetición de jugadas, ½-½."
        );
    }
}
