"""CPMpy: one model of a puzzle's rules, run on any of CPMpy's backends (docs/cpmpy.md)."""
