"""Subtitle names are read as languages by media servers and mark the video as subtitled (SPEC §1.3, §5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.media.naming import (
    MAX_NAME_BYTES,
    example_names,
    is_already_subtitled,
    normalise_language,
    safe_stem,
    subtitle_language,
    subtitle_names,
)


def _counts_as_subtitled(stem: str, name: str) -> bool:
    """SPEC §1.3, as the scanner applies it."""
    if len(stem) == 1:
        return name.lower().startswith(stem.lower() + ".")
    return stem.lower() in name.lower()


def test_media_server_preset_uses_lower_case_iso_codes_before_the_extension() -> None:
    names = subtitle_names("Movie", "ja", "zh")
    assert names.all() == ["Movie.ja.srt", "Movie.zh.srt", "Movie.zh.ass"]


def test_compat_preset_matches_existing_libraries() -> None:
    assert subtitle_names("Movie", "ja", "zh", "compat").all() == ["Movie.JA.srt", "Movie.CN.srt", "Movie.CN_dual_eye.ass"]
    assert subtitle_names("Movie", "en", "de", "compat").all() == ["Movie.EN.srt", "Movie.DE.srt", "Movie.DE_dual_eye.ass"]


def test_no_translation_when_source_equals_target() -> None:
    names = subtitle_names("Movie", "en", "EN")
    assert names.all() == ["Movie.en.srt"]
    assert names.translation is None and names.bilingual is None


def test_region_tags_and_odd_codes_are_normalised() -> None:
    assert subtitle_names("Movie", "EN", "zh-CN").all() == ["Movie.en.srt", "Movie.zh.srt", "Movie.zh.ass"]
    assert normalise_language("../etc") == "und"
    assert normalise_language(None) == "und"
    assert normalise_language("haw") == "haw"


def test_example_names_for_the_settings_page() -> None:
    assert example_names("media-server") == ["Movie.ja.srt", "Movie.zh.srt", "Movie.zh.ass"]
    assert example_names("compat")[-1] == "Movie.CN_dual_eye.ass"


def test_unknown_preset_is_rejected() -> None:
    with pytest.raises(ValueError):
        subtitle_names("Movie", "en", "zh", "plex-only")


@pytest.mark.parametrize("stem", ["Movie", "a", "My Holiday 2023 (final)", "東京物語", "Ünïcødé ✨ clip", "...", "x.y.z"])
def test_every_name_satisfies_the_already_subtitled_rule(stem: str) -> None:
    for preset in ("media-server", "compat"):
        for name in subtitle_names(stem, "en", "zh", preset).all():
            assert _counts_as_subtitled(stem, name), (stem, name)
            assert name.startswith(stem + ".")


@pytest.mark.parametrize("stem", ["Movie", "a", "x.y.z", "Film.fr", "東京物語"])
def test_every_name_tells_its_own_language_to_the_already_subtitled_rule(stem: str) -> None:
    for preset in ("media-server", "compat"):
        names = subtitle_names(stem, "ja", "zh", preset)
        assert subtitle_language(stem, names.transcript) == "ja", (preset, names)
        assert subtitle_language(stem, str(names.translation)) == subtitle_language(stem, str(names.bilingual)) == "zh"
        assert is_already_subtitled(Path(stem + ".mkv"), names.all(), "zh") is not None
        assert is_already_subtitled(Path(stem + ".mkv"), names.all(), "fr") is None


def test_one_character_stem_does_not_collide_with_longer_names() -> None:
    names = subtitle_names("a", "en", "zh").all()
    assert all(n.startswith("a.") for n in names)
    assert not _counts_as_subtitled("a", "apple.en.srt")


@pytest.mark.parametrize("stem", ["../../etc/passwd", "a/b", "a\\b", "evil\x00name", "..", "/"])
def test_media_names_can_never_produce_separators_or_traversal(stem: str) -> None:
    for preset in ("media-server", "compat"):
        for name in subtitle_names(stem, "en", "zh", preset).all():
            assert "/" not in name and "\\" not in name and "\x00" not in name
            assert name not in (".", "..")
    assert safe_stem("a/b\\c") == "a_b_c"


def test_very_long_names_fit_the_file_system_limit() -> None:
    stem = "字" * 120  # 360 bytes in UTF-8
    for name in subtitle_names(stem, "ja", "zh", "compat").all():
        assert len(name.encode("utf-8")) <= MAX_NAME_BYTES
        assert name.encode("utf-8").decode("utf-8") == name  # cut at a character boundary
        assert name.endswith((".srt", ".ass"))
