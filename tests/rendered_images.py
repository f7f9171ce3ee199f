"""Images with rendered text for the OCR and search tests (English, Chinese, Japanese), and photos
as phones and cameras store them: sideways pixels with an EXIF orientation, camera raw (DNG) files.

The CJK font is Debian's ``fonts-noto-cjk``; a missing font fails the test with the
package to install rather than skipping it (a skipped OCR test hides a broken setup).

:func:`write_dng` writes a real DNG (TIFF/EP with DNG 1.4 tags, as Adobe's converter
lays it out): IFD 0 is the camera's JPEG preview (NewSubFileType 1, compression 7),
its SubIFD the 16-bit Bayer sensor data (CFA 2×2 RGGB). LibRaw reads it like a
camera's; no library here writes DNG, so the few TIFF structures are packed by hand.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

_TIFF_TYPES = {"B": (1, "B"), "A": (2, "B"), "H": (3, "H"), "L": (4, "I")}
TiffTags = Mapping[int, tuple[str, object]]
"""tag → (type, value): ``B`` bytes, ``A`` ASCII, ``H`` shorts, ``L`` longs (lists, or a str for ``A``)."""

CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


def cjk_font(size: int = 40) -> ImageFont.FreeTypeFont:
    assert CJK_FONT.is_file(), f"{CJK_FONT} is missing: install the Debian package fonts-noto-cjk"
    return ImageFont.truetype(str(CJK_FONT), size)


def render_text_image(
    path: Path, lines: Sequence[str], *, size: int = 40, background: str = "white", colour: str = "black"
) -> Path:
    """Write a PNG/JPEG with ``lines`` drawn one under the other in the CJK font (it covers Latin too)."""
    font = cjk_font(size)
    width = max(int(font.getlength(line)) for line in lines) + 2 * size
    height = (len(lines) + 1) * int(size * 1.6)
    image = Image.new("RGB", (max(width, 200), height), background)
    draw = ImageDraw.Draw(image)
    for index, line in enumerate(lines):
        draw.text((size, size // 2 + index * int(size * 1.6)), line, font=font, fill=colour)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
    return path


def sideways_photo(upright: Image.Image, path: Path, orientation: int) -> Path:
    """Save ``upright`` as a phone held sideways does: pixels turned, EXIF Orientation 6 or 8 to turn them back."""
    turned = upright.transpose({6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}[orientation])
    exif = Image.Exif()
    exif[0x0112] = orientation
    path.parent.mkdir(parents=True, exist_ok=True)
    turned.save(path, exif=exif.tobytes(), quality=95)
    return path


def write_dng(path: Path, preview: Image.Image | None, *, orientation: int = 1) -> Path:
    """A camera raw file with ``preview`` embedded as its JPEG preview (none when None) and 64×64 of sensor data."""
    sensor = (np.arange(64 * 64, dtype=np.uint16).reshape(64, 64) % 4096).astype("<u2").tobytes()
    dng: dict[int, tuple[str, object]] = {271: ("A", "Sidecar"), 272: ("A", "Test Camera"), 274: ("H", [orientation]),
                                          50706: ("B", [1, 4, 0, 0]), 50708: ("A", "Sidecar Test Camera")}
    raw: dict[int, tuple[str, object]] = {
        254: ("L", [0]), 256: ("L", [64]), 257: ("L", [64]), 258: ("H", [16]), 259: ("H", [1]), 262: ("H", [32803]),
        277: ("H", [1]), 278: ("L", [64]), 279: ("L", [len(sensor)]), 33421: ("H", [2, 2]),
        33422: ("B", [0, 1, 1, 2]), 50717: ("L", [4095]),
    }
    if preview is None:
        _write_tiff(path, [({**raw, **dng}, sensor)])
        return path
    jpeg = io.BytesIO()
    preview.convert("RGB").save(jpeg, "JPEG", quality=92)
    data = jpeg.getvalue()
    ifd0 = {**dng, 254: ("L", [1]), 256: ("L", [preview.width]), 257: ("L", [preview.height]),
            258: ("H", [8, 8, 8]), 259: ("H", [7]), 262: ("H", [6]), 277: ("H", [3]), 278: ("L", [preview.height]),
            279: ("L", [len(data)]), 330: ("L", [0])}
    _write_tiff(path, [(ifd0, data), (raw, sensor)])
    return path


def _write_tiff(path: Path, ifds: Sequence[tuple[TiffTags, bytes]]) -> None:
    """Little-endian TIFF: each IFD's one strip, then the IFDs; StripOffsets (273) and SubIFDs (330) are filled in.

    SubIFDs of IFD ``i`` points at IFD ``i + 1``, which is linked from nowhere else (a SubIFD chain, as in DNG).
    """
    out = bytearray(b"II*\x00\x00\x00\x00\x00")
    strips = []
    for _, strip in ifds:
        strips.append(len(out))
        out += strip + b"\x00" * (len(strip) % 2)

    def encoded(kind: str, value: object) -> bytes:
        fmt = _TIFF_TYPES[kind][1]
        return str(value).encode() + b"\x00" if kind == "A" else struct.pack(f"<{len(value)}{fmt}", *value)  # type: ignore[arg-type]

    def size(tags: TiffTags) -> int:
        extra = sum(len(b) + len(b) % 2 for b in (encoded(*tags[t]) for t in tags) if len(b) > 4)
        return 2 + 12 * (len(tags) + 1) + 4 + extra  # +1: StripOffsets

    starts = []
    for tags, _ in ifds:
        starts.append(len(out) + sum(size(t) for t, _ in ifds[: len(starts)]))
    for index, (tags, _) in enumerate(ifds):
        filled = {**tags, 273: ("L", [strips[index]])}
        if 330 in filled:
            filled[330] = ("L", [starts[index + 1]])
        body = bytearray(struct.pack("<H", len(filled)))
        extra = bytearray()
        extra_at = starts[index] + 2 + 12 * len(filled) + 4
        for tag in sorted(filled):
            kind, value = filled[tag]
            data = encoded(kind, value)
            count = len(data) // struct.calcsize(_TIFF_TYPES[kind][1])
            if len(data) <= 4:
                body += struct.pack("<HHI", tag, _TIFF_TYPES[kind][0], count) + data.ljust(4, b"\x00")
            else:
                body += struct.pack("<HHII", tag, _TIFF_TYPES[kind][0], count, extra_at + len(extra))
                extra += data + b"\x00" * (len(data) % 2)
        assert len(out) == starts[index]
        out += body + struct.pack("<I", 0) + extra
    struct.pack_into("<I", out, 4, starts[0])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(out))
