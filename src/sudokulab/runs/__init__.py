"""Work over many solvers or many puzzles: bench (rows, summaries, configurations, repeated rounds),
compare, generate and judge.

It may import every layer up to ``ui``; ``lab`` and ``cli`` build on it.
"""
