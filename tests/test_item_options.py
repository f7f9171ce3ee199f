"""A per-item option (the queue's audio track) re-plans one item, through the real store with fake stages."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.errors import ItemNotChangeable, LeaseLost
from tests.engine_stages import fake_pipeline, make_media


def test_a_running_stage_loses_its_claim_and_the_next_claim_carries_the_item_option(
        data_dir: Path, tmp_path: Path, fast_config) -> None:  # type: ignore[no-untyped-def]
    make_media(tmp_path / "lib", 2)
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        job = lib.add(tmp_path / "lib", JobOptions(target_lang="en"))
        claim = lib.store.stages.claim_next_stage("worker-a", gpu=None)
        assert claim is not None and claim.name == "hash" and "audio_track" not in claim.options
        lib.set_item_option(claim.item_id, "audio_track", 2)
        with pytest.raises(LeaseLost):
            lib.store.stages.record_checkpoint(claim, {"half": True})  # the worker writes nothing more
        again = lib.store.stages.claim_next_stage("worker-b", gpu=None)
        while again is not None and again.item_id != claim.item_id:
            again = lib.store.stages.claim_next_stage("worker-b", gpu=None)
        assert again is not None and again.name == "hash" and again.partial is None
        assert again.options["audio_track"] == 2 and again.options["target_lang"] == "en"
        other = [i for i in lib.items(job.id) if i.id != claim.item_id]
        assert all("audio_track" not in lib.item_source(i.id).options for i in other)
    finally:
        lib.close()


def test_a_skipped_file_has_nothing_to_plan_again(data_dir: Path, tmp_path: Path, fast_config) -> None:  # type: ignore[no-untyped-def]
    (clip,) = make_media(tmp_path / "lib", 1)
    clip.with_suffix(".en.srt").write_text("1\n00:00:00,000 --> 00:00:01,000\nHello\n", encoding="utf-8")
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        job = lib.add(tmp_path / "lib", JobOptions(target_lang="en"))
        (item,) = lib.items(job.id)
        assert item.status == "skipped"
        with pytest.raises(ItemNotChangeable) as refused:
            lib.set_item_option(item.id, "audio_track", 2)
        assert refused.value.code == "item_skipped"
    finally:
        lib.close()
