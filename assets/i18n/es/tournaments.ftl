# Torneos (issue 32): arenas y todos contra todos.
error-no-tournament = No hay ningún torneo abierto aquí.
error-tournament-in-channel = Ya hay un torneo abierto aquí: uno a la vez por canal.
error-arena-duration = Una arena dura { $allowed } minutos.
error-arena-live-clock = Una arena se juega con reloj en vivo (como 3+2).
error-not-in-tournament = No estás en este torneo.
error-tournament-over = Este torneo ha terminado.
error-no-arena-game = No tienes ninguna partida de arena en curso.
error-berserk-too-late = El berserk va antes de tu primera jugada, una sola vez.
error-abort-in-tournament = Una partida de torneo no se puede anular: quien no mueve la pierde.

arena-need-manage = Solo los miembros con el permiso Gestionar servidor, o con el rol de /settings arena-role, pueden crear una arena.
arena-no-event = No he podido crear un evento del servidor para esta arena (necesito el permiso Crear eventos): la arena sigue sin él.
arena-event-description = Una arena como las de lichess, a { $time }: únete con /arena join y juega todas las partidas que puedas.
settings-arena-role-set = Los miembros con { $role } ya pueden crear arenas.
button-join = Unirse
arena-default-name = Arena { $time }
arena-created = { $name }: { $minutes } minutos de { $time }, { $rated ->
    [yes] puntuable
   *[no] amistosa
}, empieza en { $starts } min. Únete y juega las partidas que te toquen; gana quien sume más puntos.
arena-joined = { $name }: estás dentro ({ $players } { $players ->
    [one] jugador
   *[other] jugadores
}).
arena-paused = { $name }: estás en pausa; vuelve a unirte para que te emparejen.
arena-withdrawn = { $name }: has salido; tus puntos se quedan.
arena-berserk = ¡Berserk! Tu reloj queda a la mitad y juegas sin incremento.
arena-started = { $name } ha empezado: los emparejamientos llegan cada pocos segundos.
arena-pairing = {"["}arena] emparejamiento: { $white } (blancas) contra { $black } (negras) · partida { $game }
arena-pairing-post = Arena: { $white } (blancas) contra { $black } (negras). Vuestra partida ha empezado: hay que mover dentro del periodo de gracia, o se pierde.
arena-points = {"["}arena] { $name } +{ $points }
arena-final = {"["}arena] clasificación final
arena-standings-heading = { $name } · { $status ->
    [created] empieza pronto
    [started] en juego
   *[finished] final
} · { $players } { $players ->
    [one] jugador
   *[other] jugadores
}
arena-standings-line = { $rank }. { $name } { $points }  { $sheet }
arena-standings-page = Página { $page } de { $pages }
arena-standings-empty = Todavía no se ha unido nadie.
arena-podium = { $rank ->
    [1] 🥇
    [2] 🥈
   *[3] 🥉
} { $name } · { $points } puntos · rendimiento { $performance }

# The console's arena words (`arena create`, …).
console-arena-create = crear
console-arena-join = unirse
console-arena-pause = pausa
console-arena-withdraw = retirarse
console-arena-berserk = berserk
console-arena-standings = clasificación
console-arena-starts = empieza

## Round robins (issue 32; the round robin's branch).
error-roundrobin-players = Una liguilla es de { $min } a { $max } jugadores.
error-roundrobin-twice = Cada jugador solo puede nombrarse una vez.
roundrobin-default-name = Liguilla { $time }
roundrobin-created = { $name }: una liguilla de { $players } jugadores, { $rounds } rondas de { $time }, { $rated ->
    [yes] puntuable
   *[no] amistosa
}. Las partidas de cada ronda empiezan a la vez; la siguiente ronda empieza cuando terminan todas.
roundrobin-round = {"["}roundrobin] ronda { $round }: { $white } (blancas) contra { $black } (negras) · partida { $game }
roundrobin-round-post = Liguilla, ronda { $round }: { $white } (blancas) contra { $black } (negras). Vuestra partida ha empezado.
roundrobin-withdrawn = { $name } se retira de { $tournament }: { $rule ->
    [cancelled] había terminado menos de la mitad de sus partidas, así que sus resultados se anulan
   *[forfeits] había terminado la mitad de sus partidas o más, así que sus resultados se quedan y pierde por incomparecencia las demás
}.
roundrobin-standings-heading = { $name } · ronda { $round } de { $rounds } · { $status ->
    [finished] final
   *[started] en juego
}
roundrobin-standings-line = { $rank }. { $name } { $points } { $sb }
roundrobin-standings-cancelled = -. { $name } (se retiró: resultados anulados)
roundrobin-standings-withdrawn = { $rank }. { $name } { $points } { $sb } (se retiró)
roundrobin-final = {"["}roundrobin] clasificación final
