"""One running Sidecar per data dir: a second launch hands its paths over and exits.

Two engines on one library would be safe (claims are fenced) but confusing, and a
file manager's "Open with Sidecar" starts a new process per use. The first instance
listens on a local socket named after the data dir; a later launch connects, writes
one JSON line ``{"paths": [...]}`` and exits. An empty list just raises the window.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import logging
from pathlib import Path
from typing import Sequence

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

CONNECT_MS = 1000
"""How long a second launch waits for the first: a local socket answers in microseconds unless nobody listens."""


def server_name(data_dir: Path) -> str:
    """Per user and per data dir, short enough for a Unix socket path."""
    digest = hashlib.sha256(f"{getpass.getuser()}|{Path(data_dir).resolve()}".encode()).hexdigest()[:16]
    return f"sidecar-{digest}"


def hand_over(name: str, paths: Sequence[Path]) -> bool:
    """Send ``paths`` to a running instance; False when none is listening.

    Runs before any window exists (the second launch has nothing else to do), so
    the short blocking waits here never stall a GUI.
    """
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(CONNECT_MS):
        return False
    message = json.dumps({"paths": [str(Path(p).expanduser().absolute()) for p in paths]}) + "\n"
    socket.write(message.encode("utf-8"))
    ok = socket.waitForBytesWritten(CONNECT_MS)
    socket.disconnectFromServer()
    if socket.state() != QLocalSocket.LocalSocketState.UnconnectedState:
        socket.waitForDisconnected(CONNECT_MS)
    return ok


class InstanceServer(QObject):
    """The first instance's listener; ``pathsReceived`` fires once per later launch."""

    pathsReceived = Signal(list)  # list[str]

    def __init__(self, name: str, parent: QObject | None = None):
        super().__init__(parent)
        self.name = name
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._accept)
        self._buffers: dict[QLocalSocket, bytearray] = {}

    def listen(self) -> bool:
        """Listen, replacing a socket file a crashed instance left behind."""
        if self.server.listen(self.name):
            return True
        QLocalServer.removeServer(self.name)
        ok = self.server.listen(self.name)
        if not ok:
            log.warning("single-instance socket %s: %s", self.name, self.server.errorString())
        return ok

    @Slot()
    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            self._buffers[socket] = bytearray()
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(lambda s=socket: self._finish(s))
            self._read(socket)

    def _read(self, socket: QLocalSocket) -> None:
        buffer = self._buffers.get(socket)
        if buffer is None:
            return
        buffer.extend(bytes(socket.readAll().data()))
        if b"\n" in buffer:
            self._finish(socket)

    def _finish(self, socket: QLocalSocket) -> None:
        buffer = self._buffers.pop(socket, None)
        if buffer is None:
            return
        socket.deleteLater()
        line = bytes(buffer).split(b"\n", 1)[0]
        try:
            paths = [str(p) for p in json.loads(line.decode("utf-8")).get("paths", [])]
        except (ValueError, AttributeError):
            log.warning("ignored a malformed message from a second launch")
            return
        self.pathsReceived.emit(paths)

    def close(self) -> None:
        self.server.close()
