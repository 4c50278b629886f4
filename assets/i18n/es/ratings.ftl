# Puntuaciones, clasificaciones y estadísticas (issue 17).
error-takeback-rated = No se pueden deshacer jugadas en partidas puntuadas.

# El cambio de un jugador en el mensaje final: "alice 1523 → 1538 (+15)".
rating-change = { $name } { $before } → { $after } ({ $diff })
rating-changes-title = Puntuaciones
rated-game = Partida puntuada
casual-game = Partida amistosa
challenge-rated = { $rated ->
    [yes] Puntuada.
   *[no] Amistosa (no puntuada).
}

speed = { $speed ->
    [puzzles] Problemas
    [streak] Racha de problemas
    [live] En vivo
    [chess960] Chess960
   *[correspondence] Por correspondencia
}

leaderboard-title = Clasificación · { speed }
leaderboard-line = **{ $rank }.** { $name } · { $rating } · { $games ->
    [one] { $games } partida
   *[other] { $games } partidas
}
leaderboard-empty = Aún no hay nadie en esta clasificación: incluye a quienes tienen al menos { $min } partidas puntuadas y una puntuación estable.
leaderboard-page = Página { $page } de { $pages }
leaderboard-you = Tu puesto: #{ $rank } ({ $rating })
leaderboard-you-unranked = Aún no apareces: { $games ->
    [one] { $games } partida puntuada
   *[other] { $games } partidas puntuadas
} de las { $min } necesarias, y una puntuación estable (RD menor que 110).
leaderboard-you-unranked-games = Aún no apareces: { $games ->
    [one] { $games } partida puntuada
   *[other] { $games } partidas puntuadas
} de las { $min } necesarias.
leaderboard-you-unranked-steadiness = No apareces: tu puntuación no es estable (RD { $rd } ahora, se necesita menos de 110). Las partidas puntuadas bajan la RD; el tiempo sin jugarlas la aumenta.
button-previous = Anterior
button-next = Siguiente
error-leaderboard-changed = La clasificación ha cambiado desde entonces: vuelve a usar /clasificacion.
error-leaderboard-not-yours = Estos botones son de quien usó /clasificacion: úsalo tú.

stats-title = Estadísticas · { $name }
stats-none = { $name } aún no tiene partidas puntuadas en este servidor.
stats-speed = { speed }: **{ $rating }** (RD { $rd }){ $provisional ->
    [yes] , provisional
   *[no] {""}
}
stats-games = { $games ->
    [one] { $games } partida puntuada
   *[other] { $games } partidas puntuadas
} · máximo { $peak }
stats-colour = { $colour ->
    [white] Con blancas
   *[black] Con negras
}: +{ $wins } ={ $draws } −{ $losses }
stats-streak = Racha: { $score ->
    [win] { $len ->
        [one] { $len } victoria
       *[other] { $len } victorias
    }
    [draw] { $len ->
        [one] { $len } tablas
       *[other] { $len } tablas
    }
   *[loss] { $len ->
        [one] { $len } derrota
       *[other] { $len } derrotas
    }
}
stats-recent = Últimas partidas
# La puntuación de problemas en las estadísticas de alguien (issue 30).
stats-puzzles-title = Problemas
stats-puzzles = **{ $rating }** (RD { $rd }){ $provisional ->
    [yes] , provisional
   *[no] {""}
} · { $attempts ->
    [one] { $attempts } intento puntuado
   *[other] { $attempts } intentos puntuados
}
stats-puzzle-streak = Mejor racha de problemas: { $best }
stats-daily-streak = Racha del problema del día: { $days ->
    [one] { $days } día
   *[other] { $days } días
}
# Las familias de aperturas que más jugó alguien con un color (los nombres en inglés, como en lichess).
stats-openings = { $colour ->
    [white] Aperturas con blancas
   *[black] Aperturas con negras
}
stats-opening-line = { $family }: { $games ->
    [one] { $games } partida
   *[other] { $games } partidas
} · +{ $wins } ={ $draws } −{ $losses }
stats-recent-line = { $result ->
    [win] Ganó
    [draw] Empató
   *[loss] Perdió
} contra { $opponent } · { $rating } ({ $diff }) · { $link }
stats-chart-alt = Historial de puntuación de { $name }: la puntuación en el tiempo con su banda de desviación.
chart-rating = Puntuación
chart-no-games = Aún no hay partidas puntuadas

# cajitas local
console-leaderboard-line = { $rank }. { $name }  { $rating }  ({ $games })
console-stats-recent-line = { $result ->
    [win] ganó
    [draw] empató
   *[loss] perdió
} contra { $opponent } (partida { $id }): { $rating } ({ $diff })
console-chart = Gráfico de puntuación: { $path }
console-chart-failed = No se pudo escribir el gráfico de puntuación: { $error }
console-ratings-rebuilt = Puntuaciones recalculadas: { $games ->
    [one] { $games } partida puntuada
   *[other] { $games } partidas puntuadas
}, { $ratings ->
    [one] { $ratings } puntuación
   *[other] { $ratings } puntuaciones
}.
