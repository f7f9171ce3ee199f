"""Every bad request to ``sidecar serve`` gets its own status and code in a JSON body, never a 200, and leaves no upload.

Bazarr saves the body of any 200 as the subtitle, so an error must never be one. The
server here has a 1 MB upload limit and, for the token tests, a token; the engine is
not started (each refusal comes before any work is queued).
"""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests

from app.server.access import check_binding
from app.errors import SidecarError
from app.settings import Settings
from tests.server.serving import JFK, Served, serving

TOKEN = "s3cret-token"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("bad") / "data", Settings(target_lang="en", serve_upload_limit_mb=1),
                 start_engine=False) as s:
        yield s


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("guarded") / "data", token=TOKEN, start_engine=False) as s:
        yield s


def refused(r: requests.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert body["error"] == code and body["message"]


def post(served: Served, path: str = "/asr", **kw: Any) -> requests.Response:
    return requests.post(served.url + path, timeout=60, **kw)


def test_no_file(served: Served) -> None:
    refused(post(served, files={"something_else": b"abc"}), 400, "no_file")
    refused(post(served, data=b"raw body", headers={"content-type": "application/octet-stream"}), 400, "no_file")
    refused(post(served, "/detect-language", files={"audio": b"abc"}), 400, "no_file")
    assert served.uploads_left() == []


def test_empty_file(served: Served) -> None:
    refused(post(served, params={"encode": "false"}, files={"audio_file": b""}), 400, "empty_upload")
    refused(post(served, files={"audio_file": ("a.mp3", b"")}), 400, "empty_upload")
    assert served.uploads_left() == []


def test_not_audio(served: Served, tmp_path: Path) -> None:
    refused(post(served, files={"audio_file": ("notes.mp3", b"this is a text file, not audio\n" * 20)}), 415, "not_audio")
    refused(post(served, params={"encode": "false"}, files={"audio_file": b"\x00\x01\x02"}), 415, "not_audio")  # odd PCM
    assert served.uploads_left() == []


def test_unknown_output(served: Served) -> None:
    with open(JFK, "rb") as fh:
        refused(post(served, params={"output": "docx"}, files={"audio_file": fh}), 400, "unknown_output")
    refused(post(served, params={"task": "summarise"}, files={"audio_file": b"ab"}), 400, "invalid_argument")
    refused(post(served, params={"language": "english; rm"}, files={"audio_file": b"ab"}), 400, "invalid_argument")
    assert served.uploads_left() == []


def test_too_large_by_its_length_and_by_what_arrives(served: Served) -> None:
    big = b"\x00\x01" * (600 * 1024)  # 1.2 MB over a 1 MB limit
    refused(post(served, params={"encode": "false"}, files={"audio_file": big}), 413, "upload_too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is counted as the body streams in
        yield b"--b\r\nContent-Disposition: form-data; name=\"audio_file\"; filename=\"a\"\r\n\r\n"
        for _ in range(20):
            yield b"\x00\x01" * 64 * 1024
        yield b"\r\n--b--\r\n"

    refused(post(served, params={"encode": "false"}, data=chunks(),
                 headers={"content-type": "multipart/form-data; boundary=b"}), 413, "upload_too_large")
    assert served.uploads_left() == []


def test_a_client_that_hangs_up_mid_upload_leaves_no_file(served: Served) -> None:
    port = int(served.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"POST /asr?encode=false HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\n"
                     b"Content-Type: multipart/form-data; boundary=b\r\n\r\n"
                     b"--b\r\nContent-Disposition: form-data; name=\"audio_file\"; filename=\"a\"\r\n\r\n" + b"\x00" * 300_000)
        deadline = time.time() + 10
        while not served.uploads_left() and time.time() < deadline:  # the upload is being written
            time.sleep(0.02)
        assert served.uploads_left()
    deadline = time.time() + 10
    while served.uploads_left() and time.time() < deadline:
        time.sleep(0.05)
    assert served.uploads_left() == []


def test_a_wrong_or_missing_token(guarded: Served) -> None:
    refused(post(guarded, files={"audio_file": b"ab"}), 401, "unauthorized")
    refused(post(guarded, files={"audio_file": b"ab"}, headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    refused(post(guarded, "/webhook/jellyfin", json={}), 401, "unauthorized")
    # the right token, in each place a client may put it, gets past the door (to the next refusal: no file)
    refused(post(guarded, files={"x": b"ab"}, headers={"Authorization": f"Bearer {TOKEN}"}), 400, "no_file")
    refused(post(guarded, files={"x": b"ab"}, auth=("sidecar", TOKEN)), 400, "no_file")
    refused(post(guarded, params={"token": TOKEN}, files={"x": b"ab"}), 400, "no_file")
    in_url = guarded.url.replace("http://", f"http://sidecar:{TOKEN}@")  # Bazarr's endpoint field: requests sends it as basic auth
    refused(requests.post(in_url + "/asr", files={"x": b"ab"}, timeout=60), 400, "no_file")
    assert requests.get(guarded.url + "/status", timeout=10).status_code == 200  # Bazarr's test sends no token


def test_beyond_loopback_needs_a_token() -> None:
    with pytest.raises(SidecarError) as caught:
        check_binding("0.0.0.0", "")
    assert caught.value.code == "unauthorized"
    check_binding("0.0.0.0", TOKEN)
    check_binding("127.0.0.1", "")
    check_binding("::1", "")


def test_the_settings_file_holding_tokens_is_the_owners_alone(served: Served) -> None:
    assert (served.data_dir / "settings.json").stat().st_mode & 0o077 == 0


def test_sidecar_serve_refuses_to_listen_beyond_loopback_without_a_token(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    assert main(["serve", "--host", "0.0.0.0", "--data-dir", str(tmp_path / "data")]) == 2
    assert "(unauthorized)" in capsys.readouterr().err
