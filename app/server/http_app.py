"""The HTTP face of ``sidecar serve`` (Starlette on uvicorn): whisper-asr-webservice's API, the webhooks, the connection test.

* ``GET /status`` answers ``{"version": …}``: Bazarr's "Test Connection" asks this path of
  the endpoint's host and shows the ``version`` it reads (a 404 there reads as "possibly
  whisper-asr?"). It carries no token (Bazarr's test sends none) and tells nothing else.
* ``POST /asr`` and ``POST /detect-language``: the upload in the multipart field
  ``audio_file``, streamed to disk; the reply is the subtitle text with its content type.
  An error is always a 4xx/5xx with a JSON body ``{"error": code, "message": …}``: Bazarr
  saves the body of any 200 as the subtitle.
* ``POST /webhook/{jellyfin|emby|plex|tautulli}``: queue the new file (:mod:`app.server.webhooks`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from app import __version__
from app.codes import Code
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.errors import SidecarError
from app.media.audio_streams import audio_streams
from app.media.cues import cues_from_dicts
from app.media.languages import english_name
from app.server.access import allowed
from app.server.library_gate import OutsideLibrary, library_folders, local_file
from app.server.media_servers import ServerAccess, ServerUnreachable, item_path
from app.server.refresh_follower import RefreshFollower
from app.server.request_pipeline import DETECT_KIND, TRANSCRIBE_KIND
from app.server.requests_queue import ClientGone, RequestFailed, RequestQueue
from app.server.subtitle_formats import MEDIA_TYPES, subtitle_reply
from app.server.uploads import UploadRefused, receive_upload
from app.server.webhooks import SERVERS, BadPayload, read_event
from app.settings import Settings
from app.store.stages import REQUEST_JOB_OWNER

log = logging.getLogger(__name__)

UPLOAD_FIELD = "audio_file"
WEBHOOK_BODY_LIMIT = 1024 * 1024
TRUE_WORDS = ("true", "1", "yes", "on")
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}")
"""A ``language`` as whisper-asr-webservice takes it: Whisper's two- or three-letter codes (``haw``)."""


@dataclass
class ServeContext:
    """What the handlers share: the library (its engine runs in this process), the settings, the upload folder."""

    library: Library
    settings: Settings
    uploads: Path
    token: str
    follower: RefreshFollower | None = None
    queue: RequestQueue = field(init=False)

    def __post_init__(self) -> None:
        self.queue = RequestQueue(self.library)

    def server_access(self, server: str) -> ServerAccess | None:
        url, token = getattr(self.settings, f"{server}_url", ""), getattr(self.settings, f"{server}_token", "")
        return ServerAccess(url, token) if url else None


def error(status: int, code: Code, message: str) -> JSONResponse:
    return JSONResponse({"error": str(code), "message": message}, status_code=status)


def _refused(ctx: ServeContext, request: Request) -> JSONResponse | None:
    if allowed(ctx.token, request.headers, request.query_params):
        return None
    log.warning("refused %s %s from %s: missing or wrong token", request.method, request.url.path,
                request.client.host if request.client else "?")
    return error(401, Code.UNAUTHORIZED, "missing or wrong token (Authorization: Bearer <serve_token>)")


async def status(request: Request) -> Response:
    return JSONResponse({"version": f"Sidecar {__version__}", "engine": "sidecar"})


async def _speech_request(request: Request, kind: str) -> tuple[Any, str] | Response:
    """The upload of ``/asr`` or ``/detect-language`` run through the engine: (what it heard, output) or an error reply."""
    ctx: ServeContext = request.app.state.ctx
    if (refused := _refused(ctx, request)) is not None:
        return refused
    q = request.query_params
    output = q.get("output", "txt")
    if kind == TRANSCRIBE_KIND and output not in MEDIA_TYPES:
        return error(400, Code.UNKNOWN_OUTPUT, f"unknown output {output!r}: ask for one of {', '.join(MEDIA_TYPES)}")
    task = q.get("task", "transcribe")
    if task not in ("transcribe", "translate"):
        return error(400, Code.INVALID_ARGUMENT, f"unknown task {task!r}: transcribe or translate")
    language = (q.get("language") or "").strip().lower()
    if language and not LANGUAGE_CODE.fullmatch(language):
        return error(400, Code.INVALID_ARGUMENT, f"language {language!r} is not an ISO 639 code (en, de, zh…)")
    raw_pcm = q.get("encode", "true").lower() not in TRUE_WORDS
    folder = ctx.uploads / uuid.uuid4().hex
    folder.mkdir(parents=True)
    try:
        upload = await receive_upload(request.headers.get("content-type", ""), request.headers.get("content-length"),
                                      request.stream(), UPLOAD_FIELD, folder, ctx.settings.serve_upload_limit_mb * 1024 * 1024,
                                      raw_pcm)
        if not raw_pcm:
            try:
                streams = await asyncio.to_thread(audio_streams, upload.path)
            except SidecarError as exc:
                raise UploadRefused(f"the upload is not media Sidecar can decode: {exc.message}", Code.NOT_AUDIO, 415) from exc
            if not streams:
                raise UploadRefused("the upload has no audio track", Code.NOT_AUDIO, 415)
        log.info("%s request for %s (%d bytes, task %s)", kind, q.get("video_file") or upload.filename or "an upload",
                 upload.size, task)
        options = replace(JobOptions.from_settings(ctx.settings), source_lang=language,
                          target_lang="en" if task == "translate" else "")
        heard = await ctx.queue.run(upload.path, kind, options, request.is_disconnected)
        return heard, output
    except UploadRefused as exc:
        shutil.rmtree(folder, ignore_errors=True)
        return error(exc.status, exc.code, exc.message)
    except RequestFailed as exc:
        return error(exc.status, exc.code, exc.message)
    except (ClientDisconnect, ClientGone):
        shutil.rmtree(folder, ignore_errors=True)
        log.info("client went away during its %s request; its upload and job are gone", kind)
        return error(499, Code.CANCELLED, "the client went away")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


async def asr(request: Request) -> Response:
    answer = await _speech_request(request, TRANSCRIBE_KIND)
    if isinstance(answer, Response):
        return answer
    heard, output = answer
    translation = heard.translation
    if translation is not None and translation.failed:  # an "English" subtitle mostly in the source language is worse than none
        return error(422, Code.TRANSLATION_FAILED, f"most lines could not be translated from {heard.transcript.language} "
                     "into English; no subtitle is sent rather than one in the wrong language")
    texts = translation.texts if translation is not None and not translation.skipped else None
    body = subtitle_reply(cues_from_dicts(heard.transcript.cues), texts,
                          "en" if texts is not None else heard.transcript.language, output)
    return Response(body, media_type=MEDIA_TYPES[output], headers={"Asr-Engine": "sidecar"})


async def detect_language(request: Request) -> Response:
    answer = await _speech_request(request, DETECT_KIND)
    if isinstance(answer, Response):
        return answer
    heard, _ = answer
    code = heard.transcript.language
    if not code:
        return error(422, Code.NO_SPEECH, "no speech was heard in the upload")
    return JSONResponse({"detected_language": (english_name(code) or code).lower(), "language_code": code,
                         "confidence": round(heard.transcript.language_probability, 4)})


async def webhook(request: Request) -> Response:
    ctx: ServeContext = request.app.state.ctx
    if (refused := _refused(ctx, request)) is not None:
        return refused
    server = request.path_params["server"]
    if server not in SERVERS:
        return error(404, Code.NOT_FOUND, f"no webhook for {server!r}: {', '.join(SERVERS)}")
    length = request.headers.get("content-length")
    if length and length.isdigit() and int(length) > WEBHOOK_BODY_LIMIT:
        return error(413, Code.UPLOAD_TOO_LARGE, "a webhook body is at most 1 MB")
    form = None
    body = b""
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        async with request.form(max_files=2, max_part_size=WEBHOOK_BODY_LIMIT) as parsed:
            form = {k: v for k, v in parsed.items() if isinstance(v, str)}
    else:
        body = await request.body()
    try:
        event = read_event(server, body, form)
    except BadPayload as exc:
        return error(400, Code.INVALID_ARGUMENT, str(exc))
    if event is None:
        return JSONResponse({"queued": False, "reason": "not a new item"})
    access = ctx.server_access(server)
    try:
        server_path = event.path or (await asyncio.to_thread(item_path, access, event) if access else None)
    except ServerUnreachable as exc:
        return error(502, Code.INTERNAL_ERROR, str(exc))
    if not server_path:
        return error(400, Code.INVALID_ARGUMENT, f"{server} sent no path and no {server}_url is set to ask it")
    try:
        folders = await asyncio.to_thread(library_folders, ctx.library)
        path = local_file(server_path, ctx.settings.serve_path_map, folders)
    except OutsideLibrary as exc:
        log.warning("webhook from %s refused: %s", server, exc.message)
        return error(403, exc.code, exc.message)
    if path.is_dir():  # a series or season: its episodes come as items of their own
        return JSONResponse({"queued": False, "reason": "a folder, not a media file"})
    if not path.is_file():
        return error(404, Code.FILE_MISSING, f"{path} is not a file here")
    job = await asyncio.to_thread(ctx.library.add, path, JobOptions.from_settings(ctx.settings), REQUEST_JOB_OWNER)
    if ctx.follower is not None and access is not None and event.item_id and server != "tautulli":
        ctx.follower.follow(job.id, access, event)
    log.info("webhook from %s queued %s (job %s)", server, path, job.id)
    return JSONResponse({"queued": True, "job": job.id, "path": str(path)}, status_code=202)


def make_app(ctx: ServeContext) -> Starlette:
    app = Starlette(routes=[
        Route("/status", status, methods=["GET"]),
        Route("/asr", asr, methods=["POST"]),
        Route("/detect-language", detect_language, methods=["POST"]),
        Route("/webhook/{server}", webhook, methods=["POST"]),
    ])
    app.state.ctx = ctx
    return app
