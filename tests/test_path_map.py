"""`--path-map LIBRARY=LOCAL`: whole components only, longest prefix wins, both flavours, both directions."""

from __future__ import annotations

import pytest

from app.engine.path_map import PathMap, parse_mapping
from app.errors import InvalidPathMap


def test_posix_library_onto_windows_drive_maps_both_ways() -> None:
    m = PathMap.parse([r"/mnt/nas/media=D:\Media"])
    assert m.to_local("/mnt/nas/media/Films/Heat (1995)/Heat.mkv") == r"D:\Media\Films\Heat (1995)\Heat.mkv"
    assert m.to_library(r"D:\Media\Films\Heat (1995)\Heat.en.srt") == "/mnt/nas/media/Films/Heat (1995)/Heat.en.srt"


def test_a_prefix_covers_whole_components_only() -> None:
    m = PathMap.parse(["/mnt/nas/media=/srv/media"])
    assert m.to_local("/mnt/nas/media2/a.mkv") is None
    assert m.to_local("/mnt/nas/mediaX") is None
    assert m.to_local("/mnt/nas/media") == "/srv/media"
    assert m.to_local("/mnt/nas/media/a.mkv") == "/srv/media/a.mkv"
    assert m.to_library("/srv/media-old/a.srt") is None


def test_the_longest_prefix_wins_in_either_order() -> None:
    for specs in (["/lib=/a", "/lib/tv=/b"], ["/lib/tv=/b", "/lib=/a"]):
        m = PathMap.parse(specs)
        assert m.to_local("/lib/tv/show/e1.mkv") == "/b/show/e1.mkv"
        assert m.to_local("/lib/films/x.mkv") == "/a/films/x.mkv"
        assert m.to_local("/lib/tvx/e1.mkv") == "/a/tvx/e1.mkv"


@pytest.mark.parametrize("spec", ["/mnt/nas/media/=/srv/media/", "/mnt/nas/media//=/srv/media",
                                  "/mnt//nas/media=/srv//media//"])
def test_trailing_and_doubled_separators_do_not_matter(spec: str) -> None:
    m = PathMap.parse([spec])
    assert m.to_local("/mnt/nas/media/a/b.mkv") == "/srv/media/a/b.mkv"
    assert m.to_library("/srv/media/a/b.srt") == "/mnt/nas/media/a/b.srt"


def test_windows_prefixes_ignore_case_and_accept_either_slash() -> None:
    m = PathMap.parse([r"D:\Media\=/mnt/media"])
    assert m.to_local(r"d:/media/Films/x.mkv") == "/mnt/media/Films/x.mkv"
    assert m.to_local(r"D:\MEDIA\x.mkv") == "/mnt/media/x.mkv"
    assert m.to_local(r"D:\Media2\x.mkv") is None
    assert m.to_library("/mnt/media/Films/x.srt") == r"D:\Media\Films\x.srt"
    assert m.to_library("/mnt/Media/x.srt") is None, "POSIX paths keep their case"


def test_unc_shares_and_drive_roots() -> None:
    m = PathMap.parse([r"/volume1/video=\\nas\video", "/volume1/photo=E:/"])
    assert m.to_local("/volume1/video/a.mkv") == r"\\nas\video\a.mkv"
    assert m.to_library(r"\\NAS\Video\sub\a.srt") == "/volume1/video/sub/a.srt"
    assert m.to_local("/volume1/photo/2024/p.jpg") == r"E:\2024\p.jpg"
    assert m.to_library(r"E:\2024\p.json") == "/volume1/photo/2024/p.json"


def test_a_posix_root_prefix_covers_everything_absolute() -> None:
    m = PathMap.parse(["/=/mnt/other"])
    assert m.to_local("/a/b") == "/mnt/other/a/b"
    assert m.to_library("/mnt/other/a/b") == "/a/b"
    assert m.to_local(r"C:\a") is None


def test_equals_signs_inside_paths_split_where_two_absolute_paths_result() -> None:
    mapping = parse_mapping("/media/a=b=/srv/a=b")
    assert (mapping.library.text, mapping.local.text) == ("/media/a=b", "/srv/a=b")
    assert PathMap([mapping]).to_local("/media/a=b/x.mkv") == "/srv/a=b/x.mkv"


@pytest.mark.parametrize("spec, words", [
    ("/mnt/media", "two absolute paths"),
    ("media=/srv/media", "two absolute paths"),
    ("/mnt/media=relative/dir", "two absolute paths"),
    ("=/srv", "two absolute paths"),
    ("/mnt/=/srv/=/x", "ambiguous"),
    ("/mnt/../etc=/srv", "'..'"),
    ("/mnt/media=C:relative", "two absolute paths"),
])
def test_malformed_mappings_are_refused_with_a_stable_code(spec: str, words: str) -> None:
    with pytest.raises(InvalidPathMap) as err:
        PathMap.parse([spec])
    assert err.value.code == "invalid_path_map"
    assert words in err.value.message


def test_two_mappings_of_one_library_prefix_are_refused() -> None:
    with pytest.raises(InvalidPathMap, match="same library prefix"):
        PathMap.parse(["/mnt/media=/a", "/mnt/media/=/b"])
    with pytest.raises(InvalidPathMap, match="same library prefix"):
        PathMap.parse([r"D:\Media=/a", r"d:/media=/b"])


def test_an_empty_map_covers_nothing() -> None:
    m = PathMap.parse([])
    assert not m
    assert m.to_local("/a") is None and m.to_library("/a") is None
