"""Models: the list the Settings and editor show, installs (cancellable, with progress), the one in use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.errors import Code, SidecarError
from app.gui.facade.core import FacadeCore
from app.gui.operations import Op, OperationCancelled
from app.ml.model_choice import model_rows, models_use


class ModelsFacade(QObject):
    """Every call answers on the ``modelsListed`` / ``modelProgress`` / ``modelInstallEnded`` signals."""

    modelsListed = Signal(list)  # list[ModelRow]
    modelProgress = Signal(str, int, int)  # model name, bytes done, bytes in all (0: unknown)
    modelInstallEnded = Signal(str, str, str)  # model name, "" when installed else the error code (download_failed…), why

    def __init__(self, core: FacadeCore):
        super().__init__(core)
        self._core = core

    def list_models(self) -> None:
        self._core.run(Op(lambda _: model_rows(self._core.data_dir), self.modelsListed.emit, lane="slow", key="models"))

    def install_model(self, name: str) -> None:
        """Download ``name`` with ``modelProgress``; :meth:`cancel_install` stops it (the part file stays for a resume)."""
        from app.ml.model_install import models_install

        def failed(exc: BaseException) -> None:
            code = exc.code if isinstance(exc, SidecarError) else ""
            if code == OperationCancelled.code:
                code = Code.DOWNLOAD_CANCELLED
            if code != Code.DOWNLOAD_CANCELLED:
                self._core.report(exc)
                code = code or Code.INTERNAL_ERROR
            self._ended(name, code, exc.message if isinstance(exc, SidecarError) else str(exc))

        self._core.run(Op(lambda op: models_install(self._core.data_dir, name, op.report, op),
                          lambda _: self._ended(name, "", ""), failed, lane="downloads", key=f"install:{name}",
                          progress=lambda done, total: self.modelProgress.emit(name, done, total)))

    def install_model_file(self, path: str) -> None:
        """Install a translation package from a file (no network); ``modelInstallEnded`` names it, or says why not."""
        from app.ml.model_install import install_from_file

        def installed(result: dict[str, Any]) -> None:
            self._ended(str(result.get("name")), "", "")

        def failed(exc: BaseException) -> None:
            code = (exc.code or Code.INTERNAL_ERROR) if isinstance(exc, SidecarError) else Code.INTERNAL_ERROR
            self._ended(Path(path).name, code, exc.message if isinstance(exc, SidecarError) else str(exc))

        self._core.run(Op(lambda _: install_from_file(self._core.data_dir, Path(path)), installed, failed,
                          lane="downloads", key=f"install-file:{path}"))

    def _ended(self, name: str, code: str, why: str) -> None:
        self.modelInstallEnded.emit(name, code, why)
        self.list_models()

    def installing(self, name: str) -> bool:
        return self._core.ops.current(f"install:{name}") is not None

    def cancel_install(self, name: str) -> bool:
        """Ask a running install of ``name`` to stop at its next chunk; False when none runs."""
        return self._core.ops.cancel(f"install:{name}")

    def use_model(self, name: str) -> None:
        self._core.run(Op(lambda _: models_use(self._core.data_dir, name), lambda _: self.list_models(), lane="slow"))

    def remove_model(self, name: str) -> None:
        from app.ml.model_install import models_remove

        self._core.run(Op(lambda _: models_remove(self._core.data_dir, name), lambda _: self.list_models(), lane="slow"))


__all__ = ["ModelsFacade"]
