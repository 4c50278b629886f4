//! The console's command parser, line by line.

use super::*;

fn p(line: &str) -> Result<Option<Command>, CommandError> {
    Command::parse(line)
}

#[test]
fn blank_lines_and_comments_are_nothing() {
    assert_eq!(p(""), Ok(None));
    assert_eq!(p("   "), Ok(None));
    assert_eq!(p("# a comment"), Ok(None));
}

#[test]
fn play_arguments() {
    let play = |level, colour| Ok(Some(Command::Play { level, colour }));
    assert_eq!(p("play"), play(1, ColourChoice::Random));
    assert_eq!(p("play 8"), play(8, ColourChoice::Random));
    assert_eq!(p("play 3 black"), play(3, ColourChoice::Black));
    assert_eq!(p("PLAY blancas 5"), play(5, ColourChoice::White));
    for bad in [
        "play 0",
        "play 9",
        "play 2 3",
        "play white black",
        "play hard",
    ] {
        assert_eq!(p(bad), Err(CommandError::Usage(PLAY_USAGE)), "{bad}");
    }
}

#[test]
fn challenge_arguments() {
    let ch = |opponent: Option<&str>, colour| {
        Ok(Some(Command::Challenge {
            opponent: opponent.map(str::to_owned),
            colour,
            time: TimeControl::DEFAULT,
            rated: true,
            chess960: None,
        }))
    };
    assert_eq!(p("challenge"), ch(None, ColourChoice::Random));
    assert_eq!(p("challenge white"), ch(None, ColourChoice::White));
    assert_eq!(
        p("CHALLENGE bob negras"),
        ch(Some("bob"), ColourChoice::Black)
    );
    assert_eq!(p("challenge bob"), ch(Some("bob"), ColourChoice::Random));
    assert_eq!(
        p("challenge bob black 5+3"),
        Ok(Some(Command::Challenge {
            opponent: Some("bob".into()),
            colour: ColourChoice::Black,
            time: TimeControl::Live {
                base_secs: 300,
                increment_secs: 3
            },
            rated: true,
            chess960: None,
        }))
    );
    assert_eq!(
        p("challenge untimed"),
        Ok(Some(Command::Challenge {
            opponent: None,
            colour: ColourChoice::Random,
            time: TimeControl::Untimed,
            rated: true,
            chess960: None,
        }))
    );
    assert!(p("challenge bob 4d").is_err());
    for (line, chess960) in [
        ("challenge bob chess960", Some(None)),
        ("challenge Chess960:518 bob", Some(Some(518))),
        ("challenge bob chess960:0", Some(Some(0))),
    ] {
        assert_eq!(
            p(line),
            Ok(Some(Command::Challenge {
                opponent: Some("bob".into()),
                colour: ColourChoice::Random,
                time: TimeControl::DEFAULT,
                rated: true,
                chess960,
            })),
            "{line}"
        );
    }
    for bad in [
        "challenge bob chess960:960",
        "challenge bob chess960:x",
        "challenge bob chess960:",
        "challenge chess960 chess960:3",
    ] {
        assert!(matches!(p(bad), Err(CommandError::Usage(_))), "{bad}");
    }
    assert_eq!(
        p("claim-win draw"),
        Ok(Some(Command::ClaimWin { draw: true }))
    );
    assert_eq!(
        p("challenge bob green"),
        Err(CommandError::UnknownColour("green".into()))
    );
    assert!(matches!(p("challenge a b c"), Err(CommandError::Usage(_))));
    assert_eq!(
        p("challenge bob rated:false black"),
        Ok(Some(Command::Challenge {
            opponent: Some("bob".into()),
            colour: ColourChoice::Black,
            time: TimeControl::DEFAULT,
            rated: false,
            chess960: None,
        }))
    );
    assert_eq!(
        p("challenge Rated:True"),
        Ok(Some(Command::Challenge {
            opponent: None,
            colour: ColourChoice::Random,
            time: TimeControl::DEFAULT,
            rated: true,
            chess960: None,
        }))
    );
    assert!(matches!(
        p("challenge rated:maybe"),
        Err(CommandError::Usage(_))
    ));
    // The options in any order, each once.
    let live = TimeControl::Live {
        base_secs: 1800,
        increment_secs: 20,
    };
    for line in [
        "challenge bob 30+20 white",
        "challenge white bob 30+20",
        "challenge 30+20 white bob",
        "challenge rated:false 30+20 bob white",
    ] {
        assert_eq!(
            p(line),
            Ok(Some(Command::Challenge {
                opponent: Some("bob".into()),
                colour: ColourChoice::White,
                time: live,
                rated: !line.contains("rated:false"),
                chess960: None,
            })),
            "{line}"
        );
    }
    for bad in [
        "challenge bob white black",
        "challenge bob 3d 5+3",
        "challenge rated:false bob rated:true",
        "challenge 4+4 bob",
        "challenge bob carol white",
    ] {
        assert!(matches!(p(bad), Err(CommandError::Usage(_))), "{bad}");
    }
}

#[test]
fn spanish_words_in_a_spanish_console() {
    let es = |line| Command::parse_in(line, Lang::Es);
    for (line, c) in [
        ("ayuda", Command::Help),
        ("salir", Command::Quit),
        ("aceptar", Command::Accept),
        ("rechazar", Command::Decline),
        ("cancelar", Command::Cancel),
        ("rendirse", Command::Resign),
        ("anular", Command::Abort),
        ("tablero", Command::Board),
        ("historial", Command::History),
        ("Estadísticas bob", Command::Stats(Some("bob".into()))),
        (
            "clasificación en-vivo",
            Command::Leaderboard(Some(Speed::Live)),
        ),
        ("tablas ofrecer", Command::Draw(DrawAction::Offer)),
        ("tablas Reclamar", Command::Draw(DrawAction::Claim)),
        ("deshacer", Command::Takeback(TakebackAction::Request)),
        (
            "deshacer aceptar",
            Command::Takeback(TakebackAction::Accept),
        ),
        (
            "deshacer rechazar",
            Command::Takeback(TakebackAction::Decline),
        ),
        ("reclamar-victoria tablas", Command::ClaimWin { draw: true }),
        (
            "jugar 3 negras",
            Command::Play {
                level: 3,
                colour: ColourChoice::Black,
            },
        ),
        (
            "jugada Cf3 reclamar",
            Command::Move {
                text: "Cf3".into(),
                claim: true,
            },
        ),
        (
            "desafiar puntuada:no al-azar bob 1d",
            Command::Challenge {
                opponent: Some("bob".into()),
                colour: ColourChoice::Random,
                time: TimeControl::Correspondence { days: 1 },
                rated: false,
                chess960: None,
            },
        ),
        // The English words work in Spanish too.
        ("accept", Command::Accept),
        ("draw offer", Command::Draw(DrawAction::Offer)),
    ] {
        assert_eq!(es(line), Ok(Some(c)), "{line}");
    }
    // In English the Spanish words are not commands.
    assert_eq!(p("salir"), Err(CommandError::Unknown("salir".into())));
    assert_eq!(p("tablas"), Err(CommandError::Unknown("tablas".into())));
    assert!(matches!(p("draw ofrecer"), Err(CommandError::Usage(_))));
}

#[test]
fn moves_claims_and_draws() {
    assert_eq!(
        p("m Nf3"),
        Ok(Some(Command::Move {
            text: "Nf3".into(),
            claim: false
        }))
    );
    assert_eq!(
        p("move  Cf3 claim "),
        Ok(Some(Command::Move {
            text: "Cf3".into(),
            claim: true
        }))
    );
    assert_eq!(p("draw Offer"), Ok(Some(Command::Draw(DrawAction::Offer))));
    assert!(matches!(p("draw"), Err(CommandError::Usage(_))));
    assert!(matches!(p("draw maybe"), Err(CommandError::Usage(_))));
    assert_eq!(
        p("takeback"),
        Ok(Some(Command::Takeback(TakebackAction::Request)))
    );
    assert_eq!(
        p("takeback Accept"),
        Ok(Some(Command::Takeback(TakebackAction::Accept)))
    );
    assert_eq!(
        p("takeback decline"),
        Ok(Some(Command::Takeback(TakebackAction::Decline)))
    );
    assert!(matches!(p("takeback please"), Err(CommandError::Usage(_))));
}

#[test]
fn the_rest() {
    assert_eq!(p("quit"), Ok(Some(Command::Quit)));
    assert_eq!(p("exit"), Ok(Some(Command::Quit)));
    assert_eq!(p("?"), Ok(Some(Command::Help)));
    assert_eq!(p("as  carol x "), Ok(Some(Command::As("carol x".into()))));
    assert_eq!(p("as"), Err(CommandError::Usage("as NAME")));
    assert_eq!(p("lang"), Ok(Some(Command::Lang(None))));
    assert_eq!(p("lang ES"), Ok(Some(Command::Lang(Some(Lang::Es)))));
    assert_eq!(p("lang fr"), Err(CommandError::UnknownLang("fr".into())));
    for (line, c) in [
        ("accept", Command::Accept),
        ("decline", Command::Decline),
        ("cancel", Command::Cancel),
        ("resign", Command::Resign),
        ("abort", Command::Abort),
        ("board", Command::Board),
        ("pgn", Command::Pgn),
        ("history", Command::History),
        ("stats", Command::Stats(None)),
        ("stats  bob ", Command::Stats(Some("bob".into()))),
        ("leaderboard", Command::Leaderboard(None)),
        ("leaderboard live", Command::Leaderboard(Some(Speed::Live))),
        (
            "leaderboard Chess960",
            Command::Leaderboard(Some(Speed::Chess960)),
        ),
    ] {
        assert_eq!(p(line), Ok(Some(c)));
    }
    assert_eq!(p("dance"), Err(CommandError::Unknown("dance".into())));
    assert!(matches!(
        p("leaderboard blitz"),
        Err(CommandError::Usage(_))
    ));
}

#[test]
fn refusals_in_both_languages() {
    for e in [
        CommandError::Usage("as NAME"),
        CommandError::UnknownLang("fr".into()),
        CommandError::UnknownColour("green".into()),
        CommandError::Unknown("dance".into()),
    ] {
        // English stays the `Display` text.
        assert_eq!(e.message(Lang::En), e.to_string());
        let es = e.message(Lang::Es);
        assert_ne!(es, e.to_string());
        assert!(!es.contains('{'), "{es}");
    }
    assert_eq!(
        CommandError::Unknown("dance".into()).message(Lang::Es),
        "Orden desconocida \"dance\". Escribe `help` para ver la lista."
    );
}

#[test]
fn puzzle_takes_a_theme_a_rating_or_an_id() {
    use crate::game::PuzzleRequest;
    let req = |id: Option<&str>, theme: Option<&str>, rating: Option<i32>| {
        Command::Puzzle(PuzzleRequest {
            id: id.map(str::to_owned),
            theme: theme.map(str::to_owned),
            rating,
            ..PuzzleRequest::default()
        })
    };
    assert_eq!(Command::parse("puzzle"), Ok(Some(req(None, None, None))));
    assert_eq!(
        Command::parse("puzzle fork 1500"),
        Ok(Some(req(None, Some("fork"), Some(1500))))
    );
    assert_eq!(
        Command::parse("puzzle 900 mateIn2"),
        Ok(Some(req(None, Some("mateIn2"), Some(900))))
    );
    assert_eq!(
        Command::parse("puzzle id:000rZ"),
        Ok(Some(req(Some("000rZ"), None, None)))
    );
    // A theme's name in words, a short number among them.
    assert_eq!(
        Command::parse("puzzle mate en 2 1500"),
        Ok(Some(req(None, Some("mate en 2"), Some(1500))))
    );
    // Where it comes from: `source:` (in Spanish also `origen:`), once, never with an id.
    let from = |source| {
        Ok(Some(Command::Puzzle(PuzzleRequest {
            theme: Some("fork".into()),
            source,
            ..PuzzleRequest::default()
        })))
    };
    use crate::game::PuzzleOrigin;
    assert_eq!(
        Command::parse("puzzle source:server fork"),
        from(PuzzleOrigin::Server)
    );
    assert_eq!(
        Command::parse("puzzle fork SOURCE:Lichess"),
        from(PuzzleOrigin::Lichess)
    );
    assert_eq!(
        Command::parse_in("problema fork origen:servidor", Lang::Es),
        from(PuzzleOrigin::Server)
    );
    assert_eq!(
        Command::parse_in("puzzle fork source:any", Lang::Es),
        from(PuzzleOrigin::Any)
    );
    for bad in [
        "puzzle source:nowhere",
        "puzzle source:server source:any",
        "puzzle id:000rZ source:server",
        "puzzle 1500 1600",
        "puzzle id:",
        "puzzle id:a id:b",
        "puzzle id:000rZ fork",
        "puzzle 99999999999999999999",
    ] {
        assert!(
            matches!(Command::parse(bad), Err(CommandError::Usage(_))),
            "{bad}"
        );
    }
    assert_eq!(Command::parse("hint"), Ok(Some(Command::Hint)));
    assert_eq!(Command::parse("solution"), Ok(Some(Command::Solution)));
    assert!(Command::parse("hint me").is_err());
}

#[test]
fn roundrobin_arguments() {
    let create = |players: &[&str], double, rated| {
        Ok(Some(Command::RoundRobin(RoundRobinCommand::Create {
            players: players.iter().map(|s| s.to_string()).collect(),
            time: "3+2".parse().unwrap(),
            double,
            rated,
        })))
    };
    assert_eq!(
        p("roundrobin create ann bob cat 3+2"),
        create(&["ann", "bob", "cat"], false, true)
    );
    assert_eq!(
        p("roundrobin create ann 3+2 bob double rated:false cat dan"),
        create(&["ann", "bob", "cat", "dan"], true, false)
    );
    assert_eq!(
        p("roundrobin standings"),
        Ok(Some(Command::RoundRobin(RoundRobinCommand::Standings)))
    );
    assert_eq!(
        p("roundrobin withdraw"),
        Ok(Some(Command::RoundRobin(RoundRobinCommand::Withdraw(None))))
    );
    assert_eq!(
        p("roundrobin withdraw as bob"),
        Ok(Some(Command::RoundRobin(RoundRobinCommand::Withdraw(
            Some("bob".into())
        ))))
    );
    // In Spanish: the slash command's words.
    assert_eq!(
        Command::parse_in(
            "liguilla crear ana beto carla 3+2 doble puntuada:no",
            Lang::Es
        ),
        Ok(Some(Command::RoundRobin(RoundRobinCommand::Create {
            players: vec!["ana".into(), "beto".into(), "carla".into()],
            time: "3+2".parse().unwrap(),
            double: true,
            rated: false,
        })))
    );
    assert_eq!(
        Command::parse_in("liguilla clasificacion", Lang::Es),
        Ok(Some(Command::RoundRobin(RoundRobinCommand::Standings)))
    );
    assert_eq!(
        Command::parse_in("liguilla retirarse as beto", Lang::Es),
        Ok(Some(Command::RoundRobin(RoundRobinCommand::Withdraw(
            Some("beto".into())
        ))))
    );
    let usage = Err(CommandError::Usage(ROUNDROBIN_USAGE));
    for bad in [
        "roundrobin",
        "roundrobin start a b c 3+2",
        "roundrobin create a b c",
        "roundrobin create a b c 3+2 5+3",
        "roundrobin create a b c 3+2 double double",
        "roundrobin create a b c 4+4",
        "roundrobin create a b c 3+2 rated:maybe",
        "roundrobin standings now",
        "roundrobin withdraw bob",
        "roundrobin withdraw as",
    ] {
        assert_eq!(p(bad), usage, "{bad}");
    }
    let many = format!("roundrobin create {} 3+2", vec!["x"; 40].join(" "));
    assert_eq!(p(&many), usage);
}
