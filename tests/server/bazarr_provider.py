"""Bazarr's ``whisperai`` provider, its real source, loaded as Bazarr would run it (not committed: GPL-3.0, Bazarr's).

The file is ``custom_libs/subliminal_patch/providers/whisperai.py`` of morpheus65535/bazarr
(last changed in commit d6e7773a, sha256 below). No package registry ships it, so it is not
fetched by the test set-up: a developer puts it at ``$SIDECAR_BAZARR_WHISPERAI`` or in the
test cache as ``bazarr/whisperai.py`` (from a Bazarr checkout or release). Its imports of
Bazarr's framework (subliminal, subliminal_patch, subzero) get the few names it uses; its
own libraries (requests, ffmpeg-python, pycountry, babelfish) are the real ones.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import types
from pathlib import Path
from typing import Any

import babelfish

from tests.opus_mt import test_cache

WHISPERAI_SHA256 = "412568ebf6e135040ba87ce88fb413090cd9e11443bdf96518ec120e790cc4a5"


def provider_file() -> Path | None:
    """The verified real provider file, or None where this machine has none."""
    path = Path(os.environ.get("SIDECAR_BAZARR_WHISPERAI") or test_cache() / "bazarr" / "whisperai.py")
    if not path.is_file():
        return None
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != WHISPERAI_SHA256:
        raise AssertionError(f"{path} is not Bazarr's whisperai.py this test was written against (sha256 {digest})")
    return path


class Video:
    """subliminal's Video, as much as the provider reads."""

    def __init__(self, path: Path, audio_languages: set[str]):
        self.original_path = str(path)
        self.original_name = path.name
        self.audio_languages = audio_languages


class Movie(Video):
    pass


class Episode(Video):
    pass


class Subtitle:
    """subliminal_patch's Subtitle, as much as the provider sets."""

    def __init__(self, language: Any):
        self.language = language
        self.content: bytes | None = None
        self.release_info = ""


class Language(babelfish.Language):  # subzero's Language is babelfish's with Bazarr's extras the provider does not use
    pass


def load_provider(path: Path) -> types.ModuleType:
    shims = {
        "subliminal": {"__short_version__": "2.1"},
        "subliminal.exceptions": {"ConfigurationError": type("ConfigurationError", (Exception,), {})},
        "subliminal.video": {"Episode": Episode, "Movie": Movie},
        "subliminal_patch": {},
        "subliminal_patch.subtitle": {"Subtitle": Subtitle},
        "subliminal_patch.providers": {"Provider": object},
        "subzero": {},
        "subzero.language": {"Language": Language},
    }
    for name, attrs in shims.items():
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        sys.modules[name] = module
    spec = importlib.util.spec_from_file_location("bazarr_whisperai", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
