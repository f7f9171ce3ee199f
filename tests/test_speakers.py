"""Speaker labels with the real speaker model (Resemblyzer's GE2E weights) on real voices."""

from __future__ import annotations

import io
import pickle
import struct
from pathlib import Path

import numpy as np
import pysubs2
import pytest

from app.engine.job_options import JobOptions
from app.errors import Code, ModelError
from app.media.audio import SAMPLE_RATE
from app.media.cues import NETFLIX_CUES, Cue
from app.media.speakers import Piece, label_speakers, seconds_by_speaker
from app.media.subtitles import render_bilingual_ass, render_transcript_text, speaker_name, speakers_of_ass, speakers_of_text
from app.ml.speaker_encoder import CHECKPOINT, SpeakerEncoder
from app.ml.torch_checkpoint import MAGIC_NUMBER, PROTOCOL_VERSION, read_legacy_checkpoint
from app.pipelines import speaker_labels
from tests.speaker_model import install_speaker_model, resemblyzer_wheel

SPEECH = Path(__file__).parent / "data" / "real_speech"


@pytest.fixture(scope="module")
def encoder() -> SpeakerEncoder:
    return SpeakerEncoder.from_wheel(resemblyzer_wheel())


def voice(name: str, seconds: float = 20.0) -> np.ndarray:
    from faster_whisper.audio import decode_audio

    return decode_audio(str(SPEECH / f"{name}.opus"), sampling_rate=SAMPLE_RATE)[: int(seconds * SAMPLE_RATE)]


def conversation(voices: list[str], turns: int = 10, turn_s: float = 3.0) -> tuple[np.ndarray, list[tuple[float, float, str]]]:
    """Voices taking turns of ``turn_s`` (each the next part of its file) with 0.4 s between: audio and turns."""
    sources = {v: voice(v) for v in voices}
    read = dict.fromkeys(voices, 0)
    parts, reference, at = [], [], 0.0
    for n in range(turns):
        name = voices[n % len(voices)]
        length = int(turn_s * SAMPLE_RATE)
        if read[name] + length > sources[name].size:
            read[name] = 0
        parts += [sources[name][read[name]:read[name] + length], np.zeros(int(0.4 * SAMPLE_RATE), np.float32)]
        read[name] += length
        reference.append((at, at + turn_s, name))
        at += turn_s + 0.4
    return np.concatenate(parts), reference


def test_the_checkpoint_reads_without_torch_and_refuses_code(tmp_path: Path) -> None:
    import zipfile

    with zipfile.ZipFile(resemblyzer_wheel()) as wheel:
        state = read_legacy_checkpoint(wheel.read(CHECKPOINT))["model_state"]
    assert state["lstm.weight_ih_l0"].shape == (1024, 40) and state["linear.weight"].shape == (256, 256)
    assert state["lstm.weight_hh_l2"].dtype == np.float32 and np.isfinite(state["lstm.weight_hh_l2"]).all()

    class Evil:
        def __reduce__(self):
            return (print, ("pwned",))

    stream = io.BytesIO()
    for part in (MAGIC_NUMBER, PROTOCOL_VERSION, {"little_endian": True}, Evil()):
        pickle.dump(part, stream, protocol=2)
    with pytest.raises(ModelError) as err:
        read_legacy_checkpoint(stream.getvalue())
    assert err.value.code == Code.BAD_PACKAGE and "print" in err.value.message
    bad = tmp_path / "bad.whl"
    bad.write_bytes(b"PK" + struct.pack("<I", 0))
    with pytest.raises(ModelError) as err:
        SpeakerEncoder.from_wheel(bad)
    assert err.value.code == Code.BAD_PACKAGE


def test_one_voice_is_nearer_itself_than_any_other_voice(encoder: SpeakerEncoder) -> None:
    names = ["en_arctic_aew", "en_librispeech_1320", "en_ljspeech_2min", "de_thorsten"]
    vectors = []
    for name in names:
        samples = voice(name, 10.0)
        for half in (samples[: samples.size // 2], samples[samples.size // 2:]):
            starts = list(range(0, half.size - encoder.window_samples, SAMPLE_RATE // 4))
            mean = encoder.embed_windows(half, starts).mean(axis=0)
            vectors.append(mean / np.linalg.norm(mean))
    sims = np.array(vectors) @ np.array(vectors).T
    same = [sims[2 * k, 2 * k + 1] for k in range(len(names))]
    other = [sims[i, j] for i in range(len(vectors)) for j in range(i) if i // 2 != j // 2]
    assert min(same) > max(other), (same, max(other))


def test_turns_of_three_real_voices_get_three_consistent_labels(encoder: SpeakerEncoder) -> None:
    samples, turns = conversation(["en_arctic_axb", "en_librispeech_8230", "de_thorsten"], turns=9)
    pieces = label_speakers(samples, [(a, b) for a, b, _ in turns], encoder)
    assert len({p.speaker for p in pieces}) == 3
    found = {name: {k for a, b, n in turns if n == name for k in seconds_by_speaker(pieces, a, b)} for *_, name in turns}
    assert all(len(labels) == 1 for labels in found.values()), found  # each voice always the same label
    assert len(set().union(*found.values())) == 3  # and no two voices share one
    assert [p.speaker for p in pieces][0] == 1  # numbered by first appearance
    given = label_speakers(samples, [(a, b) for a, b, _ in turns], encoder, count=2)
    assert len({p.speaker for p in given}) == 2


def test_a_shared_cue_becomes_a_dialogue_and_outputs_name_speakers() -> None:
    pieces = [Piece(0.0, 2.0, 1), Piece(2.0, 3.0, 2), Piece(3.5, 6.0, 2)]
    words = [{"start": 0.2, "end": 0.6, "word": " Are"}, {"start": 0.6, "end": 1.0, "word": " you"},
             {"start": 1.0, "end": 1.5, "word": " coming?"}, {"start": 2.1, "end": 2.6, "word": " Yes."},
             {"start": 3.6, "end": 4.4, "word": " Right"}, {"start": 4.4, "end": 5.0, "word": " now."}]
    segments = [{"start": 0.2, "end": 2.6, "words": words[:4]}, {"start": 3.6, "end": 5.0, "words": words[4:]}]
    cues = [{"start_ms": 200, "end_ms": 2700, "text": "Are you coming? Yes."},
            {"start_ms": 3600, "end_ms": 5100, "text": "Right now."}]
    labelled = speaker_labels.label_cues(cues, segments, pieces, "en", NETFLIX_CUES)
    assert labelled[0]["text"] == "- Are you coming?\n- Yes." and labelled[0]["speakers"] == [1, 2]
    assert labelled[1]["text"] == "Right now." and labelled[1]["speakers"] == [2]
    cues_of = [Cue.from_dict(c) for c in labelled]
    names = [speaker_name(c["speakers"][0]) for c in labelled]
    text = render_transcript_text(cues_of, names)
    assert text.decode() == "[Speaker 1] - Are you coming? - Yes.\n[Speaker 2] Right now.\n"
    assert speakers_of_text(text, 2) == ["Speaker 1", "Speaker 2"] and speakers_of_text(text, 3) is None
    data = render_bilingual_ass(cues_of, ["- Kommst du?\n- Ja.", "Sofort."], language="de", speakers=["Anna, B.", "Speaker 2"])
    ass = pysubs2.SSAFile.from_string(data.decode())
    assert [e.style for e in ass.events] == ["Anna B.", "Speaker 2"]  # a comma cannot stay in an ASS style name
    assert ass.styles["Anna B."].primarycolor != ass.styles["Speaker 2"].primarycolor
    assert speakers_of_ass(data) == [(200, 2700, "Anna B."), (3600, 5100, "Speaker 2")]


def test_labels_need_the_installed_model_which_installs_over_loopback_by_checksum(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, encoder: SpeakerEncoder
) -> None:
    data = tmp_path / "data"
    samples, turns = conversation(["en_arctic_aew", "en_librispeech_1320"], turns=4)
    segments = [{"start": a, "end": b, "text": "x"} for a, b, _ in turns]
    off = JobOptions()
    assert speaker_labels.fingerprint(data, off) == {} and speaker_labels.speaker_pieces(data, off, samples, segments) is None
    wanted = JobOptions(speakers="auto")
    assert speaker_labels.speaker_pieces(data, wanted, samples, segments) is None  # asked for, not installed
    assert speaker_labels.fingerprint(data, wanted)["speaker_model"] is None
    server = install_speaker_model(data, tmp_path, monkeypatch)
    assert [r.path for r in server.requests] == ["/Resemblyzer-0.1.4-py3-none-any.whl"]
    identity, wheel = speaker_labels.installed_model(data)
    assert wheel.read_bytes() == resemblyzer_wheel().read_bytes() and identity.startswith("speakers-ge2e:8f12eb2f1a99")
    pieces = speaker_labels.speaker_pieces(data, wanted, samples, segments)
    assert pieces is not None and [list(seconds_by_speaker(pieces, a, b)) for a, b, _ in turns] == [[1], [2], [1], [2]]
    assert speaker_labels.speaker_pieces(data, JobOptions(speakers="3"), samples, segments) is not None

