"""The GUI's one door to the engine: :class:`EngineFacade` with its facade per domain, whose
calls run off the GUI thread, and the records and pure functions the windows may take from
the engine (:mod:`.records`, :mod:`.calculations`). Nothing else in ``app.gui`` imports the
engine, the store, the models or the media code (the import contract in ``pyproject.toml``)."""

from app.gui.facade.core import LANES, GuiThreadViolation, LibraryFactory, ThreadGuard
from app.gui.facade.engine_facade import EngineFacade

__all__ = ["LANES", "EngineFacade", "GuiThreadViolation", "LibraryFactory", "ThreadGuard"]
