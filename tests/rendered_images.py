"""Images with rendered text for the OCR and search tests (English, Chinese, Japanese).

The CJK font is Debian's ``fonts-noto-cjk``; a missing font fails the test with the
package to install rather than skipping it (a skipped OCR test hides a broken setup).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont

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
