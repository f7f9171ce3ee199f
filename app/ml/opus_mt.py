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

from app.errors import Code, ModelError
from app.media.naming import normalise_language
from app.ml.catalogue import ARGOS, CatalogueEntry, load_catalogue
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
        codes = str(meta["from_code"]).strip(), str(meta["to_code"]).strip()
    except (OSError, ValueError, KeyError, TypeError):
        return None
    manifest = read_manifest(folder.parent.parent, folder.name)
    if manifest is None or not all(codes):
        return None
    source, target = normalise_language(codes[0]), normalise_language(codes[1])
    return OpusPackage(folder.name, source, target, folder, manifest.identity)


def installed_translators(data_dir: Path | str) -> list[OpusPackage]:
    """Every finished OPUS-MT install in the data dir, by name."""
    root = models_dir(data_dir)
    if not root.is_dir():
        return []
    # A name with a leading dot is an install under way (app.ml.argos_install's staging folder).
    found = [_package(folder) for folder in sorted(root.iterdir()) if folder.is_dir() and not folder.name.startswith(".")]
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
    """The directions to install so that ``source`` reaches ``target``: the hops through English that are not
    there yet (de→zh with de→en installed: only en→zh), since OPUS-MT packages pair with English."""
    source, target = normalise_language(source), normalise_language(target)
    if route(packages, source, target) is not None:
        return []
    if PIVOT in (source, target):
        return [(source, target)]
    have = {(p.source, p.target) for p in packages}
    return [hop for hop in ((source, PIVOT), (PIVOT, target)) if hop not in have]


def translators_identity(packages: list[OpusPackage]) -> str:
    """One string that changes when a package is installed, removed or replaced (the translate stage's fingerprint)."""
    return ",".join(f"{p.source}-{p.target}:{p.identity}" for p in sorted(packages, key=lambda p: (p.source, p.target)))


@dataclass(frozen=True)
class TranslatorOffer:
    """The exact downloads a translation needs, as the first-run page, a job row, ``add`` and ``doctor`` offer them."""

    source: str | None  # None before transcription: the speech's language is not known yet
    target: str
    entries: tuple[CatalogueEntry, ...]
    unlisted: tuple[tuple[str, str], ...] = ()  # directions the catalogue has no package for

    def words(self) -> str:
        """"translate-en-de (en→de, 84 MB)"; several joined by " and "."""
        parts = [f"{e.name} ({'→'.join(e.pair or ('?', '?'))}, {_size_words(e.size)})" for e in self.entries]
        parts += [f"{a}→{b} (no package in the catalogue)" for a, b in self.unlisted]
        return " and ".join(parts)

    def command(self) -> str:
        return "sidecar models install " + " && sidecar models install ".join(e.name for e in self.entries)


def _size_words(size: int | None) -> str:
    return f"{size / 1e6:.0f} MB" if size else "size shown once downloading"


def translator_offer(data_dir: Path | str, target: str | None, source: str | None = None) -> TranslatorOffer | None:
    """What to install so that ``source`` speech (unknown: English, through which every other pair goes) reaches
    ``target``; None when nothing is missing. The catalogue's package for each missing direction is named."""
    target = normalise_language(target)
    if not target:
        return None
    source = normalise_language(source) if source else None
    packages = installed_translators(data_dir)
    if source is None:
        if target == PIVOT:
            return None  # every language's own X→en package: the item that needs one names it
        hops = [] if any(p.source == PIVOT and p.target == target for p in packages) else [(PIVOT, target)]
    else:
        hops = missing_hops(packages, source, target)
    if not hops:
        return None
    catalogue = [e for e in load_catalogue().values() if e.format == ARGOS]
    by_pair = {e.pair: e for e in catalogue}
    return TranslatorOffer(source, target, tuple(by_pair[h] for h in hops if h in by_pair),
                           tuple(h for h in hops if h not in by_pair))


def translator_note(data_dir: Path | str, target: str | None, endpoint: str = "") -> str | None:
    """What ``doctor`` and ``sidecar add`` say when new jobs' translations would wait for a package; else None.

    Nothing when a translation server is set or the person chose an LLM (the translate stage
    uses those instead, in that order), or when the package is installed.
    """
    from app.ml.model_choice import active_model

    if endpoint.strip():
        return None
    try:
        if active_model(data_dir, "translation") is not None:
            return None
    except ModelError:
        return None
    offer = translator_offer(data_dir, target)
    if offer is None:
        return None
    return (f"translation to {offer.target} needs {offer.words()}: run `{offer.command()}` (or Settings → Models). "
            f"Until then each video gets its transcript and waits for it ({Code.WAITING_FOR_TRANSLATOR.value}); "
            f"speech in another language than English also needs its own →en package, which that item names.")
