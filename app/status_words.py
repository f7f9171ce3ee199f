"""The words a person reads for a job and an item: one place for the GUI and ``sidecar status``.

The stored state names (``completed``, ``failed``…) stay as they are: scripts, the
JSON output and tests key on them. What a person reads is computed here from them and
from the job's item counts, so "completed" with every item failed reads "finished —
all 3 failed", and a note ("indexed (no visual model installed)", a skip) never sits
where errors are shown. Codes get their sentence and advice from
:data:`app.errors.EXPLANATIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from app.codes import (LINE_REASONS, NOTED_LINES, UNREACHABLE_SERVER, UNTRANSLATED_LINES, WAITING_FOR_PAIR, WHAT_TO_DO,
                       Code)
from app.errors import explain
from app.store.records import ItemView, JobSummary
from app.store.states import ItemState, JobSummaryStatus

#: Where the stored word is not what a person says; the others (paused, running…) read as they are.
_JOB_WORDS = {
    JobSummaryStatus.CREATING: "adding files",
    JobSummaryStatus.REVIEW: "needs review",
    JobSummaryStatus.COMPLETED: "finished",
}
Words = Callable[[str], str]
"""What a reader does with a code's English source text: the CLI keeps it, the windows translate it (app.gui.translations)."""


def as_is(text: str) -> str:
    return text


#: Cue numbers listed in a table cell; the tooltip and ``status`` list them all.
_SHOWN_CUES = 8


TO_DECIDE, FAILED, ALL_FAILED = "to_decide", "some_failed", "all_failed"  # what a count counts, not states


@dataclass(frozen=True)
class Count:
    """One count of a job's label: ``what`` is TO_DECIDE, FAILED, ALL_FAILED or a code whose explanation is counted.

    The label is kept as parts so each reader words it in its own language with the
    language's plural (the GUI through Qt's tr with ``n``), never by parsing English back.
    """

    what: str
    n: int

    def english(self) -> str:
        if self.what == TO_DECIDE:
            return f"{self.n} to decide"
        if self.what == ALL_FAILED:
            return f"all {self.n} failed"
        if self.what == FAILED:
            return f"{self.n} failed"
        explanation = explain(self.what)
        return f"{self.n} {explanation.counted if explanation else self.what}"


@dataclass(frozen=True)
class JobLabel:
    """A job's status for a person: ``status`` (the stored word) and the counts worth saying."""

    status: JobSummaryStatus
    counts: tuple[Count, ...]

    @property
    def word(self) -> str:
        """The English word for the status (``finished`` for completed…)."""
        return _JOB_WORDS.get(self.status, str(self.status))

    def english(self) -> str:
        return f"{self.word} — {', '.join(c.english() for c in self.counts)}" if self.counts else self.word


def job_label_parts(job: JobSummary) -> JobLabel:
    """``finished``, ``finished — 3 failed``, ``needs review — 2 to decide, 1 failed``… as parts.

    Items that completed with a problem result count too ("2 not translated"): their
    transcript was written, but not what the job asked for.
    """
    counts = []
    if job.status == JobSummaryStatus.REVIEW and job.review:
        counts.append(Count(TO_DECIDE, job.review))
    if job.failed:
        counts.append(Count(ALL_FAILED if job.failed == job.total and job.total > 1 else FAILED, job.failed))
    for code, n in sorted(job.results.items()):
        explanation = explain(code)
        if explanation is not None and explanation.counted:
            counts.append(Count(code, n))
    return JobLabel(JobSummaryStatus(job.status), tuple(counts))


def job_label(job: JobSummary) -> str:
    """The job's label in English words, as ``sidecar status`` prints it."""
    return job_label_parts(job).english()


@dataclass(frozen=True)
class Problem:
    """An item's error: its code, its own message, and the table's sentence and advice."""

    code: str
    message: str
    sentence: str
    advice: str
    what_to_do: str = WHAT_TO_DO  # the template introducing the advice, in the reader's language

    def cell(self) -> str:
        """One line for a table cell, in words: what happened to this item, else the table's sentence (codes: details only)."""
        return self.message or self.sentence or self.code

    def details(self) -> str:
        """Every line a person needs: the sentence, this item's message and what to do, in words (the code is
        for ``status --json`` and scripts; only a code the table has no words for yet is shown, with its message)."""
        if not self.sentence:
            # a code the table does not know: its own message is all there is
            lines = [f"{self.code}: {self.message}" if self.code and self.message else self.message or self.code]
        else:
            lines = [self.sentence]
            lines += [self.message] if self.message and self.message != self.sentence else []
        if self.advice:
            lines.append(self.what_to_do.format(advice=self.advice))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "sentence": self.sentence, "advice": self.advice}


@dataclass(frozen=True)
class ItemWords:
    """What the queue and ``status`` show for one item: a problem (Error column) and a note apart."""

    problem: Problem | None
    note: str
    note_details: str


def problem(code: str | None, message: str | None, words: Words = as_is) -> Problem:
    """``code`` and this occurrence's ``message`` with the table's sentence and advice, in ``words``."""
    explanation = explain(code)
    return Problem(code or "", message or "", words(explanation.sentence) if explanation else "",
                   words(explanation.advice) if explanation and explanation.advice else "", words(WHAT_TO_DO))


def _reason(code: str, words: Words) -> str:
    """A line's reason in words ("repeats another line"); a reason without words yet as it is stored."""
    text = LINE_REASONS.get(code)
    return words(text) if text else code


def _untranslated(detail: Mapping[str, Any], limit: int | None, words: Words = as_is) -> str:
    """``3 of 40 lines kept their original text: 4, 17, 30`` from a translation's item detail (or which server
    could not be reached, when that is why no line was translated)."""
    if detail.get("unreachable"):
        return words(UNREACHABLE_SERVER).format(server=detail["unreachable"])
    cues = list(detail.get("untranslated_cues") or [])
    if not cues:
        return ""
    shown = cues if limit is None else cues[:limit]
    more = "…" if len(shown) < len(cues) else ""
    reasons = detail.get("reasons") or {}  # the quality check's reason per cue number, where it gave one
    listed = ", ".join(f"{c} ({_reason(reasons[str(c)], words)})" if str(c) in reasons else str(c) for c in shown)
    return words(UNTRANSLATED_LINES).format(count=len(cues), cues=detail.get("cues", "?"), lines=listed + more)


def _waiting(detail: Mapping[str, Any], words: Words = as_is) -> str:
    """``waiting for the zh→de translator (install zh→en and en→de)`` from a waiting item's detail."""
    if not detail.get("from") or not detail.get("to"):
        return ""
    pair = f"{detail['from']}→{detail['to']}"
    return words(WAITING_FOR_PAIR).format(pair=pair, install=" + ".join(detail.get("install") or [pair]))


def item_words(item: ItemView, words: Words = as_is) -> ItemWords:
    """Split what an item reports into a problem and a note.

    A skip, and codes the table marks as notes, are notes; a failed or waiting item's
    code is a problem; an item result is a problem only when its code says so
    (``translation_failed``), otherwise it is a note (``no_speech``, ``indexed …``).
    """
    found: Problem | None = None
    notes: list[str] = []
    details: list[str] = []
    if item.error_code or item.error:
        explanation = explain(item.error_code)
        if item.status == ItemState.SKIPPED or (explanation is not None and explanation.note):
            sentence = words(explanation.sentence) if explanation else ""
            if item.error and explanation is not None and sentence != explanation.sentence:
                # a reader in another language: the code's sentence in it, the (English) occurrence in the details
                notes.append(sentence)
                details.append(f"{sentence}\n{item.error}")
            else:
                notes.append(item.error or sentence)
        else:
            found = problem(item.error_code, item.error, words)
    if item.result:
        explanation = explain(item.result)
        short, full = _untranslated(item.detail, _SHOWN_CUES, words), _untranslated(item.detail, None, words)
        if item.result == Code.WAITING_FOR_TRANSLATOR:
            short = full = _waiting(item.detail, words)
        if explanation is not None and not explanation.note:
            found = found or problem(item.result, full, words)
        else:
            sentence = words(explanation.sentence) if explanation else item.result
            notes.append(short or sentence)
            if explanation is not None:
                details += [sentence, full] if full else [sentence]
                details += [words(WHAT_TO_DO).format(advice=words(explanation.advice))] if explanation.advice else []
    for code in item.notes:  # what happened besides the result, where its code has words (over_reading_speed)
        explanation = explain(code)
        if explanation is None or not explanation.note:
            continue
        sentence = words(explanation.sentence)
        notes.append(sentence)
        lines = item.facts.lines(code)  # the lines such a note lists (over_reading_speed), from the item's facts
        details += [sentence] + ([words(NOTED_LINES).format(lines=", ".join(map(str, lines)))] if lines else [])
        details += [words(WHAT_TO_DO).format(advice=words(explanation.advice))] if explanation.advice else []
    note = "; ".join(n for n in notes if n)
    return ItemWords(found, note, "\n".join(d for d in details if d) or note)


def item_json(item: ItemView) -> dict[str, Any]:
    """An item as ``status --json`` prints it: the stored fields, the detail, and the words above."""
    words = item_words(item)
    return {"id": item.id, "path": item.path, "kind": item.kind, "status": item.status, "stage": item.stage,
            "error_code": item.error_code, "error": item.error, "result": item.result, "detail": item.detail,
            "problem": words.problem.to_dict() if words.problem else None, "note": words.note, "notes": list(item.notes),
            **item.facts.to_json()}


def item_line(item: ItemView) -> str:
    """An item as ``status`` prints it: one line, then the problem's advice or the note indented."""
    words = item_words(item)
    line = f"  item {item.id:>5} {item.status:>9} {item.stage or '-':>14}  {item.path}"
    if words.problem is not None:
        line += f"  [{words.problem.code}] {words.problem.message or words.problem.sentence}"
        if words.problem.message and words.problem.sentence:
            line += f"\n      {words.problem.sentence}"
        if words.problem.advice:
            line += f"\n      What to do: {words.problem.advice}"
    if words.note:
        note = words.note_details if item.detail else words.note
        line += "\n      note: " + note.replace("\n", "\n      ")
    return line


__all__ = ["ALL_FAILED", "Count", "FAILED", "ItemWords", "JobLabel", "Problem", "TO_DECIDE", "item_json", "item_line",
           "item_words", "job_label", "job_label_parts", "problem"]
