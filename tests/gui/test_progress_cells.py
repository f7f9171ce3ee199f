"""The queue's Progress cells draw their value: a 0 %, an 80 % and a 100 % cell look different, and an 80 % bar
stops at 80 % of the cell (checked on the pixels of a rendered cell)."""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage, QPainter, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QStyleOptionViewItem, QTableView

from app.gui.app import Gui
from app.gui.queue_rows import PROGRESS, queue_row
from app.gui.queue_view import PROGRESS_ROLE, ProgressCellDelegate, QueueModel
from app.store.records import ItemView
from app.store.states import ItemState

WIDTH, HEIGHT = 120, 30


def _render(percent: int) -> QImage:
    """One Progress cell of ``percent`` as the queue's delegate paints it, on a white ground."""
    model = QStandardItemModel(1, 1)
    cell = QStandardItem(f"{percent} %")
    cell.setData(percent, PROGRESS_ROLE)
    model.setItem(0, 0, cell)
    view = QTableView()
    view.setModel(model)
    delegate = ProgressCellDelegate(view)
    image = QImage(WIDTH, HEIGHT, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    option = QStyleOptionViewItem()
    option.rect = QRect(0, 0, WIDTH, HEIGHT)
    option.widget = view
    index = model.index(0, 0)
    delegate.initStyleOption(option, index)
    option.text = ""  # the columns compared below carry no glyph of the label
    painter = QPainter(image)
    delegate.paint(painter, option, index)
    painter.end()
    return image


def _column(image: QImage, fraction: float) -> list[int]:
    x = int(WIDTH * fraction)
    return [image.pixel(x, y) for y in range(6, HEIGHT - 6)]


def test_a_progress_cell_fills_its_value_of_the_width(qapp: Any) -> None:
    empty, most, full = _render(0), _render(80), _render(100)
    ground = _column(empty, 0.5)
    assert _column(empty, 0.1) == ground == _column(empty, 0.9), "a 0 % cell is not empty"
    assert _column(most, 0.5) != ground and _column(most, 0.7) != ground, "an 80 % cell is not filled to 80 %"
    assert _column(most, 0.9) == ground, "an 80 % cell is filled past 80 % (every bar looked full)"
    assert _column(full, 0.9) == _column(most, 0.5), "a 100 % cell does not reach its end (or fades)"
    assert _column(full, 0.5) == _column(full, 0.9), "a 100 % bar is not one colour"


def test_the_queue_hands_each_rows_percent_to_its_progress_delegate(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    queue = gui.window.queue
    assert isinstance(queue.table.itemDelegateForColumn(QueueModel.PROGRESS), ProgressCellDelegate)
    item = ItemView(1, 1, "/media/Film.mkv", "video", ItemState.RUNNING, "transcribe", 0.8, None, None, None, 1)
    row = queue_row(item)
    assert row.display[PROGRESS] == "80 %"
    assert queue.model._value(row, PROGRESS, PROGRESS_ROLE) == 80
