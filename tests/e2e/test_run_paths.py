"""``sidecar run PATH...`` adds and runs in one process; ``run`` says by its exit status whether an item failed,
and returns only after every process it started has exited (issue 36; README: Command line).

Real Whisper base on a real recording (5 s of LibriSpeech); the broken file fails in audio
extraction, before any model. Each command runs in a session of its own, so every process
it started (model hosts, multiprocessing's resource tracker, FFmpeg) is in its process
group: once the command has returned, that group must be empty.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from app.cli import ITEM_FAILED_EXIT, USAGE_EXIT, build_parser
from tests.media import mux

REPO = Path(__file__).resolve().parents[2]
SPEECH = REPO / "tests" / "data" / "real_speech" / "en_librispeech_1320.opus"


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str
    group: int  # the command's process group (its own pid: it leads a new session)


def sidecar(data: Path, *args: str) -> Done:
    process = subprocess.Popen([sys.executable, "-m", "app", "--data-dir", str(data), *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=REPO, start_new_session=True)
    out, err = process.communicate(timeout=600)
    return Done(process.returncode, out, err, process.pid)


def assert_nothing_left(done: Done) -> None:
    """No model host named in the log is alive once the command returned, nor any other process of its group.

    The one exception is multiprocessing's resource tracker: it exits when the last end of
    its pipe closes, which is the command's own exit, so it may still be ending.
    """
    for pid in re.findall(r"model host .* started \(pid (\d+)\)", done.stderr):
        status = Path(f"/proc/{pid}/status")
        assert not status.exists() or "zombie" in status.read_text(), f"model host {pid} outlived the command"
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile
        if int(fields[2]) == done.group and fields[0] != "Z":  # field 5 of stat: the process group
            # A process in the middle of exiting has given its memory back, and with it the command line
            # /proc shows (empty): that is the tracker ending; a live model host is caught by its pid above.
            assert b"resource_tracker" in cmdline or cmdline == b"", f"{cmdline!r} outlived the command"


def test_run_with_a_folder_adds_it_and_subtitles_it_in_one_process(tmp_path: Path) -> None:
    folder = tmp_path / "Talks"
    folder.mkdir()
    mux(SPEECH, folder / "talk.mp4")
    done = sidecar(tmp_path / "data", "run", str(folder), "--target-lang", "", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert [job["total"] for job in answer["added"]] == [1] and answer["jobs"][0]["done"] == 1
    srt = next(folder.glob("talk*.srt"))
    assert len(srt.read_text().split()) > 5
    assert "model host" in done.stderr  # Whisper ran in a host of its own…
    assert_nothing_left(done)  # …which ended before the command returned


def test_a_failed_item_gives_exit_1_and_a_path_that_cannot_be_added_exit_2(tmp_path: Path) -> None:
    folder = tmp_path / "Broken"
    folder.mkdir()
    (folder / "broken.mp4").write_bytes(b"\x00\x00\x00\x18ftypisom" + os.urandom(4000))
    done = sidecar(tmp_path / "data", "run", str(folder), "--target-lang", "")
    assert done.returncode == ITEM_FAILED_EXIT == 1, done.stderr
    assert "1 failed" in done.stdout
    assert_nothing_left(done)
    done = sidecar(tmp_path / "data", "run", str(tmp_path / "missing"), str(folder), "--target-lang", "")
    assert done.returncode == USAGE_EXIT == 2, done.stderr
    assert "missing" in done.stderr and "job 2:" in done.stdout  # the folder that exists was still added and run
    # The two-command form is unchanged: `run --until-idle` after `add` reports the same failure by its status.
    assert sidecar(tmp_path / "data", "add", str(folder), "--redo", "--target-lang", "").returncode == 0
    done = sidecar(tmp_path / "data", "run", "--until-idle")
    assert done.returncode == ITEM_FAILED_EXIT, done.stderr
    assert_nothing_left(done)


def test_run_without_paths_parses_as_before() -> None:
    args = build_parser().parse_args(["run", "--until-idle"])
    assert args.paths == [] and args.until_idle
    assert "exit status" in build_parser()._subparsers._group_actions[0].choices["run"].format_help()  # type: ignore[union-attr]
