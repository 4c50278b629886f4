# Problemas (issue 30): las negativas, la cabecera del problema, las respuestas del bot, el final.

error-no-puzzle = No tienes ningún problema abierto aquí.
error-unknown-puzzle = Ningún problema tiene el id { $id }.
error-unknown-theme = Ningún problema tiene el tema { $theme }.
error-no-puzzle-left = Ya has visto todos los problemas de ese tipo aquí.
error-puzzle-rating-range = El rating de un problema debe estar entre { $min } y { $max }.
