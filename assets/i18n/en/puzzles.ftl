# Puzzles (issue 30): refusals, the puzzle's heading, the bot's replies, the end.

error-no-puzzle = You have no puzzle open here.
error-unknown-puzzle = No puzzle has the id { $id }.
error-unknown-theme = No puzzle has the theme { $theme }.
error-no-puzzle-left = You have seen every puzzle of that kind here.
error-puzzle-rating-range = A puzzle rating must be between { $min } and { $max }.
