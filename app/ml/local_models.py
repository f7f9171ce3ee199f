"""Models the person already has: checked per role, then registered (Sidecar never copies or deletes them).

A registration is only accepted when the file or folder holds what the role's runtime
opens, so a wrong path fails at ``models register`` with ``invalid_model`` instead of
at the first job. Only roles whose model can be chosen take registrations
(:data:`app.ml.catalogue.SELECTABLE_ROLES`).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from app.errors import Code, ModelError
from app.ml.catalogue import check_role, is_valid_name, load_catalogue
from app.ml.model_choice import model_row, require_selectable
from app.ml.model_state import ModelState, Registration, update_state

MEMORY_OVERHEAD_MB = 300
"""Added to 1.3× the files' size when the person gives no memory estimate: runtime buffers and activations."""


def _invalid(path: Path, why: str) -> ModelError:
    return ModelError(f"{path} is not usable: {why}", code=Code.INVALID_MODEL)


def _need_folder_with(path: Path, names: list[str]) -> None:
    if not path.is_dir():
        raise _invalid(path, f"expected a folder holding {', '.join(names)}")
    missing = [n for n in names if not (path / n).is_file() or (path / n).stat().st_size == 0]
    if missing:
        raise _invalid(path, f"the folder lacks {', '.join(missing)}")


def _whisper_folder(path: Path) -> str:
    _need_folder_with(path, ["model.bin", "config.json", "tokenizer.json"])
    if not any((path / v).is_file() for v in ("vocabulary.txt", "vocabulary.json")):
        raise _invalid(path, "the folder lacks vocabulary.txt or vocabulary.json")
    try:
        json.loads((path / "config.json").read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise _invalid(path, f"config.json is not JSON ({exc})") from exc
    return "ctranslate2-folder"


def _gguf_file(path: Path) -> str:
    if path.is_dir():
        raise _invalid(path, "expected a .gguf file, not a folder")
    with open(path, "rb") as handle:
        if handle.read(4) != b"GGUF":
            raise _invalid(path, "not a GGUF file (it does not start with 'GGUF')")
    return "gguf"


def _clip_folder(path: Path) -> str:
    _need_folder_with(path, ["image.onnx", "text.onnx"])
    return "onnx-folder"


_VALIDATORS = {"asr": _whisper_folder, "translation": _gguf_file, "visual": _clip_folder}


def validate_local(path: Path, role: str) -> str:
    """Check that ``path`` holds a model for ``role``; return its format or raise ``invalid_model``."""
    check_role(role)
    require_selectable(role)
    if not path.exists():
        raise ModelError(f"{path} does not exist", code=Code.MODEL_PATH_MISSING)
    return _VALIDATORS[role](path)


def _estimate_memory_mb(path: Path) -> int:
    size = path.stat().st_size if path.is_file() else sum(p.stat().st_size for p in path.iterdir() if p.is_file())
    return int(size / 2**20 * 1.3) + MEMORY_OVERHEAD_MB


def models_register(
    data_dir: Path | str, path: Path | str, role: str, name: str | None = None, *, memory_mb: int | None = None
) -> dict[str, Any]:
    """Register a model file or folder the person already has, after checking it holds what ``role`` needs."""
    path = Path(path).expanduser().resolve()
    fmt = validate_local(path, role)
    if name is None:
        stem = path.stem if path.is_file() else path.name
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-._")[:64] or f"local-{role}"
    if not is_valid_name(name):
        raise ModelError(
            f"{name!r} is not a valid model name (letters, digits, '.', '_', '-'; at most 64)",
            code=Code.INVALID_MODEL_NAME,
        )
    if name in load_catalogue():
        raise ModelError(f"{name!r} is a catalogue model; choose another name", code=Code.MODEL_NAME_TAKEN)
    registration = Registration(
        role=role, format=fmt, path=path, size=path.stat().st_size if path.is_file() else None,
        memory_mb=memory_mb if memory_mb is not None else _estimate_memory_mb(path),
        registered_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    )

    def change(state: ModelState) -> ModelState:
        current = state.registered.get(name)
        if current is not None and current.path != path:
            raise ModelError(f"a model named {name!r} is already registered for {current.path}", code=Code.MODEL_NAME_TAKEN)
        return state.registering(name, registration)

    update_state(data_dir, change)
    return model_row(data_dir, name)
