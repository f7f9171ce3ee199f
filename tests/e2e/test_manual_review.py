"""Manual review end to end: a target changed by someone else between `started` and recovery."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from app.cli import main as cli
from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from tests.engine_child import run_child
from tests.engine_stages import fake_pipeline, make_media



def _cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = cli([*args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_contested_target_goes_to_review_and_each_decision_acts(tmp_path: Path, data_dir: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    media = tmp_path / "lib"
    make_media(media, 4)
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, EngineConfig(workers=1))
    job_id = lib.add(media, JobOptions()).id
    lib.close()

    tampered: dict[str, bytes] = {}
    expected: dict[str, str] = {}
    for _ in range(3):
        assert run_child(data_dir, crash_after="replaced") == 9
        # The crash came after the rename and before `succeeded`: the file is there, then someone edits it.
        for srt in media.glob("*.test.srt"):
            if srt.name not in tampered and srt.name not in expected:
                expected[srt.name] = hashlib.sha256(srt.read_bytes()).hexdigest()
                tampered[srt.name] = b"edited by a person\n"
                srt.write_bytes(tampered[srt.name])
    assert len(tampered) == 3
    assert run_child(data_dir) == 0

    code, listing = _cli_json(capsys, "review", "list", "--data-dir", str(data_dir))
    reviews = {Path(r["target"]).name: r for r in listing["reviews"]}
    assert code == 0 and set(reviews) == set(tampered)
    for name, r in reviews.items():
        assert r["expected_sha256"] == expected[name]
        assert r["found_sha256"] == hashlib.sha256(tampered[name]).hexdigest()
        assert r["error"]
    status = {Path(i["path"]).name: i for i in _cli_json(capsys, "status", str(job_id), "--data-dir", str(data_dir))[1]["jobs"][0]["items"]}
    assert sorted(i["status"] for i in status.values()) == ["completed", "review", "review", "review"]

    applied, not_applied, skipped = sorted(reviews)
    for name, decision in ((applied, "applied"), (not_applied, "not-applied"), (skipped, "skip")):
        code, out = _cli_json(capsys, "review", "resolve", str(reviews[name]["id"]), "--decision", decision,
                              "--reason", f"checked {name}", "--data-dir", str(data_dir))
        assert code == 0
        assert out["review"]["decision"] == decision.replace("-", "_")
        assert out["review"]["actor"] == "cli" and out["review"]["revision"] == 1

    code, out = _cli_json(capsys, "review", "resolve", str(reviews[applied]["id"]), "--decision", "skip",
                          "--reason", "second opinion", "--data-dir", str(data_dir))
    assert code == 2 and out["error"]["code"] == "review_conflict"

    assert run_child(data_dir) == 0
    items = {Path(i["path"]).stem: i for i in _cli_json(capsys, "status", str(job_id), "--data-dir", str(data_dir))[1]["jobs"][0]["items"]}

    def item_of(srt: str) -> dict:
        return items[srt.removesuffix(".test.srt")]

    assert item_of(applied)["status"] == "completed"
    assert (media / applied).read_bytes() == tampered[applied], "applied keeps the file as it is"
    assert item_of(not_applied)["status"] == "completed"
    assert hashlib.sha256((media / not_applied).read_bytes()).hexdigest() == expected[not_applied]
    assert item_of(skipped)["status"] == "skipped"
    assert (media / skipped).read_bytes() == tampered[skipped], "skip never touches the file"
    assert _cli_json(capsys, "review", "list", "--data-dir", str(data_dir))[1]["reviews"] == []
