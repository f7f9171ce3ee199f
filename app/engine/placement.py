"""Writing a stage's outputs next to the source through the step protocol (SPEC §5).

The plan — every target path and every existing-file decision, keep-both numbers
included — is frozen in step rows before the first byte is written, and a replay
after a crash executes that same plan. A ``started`` step is settled by evidence:
expected content there → succeeded; absent, or content we know (ours, or what was
there before) → not applied, do it again; anything else → manual review.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from pathlib import Path
from typing import Callable, Sequence

from app.atomic_write import atomic_write, remove_stray_temp, sha256_file
from app.engine.path_map import SAME_PATHS, LocalPaths
from app.engine.stage import Output, Placed
from app.errors import Code, MappingUnavailable, NeedsReview, SidecarError
from app.settings import SPECS
from app.store import Store
from app.store.records import Claim, Step, StepIntent
from app.store.states import StepState

log = logging.getLogger(__name__)

POLICIES = SPECS["existing_policy"].values
# Names are built from the source's own name, which its folder already accepts; only what
# could leave the folder is replaced, so outputs keep matching the video's stem.
_UNSAFE = re.compile(r"[\x00/\\]" if os.sep == "\\" or os.altsep else r"[\x00/]")


def safe_name(name: str) -> str:
    """A bare file name that cannot leave its folder, whatever the media's name held."""
    cleaned = _UNSAFE.sub("_", name)
    if not cleaned.strip(". ") or cleaned in {".", ".."}:
        raise SidecarError(f"cannot place a file named {name!r}", code=Code.INVALID_NAME)
    if len(os.fsencode(cleaned)) > 255:
        raise SidecarError(f"the output name for {name!r} is longer than file systems allow", code=Code.NAME_TOO_LONG)
    return cleaned


#: What Windows refuses in a file name: these characters, controls, a trailing dot or space, device names.
_WINDOWS_UNSAFE = re.compile(r'[<>:"|?*\x00-\x1f]|[. ]$')
_WINDOWS_DEVICES = {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(1, 10)), *(f"LPT{n}" for n in range(1, 10))}


def invalid_on_windows(name: str) -> bool:
    """Whether Windows refuses ``name`` (a file a Linux NAS holds as ``Q&A: part 1?.mp4``, seen through a share)."""
    return bool(_WINDOWS_UNSAFE.search(name)) or name.split(".")[0].upper() in _WINDOWS_DEVICES


def keep_both_name(target: Path, taken: set[Path]) -> Path:
    """``Movie.zh.srt`` → ``Movie.zh.1.srt`` (then .2, …): the first name free on disk and in the plan."""
    n = 1
    while True:
        candidate = target.with_name(f"{target.stem}.{n}{target.suffix}")
        if candidate not in taken and not candidate.exists():
            return candidate
        n += 1


def operation_id(item_id: int, revision: int, target: Path, sha256: str) -> str:
    return hashlib.sha256(f"{item_id}\n{revision}\n{target}\n{sha256}".encode("utf-8", "surrogateescape")).hexdigest()


class Placement:
    """Executes one item's placements for one claim; ``observe`` sees each step event (logs, tests).

    Step rows name targets by the library's path, so every machine (and the person's
    edits, and `is_our_output`) agrees on them; bytes go through ``paths``, this
    machine's view of that path (a worker's ``--path-map``).
    """

    def __init__(self, store: Store, claim: Claim, workspace: Path, policy: str,
                 verify_source: Callable[[], None], observe: Callable[[str, Step], None] | None = None,
                 paths: LocalPaths = SAME_PATHS):
        if policy not in POLICIES:
            raise SidecarError(f"unknown existing-file policy {policy!r}", code=Code.INVALID_SETTING)
        self.store, self.claim, self.workspace, self.policy = store, claim, workspace, policy
        self.verify_source = verify_source
        self.observe = observe or (lambda event, step: None)
        self.paths = paths

    def _local(self, library_path: str) -> Path:
        local = self.paths.to_local(library_path)
        if local is None:
            raise MappingUnavailable(f"no --path-map of this worker covers {library_path}")
        return Path(local)

    def _library(self, local: Path) -> str:
        library = self.paths.to_library(str(local))
        if library is None:
            raise MappingUnavailable(f"{local} is outside every --path-map of this worker")
        return library

    def place(self, outputs: Sequence[Output]) -> list[Placed]:
        steps = self.store.steps.freeze_plan(self.claim, self._plan(outputs))
        return [self._execute(step) for step in steps]

    def _plan(self, outputs: Sequence[Output]) -> list[StepIntent]:
        folder = self._local(self.claim.item_path).parent
        content_dir = self.workspace / "place"
        content_dir.mkdir(parents=True, exist_ok=True)
        taken: set[Path] = set()
        intents = []
        for seq, out in enumerate(outputs):
            target = folder / safe_name(out.name)
            expected = hashlib.sha256(out.data).hexdigest()
            content = content_dir / f"{seq}-{expected[:16]}"
            if sha256_file(content) != expected:
                atomic_write(content, out.data, expected)
            prior = sha256_file(target)
            action = "write"
            if prior is not None and prior != expected and self.store.edits.is_person_revision(self._library(target), prior):
                action = "ask"  # the person edited this file in Sidecar: whatever the policy, they decide
            elif prior is not None and prior != expected and not self.store.steps.is_our_output(self._library(target), prior):
                if self.policy == "skip":
                    action = "skip"
                elif self.policy == "overwrite":
                    action = "overwrite"
                else:
                    target = keep_both_name(target, taken)
                    prior = None
            elif prior is not None and prior != expected:
                action = "overwrite"
            taken.add(target)
            library_target = self._library(target)
            intents.append(StepIntent(
                op_id=operation_id(self.claim.item_id, self.claim.item_revision, Path(library_target), expected),
                seq=seq, role=out.role, target=library_target, content_path=str(content), expected_sha256=expected,
                prior_sha256=prior, action=action,
            ))
        return intents

    def _known(self, step: Step, found: str | None) -> bool:
        """Content at the target that is not someone else's: absent, what was there at plan time, or ours."""
        return found is None or found == step.prior_sha256 or self.store.steps.is_our_output(step.target, found)

    def _execute(self, step: Step) -> Placed:
        target = Path(step.target)
        if step.state == StepState.SUCCEEDED:
            return Placed(step.role, target, "written")
        if step.state == StepState.SKIPPED:
            return Placed(step.role, target, "skipped_existing")
        if step.state == StepState.MANUAL_REVIEW:
            raise NeedsReview(f"{target.name} awaits a review decision")
        if step.state == StepState.STARTED:
            local = self._local(step.target)
            found = sha256_file(local)
            remove_stray_temp(local, step.op_id)
            if found == step.expected_sha256:
                self._move(step, (StepState.STARTED,), StepState.SUCCEEDED, found_sha256=found)
                return Placed(step.role, target, "written")
            if not self._known(step, found):
                self._to_review(step, (StepState.STARTED,), found)
            self._move(step, (StepState.STARTED,), StepState.PREPARED)
        return self._apply(step)

    def _apply(self, step: Step) -> Placed:
        target, local = Path(step.target), self._local(step.target)
        if step.action == "skip":
            self._move(step, (StepState.PREPARED,), StepState.SKIPPED)
            return Placed(step.role, target, "skipped_existing")
        self.verify_source()
        found = sha256_file(local)
        if found == step.expected_sha256:
            self._move(step, (StepState.PREPARED,), StepState.SUCCEEDED, found_sha256=found)
            return Placed(step.role, target, "unchanged")
        # A person who answered "not applied" asked for the step to be done again over what is there.
        if step.decision != "not_applied" and found is not None and step.action == "ask":
            self._to_review(step, (StepState.PREPARED,), found, edited=True)
        if not self._known(step, found) and step.action != "overwrite" and step.decision != "not_applied":
            self._to_review(step, (StepState.PREPARED,), found)
        data = self._content(step).read_bytes()
        if hashlib.sha256(data).hexdigest() != step.expected_sha256:
            raise SidecarError(f"the prepared content for {target.name} is damaged", code=Code.WORKSPACE_DAMAGED, transient=False)
        self._move(step, (StepState.PREPARED,), StepState.STARTED)
        self.observe(StepState.STARTED, step)

        def fence() -> None:
            self.verify_source()
            self.store.stages.assert_held(self.claim)

        try:
            atomic_write(local, data, step.op_id, before_replace=fence)
        except BaseException:
            if sha256_file(local) != step.expected_sha256:
                self._try_move(step, (StepState.STARTED,), StepState.PREPARED)
            raise
        self.observe("replaced", step)
        self._move(step, (StepState.STARTED,), StepState.SUCCEEDED, found_sha256=step.expected_sha256)
        return Placed(step.role, target, "written")

    def _content(self, step: Step) -> Path:
        """The prepared bytes: where the plan put them, or (planned by another machine, whose
        workspace this one cannot see) the same name in this claim's workspace, which ``_plan``
        has just filled with this run's outputs; a differing output there is caught as damaged."""
        planned = Path(step.content_path)
        return planned if planned.is_file() else self.workspace / "place" / planned.name

    def _move(self, step: Step, src: Sequence[StepState], dst: StepState, **values: object) -> None:
        self.store.steps.transition(self.claim, step.id, src, dst, **values)

    def _try_move(self, step: Step, src: Sequence[StepState], dst: StepState) -> None:
        try:
            self._move(step, src, dst)
        except SidecarError as exc:
            log.warning("could not reset step %s: %s", step.id, exc)

    def _to_review(self, step: Step, src: Sequence[StepState], found: str | None, edited: bool = False) -> None:
        if edited:
            code, message = Code.PERSON_EDITED, (
                f"{Path(step.target).name} holds your edit from Sidecar's editor; this run made a new version. "
                "Applied keeps your edit, Not applied writes Sidecar's version")
        else:
            code, message = Code.TARGET_CONTESTED, (
                f"{Path(step.target).name} was changed by someone else while Sidecar was writing it "
                f"(expected {step.expected_sha256[:12]}, found {(found or 'nothing')[:12]})")
        self._move(step, src, StepState.MANUAL_REVIEW, found_sha256=found, error_code=code, error=message)
        raise NeedsReview(message)


def cleanup_stray_temps(store: Store, paths: LocalPaths = SAME_PATHS) -> int:
    """Start-up recovery: remove temp files that steps of unheld stages may have left next to media.

    A worker cleans only what its mappings reach; the rest is for the machines that see it.
    """
    removed = 0
    for step in store.steps.unsettled_steps():
        local = paths.to_local(step.target)
        if local is None:
            continue
        try:
            removed += remove_stray_temp(Path(local), step.op_id)
        except OSError as exc:
            log.warning("could not clean %s: %s", step.target, exc)
    if removed:
        log.info("removed %d stray temp file(s)", removed)
    return removed


__all__ = ["Placement", "POLICIES", "cleanup_stray_temps", "keep_both_name", "safe_name", "operation_id"]
