"""The game archive: every finished game and the game in progress, in a SQLite file.

- ``store``: the ``Archive`` the window and the commands use (list, add, import, export);
- ``database``: the file's schema, migrations and connections, and what is done with a
  file that cannot be used as it is;
- ``recovery``: finished games the file could not take, kept beside it;
- ``windows``: which window a game in progress belongs to.

A stored game's record and the check each row passes are ``game.records`` (game files
use them too); this package sits above the AI only because the archive keeps reviews.
"""
