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
