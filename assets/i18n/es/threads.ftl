## Un hilo por partida, el resumen final, la revancha y la partida en GIF (issue 15)

error-in-game-thread = Este hilo es de una partida: envía los desafíos en { $parent }.
error-several-games = Juegas varias partidas en este canal: { $links }. Escribe el comando en el hilo de la partida.
error-games-in-threads = Las partidas de este canal se juegan en sus hilos: { $links }.
error-several-challenges = Hay varios desafíos esperando aquí: usa los botones Aceptar o Rechazar del que quieras.

# El nombre del hilo de una partida, p. ej. «alice vs bob · 30 nov».
thread-name = { $first } vs { $second } · { $day } { $month ->
    [jan] ene
    [feb] feb
    [mar] mar
    [apr] abr
    [may] may
    [jun] jun
    [jul] jul
    [aug] ago
    [sep] sep
    [oct] oct
    [nov] nov
   *[dec] dic
}
# El mensaje del desafío una vez aceptado, y la respuesta a /aceptar, cuando la partida tiene hilo.
game-in-thread = { $white } (blancas) y { $black } (negras) juegan en { $thread }. ¡Suerte!
# La respuesta efímera a un comando escrito en el canal que actuó sobre la partida de un hilo.
routed = Hecho, en { $thread }.
# Se dice una vez por canal, en el primer mensaje de una partida jugada en el canal.
threads-fallback = No puedo abrir hilos en este canal (necesito los permisos Crear hilos públicos y Enviar mensajes en hilos), así que esta partida se juega aquí, en el canal.
# El resumen de una línea en el canal cuando termina la partida de un hilo.
summary = { $outcome ->
    [win] { $winner } venció a { $loser } por { termination } en { $moves } { $moves ->
        [one] jugada
       *[other] jugadas
    }{ summary-opening }: { $thread }
    [draw] { $white } y { $black } hicieron tablas por { termination } en { $moves } { $moves ->
        [one] jugada
       *[other] jugadas
    }{ summary-opening }: { $thread }
   *[aborted] La partida entre { $white } y { $black } fue anulada: { $thread }
}
# La apertura tras el resumen de una partida terminada (" · Italian Game"), o nada ($opening es "none").
summary-opening = { $opening ->
    [none] {""}
   *[other] {" · "}{ $opening }
}

button-rematch = Revancha
rematch-posted = Tu desafío de revancha espera en { $channel }.
rematch-title = ¡Revancha!

gif-caption = { $white } contra { $black }, jugada a jugada.
