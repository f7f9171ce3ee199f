"""open_image turns whatever the person has into upright 8-bit RGB, or fails with a stable code."""

from __future__ import annotations

import struct
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from app.errors import MediaError
from app.media.images import MAX_PIXELS, open_image, read_exif
from tests.rendered_images import write_dng


def _png_header_only(path: Path, width: int, height: int) -> Path:
    """A tiny PNG whose header declares ``width``×``height`` pixels (a decompression bomb's shape)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")
    )
    return path


def test_non_image_fails_as_corrupt_media(tmp_path):
    path = tmp_path / "notes.jpg"
    path.write_bytes(b"this is not a jpeg at all" * 10)
    with pytest.raises(MediaError) as err:
        open_image(path)
    assert err.value.code == "corrupt_media"
    assert not err.value.transient


def test_truncated_image_fails_as_corrupt_media(tmp_path):
    good = tmp_path / "good.png"
    Image.fromarray(np.random.default_rng(1).integers(0, 255, (300, 300, 3), dtype=np.uint8)).save(good)
    broken = tmp_path / "broken.png"
    broken.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(MediaError) as err:
        open_image(broken)
    assert err.value.code == "corrupt_media"


def test_missing_file_fails_as_file_missing(tmp_path):
    with pytest.raises(MediaError) as err:
        open_image(tmp_path / "gone.png")
    assert err.value.code == "file_missing"


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
@pytest.mark.parametrize("width,height", [(11_000, 10_000), (20_000, 20_000)])
def test_decompression_bomb_is_refused_before_decoding(tmp_path, width, height):
    # 110 MP is under Pillow's own bomb error (≈179 MP) so our header check must catch it;
    # 400 MP trips Pillow's DecompressionBombError at open, which must map to the same code.
    path = _png_header_only(tmp_path / "bomb.png", width, height)
    assert path.stat().st_size < 200
    started = time.monotonic()
    with pytest.raises(MediaError) as err:
        open_image(path)
    assert err.value.code == "image_too_large"
    assert time.monotonic() - started < 2, "the pixels must not be decoded"
    assert width * height > MAX_PIXELS


def test_cmyk_jpeg_becomes_rgb_with_the_right_colour(tmp_path):
    path = tmp_path / "print.jpg"
    Image.new("CMYK", (64, 64), (255, 0, 0, 0)).save(path, quality=95)  # pure cyan ink
    image = open_image(path)
    assert image.mode == "RGB"
    r, g, b = image.getpixel((32, 32))
    assert r < 40 and g > 215 and b > 215


def test_16_bit_png_is_scaled_not_clipped_to_white(tmp_path):
    path = tmp_path / "scan16.png"
    ramp = np.tile(np.linspace(0, 65535, 256).astype(np.uint16), (16, 1))
    Image.fromarray(ramp).save(path)
    assert Image.open(path).mode in ("I;16", "I")
    image = open_image(path)
    assert image.mode == "RGB"
    row = np.asarray(image)[8, :, 0].astype(int)
    assert row[0] == 0 and row[-1] == 255
    assert abs(row[128] - 128) <= 2, "mid-grey must stay mid-grey"
    assert np.all(np.diff(row) >= 0)


def test_animated_gif_gives_its_first_frame(tmp_path):
    path = tmp_path / "anim.gif"
    frames = [Image.new("RGB", (40, 40), colour) for colour in ((255, 0, 0), (0, 0, 255), (0, 255, 0))]
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100, loop=0)
    assert Image.open(path).n_frames == 3
    r, g, b = open_image(path).getpixel((20, 20))
    assert r > 200 and g < 50 and b < 50


def test_animated_webp_gives_its_first_frame(tmp_path):
    path = tmp_path / "anim.webp"
    frames = [Image.new("RGB", (40, 40), colour) for colour in ((0, 255, 0), (255, 0, 0))]
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100, lossless=True)
    r, g, b = open_image(path).getpixel((20, 20))
    assert g > 200 and r < 50


def test_transparent_black_text_stays_visible_on_white(tmp_path):
    path = tmp_path / "logo.png"
    rgba = Image.new("RGBA", (40, 40), (0, 0, 0, 0))  # fully transparent *black*
    rgba.paste((0, 0, 0, 255), (10, 10, 30, 30))  # opaque black square
    rgba.save(path)
    image = open_image(path)
    assert image.getpixel((2, 2)) == (255, 255, 255)
    assert image.getpixel((20, 20)) == (0, 0, 0)


def test_palette_la_and_greyscale_modes_become_rgb(tmp_path):
    for mode, colour in (("P", 3), ("LA", (128, 255)), ("L", 128), ("1", 1)):
        path = tmp_path / f"img_{mode}.png"
        Image.new(mode, (8, 8), colour).save(path)
        assert open_image(path).mode == "RGB"


def test_exif_orientation_is_applied(tmp_path):
    path = tmp_path / "rotated.jpg"
    image = Image.new("RGB", (60, 30), "white")
    exif = image.getexif()
    exif[0x0112] = 6  # rotate 90° clockwise to display
    image.save(path, exif=exif)
    assert open_image(path).size == (30, 60)


def test_read_exif_gives_date_and_camera(tmp_path):
    path = tmp_path / "photo.jpg"
    image = Image.new("RGB", (10, 10))
    exif = image.getexif()
    exif[0x010F] = "Canon"
    exif[0x0110] = "Canon EOS R5\x00"
    exif.get_ifd(0x8769)[0x9003] = "2021:07:04 12:34:56"
    image.save(path, exif=exif)
    assert read_exif(path) == {"date_taken": "2021-07-04T12:34:56", "camera_make": "Canon", "camera_model": "Canon EOS R5"}


def test_read_exif_never_raises(tmp_path):
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"\xff\xd8\xff\xe1\x00\x10Exif\x00\x00garbage")
    assert read_exif(junk) == {}
    assert read_exif(tmp_path / "missing.jpg") == {}
    no_exif = tmp_path / "plain.png"
    Image.new("RGB", (4, 4)).save(no_exif)
    assert read_exif(no_exif) == {}
    zero_date = tmp_path / "zero.jpg"
    image = Image.new("RGB", (4, 4))
    exif = image.getexif()
    exif[0x0132] = "0000:00:00 00:00:00"
    image.save(zero_date, exif=exif)
    assert read_exif(zero_date) == {}


def _marked(size: tuple[int, int] = (320, 200)) -> Image.Image:
    """White with a red square in the top-left corner: shows which way up a decoded picture is."""
    image = Image.new("RGB", size, "white")
    image.paste((255, 0, 0), (0, 0, 40, 40))
    return image


def _is_red(pixel: tuple[int, ...]) -> bool:
    return pixel[0] > 200 and pixel[1] < 60 and pixel[2] < 60


@pytest.mark.parametrize("suffix", [".heic", ".heif", ".avif"])
def test_phone_formats_open_as_rgb(tmp_path, suffix):
    path = tmp_path / f"phone{suffix}"
    _marked().save(path)
    image = open_image(path)
    assert image.size == (320, 200) and image.mode == "RGB" and _is_red(image.getpixel((10, 10)))


def _failure_code(path: Path) -> str:
    with pytest.raises(MediaError) as caught:
        open_image(path)
    return caught.value.code


def test_corrupt_heic_fails_as_corrupt_media(tmp_path):
    good = tmp_path / "good.heic"
    _marked().save(good)
    broken = tmp_path / "broken.heic"
    broken.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 3])
    assert _failure_code(broken) == "corrupt_media"


def test_raw_file_gives_its_embedded_preview_upright_not_its_sensor_data(tmp_path):
    # The camera was held sideways: the preview is stored turned, the raw says "turn 90° clockwise".
    path = write_dng(tmp_path / "shot.dng", _marked().transpose(Image.Transpose.ROTATE_90), orientation=6)
    image = open_image(path)
    assert image.size == (320, 200), "the preview's size (the sensor data is 64×64), turned upright"
    assert _is_red(image.getpixel((10, 10)))
    assert read_exif(path) == {"camera_make": "Sidecar", "camera_model": "Test Camera"}


def test_raw_without_a_preview_fails_with_its_own_code(tmp_path):
    assert _failure_code(write_dng(tmp_path / "bare.dng", None)) == "raw_no_preview"


def test_unreadable_raw_fails_as_corrupt_media_and_a_missing_one_as_file_missing(tmp_path):
    junk = tmp_path / "junk.nef"
    junk.write_bytes(b"not a raw file" * 50)
    assert _failure_code(junk) == "corrupt_media"
    assert _failure_code(tmp_path / "gone.cr2") == "file_missing"
