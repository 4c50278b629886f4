//! Opening names: lichess's table (`assets/openings/*.tsv`, CC0, from lichess-org/chess-openings),
//! looked up by position as lichess looks them up.
//!
//! Each row of the table is `eco<TAB>name<TAB>pgn`. Its PGN is replayed once, when the table is
//! first used (at start-up: the front ends call [`book`] before they serve), and the final
//! position's FIDE key ([`Position::fide_key`]: placement, side to move, castling rights, and the
//! en passant square only when a capture there is legal, as lichess's "opening FEN" has it) is the
//! row's key in a hash map. No PGN is parsed again afterwards.
//!
//! A game's opening is named by its positions, not its move order, so transpositions are named
//! (scalachess `opening/OpeningDb.scala`, `searchInPositions`):
//! - only games from the standard start position have one (a game from a FEN setup, or a
//!   Chess960 game, has none);
//! - the positions after plies 1 to [`SEARCH_MAX_PLIES`] (40) are looked at, and the search
//!   stops at the first position with fewer than [`SEARCH_MIN_PIECES`] (20) pieces on the board;
//! - of those, the LAST position found in the table names the game, and its ply is where the
//!   game left the book.
//!
//! Two rows may end in the same position (a transposition the table lists twice). Then the row
//! read last wins (files `a` to `e`, top to bottom), as in lichess, whose table is a map built
//! from the rows in that order, so a later row replaces an earlier one with the same key.
//! [`Book::shared`] lists those pairs.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::OnceLock;

use cajitas_rules::{Move, Position, PositionKey, SanPlus, Suffix};

/// Plies of a game that are looked at (lichess's `SEARCH_MAX_PLIES`).
pub const SEARCH_MAX_PLIES: usize = 40;
/// The search stops at the first position with fewer pieces (lichess's `SEARCH_MIN_PIECES`).
pub const SEARCH_MIN_PIECES: usize = 20;

/// The table's files, embedded in the binary, in the order lichess reads them.
pub const FILES: [(&str, &str); 5] = [
    ("a.tsv", include_str!("../assets/openings/a.tsv")),
    ("b.tsv", include_str!("../assets/openings/b.tsv")),
    ("c.tsv", include_str!("../assets/openings/c.tsv")),
    ("d.tsv", include_str!("../assets/openings/d.tsv")),
    ("e.tsv", include_str!("../assets/openings/e.tsv")),
];

/// One row of the table: its ECO code and its name, in English (lichess shows the names
/// untranslated in every language).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Opening {
    /// The ECO code, e.g. `C50`.
    pub eco: &'static str,
    /// The name, e.g. `Italian Game: Giuoco Piano`.
    pub name: &'static str,
}

impl Opening {
    /// The family: the name's part before the colon (`Italian Game`), as lichess's opening
    /// explorer groups them.
    pub fn family(&self) -> &'static str {
        self.name.split(':').next().unwrap_or(self.name).trim()
    }
}

/// A game's opening and the last ply in the book: the ply of the last position the table
/// names (1 = after White's first move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InBook {
    /// The row that names it.
    pub opening: Opening,
    /// The ply of its position.
    pub ply: u32,
}

/// A row whose PGN does not replay (a test holds the shipped table to none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRow {
    /// The file.
    pub file: &'static str,
    /// The line in the file (1 = the header).
    pub line: usize,
    /// What went wrong.
    pub reason: String,
}

/// Two rows that end in the same position: `won` names it, `lost` never shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shared {
    /// The row read earlier, replaced.
    pub lost: Opening,
    /// The row read later, which names the position.
    pub won: Opening,
}

/// The keys' own 64-bit Zobrist hash is already well spread: the map uses it as it is.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The table, by position: each distinct position once with its row, and an open-addressing
/// index of twice as many slots (a slot holds a position's place in `by_key`, or
/// `EMPTY_SLOT`), probed from the key's hash. About 430 KiB for the shipped table, half of a
/// `HashMap` of the same pairs (whose 8,192 buckets each hold a whole key and row).
pub struct Book {
    by_key: Vec<(PositionKey, Opening)>,
    slots: Vec<u16>,
    rows: usize,
    shared: Vec<Shared>,
}

/// A slot of [`Book`]'s index that holds no position.
const EMPTY_SLOT: u16 = u16::MAX;

/// A key's own 64-bit hash (its [`Hash`] writes it whole).
fn key_hash(key: &PositionKey) -> u64 {
    let mut h = KeyHasher::default();
    key.hash(&mut h);
    h.finish()
}

impl Book {
    /// Builds the table from files of `eco<TAB>name<TAB>pgn` rows, each with a header line
    /// first; the rows that do not replay are returned beside it.
    pub fn build(files: &[(&'static str, &'static str)]) -> (Book, Vec<BadRow>) {
        let mut by_key: HashMap<PositionKey, Opening, BuildHasherDefault<KeyHasher>> =
            HashMap::with_capacity_and_hasher(4096, Default::default());
        let mut bad = Vec::new();
        let mut shared = Vec::new();
        let mut rows = 0;
        let mut replayer = Replayer::default();
        for &(file, text) in files {
            for (i, line) in text.lines().enumerate().skip(1) {
                if line.trim().is_empty() {
                    continue;
                }
                let bad_row = |reason: String| BadRow {
                    file,
                    line: i + 1,
                    reason,
                };
                let mut cells = line.split('\t');
                let (Some(eco), Some(name), Some(pgn), None) =
                    (cells.next(), cells.next(), cells.next(), cells.next())
                else {
                    bad.push(bad_row("not three cells".to_owned()));
                    continue;
                };
                match replayer.row(pgn) {
                    Ok(pos) => {
                        rows += 1;
                        let opening = Opening { eco, name };
                        if let Some(lost) = by_key.insert(pos.fide_key(), opening) {
                            shared.push(Shared { lost, won: opening });
                        }
                    }
                    Err(reason) => bad.push(bad_row(reason)),
                }
            }
        }
        let by_key: Vec<(PositionKey, Opening)> = by_key.into_iter().collect();
        assert!(
            by_key.len() < usize::from(EMPTY_SLOT) / 2,
            "the opening table outgrew its index"
        );
        let mut slots = vec![EMPTY_SLOT; (by_key.len() * 2).next_power_of_two().max(2)];
        let mask = slots.len() - 1;
        for (i, (key, _)) in by_key.iter().enumerate() {
            let mut slot = key_hash(key) as usize & mask;
            while slots[slot] != EMPTY_SLOT {
                slot = (slot + 1) & mask;
            }
            slots[slot] = i as u16;
        }
        (
            Book {
                by_key,
                slots,
                rows,
                shared,
            },
            bad,
        )
    }

    /// The row named by this position, if any.
    #[inline]
    pub fn get(&self, key: &PositionKey) -> Option<Opening> {
        let mask = self.slots.len() - 1;
        let mut slot = key_hash(key) as usize & mask;
        loop {
            let (k, opening) = self.by_key.get(usize::from(self.slots[slot]))?;
            if k == key {
                return Some(*opening);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// How many rows replayed.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// How many distinct positions the table names.
    pub fn positions(&self) -> usize {
        self.by_key.len()
    }

    /// The pairs of rows that end in the same position, and which one names it.
    pub fn shared(&self) -> &[Shared] {
        &self.shared
    }

    /// The opening of a game from `start` with `moves`, as lichess finds it (see the module's
    /// documentation): `None` for a game that did not start from the standard position, or
    /// that never reached a position of the table.
    pub fn search(&self, start: &Position, moves: &[Move]) -> Option<InBook> {
        if !is_standard_start(start) {
            return None;
        }
        let mut pos = start.clone();
        let mut found = None;
        for (i, &m) in moves.iter().take(SEARCH_MAX_PLIES).enumerate() {
            pos.play_unchecked(m);
            if pos.board().occupied().count() < SEARCH_MIN_PIECES {
                break;
            }
            if let Some(opening) = self.get(&pos.fide_key()) {
                found = Some(InBook {
                    opening,
                    ply: i as u32 + 1,
                });
            }
        }
        found
    }

    /// The opening after one more ply: `before` is [`Book::search`]'s answer for the game's
    /// first `ply - 1` moves, `after` the position its `ply`-th move reached. The same answer
    /// as searching all `ply` moves again, with one lookup instead of up to 40 replayed: the
    /// search looks at ply `ply` only within [`SEARCH_MAX_PLIES`] and while the board holds
    /// [`SEARCH_MIN_PIECES`] (pieces only ever leave it, so a board that still holds them
    /// means the search never stopped before).
    pub fn extend(
        &self,
        before: Option<InBook>,
        start: &Position,
        after: &Position,
        ply: u32,
    ) -> Option<InBook> {
        if ply == 0
            || ply as usize > SEARCH_MAX_PLIES
            || after.board().occupied().count() < SEARCH_MIN_PIECES
            || !is_standard_start(start)
        {
            return before;
        }
        match self.get(&after.fide_key()) {
            Some(opening) => Some(InBook { opening, ply }),
            None => before,
        }
    }
}

/// Whether `start` is the standard start position (its move counters aside).
fn is_standard_start(start: &Position) -> bool {
    static STANDARD: OnceLock<PositionKey> = OnceLock::new();
    // A Chess960 game from #518 has the standard position but is no standard game.
    !start.castling_mode().is_chess960()
        && start.fullmoves() == 1
        && start.fide_key() == *STANDARD.get_or_init(|| Position::new().fide_key())
}

/// Replays rows one after the other, starting each from the longest run of moves it shares
/// with the row before (the files list a line's variations together, so most rows replay only
/// their last moves).
#[derive(Default)]
struct Replayer {
    /// The previous row's moves as written.
    tokens: Vec<&'static str>,
    /// The position after each of them.
    after: Vec<Position>,
}

impl Replayer {
    /// The final position of a row's movetext (`1. e4 e5 2. Nf3`), its check and mate marks
    /// checked too.
    fn row(&mut self, pgn: &'static str) -> Result<&Position, String> {
        // Move numbers ("1." and "1...") are not moves.
        let tokens = pgn
            .split_whitespace()
            .filter(|t| !(t.ends_with('.') && t.starts_with(|c: char| c.is_ascii_digit())));
        let mut n = 0;
        for token in tokens {
            if self.tokens.get(n) != Some(&token) {
                self.tokens.truncate(n);
                self.after.truncate(n);
                let mut pos = self.after.last().cloned().unwrap_or_else(Position::new);
                play_written(&mut pos, token)
                    .map_err(|e| format!("{token:?} after {n} plies: {e}"))?;
                self.tokens.push(token);
                self.after.push(pos);
            }
            n += 1;
        }
        self.tokens.truncate(n);
        self.after.truncate(n);
        self.after.last().ok_or_else(|| "no moves".to_owned())
    }
}

/// Plays one move written in SAN with its check or mate mark, which must be right.
fn play_written(pos: &mut Position, token: &str) -> Result<(), String> {
    let written: SanPlus = token.parse().map_err(|e| format!("not SAN: {e}"))?;
    let m = written.san.to_move(pos).map_err(|e| e.to_string())?;
    pos.play_unchecked(m);
    // Mate needs the moves of the new position: looked at only after a check.
    let mark = if !pos.is_check() {
        None
    } else if pos.legal_moves().is_empty() {
        Some(Suffix::Checkmate)
    } else {
        Some(Suffix::Check)
    };
    if mark != written.suffix {
        return Err(format!("the move's mark is {mark:?}"));
    }
    Ok(())
}

/// The final position of one row's movetext.
#[cfg(test)]
fn replay(pgn: &'static str) -> Result<Position, String> {
    Replayer::default().row(pgn).cloned()
}

/// The shipped table, built once (the first call; the front ends make it at start-up). A row
/// that does not replay is left out and logged (the tests hold the shipped table to none).
pub fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| {
        let (book, bad) = Book::build(&FILES);
        for row in bad {
            tracing::error!(file = row.file, line = row.line, reason = %row.reason, "an opening row does not replay");
        }
        book
    })
}

/// Builds the shipped table now rather than on the first game shown, and logs its size and
/// the time it took; the front ends call it at start-up.
pub fn prepare() {
    let t = std::time::Instant::now();
    let b = book();
    tracing::debug!(
        rows = b.rows(),
        positions = b.positions(),
        ms = t.elapsed().as_secs_f64() * 1e3,
        "the opening table is ready"
    );
}

/// A game's opening in the shipped table (see [`Book::search`]).
pub fn of_game(start: &Position, moves: &[Move]) -> Option<InBook> {
    book().search(start, moves)
}

/// A game's opening after one more ply, from the answer before it (see [`Book::extend`]).
pub fn after_ply(
    before: Option<InBook>,
    start: &Position,
    after: &Position,
    ply: u32,
) -> Option<InBook> {
    book().extend(before, start, after, ply)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cajitas_rules::{Lang, read_move};

    fn game(moves: &str) -> (Position, Vec<Move>) {
        let start = Position::new();
        let mut pos = start.clone();
        let mut played = Vec::new();
        for text in moves.split_whitespace() {
            let m = read_move(&pos, text, Lang::En).unwrap();
            pos.play_unchecked(m);
            played.push(m);
        }
        (start, played)
    }

    fn named(moves: &str) -> Option<InBook> {
        let (start, moves) = game(moves);
        of_game(&start, &moves)
    }

    #[test]
    fn every_shipped_row_replays() {
        let (book, bad) = Book::build(&FILES);
        assert_eq!(bad, Vec::new(), "rows that do not replay");
        assert_eq!(book.rows(), 3807);
        assert_eq!(book.positions() + book.shared().len(), book.rows());
    }

    #[test]
    fn every_row_names_its_own_position_or_one_with_the_same_position() {
        let (book, _) = Book::build(&FILES);
        for &(file, text) in &FILES {
            for line in text.lines().skip(1) {
                let mut cells = line.split('\t');
                let (eco, name, pgn) = (
                    cells.next().unwrap(),
                    cells.next().unwrap(),
                    cells.next().unwrap(),
                );
                let pos = replay(pgn).unwrap();
                let found = book.get(&pos.fide_key()).unwrap();
                if found != (Opening { eco, name }) {
                    // Only when a later row ends in the same position.
                    assert!(
                        book.shared()
                            .iter()
                            .any(|s| s.lost == Opening { eco, name } && s.won == found),
                        "{file}: {eco} {name} names {found:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn rows_that_share_a_position_the_later_one_wins() {
        let (book, _) = Book::build(&FILES);
        println!(
            "{} positions are shared by two rows (the row read later names them):",
            book.shared().len()
        );
        for s in book.shared() {
            println!(
                "  {} {} — replaced by {} {}",
                s.lost.eco, s.lost.name, s.won.eco, s.won.name
            );
        }
        // A table built from one such pair in both orders: the later row wins each time.
        let (a, b) = (
            (
                "x.tsv",
                "eco\tname\tpgn\nB01\tFirst\t1. e4 d5\nB01\tSecond\t1. e4 d5\n",
            ),
            (
                "y.tsv",
                "eco\tname\tpgn\nB01\tSecond\t1. e4 d5\nB01\tFirst\t1. e4 d5\n",
            ),
        );
        let key = replay("1. e4 d5").unwrap().fide_key();
        assert_eq!(Book::build(&[a]).0.get(&key).unwrap().name, "Second");
        assert_eq!(Book::build(&[b]).0.get(&key).unwrap().name, "First");
        assert_eq!(Book::build(&[a]).0.shared().len(), 1);
    }

    #[test]
    fn a_bad_row_is_reported_not_skipped_silently() {
        let files = [(
            "bad.tsv",
            "eco\tname\tpgn\nA00\tFine\t1. e4\nA00\tIllegal\t1. e5\nA00\tShort\t1. e4\n\
             C20\tNo mark\t1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7\n\
             C20\tCheck, not mate\t1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+\n\
             C20\tMate\t1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n",
        )];
        let (book, bad) = Book::build(&files);
        assert_eq!(book.rows(), 3);
        assert_eq!(bad.len(), 3, "{bad:?}");
        assert_eq!(bad[0].line, 3);
        assert!(bad[0].reason.contains("e5"), "{}", bad[0].reason);
        assert_eq!((bad[1].line, bad[2].line), (5, 6));
    }

    #[test]
    fn transpositions_name_the_same_opening() {
        let a = named("Nf3 d5 d4").unwrap();
        let b = named("d4 d5 Nf3").unwrap();
        assert_eq!(a.opening, b.opening);
        assert_eq!(a.opening.name, "Queen's Pawn Game: Zukertort Variation");
        assert_eq!((a.ply, b.ply), (3, 3));
    }

    #[test]
    fn the_last_position_in_book_names_the_game() {
        // The Italian Game's Giuoco Piano is in the table after 3...Bc5 (ply 6); the game
        // leaves the book with 4.h3 and keeps ply 6's name.
        let at6 = named("e4 e5 Nf3 Nc6 Bc4 Bc5").unwrap();
        assert_eq!(at6.ply, 6);
        let later = named("e4 e5 Nf3 Nc6 Bc4 Bc5 h3 a6 a3 h6").unwrap();
        assert_eq!(later, at6);
        assert_eq!(later.opening.eco, "C50");
        assert_eq!(later.opening.name, "Italian Game: Giuoco Piano");
        // Before any move, no opening.
        assert_eq!(named(""), None);
        assert_eq!(named("e4").unwrap().opening.name, "King's Pawn Game");
    }

    #[test]
    fn games_from_a_setup_have_no_opening() {
        let start =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .unwrap();
        let m = read_move(&start, "e5", Lang::En).unwrap();
        assert_eq!(of_game(&start, &[m]), None);
        // The standard position set up by FEN is the standard start.
        let start =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let m = read_move(&start, "e4", Lang::En).unwrap();
        assert!(of_game(&start, &[m]).is_some());
    }

    #[test]
    fn the_search_looks_at_forty_plies() {
        // Knights out and back: 1.e4 after 36 plies of shuffling is ply 37, inside the
        // window; after 40 plies it is ply 41, past it, and an earlier position names the game.
        let nine = "Nf3 Nf6 Ng1 Ng8 ".repeat(9);
        let found = named(&format!("{nine} e4")).unwrap();
        assert_eq!((found.ply, found.opening.name), (37, "King's Pawn Game"));
        let ten = "Nf3 Nf6 Ng1 Ng8 ".repeat(10);
        let found = named(&format!("{ten} e4")).unwrap();
        assert!(found.ply <= 40, "{found:?}");
        assert_ne!(found.opening.name, "King's Pawn Game");
    }

    // The step a move's view takes (one lookup) answers as the whole search at every ply:
    // along every 5th row of the table (then random moves on, captures taking the board under
    // 20 pieces and the plies past 40), along random games from the start, and from a
    // position that is not the standard start.
    #[test]
    fn one_more_ply_answers_as_the_whole_search() {
        let mut rng = fastrand::Rng::with_seed(29);
        let mut lines: Vec<(Position, Vec<Move>)> = Vec::new();
        for &(_, text) in &FILES {
            for line in text.lines().skip(1).step_by(5) {
                let pgn = line.split('\t').nth(2).unwrap();
                let sans: Vec<&str> = pgn
                    .split_whitespace()
                    .filter(|t| !t.ends_with('.'))
                    .collect();
                lines.push(game(&sans.join(" ")));
            }
        }
        for _ in 0..200 {
            lines.push((Position::new(), Vec::new()));
        }
        // Book positions at plies 37 to 41 (1.e4 e5 2.Nf3 Nc6 3.Bb5 after knights shuffled):
        // ply 40 is the last looked at, 41 is past the window.
        let shuffled = "Nf3 Nf6 Ng1 Ng8 ".repeat(9);
        lines.push(game(&format!("{shuffled} e4 e5 Nf3 Nc6 Bb5")));
        let setup = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        lines.push((Position::from_fen(setup).unwrap(), Vec::new()));
        let mut in_book = 0;
        for (start, mut moves) in lines {
            let mut pos = start.clone();
            for &m in &moves {
                pos.play_unchecked(m);
            }
            while moves.len() < 70 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.usize(..legal.len())];
                pos.play_unchecked(m);
                moves.push(m);
            }
            let mut pos = start.clone();
            let mut step = None;
            for (i, &m) in moves.iter().enumerate() {
                pos.play_unchecked(m);
                let ply = i as u32 + 1;
                step = after_ply(step, &start, &pos, ply);
                assert_eq!(
                    step,
                    of_game(&start, &moves[..=i]),
                    "ply {ply} of {moves:?}"
                );
            }
            in_book += usize::from(step.is_some());
        }
        assert!(in_book > 700, "{in_book} lines named");
    }

    #[test]
    fn every_row_has_at_least_twenty_pieces() {
        // lichess stops its search at the first position with fewer than 20 pieces; no row
        // of the table has fewer, so the floor only spares looking further.
        for &(_, text) in &FILES {
            for line in text.lines().skip(1) {
                let pgn = line.split('\t').nth(2).unwrap();
                let pos = replay(pgn).unwrap();
                assert!(
                    pos.board().occupied().count() >= SEARCH_MIN_PIECES,
                    "{line}"
                );
            }
        }
    }

    #[test]
    fn the_family_is_the_part_before_the_colon() {
        let o = Opening {
            eco: "B90",
            name: "Sicilian Defense: Najdorf Variation",
        };
        assert_eq!(o.family(), "Sicilian Defense");
        let o = Opening {
            eco: "C50",
            name: "Italian Game",
        };
        assert_eq!(o.family(), "Italian Game");
    }
}
