"""The command line: ``python main.py COMMAND``.

``commands`` is the table of commands; ``main`` builds the parser from it and runs the
chosen command, whose module alone is imported.  A module per command family:
``assignment`` (one-move, interactive), ``analysis`` (analyze, depth-chart), ``solving``
(solve), ``matches`` (engine, match, connectx), ``window`` (open), ``review``, ``games``,
``explore``.  What they share: ``errors``, ``files``, ``options``, ``positions``,
``board_words``, ``search_watch``, ``archive_folder``.
"""
