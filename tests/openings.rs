//! Opening names through the game service (issue 29): the view, the PGN's `ECO` and
//! `Opening` tags, the channel summary, and a player's most played openings in their stats,
//! on SQLite (and PostgreSQL when its binaries are here).

mod support;

use cajitas::game::{ChannelRef, GameService, Lang, ServiceOptions, UserRef};
use cajitas::i18n::{Presentation, notices};
use cajitas_rules::Position;

const GUILD: u64 = 700;

fn svc() -> GameService {
    support::db::memory_or_postgres(env!("CARGO_CRATE_NAME"), ServiceOptions::default())
}

fn ch(guild: u64, channel: u64) -> ChannelRef {
    ChannelRef {
        guild: Some(guild),
        channel,
    }
}

/// Plays `moves` from `start` in `c`, `w` white, and ends the game: `end` is `"1-0"`, `"0-1"`,
/// `"draw"` or `"abort"`.
fn game(
    g: &GameService,
    c: ChannelRef,
    w: &UserRef,
    b: &UserRef,
    start: &Position,
    moves: &str,
    end: &str,
) {
    g.challenges().start_game(w, b, c, start).unwrap();
    let white_first = start.turn() == cajitas_rules::Color::White;
    for (i, m) in moves.split_whitespace().enumerate() {
        let who = if (i % 2 == 0) == white_first { w } else { b };
        g.play().play_move(who, c, m, Lang::En, false).unwrap();
    }
    match end {
        "1-0" => drop(g.play().resign(b, c, None).unwrap()),
        "0-1" => drop(g.play().resign(w, c, None).unwrap()),
        "draw" => {
            g.play().draw_offer(w, c, None).unwrap();
            g.play().draw_accept(b, c, None).unwrap();
        }
        _ => drop(g.play().abort(w, c).unwrap()),
    }
}

fn tag(pgn: &str, name: &str) -> Option<String> {
    let start = format!("[{name} \"");
    let line = pgn.lines().find(|l| l.starts_with(&start))?;
    Some(line[start.len()..line.len() - 2].to_owned())
}

#[test]
fn the_view_the_pgn_and_the_summary_name_the_opening() {
    let g = svc();
    let c = ch(GUILD, 1);
    let (a, b) = (
        UserRef::new(1, "alice", false),
        UserRef::new(2, "bob", false),
    );
    g.challenges()
        .start_game(&a, &b, c, &Position::new())
        .unwrap();
    let mut last = None;
    for (i, m) in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "h3", "a6"]
        .iter()
        .enumerate()
    {
        let who = if i % 2 == 0 { &a } else { &b };
        last = Some(g.play().play_move(who, c, m, Lang::En, false).unwrap().view);
        if i == 0 {
            let v = last.as_ref().unwrap();
            assert_eq!(v.opening.unwrap().opening.name, "King's Pawn Game");
        }
    }
    // 3...Bc5 is the last position in the table: ply 6 names the game.
    let v = last.unwrap();
    let found = v.opening.unwrap();
    assert_eq!(
        (found.opening.eco, found.opening.name, found.ply),
        ("C50", "Italian Game: Giuoco Piano", 6)
    );
    assert_eq!(
        cajitas::i18n::status::opening(Lang::Es, &v).as_deref(),
        Some("C50 Italian Game: Giuoco Piano")
    );
    let over = g.play().resign(&b, c, None).unwrap().view;
    let pgn = g.queries().pgn(c).unwrap();
    assert_eq!(tag(&pgn, "ECO").as_deref(), Some("C50"));
    assert_eq!(
        tag(&pgn, "Opening").as_deref(),
        Some("Italian Game: Giuoco Piano")
    );
    let summary = notices::summary(Lang::En, Presentation::Console, &over);
    assert!(
        summary.contains("in 4 moves · Italian Game: Giuoco Piano"),
        "{summary}"
    );
    let resumen = notices::summary(Lang::Es, Presentation::Console, &over);
    assert!(
        resumen.contains("en 4 jugadas · Italian Game: Giuoco Piano"),
        "{resumen}"
    );

    // A game from a setup has no opening: no tags, no name in the summary.
    let setup =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    let c2 = ch(GUILD, 2);
    g.challenges().start_game(&a, &b, c2, &setup).unwrap();
    let v = g
        .play()
        .play_move(&b, c2, "e5", Lang::En, false)
        .unwrap()
        .view;
    assert_eq!(v.opening, None);
    let over = g.play().resign(&a, c2, None).unwrap().view;
    let pgn = g.queries().pgn(c2).unwrap();
    assert_eq!((tag(&pgn, "ECO"), tag(&pgn, "Opening")), (None, None));
    let summary = notices::summary(Lang::En, Presentation::Console, &over);
    assert!(!summary.contains(" · "), "{summary}");
}

#[test]
fn stats_list_the_five_families_played_most_with_each_colour() {
    let g = svc();
    let start = Position::new();
    let (a, b) = (
        UserRef::new(1, "alice", false),
        UserRef::new(2, "bob", false),
    );
    let c = ch(GUILD, 1);
    let italian = "e4 e5 Nf3 Nc6 Bc4 Bc5";
    // With white: three Italian Games (one reached by transposition), won, drawn and lost.
    game(&g, c, &a, &b, &start, italian, "1-0");
    game(&g, c, &a, &b, &start, "Nf3 Nc6 e4 e5 Bc4 Bc5", "draw");
    game(&g, c, &a, &b, &start, "e4 e5 Nf3 Nc6 Bc4 Nf6", "0-1");
    // Five more families once each: the list keeps five, the better score first.
    game(&g, c, &a, &b, &start, "d4 d5", "1-0"); // Queen's Pawn Game
    game(&g, c, &a, &b, &start, "c4", "0-1"); // English Opening
    game(&g, c, &a, &b, &start, "f4", "draw"); // Bird Opening
    game(&g, c, &a, &b, &start, "e4 e5 Nf3 Nc6 Bb5", "1-0"); // Ruy Lopez
    game(&g, c, &a, &b, &start, "b3", "0-1"); // Nimzo-Larsen Attack
    // With black: two Sicilians of different variations are one family.
    game(
        &g,
        c,
        &b,
        &a,
        &start,
        "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6",
        "0-1",
    );
    game(
        &g,
        c,
        &b,
        &a,
        &start,
        "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6",
        "1-0",
    );
    // Not counted: an aborted game, a game from a setup, a game on another server.
    game(&g, c, &b, &a, &start, "e4", "abort");
    let setup =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    game(&g, c, &b, &a, &setup, "c5 Nf3", "1-0");
    game(&g, ch(GUILD + 1, 5), &b, &a, &start, "e4 e6", "0-1");

    let s = g.ratings().stats(c, &a).unwrap();
    let list = |i: usize| {
        s.openings[i]
            .iter()
            .map(|o| {
                (
                    o.family,
                    o.games,
                    (o.score.wins, o.score.draws, o.score.losses),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        list(0),
        [
            ("Italian Game", 3, (1, 1, 1)),
            ("Queen's Pawn Game", 1, (1, 0, 0)),
            ("Ruy Lopez", 1, (1, 0, 0)),
            ("Bird Opening", 1, (0, 1, 0)),
            ("English Opening", 1, (0, 0, 1)),
        ]
    );
    assert_eq!(list(1), [("Sicilian Defense", 2, (1, 0, 1))]);
    // Bob's side of the same games.
    let s = g.ratings().stats(c, &b).unwrap();
    assert_eq!(s.openings[0][0].family, "Sicilian Defense");
    assert_eq!(s.openings[1][0].family, "Italian Game");
    assert_eq!(s.openings[1][0].games, 3);

    // Worded for both fronts.
    let sections = cajitas::i18n::ratings::opening_sections(
        Lang::En,
        &g.ratings().stats(c, &a).unwrap().openings,
    );
    assert_eq!(sections[0].0, "Openings with white");
    assert_eq!(sections[0].1[0], "Italian Game: 3 games · +1 =1 −1");
    assert_eq!(sections[1].0, "Openings with black");
    let es = cajitas::i18n::ratings::opening_sections(
        Lang::Es,
        &g.ratings().stats(c, &a).unwrap().openings,
    );
    assert_eq!(es[1].1[0], "Sicilian Defense: 2 partidas · +1 =0 −1");
}
