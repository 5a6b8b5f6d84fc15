"""Published datasets: fetched over HTTP from a server on the loopback interface, checked, kept, named.

The archive served here is made in the test with the layout of tdoku's ``data.zip``
(``data/puzzlesK_<name>``, ``#`` comment lines at the top); the registry is replaced by one whose
URLs point at the local server and whose hashes are those of the small sets made here.
"""

from __future__ import annotations

import hashlib
import http.server
import io
import socket
import threading
import zipfile
from pathlib import Path

import pytest

from sudokulab.datasets import catalog
from sudokulab.datasets.catalog import DatasetError, PuzzleSet
from sudokulab.errors import UsageError
from tests.conftest import EXAMPLES, ROOT, run_cli, shared_dataset

from ..conftest import FIXTURES

PUZZLES = [line for line in (EXAMPLES / "puzzles-20.txt").read_text().splitlines() if not line.startswith("#")]
SEVENTEEN = PUZZLES[:5]
TOP = PUZZLES[5:8]


def stored(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def archive(members: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in members.items():
            z.writestr(name, text)
    return buffer.getvalue()


@pytest.fixture
def server(tmp_path):
    """A static HTTP server on 127.0.0.1 (port chosen by the system) over ``tmp_path/www``; yields its URL."""
    root = tmp_path / "www"
    root.mkdir()
    seen: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, *args):  # keep the test output clean
            pass

        def do_GET(self):  # noqa: N802 (http.server's name)
            seen.append(self.path)
            super().do_GET()

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield type("Server", (), {"url": f"http://127.0.0.1:{httpd.server_address[1]}", "root": root,
                                  "requests": seen})
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


def tdoku_like(server, name: str = "data.zip", seventeen: list[str] = SEVENTEEN) -> dict[str, PuzzleSet]:
    """Serve an archive shaped like tdoku's and return a registry that points at it."""
    (server.root / name).write_bytes(archive({
        "data/puzzles2_17_clue": "# 17-clue puzzles\n# collected by ...\n" + "\n".join(seventeen) + "\n",
        "data/puzzles3_magictour_top1465": "#top\r\n" + "\r\n".join(TOP) + "\r\n",
    }))
    url = f"{server.url}/{name}"
    return {
        "17_clue": PuzzleSet("17_clue", len(SEVENTEEN), hashlib.sha256(stored(SEVENTEEN)).hexdigest(), url,
                             "data/puzzles2_17_clue", "test"),
        "magictour_top1465": PuzzleSet("magictour_top1465", len(TOP), hashlib.sha256(stored(TOP)).hexdigest(), url,
                                       "data/puzzles3_magictour_top1465", "test"),
    }


def test_fetch_extracts_checks_and_keeps(server, tmp_path):
    sets = tdoku_like(server)
    folder = tmp_path / "cache"
    (done,) = catalog.fetch(["17_clue"], folder=folder, sets=sets)
    assert done.downloaded and done.path == folder / "17_clue.txt"
    assert done.path.read_bytes() == stored(SEVENTEEN)  # comments dropped
    assert server.requests == ["/data.zip"]
    # Fetched again: nothing downloaded. Another set of the same archive: taken from the kept archive.
    (again,) = catalog.fetch(["17_clue"], folder=folder, sets=sets)
    assert not again.downloaded
    (top,) = catalog.fetch(["magictour_top1465"], folder=folder, sets=sets)
    assert top.downloaded and top.path.read_bytes() == stored(TOP)  # CRLF and comments normalised
    assert server.requests == ["/data.zip"]
    assert catalog.path("magictour_top1465", folder=folder, sets=sets) == top.path
    assert not list(folder.glob(".*.part")), "no temporary file left behind"


def test_two_sets_of_one_archive_download_it_once(server, tmp_path):
    sets = tdoku_like(server)
    done = catalog.fetch(["magictour_top1465", "17_clue"], folder=tmp_path, sets=sets)
    assert [d.name for d in done] == ["magictour_top1465", "17_clue"]
    assert server.requests == ["/data.zip"]


@pytest.mark.slow
def test_a_set_published_as_a_plain_file(server, tmp_path):
    (server.root / "hardest.txt").write_text("\n".join(TOP) + "\n")
    sets = {"norvig_hardest": PuzzleSet("norvig_hardest", 3, hashlib.sha256(stored(TOP)).hexdigest(),
                                        f"{server.url}/hardest.txt", None, "test")}
    (done,) = catalog.fetch(["norvig_hardest"], folder=tmp_path, sets=sets)
    assert done.path.read_bytes() == stored(TOP)


def test_a_corrupted_download_is_refused_and_nothing_is_kept(server, tmp_path):
    sets = tdoku_like(server)
    tampered = [SEVENTEEN[0][:-1] + ("1" if SEVENTEEN[0][-1] != "1" else "2"), *SEVENTEEN[1:]]
    tdoku_like(server, seventeen=tampered)  # same URL, other content: the registry's hash no longer fits
    folder = tmp_path / "cache"
    with pytest.raises(DatasetError, match="refused, nothing cached"):
        catalog.fetch(["17_clue"], folder=folder, sets=sets)
    assert not (folder / "17_clue.txt").exists()
    assert not [p for p in folder.rglob("*") if p.is_file()], "neither the set nor the download is kept"


@pytest.mark.slow
def test_an_archive_without_the_member_is_refused(server, tmp_path):
    (server.root / "data.zip").write_bytes(archive({"data/other": "x\n"}))
    sets = {"17_clue": PuzzleSet("17_clue", 5, "0" * 64, f"{server.url}/data.zip", "data/puzzles2_17_clue", "t")}
    with pytest.raises(DatasetError, match="has no data/puzzles2_17_clue"):
        catalog.fetch(["17_clue"], folder=tmp_path / "cache", sets=sets)
    assert not [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]


def test_not_an_archive_is_refused(server, tmp_path):
    (server.root / "data.zip").write_text("<html>not found</html>")
    sets = {"17_clue": PuzzleSet("17_clue", 5, "0" * 64, f"{server.url}/data.zip", "data/puzzles2_17_clue", "t")}
    with pytest.raises(DatasetError, match="no readable archive"):
        catalog.fetch(["17_clue"], folder=tmp_path, sets=sets)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_without_network_one_line_says_what_to_download_and_where(server, tmp_path):
    good = tdoku_like(server)
    offline = {name: PuzzleSet(s.name, s.puzzles, s.sha256, f"http://127.0.0.1:{closed_port()}/data.zip",
                               s.member, s.what) for name, s in good.items()}
    folder = tmp_path / "cache"
    with pytest.raises(DatasetError) as caught:
        catalog.fetch(["17_clue"], folder=folder, sets=offline)
    message = str(caught.value)
    assert "\n" not in message and "no connection" in message
    expected = folder / "downloads" / offline["17_clue"].download_name
    assert f"put it at {expected}" in message
    # Done by hand: the archive put where the message says; fetch then runs offline.
    expected.write_bytes((server.root / "data.zip").read_bytes())
    (done,) = catalog.fetch(["17_clue"], folder=folder, sets=offline)
    assert done.path.read_bytes() == stored(SEVENTEEN)


@pytest.mark.slow
def test_http_errors_are_one_line(server, tmp_path):
    sets = {"17_clue": PuzzleSet("17_clue", 5, "0" * 64, f"{server.url}/missing.zip", "data/puzzles2_17_clue", "t")}
    with pytest.raises(DatasetError, match=r"cannot download .*missing.zip \(HTTP 404\)"):
        catalog.fetch(["17_clue"], folder=tmp_path, sets=sets)


def test_resolve_keeps_paths_and_names_fetched_sets(tmp_path, monkeypatch):
    monkeypatch.setenv(catalog.FOLDER_ENV, str(tmp_path))
    assert catalog.resolve("examples/puzzles-20.txt") == "examples/puzzles-20.txt"
    assert catalog.resolve("-") == "-"
    assert catalog.resolve("no-such-file.txt") == "no-such-file.txt"  # the reader names it later
    with pytest.raises(DatasetError, match=r"run 'sudokulab datasets fetch 17_clue'"):
        catalog.resolve("17_clue")
    (tmp_path / "17_clue.txt").write_text(PUZZLES[0] + "\n")
    assert catalog.resolve("17_clue") == str(tmp_path / "17_clue.txt")


def test_the_cache_folder_is_the_users_unless_overridden(monkeypatch, tmp_path):
    monkeypatch.delenv(catalog.FOLDER_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert catalog.data_folder().name == "sudokulab"
    monkeypatch.setenv(catalog.FOLDER_ENV, str(tmp_path / "mine"))
    assert catalog.data_folder() == tmp_path / "mine"


def test_the_registry_hashes_are_those_of_the_shared_sets():
    """The hashes were computed from ../shared/data, the files the project's figures were measured on."""
    for puzzle_set in catalog.SETS.values():
        data = shared_dataset(puzzle_set.filename).read_bytes()
        assert catalog.normalize(data) == data, puzzle_set.name
        assert catalog.sha256(data) == puzzle_set.sha256, puzzle_set.name
        assert data.count(b"\n") == puzzle_set.puzzles, puzzle_set.name


def test_registry_names_and_download_names():
    assert catalog.names()[:2] == ["17_clue", "magictour_top1465"]
    assert catalog.SETS["17_clue"].download_name == f"tdoku-{catalog.TDOKU_REF[:12]}-data.zip"
    assert catalog.SETS["norvig_top95"].download_name == "norvig-top95.txt"
    assert catalog.TDOKU_ARCHIVE.startswith("https://github.com/t-dillon/tdoku/raw/")


# --- the command line ------------------------------------------------------------------------------

@pytest.fixture
def fake_registry(server, tmp_path, monkeypatch):
    monkeypatch.setattr(catalog, "SETS", tdoku_like(server))
    folder = tmp_path / "data"
    monkeypatch.setenv(catalog.FOLDER_ENV, str(folder))
    return folder


def test_cli_fetch_path_and_bench_by_name(capsys, fake_registry):
    code, out, err = run_cli(capsys, "datasets", "fetch", "17_clue")
    assert (code, err) == (0, "")
    assert out == f"17_clue: {fake_registry / '17_clue.txt'}\n"
    code, out, _ = run_cli(capsys, "datasets", "path", "17_clue")
    assert (code, out) == (0, f"{fake_registry / '17_clue.txt'}\n")
    code, out, err = run_cli(capsys, "bench", "17_clue", "--solvers", "backtrack-fast", "--quiet")
    assert code == 0, err
    assert "17_clue" in out and "5/5" in out
    code, out, _ = run_cli(capsys, "datasets", "fetch", "17_clue")
    assert out.endswith("(already there)\n")


def test_cli_judge_by_name(capsys, fake_registry):
    import sys

    run_cli(capsys, "datasets", "fetch", "17_clue")
    program = FIXTURES / "programs" / "boj2580_backtrack.py"
    code, out, err = run_cli(capsys, "judge", "17_clue", "--limit", "2", "--time-limit", "10", "--quiet",
                             "--", sys.executable, str(program))
    assert code == 0, err
    assert "accepted" in out


def test_cli_a_set_not_fetched_is_one_line(capsys, fake_registry):
    for argv in (("bench", "17_clue"), ("datasets", "path", "17_clue"), ("judge", "17_clue", "--", "true")):
        code, out, err = run_cli(capsys, *argv)
        assert (code, out) == (2, "")
        assert err == ("sudokulab: error: dataset '17_clue' is not downloaded yet: "
                       "run 'sudokulab datasets fetch 17_clue'\n")


@pytest.mark.slow
def test_cli_corrupted_download(capsys, server, fake_registry):
    tdoku_like(server, seventeen=SEVENTEEN[::-1])
    code, out, err = run_cli(capsys, "datasets", "fetch", "17_clue")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "refused, nothing cached" in err
    assert not fake_registry.exists() or not [p for p in fake_registry.rglob("*") if p.is_file()]


def test_cli_offline(capsys, monkeypatch, tmp_path):
    url = f"http://127.0.0.1:{closed_port()}/data.zip"
    monkeypatch.setattr(catalog, "SETS", {"17_clue": PuzzleSet("17_clue", 5, "0" * 64, url, "data/x", "t")})
    monkeypatch.setenv(catalog.FOLDER_ENV, str(tmp_path))
    code, out, err = run_cli(capsys, "datasets", "fetch", "17_clue")
    assert (code, out) == (2, "")
    assert err.startswith(f"sudokulab: error: cannot download {url} (no connection): ")
    assert err.count("\n") == 1 and str(tmp_path / "downloads") in err


def test_cli_list(capsys, fake_registry):
    code, out, err = run_cli(capsys, "datasets", "list")
    assert (code, err) == (0, "")
    assert "17_clue" in out and "magictour_top1465" in out and str(fake_registry) in out


def test_cli_unknown_name(capsys):
    code, out, err = run_cli(capsys, "datasets", "fetch", "nope")
    assert (code, out) == (2, "")
    assert err == "sudokulab: error: datasets fetch: unknown dataset 'nope'; see 'sudokulab datasets fetch --help'\n"
    code, out, err = run_cli(capsys, "datasets", "fetch", "17clue")
    assert (code, out) == (2, "") and err.endswith("unknown dataset '17clue'; did you mean '17_clue'?\n")


# --- benchmarks/run_all.py fetches what ../shared/data lacks ------------------------------------------

def _run_all(monkeypatch):
    import importlib.util

    from tests.conftest import ROOT

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))  # as `python benchmarks/run_all.py` has it: the harness
    spec = importlib.util.spec_from_file_location("run_all_under_test", ROOT / "benchmarks" / "run_all.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_run_all_fetches_the_sets_it_lacks(fake_registry, tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    run_all = _run_all(monkeypatch)
    out = tmp_path / "results"
    code = run_all.main(["--data", str(tmp_path / "no-shared"), "--out-dir", str(out), "--csv-dir", str(out),
                         "--solvers", "backtrack-fast", "--limit", "3", "--classic-limit", "2",
                         "--skip-scaling", "--skip-configurations"])
    assert code == 0, capsys.readouterr().err
    assert (fake_registry / "17_clue.txt").is_file() and (fake_registry / "magictour_top1465.txt").is_file()
    report = (out / "paradigms.md").read_text()
    assert "17_clue" in report and "magictour_top1465" in report


def test_run_all_without_sets_or_network_measures_nothing_and_fails(monkeypatch, tmp_path, capsys):
    url = f"http://127.0.0.1:{closed_port()}/data.zip"
    monkeypatch.setattr(catalog, "SETS", {name: PuzzleSet(name, 1, "0" * 64, url, f"data/{name}", "t")
                                          for name in ("17_clue", "magictour_top1465")})
    monkeypatch.setenv(catalog.FOLDER_ENV, str(tmp_path / "data"))
    run_all = _run_all(monkeypatch)
    code = run_all.main(["--data", str(tmp_path / "no-shared"), "--out-dir", str(tmp_path / "r"),
                         "--csv-dir", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("cannot download") == 1, "one failed download is not tried again for every set"
    assert "nothing measured" in err


# --- the slices shipped with the package: what lessons and tests read on a fresh clone -------------

SLICED = sorted(path.stem for path in catalog.SLICES.glob("*.txt"))


def slice_rows() -> dict[str, tuple[str, str]]:
    """The table of slices/README.md: file name -> (line range, the set's size as written)."""
    rows = {}
    for line in (catalog.SLICES / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].endswith(".txt"):
            rows[cells[0]] = (cells[1], cells[2])
    return rows


def test_each_shipped_slice_is_cited_with_its_lines_and_is_never_a_whole_set():
    rows = slice_rows()
    assert SLICED and sorted(rows) == [f"{name}.txt" for name in SLICED]
    for name in SLICED:
        data = (catalog.SLICES / f"{name}.txt").read_bytes()
        lines = data.decode("ascii").splitlines()
        puzzle_set = catalog.get(name)  # a slice is of a set of the registry
        assert rows[f"{name}.txt"] == (f"1-{len(lines)}", f"{puzzle_set.puzzles:,}"), name
        assert 0 < len(lines) < puzzle_set.puzzles, f"{name}: a slice, never the whole set"
        assert catalog.normalize(data) == data, name
        assert all(len(line) == 81 and set(line) <= set(".123456789") for line in lines), name
        assert catalog.shipped(name) == catalog.SLICES / f"{name}.txt"
    assert sum(path.stat().st_size for path in catalog.SLICES.iterdir()) < 200_000, "keep the slices small"


@pytest.mark.parametrize("name", SLICED)
def test_each_slice_is_the_first_lines_of_its_published_set(name):
    whole = shared_dataset(f"{name}.txt").read_bytes()
    assert whole.startswith((catalog.SLICES / f"{name}.txt").read_bytes())


def test_find_takes_the_whole_set_where_it_is_here_else_the_slice(monkeypatch, tmp_path):
    fetched, shared = tmp_path / "fetched", tmp_path / "shared" / "data"
    for folder in (fetched, shared):
        folder.mkdir(parents=True)
        (folder / "17_clue.txt").write_text(f"{folder}\n")
    monkeypatch.setenv(catalog.FOLDER_ENV, str(fetched))
    monkeypatch.setattr(catalog, "_beside_checkout", lambda: shared)
    assert catalog.published("17_clue") == catalog.find("17_clue", 10**6) == fetched / "17_clue.txt"
    (fetched / "17_clue.txt").unlink()
    assert catalog.published("17_clue") == catalog.find("17_clue") == shared / "17_clue.txt"
    (shared / "17_clue.txt").unlink()
    shipped = catalog.SLICES / "17_clue.txt"
    held = len(shipped.read_text().splitlines())
    assert catalog.published("17_clue") is None
    assert catalog.find("17_clue") == catalog.find("17_clue", held) == shipped
    with pytest.raises(DatasetError, match=f"holds its first {held} puzzles, not {held + 1}: run "
                                           "'sudokulab datasets fetch 17_clue'"):
        catalog.find("17_clue", held + 1)
    with pytest.raises(DatasetError, match="no slice of it ships"):
        catalog.find("norvig_hardest")
    with pytest.raises(UsageError, match="no dataset named"):
        catalog.find("no_such_set")


def test_the_published_sets_are_looked_for_beside_the_checkout_the_package_runs_from():
    if Path(catalog.__file__).resolve().parents[2] != ROOT / "src":
        pytest.skip("sudokulab is imported from elsewhere than this checkout's src/")
    assert catalog._beside_checkout() == ROOT.parent / "shared" / "data"
