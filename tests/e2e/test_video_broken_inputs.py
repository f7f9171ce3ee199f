"""Bad files fail alone with their own codes; a source changed mid-way is never subtitled (SPEC §2, §3, §7).

One job over a folder of broken and good videos. The pipeline is the product's own,
except that its render stage first appends to one video (as a person re-saving the
file between transcription and placement would).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import pytest

from app.engine.job_options import JobOptions
from app.engine.stage import ModelSpec, Pipeline, StageContext
from app.pipelines import default_pipelines
from app.pipelines.outputs import NO_SPEECH, RenderOutput
from app.settings import Settings
from app.store.records import ItemView, JobSummary
from tests.media import MediaFactory
from tests.video_jobs import folder_of, library, run_folder

EDITED = "geändert.mkv"


@dataclass
class EditSourceThenRender:
    """The real render stage, after one source video was modified on disk."""

    inner: Any
    victim: str
    name: str = "render"
    durable: bool = True
    output_type: type[RenderOutput] = RenderOutput

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return self.inner.fingerprint(options)

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return self.inner.model_spec(options)

    def run(self, ctx: StageContext) -> RenderOutput:
        if ctx.item.path.name == self.victim:
            with open(ctx.item.path, "ab") as fh:
                fh.write(b"\0" * 64)
        return self.inner.run(ctx)


@dataclass
class Run:
    folder: Path
    job: JobSummary
    items: dict[str, ItemView]


@pytest.fixture(scope="module")
def broken_run(media: MediaFactory, tmp_path_factory: pytest.TempPathFactory) -> Run:
    root = tmp_path_factory.mktemp("broken")
    folder = folder_of(root / "library", {
        "no_audio.mp4": media.no_audio(),
        "truncated.mp4": media.truncated(),
        "not_a_video.mkv": media.text_as_mkv(),
        "silence.mp4": media.silence(),
        "german.mkv": media.german(".mkv"),
        EDITED: media.german(".mkv"),
    })
    data_dir = root / "data"
    stages = list(default_pipelines(data_dir, Settings(target_lang="de"))["video"].stages)
    stages[3] = EditSourceThenRender(stages[3], EDITED)
    lib = library(data_dir, {"video": Pipeline("video", stages)})
    try:
        job = run_folder(lib, folder, "de")
        return Run(folder, job, {Path(i.path).name: i for i in lib.items(job.id)})
    finally:
        lib.close()


def _outputs(folder: Path, stem: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(stem + ".") and p.suffix in (".srt", ".ass"))


def test_each_broken_input_fails_with_its_own_code_and_the_good_video_completes(broken_run: Run) -> None:
    outcome = {name: (i.status, i.error_code, i.result) for name, i in broken_run.items.items()}
    assert outcome["no_audio.mp4"] == ("failed", "no_audio_stream", None)
    assert outcome["truncated.mp4"] == ("failed", "corrupt_media", None)
    assert outcome["not_a_video.mkv"] == ("failed", "corrupt_media", None)
    assert outcome["german.mkv"] == ("completed", None, None)
    assert _outputs(broken_run.folder, "german") == ["german.de.srt"]
    assert all(i.attempts == 1 for n, i in broken_run.items.items() if i.status == "failed")  # permanent: no retries
    for stem in ("no_audio", "truncated", "not_a_video"):
        assert _outputs(broken_run.folder, stem) == []


def test_pure_silence_completes_as_no_speech_without_subtitle_files(broken_run: Run) -> None:
    assert (broken_run.items["silence.mp4"].status, broken_run.items["silence.mp4"].result) == ("completed", NO_SPEECH)
    assert _outputs(broken_run.folder, "silence") == []


def test_a_source_changed_before_place_fails_target_changed_and_nothing_is_placed(broken_run: Run) -> None:
    item = broken_run.items[EDITED]
    assert (item.status, item.error_code, item.stage) == ("failed", "target_changed", "place")
    assert _outputs(broken_run.folder, Path(EDITED).stem) == []
    assert broken_run.job.failed == 4 and broken_run.job.done == 2
