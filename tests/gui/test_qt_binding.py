"""The Qt binding must not leak or drop references on signal emission: the app emits signals all day.

PySide6 6.12.0 dropped a reference to ``True`` on every ``Signal.emit()``; on Python 3.11
(where ``True`` is not immortal) the desktop app then aborted with ``bool_dealloc`` after
a few thousand progress updates. The check runs in a child process, so such a binding
fails this test instead of killing the test run.
"""

from __future__ import annotations

import subprocess
import sys

CHECK = r"""
import sys, threading
from PySide6.QtCore import QCoreApplication, QObject, Signal

app = QCoreApplication([])

class Source(QObject):
    progress = Signal(str, int, int)
    changed = Signal(list)
    touched = Signal()

source = Source()
source.progress.connect(lambda name, done, total: None)
source.changed.connect(lambda rows: None)
source.touched.connect(lambda: None)

def emit_many():
    for n in range(20000):
        source.progress.emit("folder", n, 20000)
        source.changed.emit([])
        source.touched.emit()

before = sys.getrefcount(True), sys.getrefcount(False), sys.getrefcount(None)
emit_many()
worker = threading.Thread(target=emit_many)
worker.start()
worker.join()
app.processEvents()
after = sys.getrefcount(True), sys.getrefcount(False), sys.getrefcount(None)
print([a - b for a, b in zip(after, before)])
"""


def test_emitting_signals_keeps_every_reference() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, f"the Qt binding crashed emitting signals:\n{done.stderr[-2000:]}"
    drift = [int(x) for x in done.stdout.strip().strip("[]").split(",")]
    assert all(abs(d) < 100 for d in drift), f"references to True/False/None drifted by {drift} over 120,000 emits"
