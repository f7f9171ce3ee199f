"""Adding a folder with NAS litter in the GUI: only the media is queued and the window says what was left out."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from app.gui.app import Gui
from tests.engine_stages import make_media


def test_adding_a_share_tells_what_was_left_out(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    share = tmp_path / "Share"
    make_media(share, 2)
    make_media(share / "@eaDir" / "clip000.mp4", 1, prefix="thumb")
    (share / "._clip000.mp4").write_bytes(b"\x00\x05\x16\x07AppleDouble")
    gui = start_gui()
    with qtbot.waitSignal(gui.facade.jobs.jobAdded, timeout=20000) as added:
        gui.window.add_paths([share])
    job = added.args[0]
    assert (job.total, job.scan_report["left_out"]["count"]) == (2, 2)
    assert "left out 2 system/hidden files or folders" in gui.window.statusBar().currentMessage()  # English plurals
