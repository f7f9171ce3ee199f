"""The GUI's one door to the engine: the facade whose calls run off the GUI thread, and
the records and pure functions the windows may take from the engine (:mod:`.records`,
:mod:`.calculations`). Nothing else in ``app.gui`` imports the engine, the store, the
models or the media code (the import contract in ``pyproject.toml``)."""

from app.gui.facade.engine_facade import LANES, EngineFacade, GuiThreadViolation, LibraryFactory, ThreadGuard, job_options

__all__ = ["LANES", "EngineFacade", "GuiThreadViolation", "LibraryFactory", "ThreadGuard", "job_options"]
