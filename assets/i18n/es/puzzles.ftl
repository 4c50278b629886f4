# Problemas (issue 30): las negativas, la cabecera del problema, las respuestas del bot, el final.

error-no-puzzle = No tienes ningún problema abierto aquí.
error-unknown-puzzle = Ningún problema tiene el id { $id }.
error-unknown-theme = Ningún problema tiene el tema { $theme }.
error-no-puzzle-left = Ya has visto todos los problemas de ese tipo aquí.
error-puzzle-rating-range = La puntuación pedida debe estar entre { $min } y { $max }.

puzzle-heading = Problema { $id } · puntuación { $rating } · juegan { colour-lower }
puzzle-bot-move = [problema] { $san }
puzzle-hint = Pista: mueve { role-the } de { $square }. Este intento ya no es puntuado.
puzzle-wrong = { $san } no es la jugada.
puzzle-solved = Resuelto
puzzle-failed = Fallado
puzzle-solution = Solución: { $moves }
button-hint = Pista
button-solution = Solución
button-next-puzzle = Otro problema

# Un tema de problema por su id de lichess: nuestro nombre en español.
puzzle-theme = { $theme ->
    [advancedPawn] Peón avanzado
    [advantage] Ventaja
    [anastasiaMate] Mate de Anastasia
    [attackingF2F7] Ataque a f2 o f7
    [attraction] Atracción
    [backRankMate] Mate del pasillo
    [bishopEndgame] Final de alfiles
    [bodenMate] Mate de Boden
    [capturingDefender] Captura del defensor
    [clearance] Despeje
    [cornerMate] Mate en la esquina
    [crushing] Aplastante
    [defensiveMove] Jugada defensiva
    [deflection] Desviación
    [discoveredAttack] Ataque descubierto
    [discoveredCheck] Jaque descubierto
    [doubleBishopMate] Mate de los dos alfiles
    [doubleCheck] Jaque doble
    [enPassant] Captura al paso
    [endgame] Final
    [epauletteMate] Mate de las hombreras
    [equality] Igualdad
    [exposedKing] Rey expuesto
    [fork] Ataque doble
    [hangingPiece] Pieza colgada
    [hookMate] Mate del gancho
    [interference] Interferencia
    [intermezzo] Jugada intermedia
    [killBoxMate] Mate de la caja
    [kingsideAttack] Ataque en el flanco de rey
    [knightEndgame] Final de caballos
    [long] Problema largo
    [master] Partidas de maestros
    [masterVsMaster] Partidas entre maestros
    [mate] Jaque mate
    [mateIn1] Mate en 1
    [mateIn2] Mate en 2
    [mateIn3] Mate en 3
    [mateIn4] Mate en 4
    [mateIn5] Mate en 5 o más
    [middlegame] Medio juego
    [morphysMate] Mate de Morphy
    [oneMove] Problema de una jugada
    [opening] Apertura
    [operaMate] Mate de la ópera
    [pawnEndgame] Final de peones
    [pillsburysMate] Mate de Pillsbury
    [pin] Clavada
    [promotion] Coronación
    [queenEndgame] Final de damas
    [queenRookEndgame] Final de dama y torre
    [queensideAttack] Ataque en el flanco de dama
    [quietMove] Jugada tranquila
    [rookEndgame] Final de torres
    [sacrifice] Sacrificio
    [short] Problema corto
    [skewer] Enfilada
    [smotheredMate] Mate de la coz
    [swallowstailMate] Mate de la cola de golondrina
    [trappedPiece] Pieza atrapada
    [veryLong] Problema muy largo
    [xRayAttack] Ataque de rayos X
    [zugzwang] Zugzwang
   *[other] { $theme }
}

# Racha de problemas (issue 30).
error-no-hint-in-streak = La racha de problemas no da pistas.
puzzle-streak-start = Racha de problemas: problemas cada vez más difíciles, uno tras otro, sin pistas, hasta tu primer error.
puzzle-streak-count = Racha: { $solved }
puzzle-streak-over = Fin de la racha: { $solved } resueltos · tu mejor racha: { $best }
puzzle-streak-top = Subiste toda la escalera: ¡{ $solved } resueltos!

# Clasificaciones de problemas (issue 30): `/clasificacion ritmo:problemas` y `ritmo:racha`.
puzzle-leaderboard-line = **{ $rank }.** { $name } · { $rating } · { $attempts ->
    [one] { $attempts } intento puntuado
   *[other] { $attempts } intentos puntuados
}
console-puzzle-leaderboard-line = { $rank }. { $name }  { $rating }  ({ $attempts })
streak-leaderboard-line = **{ $rank }.** { $name } · { $best ->
    [one] { $best } problema
   *[other] { $best } problemas
}
console-streak-leaderboard-line = { $rank }. { $name }  { $best }
puzzle-leaderboard-empty = Aún no hay nadie en esta clasificación: incluye a quienes tienen al menos { $min } intentos puntuados y una puntuación de problemas estable.
streak-leaderboard-empty = Aún nadie ha resuelto aquí un problema de una racha.
puzzle-leaderboard-you-unranked = Aún no apareces: { $attempts ->
    [one] { $attempts } intento puntuado
   *[other] { $attempts } intentos puntuados
} de los { $min } necesarios, y una puntuación de problemas estable (RD menor que 110).
streak-leaderboard-you-none = Aún no tienes aquí un récord de racha de problemas.

# El problema del día (issue 30).
error-no-daily-puzzle = Hoy no hay problema del día aquí.
error-daily-hour-range = La hora del problema del día debe estar entre 0 y 23 (UTC).

# cajitas puzzles generate (the command line): a game of the PGN file that cannot be read is
# skipped; the bar's count; the last line, on standard error.
puzzles-generate-bad-game = { $file }: partida { $number } omitida: { $error }
puzzles-generate-found = { $puzzles } problemas
puzzles-generate-done = { $games } partidas examinadas, { $puzzles } problemas encontrados en { $seconds } s
daily-heading = Problema del día · { $date }
daily-count = { $solved } resueltos · { $failed } fallados
button-solve = Resolver
settings-daily-set = El problema del día se publicará en este canal cada día a las { $hour }:00 UTC.
settings-daily-stopped = El problema del día está detenido.

# Problemas de las partidas del propio servidor (issue 30): la línea bajo el encabezado que
# nombra la partida de la que sale (el enlace es al hilo de la partida).
puzzle-source = De { $white } contra { $black }, jugada { $number }
puzzle-source-thread = De { $white } contra { $black }, jugada { $number } · { $url }

# El hilo propio de un problema, donde las partidas tienen hilo (issue 30): su nombre, y la
# respuesta en el canal que enlaza con él.
puzzle-thread-name = Problema { $id } · { $name }
puzzle-in-thread = Problema { $id }: { $thread }

# /settings canal-problema-diario (issue 30): el problema del día en otro canal; un canal sin
# hora donde no había problema del día.
settings-daily-set-in = El problema del día se publicará en { $channel } cada día a las { $hour }:00 UTC.
settings-daily-need-hour = Indica también la hora del problema del día (hora-problema-diario, 0-23 UTC).
