"""The media kinds Sidecar ships, registered once; each kind's module declares its ``KIND``.

Importing this package fills :data:`app.engine.kinds.MEDIA_KINDS`, which scanning,
watched folders, the CLI and the GUI read. A new kind is a module here declaring a
:class:`~app.engine.kinds.MediaKind` and one entry in :data:`DEFAULT_KINDS`.
"""

from __future__ import annotations

from pathlib import Path

from app.engine.kinds import MEDIA_KINDS, MediaKind, register_kind
from app.engine.stage import Pipeline
from app.pipelines import audio, image, video
from app.settings import Settings

DEFAULT_KINDS: tuple[MediaKind, ...] = (video.KIND, image.KIND, audio.KIND)

for _kind in DEFAULT_KINDS:
    register_kind(_kind)


def default_pipelines(data_dir: Path, settings: Settings) -> dict[str, Pipeline]:
    """The shipped kinds' pipelines (registered by importing this package), from the person's settings."""
    return MEDIA_KINDS.pipelines(data_dir, settings)
