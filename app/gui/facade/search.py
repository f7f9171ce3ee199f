"""Search: text over images and dialogue, or images like a picture; the newest query alone is answered."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.engine.search import SearchResult
from app.gui.facade.core import FacadeCore
from app.gui.operations import Op


class SearchFacade(QObject):
    """Answers :meth:`query` with ``searchResults``."""

    searchResults = Signal(str, object)  # query (or image path), list[SearchResult]: Python objects, so paths keep undecodable bytes

    def __init__(self, core: FacadeCore):
        super().__init__(core)
        self._core = core

    def query(self, text: str | None, image: Path | None = None, kind: str = "all", limit: int = 100) -> None:
        """Text search over images and dialogue, or images similar to ``image``.

        Searches share one key: an answer to a query typed before the latest one is
        dropped, so search as you type never shows a stale result.
        """
        library = self._core.open_library()
        if library is None:
            return
        label = text if text is not None else str(image)

        def found(results: list[SearchResult]) -> None:
            self.searchResults.emit(label, results)

        self._core.run(Op(lambda _: library.search(text, image, kind, limit), found, lane="slow", key="search"))


__all__ = ["SearchFacade"]
