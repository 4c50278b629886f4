//! Ratings through the game service: rated and unrated games, exactly-once under
//! redelivery and racing endings, provisional marks, the leaderboard's pages and stale
//! buttons, stats, and a rebuild that equals the incremental result bit for bit.

mod support;

use std::sync::{Arc, Barrier};
use std::time::Duration;

use cajitas::game::ratings::{Missing, MyStanding, Speed, pool_of};
use cajitas::game::{
    ChannelRef, ColourChoice, GameError, GameService, Lang, ManualClock, Seen, ServiceOptions,
    UserRef,
};
use cajitas::store::{RatingChangeRow, RatingRow, StoreExt, UserRow};

const DAY: Duration = Duration::from_secs(86_400);
const GUILD: u64 = 900;

fn svc() -> (GameService, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(1_800_000_000_000));
    let svc = support::db::memory_or_postgres(
        env!("CARGO_CRATE_NAME"),
        ServiceOptions::with_clock(clock.clone()),
    );
    (svc, clock)
}

fn user(id: u64, name: &str) -> UserRef {
    UserRef::new(id, name, false)
}

fn ch(channel: u64) -> ChannelRef {
    ChannelRef {
        guild: Some(GUILD),
        channel,
    }
}

/// Starts a game in `c` with `w` white, through a challenge (rated unless said otherwise).
fn start(g: &GameService, c: ChannelRef, w: &UserRef, b: &UserRef, rated: bool) -> i64 {
    g.challenges()
        .challenge_rated(w, c, Some(b), ColourChoice::White, rated)
        .unwrap();
    g.challenges().accept(b, c).unwrap().game_id
}

fn play(g: &GameService, c: ChannelRef, w: &UserRef, b: &UserRef, moves: &[&str]) {
    for (i, m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { w } else { b };
        g.play().play_move(who, c, m, Lang::En, false).unwrap();
    }
}

/// Everything stored about the ratings: each player's rating per pool and speed and every
/// change, as bits.
fn snapshot(g: &GameService, users: &[u64]) -> Vec<String> {
    let store = g.shared_store();
    let s = store.lock().unwrap();
    s.read(|tx| {
        let mut out = Vec::new();
        for &u in users {
            for pool in [GUILD as i64, 901] {
                for r in tx.ratings_of(pool, u)? {
                    out.push(format!(
                        "{} {:?} {} {:x} {:x} {:x} {} {}",
                        r.pool,
                        r.speed,
                        r.user_id,
                        r.rating.to_bits(),
                        r.deviation.to_bits(),
                        r.volatility.to_bits(),
                        r.games,
                        r.rated_at
                    ));
                    for c in tx.rating_changes(pool, r.speed, u)? {
                        out.push(change_bits(&c));
                    }
                }
            }
        }
        Ok::<_, cajitas::store::StoreError>(out)
    })
    .unwrap()
}

fn change_bits(c: &RatingChangeRow) -> String {
    format!(
        "{} {} {:?} {} {:x} {:x} {:x} {:x} {:x} {}",
        c.game_id,
        c.user_id,
        c.colour,
        c.score,
        c.rating_before.to_bits(),
        c.deviation_before.to_bits(),
        c.rating_after.to_bits(),
        c.deviation_after.to_bits(),
        c.volatility_after.to_bits(),
        c.at
    )
}

fn history_len(g: &GameService) -> usize {
    snapshot(g, &[1, 2, 3, 4])
        .iter()
        .filter(|l| !l.starts_with(&GUILD.to_string()) && !l.starts_with("901"))
        .count()
}

const FOOLS_MATE: [&str; 4] = ["f3", "e5", "g4", "Qh4#"];

#[test]
fn a_rated_game_moves_both_ratings_once_with_a_history_row_each() {
    let (g, _) = svc();
    let (a, b) = (user(1, "alice"), user(2, "bob"));
    let c = ch(10);
    let id = start(&g, c, &a, &b, true);
    play(&g, c, &a, &b, &FOOLS_MATE[..3]);
    let end = g
        .play()
        .play_move(&b, c, "Qh4#", Lang::En, false)
        .unwrap()
        .view;
    assert!(end.rated);
    let ch_ = &end.rating_changes;
    assert_eq!(ch_.len(), 2, "{ch_:?}");
    let (white, black) = (&ch_[0], &ch_[1]);
    assert_eq!(white.user.name, "alice");
    assert_eq!(black.user.name, "bob");
    // Two new players (1500, RD 500), Black wins: lichess's numbers (lila's
    // RatingCalculatorTest "default deviation: black wins": 1256 and 1744, RD 396.7003; by
    // docs/glicko_vectors.py 1255.626254 and 1744.373746). The win with Black was less
    // expected than one with White (1738.60), so it moves the ratings more.
    assert_eq!(white.before.text(), "1500?");
    assert_eq!(
        (white.after.text(), black.after.text()),
        ("1256?".to_owned(), "1744?".to_owned())
    );
    assert!((white.after.rating - 1255.626254).abs() < 1e-5, "{ch_:?}");
    assert!((black.after.rating - 1744.373746).abs() < 1e-5, "{ch_:?}");
    assert!((white.after.deviation - 396.700308).abs() < 1e-5, "{ch_:?}");
    assert_eq!((white.diff(), black.diff()), (-244, 244));
    assert!(white.after.provisional() && black.after.provisional());
    assert_eq!(g.ratings().rating_changes(id).unwrap(), end.rating_changes);
    assert_eq!(history_len(&g), 2);
    // The board of the finished game is read, not rated again.
    g.queries().board(c).unwrap();
    assert_eq!(history_len(&g), 2);
}

#[test]
fn unrated_games_change_nothing() {
    let (g, _) = svc();
    let (a, b) = (user(1, "alice"), user(2, "bob"));
    // Casual.
    let c = ch(10);
    start(&g, c, &a, &b, false);
    play(&g, c, &a, &b, &FOOLS_MATE);
    assert!(g.queries().board(c).unwrap().rating_changes.is_empty());
    // Aborted.
    start(&g, c, &a, &b, true);
    g.play().play_move(&a, c, "e4", Lang::En, false).unwrap();
    let v = g.play().abort(&b, c).unwrap().view;
    assert!(v.aborted && v.rating_changes.is_empty());
    // Fewer than two moves per side: resigned after 1. e4 e5 2. Nf3.
    start(&g, c, &a, &b, true);
    play(&g, c, &a, &b, &["e4", "e5", "Nf3"]);
    assert!(
        g.play()
            .resign(&b, c, None)
            .unwrap()
            .view
            .rating_changes
            .is_empty()
    );
    // A set position (tools and tests): unrated.
    g.challenges()
        .start_game(&a, &b, c, &cajitas_rules::Position::new())
        .unwrap();
    play(&g, c, &a, &b, &FOOLS_MATE);
    assert_eq!(snapshot(&g, &[1, 2]), Vec::<String>::new());
    let stats = g.ratings().stats(c, &a).unwrap();
    assert!(stats.speeds.is_empty() && stats.recent.is_empty());
    // …and two moves each is enough.
    start(&g, c, &a, &b, true);
    play(&g, c, &a, &b, &["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(
        g.play()
            .resign(&b, c, None)
            .unwrap()
            .view
            .rating_changes
            .len(),
        2
    );
}

#[test]
fn takebacks_are_refused_in_rated_games_only() {
    let (g, _) = svc();
    let (a, b) = (user(1, "alice"), user(2, "bob"));
    let c = ch(10);
    start(&g, c, &a, &b, true);
    play(&g, c, &a, &b, &["e4"]);
    assert!(matches!(
        g.play().takeback_request(&a, c, None),
        Err(GameError::TakebackInRatedGame)
    ));
    g.play().abort(&a, c).unwrap();
    start(&g, c, &a, &b, false);
    play(&g, c, &a, &b, &["e4"]);
    g.play().takeback_request(&a, c, None).unwrap();
}

#[test]
fn a_redelivered_final_move_counts_once() {
    let (g, _) = svc();
    let (a, b) = (user(1, "alice"), user(2, "bob"));
    let c = ch(10);
    start(&g, c, &a, &b, true);
    play(&g, c, &a, &b, &FOOLS_MATE[..3]);
    g.play()
        .play_move_at(&b, c, "Qh4#", Lang::En, false, Some(3))
        .unwrap();
    let once = snapshot(&g, &[1, 2]);
    // The same move delivered again (a retried interaction that got past the bookkeeping).
    for _ in 0..3 {
        let again = g
            .play()
            .play_move_at(&b, c, "Qh4#", Lang::En, false, Some(3));
        assert!(
            matches!(again, Err(GameError::GameOver)),
            "{:?}",
            again.map(|r| r.view.result)
        );
    }
    assert_eq!(snapshot(&g, &[1, 2]), once);
    assert_eq!(history_len(&g), 2);
}

#[test]
fn a_resignation_racing_a_mate_counts_once() {
    const SCHOLARS: [&str; 6] = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"];
    for round in 0..8 {
        let (g, _) = svc();
        let (a, b) = (user(1, "alice"), user(2, "bob"));
        let c = ch(10);
        let id = start(&g, c, &a, &b, true);
        play(&g, c, &a, &b, &SCHOLARS);
        let barrier = Arc::new(Barrier::new(2));
        let (g1, g2) = (g.clone(), g.clone());
        let (a1, b1) = (a.clone(), b.clone());
        let (bar1, bar2) = (barrier.clone(), barrier.clone());
        // Black resigns (having seen ply 6) while White mates.
        let resign = std::thread::spawn(move || {
            bar1.wait();
            g1.play().resign(&b1, c, Seen::at(id, 6)).map(|d| d.view)
        });
        let mate = std::thread::spawn(move || {
            bar2.wait();
            g2.play()
                .play_move_at(&a1, c, "Qxf7#", Lang::En, false, Some(6))
                .map(|r| r.view)
        });
        let (r1, r2) = (resign.join().unwrap(), mate.join().unwrap());
        let landed: Vec<_> = [&r1, &r2].into_iter().filter(|r| r.is_ok()).collect();
        assert_eq!(landed.len(), 1, "round {round}: {r1:?} / {r2:?}");
        let view = landed[0].as_ref().unwrap();
        assert_eq!(view.rating_changes.len(), 2);
        for r in [&r1, &r2] {
            if let Err(e) = r {
                assert!(
                    matches!(e, GameError::PositionChanged | GameError::GameOver),
                    "{e:?}"
                );
            }
        }
        // White won either way, exactly once.
        assert_eq!(view.result, "1-0");
        assert_eq!(history_len(&g), 2);
        assert_eq!(g.ratings().rating_changes(id).unwrap(), view.rating_changes);
    }
}

/// Stores a rating directly (the live pool has no games yet: clocks come with another branch).
fn put(g: &GameService, pool: i64, speed: Speed, id: u64, rating: f64, rd: f64, games: u32) {
    let store = g.shared_store();
    let s = store.lock().unwrap();
    s.immediate(|tx| {
        tx.upsert_user(
            &UserRow {
                id,
                name: format!("p{id}"),
                is_bot: false,
            },
            0,
        )?;
        tx.put_rating(&RatingRow {
            pool,
            speed,
            user_id: id,
            rating,
            deviation: rd,
            volatility: 0.06,
            games,
            rated_at: 1_800_000_000_000,
        })
    })
    .unwrap();
}

#[test]
fn provisional_marks_follow_the_deviation_and_inactivity() {
    let (g, clock) = svc();
    let c = ch(10);
    let pool = pool_of(c.guild, c.channel);
    put(&g, pool, Speed::Live, 7, 1800.0, 60.0, 40);
    put(&g, pool, Speed::Live, 8, 1700.0, 130.0, 40);
    let me = UserRef::new(7, "p7", false);
    let s = g.ratings().stats(c, &me).unwrap();
    assert_eq!(s.speeds[0].shown.text(), "1800");
    let other = g.ratings().stats(c, &UserRef::new(8, "p8", false)).unwrap();
    assert_eq!(other.speeds[0].shown.text(), "1700?");
    // A year without games: RD 60 grows to about 110, and the rating is provisional again.
    clock.advance(DAY * 366);
    let s = g.ratings().stats(c, &me).unwrap();
    assert!(s.speeds[0].shown.deviation > 110.0, "{:?}", s.speeds[0]);
    assert_eq!(s.speeds[0].shown.text(), "1800?");
    // The leaderboard tests the RD as of now, as the "?" does: no longer listed, and told
    // that the rating is what is missing, not the games.
    let lb = g.ratings().leaderboard(c, Speed::Live, 0, 7, None).unwrap();
    assert!(lb.entries.is_empty(), "{:?}", lb.entries);
    assert_eq!(lb.total, 0);
    assert!(
        matches!(
            lb.me,
            MyStanding::Unranked {
                games: 40,
                missing: Missing::Steadiness,
                shown: Some(s),
            } if s.provisional()
        ),
        "{:?}",
        lb.me
    );
}

#[test]
fn an_idle_player_leaves_the_leaderboard_when_their_rating_turns_provisional() {
    let (g, clock) = svc();
    let c = ch(12);
    let pool = pool_of(c.guild, c.channel);
    // RD 90 (σ 0.06) after their last game: RD² grows by 0.21436·σ²·173.7178² a day, so
    // the RD as of now reaches 110 after (110² − 90²)/(0.21436·0.06²·173.7178²) = 171.8 days.
    put(&g, pool, Speed::Live, 7, 1533.0, 90.0, 22);
    put(&g, pool, Speed::Live, 8, 1400.0, 60.0, 30);
    let listed = |viewer| {
        let lb = g
            .ratings()
            .leaderboard(c, Speed::Live, 0, viewer, None)
            .unwrap();
        let ids: Vec<u64> = lb.entries.iter().map(|e| e.user.id).collect();
        (ids, lb.total, lb.me)
    };
    let (ids, total, me) = listed(7);
    assert_eq!((ids, total), (vec![7, 8], 2));
    assert!(matches!(me, MyStanding::Ranked { rank: 1, .. }), "{me:?}");
    // 171 days on: still steady, still listed.
    clock.advance(DAY * 171);
    assert_eq!(listed(7).0, vec![7, 8]);
    // 200 days on: shown "1533?" and off the list; the other player (RD 60) stays, now first.
    clock.advance(DAY * 29);
    let s = g.ratings().stats(c, &UserRef::new(7, "p7", false)).unwrap();
    assert_eq!(s.speeds[0].shown.text(), "1533?");
    let (ids, total, me) = listed(7);
    assert_eq!((ids, total), (vec![8], 1));
    let MyStanding::Unranked {
        games: 22,
        shown: Some(shown),
        missing: Missing::Steadiness,
    } = me
    else {
        panic!("{me:?}");
    };
    assert_eq!(shown.text(), "1533?");
    assert_eq!(shown.deviation.round(), 113.0, "{shown:?}");
    assert!(matches!(listed(8).2, MyStanding::Ranked { rank: 1, .. }));
    // A player with a steady RD and too few games lacks only games; a new one, both.
    put(&g, pool, Speed::Live, 9, 1600.0, 80.0, 3);
    assert!(matches!(
        listed(9).2,
        MyStanding::Unranked {
            games: 3,
            missing: Missing::Games,
            ..
        }
    ));
    assert!(matches!(
        listed(10).2,
        MyStanding::Unranked {
            games: 0,
            missing: Missing::Both,
            shown: None
        }
    ));
}

#[test]
fn leaderboard_pages_ranks_and_stale_versions() {
    let (g, _) = svc();
    let c = ch(10);
    let pool = pool_of(c.guild, c.channel);
    // 25 ranked players, 1000..=3400 step 100; one with too few games, one too uncertain,
    // and one in another server.
    for i in 0..25u64 {
        put(
            &g,
            pool,
            Speed::Live,
            100 + i,
            1000.0 + 100.0 * i as f64,
            50.0,
            10,
        );
    }
    put(&g, pool, Speed::Live, 200, 5000.0, 50.0, 4);
    put(&g, pool, Speed::Live, 201, 5000.0, 110.0, 50);
    put(&g, 777, Speed::Live, 202, 5000.0, 50.0, 50);
    let page = |p, viewer| {
        g.ratings()
            .leaderboard(c, Speed::Live, p, viewer, None)
            .unwrap()
    };
    let first = page(0, 110);
    assert_eq!((first.total, first.pages, first.page), (25, 3, 0));
    let names: Vec<_> = first.entries.iter().map(|e| e.user.id).collect();
    assert_eq!(names, (115..=124).rev().collect::<Vec<u64>>());
    assert_eq!(first.entries[0].rank, 1);
    assert_eq!(
        first.me,
        MyStanding::Ranked {
            rank: 15,
            shown: first.me_shown()
        }
    );
    let last = page(2, 200);
    assert_eq!(last.entries.len(), 5);
    assert_eq!(last.entries[4].rank, 25);
    assert_eq!(last.entries[4].user.id, 100);
    assert!(matches!(last.me, MyStanding::Unranked { games: 4, .. }));
    // Past the end: the last page.
    assert_eq!(page(99, 1).page, 2);
    // The correspondence pool is empty.
    let corr = g
        .ratings()
        .leaderboard(c, Speed::Correspondence, 0, 1, None)
        .unwrap();
    assert!(corr.entries.is_empty() && corr.pages == 1);
    assert_eq!(
        corr.me,
        MyStanding::Unranked {
            games: 0,
            shown: None,
            missing: Missing::Both
        }
    );
    // A button of the current version pages; once a rated game changes the pool, it is stale.
    let v = first.version;
    assert!(
        g.ratings()
            .leaderboard(c, Speed::Correspondence, 1, 1, Some(corr.version))
            .is_ok()
    );
    let (a, b) = (user(1, "alice"), user(2, "bob"));
    start(&g, c, &a, &b, true);
    play(&g, c, &a, &b, &FOOLS_MATE);
    assert!(matches!(
        g.ratings()
            .leaderboard(c, Speed::Correspondence, 1, 1, Some(corr.version)),
        Err(GameError::PositionChanged)
    ));
    // The live pool did not change: its buttons still work.
    assert!(
        g.ratings()
            .leaderboard(c, Speed::Live, 1, 1, Some(v))
            .is_ok()
    );
}

#[test]
fn the_callers_rank_is_their_place_in_the_list_with_ties_by_id() {
    let (g, _) = svc();
    let c = ch(11);
    let pool = pool_of(c.guild, c.channel);
    // 13 ranked players with ties (three at 2000, two at 1500), and two unranked ones rated
    // among them.
    let ratings = [
        2400.0, 2000.0, 2000.0, 2000.0, 1900.0, 1700.0, 1500.0, 1500.0, 1400.0, 1300.0, 1200.0,
        1100.0, 1000.0,
    ];
    // Ids not in rating order, so that the ties are broken by id, not by insertion.
    for (i, r) in ratings.iter().enumerate() {
        put(
            &g,
            pool,
            Speed::Live,
            300 + (i as u64 * 7) % 13,
            *r,
            60.0,
            5,
        );
    }
    put(&g, pool, Speed::Live, 400, 2000.0, 60.0, 4);
    put(&g, pool, Speed::Live, 401, 2000.0, 110.0, 9);
    let mut listed = Vec::new();
    for p in 0..2 {
        let lb = g
            .ratings()
            .leaderboard(c, Speed::Live, p, 400, None)
            .unwrap();
        assert_eq!(lb.total, 13);
        listed.extend(lb.entries.iter().map(|e| (e.rank, e.user.id)));
    }
    assert_eq!(listed.len(), 13);
    for (place, (rank, id)) in listed.iter().enumerate() {
        assert_eq!(*rank, place as u64 + 1);
        let lb = g
            .ratings()
            .leaderboard(c, Speed::Live, 0, *id, None)
            .unwrap();
        assert_eq!(
            lb.me,
            MyStanding::Ranked {
                rank: *rank,
                shown: lb.me_shown()
            },
            "player {id}"
        );
    }
    // Within a tie, the smaller id first.
    let tied: Vec<u64> = listed[1..4].iter().map(|(_, id)| *id).collect();
    let mut sorted = tied.clone();
    sorted.sort();
    assert_eq!(tied, sorted);
}

trait MeShown {
    fn me_shown(&self) -> cajitas::game::ratings::Shown;
}

impl MeShown for cajitas::game::ratings::LeaderboardView {
    fn me_shown(&self) -> cajitas::game::ratings::Shown {
        match &self.me {
            MyStanding::Ranked { shown, .. } => *shown,
            MyStanding::Unranked { shown, .. } => shown.expect("a rating"),
        }
    }
}

/// Plays a rated game between `w` and `b` in `c` ending with `how` (white's score).
fn game(g: &GameService, c: ChannelRef, w: &UserRef, b: &UserRef, white_score: f64) {
    start(g, c, w, b, true);
    play(g, c, w, b, &["e4", "e5", "Nf3", "Nc6"]);
    if white_score == 1.0 {
        g.play().resign(b, c, None).unwrap();
    } else if white_score == 0.0 {
        g.play().resign(w, c, None).unwrap();
    } else {
        g.play().draw_offer(w, c, None).unwrap();
        g.play().draw_accept(b, c, None).unwrap();
    }
}

#[test]
fn stats_count_colours_peak_streak_and_recent_games() {
    let (g, clock) = svc();
    let c = ch(10);
    let (a, b, d) = (user(1, "alice"), user(2, "bob"), user(3, "dora"));
    game(&g, c, &a, &b, 1.0); // alice wins with white
    clock.advance(DAY);
    game(&g, c, &b, &a, 0.5); // draw, alice black
    clock.advance(DAY);
    game(&g, c, &a, &d, 0.0); // alice loses with white
    game(&g, c, &d, &a, 1.0); // alice loses with black
    let s = g.ratings().stats(c, &a).unwrap();
    assert_eq!(s.speeds.len(), 1);
    let sp = &s.speeds[0];
    assert_eq!(sp.speed, Speed::Correspondence);
    assert_eq!(sp.games, 4);
    assert_eq!((sp.white.wins, sp.white.draws, sp.white.losses), (1, 0, 1));
    assert_eq!((sp.black.wins, sp.black.draws, sp.black.losses), (0, 1, 1));
    let streak = sp.streak.unwrap();
    assert_eq!((streak.score, streak.len), (0.0, 2));
    assert_eq!(sp.history.len(), 4);
    let peak = sp.history.iter().map(|p| p.rating).fold(f64::MIN, f64::max);
    assert_eq!(sp.peak, peak);
    assert_eq!(sp.peak, sp.history[0].rating);
    assert_eq!(s.recent.len(), 4);
    assert_eq!(s.recent[0].opponent.name, "dora");
    assert_eq!(s.recent[0].score, 0.0);
    assert_eq!(s.recent[3].opponent.name, "bob");
    assert_eq!(s.recent[3].place, c);
    // Another server is another pool.
    let elsewhere = ChannelRef {
        guild: Some(GUILD + 1),
        channel: 10,
    };
    assert!(g.ratings().stats(elsewhere, &a).unwrap().speeds.is_empty());
}

#[test]
fn a_rebuild_equals_the_incremental_ratings_to_the_last_bit() {
    let (g, clock) = svc();
    let users = [
        user(1, "alice"),
        user(2, "bob"),
        user(3, "carol"),
        user(4, "dan"),
    ];
    // Two servers' worth of games, results and gaps of days to weeks, some unrated.
    let mut rng = fastrand::Rng::with_seed(17);
    for i in 0..60 {
        let guild = if i % 3 == 0 { GUILD + 1 } else { GUILD };
        let c = ChannelRef {
            guild: Some(guild),
            channel: 10 + (i % 2),
        };
        let w = rng.usize(..4);
        let b = (w + 1 + rng.usize(..3)) % 4;
        let score = [0.0, 0.5, 1.0][rng.usize(..3)];
        if i % 7 == 0 {
            start(&g, c, &users[w], &users[b], false);
            play(&g, c, &users[w], &users[b], &FOOLS_MATE);
        } else {
            game(&g, c, &users[w], &users[b], score);
        }
        clock.advance(Duration::from_secs(rng.u64(..86_400 * 20)));
    }
    let ids: Vec<u64> = users.iter().map(|u| u.id).collect();
    let incremental = snapshot(&g, &ids);
    assert!(incremental.len() > 100, "{}", incremental.len());
    let report = g.ratings().rebuild_ratings().unwrap();
    assert_eq!(report.games, 60 - 60usize.div_ceil(7));
    assert_eq!(snapshot(&g, &ids), incremental);
    // Rebuilding again changes nothing either.
    g.ratings().rebuild_ratings().unwrap();
    assert_eq!(snapshot(&g, &ids), incremental);
}

#[test]
fn the_rebuild_command_rebuilds_the_database_the_bot_runs_on() {
    use support::db::{Backend, TestDb};
    // The bot's database: a SQLite file, or (in `ratings_postgres`) a PostgreSQL URL.
    let db = TestDb::new(Backend::of_target(env!("CARGO_CRATE_NAME")), "rebuild-cli");
    let clock = Arc::new(ManualClock::new(1_800_000_000_000));
    let g = db.open(ServiceOptions::with_clock(clock));
    let (a, b) = (user(1, "alice"), user(2, "bob"));
    game(&g, ch(10), &a, &b, 1.0);
    let rated = snapshot(&g, &[1, 2]);
    // A rating that no longer matches the games: the rebuild puts it right.
    put(
        &g,
        pool_of(Some(GUILD), 10),
        Speed::Correspondence,
        1,
        2222.0,
        50.0,
        9,
    );
    assert_ne!(snapshot(&g, &[1, 2]), rated);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cajitas"))
        .args(["ratings", "rebuild"])
        .env("CAJITAS_DB", db.env_value())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("Ratings rebuilt: 1 rated game, 2 ratings."),
        "{stdout}{stderr}"
    );
    assert_eq!(snapshot(&g, &[1, 2]), rated);
    // …with lichess's numbers (White won): 1738.60 and 1261.40, RD 396.7003, whatever the
    // database held before (a deployment rated the old way rebuilds once).
    let c = ch(10);
    let stats = |u: &UserRef| g.ratings().stats(c, u).unwrap().speeds[0].shown;
    let (w, b) = (stats(&a), stats(&b));
    assert!((w.rating - 1738.603531).abs() < 1e-5, "{w:?}");
    assert!((b.rating - 1261.396469).abs() < 1e-5, "{b:?}");
    assert!((w.deviation - 396.700308).abs() < 1e-5, "{w:?}");
}

#[test]
fn a_game_against_the_engine_changes_nothing_even_if_stored_as_rated() {
    use cajitas::game::engine_user_id;
    use cajitas::store::{ClockRow, NewGame, TimeControlRow};
    let (g, _) = svc();
    let a = user(1, "alice");
    let engine = UserRef::new(engine_user_id(3), "Stockfish", true);
    let c = ch(10);
    // `/play` stores its games unrated; one stored as rated (an older row, a bug) still does
    // not count: the engine is never rated against.
    {
        let store = g.shared_store();
        let s = store.lock().unwrap();
        s.immediate(|tx| {
            for u in [&a, &engine] {
                let row = UserRow {
                    id: u.id,
                    name: u.name.clone(),
                    is_bot: u.is_bot,
                };
                tx.upsert_user(&row, 0)?;
            }
            tx.insert_game(&NewGame {
                chess960: None,
                guild: c.guild,
                channel: c.channel,
                white: a.id,
                black: engine.id,
                start_fen: &cajitas_rules::Position::new().fen(),
                now: 1_800_000_000_000,
                lang: "en",
                thread: None,
                rated: true,
                tc: TimeControlRow::default(),
                clock: ClockRow::default(),
            })
            .map(|_| ())
        })
        .unwrap();
    }
    play(&g, c, &a, &engine, &["e4", "e5", "Nf3", "Nc6"]);
    let end = g.play().resign(&a, c, None).unwrap().view;
    assert!(end.finished && end.rated, "stored as rated");
    assert!(end.rating_changes.is_empty());
    assert_eq!(snapshot(&g, &[a.id, engine.id]), Vec::<String>::new());
}

#[test]
fn pgn_tags_say_rated_or_casual_and_the_time_control_as_lichess_does() {
    use cajitas::game::{ChallengeTerms, TimeControl};
    let (g, _) = svc();
    let (a, b) = (user(1, "alice"), user(2, "bob"));
    let c = ch(10);
    let tags = |g: &GameService| {
        let pgn = g.queries().pgn(c).unwrap();
        let tag = |name: &str| {
            let start = format!("[{name} \"");
            let line = pgn.lines().find(|l| l.starts_with(&start));
            line.map(|l| l[start.len()..l.len() - 2].to_owned())
        };
        (tag("Event"), tag("TimeControl"))
    };
    let some = |e: &str, t: &str| (Some(e.to_owned()), Some(t.to_owned()));
    for (time, rated, want) in [
        (
            TimeControl::DEFAULT,
            true,
            some("Rated correspondence game", "-"),
        ),
        (
            TimeControl::DEFAULT,
            false,
            some("Casual correspondence game", "-"),
        ),
        (
            TimeControl::Live {
                base_secs: 180,
                increment_secs: 2,
            },
            true,
            some("Rated live game", "180+2"),
        ),
        (
            TimeControl::Live {
                base_secs: 600,
                increment_secs: 5,
            },
            false,
            some("Casual live game", "600+5"),
        ),
        (
            TimeControl::Untimed,
            false,
            some("Casual correspondence game", "-"),
        ),
    ] {
        let terms = ChallengeTerms {
            time,
            rated,
            ..ChallengeTerms::new(ColourChoice::White)
        };
        g.challenges()
            .challenge_with(&a, c, Some(&b), terms)
            .unwrap();
        g.challenges().accept(&b, c).unwrap();
        play(&g, c, &a, &b, &FOOLS_MATE);
        assert_eq!(tags(&g), want, "{time:?} rated {rated}");
    }
}

/// Raw SQL on a test's database beside its service: the leaderboard's differential test
/// deletes rows as no command does, reads the cells of migration 0018, and runs the O(n)
/// counts the cells replaced.
enum Raw {
    Sqlite(rusqlite::Connection),
    Postgres(postgres::Client),
}

/// A cell: pool, speed, epoch, band, players.
type Cell = (i64, String, i64, i64, i64);

impl Raw {
    fn open(db: &support::db::TestDb) -> Raw {
        match db {
            support::db::TestDb::Sqlite { file, .. } => {
                Raw::Sqlite(rusqlite::Connection::open(file).unwrap())
            }
            support::db::TestDb::Postgres(pg) => Raw::Postgres(pg.client()),
        }
    }

    fn delete(&mut self, pool: i64, speed: Speed, user: u64) {
        let sql = "DELETE FROM ratings WHERE pool = $1 AND speed = $2 AND user_id = $3";
        match self {
            Raw::Sqlite(c) => {
                let sql = sql.replace('$', "?");
                c.execute(&sql, rusqlite::params![pool, speed.as_str(), user as i64])
                    .unwrap();
            }
            Raw::Postgres(c) => {
                c.execute(sql, &[&pool, &speed.as_str(), &(user as i64)])
                    .unwrap();
            }
        }
    }

    fn cells(&mut self, sql: &str) -> Vec<Cell> {
        let mut cells: Vec<Cell> = match self {
            Raw::Sqlite(c) => c
                .prepare(sql)
                .unwrap()
                .query_map([], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                })
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap(),
            Raw::Postgres(c) => c
                .query(sql, &[])
                .unwrap()
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
                .collect(),
        };
        cells.sort();
        cells
    }

    /// The stored cells, and the same counted again from `ratings` by their definition.
    fn cells_and_recount(&mut self) -> (Vec<Cell>, Vec<Cell>) {
        let band = match self {
            Raw::Sqlite(_) => "CAST(rating / 50.0 AS INTEGER)",
            Raw::Postgres(_) => "trunc(rating / 50.0::DOUBLE PRECISION)::BIGINT",
        };
        let stored = self.cells("SELECT pool, speed, epoch, band, n FROM leaderboard_cells");
        let recount = self.cells(&format!(
            "SELECT pool, speed, steady_until / 604800000, {band}, count(*) FROM ratings
             WHERE games >= 5 AND deviation < 110 GROUP BY 1, 2, 3, 4"
        ));
        (stored, recount)
    }

    /// The ranked count and the players above `(x, u)` as the leaderboard counted them before
    /// its cells: one test per ranked player.
    fn linear_counts(&mut self, pool: i64, speed: Speed, now: i64, x: f64, u: u64) -> (i64, i64) {
        let sql = "SELECT count(*),
                 coalesce(sum(CASE WHEN rating > $4 OR (rating = $4 AND user_id < $5)
                     THEN 1 ELSE 0 END), 0)
             FROM ratings
             WHERE pool = $1 AND speed = $2 AND games >= 5 AND deviation < 110
                 AND steady_until > $3";
        match self {
            Raw::Sqlite(c) => c
                .query_row(
                    &sql.replace('$', "?"),
                    rusqlite::params![pool, speed.as_str(), now, x, u as i64],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap(),
            Raw::Postgres(c) => {
                let r = c
                    .query_one(sql, &[&pool, &speed.as_str(), &now, &x, &(u as i64)])
                    .unwrap();
                (r.get(0), r.get::<_, i64>(1))
            }
        }
    }
}

/// The cells the model's rows make, by the Rust definitions of band and epoch.
fn model_cells(
    model: &std::collections::BTreeMap<(i64, &'static str, u64), RatingRow>,
) -> Vec<Cell> {
    use cajitas::store::{leaderboard_band, leaderboard_epoch, steady_until};
    let mut counts: std::collections::BTreeMap<(i64, String, i64, i64), i64> = Default::default();
    for r in model.values() {
        if r.games >= 5 && r.deviation < 110.0 {
            let epoch = leaderboard_epoch(steady_until(r.deviation, r.volatility, r.rated_at));
            let key = (
                r.pool,
                r.speed.as_str().to_owned(),
                epoch,
                leaderboard_band(r.rating),
            );
            *counts.entry(key).or_default() += 1;
        }
    }
    let mut cells: Vec<Cell> = counts
        .into_iter()
        .map(|((p, s, e, b), n)| (p, s, e, b, n))
        .collect();
    cells.sort();
    cells
}

/// The leaderboard's counts from its cells (migration 0018) equal a brute-force count over
/// every row, and the O(n) SQL they replaced, for ratings at band edges (1549.999…, 1550.0,
/// equal ratings of several players, negative bands), deviations and games at the
/// thresholds, players whose RD reaches 110 at an epoch's edge or at `now` (±1 ms), after
/// random inserts, updates, deletes and clears; and the cells equal a recount.
#[test]
fn the_leaderboards_counts_from_cells_equal_a_count_of_every_player() {
    use cajitas::store::{LEADERBOARD_EPOCH_MS as W, ranked_at, steady_until};
    use std::collections::BTreeMap;

    let backend = support::db::Backend::of_target(env!("CARGO_CRATE_NAME"));
    let db = support::db::TestDb::new(backend, "cells");
    let g = db.open(ServiceOptions::default());
    let mut raw = Raw::open(&db);
    let store = g.shared_store();
    const T0: i64 = 1_800_000_000_000;
    const POOLS: [i64; 2] = [900, -17];
    const SPEEDS: [Speed; 2] = [Speed::Live, Speed::Correspondence];
    const USERS: u64 = 24;
    store
        .lock()
        .unwrap()
        .immediate(|tx| {
            for id in 1..=USERS {
                let name = format!("p{id}");
                tx.upsert_user(
                    &UserRow {
                        id,
                        name,
                        is_bot: false,
                    },
                    0,
                )?;
            }
            Ok::<_, cajitas::store::StoreError>(())
        })
        .unwrap();
    let ratings = [
        1500.0,
        1549.999,
        1549.9999999999998,
        1550.0,
        1550.0000000000002,
        1499.9999999999998,
        1450.0,
        1600.0,
        0.0,
        49.99,
        -49.99,
        -50.0,
        -75.5,
    ];
    let deviations = [
        0.0,
        45.0,
        100.0,
        109.9999,
        109.99999999999999,
        110.0,
        110.00000000000001,
        150.0,
    ];
    let volatilities = [0.06, 0.06, 0.09, 0.0];
    // Epoch edges around T0, and T0 itself.
    let e0 = T0 / W;
    let mut anchors: Vec<i64> = (e0 - 1..=e0 + 3)
        .flat_map(|k| [k * W - 1, k * W, k * W + 1])
        .collect();
    anchors.extend([T0 - 1, T0, T0 + 1]);

    let mut rng = fastrand::Rng::with_seed(25);
    let mut model: BTreeMap<(i64, &'static str, u64), RatingRow> = BTreeMap::new();
    for round in 0..10 {
        // Random writes.
        for _ in 0..60 {
            let pool = POOLS[rng.usize(..2)];
            let speed = SPEEDS[rng.usize(..2)];
            let user = rng.u64(1..=USERS);
            let op = rng.u32(..100);
            if op < 15 {
                raw.delete(pool, speed, user);
                model.remove(&(pool, speed.as_str(), user));
                continue;
            }
            let rating = match rng.u32(..4) {
                0 | 1 => ratings[rng.usize(..ratings.len())],
                2 => model
                    .values()
                    .nth(rng.usize(..model.len().max(1)))
                    .map_or(1500.0, |r| r.rating),
                _ => 1400.0 + rng.f64() * 300.0,
            };
            let deviation = if rng.bool() {
                deviations[rng.usize(..deviations.len())]
            } else {
                40.0 + rng.f64() * 80.0
            };
            let volatility = volatilities[rng.usize(..volatilities.len())];
            // Where the RD reaches 110: at an anchor, or anywhere within some weeks of T0.
            let target = if rng.bool() {
                anchors[rng.usize(..anchors.len())]
            } else {
                T0 + rng.i64(-3 * W..5 * W)
            };
            let from_zero = steady_until(deviation, volatility, 0);
            let rated_at = if from_zero == i64::MIN {
                T0 - rng.i64(0..W)
            } else {
                target - from_zero
            };
            let r = RatingRow {
                pool,
                speed,
                user_id: user,
                rating,
                deviation,
                volatility,
                games: [3, 4, 5, 6, 50][rng.usize(..5)],
                rated_at,
            };
            store
                .lock()
                .unwrap()
                .immediate(|tx| tx.put_rating(&r))
                .unwrap();
            model.insert((pool, speed.as_str(), user), r);
        }
        if round == 6 {
            store
                .lock()
                .unwrap()
                .immediate(|tx| tx.clear_ratings())
                .unwrap();
            model.clear();
        }
        // The cells: what the triggers kept, a recount in SQL, and the Rust definitions.
        let (stored, recount) = raw.cells_and_recount();
        assert_eq!(stored, recount, "round {round}");
        assert_eq!(stored, model_cells(&model), "round {round}");

        // The counts at many moments, for players and arbitrary ratings.
        let mut nows: Vec<i64> = anchors.clone();
        for r in model.values().take(6) {
            let s = steady_until(r.deviation, r.volatility, r.rated_at);
            if s != i64::MIN {
                nows.extend([s - 1, s, s + 1]);
            }
        }
        nows.extend((0..4).map(|_| T0 + rng.i64(-4 * W..6 * W)));
        nows.push(T0 + 10_000 * W);
        for &now in &nows {
            for pool in POOLS {
                for speed in SPEEDS {
                    let rows: Vec<&RatingRow> = model
                        .values()
                        .filter(|r| r.pool == pool && r.speed == speed)
                        .collect();
                    let ranked: Vec<&&RatingRow> =
                        rows.iter().filter(|r| ranked_at(r, now)).collect();
                    let total = ranked.len() as u64;
                    let above = |x: f64, u: u64| {
                        ranked
                            .iter()
                            .filter(|r| r.rating > x || (r.rating == x && r.user_id < u))
                            .count() as u64
                    };
                    let (got_total, none) = store
                        .lock()
                        .unwrap()
                        .read(|tx| tx.ranked_count_and_above(pool, speed, now, None))
                        .unwrap();
                    assert_eq!((got_total, none), (total, None), "now {now}");
                    let mut probes: Vec<(f64, u64)> = rows
                        .iter()
                        .filter(|_| rng.u32(..3) == 0)
                        .map(|r| (r.rating, r.user_id))
                        .collect();
                    probes.push((ratings[rng.usize(..ratings.len())], rng.u64(1..=USERS)));
                    probes.push((1400.0 + rng.f64() * 300.0, 0));
                    for (i, &(x, u)) in probes.iter().enumerate() {
                        let probe = RatingRow {
                            pool,
                            speed,
                            user_id: u,
                            rating: x,
                            deviation: 50.0,
                            volatility: 0.06,
                            games: 10,
                            rated_at: now,
                        };
                        let want = above(x, u);
                        let s = store.lock().unwrap();
                        let got = s.read(|tx| tx.players_above(&probe, now)).unwrap();
                        let both = s
                            .read(|tx| tx.ranked_count_and_above(pool, speed, now, Some(&probe)))
                            .unwrap();
                        drop(s);
                        let what = format!("round {round}, {pool} {speed:?} at {now}, ({x}, {u})");
                        assert_eq!(got, want, "{what}");
                        assert_eq!(both, (total, Some(want)), "{what}");
                        if i == 0 {
                            let linear = raw.linear_counts(pool, speed, now, x, u);
                            assert_eq!(linear, (total as i64, want as i64), "{what}");
                        }
                    }
                }
            }
        }
    }
}

/// Rated games of one pool ending at once in several processes (services on one database)
/// move players between the same cells: every end lands (on PostgreSQL the writers of a pool
/// take its leaderboard's lock with their players', so the cells' row locks never wait in a
/// cycle and each trigger reads the count the last one committed; without that lock this
/// fails most runs, a cell's count decremented to 0 behind another's back) and the cells
/// equal a recount.
#[test]
fn rated_ends_at_once_in_one_pool_keep_the_cells_exact() {
    const PAIRS: u64 = 4;
    const GAMES: usize = 6;
    let backend = support::db::Backend::of_target(env!("CARGO_CRATE_NAME"));
    let db = support::db::TestDb::new(backend, "cells_at_once");
    let first = db.open(ServiceOptions::default());
    let pool = pool_of(Some(GUILD), 500);
    // Every player ranked, in one cell to begin with.
    for id in 1..=2 * PAIRS {
        put(&first, pool, Speed::Correspondence, id, 1500.0, 60.0, 10);
    }
    let barrier = Arc::new(Barrier::new(PAIRS as usize));
    let threads: Vec<_> = (0..PAIRS)
        .map(|i| {
            let g = db.open(ServiceOptions::default());
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let c = ch(500 + i);
                let (a, b) = (user(2 * i + 1, "a"), user(2 * i + 2, "b"));
                barrier.wait();
                for n in 0..GAMES {
                    // Colours alternate: ratings go up and down across band edges.
                    let (w, bl) = if n % 2 == 0 { (&a, &b) } else { (&b, &a) };
                    start(&g, c, w, bl, true);
                    play(&g, c, w, bl, &FOOLS_MATE);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let (stored, recount) = Raw::open(&db).cells_and_recount();
    assert_eq!(stored, recount);
    let ranked: i64 = stored.iter().map(|c| c.4).sum();
    assert_eq!(ranked, 2 * PAIRS as i64);
}
