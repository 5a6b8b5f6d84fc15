"""What a person reads, knowing no command: the consoles (standard output for results, standard error
for the rest, outside text escaped), the one table style, progress bars, plots and board drawings.

It may import every layer up to ``verdicts``, never ``runs``, ``lab`` or ``cli``: a run reports
progress through ``ui``, and the renderers that know a command's results live in ``cli``.
"""
