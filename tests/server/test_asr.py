"""``/asr`` and ``/detect-language`` with real Whisper (the bundled base model) on a real recording, over real HTTP.

The clip is John F. Kennedy's "ask not" (tests/data/real_speech). What comes back must
be the subtitle itself with its content type, in each format whisper-asr-webservice
writes; the upload and the request's job are gone once the answer is sent, and a client
that hangs up mid-transcription leaves no job, no running stage and no upload behind.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
import uuid
from pathlib import Path
from typing import Iterator

import pysubs2
import pytest
import requests

from app.store.states import StageState
from app.store.tables import stages
from tests.server.serving import JFK, Served, serving


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("serve") / "data") as s:
        yield s


def pcm(path: Path) -> bytes:
    """What Bazarr's provider sends with encode=false: 16 kHz mono s16le from ffmpeg."""
    return subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-f", "s16le", "-acodec", "pcm_s16le",
                           "-ac", "1", "-ar", "16000", "-"], check=True, capture_output=True).stdout


def words(text: str) -> list[str]:
    return "".join(c.lower() if c.isalpha() else " " for c in text).split()


def assert_gone(served: Served) -> None:
    """No upload, no request job and no running stage once a request is over."""
    assert served.uploads_left() == []
    assert [j for j in served.library.status() if j.options.get("request")] == []
    with served.library.store.db.read() as conn:
        assert conn.execute(stages.select().where(stages.c.status == StageState.RUNNING)).first() is None


def test_asr_answers_the_subtitle_of_a_real_recording(served: Served) -> None:
    with open(JFK, "rb") as fh:
        r = requests.post(f"{served.url}/asr", params={"task": "transcribe", "output": "srt", "encode": "true"},
                          files={"audio_file": ("jfk.opus", fh)}, timeout=300)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-subrip")
    subs = pysubs2.SSAFile.from_string(r.text, format_="srt")
    heard = words(" ".join(e.plaintext for e in subs.events))
    assert heard.count("country") == 2 and "americans" in heard and "ask" in heard
    assert subs.events[0].start >= 0 and subs.events[-1].end <= 11_100
    assert_gone(served)


@pytest.mark.parametrize("output", ["vtt", "txt", "json", "tsv"])
def test_asr_writes_each_format(served: Served, output: str) -> None:
    r = requests.post(f"{served.url}/asr", params={"output": output, "encode": "false", "language": "en"},
                      files={"audio_file": ("jfk", pcm(JFK))}, timeout=300)
    assert r.status_code == 200, r.text
    if output == "json":
        body = r.json()
        assert body["language"] == "en" and body["segments"] and "country" in words(body["text"])
        assert all(s["end"] > s["start"] for s in body["segments"])
    elif output == "vtt":
        assert r.text.startswith("WEBVTT") and "-->" in r.text and "country" in words(r.text)
    elif output == "tsv":
        rows = r.text.splitlines()
        assert rows[0] == "start\tend\ttext" and all(len(row.split("\t")) == 3 for row in rows[1:])
        assert int(rows[1].split("\t")[1]) > int(rows[1].split("\t")[0])
    else:
        assert "-->" not in r.text and "country" in words(r.text)
    assert_gone(served)


def test_detect_language_answers_as_whisper_asr_webservice(served: Served) -> None:
    r = requests.post(f"{served.url}/detect-language", params={"encode": "false", "video_file": "jfk.mkv"},
                      files={"audio_file": pcm(JFK)}, timeout=300)
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["detected_language"], body["language_code"]) == ("english", "en")
    assert 0.5 < body["confidence"] <= 1.0
    assert_gone(served)


def test_a_client_that_hangs_up_mid_transcription_leaves_nothing_behind(served: Served) -> None:
    boundary = uuid.uuid4().hex
    audio = pcm(JFK) + pcm(JFK)  # a new recording: nothing cached, so Whisper runs when the client leaves
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"audio_file\"; filename=\"a\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n").encode() + audio + f"\r\n--{boundary}--\r\n".encode()
    port = int(served.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall((f"POST /asr?encode=false&output=srt HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n"
                      f"Content-Type: multipart/form-data; boundary={boundary}\r\n\r\n").encode() + body)
        deadline = time.time() + 60
        while time.time() < deadline:  # the request's job is queued and its work has begun
            if [j for j in served.library.status() if j.options.get("request")]:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the request never became a job")
        time.sleep(1.0)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            assert_gone(served)
            break
        except AssertionError:
            time.sleep(0.2)
    assert_gone(served)


def test_status_answers_the_version_bazarr_shows(served: Served) -> None:
    r = requests.get(f"{served.url}/status", timeout=10)
    assert r.status_code == 200 and json.loads(r.text)["version"].startswith("Sidecar ")


def test_translate_of_english_speech_is_its_english_transcript(served: Served) -> None:
    """Bazarr asks ``task=translate`` when the audio is not the subtitle's language; English speech needs no translation."""
    r = requests.post(f"{served.url}/asr", params={"task": "translate", "language": "en", "output": "srt", "encode": "false"},
                      files={"audio_file": pcm(JFK)}, timeout=300)
    assert r.status_code == 200, r.text
    assert words(r.text).count("country") == 2
    assert_gone(served)
