"""OPUS-MT translation packages with the real zh→en weights: installing, refusing, downloading, translating.

The package is Argos Translate's ``translate-zh_en-1_9`` (74 MB, tests/opus_mt.py), the one
real OPUS-MT model reachable here. Bad packages are made from it (cut, altered, re-zipped
with a ``../`` name, a second top folder, a bomb), so each refusal is of a real package's
neighbour. Downloads go to a loopback server only.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest

from app.cli import main as cli
from app.ml.downloads import ChecksumMismatch
from app.media.translation_quality import in_target_language
from app.ml import model_install, opus_mt
from app.ml.argos_install import PackageRefused, install_package, read_package
from app.ml.catalogue import load_catalogue
from app.ml.marian_runtime import MarianRuntime
from tests.model_server import ModelServer
from tests.opus_mt import ZH_EN_SHA256, ZH_EN_SIZE, zh_en_package

TOP = "translate-zh_en-1_9"


def _tatoeba_zh(n: int) -> list[str]:
    rows = (Path(__file__).parent / "data" / "parallel" / "tatoeba-en-zh.tsv").read_text("utf-8").splitlines()
    return [row.split("\t")[1] for row in rows[-n:]]  # the file's last lines: none of them tuned the check's floors


def _models_listing(data_dir: Path) -> list[str]:
    root = data_dir / "models"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if ".locks" not in p.parts) if root.exists() else []


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with the real zh→en package installed from its file, as `models install --from` does."""
    data_dir = tmp_path_factory.mktemp("opus") / "data"
    assert cli(["models", "install", "--from", str(zh_en_package()), "--data-dir", str(data_dir), "--json"]) == 0
    return data_dir


def test_install_from_a_file_unpacks_what_a_translator_needs_and_verifies_it_against_the_catalogue(installed: Path) -> None:
    folder = installed / "models" / "translate-zh-en"
    assert sorted(p.name for p in folder.iterdir()) == [".installed.json", "README.md", "metadata.json", "model",
                                                        "sentencepiece.model"]  # Argos' stanza/ is left out
    (package,) = opus_mt.installed_translators(installed)
    assert (package.name, package.source, package.target, package.folder) == ("translate-zh-en", "zh", "en", folder)
    assert load_catalogue()["translate-zh-en"].files[0].sha256 == ZH_EN_SHA256  # the catalogue pins this very file
    assert load_catalogue()["translate-zh-en"].files[0].size == ZH_EN_SIZE
    manifest = json.loads((folder / ".installed.json").read_text())
    assert set(manifest["files"]) == {"README.md", "metadata.json", "sentencepiece.model", "model/config.json",
                                      "model/model.bin", "model/shared_vocabulary.json"}


def test_the_real_model_translates_held_out_chinese_into_english_the_check_accepts(installed: Path) -> None:
    (package,) = opus_mt.installed_translators(installed)
    runtime = MarianRuntime([str(package.folder)])
    sources = _tatoeba_zh(40)
    lines = runtime.translate(sources)
    assert len(lines) == len(sources) and all(line.strip() for line in lines)
    assert not any("\u2581" in line for line in lines), "SentencePiece word marks are joined back into spaces"
    english = [line for line in lines if in_target_language(line, "en", "zh")]
    assert len(english) >= 0.95 * len(lines), [line for line in lines if line not in english]
    again = runtime.translate(sources[:10], attempt=1)
    assert sum(a != b for a, b in zip(again, lines[:10])) >= 5, "a second attempt takes the next hypothesis"


def test_a_pivot_route_chains_two_packages_and_missing_hops_name_what_to_install(installed: Path) -> None:
    """Route finding with the real package; the only reachable weights are zh→en, so the second hop of the
    runtime check is the same real model under a second, made-up label (en→xx): it proves the chaining (the second
    hop reads the first's English output), not translation quality."""
    (zh_en,) = opus_mt.installed_translators(installed)
    en_xx = opus_mt.OpusPackage("fake-en-xx", "en", "xx", zh_en.folder, "x")
    packages = [zh_en, en_xx]
    assert opus_mt.route(packages, "zh", "en") == [zh_en]
    assert opus_mt.route(packages, "zh", "xx") == [zh_en, en_xx]
    assert opus_mt.route(packages, "de", "xx") is None
    assert opus_mt.missing_hops(packages, "de", "xx") == [("de", "en")]
    assert opus_mt.missing_hops([zh_en], "de", "ja") == [("de", "en"), ("en", "ja")]
    assert opus_mt.missing_hops([zh_en], "en", "de") == [("en", "de")]
    one, two = MarianRuntime([str(zh_en.folder)]), MarianRuntime([str(zh_en.folder), str(zh_en.folder)])
    first = one.translate(["我不想错过我的火车。"])
    assert two.translate(["我不想错过我的火车。"]) == one.translate(first)


def test_the_offer_names_the_exact_catalogue_downloads(installed: Path) -> None:
    offer = opus_mt.translator_offer(installed, "de")
    assert offer is not None and [e.name for e in offer.entries] == ["translate-en-de"]
    assert offer.command() == "sidecar models install translate-en-de"
    assert opus_mt.translator_offer(installed, "en", "zh") is None  # installed
    pivot = opus_mt.translator_offer(installed, "de", "zh")
    assert pivot is not None and [e.name for e in pivot.entries] == ["translate-en-de"]  # zh→en is there already
    note = opus_mt.translator_note(installed, "de")
    assert note is not None and "translate-en-de" in note and "waiting_for_translator" in note
    assert opus_mt.translator_note(installed, "de", endpoint="http://127.0.0.1:9/v1") is None


def _rezip(src: Path, dest: Path, rename: dict[str, str] | None = None, extra: dict[str, bytes] | None = None,
           replace: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename.startswith(f"{TOP}/stanza"):
                continue
            data = (replace or {}).get(info.filename, zin.read(info.filename)) if not info.is_dir() else b""
            name = (rename or {}).get(info.filename, info.filename)
            if info.is_dir():
                zout.writestr(name, b"")
            else:
                zout.writestr(name, data, compress_type=zipfile.ZIP_STORED if info.filename.endswith(".bin") else None)
        for name, data in (extra or {}).items():
            zout.writestr(name, data)
    return dest


def _bad_packages(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    real = zh_en_package()
    cut = tmp_path / "truncated.argosmodel"
    cut.write_bytes(real.read_bytes()[: 40_000_000])
    gguf = tmp_path / "model.argosmodel"
    gguf.write_bytes(b"GGUF" + os.urandom(4096))
    bomb = tmp_path / "bomb.argosmodel"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        for need in ("metadata.json", "sentencepiece.model", "model/model.bin"):
            z.writestr(f"{TOP}/{need}", b'{"from_code": "zh", "to_code": "en"}' if need == "metadata.json" else b"x")
        z.writestr(f"{TOP}/model/zeros.bin", b"\0" * (300 * 1024 * 1024))
    meta = json.dumps({"from_code": "zh", "to_code": "en", "package_version": "1.9"}).encode()
    return {
        "truncated": (cut, "damaged or truncated|not a zip"),
        "wrong hash": (_rezip(real, tmp_path / "altered.argosmodel", replace={f"{TOP}/README.md": b"changed"}),
                       "is not the catalogue's"),
        "escapes with ../": (_rezip(real, tmp_path / "dotdot.argosmodel", extra={f"{TOP}/../evil.txt": b"x"}),
                             "outside its folder"),
        "absolute path": (_rezip(real, tmp_path / "absolute.argosmodel", extra={"/tmp/evil.txt": b"x"}),
                          "outside its folder"),
        "two top folders": (_rezip(real, tmp_path / "two.argosmodel", extra={"other/readme.txt": b"x"}),
                            "2 top folders"),
        "a gguf renamed": (gguf, "GGUF"),
        "a zip bomb": (bomb, "zip bomb"),
        "names no pair": (_rezip(real, tmp_path / "nopair.argosmodel",
                                 replace={f"{TOP}/metadata.json": meta.replace(b'"zh"', b'""')}), "no translation direction"),
    }


def test_each_bad_package_gets_one_clear_line_a_non_zero_exit_and_changes_nothing(
        tmp_path: Path, installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _models_listing(installed)
    for what, (path, expected) in _bad_packages(tmp_path).items():
        code = cli(["models", "install", "--from", str(path), "--data-dir", str(installed)])
        err = capsys.readouterr().err.strip()
        assert code != 0, what
        assert len(err.splitlines()) == 1 and "bad_package" in err, (what, err)
        assert any(part in err for part in expected.split("|")), (what, err)
        assert _models_listing(installed) == before, what


def test_a_package_for_another_direction_than_the_entry_asked_for_is_refused(tmp_path: Path) -> None:
    """A download for en→de that turns out to be zh→en. (From a file, a package whose metadata names another pair
    than its weights translate can only be caught by the catalogue's sha256 for that pair, where one is known.)"""
    data_dir = tmp_path / "data"
    with pytest.raises(PackageRefused, match="translates zh→en, not en→de"):
        install_package(data_dir, zh_en_package(), load_catalogue()["translate-en-de"])
    assert _models_listing(data_dir) == []
    assert (read_package(zh_en_package()).source, read_package(zh_en_package()).target) == ("zh", "en")


@pytest.fixture
def package_catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModelServer, dict]:
    """The catalogue with its zh→en entry pointing at a loopback server serving the real package."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    server = ModelServer({"/zh_en.argosmodel": zh_en_package().read_bytes()}).start()
    catalogue = json.loads((Path(__file__).parents[1] / "resources" / "models.json").read_text())
    entry = next(m for m in catalogue["models"] if m["name"] == "translate-zh-en")
    entry["files"][0]["url"] = server.url("/zh_en.argosmodel")
    unverified = json.loads(json.dumps(entry))
    unverified.update(name="translate-zh-en-unpinned")
    unverified["files"][0]["sha256"] = None
    unverified["files"][0]["path"] = "unpinned.argosmodel"
    catalogue["models"].append(unverified)
    resources = tmp_path / "resources"
    resources.mkdir()
    (resources / "models.json").write_text(json.dumps(catalogue))
    monkeypatch.setenv("SIDECAR_RESOURCES", str(resources))
    yield server, catalogue
    server.stop()


def test_a_download_cut_midway_resumes_with_range_and_installs_verified(
        tmp_path: Path, package_catalogue: tuple[ModelServer, dict], capsys: pytest.CaptureFixture[str]) -> None:
    server, _ = package_catalogue
    data_dir = tmp_path / "data"
    server.cut_next = 30_000_000
    assert cli(["models", "install", "translate-zh-en", "--data-dir", str(data_dir), "--json"]) == 0
    ranges = [r.headers.get("Range") for r in server.requests]
    assert ranges[0] is None and "bytes=30000000-" in ranges[1:], "the second request resumes where the cut was"
    assert [p.name for p in opus_mt.installed_translators(data_dir)] == ["translate-zh-en"]
    assert not any((data_dir / "models" / ".downloads").iterdir()), "the zip is gone once unpacked"
    assert json.loads(capsys.readouterr().out)["model"]["sha256_verified"] is True


def test_a_download_with_the_wrong_sha256_is_refused_and_nothing_is_installed(
        tmp_path: Path, package_catalogue: tuple[ModelServer, dict]) -> None:
    server, _ = package_catalogue
    server.files["/zh_en.argosmodel"] = server.files["/zh_en.argosmodel"][:-10] + b"0123456789"
    data_dir = tmp_path / "data"
    with pytest.raises(ChecksumMismatch) as failure:
        model_install.models_install(data_dir, "translate-zh-en")
    assert failure.value.code == "checksum_mismatch"
    assert opus_mt.installed_translators(data_dir) == []


def test_an_entry_without_a_published_sha256_is_pinned_at_first_install_and_shown_unverified(
        tmp_path: Path, package_catalogue: tuple[ModelServer, dict], capsys: pytest.CaptureFixture[str]) -> None:
    server, _ = package_catalogue
    data_dir = tmp_path / "data"
    assert cli(["models", "list", "--data-dir", str(data_dir)]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if "translate-zh-en-unpinned" in row)
    assert "unverified" in line
    model_install.models_install(data_dir, "translate-zh-en-unpinned")
    state = json.loads((data_dir / "models" / "state.json").read_text())
    assert state["pinned"]["translate-zh-en-unpinned"] == {"unpinned.argosmodel": ZH_EN_SHA256}
    model_install.models_remove(data_dir, "translate-zh-en-unpinned")
    server.files["/zh_en.argosmodel"] = server.files["/zh_en.argosmodel"][:-1] + b"!"  # the file changed upstream
    with pytest.raises(ChecksumMismatch) as failure:
        model_install.models_install(data_dir, "translate-zh-en-unpinned")
    assert failure.value.code == "checksum_mismatch", "a later download must match the pinned sha256"
