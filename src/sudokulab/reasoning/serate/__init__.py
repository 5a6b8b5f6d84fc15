"""Sudoku Explainer's scale: serate's ER, EP and ED from SE 1.2.1's own rules, in its order.

``sudokulab rate --scale se`` and ``explain --scale se`` read these modules; the richer human
catalogue of ``reasoning.techniques`` stays the default. Everything here follows Sudoku Explainer
1.2.1 as ``serate`` (its command-line rater, gsf's 1.2.1.3) runs it: the same rules (hidden and
naked singles, direct pointing and direct hidden sets, intersections, naked and hidden sets, fish,
XY- and XYZ-wings, unique loops, BUG, aligned exclusion, forcing X-, Y- and XY-chains and cycles,
Nishio, multiple, dynamic and nested forcing chains), tried in the same order on the same
candidates, each scanning the board in SE's order, the chains measured as SE measures them (the
number of a chain's distinct ancestors, nested chains added) and rated with SE's length bonus.
docs/rating.md says where the facts come from and how the port is held to serate (a fixture of
serate's own ratings, tests/reasoning/test_serate_fixture.py). The package imports only
``core`` and the modules below it; standard 9x9 Sudoku only, as SE.
"""
