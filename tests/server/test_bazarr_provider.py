"""Bazarr's ``whisperai`` provider against ``sidecar serve``: its ffmpeg step, ``/detect-language``, then ``/asr``.

The clip is a real recording (JFK, tests/data/real_speech) muxed into a video with no
language tag on its audio, so the provider must ask ``/detect-language`` before ``/asr``,
as it does for such files. The subtitle it keeps must be one Bazarr accepts: an SRT
that parses into cues of what was said.

``test_the_real_provider`` runs Bazarr's own file (tests/server/bazarr_provider.py says
where it comes from); a machine without it skips that test. ``test_its_requests`` always
runs: the same three steps written out here, with the provider's exact ffmpeg arguments,
query parameters and multipart field (checked against the real file, commit d6e7773a),
so CI keeps the contract without Bazarr's GPL code.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Iterator

import pysubs2
import pytest
import requests

from tests.server.bazarr_provider import Language, Movie, load_provider, provider_file
from tests.server.serving import JFK, Served, serving


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("bazarr") / "data") as s:
        yield s


@pytest.fixture(scope="module")
def episode(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A video whose audio track has no language: Bazarr then asks the server which language it is."""
    path = tmp_path_factory.mktemp("tv") / "Speeches S01E01.mkv"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=black:s=160x90:r=5:d=11",
                    "-i", str(JFK), "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-c:a", "aac", "-shortest",
                    str(path)], check=True)
    return path


def accepted(content: bytes | None) -> list[str]:
    """What Bazarr keeps: the body as an SRT that parses into cues; their words."""
    assert content, "Bazarr would keep nothing"
    subs = pysubs2.SSAFile.from_string(content.decode("utf-8"), format_="srt")
    assert subs.events and all(e.end > e.start for e in subs.events)
    return "".join(c.lower() if c.isalpha() else " " for c in " ".join(e.plaintext for e in subs.events)).split()


def test_the_real_provider(served: Served, episode: Path) -> None:
    path = provider_file()
    if path is None:
        pytest.skip("Bazarr's whisperai.py is not on this machine (see tests/server/bazarr_provider.py); "
                    "test_its_requests covers its requests")
    whisperai = load_provider(path)
    provider = whisperai.WhisperAIProvider(endpoint=served.url + "/", response=5, timeout=600, ffmpeg_path="ffmpeg",
                                           pass_video_name=True, loglevel="DEBUG")
    provider.initialize()
    try:
        english = Language("eng")
        (subtitle,) = provider.list_subtitles(Movie(episode, set()), [english])  # asks /detect-language
        assert subtitle.task == "transcribe" and subtitle.audio_language == "eng"
        provider.download_subtitle(subtitle)  # asks /asr
    finally:
        provider.terminate()
    heard = accepted(subtitle.content)
    assert heard.count("country") == 2 and "americans" in heard
    assert served.uploads_left() == []


def test_its_requests(served: Served, episode: Path) -> None:
    # The command ffmpeg-python compiles from the provider's encode_audio_stream (one audio track: an empty -map, trailing)
    audio = subprocess.run(["ffmpeg", "-nostdin", "-threads", "0", "-i", str(episode), "-f", "s16le", "-ac", "1",
                            "-acodec", "pcm_s16le", "-af", "aresample=async=1", "-ar", "16000", "-", "-map", ""],
                           check=True, capture_output=True).stdout
    session = requests.Session()
    session.headers["User-Agent"] = "Subliminal/2.1"
    r = session.post(f"{served.url}/detect-language", params={"encode": "false", "video_file": {str(episode)}},
                     files={"audio_file": audio}, timeout=(5, 600))
    detected = r.json()
    assert r.status_code == 200 and (detected["language_code"], detected["detected_language"]) == ("en", "english")
    r = session.post(f"{served.url}/asr", params={"task": "transcribe", "language": "en", "output": "srt", "encode": "false",
                                                  "video_file": {str(episode)}}, files={"audio_file": audio}, timeout=(5, 600))
    assert r.status_code == 200
    heard = accepted(r.content)
    assert heard.count("country") == 2 and "americans" in heard
