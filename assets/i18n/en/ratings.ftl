# Ratings, leaderboards and stats (issue 17).
error-takeback-rated = Takebacks are not allowed in rated games.

# One player's change in the final message: "alice 1523 → 1538 (+15)".
rating-change = { $name } { $before } → { $after } ({ $diff })
rating-changes-title = Ratings
rated-game = Rated game
casual-game = Casual game
challenge-rated = { $rated ->
    [yes] Rated.
   *[no] Casual (unrated).
}

speed = { $speed ->
    [puzzles] Puzzles
    [streak] Puzzle Streak
    [live] Live
    [chess960] Chess960
   *[correspondence] Correspondence
}

leaderboard-title = Leaderboard · { speed }
leaderboard-line = **{ $rank }.** { $name } · { $rating } · { $games ->
    [one] { $games } game
   *[other] { $games } games
}
leaderboard-empty = Nobody is on this leaderboard yet: it lists players with at least { $min } rated games and a steady rating.
leaderboard-page = Page { $page } of { $pages }
leaderboard-you = Your rank: #{ $rank } ({ $rating })
leaderboard-you-unranked = You are not listed yet: { $games ->
    [one] { $games } rated game
   *[other] { $games } rated games
} of the { $min } needed, and a steady rating (RD under 110).
leaderboard-you-unranked-games = You are not listed yet: { $games ->
    [one] { $games } rated game
   *[other] { $games } rated games
} of the { $min } needed.
leaderboard-you-unranked-steadiness = You are not listed: your rating is not steady (RD { $rd } now, under 110 needed). Rated games bring the RD down; time without them widens it.
button-previous = Previous
button-next = Next
error-leaderboard-changed = The leaderboard has changed since: run /leaderboard again.
error-leaderboard-not-yours = These buttons belong to whoever ran /leaderboard: run it yourself.

stats-title = Stats · { $name }
stats-none = { $name } has no rated games on this server yet.
stats-speed = { speed }: **{ $rating }** (RD { $rd }){ $provisional ->
    [yes] , provisional
   *[no] {""}
}
stats-games = { $games ->
    [one] { $games } rated game
   *[other] { $games } rated games
} · peak { $peak }
stats-colour = { $colour ->
    [white] With white
   *[black] With black
}: +{ $wins } ={ $draws } −{ $losses }
stats-streak = Streak: { $score ->
    [win] { $len ->
        [one] { $len } win
       *[other] { $len } wins
    }
    [draw] { $len ->
        [one] { $len } draw
       *[other] { $len } draws
    }
   *[loss] { $len ->
        [one] { $len } loss
       *[other] { $len } losses
    }
}
stats-recent = Last games
# The puzzle rating in a player's stats (issue 30).
stats-puzzles-title = Puzzles
stats-puzzles = **{ $rating }** (RD { $rd }){ $provisional ->
    [yes] , provisional
   *[no] {""}
} · { $attempts ->
    [one] { $attempts } rated attempt
   *[other] { $attempts } rated attempts
}
stats-puzzle-streak = Best Puzzle Streak: { $best }
stats-daily-streak = Daily puzzle streak: { $days ->
    [one] { $days } day
   *[other] { $days } days
}
# The opening families a player played most with one colour (names in English, as lichess shows them).
stats-openings = { $colour ->
    [white] Openings with white
   *[black] Openings with black
}
stats-opening-line = { $family }: { $games ->
    [one] { $games } game
   *[other] { $games } games
} · +{ $wins } ={ $draws } −{ $losses }
stats-recent-line = { $result ->
    [win] Won
    [draw] Drew
   *[loss] Lost
} against { $opponent } · { $rating } ({ $diff }) · { $link }
stats-chart-alt = Rating history of { $name }: rating over time with its deviation band.
chart-rating = Rating
chart-no-games = No rated games yet

# cajitas local
console-leaderboard-line = { $rank }. { $name }  { $rating }  ({ $games })
console-stats-recent-line = { $result ->
    [win] won
    [draw] drew
   *[loss] lost
} against { $opponent } (game { $id }): { $rating } ({ $diff })
console-chart = Rating chart: { $path }
console-chart-failed = Could not write the rating chart: { $error }
console-ratings-rebuilt = Ratings rebuilt: { $games ->
    [one] { $games } rated game
   *[other] { $games } rated games
}, { $ratings ->
    [one] { $ratings } rating
   *[other] { $ratings } ratings
}.
