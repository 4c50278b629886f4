# Puzzles (issue 30): refusals, the puzzle's heading, the bot's replies, the end.

error-no-puzzle = You have no puzzle open here.
error-unknown-puzzle = No puzzle has the id { $id }.
error-unknown-theme = No puzzle has the theme { $theme }.
error-no-puzzle-left = You have seen every puzzle of that kind here.
error-puzzle-rating-range = The rating asked for must be between { $min } and { $max }.

puzzle-heading = Puzzle { $id } · rating { $rating } · { colour-name } to move
puzzle-bot-move = [puzzle] { $san }
puzzle-hint = Hint: move { role-the } on { $square }. This attempt is no longer rated.
puzzle-wrong = { $san } is not the move.
puzzle-solved = Solved
puzzle-failed = Failed
puzzle-solution = Solution: { $moves }
button-hint = Hint
button-solution = Solution
button-next-puzzle = Next puzzle
