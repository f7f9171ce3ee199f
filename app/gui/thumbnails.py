"""Small previews of images, made off the GUI thread.

Decoding a camera JPEG takes tens of milliseconds and must not stall the window, so
callers run :func:`thumbnail` in an operation (``QImage`` is safe outside the GUI
thread, unlike ``QPixmap``) and hand the result to the view.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QImage

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
