"""Installing an Argos Translate package (``.argosmodel``): checked whole, unpacked, then renamed into place.

A package is a zip of one top folder holding ``metadata.json`` (``from_code``,
``to_code``), ``sentencepiece.model`` and ``model/`` (CTranslate2), plus Argos' sentence
splitter (``stanza/``), which cue translation does not use and is left out. It comes from
the catalogue's download or from a file the person has (``sidecar models install --from``,
for a machine without internet).

Nothing of a bad package reaches the models folder: the zip is read and checked first
(every name inside the top folder, sizes within :data:`MAX_UNPACKED` and
:data:`MAX_RATIO`, CRCs, the files a translator needs, the direction it names), unpacked
into a temporary folder beside the models, given its manifest, and only then renamed to
``<data dir>/models/<name>/`` in one step. A package with the direction of a catalogue
entry whose sha256 is known must have that sha256.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from app.atomic_write import fsync_dir
from app.errors import Code, ModelError
from app.media.naming import normalise_language
from app.ml.catalogue import ARGOS, CatalogueEntry, load_catalogue
from app.ml.downloads import checked_sha256
from app.ml.model_state import MANIFEST, InstalledFile, Manifest, install_dir, install_lock, models_dir, write_json_atomic

#: Largest unpacked package accepted (the biggest OPUS-MT packages unpack to ~300 MB).
MAX_UNPACKED = 2 * 1024**3
#: A member that unpacks to more than this many times its packed size is a zip bomb (model weights pack ~1.1x).
MAX_RATIO = 200
#: What a translator reads; anything else but README/metadata is left out.
NEEDED = ("metadata.json", "sentencepiece.model", "model/model.bin")
_KEPT = ("metadata.json", "sentencepiece.model", "README.md", "model/")
_GGUF_MAGIC = b"GGUF"


class PackageRefused(ModelError):
    """A package that cannot be installed, with the one line that says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code=Code.BAD_PACKAGE)


@dataclass(frozen=True)
class PackageFacts:
    """What a checked package says of itself."""

    top: str
    source: str
    target: str
    members: tuple[zipfile.ZipInfo, ...]  # the members to unpack (under ``top``, not left out)


def read_package(path: Path) -> PackageFacts:
    """Check a package without unpacking it; :class:`PackageRefused` names the first problem."""
    try:
        with path.open("rb") as f:
            head = f.read(4)
    except OSError as exc:
        raise PackageRefused(f"cannot read {path}: {exc.strerror or exc}") from exc
    if head == _GGUF_MAGIC:
        raise PackageRefused(f"{path.name} is a GGUF language model, not a translation package (.argosmodel)")
    if not zipfile.is_zipfile(path):
        raise PackageRefused(f"{path.name} is not a translation package: not a zip file (truncated or another format)")
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            facts = _facts(path, infos)
            broken = archive.testzip()
            if broken is not None:
                raise PackageRefused(f"{path.name} is damaged: {broken} does not match its checksum")
            meta = json.loads(archive.read(f"{facts.top}/metadata.json").decode("utf-8"))
    except (zipfile.BadZipFile, EOFError, OSError) as exc:
        raise PackageRefused(f"{path.name} is damaged or truncated: {exc}") from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise PackageRefused(f"{path.name}: metadata.json is not valid JSON") from exc
    codes = [str(meta.get(key) or "") if isinstance(meta, dict) else "" for key in ("from_code", "to_code")]
    source, target = (normalise_language(code) if code.strip() else "" for code in codes)
    if not source or not target or source == target:
        raise PackageRefused(f"{path.name}: metadata.json names no translation direction (from_code, to_code)")
    return PackageFacts(facts.top, source, target, facts.members)


def _facts(path: Path, infos: list[zipfile.ZipInfo]) -> PackageFacts:
    tops = set()
    total = 0
    for info in infos:
        name = PurePosixPath(info.filename)
        if info.filename.startswith("/") or "\\" in info.filename or ".." in name.parts or ":" in name.parts[0]:
            raise PackageRefused(f"{path.name} is refused: {info.filename!r} would be written outside its folder")
        if info.external_attr >> 16 & 0o170000 == 0o120000:
            raise PackageRefused(f"{path.name} is refused: {info.filename!r} is a symbolic link")
        tops.add(name.parts[0])
        total += info.file_size
        if info.file_size > 1024**2 and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise PackageRefused(f"{path.name} is refused: {info.filename!r} unpacks {info.file_size // info.compress_size}x "
                                 "its packed size (a zip bomb)")
    if total > MAX_UNPACKED:
        raise PackageRefused(f"{path.name} is refused: it unpacks to {total // 2**20} MB, more than any translation package")
    if len(tops) != 1:
        raise PackageRefused(f"{path.name} is not a translation package: it holds {len(tops)} top folders, not one")
    top = tops.pop()
    names = {info.filename for info in infos}
    missing = [need for need in NEEDED if f"{top}/{need}" not in names]
    if missing:
        raise PackageRefused(f"{path.name} is not a translation package: {', '.join(missing)} missing")
    kept = tuple(i for i in infos if not i.is_dir() and i.filename[len(top) + 1:].startswith(_KEPT))
    return PackageFacts(top, "", "", kept)


def catalogue_entry_for(source: str, target: str) -> CatalogueEntry | None:
    """The catalogue's package for a direction, if it lists one."""
    return next((e for e in load_catalogue().values() if e.format == ARGOS and e.pair == (source, target)), None)


def install_package(data_dir: Path | str, path: Path, expected: CatalogueEntry | None = None,
                    sha256: str | None = None, locked: bool = False) -> dict[str, object]:
    """Install the package at ``path``; returns what ``models install`` prints. Refused packages change nothing.

    ``expected`` is the catalogue entry a download was for (its direction must match);
    from a file, the entry is found by the direction the package names. ``sha256`` is the
    package's when the caller already verified it (a download); ``locked``: the caller holds the model's
    install lock (a download does, from its first byte).
    """
    facts = read_package(path)
    entry = expected or catalogue_entry_for(facts.source, facts.target)
    if expected is not None and expected.pair != (facts.source, facts.target):
        raise PackageRefused(f"{path.name} translates {facts.source}→{facts.target}, not "
                             f"{expected.pair[0] if expected.pair else '?'}→{expected.pair[1] if expected.pair else '?'}")
    digest = sha256 or checked_sha256(path)
    known = entry.files[0].sha256 if entry is not None and entry.files else None
    if known and digest != known:
        raise PackageRefused(f"{path.name} is refused: its sha256 {digest[:12]}… is not the catalogue's {known[:12]}… "
                             f"for {facts.source}→{facts.target}")
    name = entry.name if entry is not None else f"translate-{facts.source}-{facts.target}"
    if locked:
        _into_place(data_dir, name, path, facts)
    else:
        with install_lock(data_dir, name):
            _into_place(data_dir, name, path, facts)
    return {"name": name, "pair": f"{facts.source}→{facts.target}", "sha256": digest,
            "verified": bool(known), "path": str(install_dir(data_dir, name))}


def _into_place(data_dir: Path | str, name: str, path: Path, facts: PackageFacts) -> None:
    """Unpack beside the models, write the manifest, rename into place (the caller holds the install lock)."""
    root = models_dir(data_dir)
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=root))
    try:
        files = _unpack(path, facts, staging)
        manifest = Manifest(name, files, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        write_json_atomic(staging / MANIFEST, manifest.to_json())
        final = install_dir(data_dir, name)
        if final.exists():  # a reinstall: the old one stops counting first, then goes
            (final / MANIFEST).unlink(missing_ok=True)
            shutil.rmtree(final)
        staging.rename(final)
        fsync_dir(root)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _unpack(path: Path, facts: PackageFacts, staging: Path) -> dict[str, InstalledFile]:
    """Unpack the kept members under ``staging`` (sizes re-checked as written); returns the manifest's files."""
    files: dict[str, InstalledFile] = {}
    with zipfile.ZipFile(path) as archive:
        for info in facts.members:
            relative = info.filename[len(facts.top) + 1:]
            dest = staging / relative
            dest.parent.mkdir(parents=True, exist_ok=True)
            written = 0
            with archive.open(info) as src, dest.open("wb") as out:
                for block in iter(lambda: src.read(1 << 20), b""):
                    written += len(block)
                    if written > info.file_size:
                        raise PackageRefused(f"{path.name} is refused: {info.filename!r} unpacks past its stated size")
                    out.write(block)
            files[relative] = InstalledFile(checked_sha256(dest), written)
    return files
