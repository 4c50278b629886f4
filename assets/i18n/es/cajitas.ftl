# Cajitas: todos los textos del bot, en español.
#
# Glosario (los términos de nuestros documentos, las Leyes del Ajedrez de la FIDE), uno para
# todo el bot:
#   draw = tablas              agreement = acuerdo mutuo        stalemate = rey ahogado
#   threefold repetition = triple repetición de jugadas        en passant = captura al paso
#   promotion = promoción      kingside / queenside castling = enroque corto / largo
#   check = jaque              checkmate = jaque mate            dead position = posición muerta
#   white / black = blancas / negras
#   king, queen, rook, bishop, knight, pawn = rey, dama, torre, alfil, caballo, peón
#   (letras: R, D, T, A, C; el peón no lleva letra)
#   resign = abandonar (rendirse)    draw offer = oferta de tablas   time = tiempo

check = ¡Jaque!
