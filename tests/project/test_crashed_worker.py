"""A pytest-xdist worker that dies ends the suite's run with a failure naming its test, never a hang.

A worker killed by a segfault in native code once left the run waiting forever with both workers idle:
xdist 3.8's loadgroup scheduler gives the replacement worker the dead one's finished work as empty
batches, which no worker ever reports done. pyproject.toml's addopts disable the replacement
(``--max-worker-restart=0``); here a real pytest run, with those settings and this suite's own groups
(tests/conftest.py), meets a test that kills its worker.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from ..conftest import ROOT
from ..processes import cleaned_up

CRASHING = textwrap.dedent("""
    import os, signal, time
    import pytest

    def test_alone_first():
        time.sleep(0.3)

    @pytest.mark.parametrize("step", range(4))
    def test_grouped(step):
        time.sleep(0.3)
        if step == 1:
            os.kill(os.getpid(), signal.SIGSEGV)  # as a native thread's bad pointer does

    @pytest.mark.parametrize("step", range(6))
    def test_alone(step):
        time.sleep(0.3)
""")

GROUPS = textwrap.dedent("""
    from tests.conftest import SERIAL, pytest_xdist_make_scheduler  # noqa: F401 - this suite's scheduler

    SERIAL["test_crashing.py::test_grouped"] = "crashing"
""")


@pytest.mark.slow
def test_a_worker_killed_by_a_signal_fails_the_run_naming_its_test(tmp_path):
    (tmp_path / "test_crashing.py").write_text(CRASHING)
    (tmp_path / "conftest.py").write_text(GROUPS)
    path = [str(ROOT), str(ROOT / "src"), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_XDIST_WORKER", None)  # this test may itself run in a worker
    # The README's command, its settings read from pyproject.toml, on two workers whatever the machine has.
    command = [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path),
               "-p", "no:cacheprovider", "-n", "2", "test_crashing.py"]
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    with cleaned_up(process):
        try:
            out = process.communicate(timeout=240)[0].decode()
        except subprocess.TimeoutExpired:
            pytest.fail("the run hung after its worker crashed (still running after 240 s)")
    assert process.returncode == pytest.ExitCode.TESTS_FAILED, out
    assert "crashed while running 'test_crashing.py::test_grouped[1]'" in out, out
    assert "FAILED test_crashing.py::test_grouped[1]" in out, out
    assert "crashed and worker restarting disabled" in out, out
