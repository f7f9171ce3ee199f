"""Watched folders keep their promises on a real temp folder, with real watchdog and real SQLite.

Processing uses the fake pipeline (real store, real step protocol, real atomic writer):
what is under test is which files become items, when, and what happens to them when
they move or vanish. Every wait polls a condition with a deadline.
"""

from __future__ import annotations

import json
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import pytest
from sqlalchemy import func, select, text

from app.cli import main as cli_main
from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.stage import Pipeline
from app.engine.mounts import is_network_folder, network_fs_type
from app.engine.plan import ITEM_BATCH
from app.engine.renames import renamed_output_name
from app.engine.watch import WatchService, WatchSettings, add_watch, set_watched_folders
from app.errors import SidecarError
from app.settings import load_settings
from app.store import search_queries, search_writes
from app.store.search_queries import CurrentContent
from app.store.tables import items, stages
from tests.engine_stages import fake_pipeline

QUIET = 0.5
FAST = WatchSettings(quiet_seconds=QUIET, poll_seconds=0.2, refresh_seconds=0.2)


def wait_for(condition: Callable[[], object], timeout: float = 20.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.05)


@contextmanager
def running(data_dir: Path, pipeline, config: EngineConfig, folder: Path | None = None,  # type: ignore[no-untyped-def]
            settings: WatchSettings = FAST, **service_kw) -> Iterator[tuple[Library, WatchService, list]]:
    """A library with the fake video pipeline, its engine and its watch service running."""
    lib = Library(data_dir, both_kinds(pipeline), config)
    if folder is not None:
        add_watch(lib, folder, JobOptions())
    events: list[tuple[float, str, str]] = []
    service = WatchService(lib, settings, on_change=lambda a, p: events.append((time.monotonic(), a, p)), **service_kw)
    lib.start()
    service.start()
    try:
        yield lib, service, events
    finally:
        service.stop()
        lib.close()


def both_kinds(pipeline: Pipeline) -> dict[str, Pipeline]:
    """The fake stages for videos and for images (images have no already-subtitled rule)."""
    return {"video": pipeline, "image": Pipeline("image", pipeline.stages)}


def settle(lib: Library, service: WatchService) -> None:
    """Wait until no watched file is pending and the engine has nothing left to run."""
    wait_for(lambda: all(s.pending == 0 for s in service.status()), what="watched files to settle")
    lib.run_until_idle()


def completed(lib: Library, path: Path) -> bool:
    cur = lib.store.current.get(str(path))
    return cur is not None and cur.status == "completed"


def rows_for(lib: Library, path: Path) -> int:
    with lib.store.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(items).where(items.c.path == str(path))).scalar_one())


def calls(digests, name: str) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for d in digests for (n, _) in d.calls if n == name)


def video(path: Path, body: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(body or f"fake video {path.name}\n".encode() * 20)
    return path


def test_file_copied_slowly_is_processed_once_after_it_is_complete(data_dir: Path, tmp_path: Path, fast_config) -> None:
    folder = tmp_path / "lib"
    folder.mkdir()
    pipeline, digests = fake_pipeline()
    target = folder / "slow.mp4"
    chunk, chunks = b"x" * 4096, 20
    done: dict[str, float] = {}

    def write_slowly() -> None:
        with open(target, "wb") as fh:
            for _ in range(chunks):
                fh.write(chunk)
                fh.flush()
                time.sleep(0.1)  # a copy that takes ~2 s, with gaps shorter than the quiet period
        done["at"] = time.monotonic()

    with running(data_dir, pipeline, fast_config, folder) as (lib, service, events):
        wait_for(lambda: service.status() and service.status()[0].mode == "native", what="the watcher to start")
        writer = threading.Thread(target=write_slowly)
        writer.start()
        writer.join()
        wait_for(lambda: completed(lib, target), what="the copied file to be processed")
        settle(lib, service)
        cur = lib.store.current.get(str(target))
        queued = [t for t, action, p in events if action == "queued" and p == str(target)]

    assert cur is not None and cur.size == len(chunk) * chunks == target.stat().st_size
    assert rows_for(lib, target) == 1
    assert calls(digests, "slow.mp4") == 3  # extract, transcribe, translate: once each
    assert len(queued) == 1
    latency = queued[0] - done["at"]
    print(f"last write → queued: {latency:.3f}s (quiet period {QUIET}s)")
    assert latency >= QUIET * 0.9, "queued before the file was quiet for the quiet period"
    assert (folder / "slow.test.srt").exists()


def test_renamed_file_keeps_its_item_and_our_unchanged_sidecar_moves_with_it(data_dir: Path, tmp_path: Path, fast_config) -> None:
    folder = tmp_path / "lib"
    a, b = video(folder / "a.mp4"), video(folder / "b.mp4")
    (folder / "sub").mkdir()
    pipeline, digests = fake_pipeline()
    with running(data_dir, pipeline, fast_config, folder) as (lib, service, events):
        wait_for(lambda: completed(lib, a) and completed(lib, b), what="catch-up of the existing files")
        settle(lib, service)
        before = {p: lib.store.current.get(str(p)) for p in (a, b)}
        a_srt = (folder / "a.test.srt").read_bytes()
        (folder / "b.test.srt").write_bytes(b"edited by the person\n")
        n_calls = sum(len(d.calls) for d in digests)

        moved_a, moved_b = folder / "sub" / "renamed.mp4", folder / "b2.mp4"
        os.rename(a, moved_a)
        os.rename(b, moved_b)
        wait_for(lambda: lib.store.current.get(str(moved_a)) and lib.store.current.get(str(moved_b)), what="the renames")
        settle(lib, service)
        after = {p: lib.store.current.get(str(p)) for p in (moved_a, moved_b)}
        gone = [lib.store.current.get(str(p)) for p in (a, b)]
        with lib.store.db.read() as conn:
            attempts = conn.execute(select(stages.c.attempt).where(stages.c.item_id == before[a].item_id,
                                                                 stages.c.reused == 0)).scalars().all()

    assert after[moved_a].item_id == before[a].item_id and after[moved_a].sha256 == before[a].sha256
    assert after[moved_b].item_id == before[b].item_id
    assert gone == [None, None]
    assert sum(len(d.calls) for d in digests) == n_calls, "a rename must not re-run any stage"
    assert attempts and set(attempts) == {1}, "every stage that ran (the watcher hashed the file itself) ran once"
    assert (folder / "sub" / "renamed.test.srt").read_bytes() == a_srt
    assert not (folder / "a.test.srt").exists()
    # The person edited b's subtitle: it is theirs now and stays where it was.
    assert (folder / "b.test.srt").read_bytes() == b"edited by the person\n"
    assert not (folder / "b2.test.srt").exists()
    assert [a for _, a, p in events if p == str(moved_a)].count("renamed") == 1


def test_moved_folder_keeps_its_items_and_their_sidecars(data_dir: Path, tmp_path: Path, fast_config) -> None:
    folder = tmp_path / "lib"
    clip = video(folder / "season1" / "ep1.mp4")
    pipeline, digests = fake_pipeline()
    with running(data_dir, pipeline, fast_config, folder) as (lib, service, _):
        wait_for(lambda: completed(lib, clip), what="catch-up")
        settle(lib, service)
        before = lib.store.current.get(str(clip))
        n_calls = sum(len(d.calls) for d in digests)
        os.rename(folder / "season1", folder / "Season 01")
        moved = folder / "Season 01" / "ep1.mp4"
        wait_for(lambda: lib.store.current.get(str(moved)), what="the folder move")
        settle(lib, service)
        after = lib.store.current.get(str(moved))
        placed = lib.store.current.placed_files(str(moved))
    assert after is not None and after.item_id == before.item_id
    assert sum(len(d.calls) for d in digests) == n_calls
    # The subtitle moved with its folder; the store knows where it is now, so a later rename finds it.
    assert [p.target for p in placed] == [str(folder / "Season 01" / "ep1.test.srt")]


def test_deleted_file_leaves_search_but_shared_content_stays_findable(data_dir: Path, tmp_path: Path, fast_config) -> None:
    folder = tmp_path / "lib"
    body = b"the same bytes in two files\n" * 30
    x, y, z = video(folder / "x.mp4", body), video(folder / "y.mp4", body), video(folder / "z.mp4")
    pipeline, _ = fake_pipeline()
    with running(data_dir, pipeline, fast_config, folder) as (lib, service, _events):
        wait_for(lambda: all(completed(lib, p) for p in (x, y, z)), what="catch-up")
        settle(lib, service)
        shared, other = lib.store.current.get(str(x)).sha256, lib.store.current.get(str(z)).sha256
        with lib.store.db.write() as conn:  # what indexing would have stored for these contents
            for sha, doc in ((shared, "holiday cat"), (other, "holiday dog")):
                search_writes.upsert_image(conn, sha, text_model="t", text_vector=[1.0] + [0.0] * 383, document=doc)

        def found() -> set[str]:
            with lib.store.db.read() as conn:
                return {h.path for h in search_queries.fts_images(conn, "holiday", current=CurrentContent("current_items"))}

        assert found() == {str(x), str(y), str(z)}
        x.unlink()
        wait_for(lambda: lib.store.current.get(str(x)) is None, what="x to be removed")
        assert found() == {str(y), str(z)}, "y still holds the content: its rows stay"
        y.unlink()
        wait_for(lambda: lib.store.current.get(str(y)) is None, what="y to be removed")
        assert found() == {str(z)}
        with lib.store.db.read() as conn:
            left = conn.execute(text("SELECT count(*) FROM search_image WHERE sha256 = :s"), {"s": shared}).scalar_one()
            vectors = conn.execute(text("SELECT count(*) FROM search_image_text_vec WHERE sha256 = :s"), {"s": shared}).scalar_one()
    assert (left, vectors) == (0, 0)
    # Never the person's files: our subtitles next to the deleted videos are left alone too.
    assert (folder / "x.test.srt").exists() and (folder / "y.test.srt").exists() and z.exists()


@pytest.mark.parametrize("how", ["service", "until_idle"])
def test_changes_made_while_closed_are_caught_up_at_start(data_dir: Path, tmp_path: Path, fast_config, how: str) -> None:
    folder = tmp_path / "lib"
    keep, gone, move = (video(folder / f"{n}.mp4") for n in ("keep", "gone", "move"))
    edit = video(folder / "edit.jpg")  # an edited video would be skipped: its old subtitle is still there
    pipeline, digests = fake_pipeline()
    with running(data_dir, pipeline, fast_config, folder) as (lib, service, _):
        wait_for(lambda: all(completed(lib, p) for p in (keep, gone, edit, move)), what="first session")
        settle(lib, service)
        first = {p.name: lib.store.current.get(str(p)) for p in (keep, gone, edit, move)}
    n_before = {n: calls(digests, n) for n in ("keep.mp4", "move.mp4", "edit.jpg")}

    new = video(folder / "new.mp4")
    gone.unlink()
    with open(edit, "ab") as fh:
        fh.write(b"appended while Sidecar was closed\n")
    moved = folder / "moved.mp4"
    os.rename(move, moved)

    if how == "service":
        with running(data_dir, pipeline, fast_config) as (lib, service, _):
            wait_for(lambda: all(completed(lib, p) for p in (new, edit)) and lib.store.current.get(str(moved)),
                     what="the catch-up scan")
            settle(lib, service)
            current = {c.path: c for c in lib.store.current.under(str(folder))}
    else:
        lib = Library(data_dir, both_kinds(pipeline), fast_config)
        try:
            WatchService(lib, FAST).catch_up(timeout=20)
            lib.start()
            lib.run_until_idle()
            current = {c.path: c for c in lib.store.current.under(str(folder))}
        finally:
            lib.close()

    assert set(current) == {str(keep), str(edit), str(moved), str(new)}
    assert current[str(keep)].item_id == first["keep.mp4"].item_id
    assert current[str(moved)].item_id == first["move.mp4"].item_id, "a rename while closed keeps the item"
    assert current[str(edit)].sha256 != first["edit.jpg"].sha256 and current[str(edit)].revision == 2
    assert current[str(new)].status == current[str(edit)].status == "completed"
    assert calls(digests, "new.mp4") == 3 and calls(digests, "edit.jpg") == n_before["edit.jpg"] + 3
    assert calls(digests, "keep.mp4") == n_before["keep.mp4"] and calls(digests, "moved.mp4") == 0
    assert (folder / "moved.test.srt").exists() and not (folder / "move.test.srt").exists()


def _failing_native_observer():  # type: ignore[no-untyped-def]
    raise OSError(28, "inotify watch limit reached")


@pytest.mark.parametrize("case", ["forced", "native_fails"])
def test_polling_observer_takes_over_when_asked_or_when_native_fails(data_dir: Path, tmp_path: Path, fast_config,
                                                                    case: str) -> None:
    folder = tmp_path / "lib"
    folder.mkdir()
    pipeline, _ = fake_pipeline()
    kw = {"settings": WatchSettings(quiet_seconds=QUIET, poll_seconds=0.2, refresh_seconds=0.2, force_polling=True)} \
        if case == "forced" else {"native_observer": _failing_native_observer}
    with running(data_dir, pipeline, fast_config, folder, **kw) as (lib, service, _):
        wait_for(lambda: service.status() and service.status()[0].mode != "stopped", what="the watcher to start")
        mode = service.status()[0].mode
        clip = video(folder / "polled.mp4")
        wait_for(lambda: completed(lib, clip), what="the polled file to be processed")
    assert mode == "polling"


MOUNTS = """\
/dev/sda1 / ext4 rw,relatime 0 0
server:/export /mnt/nas nfs4 rw,relatime 0 0
//host/share /mnt/smb\\040films cifs rw 0 0
me@box:/home /mnt/box fuse.sshfs rw 0 0
/dev/sdb1 /mnt/nas/local ext4 rw 0 0
tmpfs /tmp tmpfs rw 0 0
"""


def test_network_shares_are_recognised_from_the_mount_table() -> None:
    assert network_fs_type("/mnt/nas/photos", MOUNTS) == "nfs4"
    assert network_fs_type("/mnt/smb films/x", MOUNTS) == "cifs"
    assert network_fs_type("/mnt/box", MOUNTS) == "fuse.sshfs"
    assert network_fs_type("/mnt/nas/local/photos", MOUNTS) is None, "a local disk mounted inside a share is local"
    assert network_fs_type("/mnt/nasty", MOUNTS) is None
    assert network_fs_type("/home/me", MOUNTS) is None
    assert is_network_folder(Path("/mnt/nas/photos"), platform="linux", mounts_text=MOUNTS)
    assert not is_network_folder(Path("/tmp/x"), platform="linux", mounts_text=MOUNTS)
    assert is_network_folder(Path("\\\\server\\share\\photos"), platform="win32")


def test_placed_files_follow_the_whole_name_or_the_stem() -> None:
    assert renamed_output_name("photo.jpg.sidecar.json", "photo.jpg", "cat.jpg") == "cat.jpg.sidecar.json"
    assert renamed_output_name("Movie.ja.srt", "Movie.mkv", "Film.mkv") == "Film.ja.srt"
    assert renamed_output_name("Movie.CN_dual_eye.ass", "Movie.mkv", "Film.mp4") == "Film.CN_dual_eye.ass"
    assert renamed_output_name("Other.ja.srt", "Movie.mkv", "Film.mkv") is None


def test_watches_persist_and_the_table_is_what_settings_show(data_dir: Path, tmp_path: Path, capsys) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    base = ["--data-dir", str(data_dir), "--json"]
    assert cli_main(["watch", "add", str(a), "--polling", *base]) == 0
    added = json.loads(capsys.readouterr().out)["watch"]
    assert added["folder"] == str(a) and added["polling"] is True and added["job"]
    assert cli_main(["watch", "add", str(a / "inner"), *base]) == 2  # not a folder
    (a / "inner").mkdir()
    assert cli_main(["watch", "add", str(a / "inner"), *base]) == 2
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["error"]["code"] == "watch_overlaps"
    assert cli_main(["watch", "list", *base]) == 0
    assert [w["folder"] for w in json.loads(capsys.readouterr().out)["watches"]] == [str(a)]
    assert load_settings(data_dir).watched_folders == [str(a)]

    # The Settings page hands over its list; the table follows and settings mirror the table.
    lib = Library(data_dir, {})
    try:
        watches = set_watched_folders(lib, [b], JobOptions())
        assert [w.folder for w in watches] == [str(b)]
        with pytest.raises(SidecarError) as err:
            add_watch(lib, b, JobOptions())
        assert err.value.code == "already_watched"
    finally:
        lib.close()
    assert load_settings(data_dir).watched_folders == [str(b)]
    assert cli_main(["watch", "remove", str(b), *base]) == 0
    assert load_settings(data_dir).watched_folders == []


def test_adding_a_processed_folder_again_keeps_its_dialogue_findable(data_dir: Path, tmp_path: Path, fast_config) -> None:
    folder = tmp_path / "lib"
    same, touched, edited = (video(folder / f"{n}.mp4") for n in ("same", "touched", "edited"))
    pipeline, digests = fake_pipeline()
    lib = Library(data_dir, both_kinds(pipeline), fast_config)
    try:
        first = lib.add(folder, JobOptions())
        lib.start()
        lib.run_until_idle()
        assert lib.status(first.id)[0].done == 3
        with lib.store.db.write() as conn:  # what dialogue indexing stored for each video's lines
            for clip in (same, touched, edited):
                search_writes.upsert_dialogue(conn, str(clip), lib.store.current.get(str(clip)).sha256,
                                              [(1.0, 2.0, f"the {clip.stem} train to Berlin", "en")],
                                              [[1.0] + [0.0] * 383], text_model="t")
    finally:
        lib.close()

    def found(lib: Library) -> set[str]:
        with lib.store.db.read() as conn:
            return {h.path for h in search_queries.fts_dialogue(conn, "Berlin", current=CurrentContent("current_items"))}

    before = {str(same), str(touched), str(edited)}
    os.utime(touched, ns=(time.time_ns(), time.time_ns() + 10**9))  # same bytes, new mtime
    with open(edited, "ab") as fh:
        fh.write(b"new bytes under the old subtitle\n")
    lib = Library(data_dir, both_kinds(pipeline), fast_config)
    try:
        again = lib.add(folder, JobOptions())
        assert (again.total, again.skipped) == (0, 3), "all three have our subtitle next to them"
        assert found(lib) == before - {str(edited)}, "a skip keeps what is there; the edited bytes were never indexed"

        add_watch(lib, folder, JobOptions())
        WatchService(lib, FAST).catch_up(timeout=20)
        lib.run_until_idle()
        assert found(lib) == before - {str(edited)}
        assert rows_for(lib, same) == rows_for(lib, touched) == 2, "the catch-up found nothing new to queue"
    finally:
        lib.close()
    assert calls(digests, "same.mp4") == calls(digests, "touched.mp4") == 3

    lib = Library(data_dir, both_kinds(pipeline), fast_config)  # the app restarted
    try:
        assert found(lib) == before - {str(edited)}
        assert lib.store.current.get(str(same)).sha256 == lib.store.jobs.known_sha256(
            str(same), same.stat().st_size, same.stat().st_mtime_ns) != ""
    finally:
        lib.close()


def test_pipes_and_device_links_in_a_watched_folder_are_never_read_and_byte_names_are_queued(
        data_dir: Path, tmp_path: Path, fast_config) -> None:
    """Issue 21: a named pipe or a link to /dev/zero appearing in a watched folder queues nothing and blocks
    nothing (at the catch-up scan and as live events); a file whose name is not UTF-8 is processed like any."""
    folder = tmp_path / "lib"
    folder.mkdir()
    os.mkfifo(folder / "early pipe.mp4")  # there at start: seen by the catch-up scan
    pipeline, _ = fake_pipeline()
    with running(data_dir, pipeline, fast_config, folder) as (lib, service, events):
        wait_for(lambda: service.status() and service.status()[0].mode == "native", what="the watcher to start")
        os.mkfifo(folder / "pipe.mp4")
        (folder / "zero.mkv").symlink_to("/dev/zero")
        (folder / "rand.jpg").symlink_to("/dev/urandom")
        latin1 = video(Path(os.fsdecode(os.fsencode(folder) + b"/Caf\xe9 talk.mp4")), b"fake video latin-1\n" * 20)
        plain = video(folder / "plain.mp4")
        wait_for(lambda: completed(lib, latin1) and completed(lib, plain), what="the regular files to be processed")
        settle(lib, service)
        queued = sorted(p for _, action, p in events if action == "queued")
    assert queued == sorted([str(latin1), str(plain)])
    assert (folder / os.fsdecode(b"Caf\xe9 talk.test.srt")).is_file()


def test_a_folder_that_receives_ten_thousand_files_queues_them_in_batches(data_dir: Path, tmp_path: Path,
                                                                          fast_config, monkeypatch) -> None:
    """Issue 25: 10,000 files arriving in a watched folder are recorded as an add records them, a batch of at
    most ITEM_BATCH files per insert (memory stays a batch), not one transaction round per file; every file
    becomes exactly one item of the rolling job."""
    folder = tmp_path / "lib"
    folder.mkdir()
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, both_kinds(pipeline), fast_config)  # not started: only the queueing is measured
    add_watch(lib, folder, JobOptions())
    batches: list[int] = []
    add_items = lib.store.jobs.add_items

    def counting_add_items(job_id, new_items, first_ordinal=0):  # type: ignore[no-untyped-def]
        batches.append(len(new_items))
        add_items(job_id, new_items, first_ordinal)

    monkeypatch.setattr(lib.store.jobs, "add_items", counting_add_items)
    service = WatchService(lib, FAST)
    service.start()
    try:
        wait_for(lambda: service.status() and service.status()[0].mode == "native", what="the watcher to start")
        for i in range(10_000):
            (folder / f"photo {i:05d}.jpg").write_bytes(b"photo %d\n" % i)
        wait_for(lambda: sum(batches) >= 10_000 and service.status()[0].pending == 0, timeout=180,
                 what="10,000 files to be queued")
    finally:
        service.stop()
    with lib.store.db.read() as conn:
        per_job = conn.execute(select(items.c.job_id, func.count(), func.count(func.distinct(items.c.path)))
                               .group_by(items.c.job_id)).all()
    lib.close()
    assert [(n, distinct) for _, n, distinct in per_job] == [(10_000, 10_000)]
    assert max(batches) <= ITEM_BATCH
    assert len(batches) <= 200, f"{len(batches)} inserts for 10,000 files: the watcher is not batching"
