"""What a study runs on: instance families swept along a parameter, each instance made from its own seed.

A **family** is a recipe for puzzles of one kind: ``sudoku`` (``generation.puzzles``, under a
preset rule set), ``qwh`` (``generation.quasigroups``: a random Latin square with holes), or
``set``: the first puzzles of sets read from files. A **point** fixes what the family leaves open:
board size, rule set, share of cells given (or a clue count); each set is a point of its own. The
**axis** is the parameter the plots run along, the others make the panels (``Point.series``). Each
generated instance has its own random stream, seeded by the text of its key, so instance k of a
point is the same whatever else the study holds and whichever process makes it: a study can grow
and keep what it ran. Its ``digest`` (of its puzzle text and rules) tells a rerun whether a stored
row was run on the very instance it would make now. docs/study.md ("The instances").
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..core.grid import Shape
from ..core.puzzle import Puzzle
from ..core.rules import NEEDS_DATA, Rules, build, parse_presets
from ..errors import UsageError
from ..formats.boj import MAX_SIZE, source_name
from ..generation.puzzles import dataset_text, random_grid, remove_clues
from ..generation.quasigroups import quasigroup_with_holes

FAMILIES = ("sudoku", "qwh")
"""The generated families (``--family``); ``--sets`` reads puzzles instead."""

AXES = ("given", "holes", "clues", "size", "rules", "set")
"""The parameters a study's plots can run along, in the order one is chosen when several vary."""

NUMERIC = ("given", "holes", "clues", "size")


@dataclass(frozen=True)
class Point:
    """One point of a sweep: a family at one size, rule set and share given (or a set)."""

    family: str
    n: int
    rules: str
    """The rule set's preset names as written (``standard``, ``latin``, ``x,anti-knight``)."""
    given: float | None = None
    """The share of cells given, when asked as a share (None: ``clues``, or a set)."""
    clues: int | None = None
    """The clue count, when asked as a count."""
    set: str | None = None
    """The set's name (its file's stem) for family ``set``."""

    @property
    def key(self) -> str:
        if self.family == "set":
            return f"set/{self.set}"
        amount = f"g{self.given:g}" if self.given is not None else f"c{self.clues}"
        return f"{self.family}/{self.n}/{self.rules}/{amount}"

    def value(self, axis: str) -> Any:
        """This point's value on ``axis`` (a number for the numeric axes, a word for the others)."""
        if axis == "given":
            return self.given
        if axis == "holes":
            return None if self.given is None else round(1 - self.given, 12)
        return {"clues": self.clues, "size": self.n, "rules": self.rules, "set": self.set}[axis]

    def series(self, axis: str) -> str:
        """The panel this point is drawn in: what varies besides ``axis`` (one panel: ``all``)."""
        if self.family == "set":
            return "sets" if axis == "set" else str(self.set)
        parts = [self.family]
        if axis != "size":
            parts.append(f"{self.n}x{self.n}")
        if axis != "rules":
            parts.append(self.rules)
        return " ".join(parts)

    def document(self) -> dict[str, Any]:
        return {"family": self.family, "n": self.n, "rules": self.rules, "given": self.given, "clues": self.clues,
                "set": self.set}

    @classmethod
    def of_row(cls, row: dict[str, Any]) -> Point:
        """The point a stored run was made at (its fields as ``document`` wrote them)."""
        if row["family"] == "set":
            return cls("set", 0, "", set=row["set"])
        return cls(row["family"], int(row["n"]), row["rules"], row.get("given"), row.get("clues"))


@dataclass(frozen=True)
class Instance:
    """One puzzle of a point: the k-th, made from its seed (or read from its set)."""

    point: Point
    k: int
    puzzle: Puzzle

    @property
    def key(self) -> str:
        return f"{self.point.key}/{self.k}"

    @property
    def text(self) -> str:
        """The puzzle as a dataset entry (one line up to 9x9, a BOJ block above)."""
        return dataset_text(self.puzzle).rstrip("\n")

    @property
    def digest(self) -> str:
        """What the instance is, in 16 hex digits: its givens and its rules' presets and groups."""
        rules = self.puzzle.rules
        material = "|".join([self.text, ",".join(rules.presets), str(hash_groups(rules))])
        return hashlib.sha256(material.encode()).hexdigest()[:16]


def hash_groups(rules: Rules) -> str:
    """The rules' groups, pairs, cages and thermometers as a stable digest (Python's ``hash`` is salted)."""
    parts = [str(rules.shape), repr(rules.groups), repr(rules.differ), repr(rules.cages), repr(rules.thermos)]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Family:
    """What ``sudokulab study`` sweeps: the family, its points' values, instances per point, the seed."""

    family: str
    sizes: tuple[int, ...] = (9,)
    rule_sets: tuple[str, ...] = ()
    """Preset names per rule set (default: ``standard``, ``latin`` for qwh)."""
    given: tuple[float, ...] = ()
    """Shares of cells given (or, with ``by_holes``, the shares of holes as the user wrote them, turned)."""
    clues: tuple[int, ...] = ()
    instances: int = 5
    seed: int = 1
    unique: bool = False
    """sudoku only: keep only removals that leave one solution (the SAT oracle)."""
    by_holes: bool = False
    """The shares were given as holes (``--holes``): the axis is the holes."""
    sets: tuple[str, ...] = ()
    """Files of puzzles (family ``set``); their rules come from ``set_rules``."""
    box: tuple[int, int] | None = None
    set_rules: Any = None
    """``datasets.RuleOptions`` for the sets' puzzles, or None for standard Sudoku."""

    def __post_init__(self) -> None:
        if self.family == "set":
            if not self.sets:
                raise UsageError("study: a study of sets needs the set files")
            if self.instances < 1:
                raise UsageError("study: --instances must be 1 or more")
            return
        if self.family not in FAMILIES:
            raise UsageError(f"study: unknown family '{self.family}'; choose from: {', '.join(FAMILIES)}")
        if self.instances < 1:
            raise UsageError("study: --instances must be 1 or more")
        if not self.given and not self.clues:
            raise UsageError("study: give the share of cells given (--given or --holes) or --clues")
        for n in self.sizes:
            if not 1 <= n <= MAX_SIZE:
                raise UsageError(f"study: a {n}x{n} board is outside 1..{MAX_SIZE}")
            for clues in self.clues:
                if not 0 <= clues <= n * n:
                    raise UsageError(f"study: a {n}x{n} board has {n * n} cells: --clues {clues} does not fit")
        for share in self.given:
            if not 0 <= share <= 1:
                raise UsageError(f"study: a share of cells must lie in 0..1, not {share:g}")
        for text in self.rules_or_default:
            self.rules_for(text, self.sizes[0])  # checked now, not after an hour

    @property
    def rules_or_default(self) -> tuple[str, ...]:
        return self.rule_sets or (("latin",) if self.family == "qwh" else ("standard",))

    def rules_for(self, text: str, n: int) -> Rules:
        """The rules a point's puzzles are made and solved under (checked: presets only, latin for qwh)."""
        names = parse_presets(text)
        for name in names:
            if name in NEEDS_DATA:
                raise UsageError(f"study: rules '{name}' need data ({NEEDS_DATA[name]}): generated families take "
                                 "presets only; give such puzzles as sets (--sets)")
        if self.family == "qwh" and set(names) != {"latin"}:
            raise UsageError(f"study: quasigroup with holes is a Latin square: its rules are 'latin', not '{text}'")
        return _rules(n, tuple(names))

    @property
    def axis(self) -> str:
        """The parameter the plots run along: the first of ``AXES`` that takes more than one value."""
        if self.family == "set":
            return "set"
        amounts = self.given or self.clues
        if len(amounts) > 1 or (len(self.sizes) == 1 and len(self.rules_or_default) == 1):
            return ("holes" if self.by_holes else "given") if self.given else "clues"
        return "size" if len(self.sizes) > 1 else "rules"

    def points(self) -> list[Point]:
        """Every point, sizes outermost, then rule sets, then the amounts in the order given."""
        if self.family == "set":
            return [Point("set", 0, "", set=Path(path).stem) for path in self.sets]
        points = []
        for n in self.sizes:
            for rules in self.rules_or_default:
                if self.given:
                    points += [Point(self.family, n, rules, given=share) for share in self.given]
                else:
                    points += [Point(self.family, n, rules, clues=clues) for clues in self.clues]
        return points

    def instances_of(self, point: Point) -> Iterator[Instance]:
        """The point's instances in order, each made from its own seed (or read from its set)."""
        if self.family == "set":
            yield from self._read_set(point)
            return
        shape = Shape.of_size(point.n)
        rules = self.rules_for(point.rules, point.n)
        clues = round(point.given * shape.cells) if point.given is not None else int(point.clues or 0)
        for k in range(self.instances):
            rng = random.Random(f"{self.seed}/{point.key}/{k}")
            if self.family == "qwh":
                puzzle, _ = quasigroup_with_holes(point.n, shape.cells - clues, rng)
            else:
                oracle = _oracle(rules) if self.unique else None
                grid = random_grid(shape, rng, rules)
                puzzle = remove_clues(grid, shape, clues, rng, oracle, rules=rules)
            yield Instance(point, k, puzzle)

    def _read_set(self, point: Point) -> Iterator[Instance]:
        from ..datasets.reading import read_dataset

        path = next(p for p in self.sets if Path(p).stem == point.set)
        if not Path(path).is_file():
            raise UsageError(f"cannot read '{source_name(path)}': no such file")
        made = 0
        for entry in read_dataset(path, self.box, rules=self.set_rules):
            if made >= self.instances:
                break
            if entry.puzzle is None:
                continue  # a bad entry: the set's puzzles are what is studied
            yield Instance(point, made, entry.puzzle)
            made += 1
        if not made:
            raise UsageError(f"study: '{source_name(path)}' holds no puzzle")

    def document(self) -> dict[str, Any]:
        """The family as the study document states it (``schemas/study.schema.json``, ``family``)."""
        return {"family": self.family, "sizes": list(self.sizes) if self.family != "set" else [],
                "rule_sets": list(self.rules_or_default) if self.family != "set" else [],
                "given": list(self.given), "clues": list(self.clues), "instances": self.instances,
                "seed": self.seed, "unique": self.unique, "axis": self.axis, "sets": [Path(p).stem for p in self.sets]}


def parse_values(text: str, kind: type, what: str) -> tuple[Any, ...]:
    """``0.2,0.3`` or a range ``0.2:0.6:0.1`` (both ends in) as values of ``kind``.

    >>> parse_values("0.2:0.6:0.1", float, "--given"), parse_values("9,16", int, "--size")
    ((0.2, 0.3, 0.4, 0.5, 0.6), (9, 16))
    """
    values: list[Any] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        try:
            if ":" in part:
                start, stop, step = (kind(x) for x in part.split(":"))
                if step <= 0 or stop < start:
                    raise ValueError
                count = int(round((stop - start) / step)) + 1
                values += [kind(round(start + i * step, 10)) for i in range(count) if start + i * step <= stop + 1e-9]
            else:
                values.append(kind(part))
        except ValueError:
            raise UsageError(f"study: {what} '{text}': give values separated by commas, or START:STOP:STEP") from None
    if not values:
        raise UsageError(f"study: {what} names no value")
    if len(set(values)) != len(values):
        raise UsageError(f"study: {what} '{text}' names a value twice")
    return tuple(values)


@cache
def _rules(n: int, names: tuple[str, ...]) -> Rules:
    return build(Shape.of_size(n), list(names))


_ORACLES: dict[frozenset[str], Any] = {}


def _oracle(rules: Rules) -> Any:
    """One uniqueness oracle per set of rule kinds in this process (``generation.puzzles.oracle_for``)."""
    from ..generation.puzzles import oracle_for

    key = rules.kinds
    if key not in _ORACLES:
        _ORACLES[key] = oracle_for(None if rules.is_standard else rules)
    return _ORACLES[key]


def holes_to_given(holes: Sequence[float]) -> tuple[float, ...]:
    """Shares of holes as shares given (rounded, so 0.6 holes is 0.4 given, not 0.40000000000000002)."""
    return tuple(round(1 - h, 12) for h in holes)
