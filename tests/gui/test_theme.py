"""Accents mixed from the palette: readable when the OS hands Qt a dark palette, not only on white."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QColor, QPalette

from app.engine.review_evidence import side_by_side
from app.gui.review_evidence_view import diff_html
from app.gui.theme import ink, is_dark, tint


def _palette(base: str, text: str) -> QPalette:
    palette = QPalette()
    for role, colour in ((QPalette.ColorRole.Base, base), (QPalette.ColorRole.Window, base),
                         (QPalette.ColorRole.Text, text), (QPalette.ColorRole.WindowText, text),
                         (QPalette.ColorRole.PlaceholderText, "#888888")):
        palette.setColor(role, QColor(colour))
    return palette


def _contrast(a: str, b: str) -> float:
    def luminance(name: str) -> float:
        c = QColor(name)
        channels = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in (c.redF(), c.greenF(), c.blueF())]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_tints_and_ink_keep_their_contrast_on_light_and_dark_palettes(qapp: Any) -> None:
    light, dark = _palette("#ffffff", "#000000"), _palette("#1e1e1e", "#e6e6e6")
    assert not is_dark(light) and is_dark(dark)
    for palette, text in ((light, "#000000"), (dark, "#e6e6e6")):
        for accent in ("error", "ok", "change", "warning", "info"):
            background = tint(accent, palette)
            assert _contrast(background, text) >= 7, f"{accent} background unreadable under {text} text"
            assert _contrast(ink(accent, palette), palette.color(QPalette.ColorRole.Base).name()) >= 3, accent
    assert QColor(tint("change", dark)).lightnessF() < 0.35 < 0.8 < QColor(tint("change", light)).lightnessF()


def test_the_review_diff_is_drawn_in_the_palette_it_is_shown_in(qapp: Any) -> None:
    rows = tuple(side_by_side(["a", "b"], ["a", "c"]))
    dark = _palette("#1e1e1e", "#e6e6e6")
    html = diff_html(rows, dark)
    assert tint("change", dark) in html and "#fff" not in html.lower()
