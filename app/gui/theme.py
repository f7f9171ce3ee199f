"""Accent colours that read on a light and on a dark desktop.

Qt follows the operating system's scheme (Windows 10/11, macOS, the GNOME and KDE
platform themes) by handing the app a light or a dark palette. A colour written as a
fixed hex value is right on one of them only: a pale banner behind light text is
unreadable in dark mode. Every accent the window draws is therefore mixed from the
palette in use when it is drawn.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QGuiApplication, QPalette

ACCENTS = {"error": "#d0243a", "ok": "#2e8b3e", "warning": "#c98a00", "info": "#2f6fca", "change": "#e0b000"}


def _palette(palette: QPalette | None) -> QPalette:
    return palette if palette is not None else QGuiApplication.palette()


def _mix(a: QColor, b: QColor, amount: float) -> QColor:
    return QColor.fromRgbF(*(x * (1 - amount) + y * amount for x, y in
                             zip((a.redF(), a.greenF(), a.blueF()), (b.redF(), b.greenF(), b.blueF()))))


def is_dark(palette: QPalette | None = None) -> bool:
    return _palette(palette).color(QPalette.ColorRole.Base).lightnessF() < 0.5


def tint(accent: str, palette: QPalette | None = None, amount: float = 0.22) -> str:
    """A background: the accent faintly over the palette's base colour."""
    base = _palette(palette).color(QPalette.ColorRole.Base)
    return _mix(base, QColor(ACCENTS[accent]), amount).name()


def ink(accent: str, palette: QPalette | None = None) -> str:
    """Text in the accent's colour, pulled toward the palette's text colour so it keeps its contrast."""
    text = _palette(palette).color(QPalette.ColorRole.Text)
    return _mix(QColor(ACCENTS[accent]), text, 0.35).name()


def muted(palette: QPalette | None = None) -> str:
    """Secondary text (hints, line numbers)."""
    return _palette(palette).color(QPalette.ColorRole.PlaceholderText).name()


def banner_style(accent: str, palette: QPalette | None = None) -> str:
    return (f"background:{tint(accent, palette)}; color:{ink(accent, palette)}; "
            f"border:1px solid {tint(accent, palette, 0.5)};")
