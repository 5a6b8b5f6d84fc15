"""Text in and out: the BOJ forms (``boj``), puzzle files of any kind (``puzzle_files``,
``fpuzzles``, ``declared``), the rule files beside them (``rule_files``), the JSON documents every
command prints (``documents``) and output files written whole or not at all (``outputs``). The
formats themselves: docs/formats.md.

It may import ``core`` and ``errors`` only.
"""
