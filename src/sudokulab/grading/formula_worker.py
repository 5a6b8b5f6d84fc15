"""The grader's own solving of a student's formula, in a process it can kill: engines over data only.

``check-encoding`` enumerates the models of the student's formula with engines of its own, never
with the student's code; but the formula is the student's, and a hard one (a pigeonhole formula)
keeps CaDiCaL busy for hours inside one C call, which no signal interrupts. So the engines run
here, in a sandboxed process of their own (``student_process.StudentProcess`` with this module as
its worker, under the same launcher and bubblewrap), each call under the time limit of one call:
at the limit, or when the grader is stopped (SIGTERM, Ctrl-C), the process is killed with its
engines, and the check that asked fails, naming the limit. Only data crosses the pipe: clauses,
assumptions and models (SAT); a CP-SAT model as protobuf text and its solutions' values.

More: docs/grading.md.
"""

from __future__ import annotations

from typing import Any

from .student_worker import Failed, serve

SAT_ENGINE = "cadical153"
"""The PySAT engine the grader enumerates a student's formula with."""


def _literals(values: Any, what: str) -> list[int]:
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) and v for v in values):
        raise Failed("unusable", f"{what}: not a list of non-zero ints")
    return values


class Engines:
    """SAT engines by handle, and CP-SAT enumerations: what ``encoding_grader`` asks of its worker."""

    def __init__(self) -> None:
        self.engines: dict[int, Any] = {}

    def hello(self) -> str:
        """The loading call: nothing to load, the engines are imported on first use."""
        return "engines"

    def sat_new(self, clauses: list[list[int]]) -> int:
        from pysat.solvers import Solver

        from ..solvers.pysat_guard import guarded  # no PySAT SIGINT handler (docs/sat.md)

        engine = guarded(Solver(name=SAT_ENGINE, bootstrap_with=[_literals(c, "a clause") for c in clauses]))
        handle = len(self.engines) + 1
        self.engines[handle] = engine
        return handle

    def sat_add(self, handle: int, clause: list[int]) -> None:
        self.engines[handle].add_clause(_literals(clause, "a clause"))

    def sat_solve(self, handle: int, assumptions: list[int]) -> list[int] | None:
        """A model (PySAT's list of literals), or None when there is none under the assumptions."""
        engine = self.engines[handle]
        if not engine.solve(assumptions=_literals(assumptions, "assumptions")):
            return None
        return list(engine.get_model() or [])

    def sat_propagate(self, handle: int, assumptions: list[int]) -> list[Any]:
        """[consistent, the literals unit propagation implies] from the assumptions."""
        consistent, implied = self.engines[handle].propagate(assumptions=_literals(assumptions, "assumptions"))
        return [bool(consistent), list(implied or [])]

    def sat_close(self, handle: int) -> None:
        engine = self.engines.pop(handle, None)
        if engine is not None:
            engine.delete()

    def cp_solutions(self, model: str, limit: int, seconds: float) -> dict[str, Any] | str:
        """Up to ``limit`` solutions of a CP-SAT model given as protobuf text (each variable's value, by
        index), enumerated for ``seconds`` at most (``complete`` False when that stopped it); or why the
        text is no model."""
        from ortools.sat.python import cp_model

        parsed = cp_model.CpModel()
        try:
            ok = parsed.Proto().parse_text_format(model)
        except Exception:  # noqa: BLE001 - whatever the protobuf parser raises on text it refuses
            ok = False
        if not ok:
            return "the model that came back is no CP-SAT model"
        solutions: list[list[int]] = []

        class Collector(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                solutions.append(list(self.Response().solution))
                if len(solutions) >= limit:
                    self.StopSearch()

        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = seconds
        status = solver.Solve(parsed, Collector())
        complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or len(solutions) >= limit
        return {"solutions": solutions, "complete": complete}


CALLS = ("hello", "sat_new", "sat_add", "sat_solve", "sat_propagate", "sat_close", "cp_solutions")


def main() -> None:
    serve(Engines(), CALLS)


if __name__ == "__main__":
    main()
