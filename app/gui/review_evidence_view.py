"""The evidence part of the Review tab: a side-by-side diff, two thumbnails, or what is known about the sizes.

The view only draws what the facade read and prepared off the GUI thread
(:mod:`app.engine.review_evidence`, :mod:`app.gui.thumbnails`).
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QImage, QPalette, QPixmap
from PySide6.QtWidgets import QGridLayout, QLabel, QStackedWidget, QTextBrowser, QWidget

from app.gui.facade.records import DiffRow, ReviewEvidence, Side
from app.gui.theme import muted, tint
from app.gui.translations import QT_TRANSLATE_NOOP

OURS_TITLE = QT_TRANSLATE_NOOP("EvidenceView", "What Sidecar wrote")
THEIRS_TITLE = QT_TRANSLATE_NOOP("EvidenceView", "On disk now")


def _t(text: str) -> str:
    return QCoreApplication.translate("EvidenceView", text)
_ROW_ACCENTS = {"replace": ("change", "change"), "delete": ("error", ""), "insert": ("", "ok")}


def _size(side: Side) -> str:
    if side.missing:
        return _t("no file")
    return _t("{size} bytes").format(size=f"{side.size:,}")


def _cell(number: int | None, text: str, accent: str, palette: QPalette | None) -> str:
    style = f' style="background:{tint(accent, palette)}"' if accent else ""
    no = "" if number is None else str(number)
    return (f'<td class="no"{style}>{no}</td>'
            f'<td{style}><pre>{html.escape(text) if text else "&nbsp;"}</pre></td>')


def diff_html(rows: tuple[DiffRow, ...], palette: QPalette | None = None) -> str:
    """A two-column table (line numbers, Sidecar's lines, the lines on disk) with changed rows tinted."""
    grey = muted(palette)
    out = [f'<style>td {{ padding: 0 6px; vertical-align: top; }} td.no {{ color: {grey}; text-align: right; }} '
           'pre { margin: 0; white-space: pre-wrap; } th { text-align: left; }</style>',
           f'<table width="100%" cellspacing="0"><tr><th></th><th>{_t(OURS_TITLE)}</th><th></th><th>{_t(THEIRS_TITLE)}</th></tr>']
    for row in rows:
        if row.tag == "folded":
            folded = QCoreApplication.translate("EvidenceView", "… %n unchanged lines …", "", row.ours_no or 0)
            out.append(f'<tr><td colspan="4" style="color:{grey}">{folded}</td></tr>')
            continue
        ours_accent, theirs_accent = _ROW_ACCENTS.get(row.tag, ("", ""))
        out.append("<tr>" + _cell(row.ours_no, row.ours, ours_accent, palette)
                   + _cell(row.theirs_no, row.theirs, theirs_accent, palette) + "</tr>")
    out.append("</table>")
    return "".join(out)


class EvidenceView(QStackedWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.diff = QTextBrowser(self)
        self.diff.setOpenLinks(False)
        self.images = QWidget(self)
        grid = QGridLayout(self.images)
        self.image_labels: dict[str, QLabel] = {}
        for column, (side, title) in enumerate((("ours", OURS_TITLE), ("theirs", THEIRS_TITLE))):
            grid.addWidget(QLabel(f"<b>{_t(title)}</b>", self.images), 0, column)
            label = QLabel(self.images)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setMinimumSize(160, 120)
            grid.addWidget(label, 1, column)
            self.image_labels[side] = label
        for page in (self.message, self.diff, self.images):
            self.addWidget(page)
        self.show_message("")

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.setCurrentWidget(self.message)

    def show_evidence(self, evidence: ReviewEvidence, images: dict[str, Any]) -> None:
        if evidence.kind == "text" and not evidence.ours.missing:
            self.diff.setHtml(diff_html(evidence.rows, self.palette()))
            self.setCurrentWidget(self.diff)
        elif evidence.kind == "image":
            for side in ("ours", "theirs"):
                self._show_image(side, images.get(side), getattr(evidence, side))
            self.setCurrentWidget(self.images)
        else:
            self.show_message(self._sizes_text(evidence))

    def _show_image(self, side: str, image: QImage | None, version: Side) -> None:
        label = self.image_labels[side]
        if image is None:
            label.setPixmap(QPixmap())
            label.setText(_t("no file") if version.missing else _t("cannot be shown ({size})").format(size=_size(version)))
        else:
            label.setText("")
            label.setPixmap(QPixmap.fromImage(image))

    @staticmethod
    def _sizes_text(evidence: ReviewEvidence) -> str:
        if evidence.ours.missing:
            return _t("Sidecar's version is no longer in its workspace, so it cannot be shown. On disk now: {theirs}. "
                      "“Not applied” prepares it again.").format(theirs=_size(evidence.theirs))
        return _t("What Sidecar wrote: {ours}. On disk now: {theirs}. These files are not text Sidecar can compare "
                  "line by line.").format(ours=_size(evidence.ours), theirs=_size(evidence.theirs))
