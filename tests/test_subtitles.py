"""SRT and bilingual ASS load in pysubs2 and FFmpeg; speech text is never markup (SPEC §7)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pysubs2
import pytest

from app.media.cues import Cue, build_cues, display_width
from app.media.subtitles import (
    ORIGINAL_STYLE,
    escape_text,
    render_bilingual_ass,
    render_srt,
    render_translation_srt,
    render_translation_vtt,
    render_vtt,
)

CUES = [
    Cue(0, 2500, "Hello there."),
    Cue(2500, 5000, "Use {\\an8}braces{\\b1} and\nback\\slashes \\N here."),
    Cue(6000, 8000, "C:\\new\\folder"),
]
TRANSLATIONS = ["你好。", "用{\\i1}括号和反斜杠\\h。", "C:\\新建\\文件夹"]


def _ffmpeg_reads(path: Path, events: int) -> None:
    """FFmpeg decodes every event without a complaint (``-f null`` after a full decode/encode)."""
    proc = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-map", "0", "-c:s", "ass", "-f", "null", "-"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0 and not proc.stderr.strip(), proc.stderr
    proc = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-map", "0", "-c:s", "ass", "-f", "ass", "-"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert sum(line.startswith("Dialogue:") for line in proc.stdout.splitlines()) == events


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_transcript_srt_loads_in_pysubs2_and_ffmpeg_with_exact_timings(tmp_path: Path) -> None:
    path = _write(tmp_path, "movie.en.srt", render_srt(CUES))
    subs = pysubs2.load(str(path), encoding="utf-8")
    assert [(e.start, e.end) for e in subs] == [(c.start_ms, c.end_ms) for c in CUES]
    assert subs[0].plaintext == "Hello there."
    _ffmpeg_reads(path, len(CUES))


def test_speech_braces_and_backslashes_are_never_tags_in_srt(tmp_path: Path) -> None:
    data = render_srt(CUES).decode("utf-8")
    assert "{" not in data and "\\" not in data
    subs = pysubs2.load(str(_write(tmp_path, "x.srt", data.encode())), encoding="utf-8")
    # Every character the speaker "said" survives as visible text, nothing became a tag or break.
    assert subs[1].plaintext == "Use ｛＼an8｝braces｛＼b1｝ and\nback＼slashes ＼N here."
    assert subs[2].plaintext == "C:＼new＼folder"


def test_translation_srt_keeps_cue_count_and_timings(tmp_path: Path) -> None:
    path = _write(tmp_path, "movie.zh.srt", render_translation_srt(CUES, TRANSLATIONS))
    subs = pysubs2.load(str(path), encoding="utf-8")
    assert len(subs) == len(CUES)
    assert [(e.start, e.end) for e in subs] == [(c.start_ms, c.end_ms) for c in CUES]
    assert subs[0].plaintext == "你好。"
    _ffmpeg_reads(path, len(CUES))


def test_translation_count_mismatch_is_refused() -> None:
    with pytest.raises(ValueError):
        render_translation_srt(CUES, TRANSLATIONS[:2])
    with pytest.raises(ValueError):
        render_bilingual_ass(CUES, TRANSLATIONS + ["extra"])


def test_bilingual_ass_has_translation_on_top_and_original_below(tmp_path: Path) -> None:
    path = _write(tmp_path, "movie.zh.ass", render_bilingual_ass(CUES, TRANSLATIONS))
    subs = pysubs2.load(str(path), encoding="utf-8")
    assert len(subs) == len(CUES)
    assert [(e.start // 10, e.end // 10) for e in subs] == [(c.start_ms // 10, c.end_ms // 10) for c in CUES]
    assert ORIGINAL_STYLE in subs.styles
    assert "CJK" in subs.styles["Default"].fontname
    assert subs.styles[ORIGINAL_STYLE].fontsize < subs.styles["Default"].fontsize
    first = subs[0].text
    assert first == "你好。\\N{\\rOriginal}Hello there."
    # The only override block in each event is ours: speech braces are inert.
    for event in subs:
        assert event.text.count("{") == event.text.count("}") <= 1
    assert subs[1].plaintext.split("\n")[0] == "用｛＼i1｝括号和反斜杠＼h。"
    _ffmpeg_reads(path, len(CUES))


def test_a_cue_whose_translation_fell_back_is_shown_once() -> None:
    data = render_bilingual_ass([Cue(0, 1000, "Untranslated")], ["Untranslated"]).decode()
    assert data.count("Untranslated") == 1


def test_escape_text_only_touches_markup_characters() -> None:
    assert escape_text("a{b}c\\d") == "a｛b｝c＼d"
    assert escape_text("line one\nline two") == "line one\\Nline two"
    assert escape_text("plain 文字 text") == "plain 文字 text"


def test_cjk_translation_is_wrapped_by_display_width(tmp_path: Path) -> None:
    text = "这是一个很长的中文翻译句子，用来检查字幕是否按照显示宽度正确换行而不是按照字符数量。"
    cues = build_cues([{"start": 0.0, "end": 5.0, "text": "A long English sentence to translate."}], duration_s=6)
    subs = pysubs2.load(str(_write(tmp_path, "w.srt", render_translation_srt(cues, [text]))), encoding="utf-8")
    # 44 characters need three lines of Chinese's 16: two cues of at most two lines on the source's time.
    cue_lines = [event.plaintext.split("\n") for event in subs]
    assert len(cue_lines) == 2 and all(len(lines) <= 2 for lines in cue_lines)
    assert all(display_width(line) <= 42 for lines in cue_lines for line in lines)
    assert "".join(line for lines in cue_lines for line in lines) == text


def test_webvtt_loads_in_pysubs2_and_ffmpeg_with_exact_timings(tmp_path: Path) -> None:
    cues = [*CUES, Cue(9000, 3_725_250, "a < b & c --> d\n<i>not italic</i>")]
    path = _write(tmp_path, "movie.en.vtt", render_vtt(cues))
    text = path.read_text(encoding="utf-8")
    assert text.startswith("WEBVTT\n\n") and "01:02:05.250" in text
    assert "<i>" not in text and "--> d" not in text  # speech is never a tag nor a timing line
    subs = pysubs2.load(str(path), encoding="utf-8")
    assert [(e.start, e.end) for e in subs] == [(c.start_ms, c.end_ms) for c in cues]
    _ffmpeg_reads(path, len(cues))
    proc = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "srt", "-"], capture_output=True, text=True)
    assert "a < b & c --> d" in proc.stdout  # the entities read back as the speech's characters


def test_translation_webvtt_is_rebroken_to_the_target_and_keeps_timings(tmp_path: Path) -> None:
    text = "这是一个很长的中文翻译句子，用来检查字幕是否按照每行换行。"
    path = _write(tmp_path, "movie.zh.vtt", render_translation_vtt([Cue(0, 6000, "A long sentence.")], [text], "zh"))
    subs = pysubs2.load(str(path), encoding="utf-8")
    lines = subs[0].plaintext.split("\n")
    assert (subs[0].start, subs[0].end) == (0, 6000) and len(lines) == 2 and all(len(line) <= 16 for line in lines)
