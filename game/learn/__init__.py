"""Learning from games, above the AI: the solved-opening explorer's data (``explorer``)
and the retry of a game's mistakes (``training``)."""
