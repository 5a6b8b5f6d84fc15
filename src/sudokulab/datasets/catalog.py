"""The published benchmark sets by name: where each one comes from, its SHA-256, and the local copy.

A set is fetched once from its public source with ``pooch`` and kept in the user's cache folder
(``SUDOKULAB_DATA`` names another): five from the tdoku benchmark suite's ``data.zip``
(t-dillon/tdoku, BSD-2-Clause), Norvig's two lists from his site. Each set is checked *as stored*
against its SHA-256, and one whose hash differs is refused with nothing cached. ``bench`` and
``judge`` take a set by name: ``resolve`` turns a name into the cached file, and a path stays a
path. Lessons and tests read a set through ``find``: the whole set when this machine has it
(``published``), else the slice shipped in ``slices/`` (``shipped``), so they run on a fresh clone
and print the same first puzzles either way.

Sources, the cache, the check and the slices: docs/datasets.md.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import SudokuError, UsageError

if TYPE_CHECKING:  # hashlib and zipfile only when a set is fetched: the parser reads the names on every run
    import zipfile

FOLDER_ENV = "SUDOKULAB_DATA"
"""The environment variable that names the folder of the fetched sets (default: the user's cache)."""

TDOKU_REF = "f6ac4c3cc8ecdcae5d86873dc5c5aa49ca5abad9"
"""The tdoku commit the archive is taken from: the newest commit of its README.md in a public index
of the repository on 2026-11-22, whose build instructions begin with ``unzip data.zip`` (so the
archive is in that tree). Not downloaded from here (this machine reaches no GitHub); the per-set
SHA-256 hashes below hold the content fixed: an archive with other sets is refused, nothing kept."""

TDOKU_ARCHIVE = f"https://github.com/t-dillon/tdoku/raw/{TDOKU_REF}/data.zip"
"""The tdoku benchmark archive (about 73 MB). When this archive was recorded publicly in 2026 its
SHA-256 was 9be0601c721ac4e702e3fe097576f025fcb99b216aabfe9dbea37cac43e6bc4f; the sets inside it are
what is checked, so a repacked archive with the same sets is still accepted."""

DOWNLOAD_TIMEOUT = 60.0
"""Seconds without an answer from the server before a download gives up."""


@dataclass(frozen=True)
class PuzzleSet:
    """One published puzzle set: its name, size, where it comes from and the hash of the stored file."""

    name: str
    puzzles: int
    sha256: str
    """Of the file as stored: one puzzle a line, comments and blank lines dropped, ``\\n`` line ends."""
    url: str
    """The file to download: an archive (with ``member``) or the set itself."""
    member: str | None
    """The set's path inside the archive; None when the download is the set itself."""
    what: str

    @property
    def filename(self) -> str:
        return f"{self.name}.txt"

    @property
    def download_name(self) -> str:
        """The name the download is cached under (``downloads/<this>``)."""
        return _download_name(self.url)


def _download_name(url: str) -> str:
    """A file name for a URL, distinct per host and revision: ``tdoku-f6ac4c3cc8ec-data.zip``."""
    parts = [p for p in url.split("://", 1)[-1].split("/") if p]
    if "github.com" in parts[:1] and len(parts) >= 5:  # github.com/OWNER/REPO/raw/REF/PATH
        return f"{parts[2]}-{parts[4][:12]}-{parts[-1]}"  # a commit hash cut to 12 characters
    host = parts[0].split(":")[0].removeprefix("www.").split(".")[0] if parts else "download"
    return f"{host}-{parts[-1]}" if len(parts) > 1 else host


def _tdoku(name: str, member: str, puzzles: int, sha256: str, what: str) -> PuzzleSet:
    return PuzzleSet(name, puzzles, sha256, TDOKU_ARCHIVE, f"data/{member}", what)


SETS: dict[str, PuzzleSet] = {s.name: s for s in (
    _tdoku("17_clue", "puzzles2_17_clue", 49_158,
           "0041377124d2982cbfdabfbf3f9ceab7649c975ade3ff731cdeaf799b7ad1b87",
           "every known 17-clue puzzle, mostly easy"),
    _tdoku("magictour_top1465", "puzzles3_magictour_top1465", 1_465,
           "21d82f285082dc0db051f407cf23103af76bf077b368b04bd9e619f2bf6d2c1b",
           "classic hard set"),
    _tdoku("forum_hardest_1106", "puzzles6_forum_hardest_1106", 375,
           "fb88ac7cfcc462154a41c62262192ccd40255c39db9bd827e5199f1e1660cd17",
           "very hard (forum list, 2011)"),
    _tdoku("forum_hardest_1905_11plus", "puzzles5_forum_hardest_1905_11+", 48_766,
           "56236eaf6c7445ea244db3423ec44a102349dbedf6e457af0fcdd3d07cf39996",
           "very hard (rated 11+)"),
    _tdoku("serg_benchmark", "puzzles7_serg_benchmark", 10_000,
           "c9f3cbaf03488089a8fe9951b08477975594167e59d18218b9279619d945dee7",
           "mixed, some with several solutions"),
    PuzzleSet("norvig_top95", 95, "b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36",
              "https://norvig.com/top95.txt", None, "hard (Norvig's essay)"),
    PuzzleSet("norvig_hardest", 11, "398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f",
              "https://norvig.com/hardest.txt", None, "'hardest' (Norvig's essay)"),
)}
"""Every set ``sudokulab datasets`` knows, in the order listed."""


class DatasetError(SudokuError):
    """A set cannot be had: not fetched yet, no network, a download that fails its hash."""


class DownloadFailed(DatasetError):
    """The download itself failed (no network, an HTTP error): the same URL will fail again for now."""


def names() -> list[str]:
    return list(SETS)


def get(name: str, sets: Mapping[str, PuzzleSet] | None = None) -> PuzzleSet:
    """The set of that name; an unknown name is one line listing the known ones."""
    sets = SETS if sets is None else sets
    if name not in sets:
        raise UsageError(f"no dataset named '{name}': known are {', '.join(sets)}")
    return sets[name]


def data_folder() -> Path:
    """Where fetched sets live: ``$SUDOKULAB_DATA``, or the user's cache folder for sudokulab."""
    chosen = os.environ.get(FOLDER_ENV, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    return Path(_pooch().os_cache("sudokulab"))


def cached_path(name: str, *, folder: Path | None = None, sets: Mapping[str, PuzzleSet] | None = None) -> Path:
    """Where the set of that name is (or would be) stored."""
    return (data_folder() if folder is None else Path(folder)) / get(name, sets).filename


def not_fetched(name: str) -> DatasetError:
    return DatasetError(f"dataset '{name}' is not downloaded yet: run 'sudokulab datasets fetch {name}'")


def path(name: str, *, folder: Path | None = None, sets: Mapping[str, PuzzleSet] | None = None) -> Path:
    """The stored file of a fetched set; a set not fetched yet is one line saying how to fetch it."""
    found = cached_path(name, folder=folder, sets=sets)
    if not found.is_file():
        raise not_fetched(name)
    return found


SLICES = Path(__file__).resolve().parent / "slices"
"""The first lines of some published sets, shipped with the package (``slices/README.md`` cites each one's
source and line range): what lessons and tests read where the whole set is not here. Never a whole set."""


def _beside_checkout() -> Path | None:
    """``../shared/data`` beside the checkout the package runs from (an editable install or ``src`` on the
    path: the folder above ``src/`` holds pyproject.toml), where developers and CI keep the published
    sets; None for an installed package."""
    root = Path(__file__).resolve().parents[3]
    if (root / "pyproject.toml").is_file() and (root / "src" / "sudokulab").is_dir():
        return root.parent / "shared" / "data"
    return None


def published(name: str, sets: Mapping[str, PuzzleSet] | None = None) -> Path | None:
    """The whole published set when this machine has it, else None: fetched into the data folder
    (``$SUDOKULAB_DATA``, or the user's cache), or in ``../shared/data`` beside the checkout, in that order."""
    puzzle_set = get(name, sets)
    folders = []
    try:
        folders.append(data_folder())
    except DatasetError:  # no pooch to name the cache folder: only ../shared/data is looked at
        pass
    beside = _beside_checkout()
    if beside is not None:
        folders.append(beside)
    return next((folder / puzzle_set.filename for folder in folders if (folder / puzzle_set.filename).is_file()),
                None)


def shipped(name: str, sets: Mapping[str, PuzzleSet] | None = None) -> Path | None:
    """The slice of the set shipped with the package (its first lines), or None for a set without one."""
    found = SLICES / get(name, sets).filename
    return found if found.is_file() else None


def _count(path: Path) -> int:
    with open(path, "rb") as stream:
        return sum(1 for line in stream if line.strip() and not line.startswith(b"#"))


def find(name: str, first: int | None = None, sets: Mapping[str, PuzzleSet] | None = None) -> Path:
    """The file to read the published set ``name`` from: the whole set when this machine has it
    (``published``), else the slice shipped with the package, when it holds at least ``first`` puzzles
    (any slice for ``first=None``). Read only its first ``first`` puzzles (``Dataset.from_path(path,
    limit=first)``) and they are the same puzzles either way; neither: a DatasetError saying how to
    fetch the set."""
    whole = published(name, sets)
    if whole is not None:
        return whole
    part = shipped(name, sets)
    if part is not None and (first is None or _count(part) >= first):
        return part
    held = ("no slice of it ships with sudokulab" if part is None
            else f"the slice shipped with sudokulab holds its first {_count(part)} puzzles, not {first}")
    raise DatasetError(f"dataset '{name}' is not here and {held}: run 'sudokulab datasets fetch {name}' "
                       f"(or set {FOLDER_ENV} to a folder that holds {get(name, sets).filename})")


def resolve(argument: str, *, folder: Path | None = None, sets: Mapping[str, PuzzleSet] | None = None) -> str:
    """A dataset argument as a file to read: an existing file (or ``-``) as it is, a set's name as its
    stored file (a set not fetched yet is an error saying how to fetch it), anything else unchanged."""
    sets = SETS if sets is None else sets
    if argument == "-" or argument not in sets or Path(argument).exists():
        return argument
    return str(path(argument, folder=folder, sets=sets))


def normalize(raw: bytes) -> bytes:
    """A set as stored: each puzzle on its own line, comments and blank lines dropped, ``\\n`` endings."""
    lines = (line.strip() for line in raw.decode("utf-8", errors="replace").splitlines())
    kept = [line for line in lines if line and not line.startswith("#")]
    return ("\n".join(kept) + "\n").encode() if kept else b""


def sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Fetched:
    """What ``fetch`` did for one set."""

    name: str
    path: Path
    downloaded: bool
    """False when the set was already stored with the right hash."""


def fetch(wanted: Iterable[str], *, folder: Path | None = None, sets: Mapping[str, PuzzleSet] | None = None,
          progress: Callable[[str], Any] | None = None) -> list[Fetched]:
    """Download, check and store the named sets; each download happens once for all the sets in it.

    ``sets`` replaces the registry (tests serve their own archive from a local server); ``progress``,
    given a download's URL, returns a pooch progress-bar object (or None for none).
    """
    sets = SETS if sets is None else sets
    chosen = [get(name, sets) for name in dict.fromkeys(wanted)]
    folder = data_folder() if folder is None else Path(folder)
    done: list[Fetched] = []
    by_url: dict[str, list[PuzzleSet]] = {}
    for puzzle_set in chosen:
        target = folder / puzzle_set.filename
        if target.is_file() and sha256(target.read_bytes()) == puzzle_set.sha256:
            done.append(Fetched(puzzle_set.name, target, downloaded=False))
        else:
            by_url.setdefault(puzzle_set.url, []).append(puzzle_set)
    for url, members in by_url.items():
        download = _download(url, members[0].download_name, folder, progress)
        try:
            contents = {s.name: _extract(download, s) for s in members}
        except DatasetError:
            download.unlink(missing_ok=True)  # a wrong or broken download is not kept either
            raise
        for puzzle_set in members:
            target = folder / puzzle_set.filename
            _store(target, contents[puzzle_set.name])
            done.append(Fetched(puzzle_set.name, target, downloaded=True))
    order = {s.name: i for i, s in enumerate(chosen)}
    return sorted(done, key=lambda f: order[f.name])


def _pooch() -> Any:
    try:
        import pooch
    except ImportError:
        raise DatasetError("fetching datasets needs the 'pooch' package: pip install pooch "
                           "(it comes with sudokulab; was it installed with --no-deps?)") from None
    return pooch


def _download(url: str, fname: str, folder: Path, progress: Callable[[str], Any] | None) -> Path:
    """The download in ``folder/downloads``, fetched unless it is there already (put it there by hand
    on a machine without network)."""
    pooch = _pooch()
    import requests

    pooch.get_logger().setLevel("WARNING")  # no "Downloading ..." lines on stderr: that is for results
    downloads = _folder(folder / "downloads")
    bar = progress(url) if progress is not None else None
    downloader = pooch.HTTPDownloader(progressbar=bar if bar is not None else False, timeout=DOWNLOAD_TIMEOUT)
    try:
        return Path(pooch.retrieve(url, known_hash=None, fname=fname, path=downloads, downloader=downloader))
    except (requests.RequestException, OSError) as exc:
        raise DownloadFailed(f"cannot download {url} ({_reason(exc)}): download it elsewhere and put it at "
                           f"{downloads / fname}, then fetch again") from None
    finally:
        if bar is not None:
            close = getattr(bar, "close", None)
            if close is not None:
                close()


def _folder(folder: Path) -> Path:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatasetError(f"cannot make the data folder {folder}: {exc.strerror or exc} "
                           f"(set {FOLDER_ENV} to another folder)") from None
    return folder


def _reason(exc: BaseException) -> str:
    import requests

    response = getattr(exc, "response", None)
    if response is not None and getattr(response, "status_code", None):
        return f"HTTP {response.status_code}"
    if isinstance(exc, requests.Timeout):
        return "no answer in time"
    if isinstance(exc, requests.ConnectionError):
        return "no connection"
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return type(exc).__name__


def _extract(download: Path, puzzle_set: PuzzleSet) -> bytes:
    """The set's stored form from a download (an archive member, or the whole file), hash checked."""
    import zipfile

    where = f"{puzzle_set.url}"
    try:
        if puzzle_set.member is None:
            raw = download.read_bytes()
        else:
            with zipfile.ZipFile(download) as archive:
                member = _member(archive, puzzle_set.member)
                if member is None:
                    raise DatasetError(f"{where} has no {puzzle_set.member}: refused, nothing cached")
                raw = archive.read(member)
                where = f"{where} ({member})"
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise DatasetError(f"{where} is no readable archive ({exc}): refused, nothing cached") from None
    data = normalize(raw)
    found = sha256(data)
    if found != puzzle_set.sha256:
        raise DatasetError(f"{puzzle_set.name} from {where} has SHA-256 {found[:16]}..., expected "
                           f"{puzzle_set.sha256[:16]}...: refused, nothing cached")
    return data


def _member(archive: zipfile.ZipFile, wanted: str) -> str | None:
    """The archive member of that path, or of that file name in any folder (``data/x`` or ``x``)."""
    names = archive.namelist()
    if wanted in names:
        return wanted
    base = wanted.rsplit("/", 1)[-1]
    return next((n for n in names if n.rsplit("/", 1)[-1] == base), None)


def _store(target: Path, data: bytes) -> None:
    from ..formats.outputs import OutputFile

    _folder(target.parent)
    with OutputFile(target, what="dataset", binary=True) as out:  # whole or not at all
        out.write(data)
