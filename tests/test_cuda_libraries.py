"""The `gpu` extra's CUDA 12 libraries are found in their wheels' package folders (issue 36).

A test of discovery only: there is no GPU here, so the files are a fake package layout
(empty files where the wheels put their libraries). Loading such a file fails, and that
failure is reported beside its name, not raised.
"""

from __future__ import annotations

import sys
from pathlib import Path

from app.ml.cuda_libraries import WHEEL_LIBRARIES, find_wheel_libraries, load_wheel_libraries


def _fake_site(root: Path, *which: int) -> Path:
    for i in which:
        folder, name = WHEEL_LIBRARIES[i]
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / name).write_bytes(b"")
    return root


def test_each_library_is_found_in_the_first_site_folder_that_has_it(tmp_path: Path) -> None:
    first = _fake_site(tmp_path / "a", 1)
    second = _fake_site(tmp_path / "b", 0, 1, 2)
    found = find_wheel_libraries([tmp_path / "empty", first, second])
    names = [name for _, name in WHEEL_LIBRARIES]
    assert found == {names[0]: second / WHEEL_LIBRARIES[0][0] / names[0], names[1]: first / WHEEL_LIBRARIES[1][0] / names[1],
                     names[2]: second / WHEEL_LIBRARIES[2][0] / names[2]}
    assert find_wheel_libraries([tmp_path / "empty"]) == {}


def test_a_file_that_will_not_load_is_reported_not_raised(tmp_path: Path) -> None:
    site = _fake_site(tmp_path / "site", 0)
    loaded = load_wheel_libraries([site])
    assert list(loaded) == [WHEEL_LIBRARIES[0][1]] and loaded[WHEEL_LIBRARIES[0][1]].startswith("not loaded: ")


def test_linux_names_are_the_cuda_12_sonames_ctranslate2_asks_for() -> None:
    if sys.platform != "win32":
        assert ("nvidia/cublas/lib", "libcublas.so.12") in WHEEL_LIBRARIES
        assert ("nvidia/cudnn/lib", "libcudnn.so.9") in WHEEL_LIBRARIES


def test_doctor_names_the_libraries_it_found_and_whisper_s_device(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from app import doctor

    site = _fake_site(tmp_path / "site", 0, 1, 2)
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    check = doctor.check_ctranslate2()
    assert check["cuda_libraries"] == {name: str(site / folder / name) for folder, name in WHEEL_LIBRARIES}
    assert check["whisper_device"] == "cpu"  # no CUDA device here
    text = doctor.format_report({"ctranslate2": check})
    assert f"{WHEEL_LIBRARIES[1][1]} ({site / WHEEL_LIBRARIES[1][0] / WHEEL_LIBRARIES[1][1]})" in text
    assert "Whisper on   cpu" in text
