"""What sits in a person's folder is not ours to choose (issue 21): pipes, devices, links to nothing or
to themselves, files that vanish, grow, are empty or may not be read, and stages that hang.

Each case gets its own code and the rest of the folder completes, through the real scan,
store, scheduler and model hosts; only the stages' work is fake (tests/engine_stages.py).
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from app.atomic_write import open_regular
from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.scan import scan
from app.engine.stage import ModelSpec, Pipeline, StageContext
from app.errors import NotRegularFile
from tests.engine_stages import DigestStage, PlaceStage
from tests.threads import in_thread

REPO = Path(__file__).resolve().parents[1]
#: Root reads every file; the EACCES case runs without the capabilities that bypass permissions.
UNPRIVILEGED = (["setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"]
                if os.geteuid() == 0 else [])


def _hostile_folder(root: Path) -> None:
    root.mkdir(parents=True)
    (root / "good.mp4").write_bytes(b"fake video\n" * 10)
    os.mkfifo(root / "pipe.mp4")
    (root / "zero.mkv").symlink_to("/dev/zero")
    (root / "rand.jpg").symlink_to("/dev/urandom")
    (root / "dangling.mp3").symlink_to(root / "nowhere.mp3")
    (root / "loop.mp3").symlink_to(root / "loop.mp3")
    (root / "x.mp4").mkdir()  # a folder with a media name is a folder
    (root / "x.mp4" / "inside.mp3").write_bytes(b"fake audio\n")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(root / "sock.mp3"))
    sock.close()


def test_scan_keeps_only_regular_files_and_codes_the_rest(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    _hostile_folder(root)
    result = in_thread(lambda: scan(root), timeout=20)
    assert sorted(e.path.relative_to(root).as_posix() for e in result.entries) == ["good.mp4", "x.mp4/inside.mp3"]
    codes = {Path(p["path"]).name: p["code"] for p in result.problems}
    assert codes == {"pipe.mp4": "not_a_regular_file", "zero.mkv": "not_a_regular_file",
                     "rand.jpg": "not_a_regular_file", "sock.mp3": "not_a_regular_file",
                     "dangling.mp3": "dangling_link", "loop.mp3": "symlink_loop"}
    assert result.report()["problem_codes"] == {"not_a_regular_file": 4, "dangling_link": 1, "symlink_loop": 1}


def test_a_pipe_or_device_is_refused_at_open_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.mp4")  # no writer: a plain open() would block forever
    for path in (tmp_path / "pipe.mp4", Path("/dev/zero")):
        with pytest.raises(NotRegularFile):
            in_thread(lambda: open_regular(path), timeout=10)
    (tmp_path / "ok.mp4").write_bytes(b"abc")
    with open_regular(tmp_path / "ok.mp4") as fh:
        assert fh.read() == b"abc"


def _library(data_dir: Path, stages: list[Any], config: EngineConfig) -> Library:
    return Library(data_dir, {"video": Pipeline("video", [*stages, PlaceStage()])}, config)


def _run(lib: Library, folder: Path, between: Callable[[], None] = lambda: None, timeout: float = 60) -> dict[str, Any]:
    try:
        job = lib.add(folder, JobOptions())
        between()
        lib.start()
        in_thread(lib.run_until_idle, timeout)
        return {Path(i.path).name: i for i in lib.items(job.id)}
    finally:
        in_thread(lib.close, 20)


def test_each_odd_file_gets_its_code_and_the_rest_completes(tmp_path: Path, data_dir: Path, fast_config: EngineConfig,
                                                            database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On both backends: a file turned into a pipe after the scan, a vanished, an empty and a growing file."""
    lib_dir = tmp_path / "lib"
    lib_dir.mkdir()
    for name in ("good.mp4", "became_pipe.mp4", "gone.mp4", "vanishes.mp4", "grows.mp4"):
        (lib_dir / name).write_bytes(os.urandom(3 << 20))  # three blocks of the hash stage
    (lib_dir / "empty.mp4").write_bytes(b"")

    from app.engine import context

    progress = context.ClaimContext.progress

    def meddle(self: context.ClaimContext, fraction: float, note: str = "") -> None:
        """Mid-read, after the first block: one file is deleted, one grows (a download still being written)."""
        if self.claim.name == "hash" and 0 < fraction < 1:
            path = self.item.path
            if path.name == "vanishes.mp4" and path.exists():
                path.unlink()
            elif path.name == "grows.mp4" and path.stat().st_size < 4 << 20:
                with open(path, "ab") as fh:
                    fh.write(os.urandom(1 << 20))
        progress(self, fraction, note)

    monkeypatch.setattr(context.ClaimContext, "progress", meddle)

    def between() -> None:
        (lib_dir / "became_pipe.mp4").unlink()
        os.mkfifo(lib_dir / "became_pipe.mp4")
        (lib_dir / "gone.mp4").unlink()

    config = dataclasses.replace(fast_config, database_url=database_url)
    items = _run(_library(data_dir, [DigestStage("extract")], config), lib_dir, between)
    codes = {name: (i.status, i.error_code) for name, i in items.items()}
    assert codes == {
        "good.mp4": ("completed", None),
        "became_pipe.mp4": ("failed", "not_a_regular_file"),
        "gone.mp4": ("failed", "file_missing"),
        "vanishes.mp4": ("failed", "file_missing"),
        "grows.mp4": ("failed", "target_changed"),
        "empty.mp4": ("failed", "empty_file"),
    }
    assert (lib_dir / "good.test.srt").is_file()
    assert not list(lib_dir.glob("*.test.srt"))[1:]


def test_a_file_sidecar_may_not_read_fails_unreadable_file_at_once() -> None:
    """EACCES, as an unprivileged process meets it (root reads everything): coded, not retried, the rest completes."""
    base = Path(tempfile.mkdtemp(prefix="sidecar-eacces-"))
    try:
        os.chmod(base, 0o777)
        lib_dir, data = base / "lib", base / "data"
        lib_dir.mkdir()
        data.mkdir()
        for name in ("ok.mp4", "locked.mp4"):
            (lib_dir / name).write_bytes(b"fake video\n" * 100)
        os.chmod(lib_dir / "locked.mp4", 0o000)
        code = (
            "import json, sys; from pathlib import Path\n"
            "import app.pipelines\n"
            "from app.engine.config import EngineConfig\n"
            "from app.engine.job_options import JobOptions\n"
            "from app.engine.library import Library\n"
            "from app.engine.stage import Pipeline\n"
            "from tests.engine_stages import DigestStage, PlaceStage\n"
            "lib = Library(Path(sys.argv[2]), {'video': Pipeline('video', [DigestStage('extract'), PlaceStage()])},\n"
            "              EngineConfig(workers=1, lease_seconds=3.0, backoff_base=0.05, backoff_cap=0.2, poll_interval=0.05))\n"
            "job = lib.add(Path(sys.argv[1]), JobOptions()); lib.start(); lib.run_until_idle()\n"
            "from sqlalchemy import text\n"
            "with lib.store.db.read() as conn:\n"
            "    tries = dict(conn.execute(text('SELECT i.path, s.attempt FROM stages s JOIN items i ON i.id = s.item_id '\n"
            "                                   \"WHERE s.name = 'hash'\")).all())\n"
            "items = {Path(i.path).name: [i.status, i.error_code, i.error, tries[i.path]] for i in lib.items(job.id)}\n"
            "lib.close(); print(json.dumps(items))\n"
        )
        out = subprocess.run([*UNPRIVILEGED, sys.executable, "-c", code, str(lib_dir), str(data)], cwd=REPO,
                             capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120)
        assert out.returncode == 0, out.stderr
        items = json.loads(out.stdout)
        assert items["ok.mp4"][:2] == ["completed", None]
        assert items["locked.mp4"][:2] == ["failed", "unreadable_file"]
        assert "Permission denied" in items["locked.mp4"][2]
        assert items["locked.mp4"][3] == 1  # permissions do not change by retrying
    finally:
        os.chmod(base / "lib" / "locked.mp4", 0o644)
        subprocess.run(["rm", "-rf", str(base)], check=False)


def _media_folder(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "lib"
    folder.mkdir()
    for name in names:
        (folder / name).write_bytes(name.encode() * 100)
    return folder


def _stall_config(fast_config: EngineConfig) -> EngineConfig:
    return dataclasses.replace(fast_config, stall_seconds=0.5, model_stall_factor=4.0, stall_per_media_second=0.0)


def test_a_stage_stuck_where_it_checks_nothing_fails_stalled_and_its_worker_is_replaced(
        tmp_path: Path, data_dir: Path, fast_config: EngineConfig) -> None:
    """A read from a disk that stopped answering never returns: the item fails ``stalled``, the others complete."""
    lib_dir = _media_folder(tmp_path, "a.mp4", "stuck.mp4", "b.mp4", "c.mp4")
    never = threading.Event()
    stuck = DigestStage("extract", on_run=lambda ctx: never.wait() if ctx.item.path.name == "stuck.mp4" else None)
    config = dataclasses.replace(_stall_config(fast_config), workers=1)  # one worker: it must be replaced
    started = time.monotonic()
    items = _run(_library(data_dir, [stuck], config), lib_dir, timeout=60)
    never.set()
    assert {n: (i.status, i.error_code) for n, i in items.items()} == {
        "a.mp4": ("completed", None), "b.mp4": ("completed", None), "c.mp4": ("completed", None),
        "stuck.mp4": ("failed", "stalled")}
    assert "no progress" in items["stuck.mp4"].error
    assert time.monotonic() - started < 30  # stopping the engine did not wait for the stuck thread


def test_a_stage_that_checks_but_shows_no_progress_is_stopped_at_its_next_check(
        tmp_path: Path, data_dir: Path, fast_config: EngineConfig) -> None:
    lib_dir = _media_folder(tmp_path, "a.mp4", "spins.mp4")

    def spin(ctx: StageContext) -> None:
        while ctx.item.path.name == "spins.mp4":
            ctx.check()  # alive, but never a progress report: a source that stopped producing
            time.sleep(0.01)

    items = _run(_library(data_dir, [DigestStage("extract", on_run=spin)], _stall_config(fast_config)), lib_dir)
    assert {n: (i.status, i.error_code) for n, i in items.items()} == {
        "a.mp4": ("completed", None), "spins.mp4": ("failed", "stalled")}


def test_a_hung_model_call_ends_its_model_process_and_the_next_item_gets_a_fresh_one(
        tmp_path: Path, data_dir: Path, fast_config: EngineConfig) -> None:
    lib_dir = _media_folder(tmp_path, "a_stuck.mp4", "b.mp4")
    spec = ModelSpec.of("tests.runtimes:EchoRuntime", memory_mb=100, tag="hangs")
    pids: list[int] = []

    def note_pid(ctx: StageContext) -> None:
        pids.append(ctx.model(spec).call("pid"))

    stage = DigestStage("transcribe", spec=spec, on_run=note_pid,
                        model_method=lambda name: "hang" if name == "a_stuck.mp4" else "echo")
    config = dataclasses.replace(_stall_config(fast_config), workers=1)
    started = time.monotonic()
    items = _run(_library(data_dir, [stage], config), lib_dir)
    assert {n: (i.status, i.error_code) for n, i in items.items()} == {
        "a_stuck.mp4": ("failed", "stalled"), "b.mp4": ("completed", None)}
    assert len(pids) == 2 and pids[0] != pids[1]  # the hung host was ended; b ran on a new one
    with pytest.raises(ProcessLookupError):
        os.kill(pids[0], 0)
    assert time.monotonic() - started < 40


def test_stall_limits_follow_the_documented_formula() -> None:
    config = EngineConfig()
    assert config.stall_limit(uses_model=False, media_seconds=7200) == 60
    assert config.stall_limit(uses_model=True, media_seconds=0) == 600
    assert config.stall_limit(uses_model=True, media_seconds=7200) == 600 + 3600


def test_names_windows_refuses_are_recognised() -> None:
    """A Windows worker fails such an item ``invalid_name`` (scheduler._check_source) instead of a vague error."""
    from app.engine.placement import invalid_on_windows

    for name in ("Q&A: part 1?.mp4", 'say "hi".mkv', "a|b.mp3", "trailing dot.", "trailing space ", "CON.mp4",
                 "nul.txt", "COM1.mkv", "tab\there.mp4"):
        assert invalid_on_windows(name), name
    for name in ("Movie (2020).mkv", "Café talk.flac", "CONTACT.mp4", "con-talk.mp4", "日本語.mp4"):
        assert not invalid_on_windows(name), name
