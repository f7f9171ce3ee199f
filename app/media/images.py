"""Opening the person's images safely, as plain 8-bit RGB, and reading their EXIF.

Every image stage (CLIP, OCR, thumbnails) goes through :func:`open_image`, so the
guards live in one place:

- a file Pillow cannot identify or decode fails with ``corrupt_media`` (permanent:
  retrying a broken file never helps), a vanished one with ``file_missing``;
- the pixel count is checked from the header **before** any pixel is decoded: a
  40-byte PNG can declare 20000×20000 pixels and exhaust memory when decoded.
  Anything above :data:`MAX_PIXELS` fails with ``image_too_large``; Pillow's own
  ``DecompressionBombError`` (raised at open for very large headers) maps to the same;
- animated GIF/WebP and multi-page TIFF give their first frame;
- 16-bit and 32-bit greyscale is *scaled* to 8 bits (Pillow's ``convert("L")``
  clips anything above 255 to white, which turns a 16-bit scan into a blank page);
- transparency is flattened onto white (transparent pixels often hold black, so a
  plain ``convert("RGB")`` would hide black text on a transparent background);
- the EXIF orientation is applied, so OCR and CLIP see the picture upright (a phone
  photo of a page held sideways is stored unrotated with Orientation 6 or 8);
- HEIC/HEIF (every iPhone photo) opens through pillow-heif's Pillow plugin, registered
  here; AVIF through Pillow's own plugin (Pillow ≥ 11.3 ships libavif in its wheels);
- a camera raw file (:data:`RAW_EXTENSIONS`) is read from the JPEG preview its camera
  embedded (rawpy/LibRaw ``extract_thumb``), never by demosaicing the sensor data: that
  is seconds of CPU and hundreds of MB per photo for a picture the camera already
  rendered. The raw's own orientation flag turns the preview when the preview carries
  none. A raw without a usable preview fails with ``raw_no_preview``.
"""

from __future__ import annotations

import io
import os
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pillow_heif
import rawpy
from PIL import Image, ImageOps, UnidentifiedImageError

from app.errors import Code, MediaError

pillow_heif.register_heif_opener()

MAX_PIXELS = 100_000_000
"""Largest image (width × height) Sidecar decodes: 100 megapixels, ~300 MB as RGB."""

PHONE_EXTENSIONS = frozenset(".heic .heif .avif".split())
"""What phones save photos as, besides JPEG: HEIC/HEIF (iPhone) and AVIF."""
RAW_EXTENSIONS = frozenset(".dng .cr2 .nef .arw .raf .orf .rw2".split())
"""Camera raw files Sidecar indexes, always from their embedded preview."""

_TAG_ORIENTATION = 0x0112
_RAW_FLIP_TO_ORIENTATION = {3: 3, 5: 8, 6: 6}
"""LibRaw's ``sizes.flip`` (3: 180°, 5: 90° counter-clockwise, 6: 90° clockwise) as an EXIF Orientation."""

_EXIF_IFD = 0x8769
_TAG_MAKE = 0x010F
_TAG_MODEL = 0x0110
_TAG_DATETIME = 0x0132
_TAG_DATETIME_ORIGINAL = 0x9003
_TAG_DATETIME_DIGITIZED = 0x9004


def open_image(path: str | os.PathLike[str], *, max_pixels: int = MAX_PIXELS) -> Image.Image:
    """Decode the first frame of ``path`` into a fully loaded, upright RGB image.

    Raises :class:`MediaError` with ``file_missing``, ``corrupt_media`` or
    ``image_too_large``. The returned image no longer holds the file open.
    """
    p = Path(path)
    try:
        handle = raw_preview(p) if p.suffix.lower() in RAW_EXTENSIONS else Image.open(p)
    except FileNotFoundError as exc:
        raise MediaError(f"{p.name}: the file is gone", code=Code.FILE_MISSING) from exc
    except Image.DecompressionBombError as exc:
        raise MediaError(f"{p.name}: {exc}", code=Code.IMAGE_TOO_LARGE) from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise MediaError(f"{p.name}: not a readable image ({exc})", code=Code.CORRUPT_MEDIA) from exc
    with handle:
        width, height = handle.size
        if width <= 0 or height <= 0:
            raise MediaError(f"{p.name}: the image declares no pixels", code=Code.CORRUPT_MEDIA)
        if width * height > max_pixels:
            raise MediaError(
                f"{p.name}: {width}×{height} pixels is more than the {max_pixels // 1_000_000} megapixels "
                "Sidecar decodes",
                code=Code.IMAGE_TOO_LARGE,
            )
        try:
            if getattr(handle, "n_frames", 1) > 1:
                handle.seek(0)
            handle.load()
            upright = ImageOps.exif_transpose(handle) or handle
            rgb = to_rgb(upright)
            rgb.load()
        except Image.DecompressionBombError as exc:
            raise MediaError(f"{p.name}: {exc}", code=Code.IMAGE_TOO_LARGE) from exc
        except MediaError:
            raise
        except (OSError, SyntaxError, ValueError, EOFError, IndexError, MemoryError) as exc:
            raise MediaError(f"{p.name}: the image data is damaged ({exc})", code=Code.CORRUPT_MEDIA) from exc
    return rgb


def raw_preview(path: Path) -> Image.Image:
    """The camera's embedded preview of a raw file, as an unloaded Pillow image (its header read, no pixels).

    Raises :class:`MediaError`: ``raw_no_preview`` when the file has no preview LibRaw
    can hand over, ``corrupt_media`` when LibRaw cannot read the file at all;
    ``FileNotFoundError`` when it is gone.
    """
    if not path.is_file():
        raise FileNotFoundError(path)
    try:
        with rawpy.imread(str(path)) as raw:
            flip = raw.sizes.flip
            thumb = raw.extract_thumb()
    except (rawpy.LibRawNoThumbnailError, rawpy.LibRawUnsupportedThumbnailError) as exc:
        raise MediaError(
            f"{path.name}: this raw file has no embedded preview; Sidecar reads camera raw files only through the "
            "preview the camera stored in them",
            code=Code.RAW_NO_PREVIEW,
        ) from exc
    except (rawpy.LibRawError, rawpy.NotSupportedError) as exc:
        raise MediaError(f"{path.name}: not a readable raw file ({exc})", code=Code.CORRUPT_MEDIA) from exc
    if thumb.format == rawpy.ThumbFormat.JPEG:
        preview: Image.Image = Image.open(io.BytesIO(bytes(thumb.data)))
    else:
        preview = Image.fromarray(np.ascontiguousarray(thumb.data))
    exif = preview.getexif()
    if flip in _RAW_FLIP_TO_ORIENTATION and exif.get(_TAG_ORIENTATION, 1) == 1:
        exif[_TAG_ORIENTATION] = _RAW_FLIP_TO_ORIENTATION[flip]
    return preview


def to_rgb(image: Image.Image) -> Image.Image:
    """Convert any Pillow mode to 8-bit RGB without clipping or losing text on transparency."""
    mode = image.mode
    if mode == "RGB":
        return image.copy()
    if mode in ("I;16", "I;16L", "I;16B", "I;16N", "I", "F"):
        return Image.fromarray(_scale_to_uint8(image, mode), mode="L").convert("RGB")
    if mode in ("RGBA", "LA", "La", "RGBa", "PA") or (mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    if mode == "L" and "transparency" in image.info:
        return to_rgb(image.convert("LA"))
    # CMYK (Pillow already un-inverts Adobe CMYK JPEGs), P, L, 1, YCbCr, LAB, HSV.
    return image.convert("RGB")


def _scale_to_uint8(image: Image.Image, mode: str) -> np.ndarray:
    """Map high-bit-depth greyscale onto 0..255 by scaling, never by clipping.

    ``I;16*`` is 0..65535 by definition. ``I`` (32-bit, how some decoders hand over
    16-bit PNG/TIFF data) is read as 16-bit unless its values do not fit, in which
    case its own range is stretched. ``F`` in 0..1 is scaled by 255, else stretched.
    """
    data = np.asarray(image)
    if mode.startswith("I;16"):
        return (data.astype(np.uint32) * 255 // 65535).astype(np.uint8)
    values = data.astype(np.float64)
    if values.size == 0:
        return np.zeros(data.shape, dtype=np.uint8)
    low, high = float(values.min()), float(values.max())
    if mode == "I" and low >= 0 and high <= 65535:
        scaled = values * (255.0 / 65535.0)
    elif mode == "F" and low >= 0 and high <= 1.0:
        scaled = values * 255.0
    elif high > low:
        scaled = (values - low) * (255.0 / (high - low))
    else:
        scaled = np.zeros_like(values)
    return np.clip(np.rint(scaled), 0, 255).astype(np.uint8)


def read_exif(path: str | os.PathLike[str]) -> dict[str, str]:
    """Date taken and camera of an image, for its search document; ``{}`` when unknown.

    Keys (each present only when found): ``date_taken`` (ISO 8601, local time as the
    camera wrote it), ``camera_make``, ``camera_model``. Never raises: EXIF is often
    malformed and must not fail an image that decodes fine.
    """
    try:
        with Image.open(path) as handle:
            exif = handle.getexif()
            sub: dict[int, Any] = {}
            try:
                sub = dict(exif.get_ifd(_EXIF_IFD))
            except Exception:  # noqa: BLE001 - a broken sub-IFD only loses the date
                sub = {}
            result: dict[str, str] = {}
            for raw in (sub.get(_TAG_DATETIME_ORIGINAL), sub.get(_TAG_DATETIME_DIGITIZED), exif.get(_TAG_DATETIME)):
                date = _parse_exif_date(raw)
                if date:
                    result["date_taken"] = date
                    break
            make, model = _clean_text(exif.get(_TAG_MAKE)), _clean_text(exif.get(_TAG_MODEL))
            if make:
                result["camera_make"] = make
            if model:
                result["camera_model"] = model
            return result
    except Exception:  # noqa: BLE001 - documented: never raises
        return {}


def _clean_text(value: Any) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str):
        return ""
    return " ".join(value.replace("\x00", " ").split())[:100]


def _parse_exif_date(value: Any) -> str:
    text = _clean_text(value)
    if not text:
        return ""
    normalised = text.replace("-", ":", 2)
    for pattern, length in (("%Y:%m:%d %H:%M:%S", 19), ("%Y:%m:%d %H:%M", 16), ("%Y:%m:%d", 10)):
        try:
            parsed = datetime.strptime(normalised[:length], pattern)
        except ValueError:
            continue
        if parsed.year < 1900:  # "0000:00:00 00:00:00" and friends mean "not set"
            return ""
        return parsed.isoformat()
    return ""
