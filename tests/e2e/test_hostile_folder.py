"""Nothing in a folder can hang, crash or stall Sidecar (issue 21), through the real command line and models.

The acceptance folder: a named pipe ``pipe.mp4``, ``zero.mkv`` → /dev/zero, ``rand.jpg`` →
/dev/urandom and a Latin-1 named ``Caf\\xe9 talk.flac`` (real speech) beside ordinary media.
``add`` answers within a minute, ``run --until-idle`` ends within five, stderr holds only
Sidecar's own log lines (no traceback, no "leaked semaphore" warning) and every ordinary
file gets its subtitles or index next to it.

Then a property (hypothesis, a few examples: each runs the real models) over random trees
mixing such entries, odd byte names and small media: ``add`` returns, the run ends, every
regular media file is completed or carries a code, nothing is written outside the tree
and the data dir. The store's side of byte names on both backends is tests/test_byte_names.py.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from tests.media import MediaFactory
from tests.rendered_images import render_text_image

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
#: What Sidecar's own logging writes (app.cli): every stderr line of a clean run looks like this.
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (INFO|WARNING) app(\.\w+)*: ")
CAFE = os.fsdecode(b"Caf\xe9 talk.flac")


def sidecar(data: Path, *args: str, timeout: float, home: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    """One CLI call as a person runs it; fails the test when it runs past ``timeout`` (a hang)."""
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_CACHE_HOME": str(home / ".cache"), "XDG_DATA_HOME": str(home / ".local" / "share")}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "app", "--data-dir", str(data), *args], cwd=REPO, env=env,
                          capture_output=True, text=True, errors="surrogateescape", timeout=timeout)
    return proc, time.monotonic() - started


def assert_clean_stderr(stderr: str) -> None:
    """Only Sidecar's own INFO/WARNING log lines: no traceback, no Python warning, no ERROR."""
    foreign = [line for line in stderr.splitlines() if line and not LOG_LINE.match(line)]
    assert not foreign, "\n".join(foreign[:20])


def status_items(data: Path, home: Path) -> list[dict[str, Any]]:
    proc, _ = sidecar(data, "status", "--items", "--json", timeout=60, home=home)
    assert proc.returncode == 0, proc.stderr
    return [item for job in json.loads(proc.stdout)["jobs"] for item in job["items"]]


def exact_path(item: dict[str, Any]) -> str:
    """The item's path as the file system names it: ``path_bytes`` (base64) when it is not UTF-8 (README)."""
    return os.fsdecode(base64.b64decode(item["path_bytes"])) if "path_bytes" in item else item["path"]


def test_a_folder_of_pipes_devices_and_a_latin1_name_completes_with_clean_stderr(
        media: MediaFactory, tmp_path: Path) -> None:
    folder, data, home = tmp_path / "Downloads", tmp_path / "data", tmp_path / "home"
    folder.mkdir()
    home.mkdir()
    os.mkfifo(folder / "pipe.mp4")
    (folder / "zero.mkv").symlink_to("/dev/zero")
    (folder / "rand.jpg").symlink_to("/dev/urandom")
    shutil.copy(media.english_short_audio(".flac"), folder / CAFE)
    shutil.copy(media.english_short_audio(".mp3"), folder / "Podcast.mp3")
    render_text_image(folder / "receipt 4471.png", ["Invoice 4471"])

    added, add_s = sidecar(data, "add", str(folder), "--json", timeout=60, home=home)
    assert added.returncode == 0, added.stderr
    assert add_s < 60
    report = json.loads(added.stdout)
    assert report["jobs"][0]["total"] == 3
    ran, run_s = sidecar(data, "run", "--until-idle", timeout=300, home=home)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert run_s < 300
    assert_clean_stderr(added.stderr)
    assert_clean_stderr(ran.stderr)
    assert "leaked semaphore" not in ran.stderr

    names = set(os.listdir(os.fsencode(folder)))
    assert b"Caf\xe9 talk.en.srt" in names and b"Caf\xe9 talk.en.txt" in names  # the same bytes plus the suffix
    assert b"Podcast.en.srt" in names and b"receipt 4471.png.sidecar.json" in names
    srt = (folder / os.fsdecode(b"Caf\xe9 talk.en.srt")).read_text(encoding="utf-8").lower()
    assert "hello" in srt and "machine" in srt

    items = status_items(data, home)
    assert sorted((exact_path(i), i["status"]) for i in items) == sorted(
        (str(folder / name), "completed") for name in (CAFE, "Podcast.mp3", "receipt 4471.png"))
    cafe = next(i for i in items if "path_bytes" in i)
    assert cafe["path"] == str(folder / "Caf\ufffd talk.flac")  # what a person reads

    shown, _ = sidecar(data, "status", "--items", timeout=60, home=home)
    assert "Caf\ufffd talk.flac" in shown.stdout


#: Names as they come from old shares, zip archives and scripts: Latin-1, invalid UTF-8, newlines, long.
_NAME_BYTES = st.binary(min_size=1, max_size=40).filter(lambda b: b"/" not in b and b"\0" not in b
                                                        and not b.startswith(b"."))
_ENTRY = st.tuples(st.sampled_from(["image", "audio", "empty", "fifo", "zero", "urandom", "dangling", "loop",
                                    "socket", "folder", "long"]),
                   _NAME_BYTES, st.booleans())


def _build_tree(root: Path, entries: list[tuple[str, bytes, bool]], media: MediaFactory) -> set[bytes]:
    """Create ``entries`` under ``root`` (half of them in a byte-named subfolder); returns the regular media made."""
    regular: set[bytes] = set()
    sub = os.fsencode(root) + b"/sub \xff\xfe"
    os.mkdir(sub)
    for n, (kind, name, nested) in enumerate(entries):
        base = (sub if nested else os.fsencode(root)) + b"/" + name + b" %d" % n
        if kind == "image":
            render_text_image(Path(os.fsdecode(base + b".png")), [f"Card {n}"])
            regular.add(base + b".png")
        elif kind == "audio":
            shutil.copy(media.english_short_audio(".mp3"), base + b".mp3")
            regular.add(base + b".mp3")
        elif kind == "long":  # 255 bytes: the outputs must shorten the stem, not fail
            long_name = (os.path.dirname(base) + b"/" + (b"\xe9" * 300))[: len(os.path.dirname(base)) + 1 + 251] + b".png"
            if not os.path.exists(long_name):
                render_text_image(Path(os.fsdecode(long_name)), ["Long"])
                regular.add(long_name)
        elif kind == "empty":
            open(base + b".mp3", "wb").close()
            regular.add(base + b".mp3")
        elif kind == "fifo":
            os.mkfifo(base + b".mp4")
        elif kind == "zero":
            os.symlink(b"/dev/zero", base + b".mkv")
        elif kind == "urandom":
            os.symlink(b"/dev/urandom", base + b".jpg")
        elif kind == "dangling":
            os.symlink(base + b".missing", base + b".mp3")
        elif kind == "loop":
            os.symlink(base + b".mp3", base + b".mp3")
        elif kind == "socket":
            with socket.socket(socket.AF_UNIX) as sock:
                sock.bind(base + b".mp3")
        elif kind == "folder":
            os.mkdir(base + b".mp4")
    return regular


def _all_paths(root: Path) -> set[bytes]:
    found: set[bytes] = set()
    for top, dirs, files in os.walk(os.fsencode(root)):
        found.update(os.path.join(top, name) for name in dirs + files)
    return found


@settings(max_examples=2, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@example(entries=[("image", b"Caf\xe9", False), ("audio", b"new\nline\r", True), ("empty", b"\xff\xfe", False),
                  ("fifo", b"pipe", True), ("zero", b"zero", False), ("urandom", b"rand", True),
                  ("dangling", b"gone", False), ("loop", b"loop", True), ("socket", b"sock", False),
                  ("folder", b"x", True), ("long", b"long", False)])  # every kind at least once
@given(entries=st.lists(_ENTRY, min_size=3, max_size=8).filter(
    lambda es: any(kind in ("image", "audio") for kind, _, _ in es)))
def test_random_hostile_trees_finish_with_every_media_file_done_or_coded(
        media: MediaFactory, entries: list[tuple[str, bytes, bool]]) -> None:
    with tempfile.TemporaryDirectory(prefix="sidecar-hostile-") as tmp:
        base = Path(tmp)
        tree, data, home = base / "tree", base / "data", base / "home"
        tree.mkdir()
        home.mkdir()
        regular = _build_tree(tree, entries, media)
        before = _all_paths(tree)

        added, _ = sidecar(data, "add", str(tree), timeout=60, home=home)
        assert added.returncode == 0, added.stderr
        ran, _ = sidecar(data, "run", "--until-idle", timeout=300, home=home)
        assert ran.returncode in (0, 1), ran.stderr  # 1: some item failed (an empty file), with its code
        assert "Traceback" not in added.stderr + ran.stderr
        assert_clean_stderr(ran.stderr)

        items = {os.fsencode(exact_path(i)): i for i in status_items(data, home)}
        assert set(items) == regular  # only regular media files became items
        for path, item in items.items():
            assert item["status"] == "completed" or item["error_code"], (path, item)
            if path.endswith(b".mp3") and os.path.getsize(path) == 0:
                assert item["error_code"] == "empty_file"
        assert sorted(os.listdir(base)) == ["data", "home", "tree"]  # nothing beside the tree and the data dir
        assert not _all_paths(home)
        written = _all_paths(tree) - before
        assert all(os.path.dirname(p) in {os.path.dirname(r) for r in regular} for p in written)
