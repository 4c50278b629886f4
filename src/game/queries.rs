//! Reading games: the board, PGN, history and legal moves.

use super::load::{Loaded, stored_outcome};
use super::{
    ChannelRef, GameError, GameService, GameView, HistoryEntry, Site, TimeControl, UserRef,
};
use crate::store::{GameRow, Speed, Tx};

/// Reading games: the board, a game by id, its PGN (with its analysis), its replay and UCI
/// moves, the channel's history, legal moves, and the count of games in progress. Nothing
/// here writes. From [`GameService::queries`].
#[derive(Debug, Clone, Copy)]
pub struct Queries<'a> {
    pub(super) svc: &'a GameService,
}

impl Queries<'_> {
    /// How many games are in progress, in every place (a count on the store's indexes of
    /// active games: cheap, for a metrics gauge).
    pub fn active_game_count(&self) -> Result<u64, GameError> {
        self.svc.read(|tx| Ok(tx.active_game_count()?))
    }

    /// The channel's game in progress, or its last game when none is.
    pub fn board(&self, ch: ChannelRef) -> Result<GameView, GameError> {
        let v = self
            .svc
            .read(|tx| self.svc.view(self.current_or_last(tx, ch, None)?))?;
        self.looked_at(&v);
        Ok(v)
    }

    /// The game `actor` means at `ch` (see `locate`): in a game's thread, its game; in a
    /// channel, `actor`'s own game: their one game in progress there (refused with the links
    /// to their threads when they have several), else their last game there, reached after
    /// its thread was archived. Someone who never played there gets the game played in the
    /// channel itself, else the links to the games in progress in threads, else the
    /// channel's last game; never another pair's game for someone who has one there.
    pub fn board_for(&self, actor: &UserRef, ch: ChannelRef) -> Result<GameView, GameError> {
        let v = self
            .svc
            .read(|tx| self.svc.view(self.current_or_last(tx, ch, Some(actor.id))?))?;
        self.looked_at(&v);
        Ok(v)
    }

    /// Looking at a game against the computer counts as a command: a waiting engine tries
    /// again.
    fn looked_at(&self, v: &GameView) {
        if !v.finished && v.engine().is_some() {
            self.svc.poke_engine(v.game_id);
        }
    }

    fn current_or_last(
        &self,
        tx: &dyn Tx,
        ch: ChannelRef,
        actor: Option<u64>,
    ) -> Result<Loaded, GameError> {
        let row = self.svc.locate(tx, ch, actor, true)?;
        self.svc.load(tx, row)
    }

    /// A game by id.
    pub fn game(&self, game_id: i64) -> Result<GameView, GameError> {
        self.svc.read(|tx| {
            let row = tx.game(game_id)?.ok_or(GameError::NoGame)?;
            self.svc.view(self.svc.load(tx, row)?)
        })
    }

    /// Replays a game by id from its start position and stored moves with the rules, never
    /// from the cache, and checks that the position reached is the stored one. Returns its
    /// PGN (`cajitas migrate` compares it on both databases).
    pub fn replay(&self, game_id: i64) -> Result<String, GameError> {
        self.svc.read(|tx| {
            let row = tx.game(game_id)?.ok_or(GameError::NoGame)?;
            let stored = row.fen.clone();
            let l = self.svc.rebuild(tx, row)?;
            let fen = l.game.position().fen();
            if fen != stored {
                return Err(super::Failure::bad_game(format!(
                    "game {game_id}: the moves lead to {fen}, the stored position is {stored}"
                ))
                .into());
            }
            Ok(pgn_of(&l, self.svc.options().site))
        })
    }

    /// The moves of a game in UCI, as stored.
    pub fn moves_uci(&self, game_id: i64) -> Result<Vec<String>, GameError> {
        self.svc
            .read(|tx| Ok(tx.moves(game_id)?.into_iter().map(|m| m.uci).collect()))
    }

    /// The PGN of the channel's game in progress, or of its last game.
    pub fn pgn(&self, ch: ChannelRef) -> Result<String, GameError> {
        self.svc.read(|tx| {
            let l = self.current_or_last(tx, ch, None)?;
            Ok(pgn_of(&l, self.svc.options().site))
        })
    }

    /// The PGN of the channel's game in progress, or of its last game, and its link to
    /// lichess's analysis board (read together, from one snapshot).
    pub fn pgn_and_analysis(&self, ch: ChannelRef) -> Result<(String, String), GameError> {
        self.pgn_and_analysis_of(ch, None)
    }

    /// [`pgn_and_analysis`](Self::pgn_and_analysis) of the game `actor` means at `ch`.
    pub fn pgn_and_analysis_for(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
    ) -> Result<(String, String), GameError> {
        self.pgn_and_analysis_of(ch, Some(actor.id))
    }

    fn pgn_and_analysis_of(
        &self,
        ch: ChannelRef,
        actor: Option<u64>,
    ) -> Result<(String, String), GameError> {
        self.svc.read(|tx| {
            let l = self.current_or_last(tx, ch, actor)?;
            let pgn = pgn_of(&l, self.svc.options().site);
            let sans: Vec<String> = l.moves.iter().map(|m| m.san().to_owned()).collect();
            let variant = super::Variant::from_db(l.row.chess960)?;
            let url = super::analysis::lichess_url(variant, &sans, &l.game.position().fen());
            self.svc.keep(l);
            Ok((pgn, url))
        })
    }

    /// The channel's last finished games, newest first (at most `limit`, capped at 100); in
    /// a game's thread, those of its channel.
    pub fn history(&self, ch: ChannelRef, limit: usize) -> Result<Vec<HistoryEntry>, GameError> {
        self.svc.read(|tx| {
            let channel = match tx.last_game(ch.channel)? {
                Some(g) if g.thread == Some(ch.channel) => g.channel,
                _ => ch.channel,
            };
            let rows = tx.finished_games(channel, limit.min(100))?;
            rows.into_iter()
                .map(|row| {
                    let outcome = stored_outcome(&row)?;
                    Ok(HistoryEntry {
                        game_id: row.id,
                        white: row.white.into(),
                        black: row.black.into(),
                        result: row.result,
                        outcome,
                        termination: row.termination.unwrap_or_default(),
                        plies: row.ply,
                        started_at: row.created_at,
                        finished_at: row.finished_at.unwrap_or(row.updated_at),
                    })
                })
                .collect()
        })
    }

    /// The legal moves in SAN for `actor`, when they are to move in the channel's game;
    /// empty otherwise (also when there is no game).
    pub fn legal_moves_for(
        &self,
        actor: &UserRef,
        ch: ChannelRef,
    ) -> Result<Vec<String>, GameError> {
        self.svc.read(|tx| {
            let Ok(row) = self.svc.locate(tx, ch, Some(actor.id), false) else {
                return Ok(Vec::new());
            };
            let l = self.svc.load(tx, row)?;
            let pos = l.game.position();
            let sans = if l.colour_of(actor.id) == Some(pos.turn()) {
                pos.legal_moves()
                    .iter()
                    .map(|&m| cajitas_rules::san(pos, m).to_string())
                    .collect()
            } else {
                Vec::new()
            };
            self.svc.keep(l);
            Ok(sans)
        })
    }
}

/// "YYYY.MM.DD" (UTC) of a Unix time in ms, for the PGN Date tag.
fn pgn_date(unix_ms: i64) -> String {
    let d = super::calendar::CivilDate::of_unix_ms(unix_ms);
    format!("{:04}.{:02}.{:02}", d.year, d.month, d.day)
}

/// The PGN `Event` tag, worded as lichess words its exports ("Rated Blitz game"), with our
/// two speeds: a rated game (one against the engine never is) or a casual one, live or
/// correspondence (untimed games rate as correspondence). PGN tags stay English, as
/// everywhere.
fn pgn_event(game: &GameRow) -> &'static str {
    let rated = game.rated && !super::ratings::is_engine_game(game);
    match (rated, super::ratings::speed_of(game)) {
        (true, Speed::Live) => "Rated live game",
        (true, Speed::Correspondence) => "Rated correspondence game",
        (false, Speed::Live) => "Casual live game",
        (false, Speed::Correspondence) => "Casual correspondence game",
        (true, Speed::Chess960) => "Rated Chess960 game",
        (false, Speed::Chess960) => "Casual Chess960 game",
    }
}

fn pgn_of(l: &Loaded, site: Site) -> String {
    let place = ChannelRef {
        guild: l.row.guild,
        channel: l.row.thread.unwrap_or(l.row.channel),
    };
    let tc = TimeControl::from_row(l.row.tc);
    let mut extra = vec![("TimeControl".to_owned(), tc.pgn_tag())];
    // lichess exports a game's opening as its `ECO` and `Opening` tags (names in English).
    if let Some(found) = crate::openings::of_game(l.game.start(), l.game.moves()) {
        extra.push(("ECO".to_owned(), found.opening.eco.to_owned()));
        extra.push(("Opening".to_owned(), found.opening.name.to_owned()));
    }
    let tags = cajitas_rules::pgn::Tags {
        event: pgn_event(&l.row).to_owned(),
        site: site.tag(place),
        date: pgn_date(l.row.created_at),
        round: "-".to_owned(),
        white: l.row.white.name.clone(),
        black: l.row.black.name.clone(),
        extra,
    };
    cajitas_rules::pgn::write_game(&l.game, &tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_tag_names_where_the_game_was_played() {
        let ch = |guild| ChannelRef { guild, channel: 22 };
        assert_eq!(
            Site::Discord.tag(ch(Some(11))),
            "https://discord.com/channels/11/22"
        );
        assert_eq!(
            Site::Discord.tag(ch(None)),
            "https://discord.com/channels/@me/22"
        );
        assert_eq!(Site::Console.tag(ch(None)), "Cajitas local (terminal)");
    }

    #[test]
    fn pgn_dates_are_civil_utc() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_795_000_000_000), "2026.11.18");
    }
}
