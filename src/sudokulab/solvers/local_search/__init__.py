"""Local search: a board of box permutations, simulated annealing and min-conflicts over it (incomplete).

More: docs/local-search.md.
"""
