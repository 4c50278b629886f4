# La computadora como rival (/play) y el análisis de partidas (/analysis, cajitas analyse).
engine-player = { $name }, nivel { $level }
engine-unavailable = El motor no está disponible ahora mismo: la partida espera su jugada. Se vuelve a intentar cada minuto y cada vez que uses un comando aquí; también puedes rendirte o anular la partida.
engine-missing = Este servidor no tiene instalado ningún motor de ajedrez, así que `/jugar` y `/analisis` no están disponibles. Quien aloja el bot puede añadir uno con `apt install stockfish`, o indicar cualquier motor UCI con `CAJITAS_ENGINE=/ruta/al/motor`.
error-no-finished-game = Todavía no ha terminado ninguna partida en este canal: no hay nada que analizar.
play-started = { $who } juega contra la computadora ({ $engine }) con { $colour ->
        [white] blancas
       *[black] negras
    }. Sin puntuación ni reloj; `/deshacer` no necesita permiso.
takeback-granted = { $who } deshizo { $plies ->
        [one] su última jugada
       *[other] su última jugada y la respuesta de la computadora
    }: a la computadora no le importa.
analysis-progress = Analizando… { $done }/{ $total } posiciones
analysis-failed = No se pudo terminar el análisis: el motor no respondió. Inténtalo de nuevo en un minuto.
analysis-title = Análisis: { $white } contra { $black } ({ $result })
analysis-side = { $colour ->
        [white] Blancas
       *[black] Negras
    } ({ $player }): { $inaccuracies } { $inaccuracies ->
        [one] imprecisión
       *[other] imprecisiones
    }, { $mistakes } { $mistakes ->
        [one] error
       *[other] errores
    }, { $blunders } { $blunders ->
        [one] error grave
       *[other] errores graves
    }
analysis-worst-title = Las peores jugadas
# La apertura (el nombre de lichess, en inglés) y la última jugada cuya posición está en la tabla.
analysis-opening = Apertura: { $eco } { $name }, en el libro hasta { $number }{ $colour ->
        [white] .
       *[black] …
    } { $played }
analysis-worst = { $number }{ $colour ->
        [white] .
       *[black] …
    } { $played }: { $judgement ->
        [inaccuracy] imprecisión
        [mistake] error
       *[blunder] error grave
    }{ $reason ->
        [mate-created] , que permite un mate forzado
        [mate-lost] , que pierde un mate forzado
       *[chances] {""}
    }. Lo mejor era { $best }.
analysis-none = Ni imprecisiones, ni errores, ni errores graves: bien jugado.
analysis-chart = Evaluación a lo largo de la partida (blancas arriba, negras abajo, ±10 peones)
analyse-done = { $positions } posiciones analizadas en { $seconds } s; gráfico escrito en { $path }
analyse-no-engine = No se encontró ningún motor de ajedrez. Instala uno con `apt install stockfish`, o indica cualquier motor UCI con CAJITAS_ENGINE=/ruta/al/motor.
# /play donde las partidas tienen hilo: la respuesta sobre la que se abre el hilo de la partida...
play-opening = { $who } juega contra la computadora ({ $engine }): la partida se abre en un hilo propio.
# ... y la misma respuesta una vez que la partida empezó allí.
play-in-thread = { $who } juega contra la computadora ({ $engine }) en { $thread }. ¡Suerte!
# La consola: empieza una partida contra la computadora, y la jugada de la computadora.
console-play-started = Empieza la partida { $id }: { $who } juega contra la computadora ({ $engine }) con { $colour ->
        [white] blancas
       *[black] negras
    }. Sin puntuación ni reloj; `takeback` no necesita permiso.
console-engine-moved = { $engine } juega { $san }.
error-too-many-engine-games = { $limit ->
        [one] Ya juegas una partida contra la computadora en este servidor, tantas como una persona puede tener a la vez: termínala o anúlala antes. { $links }
       *[other] Ya juegas { $limit } partidas contra la computadora en este servidor, tantas como una persona puede tener a la vez: termina o anula alguna antes. { $links }
    }
analysis-queued = { $ahead ->
        [0] Tu análisis es el siguiente: empieza en cuanto el motor quede libre.
        [one] Tu análisis espera al motor: hay 1 análisis antes que el tuyo.
       *[other] Tu análisis espera al motor: hay { $ahead } análisis antes que el tuyo.
    }
analysis-already-running = Ya tienes un análisis en curso: espera a que termine y vuelve a pedirlo.
