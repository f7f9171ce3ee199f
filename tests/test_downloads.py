"""Model downloads: resumable, verified, and never half-written — against a local server."""

from __future__ import annotations

import hashlib
import json
import os
import socket
from pathlib import Path

import pytest

from app.errors import ModelError
from app.ml import local_models, model_choice, model_install, model_state
from app.ml.downloads import ChecksumMismatch, DownloadCancelled, DownloadFailed, download, part_path

try:
    from tests.model_server import ModelServer
except ImportError:  # pragma: no cover - depends on how pytest was started
    from model_server import ModelServer  # type: ignore[no-redef]

SIZE = 3 * 1024 * 1024 + 12345


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def payload() -> bytes:
    return os.urandom(SIZE)


@pytest.fixture
def server(payload: bytes):
    srv = ModelServer({"/model.bin": payload}).start()
    yield srv
    srv.stop()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_progress_is_monotonic_and_reaches_total(tmp_path: Path, server: ModelServer, payload: bytes) -> None:
    seen: list[tuple[int, int | None]] = []
    dest = tmp_path / "model.bin"
    digest = download(server.url("/model.bin"), dest, sha(payload), lambda d, t: seen.append((d, t)))
    assert digest == sha(payload)
    assert dest.read_bytes() == payload
    done = [d for d, _ in seen]
    assert done == sorted(done)
    assert seen[-1] == (SIZE, SIZE)
    assert all(t == SIZE for _, t in seen)
    assert leftovers(tmp_path) == ["model.bin"]


def test_interrupted_download_resumes_with_range_without_resending(
    tmp_path: Path, server: ModelServer, payload: bytes
) -> None:
    dest = tmp_path / "model.bin"
    cut = 1_000_000
    server.cut_next = cut
    with pytest.raises(DownloadFailed) as failure:
        download(server.url("/model.bin"), dest, sha(payload), None, retries=0)
    assert failure.value.code == "download_failed" and failure.value.transient
    assert not dest.exists()
    assert part_path(dest).stat().st_size == cut

    seen: list[int] = []
    download(server.url("/model.bin"), dest, sha(payload), lambda d, t: seen.append(d))
    assert dest.read_bytes() == payload
    first, second = server.requests
    assert "Range" not in first.headers
    assert second.headers["Range"] == f"bytes={cut}-"
    assert second.status == 206 and second.sent == SIZE - cut  # nothing re-sent from byte 0
    assert seen[0] == cut and seen[-1] == SIZE
    assert leftovers(tmp_path) == ["model.bin"]


def test_broken_connection_is_retried_within_one_call(tmp_path: Path, server: ModelServer, payload: bytes) -> None:
    server.cut_next = 500_000
    dest = tmp_path / "model.bin"
    download(server.url("/model.bin"), dest, sha(payload), None, retries=2, backoff_s=0)
    assert dest.read_bytes() == payload
    assert [r.headers.get("Range") for r in server.requests] == [None, "bytes=500000-"]


def test_server_ignoring_range_restarts_from_zero(tmp_path: Path, server: ModelServer, payload: bytes) -> None:
    dest = tmp_path / "model.bin"
    server.cut_next = 700_000
    with pytest.raises(DownloadFailed):
        download(server.url("/model.bin"), dest, sha(payload), None, retries=0)
    server.ignore_range = True
    seen: list[int] = []
    download(server.url("/model.bin"), dest, sha(payload), lambda d, t: seen.append(d))
    assert dest.read_bytes() == payload  # not the first 700 kB twice
    assert server.requests[1].status == 200 and server.requests[1].sent == SIZE
    assert seen == sorted(seen)  # progress never goes backwards, even on a restart


def test_wrong_sha256_is_rejected_and_nothing_half_written_is_left(
    tmp_path: Path, server: ModelServer, payload: bytes
) -> None:
    dest = tmp_path / "model.bin"
    with pytest.raises(ChecksumMismatch) as failure:
        download(server.url("/model.bin"), dest, "0" * 64, None)
    assert failure.value.code == "checksum_mismatch"
    assert leftovers(tmp_path) == []  # no target, no .part, no validator file


def test_cancel_stops_keeps_the_part_and_a_later_call_resumes(
    tmp_path: Path, server: ModelServer, payload: bytes
) -> None:
    dest = tmp_path / "model.bin"
    state = {"done": 0}

    def progress(done: int, total: int | None) -> None:
        state["done"] = done

    with pytest.raises(DownloadCancelled) as failure:
        download(server.url("/model.bin"), dest, sha(payload), progress, cancel=lambda: state["done"] >= 1_000_000)
    assert failure.value.code == "download_cancelled"
    assert not dest.exists()
    kept = part_path(dest).stat().st_size
    assert kept >= 1_000_000
    download(server.url("/model.bin"), dest, sha(payload), None)
    assert dest.read_bytes() == payload
    assert server.requests[-1].headers["Range"] == f"bytes={kept}-"


def test_missing_file_fails_at_once_with_download_failed(tmp_path: Path, server: ModelServer) -> None:
    with pytest.raises(DownloadFailed) as failure:
        download(server.url("/nope.bin"), tmp_path / "x", None, None)
    assert failure.value.code == "download_failed" and not failure.value.transient
    assert len(server.requests) == 1


def test_unknown_checksum_is_returned_for_pinning(tmp_path: Path, server: ModelServer, payload: bytes) -> None:
    assert download(server.url("/model.bin"), tmp_path / "m", None, None) == sha(payload)


def test_only_http_urls_are_fetched(tmp_path: Path) -> None:
    with pytest.raises(DownloadFailed):
        download(f"file://{tmp_path}/x", tmp_path / "y", None, None)


# --------------------------------------------------------------------------- install through the catalogue


@pytest.fixture
def local_catalogue(tmp_path: Path, server: ModelServer, payload: bytes, monkeypatch: pytest.MonkeyPatch) -> dict:
    config = json.dumps({"model_type": "whisper"}).encode()
    server.files["/config.json"] = config
    server.files["/tokenizer.json"] = b"{}"
    server.files["/vocabulary.txt"] = b"a\nb\n"
    resources = tmp_path / "resources"
    resources.mkdir()
    files = [
        {"path": "model.bin", "url": server.url("/model.bin"), "size": SIZE, "sha256": None},
        {"path": "config.json", "url": server.url("/config.json"), "size": len(config), "sha256": sha(config)},
        {"path": "tokenizer.json", "url": server.url("/tokenizer.json"), "size": 2, "sha256": None},
        {"path": "vocabulary.txt", "url": server.url("/vocabulary.txt"), "size": 4, "sha256": None},
    ]
    data = {
        "version": 1,
        "models": [
            {"name": "whisper-test", "role": "asr", "format": "ctranslate2-folder", "url": "", "size": SIZE,
             "sha256": None, "licence": "MIT", "memory_mb": 100, "description": "test", "files": files},
            {"name": "bundled-base", "role": "asr", "format": "ctranslate2-folder", "bundled": ["json"],
             "url": "", "size": 1, "sha256": None, "licence": "MIT", "memory_mb": 1, "description": "stdlib as a bundle"},
        ],
    }
    (resources / "models.json").write_text(json.dumps(data))
    monkeypatch.setenv("SIDECAR_RESOURCES", str(resources))
    return data


def test_install_downloads_every_file_pins_unknown_checksums_and_can_be_used(
    tmp_path: Path, local_catalogue: dict, payload: bytes
) -> None:
    data = tmp_path / "data"
    seen: list[tuple[int, int | None]] = []
    row = model_install.models_install(data, "whisper-test", lambda d, t: seen.append((d, t)))
    assert row["installed"] and not row["active"]
    folder = Path(row["path"])
    assert (folder / "model.bin").read_bytes() == payload
    done = [d for d, _ in seen]
    assert done == sorted(done) and seen[-1][0] == seen[-1][1]
    pins = model_state.read_state(data).pinned["whisper-test"]
    assert pins["model.bin"] == sha(payload) and "config.json" not in pins  # known checksums need no pin

    model_choice.models_use(data, "whisper-test")
    active = model_choice.active_model(data, "asr")
    assert active.path == str(folder) and active.source == "download"
    assert active.identity.startswith("sha256:")


def test_reinstall_after_remove_is_checked_against_the_pinned_checksum(
    tmp_path: Path, local_catalogue: dict, server: ModelServer
) -> None:
    data = tmp_path / "data"
    model_install.models_install(data, "whisper-test")
    model_choice.models_use(data, "whisper-test")
    removed = model_install.models_remove(data, "whisper-test")
    assert removed["removed"] == "deleted" and not Path(removed["path"]).exists()
    assert model_choice.active_model(data, "asr") is None  # back to the bundled default
    server.files["/model.bin"] = os.urandom(SIZE)  # the remote file changed under the same URL
    with pytest.raises(ChecksumMismatch):
        model_install.models_install(data, "whisper-test")
    row = next(r for r in model_choice.models_list(data) if r["name"] == "whisper-test")
    assert not row["installed"]
    assert not (model_state.install_dir(data, "whisper-test") / "model.bin").exists()
    assert not list(model_state.install_dir(data, "whisper-test").glob("*.part"))


def test_interrupted_install_resumes_and_is_listed_as_partial(
    tmp_path: Path, local_catalogue: dict, server: ModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    server.cut_next = 800_000
    with monkeypatch.context() as patch:
        patch.setattr("app.ml.model_install.download", _no_retry_download)
        with pytest.raises(DownloadFailed):
            model_install.models_install(data, "whisper-test")
    row = next(r for r in model_choice.models_list(data) if r["name"] == "whisper-test")
    assert not row["installed"] and row["partial_download"]
    model_install.models_install(data, "whisper-test")
    assert server.requests[1].headers.get("Range") == "bytes=800000-"


def _no_retry_download(*args, **kwargs):
    return download(*args, retries=0, **kwargs)


def test_nothing_but_install_opens_a_connection(
    tmp_path: Path, local_catalogue: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("network access outside install")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    data = tmp_path / "data"
    model_choice.models_list(data)
    folder = _whisper_folder(tmp_path / "mine")
    local_models.models_register(data, folder, "asr", "mine")
    model_choice.models_use(data, "mine")
    model_choice.active_model(data, "asr")
    model_install.models_remove(data, "mine")


# --------------------------------------------------------------------------- local models


def _whisper_folder(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "model.bin").write_bytes(b"\0" * 1024)
    (folder / "config.json").write_text("{}")
    (folder / "tokenizer.json").write_text("{}")
    (folder / "vocabulary.txt").write_text("a\n")
    return folder


def test_local_folder_registration_points_at_the_folder_and_never_deletes_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    folder = _whisper_folder(tmp_path / "my whisper")
    row = local_models.models_register(data, folder, "asr", "my-whisper")
    assert row["source"] == "local" and row["installed"] and row["path"] == str(folder.resolve())
    model_choice.models_use(data, "my-whisper")
    assert model_choice.active_model(data, "asr").path == str(folder.resolve())
    assert model_install.models_remove(data, "my-whisper")["removed"] == "unregistered"
    assert (folder / "model.bin").exists()
    assert model_choice.active_model(data, "asr") is None


@pytest.mark.parametrize(
    "role, make, code",
    [
        ("asr", lambda p: p.mkdir(), "invalid_model"),  # empty folder: no model.bin
        ("asr", lambda p: (p.mkdir(), (p / "model.bin").write_bytes(b"x")), "invalid_model"),  # no config.json
        ("asr", lambda p: p.write_bytes(b"GGUF...."), "invalid_model"),  # a file, not a folder
        ("translation", lambda p: p.write_bytes(b"PK\x03\x04 not gguf"), "invalid_model"),
        ("translation", lambda p: p.mkdir(), "invalid_model"),
        ("visual", lambda p: (p.mkdir(), (p / "image.onnx").write_bytes(b"x")), "invalid_model"),  # no text.onnx
        ("asr", lambda p: None, "model_path_missing"),
        ("poetry", lambda p: p.mkdir(), "unknown_role"),
    ],
)
def test_invalid_local_models_are_refused_with_a_clear_code(tmp_path: Path, role, make, code) -> None:
    target = tmp_path / "candidate"
    make(target)
    with pytest.raises(ModelError) as failure:
        local_models.models_register(tmp_path / "data", target, role, "candidate")
    assert failure.value.code == code
    assert str(target) in failure.value.message or code == "unknown_role"
    assert model_state.read_state(tmp_path / "data").registered == {}


def test_valid_gguf_and_clip_pair_register(tmp_path: Path) -> None:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 100)
    clip = tmp_path / "clip"
    clip.mkdir()
    (clip / "image.onnx").write_bytes(b"x")
    (clip / "text.onnx").write_bytes(b"y")
    data = tmp_path / "data"
    assert local_models.models_register(data, gguf, "translation")["format"] == "gguf"
    assert local_models.models_register(data, clip, "visual", "clip-mine")["format"] == "onnx-folder"
    model_choice.models_use(data, "model")  # default name from the file stem
    assert model_choice.active_model(data, "translation").path == str(gguf.resolve())
