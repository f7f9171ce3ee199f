"""Text Whisper invents on silence and music is dropped before it becomes a subtitle (SPEC §7)."""

from __future__ import annotations

from app.media.hallucination import filter_segments


def _seg(text: str, **kw) -> dict:
    base = {"start": 0.0, "end": 1.0, "text": text, "avg_logprob": -0.3, "no_speech_prob": 0.05, "compression_ratio": 1.3}
    base.update(kw)
    return base


def test_real_speech_is_kept_in_order() -> None:
    segments = [_seg("Hello there."), _seg("How are you?"), _seg("Fine, thanks.")]
    result = filter_segments(segments)
    assert [s["text"] for s in result.kept] == ["Hello there.", "How are you?", "Fine, thanks."]
    assert result.dropped == [] and not result.no_speech


def test_no_speech_needs_both_signals() -> None:
    segments = [
        _seg("Thanks for watching!", no_speech_prob=0.9, avg_logprob=-1.4),  # invented on silence
        _seg("Quiet but confident speech.", no_speech_prob=0.9, avg_logprob=-0.2),  # real, noisy
    ]
    result = filter_segments(segments)
    assert [s["text"] for s in result.kept] == ["Quiet but confident speech."]
    assert result.dropped == [(0, "no_speech")]


def test_high_compression_ratio_is_dropped() -> None:
    result = filter_segments([_seg("la la la la la la la la la la la la", compression_ratio=3.1), _seg("Real words.")])
    assert [s["text"] for s in result.kept] == ["Real words."]
    assert result.dropped == [(0, "compression_ratio")]


def test_a_line_looped_three_times_is_dropped_entirely_but_a_double_is_kept() -> None:
    segments = [
        _seg("No. No."),
        _seg("Subscribe to my channel."),
        _seg("subscribe to my channel"),
        _seg("Subscribe to my channel!"),
        _seg("Okay."),
        _seg("Okay."),
    ]
    result = filter_segments(segments)
    assert [s["text"] for s in result.kept] == ["No. No.", "Okay.", "Okay."]
    assert [i for i, reason in result.dropped if reason == "repeated"] == [1, 2, 3]


def test_only_invented_text_means_no_speech_found() -> None:
    segments = [_seg("Thank you.", no_speech_prob=0.95, avg_logprob=-1.2), _seg("   ")]
    result = filter_segments(segments)
    assert result.no_speech
    assert {reason for _, reason in result.dropped} == {"no_speech", "empty"}
