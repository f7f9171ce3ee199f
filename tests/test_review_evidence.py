"""The evidence behind a review: a side-by-side diff of Sidecar's version and the file on disk now."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from app.engine.review_evidence import review_evidence, side_by_side
from app.store.records import Review
from app.store.states import StepState


def _review(tmp_path: Path, ours: bytes | None, theirs: bytes | None, name: str = "Film.en.srt") -> Review:
    content, target = tmp_path / "workspace" / name, tmp_path / "media" / name
    for path, data in ((content, ours), (target, theirs)):
        path.parent.mkdir(parents=True, exist_ok=True)
        if data is not None:
            path.write_bytes(data)
    return Review(id=7, item=1, job=1, path=str(tmp_path / "media" / "Film.mkv"), target=str(target),
                  expected_sha256="a" * 64, found_sha256="b" * 64, error=None, attempts=1, state=StepState.MANUAL_REVIEW,
                  decision=None, decision_actor=None, decision_reason=None, decided_at=None, revision=1,
                  content_path=str(content))


def test_a_one_line_edit_in_a_long_subtitle_shows_that_line_with_context_only() -> None:
    ours = [f"line {i}" for i in range(1, 41)]
    theirs = list(ours)
    theirs[19] = "line 20, fixed by hand"
    rows = side_by_side(ours, theirs, context=3)
    changed = [r for r in rows if r.tag != "equal" and r.tag != "folded"]
    assert [(r.tag, r.ours_no, r.ours, r.theirs_no, r.theirs) for r in changed] == [
        ("replace", 20, "line 20", 20, "line 20, fixed by hand")]
    skipped = [r.ours_no for r in rows if r.tag == "folded"]
    assert skipped == [16, 17]  # lines 1–16 and 24–40 folded, three lines of context kept around the change
    assert [r.ours_no for r in rows if r.tag == "equal"] == [17, 18, 19, 21, 22, 23]


def test_inserted_and_deleted_lines_keep_their_own_numbers() -> None:
    rows = side_by_side(["a", "b", "c"], ["a", "c", "d"], context=1)
    assert [(r.tag, r.ours_no, r.theirs_no) for r in rows] == [
        ("equal", 1, 1), ("delete", 2, None), ("equal", 3, 2), ("insert", None, 3)]


def test_text_evidence_reads_the_workspace_version_against_the_target(tmp_path: Path) -> None:
    evidence = review_evidence(_review(tmp_path, "\ufeff1\nHello\n".encode(), b"1\nHallo\n"))
    assert evidence.kind == "text" and evidence.review_id == 7
    assert [(r.tag, r.ours, r.theirs) for r in evidence.rows] == [("equal", "1", "1"), ("replace", "Hello", "Hallo")]
    assert evidence.changed_rows == 1


def test_a_deleted_target_is_all_removed_lines_and_a_lost_workspace_says_so(tmp_path: Path) -> None:
    gone = review_evidence(_review(tmp_path / "a", b"1\nHello\n", None))
    assert gone.theirs.missing and [r.tag for r in gone.rows] == ["delete", "delete"]
    lost = review_evidence(_review(tmp_path / "b", None, b"1\nHello\n"))
    assert lost.ours.missing and not lost.theirs.missing


def test_images_and_binary_files_are_not_diffed_as_text(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buffer, format="PNG")
    image = review_evidence(_review(tmp_path / "i", buffer.getvalue(), buffer.getvalue(), name="cover.png"))
    assert image.kind == "image" and image.ours.data == buffer.getvalue() and image.rows == ()
    binary = review_evidence(_review(tmp_path / "b", b"\xff\xfe\x00bad", b"ok\n", name="Film.sup"))
    assert binary.kind == "binary" and binary.ours.size == 6 and binary.theirs.size == 3
