//! Puzzles: tactics from lichess's open puzzle database (`assets/puzzles/*.csv`, CC0), and the
//! rules of solving one as lichess has them ([`attempt`]).
//!
//! The shipped file holds rows of `PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,
//! NbPlays,Themes,GameUrl,OpeningTags,DailyDate` as lichess exports them. A row's `FEN` is the
//! position BEFORE the opponent's move; `Moves` is the line in UCI, the opponent's move first,
//! then the solver's and the opponent's replies in turn. Each row is read once, when the set
//! is first used ([`shared`]), and every move is checked against the rules then: a row that
//! does not replay is returned as a [`BadRow`] (a test holds the shipped file to none) and
//! never served.
//!
//! This room knows only the rules crate; the game service above it stores attempts and rates
//! them.

pub mod attempt;

use std::collections::HashMap;
use std::sync::OnceLock;

use cajitas_rules::{Color, Move, Position, Uci};

pub use self::attempt::{Answer, Attempt, AttemptState, Hint, NotPlaying};

/// The shipped file (the first 1,499 rows of lichess's puzzle database), embedded.
pub const CSV: &str = include_str!("../../assets/puzzles/lichess_db_puzzle_first_1499.csv");

/// The header lichess's export begins with; a file whose first line differs is refused.
pub const HEADER: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,\
GameUrl,OpeningTags,DailyDate";

/// The longest puzzle id a user may type (lichess's ids are 5 characters).
pub const MAX_ID_CHARS: usize = 16;
/// The longest theme name a user may type (lichess's longest is under 30).
pub const MAX_THEME_CHARS: usize = 40;

/// One puzzle, its moves checked against the rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// lichess's id, e.g. `000rZ`.
    pub id: String,
    /// The position before the opponent's move, as the row gives it.
    pub fen: String,
    /// That position.
    pub start: Position,
    /// The whole line: `moves[0]` is the opponent's, then the solver's and the replies in turn.
    /// Always at least two moves, and an even number (the solver's move ends the line).
    pub moves: Vec<Move>,
    /// The puzzle's own Glicko-2 rating.
    pub rating: i32,
    /// Its rating deviation.
    pub deviation: i32,
    /// lichess's popularity, -100 to 100.
    pub popularity: i32,
    /// How many times lichess's players played it.
    pub plays: i64,
    /// Its themes, lichess's camelCase ids (`mateIn2`, `fork`, …).
    pub themes: Vec<String>,
}

impl Puzzle {
    /// The solver's colour: the side to move after the opponent's first move.
    pub fn solver(&self) -> Color {
        !self.start.turn()
    }

    /// Whether the puzzle has this theme (lichess's id, compared without case).
    pub fn has_theme(&self, theme: &str) -> bool {
        self.themes.iter().any(|t| t.eq_ignore_ascii_case(theme))
    }

    /// How many moves the solver must find.
    pub fn solver_moves(&self) -> usize {
        self.moves.len() / 2
    }
}

/// A row that could not be read or does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRow {
    /// The line in the file (1 = the header).
    pub line: usize,
    /// What went wrong.
    pub reason: String,
}

/// A set of puzzles, in the file's order, by id, and by rating.
pub struct PuzzleSet {
    list: Vec<Puzzle>,
    by_id: HashMap<String, usize>,
    /// Indices into `list`, by rising rating (ties in the file's order): a rating window is
    /// a slice of it, found by two binary searches.
    by_rating: Vec<u32>,
}

impl PuzzleSet {
    /// Reads a file of lichess's format; the rows that cannot be read are returned beside the
    /// set. A file without lichess's header is one bad row and an empty set.
    pub fn parse(csv: &str) -> (PuzzleSet, Vec<BadRow>) {
        let mut set = PuzzleSet {
            list: Vec::new(),
            by_id: HashMap::new(),
            by_rating: Vec::new(),
        };
        let mut bad = Vec::new();
        let mut lines = csv.lines();
        if lines.next().map(str::trim_end) != Some(HEADER) {
            bad.push(BadRow {
                line: 1,
                reason: "not lichess's header".to_string(),
            });
            return (set, bad);
        }
        for (i, line) in lines.enumerate() {
            let line_no = i + 2;
            if line.trim().is_empty() {
                continue;
            }
            match parse_row(line) {
                Ok(p) if set.by_id.contains_key(&p.id) => bad.push(BadRow {
                    line: line_no,
                    reason: format!("id {} seen before", p.id),
                }),
                Ok(p) => {
                    set.by_id.insert(p.id.clone(), set.list.len());
                    set.list.push(p);
                }
                Err(reason) => bad.push(BadRow {
                    line: line_no,
                    reason,
                }),
            }
        }
        set.index();
        (set, bad)
    }

    /// A set of these puzzles (their ids distinct), e.g. synthetic rows for a benchmark.
    pub fn from_puzzles(list: Vec<Puzzle>) -> PuzzleSet {
        let by_id = list
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect();
        let mut set = PuzzleSet {
            list,
            by_id,
            by_rating: Vec::new(),
        };
        set.index();
        set
    }

    fn index(&mut self) {
        let list = &self.list;
        let mut order: Vec<u32> = (0..list.len() as u32).collect();
        order.sort_by_key(|&i| list[i as usize].rating);
        self.by_rating = order;
    }

    /// The puzzles rated `lo..=hi`, by rising rating.
    fn rated_within(&self, lo: f64, hi: f64) -> &[u32] {
        let rating = |i: &u32| f64::from(self.list[*i as usize].rating);
        let start = self.by_rating.partition_point(|i| rating(i) < lo);
        let end = self.by_rating.partition_point(|i| rating(i) <= hi);
        &self.by_rating[start..end.max(start)]
    }

    /// Every puzzle, in the file's order.
    pub fn all(&self) -> &[Puzzle] {
        &self.list
    }

    /// The puzzle with this id (exact: lichess's ids are case-sensitive).
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.by_id.get(id).map(|&i| &self.list[i])
    }

    /// How many puzzles.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The themes of the set, sorted, each once.
    pub fn themes(&self) -> Vec<&str> {
        let mut all: Vec<&str> = self
            .list
            .iter()
            .flat_map(|p| p.themes.iter().map(String::as_str))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The set's own spelling of a theme a user typed (compared without case), if it has it.
    pub fn theme(&self, typed: &str) -> Option<&str> {
        let typed = typed.trim();
        if typed.is_empty() || typed.chars().count() > MAX_THEME_CHARS {
            return None;
        }
        self.list
            .iter()
            .flat_map(|p| p.themes.iter())
            .find(|t| t.eq_ignore_ascii_case(typed))
            .map(String::as_str)
    }
}

/// The first window around the solver's rating, in rating points either side; it doubles
/// until a puzzle is found, up to [`MAX_WINDOW`].
pub const FIRST_WINDOW: f64 = 100.0;
/// The widest window: wider than the whole range of ratings.
pub const MAX_WINDOW: f64 = 6400.0;

impl PuzzleSet {
    /// A puzzle for a solver rated `target`: one `seen` does not hold, with `theme` when one is
    /// given, within [`FIRST_WINDOW`] of `target`, the window doubled until one is found (as
    /// lichess widens its search). Among those of the first window that has any, `seed`
    /// picks one. `None` when none is left.
    ///
    /// A window is a slice of the rating index; it is walked from a place `seed` picks, round
    /// to its start, and the first puzzle of the theme that `seen` does not hold is the one:
    /// `seen` is asked about as few puzzles as that takes (the service answers it from the
    /// store), and each puzzle of the window is as likely to be the walk's start.
    pub fn choose(
        &self,
        seen: &mut dyn FnMut(&str) -> bool,
        theme: Option<&str>,
        target: f64,
        seed: u64,
    ) -> Option<&Puzzle> {
        self.choose_within(seen, theme, target, seed, MAX_WINDOW)
    }

    /// [`PuzzleSet::choose`], the window widened up to `widest` points either side only.
    pub fn choose_within(
        &self,
        seen: &mut dyn FnMut(&str) -> bool,
        theme: Option<&str>,
        target: f64,
        seed: u64,
        widest: f64,
    ) -> Option<&Puzzle> {
        let mut window = FIRST_WINDOW;
        while window <= widest {
            let near = self.rated_within(target - window, target + window);
            if !near.is_empty() {
                let start = (mix(seed) % near.len() as u64) as usize;
                let walk = near[start..].iter().chain(&near[..start]);
                for &i in walk {
                    let p = &self.list[i as usize];
                    if theme.is_none_or(|t| p.has_theme(t)) && !seen(&p.id) {
                        return Some(p);
                    }
                }
            }
            if near.len() == self.list.len() {
                break;
            }
            window *= 2.0;
        }
        None
    }

    /// A Puzzle Streak's ladder, as lichess draws one (lila `PuzzleStreak.scala`): for each
    /// of [`STREAK_BUCKETS`] (a rating and a count), that many puzzles, nearest that rating
    /// among those steady enough (a deviation of at most [`STREAK_STEADY_RD`], or
    /// [`STREAK_STEADY_RD_HIGH`] above [`STREAK_HIGH_FROM`]), each puzzle once; `seed` picks
    /// among the nearest. The ladder climbs: each bucket by rising rating, the buckets in
    /// order. A set without enough puzzles gives a shorter ladder.
    pub fn streak_ladder(&self, seed: u64) -> Vec<&Puzzle> {
        let mut taken = vec![false; self.list.len()];
        let mut ladder = Vec::new();
        let mut draw = seed;
        for &(rating, count) in STREAK_BUCKETS {
            let steady = if rating > STREAK_HIGH_FROM {
                STREAK_STEADY_RD_HIGH
            } else {
                STREAK_STEADY_RD
            };
            // The nearest `3 × count` candidates, then `count` of them by the seed.
            let mut near: Vec<u32> = (0..self.list.len() as u32)
                .filter(|&i| !taken[i as usize] && self.list[i as usize].deviation <= steady)
                .collect();
            near.sort_by_key(|&i| ((self.list[i as usize].rating - rating).abs(), i));
            near.truncate(3 * count);
            let mut bucket = Vec::new();
            while bucket.len() < count && !near.is_empty() {
                draw = mix(draw);
                let i = near.swap_remove((draw % near.len() as u64) as usize);
                taken[i as usize] = true;
                bucket.push(&self.list[i as usize]);
            }
            bucket.sort_by_key(|p| p.rating);
            ladder.extend(bucket);
        }
        ladder
    }
}

/// A daily puzzle's least popularity (lichess's -100..100 scale).
pub const DAILY_MIN_POPULARITY: i32 = 90;
/// Its rating band, when the set has an unused puzzle in it.
pub const DAILY_RATINGS: std::ops::RangeInclusive<i32> = 1500..=2200;

impl PuzzleSet {
    /// The next daily puzzle of a server that already had those `used` holds: among the
    /// puzzles with a popularity of at least [`DAILY_MIN_POPULARITY`], rated within
    /// [`DAILY_RATINGS`] and of more than one move (lichess's daily leaves out `oneMove`), the
    /// one with the most plays × popularity (lichess's "day score", plays × vote); without
    /// one left in the band, the same among all ratings; then any puzzle not used. `None`
    /// when every puzzle was used.
    pub fn daily_candidate(&self, used: &dyn Fn(&str) -> bool) -> Option<&Puzzle> {
        fn score<'p>(p: &&'p Puzzle) -> (i64, std::cmp::Reverse<&'p str>) {
            (
                p.plays * i64::from(p.popularity.max(0)),
                std::cmp::Reverse(p.id.as_str()),
            )
        }
        let fresh = || self.list.iter().filter(|p| !used(&p.id));
        let good = |p: &&Puzzle| p.popularity >= DAILY_MIN_POPULARITY && !p.has_theme("oneMove");
        fresh()
            .filter(good)
            .filter(|p| DAILY_RATINGS.contains(&p.rating))
            .max_by_key(score)
            .or_else(|| fresh().filter(good).max_by_key(score))
            .or_else(|| fresh().max_by_key(score))
    }
}

/// lichess's Puzzle Streak ladder (lila `modules/puzzle/src/main/PuzzleStreak.scala`): a
/// rating and how many puzzles near it, in the order they are served (149 puzzles).
pub const STREAK_BUCKETS: &[(i32, usize)] = &[
    (1050, 3),
    (1150, 4),
    (1300, 5),
    (1450, 6),
    (1600, 7),
    (1750, 8),
    (1900, 10),
    (2050, 13),
    (2199, 15),
    (2349, 17),
    (2499, 19),
    (2649, 21),
    (2799, 21),
];
/// The widest deviation of a streak's puzzle at or below [`STREAK_HIGH_FROM`] (lichess's
/// "top" tier's 85).
pub const STREAK_STEADY_RD: i32 = 85;
/// Above it (lichess's "good" tier's 110).
pub const STREAK_STEADY_RD_HIGH: i32 = 110;
/// Where the streak's steadiness bar is lowered.
pub const STREAK_HIGH_FROM: i32 = 2300;

/// SplitMix64's finaliser: a seed's bits spread over the whole word.
fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The shipped set, read on first use.
pub fn shared() -> &'static PuzzleSet {
    static SET: OnceLock<PuzzleSet> = OnceLock::new();
    SET.get_or_init(|| {
        let (set, bad) = PuzzleSet::parse(CSV);
        for row in &bad {
            tracing::warn!(line = row.line, reason = %row.reason, "a shipped puzzle was left out");
        }
        set
    })
}

/// Reads one row of lichess's format (without the header), its moves replayed from its FEN:
/// a puzzle found in a server's game, stored as such a row's fields.
pub fn parse_one(line: &str) -> Result<Puzzle, String> {
    parse_row(line)
}

/// Reads one row; its moves are replayed from its FEN.
fn parse_row(line: &str) -> Result<Puzzle, String> {
    let cols: Vec<&str> = line.trim_end_matches('\r').split(',').collect();
    if cols.len() != 11 {
        return Err(format!("{} columns, not 11", cols.len()));
    }
    let id = cols[0].trim();
    if id.is_empty() || id.len() > MAX_ID_CHARS || !id.chars().all(|c| c.is_ascii_graphic()) {
        return Err(format!("bad id {id:?}"));
    }
    let start = Position::from_fen(cols[1]).map_err(|e| format!("{id}: FEN: {e}"))?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in cols[2].split_whitespace() {
        let uci: Uci = text
            .parse()
            .map_err(|_| format!("{id}: {text} is not UCI"))?;
        let m = uci
            .to_move(&pos)
            .map_err(|_| format!("{id}: {text} is not legal"))?;
        pos.play(m);
        moves.push(m);
    }
    if moves.len() < 2 || moves.len() % 2 != 0 {
        return Err(format!(
            "{id}: {} moves: the line must end with the solver's",
            moves.len()
        ));
    }
    let number = |i: usize, what: &str| -> Result<i64, String> {
        cols[i]
            .trim()
            .parse::<i64>()
            .map_err(|_| format!("{id}: {what} {:?} is not a number", cols[i]))
    };
    let small = |n: i64, what: &str| -> Result<i32, String> {
        i32::try_from(n).map_err(|_| format!("{id}: {what} out of range"))
    };
    let rating = small(number(3, "rating")?, "rating")?;
    let deviation = small(number(4, "deviation")?, "deviation")?;
    if !(0..=4000).contains(&rating) || !(1..=1000).contains(&deviation) {
        return Err(format!("{id}: rating {rating}/{deviation} out of range"));
    }
    Ok(Puzzle {
        id: id.to_string(),
        fen: cols[1].to_string(),
        start,
        moves,
        rating,
        deviation,
        popularity: small(number(5, "popularity")?, "popularity")?,
        plays: number(6, "plays")?,
        themes: cols[7].split_whitespace().map(str::to_string).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_row_loads_and_replays() {
        let (set, bad) = PuzzleSet::parse(CSV);
        assert_eq!(bad, []);
        assert_eq!(set.len(), 1499);
        // Row 946's id is shipped as the file has it (a spreadsheet's reading of `6E087`?).
        assert!(set.get("6E+087").is_some());
        assert_eq!(shared().len(), 1499);
        let first = set.get("000rZ").unwrap();
        assert_eq!(first.rating, 633);
        assert_eq!(first.deviation, 93);
        assert_eq!(first.popularity, 100);
        assert_eq!(first.plays, 616);
        assert_eq!(first.moves.len(), 2);
        assert_eq!(first.solver(), Color::Black);
        assert!(first.has_theme("MATEIN1"));
        assert!(set.themes().contains(&"fork"));
        assert_eq!(set.theme(" BackRankMate "), Some("backRankMate"));
        assert_eq!(set.theme("nonsense"), None);
        assert_eq!(set.theme(&"x".repeat(10_000)), None);
    }

    #[test]
    fn a_puzzle_is_chosen_unseen_near_the_rating_and_the_window_widens() {
        let set = shared();
        let mut none = |_: &str| false;
        for seed in 0..50 {
            let p = set.choose(&mut none, None, 1000.0, seed).unwrap();
            assert!((p.rating - 1000).abs() <= 100, "{} {}", p.id, p.rating);
            let p = set.choose(&mut none, Some("fork"), 1000.0, seed).unwrap();
            assert!(p.has_theme("fork"));
        }
        // Far above every puzzle, the window widens to the hardest ones.
        let top = set.all().iter().map(|p| p.rating).max().unwrap();
        let p = set.choose(&mut none, None, 3500.0, 7).unwrap();
        assert!(f64::from(p.rating) >= 3500.0 - 1600.0 && p.rating <= top);
        // Seen puzzles are never chosen; once all are seen, none is.
        let mates: Vec<&str> = set
            .all()
            .iter()
            .filter(|p| p.has_theme("mateIn1"))
            .map(|p| p.id.as_str())
            .collect();
        let mut seen_but_one = |id: &str| mates[1..].contains(&id);
        for seed in 0..5 {
            let p = set
                .choose(&mut seen_but_one, Some("mateIn1"), 1500.0, seed)
                .unwrap();
            assert_eq!(p.id, mates[0]);
        }
        let mut all_seen = |id: &str| mates.contains(&id);
        assert!(
            set.choose(&mut all_seen, Some("mateIn1"), 1500.0, 1)
                .is_none()
        );
        assert!(
            set.choose(&mut none, Some("noSuchTheme"), 1500.0, 1)
                .is_none()
        );
    }

    #[test]
    fn the_rating_index_finds_every_puzzle_of_a_window() {
        let set = shared();
        for (lo, hi) in [
            (0.0, 5000.0),
            (1000.0, 1100.0),
            (1499.5, 1500.5),
            (3000.0, 2000.0),
        ] {
            let mut want: Vec<&str> = set
                .all()
                .iter()
                .filter(|p| (lo..=hi).contains(&f64::from(p.rating)))
                .map(|p| p.id.as_str())
                .collect();
            let mut got: Vec<&str> = set
                .rated_within(lo, hi)
                .iter()
                .map(|&i| set.all()[i as usize].id.as_str())
                .collect();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "{lo}..={hi}");
        }
    }

    #[test]
    fn a_streak_ladder_climbs_lichess_buckets_each_puzzle_once() {
        let set = shared();
        let ladder = set.streak_ladder(42);
        let want: usize = STREAK_BUCKETS.iter().map(|b| b.1).sum();
        assert_eq!(want, 149);
        assert_eq!(ladder.len(), want, "the shipped set fills every bucket");
        let mut ids: Vec<&str> = ladder.iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), ladder.len(), "no puzzle twice");
        // Each bucket's puzzles by rising rating, and the first bucket easier than the last.
        let mut at = 0;
        for &(_, n) in STREAK_BUCKETS {
            let b = &ladder[at..at + n];
            assert!(b.windows(2).all(|w| w[0].rating <= w[1].rating));
            at += n;
        }
        let first = ladder[..3].iter().map(|p| p.rating).max().unwrap();
        let last = ladder[ladder.len() - 21..]
            .iter()
            .map(|p| p.rating)
            .min()
            .unwrap();
        assert!(first < 1300 && last > first, "{first} {last}");
        // The shipped set is thin above 2000: the top buckets take its hardest steady
        // puzzles, the hardest of all among them.
        let hardest = set
            .all()
            .iter()
            .filter(|p| p.deviation <= STREAK_STEADY_RD_HIGH)
            .max_by_key(|p| p.rating)
            .unwrap();
        assert!(ladder.iter().any(|p| p.id == hardest.id), "{}", hardest.id);
        assert!(ladder.iter().all(|p| p.deviation <= STREAK_STEADY_RD_HIGH));
        // Another seed, another ladder; the same seed, the same one.
        assert_ne!(set.streak_ladder(43), ladder);
        assert_eq!(set.streak_ladder(42), ladder);
    }

    #[test]
    fn a_daily_puzzle_is_popular_played_in_the_band_and_never_twice() {
        let set = shared();
        let mut used: Vec<String> = Vec::new();
        let mut last_score = i64::MAX;
        for _ in 0..5 {
            let p = set
                .daily_candidate(&|id| used.iter().any(|u| u == id))
                .unwrap();
            assert!(p.popularity >= DAILY_MIN_POPULARITY, "{}", p.id);
            assert!(DAILY_RATINGS.contains(&p.rating), "{} {}", p.id, p.rating);
            assert!(!p.has_theme("oneMove"));
            // The best day score first, then the next best.
            let score = p.plays * i64::from(p.popularity);
            assert!(score <= last_score);
            last_score = score;
            let best = set
                .all()
                .iter()
                .filter(|q| {
                    q.popularity >= DAILY_MIN_POPULARITY
                        && DAILY_RATINGS.contains(&q.rating)
                        && !q.has_theme("oneMove")
                        && !used.contains(&q.id)
                })
                .map(|q| q.plays * i64::from(q.popularity))
                .max()
                .unwrap();
            assert_eq!(score, best);
            used.push(p.id.clone());
        }
        // With the band used up, another rating; with everything used, none.
        let in_band = |id: &str| {
            set.get(id)
                .is_some_and(|p| DAILY_RATINGS.contains(&p.rating))
        };
        let p = set.daily_candidate(&in_band).unwrap();
        assert!(!DAILY_RATINGS.contains(&p.rating));
        assert!(set.daily_candidate(&|_| true).is_none());
    }

    #[test]
    fn rows_that_do_not_replay_are_returned_not_served() {
        let csv = format!(
            "{HEADER}\n\
             aaaaa,8/8/8/8/8/8/8/8 w - - 0 1,e2e4 e7e5,1000,80,90,10,mate,,,\n\
             bbbbb,4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,e2e5 e8e7,1000,80,90,10,mate,,,\n\
             ccccc,4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,e2e4,1000,80,90,10,mate,,,\n\
             ddddd,4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,e2e4 e8e7,x,80,90,10,mate,,,\n\
             eeeee,4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,e2e4 e8e7,1000,80,90,10,mate,,\n\
             fffff,4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,e2e4 e8e7,1000,80,90,10,endgame,,,\n\
             fffff,4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,e2e4 e8e7,1000,80,90,10,endgame,,,\n"
        );
        let (set, bad) = PuzzleSet::parse(&csv);
        assert_eq!(set.len(), 1);
        assert!(set.get("fffff").is_some());
        assert_eq!(
            bad.iter().map(|b| b.line).collect::<Vec<_>>(),
            [2, 3, 4, 5, 6, 8]
        );
        let (none, bad) = PuzzleSet::parse("not,a,header\n");
        assert!(none.is_empty());
        assert_eq!(bad.len(), 1);
    }
}
