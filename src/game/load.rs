//! Loading a game: the stored rows rebuilt by the rules (or taken from the cache), and the
//! view the front ends get.

use std::collections::HashMap;
use std::sync::MutexGuard;

use cajitas_rules::{
    Color, DrawClaim, DrawReason, Game, Move, Outcome, Piece, Position, Role, Uci, WinReason,
};

use super::{ChannelRef, ClockView, Failure, GameError, GameService, GameView, Lang, TimeControl};
use crate::store::{DrawOfferRow, GameRow, GameStatus, MoveRow, Side, Tx, UserRow};

/// A rebuilt game and the stored state it was rebuilt from.
pub(super) struct CachedGame {
    pub(super) ply: u32,
    pub(super) fen: String,
    pub(super) updated_at: i64,
    pub(super) status: GameStatus,
    pub(super) game: Game,
    pub(super) moves: Vec<KeptMove>,
    pub(super) opening: Named,
}

/// A played move's UCI and SAN as stored, as a loaded (and cached) game keeps them: inline
/// in 24 bytes, where the stored row's two strings took 72 bytes and two allocations (a
/// cache of 512 games of 40 plies: about 3.5 MB down to under 0.5 MB). A UCI is at most 5
/// bytes and the rules' SAN at most 7; a longer stored pair (14 bytes or more together,
/// from an older row) is kept as it is, on the heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum KeptMove {
    Inline {
        uci_len: u8,
        san_len: u8,
        bytes: [u8; KeptMove::INLINE],
    },
    Heap(Box<(String, String)>),
}

impl KeptMove {
    const INLINE: usize = 14;

    pub(super) fn new(uci: &str, san: &str) -> KeptMove {
        let (u, s) = (uci.len(), san.len());
        if u + s <= Self::INLINE {
            let mut bytes = [0u8; Self::INLINE];
            bytes[..u].copy_from_slice(uci.as_bytes());
            bytes[u..u + s].copy_from_slice(san.as_bytes());
            KeptMove::Inline {
                uci_len: u as u8,
                san_len: s as u8,
                bytes,
            }
        } else {
            KeptMove::Heap(Box::new((uci.to_owned(), san.to_owned())))
        }
    }

    /// The move in UCI, as stored.
    pub(super) fn uci(&self) -> &str {
        match self {
            KeptMove::Inline { uci_len, bytes, .. } => text(&bytes[..usize::from(*uci_len)]),
            KeptMove::Heap(pair) => &pair.0,
        }
    }

    /// The move in SAN, as stored.
    pub(super) fn san(&self) -> &str {
        match self {
            KeptMove::Inline {
                uci_len,
                san_len,
                bytes,
            } => {
                let at = usize::from(*uci_len);
                text(&bytes[at..at + usize::from(*san_len)])
            }
            KeptMove::Heap(pair) => &pair.1,
        }
    }
}

impl From<&MoveRow> for KeptMove {
    fn from(row: &MoveRow) -> KeptMove {
        KeptMove::new(&row.uci, &row.san)
    }
}

/// Bytes copied whole from a `&str` (`KeptMove::new` cuts only at the two strings' ends).
fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or_default()
}

/// A game's opening as of a ply (see [`crate::openings::of_game`]), kept with the cached game
/// so that a move's view looks up one position instead of replaying the first 40 plies.
pub(super) type Named = Option<(u32, Option<crate::openings::InBook>)>;

/// How many rebuilt games are kept (a few hundred concurrent games cost well under 100 MB).
pub(super) const CACHE_LIMIT: usize = 512;

/// A game read from the store and rebuilt by the rules.
pub(super) struct Loaded {
    pub(super) row: GameRow,
    pub(super) game: Game,
    pub(super) moves: Vec<KeptMove>,
    pub(super) offer: Option<DrawOfferRow>,
    /// The opening as the cache last named it (`None`: to be searched).
    pub(super) opening: Named,
}

impl Loaded {
    /// The id of the user playing `colour`.
    pub(super) fn player_id(&self, colour: Color) -> u64 {
        match colour {
            Color::White => self.row.white.id,
            Color::Black => self.row.black.id,
        }
    }

    pub(super) fn colour_of(&self, user: u64) -> Option<Color> {
        if user == self.row.white.id {
            Some(Color::White)
        } else if user == self.row.black.id {
            Some(Color::Black)
        } else {
            None
        }
    }
}

pub(super) fn side(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

pub(super) fn colour(s: Side) -> Color {
    match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

pub(super) const ABORTED: &str = "aborted";

/// Ends `game` the way a player or the application decided (resignation, timeout,
/// agreement, a claim now or with `claim_move`); automatic endings need nothing.
pub(super) fn apply_ending(
    game: &mut Game,
    outcome: Outcome,
    claim_move: Option<Move>,
) -> Result<(), String> {
    if game.outcome() == Some(outcome) {
        return Ok(());
    }
    match outcome {
        Outcome::Decisive {
            winner,
            reason: WinReason::Resignation,
        } => game.resign(!winner).map_err(|e| e.to_string()),
        Outcome::Decisive {
            winner,
            reason: WinReason::Timeout,
        } => game.timeout(!winner).map_err(|e| e.to_string()),
        Outcome::Draw {
            reason: DrawReason::Agreement,
        } => game.agree_draw().map_err(|e| e.to_string()),
        // A flag fall against a side that cannot mate: the flag was the player to move's.
        Outcome::Draw {
            reason: DrawReason::TimeoutVsInsufficientMaterial,
        } => {
            let loser = game.position().turn();
            game.timeout(loser).map_err(|e| e.to_string())
        }
        Outcome::Draw {
            reason: reason @ (DrawReason::ThreefoldClaim | DrawReason::FiftyMoveClaim),
        } => {
            let claim = if reason == DrawReason::ThreefoldClaim {
                DrawClaim::ThreefoldRepetition
            } else {
                DrawClaim::FiftyMoves
            };
            match claim_move {
                Some(m) => game.claim_draw_with(m, claim),
                None => game.claim_draw(claim),
            }
            .map_err(|e| e.to_string())
        }
        other => Err(format!("stored outcome {other:?} is not the game's")),
    }
    .map(|_| ())
}

/// The stored outcome of a finished game.
pub(super) fn stored_outcome(row: &GameRow) -> Result<Option<Outcome>, GameError> {
    if row.status != GameStatus::Finished {
        return Ok(None);
    }
    let term = row.termination.as_deref().unwrap_or("");
    let found = match row.winner {
        Some(w) => term.parse().map(|reason| Outcome::Decisive {
            winner: colour(w),
            reason,
        }),
        None => term.parse().map(|reason| Outcome::Draw { reason }),
    };
    found.map(Some).map_err(|_| {
        Failure::bad_game(format!("game {}: unknown termination {term:?}", row.id)).into()
    })
}

pub(super) fn material(pos: &Position) -> i32 {
    let board = pos.board();
    let mut total = 0;
    for (role, value) in [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ] {
        let w = board.by_piece(Piece {
            color: Color::White,
            role,
        });
        let b = board.by_piece(Piece {
            color: Color::Black,
            role,
        });
        total += value * (w.count() as i32 - b.count() as i32);
    }
    total
}

impl GameService {
    pub(super) fn cache(&self) -> MutexGuard<'_, HashMap<i64, Box<CachedGame>>> {
        self.inner.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reads a game's moves and rebuilds it with the rules, or takes it from the cache when
    /// the cached copy is of exactly the stored state: same ply, current FEN, status, time of
    /// the last change and last move (another process writing the same database changes
    /// at least one of them).
    pub(super) fn load(&self, tx: &dyn Tx, row: GameRow) -> Result<Loaded, GameError> {
        // Taken out, not copied: the operation puts it back ([`GameService::keep`]) with its
        // result, so a move copies no history. An operation that fails leaves the game out,
        // and the next one rebuilds it from the store (as another process's change would).
        let hit = self
            .cache()
            .remove(&row.id)
            .filter(|c| {
                c.ply == row.ply
                    && c.fen == row.fen
                    && c.status == row.status
                    && c.updated_at == row.updated_at
            })
            .map(|c| {
                let c = *c;
                (c.game, c.moves, c.opening)
            });
        if let Some((game, moves, opening)) = hit {
            let (last, offer) = tx.move_uci_and_open_offer(row.id, row.ply.wrapping_sub(1))?;
            if last.as_deref() != moves.last().map(KeptMove::uci) {
                return self.rebuild(tx, row);
            }
            // Only an active game has an open offer (the store resolves it at the end).
            let offer = offer.filter(|_| row.status == GameStatus::Active);
            return Ok(Loaded {
                row,
                game,
                moves,
                offer,
                opening,
            });
        }
        self.rebuild(tx, row)
    }

    pub(super) fn rebuild(&self, tx: &dyn Tx, row: GameRow) -> Result<Loaded, GameError> {
        let bad = |what: String, cause: Option<Box<dyn std::error::Error + Send + Sync>>| {
            GameError::from(super::Failure::Rules {
                what: format!("game {}: {what}", row.id),
                cause,
            })
        };
        let start = super::Variant::from_db(row.chess960)?
            .read_fen(&row.start_fen)
            .map_err(|e| bad("start FEN".into(), Some(e.into())))?;
        let moves = tx.moves(row.id)?;
        let mut game = Game::from_position(start);
        for m in &moves {
            let uci = m
                .uci
                .parse::<Uci>()
                .map_err(|e| bad(format!("ply {} {:?}", m.ply, m.uci), Some(e.into())))?;
            let mv = uci
                .to_move(game.position())
                .map_err(|e| bad(format!("ply {} {:?}", m.ply, m.uci), Some(e.into())))?;
            game.try_play(mv)
                .map_err(|e| bad(format!("ply {} {:?}", m.ply, m.uci), Some(e.into())))?;
        }
        if game.moves().len() != row.ply as usize {
            return Err(bad(
                format!("{} moves stored for ply {}", game.moves().len(), row.ply),
                None,
            ));
        }
        // A game that ended by a player's decision (resignation, agreement, claim) ends the
        // same way in the rebuilt Game, so that its PGN says so too.
        if let Some(outcome) = stored_outcome(&row)?
            && game.outcome() != Some(outcome)
        {
            let claim_move = match &row.claim_move {
                Some(text) => Some(
                    text.parse::<Uci>()
                        .ok()
                        .and_then(|u| u.to_move(game.position()).ok())
                        .ok_or_else(|| bad(format!("claim move {text:?}"), None))?,
                ),
                None => None,
            };
            apply_ending(&mut game, outcome, claim_move)
                .map_err(|e| bad("ending".into(), Some(e.into())))?;
        }
        let offer = if row.status == GameStatus::Active {
            tx.open_draw_offer(row.id)?
        } else {
            None
        };
        Ok(Loaded {
            row,
            game,
            moves: moves.iter().map(KeptMove::from).collect(),
            offer,
            opening: None,
        })
    }

    pub(super) fn view(&self, mut l: Loaded) -> Result<GameView, GameError> {
        let pos = l.game.position().clone();
        // One move since the cache named it (the usual case): one lookup; else the search.
        let ply = l.game.moves().len() as u32;
        let opening = match l.opening {
            Some((at, found)) if at == ply => found,
            Some((at, found)) if at + 1 == ply => {
                crate::openings::after_ply(found, l.game.start(), &pos, ply)
            }
            _ => crate::openings::of_game(l.game.start(), l.game.moves()),
        };
        l.opening = Some((ply, opening));
        let outcome = stored_outcome(&l.row)?;
        let variant = super::Variant::from_db(l.row.chess960)?;
        let active = l.row.status == GameStatus::Active;
        let view = Ok(GameView {
            game_id: l.row.id,
            lang: if l.row.lang == "es" {
                Lang::Es
            } else {
                Lang::En
            },
            white: l.row.white.clone().into(),
            black: l.row.black.clone().into(),
            ply: l.row.ply,
            fullmove: pos.fullmoves(),
            last_move: l.game.moves().last().copied(),
            last_san: l.moves.last().map(|m| m.san().to_owned()),
            to_move: pos.turn(),
            check: pos.is_check(),
            outcome,
            claimable: if active {
                l.game.claimable()
            } else {
                Vec::new()
            },
            claimable_now: if active {
                l.game.claimable_now()
            } else {
                Vec::new()
            },
            draw_offer_by: l.offer.as_ref().map(|o| colour(o.by)),
            material: material(&pos),
            finished: !active,
            aborted: l.row.status == GameStatus::Aborted,
            result: l.row.result.clone(),
            start: l.game.start().clone(),
            moves: l.game.moves().to_vec(),
            guild: l.row.guild,
            channel: l.row.channel,
            thread: l.row.thread,
            clock: ClockView::new(
                TimeControl::from_row(l.row.tc),
                &l.row.clock,
                l.row.ply,
                pos.turn(),
                active,
                l.row.finished_at,
                self.now(),
            ),
            rated: l.row.rated,
            variant,
            rating_changes: Vec::new(),
            tournament: None,
            opening,
            position: pos,
        });
        self.keep(l);
        view
    }

    /// Caches a rebuilt game (see [`GameService::load`]).
    pub(super) fn keep(&self, l: Loaded) {
        let mut cache = self.cache();
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(
            l.row.id,
            Box::new(CachedGame {
                ply: l.row.ply,
                fen: l.row.fen,
                updated_at: l.row.updated_at,
                status: l.row.status,
                game: l.game,
                moves: l.moves,
                opening: l.opening,
            }),
        );
    }

    /// The game in progress that `actor` means at `ch` (see [`GameService::locate`]), or the
    /// refusal that says why there is none.
    pub(super) fn active_for(
        &self,
        tx: &dyn Tx,
        ch: ChannelRef,
        actor: Option<u64>,
    ) -> Result<Loaded, GameError> {
        let row = self.locate(tx, ch, actor, false)?;
        self.load(tx, row)
    }

    /// The game a command typed at `ch` is about:
    /// - the game in progress played there when `ch` is its thread, or when acting (a move,
    ///   a resignation) in a channel whose game is played in the channel itself;
    /// - else `actor`'s one game in progress there (refused with their threads' links when
    ///   they have several);
    /// - else, when acting, the refusal: the links to the games in progress in threads, or
    ///   that the game is over, or that there is none;
    /// - else, when looking (`or_last`): a game's own thread: its game; `actor`'s last game
    ///   of the channel, so that `/pgn` still reaches a game whose thread was archived; and
    ///   for someone who never played there, what a spectator expects: the game played in
    ///   the channel itself, the links to the games in progress in threads (for no one in
    ///   particular, `actor` being `None`: the one game in progress), else the channel's
    ///   last game. Someone with a game there is never given another pair's game.
    pub(super) fn locate(
        &self,
        tx: &dyn Tx,
        ch: ChannelRef,
        actor: Option<u64>,
        or_last: bool,
    ) -> Result<GameRow, GameError> {
        let plays = |g: &GameRow| actor.is_some_and(|a| g.white.id == a || g.black.id == a);
        let here = tx.active_game(ch.channel)?;
        if let Some(row) = &here
            && (row.thread == Some(ch.channel) || !or_last || plays(row))
        {
            return Ok(row.clone());
        }
        let threaded = tx.active_thread_games(ch.channel)?;
        let mine: Vec<&GameRow> = threaded.iter().filter(|g| plays(g)).collect();
        let links = |games: &[&GameRow]| {
            games
                .iter()
                .filter_map(|g| g.thread)
                .take(super::MAX_LINKS)
                .collect::<Vec<u64>>()
        };
        match mine.as_slice() {
            [one] => return Ok((*one).clone()),
            [] => {}
            several => {
                return Err(GameError::SeveralGames {
                    threads: links(several),
                });
            }
        }
        let all: Vec<&GameRow> = threaded.iter().collect();
        let last_here = tx.last_game(ch.channel)?;
        if !or_last {
            if !all.is_empty() {
                return Err(GameError::GamesInThreads {
                    threads: links(&all),
                });
            }
            let ever = last_here.is_some() || tx.last_channel_game(ch.channel, None)?.is_some();
            return Err(if ever {
                GameError::GameOver
            } else {
                GameError::NoGame
            });
        }
        // A game's own thread: its game.
        if let Some(row) = last_here.as_ref().filter(|g| g.thread == Some(ch.channel)) {
            return Ok(row.clone());
        }
        // The actor's last game of the channel (none of theirs is in progress).
        if let Some(a) = actor
            && let Some(row) = tx.last_channel_game(ch.channel, Some(a))?
        {
            return Ok(row);
        }
        // A spectator: the game played here, the games in progress in threads, else the
        // channel's last game.
        if let Some(row) = here {
            return Ok(row);
        }
        match (actor, all.as_slice()) {
            (_, []) => {}
            // Asked for no one (a tool, a notice): the channel's one game.
            (None, [one]) => return Ok((*one).clone()),
            _ => {
                return Err(GameError::GamesInThreads {
                    threads: links(&all),
                });
            }
        }
        tx.last_channel_game(ch.channel, None)?
            .or(last_here)
            .ok_or(GameError::NoGame)
    }

    pub(super) fn player(l: &Loaded, actor: &UserRow) -> Result<Color, GameError> {
        l.colour_of(actor.id).ok_or(GameError::NotAPlayer)
    }

    pub(super) fn check_ply(l: &Loaded, expected: Option<u32>) -> Result<(), GameError> {
        match expected {
            Some(p) if p != l.row.ply => Err(GameError::PositionChanged),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod kept_move_tests {
    use super::KeptMove;

    #[test]
    fn a_kept_move_gives_back_what_was_stored() {
        for (uci, san) in [
            ("e2e4", "e4"),
            ("e7e8q", "exd8=Q#"),
            ("a1b2", "Qa1xb2+"),
            // Figurines and other older forms: longer in bytes, kept whole on the heap.
            ("g1f3", "♘f3"),
            ("d1h5", "Dama h5 con jaque"),
            ("", ""),
        ] {
            let k = KeptMove::new(uci, san);
            assert_eq!((k.uci(), k.san()), (uci, san));
        }
        assert!(matches!(
            KeptMove::new("e7e8q", "exd8=Q#"),
            KeptMove::Inline { .. }
        ));
        assert!(matches!(
            KeptMove::new("d1h5", "Dama h5 con jaque"),
            KeptMove::Heap(_)
        ));
    }

    // What the type is for: a cached game's moves in a third of the stored rows' bytes.
    #[test]
    fn a_kept_move_is_small() {
        assert!(std::mem::size_of::<KeptMove>() <= 24);
        assert!(std::mem::size_of::<crate::store::MoveRow>() >= 3 * 24);
    }
}
