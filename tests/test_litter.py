"""System and hidden litter on a folder shaped like a Synology share is left out, and counted.

A real folder tree: a real generated video, tiny real JPEGs, and the litter a NAS and
the operating systems leave beside them (AppleDouble files, ``@eaDir`` thumbnails,
recycle bins, trash folders). Real SQLite store, real scan, real watchdog.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from PIL import Image

from app.cli import main as cli_main
from app.engine.kinds import LEFT_OUT_BY_DEFAULT, ScanRules
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.scan import scan
from app.engine.watch import WatchService, WatchSettings, add_watch
from app.settings import Settings, load_settings, save_settings
from tests.engine_stages import fake_pipeline
from tests.media import MediaFactory
from tests.test_watch import both_kinds, settle, wait_for

APPLEDOUBLE = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        " + b"\x00" * 64


def jpeg(path: Path, color: tuple[int, int, int]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (16, 12), color).save(path, "JPEG")
    return path


def synology_share(root: Path, media: MediaFactory) -> dict[str, Path]:
    """The real media of a share, with its litter around it."""
    pilot = root / "Pilot.mp4"
    pilot.write_bytes(media.no_audio().read_bytes())
    real = {"Pilot.mp4": pilot, "beach.jpg": jpeg(root / "Photos" / "beach.jpg", (20, 120, 200))}
    (root / "._Pilot.mp4").write_bytes(APPLEDOUBLE)
    (root / "._Pilot.en.srt").write_bytes(APPLEDOUBLE)  # would make Pilot.mp4 look subtitled
    jpeg(root / "@eaDir" / "Pilot.mp4" / "SYNOVIDEO_VIDEO_SCREENSHOT.jpg", (10, 10, 10))
    jpeg(root / "Photos" / "@eaDir" / "beach.jpg" / "SYNOPHOTO_THUMB_XL.jpg", (20, 120, 200))
    for trashed in ("#recycle/Old Episode.mp4", ".Trash-1000/files/Deleted.mp4", "#snapshot/daily/Pilot.mp4",
                    "lost+found/#12345.mp4"):
        (root / trashed).parent.mkdir(parents=True, exist_ok=True)
        (root / trashed).write_bytes(pilot.read_bytes())
    jpeg(root / ".thumbnails" / "normal" / "abc.jpg", (1, 2, 3))
    (root / "notes.txt").write_text("not media, not litter\n")
    return real


def test_scan_rules_match_each_name_below_the_folder_case_as_the_platform_does(tmp_path: Path) -> None:
    rules = ScanRules()
    assert rules.left_out_by("._Pilot.mp4", is_folder=False) == "._*"
    assert rules.left_out_by("@eaDir", is_folder=True) == "@eaDir"
    assert rules.left_out_by(".Trash-1000", is_folder=True) == ".Trash-*"
    assert rules.left_out_by(".hidden", is_folder=True) == ".*/"
    assert rules.left_out_by(".hidden.mp4", is_folder=False) is None, "the hidden-folder rule is for folders only"
    assert rules.left_out_by("Pilot.mp4", is_folder=False) is None
    assert ScanRules(fold_case=True).left_out_by("$Recycle.Bin", is_folder=True) == "$RECYCLE.BIN"
    assert ScanRules(fold_case=False).left_out_by("$Recycle.Bin", is_folder=True) is None
    share = tmp_path / ".share"
    assert rules.left_out_below(share / "Pilot.mp4", share) is None, "the chosen folder itself is not matched"
    assert rules.left_out_below(share / "a" / "@eaDir" / "x.jpg", share) == "@eaDir"
    assert rules.kept(["Pilot.mp4", "._Pilot.en.srt", "Pilot.en.srt"]) == ["Pilot.mp4", "Pilot.en.srt"]
    assert Settings().scan_ignore == list(LEFT_OUT_BY_DEFAULT)


def test_add_on_a_synology_share_queues_only_the_real_media_and_counts_the_rest(
        tmp_path: Path, data_dir: Path, media: MediaFactory, capsys) -> None:
    share = tmp_path / "video"
    share.mkdir()
    real = synology_share(share, media)
    lib = Library(data_dir, both_kinds(fake_pipeline()[0]))
    try:
        job = lib.add(share, JobOptions())
        items = {Path(i.path).relative_to(share).as_posix(): i.status for i in lib.items(job.id)}
    finally:
        lib.close()
    assert items == {"Pilot.mp4": "pending", "Photos/beach.jpg": "pending"}, \
        "AppleDouble, @eaDir, trash and hidden folders are not queued; ._Pilot.en.srt does not subtitle Pilot.mp4"
    assert job.total == 2
    left_out = job.scan_report["left_out"]
    assert left_out["count"] == 8
    assert left_out["by_pattern"] == {"._*": 1, "#recycle": 1, "#snapshot": 1, ".Trash-*": 1, ".*/": 1,
                                      "@eaDir": 2, "lost+found": 1}
    assert left_out["examples"][:2] == ["#recycle/", "#snapshot/"]
    assert "._Pilot.en.srt" not in json.dumps(left_out), "only would-be media files are counted"
    assert real["Pilot.mp4"].exists()

    save_settings(data_dir, Settings())
    assert cli_main(["add", str(share), "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert ("left out: 8 system/hidden file(s) or folder(s) "
            "(e.g. #recycle/, #snapshot/, .Trash-1000/, ._Pilot.mp4, .thumbnails/)") in out, out
    assert "— 2 to do" in out, out


def test_a_custom_pattern_from_settings_is_honoured_and_a_hidden_folder_added_on_purpose_is_scanned(
        tmp_path: Path, data_dir: Path) -> None:
    share = tmp_path / ".private"
    jpeg(share / "keep.jpg", (200, 0, 0))
    jpeg(share / "Extras" / "bonus.jpg", (0, 200, 0))
    jpeg(share / ".inner" / "hidden.jpg", (0, 0, 200))
    settings = Settings(scan_ignore=[*LEFT_OUT_BY_DEFAULT, "Extras"])
    save_settings(data_dir, settings)
    assert load_settings(data_dir).scan_ignore[-1] == "Extras"
    lib = Library(data_dir, both_kinds(fake_pipeline()[0]))
    try:
        job = lib.add(share, JobOptions.from_settings(load_settings(data_dir)))
        names = sorted(Path(i.path).name for i in lib.items(job.id))
    finally:
        lib.close()
    assert names == ["keep.jpg"], "the hidden folder the person chose is scanned; Extras and .inner are left out"
    assert job.scan_report["left_out"]["by_pattern"] == {"Extras": 1, ".*/": 1}
    # Without the custom pattern, Extras is media like any other folder.
    assert sorted(e.path.name for e in scan(share).entries) == ["bonus.jpg", "keep.jpg"]


def test_a_watched_share_ignores_files_appearing_in_litter_folders(tmp_path: Path, data_dir: Path, fast_config) -> None:
    share = tmp_path / "photo"
    jpeg(share / "first.jpg", (50, 50, 50))
    save_settings(data_dir, Settings(scan_ignore=[*LEFT_OUT_BY_DEFAULT, "Private"]))
    lib = Library(data_dir, both_kinds(fake_pipeline()[0]), fast_config)
    add_watch(lib, share, JobOptions())
    base = WatchService(lib).settings
    assert "Private" in base.left_out, "the service follows the person's list"
    events: list[tuple[str, str]] = []
    service = WatchService(lib, WatchSettings(quiet_seconds=0.5, poll_seconds=0.2, refresh_seconds=0.2,
                                              left_out=base.left_out),
                           on_change=lambda action, path: events.append((action, path)))
    lib.start()
    service.start()
    try:
        wait_for(lambda: lib.store.current.get(str(share / "first.jpg")) is not None, what="the catch-up to queue first.jpg")
        jpeg(share / "@eaDir" / "first.jpg" / "SYNOPHOTO_THUMB_XL.jpg", (50, 50, 50))
        jpeg(share / "._first.jpg", (0, 0, 0))
        jpeg(share / "Private" / "secret.jpg", (9, 9, 9))
        later = jpeg(share / "second.jpg", (90, 90, 90))
        wait_for(lambda: lib.store.current.get(str(later)) is not None, what="second.jpg to be queued")
        time.sleep(1.0)  # a further quiet period in which a wrongly watched thumbnail would be queued
        settle(lib, service)
        queued = sorted(Path(p).relative_to(share).as_posix() for action, p in events if action == "queued")
        current = sorted(Path(c.path).name for c in lib.store.current.under(str(share)))
        # A file moved into the recycle bin leaves the library; it is not followed into the bin.
        (share / "#recycle").mkdir()
        later.rename(share / "#recycle" / "second.jpg")
        wait_for(lambda: ("removed", str(later)) in events, what="the recycled file to be removed")
        recycled = lib.store.current.under(str(share / "#recycle"))
    finally:
        service.stop()
        lib.close()
    assert queued == ["first.jpg", "second.jpg"]
    assert current == ["first.jpg", "second.jpg"]
    assert recycled == []
    assert not list((share / "@eaDir").rglob("*.sidecar.json")), "nothing is written inside @eaDir"


def test_litter_indexed_before_the_rules_leaves_the_library_at_the_next_catch_up(tmp_path: Path, data_dir: Path) -> None:
    share = tmp_path / "photo"
    real = jpeg(share / "beach.jpg", (20, 120, 200))
    thumb = jpeg(share / "@eaDir" / "beach.jpg" / "SYNOPHOTO_THUMB_XL.jpg", (200, 120, 20))
    lib = Library(data_dir, both_kinds(fake_pipeline()[0]))
    try:
        add_watch(lib, share, JobOptions())
        WatchService(lib, WatchSettings(quiet_seconds=0.2, left_out=())).catch_up(timeout=30)
        assert lib.store.current.get(str(thumb)) is not None, "without rules the thumbnail is indexed (as before)"
        WatchService(lib, WatchSettings(quiet_seconds=0.2)).catch_up(timeout=30)
        current = [Path(c.path) for c in lib.store.current.under(str(share))]
    finally:
        lib.close()
    assert current == [real]
    assert thumb.exists(), "the person's file is never touched"
