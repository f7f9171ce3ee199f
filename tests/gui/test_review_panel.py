"""Review decisions made in the panel reach the store; one decided elsewhere first is shown as a conflict."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.gui.app import Gui
from app.gui.theme import tint
from tests.engine_child import run_child
from tests.engine_stages import fake_pipeline, make_media
from tests.gui.conftest import off_gui



def _two_contested_targets(data_dir: Path, media: Path) -> None:
    """The real way a review arises: a crash after the rename, then a person edits the file (tests/e2e)."""
    make_media(media, 2)
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, EngineConfig(workers=1))
    lib.add(media, JobOptions())
    lib.close()
    tampered: set[str] = set()
    for _ in range(2):
        assert run_child(data_dir, crash_after="replaced") == 9
        for srt in media.glob("*.test.srt"):
            if srt.name not in tampered:
                tampered.add(srt.name)
                srt.write_bytes(b"edited by a person\n")
    assert len(tampered) == 2
    assert run_child(data_dir) == 0


def test_panel_decision_reaches_the_store_and_a_conflict_is_shown(qtbot: Any, tmp_path: Path, data_dir: Path,
                                                                   start_gui: Callable[..., Gui]) -> None:
    media = tmp_path / "Films"
    _two_contested_targets(data_dir, media)
    gui = start_gui()
    panel = gui.window.review
    qtbot.waitUntil(lambda: panel.list.count() == 2, timeout=20000)
    assert gui.window.tabs.tabText(1) == "Review (2)"
    first, second = sorted(panel.reviews.values(), key=lambda r: r.id)
    assert panel.current_review() == first
    details = panel.fields["details"].text()
    assert first.expected_sha256 in details and hashlib.sha256(b"edited by a person\n").hexdigest() in details
    assert panel.fields["target"].text() == first.target

    # The evidence a person reads: Sidecar's lines beside the person's edit, the changed rows marked.
    qtbot.waitUntil(lambda: panel.evidence.currentWidget() is panel.evidence.diff, timeout=10000)
    shown = panel.evidence.diff.toPlainText()
    ours = Path(first.content_path).read_text().splitlines()
    assert "What Sidecar wrote" in shown and "On disk now" in shown
    assert "edited by a person" in shown and ours[2] in shown and "00:00:00,000 --> 00:00:01,000" in shown
    assert tint("change").lower() in panel.evidence.diff.toHtml().lower(), "the changed row is not marked"

    panel.reason.setText("the edit is what I want")
    with qtbot.waitSignal(gui.facade.review.reviewDecided, timeout=10000):
        qtbot.mouseClick(panel.buttons["applied"], Qt.MouseButton.LeftButton)
    library = gui.facade.library
    assert library is not None
    decided = next(r for r in off_gui(lambda: library.reviews(include_decided=True)) if r.id == first.id)
    assert (decided.decision, decided.decision_reason) == ("applied", "the edit is what I want")
    assert decided.decision_actor.startswith("gui:")
    assert "recorded" in panel.banner.text()

    qtbot.waitUntil(lambda: panel.list.count() == 1, timeout=10000)
    panel.list.setCurrentRow(0)
    assert panel.current_review().id == second.id
    # Someone else (the CLI, another window) decides it first, while the panel still shows it.
    other = off_gui(lambda: Library(data_dir, {"video": fake_pipeline()[0]}, EngineConfig(workers=1)))
    off_gui(lambda: other.decide(second.id, "skip", "not needed", actor="cli"))
    off_gui(other.close)

    panel.reason.setText("write it again")
    with qtbot.waitSignal(gui.facade.review.decisionFailed, timeout=10000) as failed:
        qtbot.mouseClick(panel.buttons["not_applied"], Qt.MouseButton.LeftButton)
    assert failed.args[:2] == [second.id, "review_conflict"]
    assert panel.banner.isVisibleTo(panel) and "already decided" in panel.banner.text() and "cli" in panel.banner.text()
    kept = next(r for r in off_gui(lambda: library.reviews(include_decided=True)) if r.id == second.id)
    assert (kept.decision, kept.decision_actor) == ("skip", "cli"), "the conflicting decision overwrote the first one"
    qtbot.waitUntil(lambda: panel.list.count() == 0 and panel.empty.isVisibleTo(panel), timeout=10000)


def test_image_evidence_shows_both_versions_as_thumbnails(qtbot: Any, tmp_path: Path) -> None:
    import io

    from PIL import Image

    from app.engine.review_evidence import review_evidence
    from app.gui.review_evidence_view import EvidenceView
    from app.gui.thumbnails import thumbnail
    from tests.test_review_evidence import _review

    def png(colour: str, size: tuple[int, int]) -> bytes:
        buffer = io.BytesIO()
        Image.new("RGB", size, colour).save(buffer, format="PNG")
        return buffer.getvalue()

    evidence = review_evidence(_review(tmp_path, png("red", (1600, 800)), png("blue", (40, 40)), name="cover.png"))
    images = {"ours": thumbnail(evidence.ours.data), "theirs": thumbnail(evidence.theirs.data)}
    view = EvidenceView()
    qtbot.addWidget(view)
    view.show_evidence(evidence, images)
    assert view.currentWidget() is view.images
    ours, theirs = view.image_labels["ours"].pixmap(), view.image_labels["theirs"].pixmap()
    assert (ours.width(), ours.height()) == (320, 160), "a large image is scaled to a thumbnail"
    assert (theirs.width(), theirs.height()) == (40, 40)
    assert ours.toImage().pixelColor(10, 10).red() > 200 and theirs.toImage().pixelColor(10, 10).blue() > 200
