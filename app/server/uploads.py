"""A multipart upload streamed to a file under the server's upload folder, never held in memory.

The body is fed chunk by chunk to python-multipart's push parser; the one field the
endpoint reads goes straight to disk, counted against the size limit as it arrives
(a client's ``Content-Length`` is checked first, but not trusted). Raw PCM
(``encode=false``: 16 kHz mono s16le, what Bazarr sends) is written behind a WAV header
whose sizes are filled in at the end, so the engine's decoder reads it as any WAV.
Whatever goes wrong (too large, a client gone, a bad body) the caller removes the folder.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import IO, AsyncIterator

from python_multipart import MultipartParser
from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import parse_options_header

from app.codes import Code
from app.errors import SidecarError

SAMPLE_RATE, CHANNELS, SAMPLE_BYTES = 16000, 1, 2
"""Raw PCM as whisper-asr-webservice takes it with ``encode=false``."""
_WAV_HEADER = 44


class UploadRefused(SidecarError):
    """A request whose upload cannot be used; ``status`` is the HTTP answer."""

    def __init__(self, message: str, code: Code, status: int):
        super().__init__(message, code=code)
        self.status = status


@dataclass(frozen=True)
class Upload:
    path: Path
    size: int  # bytes of the field as sent (the PCM, without the WAV header written before it)
    filename: str


def wav_header(data_bytes: int) -> bytes:
    """The 44-byte RIFF header of ``data_bytes`` of 16 kHz mono s16le PCM."""
    byte_rate = SAMPLE_RATE * CHANNELS * SAMPLE_BYTES
    return (b"RIFF" + struct.pack("<I", 36 + data_bytes) + b"WAVEfmt " +
            struct.pack("<IHHIIHH", 16, 1, CHANNELS, SAMPLE_RATE, byte_rate, CHANNELS * SAMPLE_BYTES, 16) +
            b"data" + struct.pack("<I", data_bytes))


class _FieldWriter:
    """python-multipart's callbacks: the part named ``field`` goes to ``target``; other parts are read and dropped."""

    def __init__(self, field: str, target: Path, limit: int, raw_pcm: bool):
        self.field, self.target, self.limit, self.raw_pcm = field, target, limit, raw_pcm
        self.size = 0
        self.filename = ""
        self.found = False
        self._file: IO[bytes] | None = None
        self._header_name = b""
        self._header_value = b""
        self._disposition = b""

    def callbacks(self) -> dict[str, object]:
        return {"on_part_begin": self._part_begin, "on_header_field": self._header_field,
                "on_header_value": self._header_value_data, "on_header_end": self._header_end,
                "on_headers_finished": self._headers_finished, "on_part_data": self._part_data,
                "on_part_end": self._part_end}

    def _part_begin(self) -> None:
        self._disposition = b""

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name += data[start:end]

    def _header_value_data(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def _header_end(self) -> None:
        if self._header_name.lower() == b"content-disposition":
            self._disposition = self._header_value
        self._header_name, self._header_value = b"", b""

    def _headers_finished(self) -> None:
        _, params = parse_options_header(self._disposition)
        if params.get(b"name", b"").decode("utf-8", "replace") == self.field and not self.found:
            self.found = True
            self.filename = params.get(b"filename", b"").decode("utf-8", "replace")
            self._file = open(self.target, "wb")  # closed in _part_end, or by close() when the body breaks off
            if self.raw_pcm:
                self._file.write(wav_header(0))

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        if self._file is None:
            return
        self.size += end - start
        if self.size > self.limit:
            raise UploadRefused(f"the upload is over the limit of {self.limit // (1024 * 1024)} MB",
                                Code.UPLOAD_TOO_LARGE, 413)
        self._file.write(data[start:end])

    def _part_end(self) -> None:
        if self._file is not None:
            if self.raw_pcm:
                self._file.seek(0)
                self._file.write(wav_header(self.size))
            self._file.close()
            self._file = None

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


async def receive_upload(content_type: str, content_length: str | None, body: AsyncIterator[bytes], field: str,
                         folder: Path, limit: int, raw_pcm: bool) -> Upload:
    """Stream the multipart ``body``'s ``field`` into ``folder``; :class:`UploadRefused` says why one cannot be used.

    The caller owns ``folder`` and removes it on any outcome but success.
    """
    kind, params = parse_options_header(content_type)
    if kind != b"multipart/form-data" or b"boundary" not in params:
        raise UploadRefused(f"send the audio as the multipart/form-data field {field!r}", Code.NO_FILE, 400)
    if content_length and content_length.isdigit() and int(content_length) > limit + 64 * 1024:
        raise UploadRefused(f"the upload is over the limit of {limit // (1024 * 1024)} MB", Code.UPLOAD_TOO_LARGE, 413)
    target = folder / ("upload.wav" if raw_pcm else "upload.bin")
    writer = _FieldWriter(field, target, limit, raw_pcm)
    parser = MultipartParser(params[b"boundary"], writer.callbacks())  # type: ignore[arg-type]
    try:
        async for chunk in body:
            parser.write(chunk)
        parser.finalize()
    except MultipartParseError as exc:
        raise UploadRefused(f"the multipart body is not valid: {exc}", Code.INVALID_ARGUMENT, 400) from exc
    finally:
        writer.close()
    if not writer.found:
        raise UploadRefused(f"the request has no file in the multipart field {field!r}", Code.NO_FILE, 400)
    if writer.size == 0:
        raise UploadRefused(f"the file in {field!r} is empty (0 bytes)", Code.EMPTY_UPLOAD, 400)
    if raw_pcm and writer.size % SAMPLE_BYTES:
        raise UploadRefused("with encode=false the file must be 16 kHz mono s16le PCM: an odd number of bytes is not",
                            Code.NOT_AUDIO, 415)
    return Upload(target, writer.size, writer.filename)
