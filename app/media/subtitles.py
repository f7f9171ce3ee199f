"""Render cues as SRT, WebVTT and bilingual ASS (SPEC §7).

Renderers return UTF-8 bytes, not files: placement next to the media is the engine's
job (atomic, fenced, policy-checked), and bytes give it a content hash to record.

Speech text is data, never markup. In ASS a ``{`` opens an override block and a
backslash starts ``\\N``/``\\n``/``\\h``; pysubs2 and ffmpeg apply the same rules to
SRT written through pysubs2. Renderers (VSFilter, libass, ffmpeg, pysubs2) disagree on
escape sequences such as ``\\{``, so the only escape every reader honours is to
replace the three characters with their fullwidth forms (``｛ ｝ ＼``), which look
alike and are never interpreted.
"""

from __future__ import annotations

from typing import Sequence

import pysubs2

from app.media.cues import NETFLIX_CUES, Cue, CueOptions
from app.media.translation_timing import lay_out

DEFAULT_FONT = "Noto Sans CJK SC"
PLAY_RES = (1920, 1080)
TRANSLATION_STYLE = "Default"
ORIGINAL_STYLE = "Original"

_ESCAPES = str.maketrans({"{": "\uff5b", "}": "\uff5d", "\\": "\uff3c"})


def escape_text(text: str) -> str:
    """Make speech text inert in ASS (and pysubs2's SRT): no override tags, no ``\\N``.

    Newlines become ``\\N`` line breaks *after* escaping, so only our own breaks exist.
    """
    return text.translate(_ESCAPES).replace("\r\n", "\n").replace("\n", r"\N")


def _check_counts(cues: Sequence[Cue], texts: Sequence[str]) -> None:
    if len(cues) != len(texts):
        raise ValueError(f"{len(texts)} texts for {len(cues)} cues: translations must map 1:1 onto cues")


def _events(cues: Sequence[Cue], texts: Sequence[str]) -> list[pysubs2.SSAEvent]:
    return [
        pysubs2.SSAEvent(start=cue.start_ms, end=cue.end_ms, text=escape_text(text))
        for cue, text in zip(cues, texts)
    ]


def render_srt(cues: Sequence[Cue], texts: Sequence[str] | None = None) -> bytes:
    """SRT of ``cues`` (or of ``texts`` on the cues' timings, e.g. a translation)."""
    if texts is None:
        texts = [cue.text for cue in cues]
    _check_counts(cues, texts)
    subs = pysubs2.SSAFile()
    subs.events = _events(cues, texts)
    # keep_ssa_tags: our text holds no tags (escaped), so nothing needs converting.
    return subs.to_string("srt", keep_ssa_tags=True).encode("utf-8")


def render_transcript_srt(cues: Sequence[Cue]) -> bytes:
    """The transcript in the spoken language."""
    return render_srt(cues)


def render_translation_srt(cues: Sequence[Cue], translations: Sequence[str], language: str | None = None,
                           options: CueOptions = NETFLIX_CUES, limit_ms: int | None = None) -> bytes:
    """The translation on the transcript's timings, laid out to the target's rules
    (:func:`app.media.translation_timing.lay_out`: a cue too long for two lines becomes two)."""
    _check_counts(cues, translations)
    laid = lay_out(cues, translations, language, options, limit_ms)
    return render_srt([t.cue for t in laid])


_VTT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def _vtt_time(ms: int) -> str:
    hours, rest = divmod(max(0, ms), 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:02d}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def render_vtt(cues: Sequence[Cue], texts: Sequence[str] | None = None) -> bytes:
    """WebVTT of ``cues`` (or of ``texts`` on their timings), for browsers and players that read no SRT.

    Written here rather than through pysubs2, which leaves ``<`` and ``&`` as they are: in
    WebVTT they open tags and entities, so speech text gets them as entities (``&lt;``),
    which also keeps a spoken ``-->`` from ending the timing line. Blank lines end a cue,
    so none are kept inside one.
    """
    if texts is None:
        texts = [cue.text for cue in cues]
    _check_counts(cues, texts)
    parts = ["WEBVTT", ""]
    for number, (cue, text) in enumerate(zip(cues, texts), 1):
        lines = [line.translate(_VTT_ESCAPES) for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
        parts += [str(number), f"{_vtt_time(cue.start_ms)} --> {_vtt_time(cue.end_ms)}", *lines, ""]
    return "\n".join(parts).encode("utf-8")


def render_translation_vtt(cues: Sequence[Cue], translations: Sequence[str], language: str | None = None,
                           options: CueOptions = NETFLIX_CUES, limit_ms: int | None = None) -> bytes:
    """The translation as WebVTT, laid out as :func:`render_translation_srt` lays it out."""
    _check_counts(cues, translations)
    laid = lay_out(cues, translations, language, options, limit_ms)
    return render_vtt([t.cue for t in laid])


#: Speakers' colours in the bilingual ASS: white, then pale tints that stay readable on any picture.
_SPEAKER_COLOURS = (pysubs2.Color(255, 255, 255), pysubs2.Color(255, 240, 140), pysubs2.Color(150, 230, 255),
                    pysubs2.Color(170, 255, 170), pysubs2.Color(255, 190, 230), pysubs2.Color(255, 200, 150))


def _styles(font: str) -> dict[str, pysubs2.SSAStyle]:
    main = pysubs2.SSAStyle(
        fontname=font,
        fontsize=64,
        primarycolor=pysubs2.Color(255, 255, 255),
        outlinecolor=pysubs2.Color(0, 0, 0),
        backcolor=pysubs2.Color(0, 0, 0, 128),
        outline=3.0,
        shadow=1.0,
        alignment=pysubs2.Alignment.BOTTOM_CENTER,
        marginl=60,
        marginr=60,
        marginv=50,
    )
    original = main.copy()
    original.fontsize = 44
    original.primarycolor = pysubs2.Color(220, 220, 220)
    original.outline = 2.0
    return {TRANSLATION_STYLE: main, ORIGINAL_STYLE: original}


def speaker_name(speaker: int) -> str:
    """What a speaker is called until the person names them (1-based): the ASS style and the text label."""
    return f"Speaker {speaker}"


def style_name(name: str) -> str:
    """A speaker's name as an ASS style name: the format's fields are comma-separated, so a comma cannot stay."""
    cleaned = " ".join(name.replace(",", " ").split())
    return cleaned if cleaned not in ("", TRANSLATION_STYLE, ORIGINAL_STYLE) else f"{cleaned or 'Speaker'} (speaker)"


def _speaker_styles(main: pysubs2.SSAStyle, speakers: Sequence[str | None]) -> dict[str, pysubs2.SSAStyle]:
    """A style per speaker, coloured in order of first appearance."""
    styles = {}
    for n, name in enumerate(dict.fromkeys(style_name(k) for k in speakers if k)):
        style = main.copy()
        style.primarycolor = _SPEAKER_COLOURS[n % len(_SPEAKER_COLOURS)]
        styles[name] = style
    return styles


def speakers_of_ass(data: bytes) -> list[tuple[int, int, str]]:
    """(start ms, end ms, speaker) of each event of a bilingual ASS whose style is a speaker's."""
    subs = pysubs2.SSAFile.from_string(data.decode("utf-8-sig"), format_="ass")
    return [(int(e.start), int(e.end), e.style) for e in subs.events
            if not e.is_comment and e.style not in (TRANSLATION_STYLE, ORIGINAL_STYLE)]


def render_transcript_text(cues: Sequence[Cue], speakers: Sequence[str | None] | None = None) -> bytes:
    """The transcript as plain text: one cue a line, without times or markup.

    With speakers (each cue's first), a line where another speaker takes over starts with ``[Name]``.
    """
    lines, last = [], None
    for cue, speaker in zip(cues, speakers or [None] * len(cues)):
        label = f"[{speaker}] " if speaker and speaker != last else ""
        last = speaker or last
        lines.append(label + cue.flat_text + "\n")
    return "".join(lines).encode("utf-8")


def speakers_of_text(data: bytes, count: int) -> list[str | None] | None:
    """Each line's speaker in a transcript text of ``count`` lines (a label holds until the next); None when it has
    another number of lines (edited elsewhere) or no labels."""
    lines = data.decode("utf-8-sig").splitlines()
    if len(lines) != count:
        return None
    speakers: list[str | None] = []
    current = None
    for line in lines:
        if line.startswith("[") and "] " in line:
            current = line[1:line.index("] ")]
        speakers.append(current)
    return speakers if any(speakers) else None


def render_bilingual_ass(
    cues: Sequence[Cue], translations: Sequence[str], *, font: str = DEFAULT_FONT, language: str | None = None,
    options: CueOptions = NETFLIX_CUES, limit_ms: int | None = None, speakers: Sequence[str | None] | None = None
) -> bytes:
    """One event per translated cue: the translation on top, the original smaller underneath.

    A single event (``translation\\N{\\rOriginal}original``) rather than two keeps the
    pair together on every renderer; two events at the same time may be stacked in
    either order. A cue whose translation fell back to the original is shown once. A
    translation laid out as two cues (:func:`app.media.translation_timing.lay_out`) shows
    its whole original under each: the original stays on screen while it is spoken.
    With speaker labels (``speakers``: each cue's first speaker, by name), each speaker's
    cues have a style named for them (:func:`style_name`), in a colour of its own.
    """
    _check_counts(cues, translations)
    subs = pysubs2.SSAFile()
    subs.info["Title"] = "Sidecar bilingual subtitles"
    subs.info["PlayResX"] = str(PLAY_RES[0])
    subs.info["PlayResY"] = str(PLAY_RES[1])
    subs.info["ScaledBorderAndShadow"] = "yes"
    subs.info["WrapStyle"] = "0"
    subs.styles = _styles(font)
    voices = list(speakers) if speakers else [None] * len(cues)
    subs.styles.update(_speaker_styles(subs.styles[TRANSLATION_STYLE], voices))
    for laid in lay_out(cues, translations, language, options, limit_ms):
        source = cues[laid.source]
        top = escape_text(laid.cue.text)
        bottom = escape_text(source.text)
        if not top or laid.cue.text == source.text:
            text = bottom
        else:
            text = f"{top}\\N{{\\r{ORIGINAL_STYLE}}}{bottom}"
        voice = voices[laid.source]
        style = style_name(voice) if voice else TRANSLATION_STYLE
        subs.events.append(pysubs2.SSAEvent(start=laid.cue.start_ms, end=laid.cue.end_ms, style=style, text=text))
    return subs.to_string("ass").encode("utf-8")
