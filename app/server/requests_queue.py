"""An upload's way through the engine: a job of its own, claimed before folder work, waited on, then removed.

The client waits on its reply, so the job is a request job (:meth:`Library.add_request`):
the engine claims its stages before any folder's, on the same Whisper host and GPU gate.
While it runs the request's connection is watched: a client that goes away has its job
cancelled (a running stage loses its claim and stops at its next checkpoint, its
workspace is deleted) and its upload folder removed. Done or not, the job leaves the
person's queue when the request ends.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Awaitable, Callable

from app.codes import Code
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.errors import SidecarError
from app.pipelines.outputs import TranscriptOutput, TranslationOutput
from app.store.states import ItemState

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2
#: What an item's failure means to the client: its file was not usable media (415), else the server failed (500).
_NOT_AUDIO = frozenset({Code.NO_AUDIO_STREAM, Code.CORRUPT_MEDIA, Code.UNSUPPORTED_MEDIA, Code.NOT_AUDIO})


class RequestFailed(SidecarError):
    def __init__(self, message: str, code: Code, status: int):
        super().__init__(message, code=code)
        self.status = status


class ClientGone(Exception):
    """The client closed the connection before its answer was ready."""


@dataclass(frozen=True)
class Heard:
    transcript: TranscriptOutput
    translation: TranslationOutput | None
    job_id: int


class RequestQueue:
    def __init__(self, library: Library):
        self.library = library

    async def run(self, upload: Path, kind: str, options: JobOptions,
                  disconnected: Callable[[], Awaitable[bool]]) -> Heard:
        """Queue ``upload`` as a request job of ``kind``, wait for it, and hand back what its stages heard.

        The upload's folder is removed and the job cancelled whatever happens.
        """
        job_id: int | None = None
        try:
            job_id = await asyncio.to_thread(self.library.add_request, upload, options, kind)
            while True:
                items = await asyncio.to_thread(self.library.items, job_id)
                item = items[0]
                if item.status == ItemState.COMPLETED:
                    return await asyncio.to_thread(self._heard, item.id, job_id)
                if item.status in (ItemState.FAILED, ItemState.SKIPPED, ItemState.REVIEW):
                    code = Code.of(item.error_code or "") or Code.INTERNAL_ERROR  # a stored word, read back as its Code
                    raise RequestFailed(item.error or str(code), code, 415 if code in _NOT_AUDIO else 500)
                if await disconnected():
                    log.info("client of request job %s went away: cancelling it", job_id)
                    raise ClientGone()
                await asyncio.sleep(POLL_SECONDS)
        finally:
            if job_id is not None:
                await asyncio.to_thread(self.library.cancel, job_id)
            shutil.rmtree(upload.parent, ignore_errors=True)

    def _heard(self, item_id: int, job_id: int) -> Heard:
        stages = self.library.store.stages
        transcript = stages.succeeded_output(item_id, "transcribe") or stages.succeeded_output(item_id, "detect_language")
        translation = stages.succeeded_output(item_id, "translate")
        return Heard(TranscriptOutput.read(transcript or {}),
                     TranslationOutput.read(translation) if translation is not None else None, job_id)
