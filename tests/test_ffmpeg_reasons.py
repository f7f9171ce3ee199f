"""FFmpeg's raw error numbers never reach people: a file it cannot read is explained in words."""

from __future__ import annotations

from pathlib import Path

import av
import pytest

from app.errors import MediaError
from app.media.audio import extract_audio
from app.media.audio_streams import audio_streams
from app.media.ffmpeg_reasons import REASONS, ffmpeg_reason


def test_a_file_that_is_not_media_is_explained_without_errno(tmp_path: Path) -> None:
    fake = tmp_path / "Film.mkv"
    fake.write_text("not a video at all\n" * 50)
    with pytest.raises(av.error.InvalidDataError) as raw:
        av.open(str(fake))
    assert "Errno" in str(raw.value)  # what PyAV says …
    assert ffmpeg_reason(raw.value) == REASONS["InvalidDataError"]  # … and what a person reads
    for read in (lambda: extract_audio(fake, tmp_path / "out.f32"), lambda: audio_streams(fake)):
        with pytest.raises(MediaError) as failed:
            read()
        assert failed.value.code == "corrupt_media"
        assert "Errno" not in failed.value.message and "not a video or audio file" in failed.value.message


def test_an_error_of_another_kind_keeps_ffmpegs_words_without_the_number() -> None:
    assert ffmpeg_reason(av.error.UndefinedError(-12345, "Something odd happened")) == "Something odd happened"
