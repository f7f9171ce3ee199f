"""Which OPUS-MT (Marian) translators are installed, and the route from one language to another (SPEC §20).

An installed package is a folder of the model manager, ``<data dir>/models/<name>/``, holding
an Argos Translate package unpacked: ``metadata.json`` (``from_code``, ``to_code``),
``sentencepiece.model`` and ``model/`` (CTranslate2). Like every model there it counts only
once its manifest is written, after everything else: a half-installed package is never seen.

No package is chosen by hand: a job translating German to English uses the de→en package
when it is installed, and de→en then en→zh for German to Chinese when there is no de→zh
(a pivot through English, the language every OPUS-MT direction has). The check judges the
final line against the source line either way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from app.media.naming import normalise_language
from app.ml.model_state import MANIFEST, models_dir, read_manifest

#: The language every package pairs with: a route with no direct package goes through it.
PIVOT = "en"


@dataclass(frozen=True)
class OpusPackage:
    """One installed translation direction."""

    name: str
    source: str
    target: str
    folder: Path
    identity: str  # changes whenever a file of the package does (the manifest's)

    @property
    def pair(self) -> str:
        return f"{self.source}→{self.target}"


def _package(folder: Path) -> OpusPackage | None:
    """The package in ``folder``, or None when it is not a finished Argos install."""
    if not (folder / MANIFEST).is_file() or not (folder / "model").is_dir():
        return None
    try:
        meta = json.loads((folder / "metadata.json").read_text("utf-8"))
        source, target = normalise_language(str(meta["from_code"])), normalise_language(str(meta["to_code"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    manifest = read_manifest(folder.parent.parent, folder.name)
    if manifest is None or not source or not target:
        return None
    return OpusPackage(folder.name, source, target, folder, manifest.identity)


def installed_translators(data_dir: Path | str) -> list[OpusPackage]:
    """Every finished OPUS-MT install in the data dir, by name."""
    root = models_dir(data_dir)
    if not root.is_dir():
        return []
    found = [_package(folder) for folder in sorted(root.iterdir()) if folder.is_dir()]
    return [p for p in found if p is not None]


def route(packages: list[OpusPackage], source: str | None, target: str | None) -> list[OpusPackage] | None:
    """The packages that take ``source`` to ``target``: the direct one, else two through English; None if none."""
    source, target = normalise_language(source), normalise_language(target)
    by_pair = {(p.source, p.target): p for p in packages}
    if (source, target) in by_pair:
        return [by_pair[(source, target)]]
    first, second = by_pair.get((source, PIVOT)), by_pair.get((PIVOT, target))
    if first is not None and second is not None:
        return [first, second]
    return None


def missing_hops(packages: list[OpusPackage], source: str | None, target: str | None) -> list[tuple[str, str]]:
    """The directions to install so that ``source`` reaches ``target``: the direct one when nothing helps, else
    the one hop through English that is not there yet (de→zh with de→en installed: only en→zh)."""
    source, target = normalise_language(source), normalise_language(target)
    if route(packages, source, target) is not None:
        return []
    have = {(p.source, p.target) for p in packages}
    if PIVOT in (source, target):
        return [(source, target)]
    hops = [(source, PIVOT), (PIVOT, target)]
    wanting = [hop for hop in hops if hop not in have]
    return wanting if len(wanting) == 1 else [(source, target)]


def translators_identity(packages: list[OpusPackage]) -> str:
    """One string that changes when a package is installed, removed or replaced (the translate stage's fingerprint)."""
    return ",".join(f"{p.source}-{p.target}:{p.identity}" for p in sorted(packages, key=lambda p: (p.source, p.target)))
