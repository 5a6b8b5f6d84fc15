"""Presentation that knows no command: the console, tables, progress bars and summaries
(``report``), a board and an explanation's steps as pictures (``drawing``, ``step_pictures``), and
cactus and scaling plots (``plots``). What a command's result looks like is ``cli``'s.

It may import the layers below it (``core`` to ``verdicts``) and ``errors``; never ``runs``, ``lab``
or ``cli``.
"""
