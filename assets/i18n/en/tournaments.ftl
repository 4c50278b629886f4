# Tournaments (issue 32): arenas and round robins.
error-no-tournament = There is no tournament open here.
error-tournament-in-channel = A tournament is already open here: one at a time per channel.
error-arena-duration = An arena lasts { $allowed } minutes.
error-arena-live-clock = An arena is played on a live clock (such as 3+2).
error-not-in-tournament = You are not in this tournament.
error-tournament-over = This tournament is over.
error-no-arena-game = You have no arena game in progress.
error-berserk-too-late = Berserk comes before your first move, once.
error-abort-in-tournament = A tournament game cannot be aborted: a player who does not move loses it.

arena-need-manage = Only members with the Manage Server permission, or the role set with /settings arena-role, can make an arena.
arena-no-event = I could not create a server event for this arena (I need the Create Events permission): the arena goes on without one.
arena-event-description = A lichess-style arena of { $time }: join with /arena join and play as many games as you can.
settings-arena-role-set = Members with { $role } may now make arenas.
button-join = Join
arena-default-name = Arena { $time }
arena-created = { $name }: { $minutes } minutes of { $time }, { $rated ->
    [yes] rated
   *[no] casual
}, starting in { $starts } min. Join, then play the games you are paired for; the most points win.
arena-joined = { $name }: you are in ({ $players } { $players ->
    [one] player
   *[other] players
}).
arena-paused = { $name }: you are paused; join again to be paired.
arena-withdrawn = { $name }: you left; your points stay.
arena-berserk = Berserk! Your clock is halved and you play without the increment.
arena-started = { $name } has begun: pairings come every few seconds.
arena-pairing = {"["}arena] pairing: { $white } (white) vs { $black } (black) · game { $game }
arena-pairing-post = Arena: { $white } (white) vs { $black } (black). Your game has begun: the first move is due within the grace period, or it is lost.
arena-points = {"["}arena] { $name } +{ $points }
arena-final = {"["}arena] final standings
arena-standings-heading = { $name } · { $status ->
    [created] starts soon
    [started] in progress
   *[finished] final
} · { $players } { $players ->
    [one] player
   *[other] players
}
arena-standings-line = { $rank }. { $name } { $points }  { $sheet }
arena-standings-page = Page { $page } of { $pages }
arena-standings-empty = Nobody has joined yet.
arena-podium = { $rank ->
    [1] 🥇
    [2] 🥈
   *[3] 🥉
} { $name } · { $points } points · performance { $performance }

# The console's arena words (`arena create`, …).
console-arena-create = create
console-arena-join = join
console-arena-pause = pause
console-arena-withdraw = withdraw
console-arena-berserk = berserk
console-arena-standings = standings
console-arena-starts = starts

## Round robins (issue 32; the round robin's branch).
error-roundrobin-players = A round robin takes { $min } to { $max } players.
error-roundrobin-twice = Each player can be named only once.
roundrobin-default-name = Round robin { $time }
roundrobin-created = { $name }: a round robin of { $players } players, { $rounds } rounds of { $time }, { $rated ->
    [yes] rated
   *[no] casual
}. Each round's games begin together; the next round begins when they are all over.
roundrobin-round = {"["}roundrobin] round { $round }: { $white } (white) vs { $black } (black) · game { $game }
roundrobin-round-post = Round robin, round { $round }: { $white } (white) vs { $black } (black). Your game has begun.
roundrobin-withdrawn = { $name } withdrew from { $tournament }: { $rule ->
    [cancelled] less than half of their games were over, so their results are cancelled
   *[forfeits] half of their games or more were over, so their results stay and their other games are lost by forfeit
}.
roundrobin-standings-heading = { $name } · round { $round } of { $rounds } · { $status ->
    [finished] final
   *[started] in progress
}
roundrobin-standings-line = { $rank }. { $name } { $points } { $sb }
roundrobin-standings-cancelled = -. { $name } (withdrew: results cancelled)
roundrobin-standings-withdrawn = { $rank }. { $name } { $points } { $sb } (withdrew)
roundrobin-final = {"["}roundrobin] final standings
