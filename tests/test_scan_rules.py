"""The one scan at job creation: subtitle rule, symlink loops, unreadable folders, odd names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.scan import scan
from app.media.naming import is_already_subtitled, subtitle_language
from tests.engine_stages import fake_pipeline

REPO = Path(__file__).resolve().parents[1]


def test_subtitle_rule_matches_stem_and_guards_one_character_stems() -> None:
    assert is_already_subtitled(Path("Movie.mp4"), ["movie.en.srt"]) == "movie.en.srt"
    assert is_already_subtitled(Path("Movie.mp4"), ["The Movie Extras.ass"]) == "The Movie Extras.ass"
    assert is_already_subtitled(Path("Movie.mp4"), ["Movie.txt", "Other.srt"]) is None
    assert is_already_subtitled(Path("a.mp4"), ["apple.srt"]) is None
    assert is_already_subtitled(Path("a.mp4"), ["a.zh.vtt"]) == "a.zh.vtt"
    assert is_already_subtitled(Path("A.mkv"), ["a.SSA"]) == "a.SSA"
    assert is_already_subtitled(Path("A.mkv"), ["ab.en.ssa", "banana.srt"]) is None


def test_a_subtitle_name_tells_its_language_in_every_common_spelling() -> None:
    for name in ("Movie.fr.srt", "Movie.fre.srt", "Movie.fra.srt", "Movie.French.srt", "movie.FRENCH.forced.ass",
                 "The Movie Extras.fr.vtt", "Movie.default.fr.srt"):
        assert subtitle_language("Movie", name) == "fr", name
    for name in ("Movie.CN.srt", "Movie.CN_dual_eye.ass", "Movie.zh-CN.srt", "Movie.TW.srt", "Movie.chi.srt",
                 "Movie.zho.srt", "Movie.Chinese.srt", "Movie.chs.srt"):
        assert subtitle_language("Movie", name) == "zh", name
    assert subtitle_language("Movie", "Movie.pt-BR.srt") == "pt"
    assert subtitle_language("Movie", "Movie.ger.srt") == subtitle_language("Movie", "Movie.deu.srt") == "de"
    assert subtitle_language("Movie", "Movie.en.hi.srt") == "en", "hi beside a language is the hearing-impaired flag"
    assert subtitle_language("Movie", "Movie.hi.srt") == "hi"
    for name in ("Movie.srt", "Movie.Extras.srt", "Movie.sdh.srt", "Movie.x264.srt"):
        assert subtitle_language("Movie", name) is None, name
    assert subtitle_language("Show.S01.en", "Show.S01.en.srt") is None, "the stem's own tokens are not the subtitle's"


def test_a_subtitle_in_another_language_does_not_make_the_video_done() -> None:
    assert is_already_subtitled(Path("Movie.mp4"), ["Movie.de.srt", "Movie.en.srt", "Movie.de.ass"], "fr") is None
    assert is_already_subtitled(Path("Movie.mp4"), ["Movie.de.srt", "Movie.French.srt"], "fr") == "Movie.French.srt"
    assert is_already_subtitled(Path("Movie.mp4"), ["Movie.CN.srt"], "zh") == "Movie.CN.srt"
    assert is_already_subtitled(Path("Movie.mp4"), ["Movie.zh-TW.ass"], "zh-CN") == "Movie.zh-TW.ass"
    assert is_already_subtitled(Path("Movie.mp4"), ["Movie.de.srt", "Movie.srt"], "fr") == "Movie.srt"
    assert is_already_subtitled(Path("Movie.mp4"), ["The Movie Extras.ass"], "fr") == "The Movie Extras.ass"
    assert is_already_subtitled(Path("a.mp4"), ["apple.fr.srt"], "fr") is None
    assert is_already_subtitled(Path("a.mp4"), ["a.fr.srt"], "fr") == "a.fr.srt"


def test_add_skips_by_the_jobs_target_language(tmp_path: Path, data_dir: Path) -> None:
    lib_dir = tmp_path / "lib"
    lib_dir.mkdir()
    for name in ("Movie.mkv", "Movie.French.srt", "Plain.mp4", "Plain.srt", "German.mp4", "German.de.srt",
                 "a.mp4", "apple.fr.srt"):
        (lib_dir / name).write_bytes(name.encode() * 10)
    lib = Library(data_dir, {"video": fake_pipeline()[0]})
    try:
        french = lib.add(lib_dir, JobOptions(kind="video", target_lang="fr"))
        german = lib.add(lib_dir, JobOptions(kind="video", target_lang="de"))
        by_job = {job.id: {Path(i.path).name: (i.status, i.error) for i in lib.items(job.id)} for job in (french, german)}
    finally:
        lib.close()
    assert by_job[french.id] == {
        "Movie.mkv": ("skipped", "already subtitled (Movie.French.srt)"),
        "Plain.mp4": ("skipped", "already subtitled (Plain.srt)"),
        "German.mp4": ("pending", None),
        "a.mp4": ("pending", None),
    }
    assert {n: s for n, (s, _) in by_job[german.id].items()} == {
        "Movie.mkv": "pending", "Plain.mp4": "skipped", "German.mp4": "skipped", "a.mp4": "pending"}


def test_add_skips_subtitled_videos_outside_the_total(tmp_path: Path, data_dir: Path) -> None:
    lib_dir = tmp_path / "lib"
    lib_dir.mkdir()
    for name in ("a.mp4", "apple.srt", "Show.S01E01.mkv", "show.s01e01.en.srt", "b.MOV", "notes.txt", "pic.PNG"):
        (lib_dir / name).write_bytes(b"x" * 10)
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline})
    try:
        job = lib.add(lib_dir, JobOptions(kind="video"))
        items = {Path(i.path).name: i for i in lib.items(job.id)}
    finally:
        lib.close()
    assert set(items) == {"a.mp4", "Show.S01E01.mkv", "b.MOV"}
    assert items["Show.S01E01.mkv"].status == "skipped"
    assert items["a.mp4"].status == "pending", "a.mp4 is not subtitled by apple.srt"
    assert (job.total, job.skipped) == (2, 1)


def test_job_with_nothing_to_do_is_completed_at_once(tmp_path: Path, data_dir: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "m.mp4").write_bytes(b"x")
    (tmp_path / "lib" / "m.en.srt").write_bytes(b"x")
    lib = Library(data_dir, {"video": fake_pipeline()[0]})
    try:
        job = lib.add(tmp_path / "lib", JobOptions())
    finally:
        lib.close()
    assert (job.status, job.total, job.skipped) == ("completed", 0, 1)


def test_symlink_loop_is_reported_not_followed_forever(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "v.mp4").write_bytes(b"x")
    os.symlink(root, root / "sub" / "loop")
    result = scan(root)
    assert [e.path.name for e in result.entries] == ["v.mp4"]
    assert any(p["code"] == "symlink_loop" for p in result.problems)


def test_unreadable_folder_is_skipped_and_reported() -> None:
    base = Path(tempfile.mkdtemp(prefix="sidecar-scan-"))
    try:
        os.chmod(base, 0o755)
        (base / "ok").mkdir()
        (base / "ok" / "v.mp4").write_bytes(b"x")
        (base / "locked").mkdir()
        (base / "locked" / "hidden.mp4").write_bytes(b"x")
        os.chmod(base / "locked", 0o000)
        code = (
            "import json,sys; from pathlib import Path; import app.pipelines; from app.engine.scan import scan;"
            "r = scan(Path(sys.argv[1])); print(json.dumps({'files': [e.path.name for e in r.entries], 'problems': r.problems}))"
        )
        # Root reads every folder, so under root the scan runs without the capabilities that bypass permissions.
        prefix = ["setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
        out = subprocess.run([*prefix, sys.executable, "-c", code, str(base)], cwd=REPO, capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
        assert out.returncode == 0, out.stderr
        result = json.loads(out.stdout)
        assert result["files"] == ["v.mp4"]
        assert [p["code"] for p in result["problems"]] == ["unreadable_folder"]
        assert result["problems"][0]["path"].endswith("locked")
    finally:
        os.chmod(base / "locked", 0o755)
        subprocess.run(["rm", "-rf", str(base)], check=False)


def test_unicode_and_long_names_are_processed_and_placed(tmp_path: Path, data_dir: Path, fast_config) -> None:
    lib_dir = tmp_path / "lib"
    lib_dir.mkdir()
    names = ["日本語 ファイル.mp4", "emoji 🎬 & spaces #1.mkv", ("x" * 190) + "-long name.mp4", "quote's \"odd\".webm"]
    for n in names:
        (lib_dir / n).write_bytes(n.encode() * 3)
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        job = lib.add(lib_dir, JobOptions())
        lib.start()
        lib.run_until_idle()
        summary = lib.status(job.id)[0]
    finally:
        lib.close()
    assert (summary.done, summary.failed) == (4, 0)
    for n in names:
        assert (lib_dir / (Path(n).stem + ".test.srt")).is_file()


def test_second_add_of_a_finished_folder_skips_everything(tmp_path: Path, data_dir: Path, fast_config) -> None:
    lib_dir = tmp_path / "lib"
    lib_dir.mkdir()
    (lib_dir / "movie.mp4").write_bytes(b"x" * 100)
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        lib.add(lib_dir, JobOptions())
        lib.start()
        lib.run_until_idle()
        again = lib.add(lib_dir, JobOptions())
    finally:
        lib.close()
    assert (again.total, again.skipped, again.status) == (0, 1, "completed")
