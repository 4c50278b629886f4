//! Differential test of the notation layer against shakmaty (=0.30.1, a dev-dependency only):
//! seeded random games where every SAN we write for every legal move equals shakmaty's, and
//! reading the played move back, in its SAN, lenient, coordinate, Spanish, figurine and lower
//! case forms, gives the same move. Wrong inputs only ever get legal suggestions.

use cajitas_rules::{Lang, Move, Notation, Position, Role, San, SanPlus, Uci, read_move, san};
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen, san::SanPlus as SSanPlus};

/// xorshift64*: small, seeded, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete and CPW positions 3-5: castling, pins, promotions.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // Under-promotions and many knights.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    // Many queens and rooks: double disambiguation.
    "4k3/8/8/8/8/Q1Q5/8/Q1Q1K1RR w - - 0 1",
];

fn shak(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn to_shak(pos: &Chess, m: Move) -> shakmaty::Move {
    Uci::from_move(m)
        .to_string()
        .parse::<shakmaty::uci::UciMove>()
        .unwrap()
        .to_move(pos)
        .unwrap()
}

fn spanish_letter(role: Role) -> char {
    match role {
        Role::Pawn => 'P',
        Role::Knight => 'C',
        Role::Bishop => 'A',
        Role::Rook => 'T',
        Role::Queen => 'D',
        Role::King => 'R',
    }
}

fn figurine(role: Role, black_glyph: bool) -> char {
    let white = match role {
        Role::King => '\u{2654}',
        Role::Queen => '\u{2655}',
        Role::Rook => '\u{2656}',
        Role::Bishop => '\u{2657}',
        Role::Knight => '\u{2658}',
        Role::Pawn => '\u{2659}',
    };
    if black_glyph {
        char::from_u32(white as u32 + 6).unwrap()
    } else {
        white
    }
}

/// Replaces the piece letter and the promotion letter of a SAN.
fn translate(s: &str, mut letter: impl FnMut(Role) -> char) -> String {
    let mut out = String::new();
    let mut previous = None;
    for c in s.chars() {
        match Role::from_char(c) {
            Some(role) if c.is_ascii_uppercase() && matches!(previous, None | Some('=')) => {
                out.push(letter(role))
            }
            _ => out.push(c),
        }
        previous = Some(c);
    }
    out
}

/// Every form a player might type for `m`, with the language to read it in.
fn forms(pos: &Position, m: Move, rng: &mut Rng) -> Vec<(String, Lang)> {
    let plain = San::from_move(pos, m).to_string();
    let with_suffix = san(pos, m).to_string();
    let uci = Uci::from_move(m).to_string();
    let mut out = vec![
        (plain.clone(), Lang::En),
        (with_suffix.clone(), Lang::En),
        (format!("  {with_suffix}!? "), Lang::En),
        (uci.clone(), Lang::En),
        (uci.clone(), Lang::Es),
        (translate(&plain, spanish_letter), Lang::Es),
        (
            translate(&with_suffix, |r| figurine(r, rng.next().is_multiple_of(2))),
            Lang::En,
        ),
        (translate(&plain, |r| figurine(r, true)), Lang::Es),
    ];
    if let Some(p) = m.promotion() {
        out.push((format!("{}{}", &uci[..4], p.upper_char()), Lang::En));
        out.push((plain.replace('=', ""), Lang::En));
        out.push((plain.replace('=', "").to_lowercase(), Lang::En));
        out.push((translate(&plain, spanish_letter).replace('=', ""), Lang::En));
    }
    if m.is_castle() {
        out.push((plain.replace('O', "0"), Lang::En));
        out.push((plain.replace('O', "o"), Lang::Es));
        if let Move::Castle { king, rook } = m {
            out.push((format!("{king}{rook}"), Lang::En));
        }
    } else {
        // A missing or extra capture mark, over-disambiguation, coordinates with a dash.
        if m.is_capture() {
            out.push((plain.replace('x', ""), Lang::En));
        } else if m.role() != Role::Pawn {
            out.push((
                plain.replacen(&m.to().to_string(), &format!("x{}", m.to()), 1),
                Lang::En,
            ));
        }
        if m.role() != Role::Pawn {
            out.push((
                format!("{}{}{}", m.role().upper_char(), m.from(), m.to()),
                Lang::En,
            ));
            out.push((
                format!("{}{}-{}", spanish_letter(m.role()), m.from(), m.to()),
                Lang::Es,
            ));
        }
        out.push((format!("{}-{}", &uci[..2], &uci[2..]), Lang::En));
        if m.is_en_passant() {
            out.push((format!("{plain} e.p."), Lang::En));
            out.push((format!("{plain}e.p."), Lang::Es));
        }
        // Lower case: files come first, so a bishop's `bxc3` may be a pawn's; skip those.
        if m.role() != Role::Bishop {
            out.push((plain.to_lowercase(), Lang::En));
        }
    }
    out
}

#[test]
fn random_games_match_shakmaty() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut sans_checked = 0u64;
    let mut forms_checked = 0u64;
    let mut failures = Vec::new();
    for game in 0..240 {
        let fen = STARTS[game % STARTS.len()];
        let mut pos = Position::from_fen(fen).unwrap();
        let mut spos = shak(fen);
        for _ply in 0..160 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            // Every legal move: our SAN equals shakmaty's and parses back to the move.
            for &m in legal.iter() {
                let ours_san = san(&pos, m);
                let ours = ours_san.to_string();
                let theirs = SSanPlus::from_move(spos.clone(), to_shak(&spos, m)).to_string();
                sans_checked += 1;
                if ours != theirs {
                    failures.push(format!("{}: {ours} vs shakmaty {theirs}", pos.fen()));
                }
                let back = ours.parse::<SanPlus>().map(|s| s.san.to_move(&pos));
                if back != Ok(Ok(m)) {
                    failures.push(format!("{}: {ours} parses to {back:?}", pos.fen()));
                }
                // Spanish letters and figurines: the English SAN with its letters replaced.
                for (notation, expected) in [
                    (Notation::Spanish, translate(&ours, spanish_letter)),
                    (Notation::Figurine, translate(&ours, |r| figurine(r, false))),
                ] {
                    let written = ours_san.display(notation).to_string();
                    if written != expected {
                        failures.push(format!(
                            "{}: {ours} as {notation:?} is {written}",
                            pos.fen()
                        ));
                    }
                }
            }
            let m = legal[rng.below(legal.len())];
            for (text, lang) in forms(&pos, m, &mut rng) {
                forms_checked += 1;
                match read_move(&pos, &text, lang) {
                    Ok(got) if got == m => {}
                    other => failures.push(format!(
                        "{}: {text:?} ({lang:?}) for {} read as {other:?}",
                        pos.fen(),
                        san(&pos, m)
                    )),
                }
            }
            // A wrong destination: the error's suggestions are legal moves.
            let wrong = format!("{}9", &Uci::from_move(m).to_string()[..3]);
            if let Err(e) = read_move(&pos, &wrong, Lang::En) {
                for s in &e.suggestions {
                    if s.to_string()
                        .parse::<San>()
                        .map(|s| s.to_move(&pos).is_ok())
                        != Ok(true)
                    {
                        failures.push(format!("{}: suggestion {s} for {wrong}", pos.fen()));
                    }
                }
            }
            let sm = to_shak(&spos, m);
            spos.play_unchecked(sm);
            pos.play(m);
            if failures.len() > 20 {
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, e.g.:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert!(sans_checked > 100_000, "{sans_checked}");
    assert!(forms_checked > 50_000, "{forms_checked}");
}
