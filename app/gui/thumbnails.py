"""Small previews of images, made off the GUI thread.

Decoding a camera JPEG takes tens of milliseconds and must not stall the window, so
previews are decoded on worker threads (``QImage`` is safe outside the GUI thread,
unlike ``QPixmap``) and handed to the view: :class:`ThumbnailLoader` for files (scaled
while decoding by ``QImageReader``, EXIF rotation applied), :func:`thumbnail` for bytes
already read by an operation.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QByteArray, QObject, QRunnable, QSize, Qt, QThreadPool, Signal
from PySide6.QtGui import QImage, QImageReader

from app.errors import MediaError
from app.media.images import open_image

log = logging.getLogger(__name__)

THUMBNAIL_PX = 320


def thumbnail(data: bytes | None, size: int = THUMBNAIL_PX) -> QImage | None:
    """``data`` decoded and scaled to fit ``size``×``size``; None when it is no image Qt can read."""
    if not data:
        return None
    image = QImage.fromData(QByteArray(data))
    if image.isNull():
        return None
    if image.width() > size or image.height() > size:
        image = image.scaled(size, size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
    return image


class _ThumbSignals(QObject):
    ready = Signal(str, QImage)


class _ThumbTask(QRunnable):
    def __init__(self, path: str, size: QSize, signals: _ThumbSignals):
        super().__init__()
        self.path, self.size, self.signals = path, size, signals

    def run(self) -> None:
        reader = QImageReader(self.path)
        reader.setAutoTransform(True)
        size = reader.size()
        if size.isValid():
            reader.setScaledSize(size.scaled(self.size, Qt.AspectRatioMode.KeepAspectRatio))
        image: QImage | None = reader.read()
        if image is not None and image.isNull():
            image = self._from_pillow(reader.errorString())
        if image is not None:
            self.signals.ready.emit(self.path, image)

    def _from_pillow(self, qt_error: str) -> QImage | None:
        """What Qt has no reader for (HEIC, AVIF, camera raw), through the engine's loader, as OCR and CLIP saw it."""
        try:
            picture = open_image(self.path)
        except MediaError as exc:
            log.info("no thumbnail for %s: %s; %s", self.path, qt_error, exc.message)
            return None
        picture.thumbnail((self.size.width(), self.size.height()))
        data = picture.tobytes()
        return QImage(data, picture.width, picture.height, 3 * picture.width, QImage.Format.Format_RGB888).copy()


class ThumbnailLoader(QObject):
    """Decodes thumbnails of ``size`` off the GUI thread; ``ready(path, image)`` arrives on the GUI thread."""

    ready = Signal(str, QImage)

    def __init__(self, size: QSize, parent: QObject | None = None):
        super().__init__(parent)
        self.size = size
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(2)
        self._signals = _ThumbSignals()
        self._signals.ready.connect(self.ready)

    def load(self, path: str) -> None:
        self._pool.start(_ThumbTask(path, self.size, self._signals))
