"""What a job freezes when it is created, as one typed record: one field per option, one default each.

A stage reads ``ctx.options.speakers``, not ``options.get("speakers") or "off"``: mypy checks the
name and the type, and the default is written once, here, instead of at every reader.

Every setting declared ``output_affecting`` in :mod:`app.settings` is frozen into each job, so that
a later change of Settings changes new jobs only. Its field takes the setting's name, and its
default is the declaration's (:func:`_frozen_setting`): Settings and jobs cannot disagree on it
(``target_lang`` had two). tests/test_job_options.py fails when an output-affecting setting has no
field, so a new one cannot be forgotten. The job's own options (its kind, ``redo``, an audio
track, the models it froze…) are declared below them.

A job keeps its options as a JSON object (``jobs.options``; an item's own choices, such as the
queue's audio track, in ``items.options``, merged over its job's). :meth:`JobOptions.stored` writes
the same object Sidecar always wrote, and :meth:`JobOptions.from_stored` reads every shape written
before: a missing key takes its default, an unknown one (a newer Sidecar's) is ignored, and a value
its setting does not take falls back to the default, as a bad value in settings.json does. Stage
fingerprints are computed from these fields, so the same options give the same fingerprints and
cached results stay valid.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from app.engine.kinds import ALL
from app.errors import Code, SidecarError
from app.media import glossary
from app.media.glossary import GlossaryEntry
from app.settings import LEFT_OUT_BY_DEFAULT, OUTPUT_AFFECTING, SPECS, Settings

SETTING = "setting"
"""Field metadata: the setting a field is frozen from."""
_FROZEN = "frozen"  # field metadata: how the setting's value becomes the field's (the glossary's lines are parsed)
_STORED = "stored"  # field metadata: False for an option that never leaves the process (the scan's rule)
_WHEN_SET = "when_set"  # field metadata: written only when it differs from its default, as it always was


def _plain(value: Any) -> Any:
    return value


def _frozen_setting(name: str, frozen: Callable[[Any], Any] = _plain, *, when_set: bool = False) -> Any:
    """A field frozen from setting ``name``: its default is the setting's declared one, through ``frozen``."""
    return field(default=frozen(SPECS[name].default),
                 metadata={SETTING: name, _FROZEN: frozen, _WHEN_SET: when_set})


def _own(default: Any = None, *, factory: Callable[[], Any] | None = None, when_set: bool = False,
         stored: bool = True) -> Any:
    """A field of the job's own (not a setting)."""
    metadata = {_WHEN_SET: when_set, _STORED: stored}
    return field(default_factory=factory, metadata=metadata) if factory else field(default=default, metadata=metadata)


def _audio_track_read(value: Any) -> int | None:
    return int(value) if value else None  # 0 (the queue's "choose by rule") is no track


_WRITTEN: dict[str, Callable[[Any], Any]] = {"glossary": glossary.to_option, "models": dict}
"""How a field whose value is not plain JSON is written; the others are written as they are."""
_READ: dict[str, Callable[[Any], Any]] = {"glossary": glossary.from_option, "audio_track": _audio_track_read, "models": dict}
"""How such a field is read back (ValueError or TypeError: the stored value is not one, and the default is used)."""


@dataclass(frozen=True, kw_only=True)
class JobOptions:
    """What a job freezes at creation: later settings changes affect new jobs only."""

    # -- frozen from the output-affecting settings (app.settings), in their order there --
    source_lang: str = _frozen_setting("source_lang")
    target_lang: str = _frozen_setting("target_lang")
    naming: str = _frozen_setting("naming")
    existing_policy: str = _frozen_setting("existing_policy")
    image_sidecar_json: bool = _frozen_setting("image_sidecar_json")
    embedded_subtitles: bool = _frozen_setting("embedded_subtitles")
    subtitle_profile: str = _frozen_setting("subtitle_profile")
    custom_line_chars: int = _frozen_setting("custom_line_chars")
    custom_cps: int = _frozen_setting("custom_cps")
    webvtt: bool = _frozen_setting("webvtt")
    keep_sound_tags: bool = _frozen_setting("keep_sound_tags")
    speakers: str = _frozen_setting("speakers")
    translation_endpoint: str = _frozen_setting("translation_endpoint")
    translation_endpoint_model: str = _frozen_setting("translation_endpoint_model")
    # The settings' lines parsed, with the job's own terms over them; stored only when there are any, so a
    # job without one plans (and fingerprints) as jobs did before glossaries existed.
    glossary: tuple[GlossaryEntry, ...] = _frozen_setting("glossary", glossary.parse_lines, when_set=True)

    # -- the job's own --
    kind: str = _own(ALL)  # the media kinds it takes (``--kind``)
    top_level: bool = _own(False)  # the folder's own files only
    # Process files again even when they are already subtitled (``add --redo``, the editor's Re-translate);
    # files the person edited in Sidecar then go to Review.
    redo: bool = _own(False, when_set=True)
    # The audio track to subtitle in every video (``add --audio-track N``, the queue's menu), counted from 1;
    # None: each file's is chosen by rule.
    audio_track: int | None = _own(None, when_set=True)
    # The model chosen for each role when the job was added (app.ml.model_choice.frozen_models), so a later
    # ``models use`` changes new jobs only; a role it does not name takes the current choice.
    models: Mapping[str, Any] = _own(factory=dict, when_set=True)
    request: bool = _own(False, when_set=True)  # one file a client of ``sidecar serve`` handed in and waits on
    # The scan's rule (Settings.scan_ignore): counted in the scan report, never read by a stage, not stored.
    left_out: tuple[str, ...] = _own(LEFT_OUT_BY_DEFAULT, stored=False)

    @classmethod
    def from_settings(cls, settings: Settings, kind: str = ALL, top_level: bool = False, redo: bool = False, *,
                      audio_track: int | None = None, glossary_entries: Sequence[GlossaryEntry] = (),
                      **overrides: Any) -> JobOptions:
        """What a new job freezes from the person's settings (CLI, GUI and watched folders alike).

        ``glossary_entries`` (``--glossary``, ``--glossary-file``, the add flow's field) join the
        library-wide glossary in the settings, the job's own rendering of a term winning.
        ``overrides`` are ``sidecar add``'s setting flags by setting name (None: not given); a name
        that is no output-affecting setting is refused (``invalid_argument``), not silently stored.
        """
        unknown = sorted(set(overrides) - set(OUTPUT_AFFECTING))
        if unknown:
            raise SidecarError(f"no job option is frozen from {', '.join(unknown)}", code=Code.INVALID_ARGUMENT)
        frozen = {f.name: f.metadata[_FROZEN](overrides[f.name] if overrides.get(f.name) is not None
                                              else getattr(settings, f.name))
                  for f in _SETTING_FIELDS}
        frozen["glossary"] = glossary.merged(frozen["glossary"], glossary_entries)
        return cls(**frozen, kind=kind, top_level=top_level, redo=redo, audio_track=audio_track or None,
                   left_out=tuple(settings.scan_ignore))

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> JobOptions:
        """The options a job's (or an item's merged) stored JSON object holds; see the module's words on old shapes."""
        return cls().with_overrides(stored, strict=False)

    def with_overrides(self, overrides: Mapping[str, Any], *, strict: bool = True) -> JobOptions:
        """These options with ``overrides`` (stored form, by option name) over them: an item's own choices.

        ``strict``: a name that is no stored option is refused (``invalid_argument``): it comes from
        outside (the queue's menu, a command), and stored it would change nothing but the row.
        """
        if strict and (unknown := sorted(set(overrides) - set(_STORED_FIELDS))):
            raise SidecarError(f"no job option is called {', '.join(unknown)}", code=Code.INVALID_ARGUMENT)
        changes = {name: value for name, f in _STORED_FIELDS.items()
                   if name in overrides and (value := _read(f, overrides[name])) is not _BAD}
        return dataclasses.replace(self, **changes)

    def stored(self) -> dict[str, Any]:
        """The JSON object a job keeps (``jobs.options``, a watch's options), in the shape Sidecar always wrote."""
        out: dict[str, Any] = {}
        for name, f in _STORED_FIELDS.items():
            value = getattr(self, name)
            if f.metadata[_WHEN_SET] and value == _default(f):
                continue
            out[name] = _WRITTEN.get(name, _plain)(value)
        return out


_BAD = object()


def _default(f: dataclasses.Field[Any]) -> Any:
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default


def _read(f: dataclasses.Field[Any], value: Any) -> Any:
    """A stored value as the field's, or :data:`_BAD` when it is not one (the field keeps its value)."""
    name = f.metadata.get(SETTING)
    if name is not None and name not in _READ:
        return value if SPECS[name].check(value) else _BAD
    try:
        return _READ.get(f.name, _plain)(value)
    except (TypeError, ValueError):
        return _BAD


_SETTING_FIELDS = tuple(f for f in dataclasses.fields(JobOptions) if SETTING in f.metadata)
_STORED_FIELDS = {f.name: f for f in dataclasses.fields(JobOptions) if f.metadata.get(_STORED, True)}


__all__ = ["SETTING", "JobOptions"]
