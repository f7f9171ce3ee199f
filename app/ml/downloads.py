"""Resumable, verified downloads of model files (urllib only).

The only module in Sidecar that opens a network connection, and only when
:func:`download` is called (the model manager's install). Nothing here runs at import.

A download streams into ``<dest>.part`` beside the target. An interrupted download
keeps its part file and resumes with an HTTP ``Range`` request (guarded by
``If-Range`` with the validator the server gave the first time, kept in
``<dest>.part.json``); a server that ignores the range and answers 200 restarts the
file from byte 0. The finished part is checked against the expected sha256; on a
mismatch the part is deleted and :class:`ChecksumMismatch` raised. Only a verified
file is moved onto ``dest`` (fsync, ``os.replace``, fsync of the folder), so ``dest``
either does not exist or is complete.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable

from app import __version__
from app.errors import Code, SidecarError
from app.atomic_write import fsync_dir, sha256_file

log = logging.getLogger(__name__)

CHUNK = 256 * 1024
TIMEOUT_S = 30.0
_CONTENT_RANGE = re.compile(r"bytes\s+(\d+)-(\d+)/(\d+|\*)")

Progress = Callable[[int, "int | None"], None]
Cancel = Callable[[], bool]


class DownloadFailed(SidecarError):
    """The server or the network failed; the part file is kept so a retry resumes."""

    code = Code.DOWNLOAD_FAILED
    transient = True


class ChecksumMismatch(SidecarError):
    """The downloaded bytes are not the expected file; nothing was kept."""

    code = Code.CHECKSUM_MISMATCH


class DownloadCancelled(SidecarError):
    """The caller cancelled; the part file is kept so a later install resumes."""

    code = Code.DOWNLOAD_CANCELLED


def part_path(dest: Path) -> Path:
    return dest.with_name(dest.name + ".part")


def _meta_path(dest: Path) -> Path:
    return dest.with_name(dest.name + ".part.json")


def discard_partial(dest: Path) -> None:
    """Forget an interrupted download of ``dest`` (its part file and validator)."""
    for path in (part_path(dest), _meta_path(dest)):
        try:
            path.unlink()
        except FileNotFoundError:
            pass


def checked_sha256(path: Path, cancel: Cancel | None = None) -> str:
    """The file's sha256, read in blocks that each give ``cancel`` a chance to stop the check."""

    def stop_if_cancelled() -> None:
        if cancel is not None and cancel():
            raise DownloadCancelled("cancelled while checking the file")

    digest = sha256_file(path, between_blocks=stop_if_cancelled)
    if digest is None:
        raise DownloadFailed(f"{path} vanished while it was being checked")
    return digest


def download(
    url: str,
    dest: Path | str,
    expected_sha256: str | None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    *,
    retries: int = 3,
    backoff_s: float = 1.0,
    timeout_s: float = TIMEOUT_S,
) -> str:
    """Fetch ``url`` into ``dest`` and return the file's sha256 (lower-case hex).

    ``expected_sha256`` None means "not known yet": the file is accepted and its
    digest returned so the caller can pin it. ``progress(done, total)`` is called with
    non-decreasing ``done`` (``total`` None when the server does not say). ``cancel``
    is polled between chunks. A broken connection is retried ``retries`` times,
    resuming where it stopped; after that :class:`DownloadFailed` is raised with the
    part file kept, so calling again resumes.
    """
    dest = Path(dest)
    if not url.lower().startswith(("http://", "https://")):
        raise DownloadFailed(f"only http(s) downloads are supported, not {url!r}", transient=False)
    expected = expected_sha256.lower() if expected_sha256 else None
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = part_path(dest)
    reported = [0]

    def report(done: int, total: int | None) -> None:
        if progress is None:
            return
        done = max(done, reported[0])  # a restart from 0 never shows progress going backwards
        reported[0] = done
        progress(done, total)

    attempt = 0
    while True:
        try:
            _fetch_into_part(url, dest, report, cancel, timeout_s)
            break
        except _Interrupted as exc:
            attempt += 1
            if attempt > retries:
                raise DownloadFailed(f"download of {url} failed after {attempt} attempts: {exc}") from exc
            log.warning("download of %s interrupted (%s); resuming (attempt %d)", url, exc, attempt + 1)
            _sleep_unless_cancelled(backoff_s * 2 ** (attempt - 1), cancel)

    digest = checked_sha256(part, cancel)
    if expected is not None and digest != expected:
        discard_partial(dest)
        raise ChecksumMismatch(
            f"{dest.name}: the downloaded file's sha256 is {digest}, expected {expected}; it was deleted"
        )
    with open(part, "rb+") as handle:
        os.fsync(handle.fileno())
    os.replace(part, dest)
    fsync_dir(dest.parent)
    try:
        _meta_path(dest).unlink()
    except FileNotFoundError:
        pass
    return digest


class _Interrupted(Exception):
    """A transfer broke off; the part file holds what arrived."""


def _sleep_unless_cancelled(seconds: float, cancel: Cancel | None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cancel is not None and cancel():
            raise DownloadCancelled("download cancelled")
        time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))


def _read_meta(dest: Path) -> dict:
    try:
        return json.loads(_meta_path(dest).read_text("utf-8"))
    except (OSError, ValueError):
        return {}


def _write_meta(dest: Path, meta: dict) -> None:
    _meta_path(dest).write_text(json.dumps(meta), "utf-8")


def _fetch_into_part(url: str, dest: Path, report: Progress, cancel: Cancel | None, timeout_s: float) -> None:
    part = part_path(dest)
    have = part.stat().st_size if part.exists() else 0
    meta = _read_meta(dest)
    if have and meta.get("url") != url:
        have = 0  # the part belongs to another URL: start over
    if have and meta.get("complete"):
        report(have, have)
        return

    headers = {"User-Agent": f"Sidecar/{__version__}", "Accept-Encoding": "identity"}
    if have:
        headers["Range"] = f"bytes={have}-"
        validator = meta.get("etag") or meta.get("last_modified")
        if validator:
            headers["If-Range"] = validator
    request = urllib.request.Request(url, headers=headers)
    if cancel is not None and cancel():
        raise DownloadCancelled("download cancelled")
    try:
        response = urllib.request.urlopen(request, timeout=timeout_s)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:
            return _range_not_satisfiable(exc, dest, have, report)
        transient = exc.code >= 500 or exc.code in (408, 429)
        if transient:
            raise _Interrupted(f"HTTP {exc.code} {exc.reason}") from exc
        raise DownloadFailed(f"{url}: HTTP {exc.code} {exc.reason}", transient=False) from exc
    except (urllib.error.URLError, OSError) as exc:
        raise _Interrupted(str(getattr(exc, "reason", exc))) from exc

    with response:
        status = response.status
        length = response.headers.get("Content-Length")
        length = int(length) if length and length.isdigit() else None
        if status == 206 and have:
            match = _CONTENT_RANGE.match(response.headers.get("Content-Range", ""))
            if not match or int(match.group(1)) != have:
                # A range we did not ask for: do not splice it in, start over.
                log.warning("%s answered an unexpected range; restarting from 0", url)
                part.unlink(missing_ok=True)
                raise _Interrupted("unexpected Content-Range")
            total = int(match.group(3)) if match.group(3) != "*" else None
            offset, mode = have, "ab"
        else:
            if have:
                log.info("%s ignored the range request; restarting from 0", url)
            offset, mode = 0, "wb"
            total = length
        _write_meta(
            dest,
            {
                "url": url,
                "etag": response.headers.get("ETag"),
                "last_modified": response.headers.get("Last-Modified"),
                "total": total,
            },
        )
        done = offset
        report(done, total)
        with open(part, mode) as out:
            try:
                while True:
                    if cancel is not None and cancel():
                        raise DownloadCancelled("download cancelled; run install again to resume")
                    block = response.read(CHUNK)
                    if not block:
                        break
                    out.write(block)
                    done += len(block)
                    report(done, total)
            except (OSError, ValueError) as exc:  # includes http.client.IncompleteRead, resets, timeouts
                out.flush()
                raise _Interrupted(f"connection broke after {done} bytes: {exc}") from exc
            out.flush()
            os.fsync(out.fileno())
    if total is not None and done < total:
        raise _Interrupted(f"connection closed after {done} of {total} bytes")
    if total is not None and done > total:
        part.unlink(missing_ok=True)
        raise _Interrupted(f"server sent {done} bytes, more than the {total} it announced")
    meta = _read_meta(dest)
    meta["complete"] = True
    _write_meta(dest, meta)


def _range_not_satisfiable(exc: urllib.error.HTTPError, dest: Path, have: int, report: Progress) -> None:
    """416 on resume: the part is already whole, or it is longer than the file now is."""
    match = re.match(r"bytes\s+\*/(\d+)", exc.headers.get("Content-Range", "") if exc.headers else "")
    if match and int(match.group(1)) == have:
        report(have, have)
        return
    discard_partial(dest)
    raise _Interrupted("the partial download no longer matches the remote file; restarting")
