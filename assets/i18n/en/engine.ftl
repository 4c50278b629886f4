# The computer as an opponent (/play) and game analysis (/analysis, cajitas analyse).
engine-player = { $name }, level { $level }
engine-unavailable = The engine is unavailable right now: the game waits for its move. It is tried again every minute and whenever you use a command here; you may also resign or abort.
engine-missing = This server has no chess engine installed, so `/play` and `/analysis` are off. The bot's host can add one with `apt install stockfish`, or name any UCI engine with `CAJITAS_ENGINE=/path/to/engine`.
error-no-finished-game = No game has finished in this channel yet: there is nothing to analyse.
play-started = { $who } plays the computer ({ $engine }) as { $colour ->
        [white] White
       *[black] Black
    }. Unrated and untimed; `/takeback` needs no asking.
takeback-granted = { $who } took back { $plies ->
        [one] their last move
       *[other] their last move and the computer's reply
    }: the computer never minds.
analysis-progress = Analysing… { $done }/{ $total } positions
analysis-failed = The analysis could not be finished: the engine did not answer. Try again in a minute.
analysis-title = Analysis: { $white } vs { $black } ({ $result })
analysis-side = { $colour ->
        [white] White
       *[black] Black
    } ({ $player }): { $inaccuracies } { $inaccuracies ->
        [one] inaccuracy
       *[other] inaccuracies
    }, { $mistakes } { $mistakes ->
        [one] mistake
       *[other] mistakes
    }, { $blunders } { $blunders ->
        [one] blunder
       *[other] blunders
    }
analysis-worst-title = The worst moves
# The opening (lichess's name, in English) and the last move whose position is in the table.
analysis-opening = Opening: { $eco } { $name }, in the book until { $number }{ $colour ->
        [white] .
       *[black] …
    } { $played }
analysis-worst = { $number }{ $colour ->
        [white] .
       *[black] …
    } { $played }: { $judgement ->
        [inaccuracy] inaccuracy
        [mistake] mistake
       *[blunder] blunder
    }{ $reason ->
        [mate-created] , allowing a forced mate
        [mate-lost] , losing a forced mate
       *[chances] {""}
    }. Best was { $best }.
analysis-none = No inaccuracies, mistakes or blunders: well played.
analysis-chart = Evaluation over the game (White up, Black down, ±10 pawns)
analyse-done = { $positions } positions analysed in { $seconds } s; chart written to { $path }
analyse-no-engine = No chess engine found. Install one with `apt install stockfish`, or name any UCI engine with CAJITAS_ENGINE=/path/to/engine.
# /play where games get threads: the answer, on which the game's thread is opened...
play-opening = { $who } plays the computer ({ $engine }): the game opens in a thread of its own.
# ... and the same answer once the game began there.
play-in-thread = { $who } plays the computer ({ $engine }) in { $thread }. Good luck!
# The console: a game against the computer begins, and the computer's move.
console-play-started = Game { $id } begins: { $who } plays the computer ({ $engine }) as { $colour ->
        [white] White
       *[black] Black
    }. Unrated and untimed; `takeback` needs no asking.
console-engine-moved = { $engine } plays { $san }.
error-too-many-engine-games = { $limit ->
        [one] You already play a game against the computer in this server, as many as one person may at a time: finish or abort it first. { $links }
       *[other] You already play { $limit } games against the computer in this server, as many as one person may at a time: finish or abort one of them first. { $links }
    }
analysis-queued = { $ahead ->
        [0] Your analysis is next: it starts as soon as the engine is free.
        [one] Your analysis is waiting for the engine: 1 analysis ahead of yours.
       *[other] Your analysis is waiting for the engine: { $ahead } analyses ahead of yours.
    }
analysis-already-running = You already have an analysis in progress: wait for it to finish, then ask again.
