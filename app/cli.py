"""The headless command line: the same engine as the GUI, for servers, scripts and tests."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from app import __version__
from app.add_progress import AddProgressLine
from app.download_progress import DownloadLine
import app.pipelines  # noqa: F401 - the CLI is the composition root: this registers the shipped media kinds
from app.engine import search as fused_search
from app.engine.desktop_notify import headless_notices
from app.engine.job_notices import wanted_kinds
from app.engine.kinds import ALL, MEDIA_KINDS
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.errors import Code, SidecarError, WorkerRefused
from app.media.glossary import GlossaryEntry, parse_lines
from app.ml.catalogue import ROLES
from app.ml.model_choice import placeholder_note
from app.ml.opus_mt import translator_note
from app.paths import data_dir as resolve_data_dir
from app.pipelines.video import KIND as VIDEO_KIND
from app.settings import LIST_HOLDS, SPECS, UI_LANGUAGE_CODES, Holds, SettingSpec, load_settings, ui_language_code
from app.shown_names import OneLineFormatter, readable, with_name_bytes
from app.status_words import item_json, item_line, job_label, problem
from app.store.states import JobSummaryStatus

log = logging.getLogger(__name__)

#: ``sidecar worker``'s exit status when a mapping is wrong and it did not start.
WORKER_REFUSED_EXIT = 3
#: ``sidecar run``'s exit status when an item failed or awaits review (the others were done).
ITEM_FAILED_EXIT = 1
#: Any command's exit status when what it was given is wrong: a path that cannot be added, a bad option.
USAGE_EXIT = 2
#: Any command's exit status when the library database cannot be opened (a wrong or unreachable URL, a newer schema).
DATABASE_EXIT = 4
RUN_EXIT_CODES = f"""exit status:
  0  every item is done or skipped
  {ITEM_FAILED_EXIT}  an item failed or awaits review (`sidecar status --items` says why); the others were done
  {USAGE_EXIT}  a path could not be added or an option is wrong (the other paths were added and run)
  {DATABASE_EXIT}  the library database cannot be opened
The command returns only after every model host it started has exited."""
DATABASE_CODES = frozenset({Code.BAD_DATABASE_URL, Code.DATABASE_UNAVAILABLE, Code.DATABASE_TOO_NEW})


def _common() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--data-dir", default=argparse.SUPPRESS, help="library database and workspace (env SIDECAR_HOME)")
    p.add_argument("--database-url", default=argparse.SUPPRESS, metavar="URL",
                   help="a PostgreSQL library (postgresql+psycopg://user@host:port/db) instead of the SQLite file "
                        "in the data dir (env SIDECAR_DATABASE_URL, setting database_url)")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output")
    return p


def _track_number(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a track number (1 is a file's first audio track)")
    return n


def _kinds(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in MEDIA_KINDS.choices() or k == ALL]
    if not kinds or unknown:
        raise argparse.ArgumentTypeError(f"{text!r}: choose from {', '.join(k for k in MEDIA_KINDS.choices() if k != ALL)}")
    return kinds


def _flag(spec: SettingSpec) -> dict[str, Any]:
    """How ``sidecar add`` takes a setting's flag: what it holds decides the argparse form; unset, it is None."""
    if spec.holds is Holds.BOOL:
        return {"action": argparse.BooleanOptionalAction}
    if spec.choices:
        return {"choices": spec.values}

    def parse(text: str) -> Any:
        try:
            return text if spec.holds in LIST_HOLDS else spec.parse_flag(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from exc

    repeat = {"action": "append"} if spec.holds in LIST_HOLDS else {}
    return {"type": parse, "metavar": spec.metavar or "VALUE", **repeat}


def _job_arguments(p: argparse.ArgumentParser) -> None:
    """What a new job takes (``sidecar add PATH...`` and ``sidecar run PATH...`` alike)."""
    p.add_argument("--top-level", action="store_true", help="do not descend into sub-folders")
    p.add_argument("--kind", choices=MEDIA_KINDS.choices(), default=ALL)
    for spec in SPECS.values():  # the settings a job freezes, each overridable for this job by its declared flag
        if spec.cli:
            given = "repeatable" if spec.holds in LIST_HOLDS else "default from settings"
            p.add_argument(spec.cli, dest=spec.name, help=f"{spec.help} ({given})", **_flag(spec))
    p.add_argument("--audio-track", type=_track_number, metavar="N",
                   help="subtitle audio track N (from 1, as players count) instead of the default/dialogue track")
    p.add_argument("--glossary-file", type=Path, metavar="FILE",
                   help="glossary terms, one `term` or `term = translation` a line")
    p.add_argument("--redo", action="store_true",
                   help="process files again even when already subtitled (subtitles you edited in Sidecar go to review)")


def build_parser() -> argparse.ArgumentParser:
    common = _common()
    parser = argparse.ArgumentParser(prog="sidecar", parents=[common],
                                     description="Subtitles for videos and audio, and a searchable index for images, next to your files.")
    parser.add_argument("--version", action="version", version=f"sidecar {__version__}")
    sub = parser.add_subparsers(dest="command")

    add = sub.add_parser("add", parents=[common], help="add folders or files as jobs")
    add.add_argument("paths", nargs="+", type=Path)
    _job_arguments(add)

    run = sub.add_parser(
        "run", parents=[common], help="run the engine headless; with folders or files, add them first and exit when done",
        description="Run the engine headless. `sidecar run PATH...` adds each path as `sidecar add` would (the same "
                    "job options) and runs in the same process until nothing is left to do.",
        epilog=RUN_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("paths", nargs="*", type=Path, help="folders or files to add first (implies --until-idle)")
    run.add_argument("--until-idle", action="store_true", help="exit once nothing is runnable or running")
    run.add_argument("--workers", type=int)
    run.add_argument("--ignore-schedule", action="store_true",
                     help="work now even outside the schedule or a timed pause set in Settings (battery rules still apply)")
    _job_arguments(run)

    status = sub.add_parser("status", parents=[common], help="jobs and their items")
    status.add_argument("job", nargs="?", type=int)
    status.add_argument("--items", action="store_true")

    for name in ("pause", "resume"):
        p = sub.add_parser(name, parents=[common], help=f"{name} a job or all")
        p.add_argument("job", nargs="?", type=int)
        p.add_argument("--all", action="store_true")

    retry = sub.add_parser("retry", parents=[common], help="retry a failed item, or every failed item of a job")
    retry.add_argument("target", type=int, help="item id, or job id with --job")
    retry.add_argument("--job", action="store_true", help="the number is a job id")

    again = sub.add_parser("translate-again", parents=[common],
                           help="translate again the items that got no translation (after installing a translator)")
    again.add_argument("job", nargs="?", type=int, help="only this job's items (default: every job's)")
    again.add_argument("--item", type=int, help="only this item")

    cancel = sub.add_parser("cancel", parents=[common], help="delete a job and its workspace (never your files)")
    cancel.add_argument("job", type=int)

    review = sub.add_parser("review", parents=[common], help="placements awaiting a decision")
    rsub = review.add_subparsers(dest="review_command", required=True)
    rsub.add_parser("list", parents=[common])
    resolve = rsub.add_parser("resolve", parents=[common])
    resolve.add_argument("id", type=int)
    resolve.add_argument("--decision", required=True, choices=("applied", "not-applied", "skip"))
    resolve.add_argument("--reason", required=True)
    resolve.add_argument("--actor", default="cli")

    models = sub.add_parser("models", parents=[common], help="list, install, remove or choose models")
    msub = models.add_subparsers(dest="models_command", required=True)
    msub.add_parser("list", parents=[common])
    install = msub.add_parser("install", parents=[common], help="download a catalogue model, or install a package file")
    install.add_argument("name", nargs="?", help="a catalogue name (sidecar models list)")
    install.add_argument("--from", dest="from_file", type=Path, metavar="PATH",
                         help="a translation package (.argosmodel) downloaded elsewhere; no network is used")
    for name in ("remove", "use"):
        m = msub.add_parser(name, parents=[common])
        m.add_argument("name")
    reg = msub.add_parser("register", parents=[common], help="use a model file or folder you already have")
    reg.add_argument("path", type=Path)
    reg.add_argument("--role", required=True, choices=ROLES)
    reg.add_argument("--name")

    search = sub.add_parser("search", parents=[common], help="search images and dialogue")
    search.add_argument("query", nargs="?", help="words to look for (any language)")
    search.add_argument("--image", type=Path, help="find images that look like this file")
    search.add_argument("--kind", choices=MEDIA_KINDS.search_choices(), default=ALL)
    search.add_argument("--limit", type=int, default=20)

    watch = sub.add_parser("watch", parents=[common], help="watch folders: new, changed, moved and deleted media follow")
    wsub = watch.add_subparsers(dest="watch_command", required=True)
    wadd = wsub.add_parser("add", parents=[common])
    wadd.add_argument("path", type=Path)
    wadd.add_argument("--kind", choices=MEDIA_KINDS.choices(), default=ALL)
    wadd.add_argument("--top-level", action="store_true", help="do not descend into sub-folders")
    wadd.add_argument("--polling", action="store_true", help="always poll (for shares Sidecar does not detect)")
    wsub.add_parser("remove", parents=[common]).add_argument("path", type=Path)
    wsub.add_parser("list", parents=[common])

    sub.add_parser("workers", parents=[common], help="the engine processes on this library, on every machine")

    worker = sub.add_parser(
        "worker", parents=[common], help="run the engine on another machine, on the library's database",
        description="A headless engine for another machine: it takes only the files its --path-map reaches. "
                    f"Exit status {WORKER_REFUSED_EXIT} when a mapping is wrong (nothing was claimed).")
    worker.add_argument("--path-map", action="append", default=[], metavar="LIBRARY_PREFIX=LOCAL_PREFIX",
                        help="where this machine sees a library folder (repeatable), e.g. '/mnt/nas/media=D:\\Media'")
    worker.add_argument("--kinds", type=_kinds, help="only these media kinds, comma-separated (e.g. video,image)")
    worker.add_argument("--gpu-only", action="store_true", help="take only the stages that run a model on the GPU")
    worker.add_argument("--until-idle", action="store_true", help="exit once nothing it can take is runnable or running")
    worker.add_argument("--workers", type=int)
    worker.add_argument("--workspace", type=Path, help="this machine's workspace folder (default: the data dir)")

    serve = sub.add_parser("serve", parents=[common],
                           help="run the engine with an HTTP server: Bazarr's Whisper API, media-server webhooks")
    serve.add_argument("--host", help="address to listen on (setting serve_host; default 127.0.0.1); "
                                      "any other than loopback needs a token")
    serve.add_argument("--port", type=int, help="port (setting serve_port; default 9000)")
    serve.add_argument("--token", help="the token clients must send (setting serve_token)")

    doctor = sub.add_parser("doctor", parents=[common], help="check this machine, the database and the models")
    doctor.add_argument("--no-probe", action="store_true", help="skip loading each model")
    return parser


def _emit(args: argparse.Namespace, payload: dict[str, Any], text: Callable[[], str]) -> None:
    if getattr(args, "json", False):
        print(json.dumps(with_name_bytes(payload), ensure_ascii=False, indent=2))
    else:
        print(readable(text()))


def _job_json(job: Any) -> dict[str, Any]:
    """A job for ``--json``: the stored status word, and ``label``, the words a person reads."""
    return {"id": job.id, "folder": job.folder, "status": job.status, "label": job_label(job), "total": job.total,
            "done": job.done, "failed": job.failed, "skipped": job.skipped, "review": job.review,
            "error_code": job.error_code, "error": job.error,
            "problem": problem(job.error_code, job.error).to_dict() if job.error_code else None}


def _glossary(args: argparse.Namespace) -> tuple[GlossaryEntry, ...]:
    """The job's own glossary: ``--glossary-file`` lines, then each ``--glossary`` (a later term wins)."""
    lines: list[str] = []
    if args.glossary_file is not None:
        try:
            lines += args.glossary_file.read_text(encoding="utf-8-sig").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise SidecarError(f"{args.glossary_file}: the glossary file could not be read ({exc})",
                               code=Code.GLOSSARY_UNREADABLE) from exc
    return parse_lines([*lines, *(args.glossary or ())])


def _add_paths(args: argparse.Namespace, lib: Library) -> tuple[list[dict[str, Any]], int]:
    """Add each of ``args.paths`` as a job (``sidecar add``, and ``sidecar run PATH...``): the jobs for the answer, the exit status.

    A path that cannot be added is said on stderr and the others are still added.
    """
    settings = load_settings(lib.data_dir)
    try:
        terms = _glossary(args)
    except SidecarError as exc:
        print(f"sidecar: {exc.message} ({exc.code})", file=sys.stderr)
        return [], USAGE_EXIT
    flags = {name: getattr(args, name) for name, spec in SPECS.items() if spec.cli and name != "glossary"}
    options = JobOptions.from_settings(settings, args.kind, args.top_level, redo=args.redo, audio_track=args.audio_track,
                                       glossary_entries=terms, **flags)  # the job's terms join the settings' glossary
    jobs: list[dict[str, Any]] = []
    code = 0
    for path in args.paths:
        try:
            with AddProgressLine(readable(str(path))) as progress:
                job = lib.add(path, options, progress=progress)
        except SidecarError as exc:
            print(readable(f"sidecar: {path}: {exc.message} ({exc.code})"), file=sys.stderr)
            code = USAGE_EXIT
            continue
        entry = {"id": job.id, "folder": job.folder, "status": job.status, "total": job.total, "skipped": job.skipped}
        unsupported = job.scan_report.get("unsupported")
        if unsupported:
            entry["not_added"] = unsupported
        if job.scan_report.get("problems"):
            entry["problems"] = job.scan_report["problems"]
        left_out = job.scan_report.get("left_out")
        if left_out and left_out["count"]:
            entry["left_out"] = left_out
        jobs.append(entry)
    if jobs and options.kind in (ALL, VIDEO_KIND.name) and options.target_lang:
        for note in (placeholder_note(lib.data_dir, settings.translation_endpoint),
                     translator_note(lib.data_dir, options.target_lang, settings.translation_endpoint)):
            if note:  # logged (stderr): the --json answer on stdout stays the same
                log.warning("%s", note)
    return jobs, code


def _added_lines(jobs: list[dict[str, Any]]) -> str:
    lines = []
    for j in jobs:
        lines.append(f"job {j['id']}: {j['folder']} — {j['total']} to do, {j['skipped']} skipped ({j['status']})")
        if "not_added" in j:
            lines.append(f"  not added: {j['not_added']['count']} {', '.join(j['not_added']['kinds'])} file(s): {j['not_added']['message']}")
        if "left_out" in j:
            lines.append(f"  left out: {j['left_out']['count']} system/hidden file(s) or folder(s) "
                         f"(e.g. {', '.join(j['left_out']['examples'])}); see Settings → Scanning")
        for p in j.get("problems", []):
            lines.append(f"  {p['code']}: {p['path']} ({p['message']})")
    return "\n".join(lines)


def cmd_add(args: argparse.Namespace, lib: Library) -> int:
    jobs, code = _add_paths(args, lib)
    _emit(args, {"jobs": jobs}, lambda: _added_lines(jobs))
    return code


def _wait_for_signal() -> None:
    """Block until SIGINT or SIGTERM: the engine then stops at its next checkpoints."""
    stop = {"flag": False}

    def _stop(signum: int, frame: Any) -> None:
        stop["flag"] = True

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    while not stop["flag"]:
        time.sleep(0.5)


def cmd_run(args: argparse.Namespace, lib: Library) -> int:
    """``sidecar run``; with paths, ``sidecar add PATH...`` first in this same process, then until idle.

    One interpreter for both saves a second start of Python, its imports and the library's
    opening (about 1.4 CPU seconds, issue 36), and the Whisper host spawned at this
    process's start (``app.__main__``) loads while the paths are scanned.
    """
    from app.engine.watch import WatchService

    added: list[dict[str, Any]] = []
    code = 0
    if args.paths:
        added, code = _add_paths(args, lib)
        if not getattr(args, "json", False):
            print(readable(_added_lines(added)), flush=True)
    watches = WatchService(lib)
    settings = load_settings(lib.data_dir)
    with headless_notices(lib.status, wanted_kinds(settings.notify_finished, settings.notify_review,
                                                   settings.notify_failed)):
        if args.until_idle or args.paths:
            watches.catch_up()
            lib.start()
            lib.run_until_idle()
        else:
            lib.start()
            watches.start()
            _wait_for_signal()
            watches.stop()
    ran = _report_jobs(args, lib, {"added": added} if args.paths else {})
    return code or ran


def _report_jobs(args: argparse.Namespace, lib: Library, extra: dict[str, Any] | None = None) -> int:
    jobs = lib.status()
    loads = lib.model_loads()
    bad = any(j.failed or j.review or j.status == JobSummaryStatus.FAILED for j in jobs)
    _emit(args, {**(extra or {}), "jobs": [_job_json(j) for j in jobs], "model_loads": loads},
          lambda: "\n".join(f"job {j.id}: {job_label(j)} ({j.done}/{j.total} done, {j.failed} failed, {j.review} review)"
                            for j in jobs))
    return ITEM_FAILED_EXIT if bad else 0


def cmd_status(args: argparse.Namespace, lib: Library) -> int:
    jobs = lib.status(args.job)
    with_items = args.items or args.job is not None
    listed = {j.id: lib.items(j.id) for j in jobs} if with_items else {}
    out = []
    for j in jobs:
        entry = _job_json(j)
        if with_items:
            entry["items"] = [item_json(i) for i in listed[j.id]]
        out.append(entry)

    def text() -> str:
        lines = []
        for j in jobs:
            lines.append(f"job {j.id} {job_label(j)}  {j.done}/{j.total} done, {j.failed} failed, "
                         f"{j.skipped} skipped, {j.review} review  {j.folder}")
            if j.error_code:
                lines.append(f"  [{j.error_code}] " + problem(j.error_code, j.error).details().replace("\n", "\n  "))
            lines += [item_line(i) for i in listed.get(j.id, [])]
        return "\n".join(lines) or "no jobs"

    _emit(args, {"jobs": out, "model_loads": lib.model_loads()}, text)
    return 0


def _pause_resume(args: argparse.Namespace, lib: Library, pause: bool) -> int:
    if args.job is None and not args.all:
        print("sidecar: name a job or use --all", file=sys.stderr)
        return 2
    (lib.pause if pause else lib.resume)(None if args.all else args.job)
    word = "paused" if pause else "resumed"
    _emit(args, {"ok": True, "job": None if args.all else args.job, "state": word},
          lambda: f"{'all jobs' if args.all else f'job {args.job}'} {word}")
    return 0


def cmd_workers(args: argparse.Namespace, lib: Library) -> int:
    workers = lib.workers()

    def text() -> str:
        rows = [("MACHINE", "ROLE", "PID", "RUNNING", "HEARTBEAT", "GPU", "ALIVE")]
        rows += [(w.machine, w.role, str(w.pid), ", ".join(f"{n}×{k}" for k, n in sorted(w.running.items())) or "idle",
                  f"{w.heartbeat_age:.0f} s ago", w.gpu or "-", "yes" if w.alive else "no") for w in workers]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows) if workers else "no workers"

    _emit(args, {"workers": [w.as_dict() for w in workers]}, text)
    return 0


def cmd_retry(args: argparse.Namespace, lib: Library) -> int:
    n = lib.retry_job(args.target) if args.job else lib.retry_item(args.target)
    _emit(args, {"retried": n}, lambda: f"{n} item(s) queued again")
    return 0


def cmd_translate_again(args: argparse.Namespace, lib: Library) -> int:
    """Queue the untranslated items again; ``sidecar run`` (or the open app) then translates them and writes the files."""
    n = lib.translate_again(args.job, args.item)
    _emit(args, {"queued": n}, lambda: (f"{n} item{'' if n == 1 else 's'} queued to translate again"
                                        if n else "no item is waiting for a translation"))
    return 0


def cmd_cancel(args: argparse.Namespace, lib: Library) -> int:
    lib.cancel(args.job)
    _emit(args, {"cancelled": args.job}, lambda: f"job {args.job} removed (your files were not touched)")
    return 0


def _review_json(r: Any) -> dict[str, Any]:
    return {"id": r.id, "item": r.item, "path": r.path, "target": r.target, "expected_sha256": r.expected_sha256,
            "found_sha256": r.found_sha256, "error": r.error, "attempts": r.attempts, "state": r.state,
            "decision": r.decision, "actor": r.decision_actor, "reason": r.decision_reason, "revision": r.revision}


def cmd_review(args: argparse.Namespace, lib: Library) -> int:
    if args.review_command == "list":
        reviews = lib.reviews()
        _emit(args, {"reviews": [_review_json(r) for r in reviews]},
              lambda: "\n".join(f"review {r.id}: {r.target}\n  expected {r.expected_sha256}\n  found    {r.found_sha256}\n  {r.error}"
                                for r in reviews) or "nothing awaits review")
        return 0
    review = lib.decide(args.id, args.decision, args.reason, actor=args.actor)
    _emit(args, {"review": _review_json(review)}, lambda: f"review {review.id}: {review.decision} by {review.decision_actor}")
    return 0


def cmd_search(args: argparse.Namespace, lib: Library) -> int:
    results = lib.search(args.query, args.image, args.kind, args.limit)

    def text() -> str:
        lines = []
        for r in results:
            at = f" @ {int(r.start) // 60}:{r.start % 60:05.2f}" if r.start is not None else ""
            lines.append(f"{r.score:.4f}  {r.kind:<8} {r.path}{at}")
            if r.snippet:
                lines.append(f"          {' '.join(r.snippet.split())}")
            if r.match == fused_search.MATCH_TRANSLATION:
                lines.append(f"          matched the translation of “{' '.join(r.match_text.split())}”")
            elif r.match == fused_search.MATCH_TRANSLATED_QUERY:
                lines.append(f"          matched the query translated as “{r.match_text}”")
        return "\n".join(lines) or f"No results for “{args.query or args.image}”."

    _emit(args, {"results": [r.to_dict() for r in results]}, text)
    return 0


def cmd_watch(args: argparse.Namespace, lib: Library) -> int:
    from app.engine import watch

    if args.watch_command == "add":
        options = watch.watch_options(load_settings(lib.data_dir), args.kind, args.top_level)
        w = watch.add_watch(lib, args.path, options, polling=args.polling)
        _emit(args, {"watch": {"folder": w.folder, "job": w.job_id, "polling": w.polling}},
              lambda: f"watching {w.folder} (new files go to job {w.job_id})")
    elif args.watch_command == "remove":
        w = watch.remove_watch(lib, args.path)
        _emit(args, {"removed": w.folder}, lambda: f"stopped watching {w.folder} (its items and outputs stay)")
    else:
        watches = [(w, JobOptions.from_stored(w.options)) for w in lib.store.watches.list()]
        rows = [{"folder": w.folder, "job": w.job_id, "polling": w.polling, "kind": frozen.kind,
                 "top_level": frozen.top_level, "last_scan_at": w.last_scan_at} for w, frozen in watches]
        _emit(args, {"watches": rows}, lambda: "\n".join(
            f"{r['folder']}  (job {r['job']}{', polling' if r['polling'] else ''})" for r in rows) or "no watched folders")
    return 0


def cmd_worker(args: argparse.Namespace, root: Path) -> int:
    """``sidecar worker``: check every mapping, then run like ``sidecar run`` within the worker's scope."""
    from app.engine.path_map import PathMap
    from app.engine.worker import check_mappings, worker_database, worker_scope

    paths = PathMap.parse(args.path_map)
    workspace = resolve_data_dir(args.workspace) if args.workspace else root
    overrides: dict[str, Any] = {"crash_reports": True, "role": "worker"}
    if args.workers:
        overrides["workers"] = args.workers
    try:
        database = worker_database(getattr(args, "database_url", None))
        lib = Library.open(workspace, database=database, paths=paths, scope=worker_scope(args.kinds, args.gpu_only),
                           **overrides)
        try:
            checks = check_mappings(lib.store, paths)
        except WorkerRefused:
            lib.close()
            raise
    except WorkerRefused as exc:
        if getattr(args, "json", False):
            print(json.dumps({"error": {"code": exc.code, "message": exc.message}}))
        print(f"sidecar worker: not starting: {exc.message} ({exc.code})", file=sys.stderr)
        return WORKER_REFUSED_EXIT
    try:
        for c in checks:
            log.info("--path-map %s: %d of %d sampled files visible", c.given, c.visible, c.listed)
        lib.start()
        if args.until_idle:
            lib.run_until_idle()
        else:
            _wait_for_signal()
        return _report_jobs(args, lib)
    finally:
        lib.close()


def cmd_models(args: argparse.Namespace, root: Path) -> int:
    from app.ml.local_models import models_register
    from app.ml.model_choice import models_list, models_use
    from app.ml.model_install import install_from_file, models_install, models_remove

    if args.models_command == "list":
        rows = models_list(root)
        _emit(args, {"models": rows}, lambda: "\n".join(_model_line(r) for r in rows))
        return 0
    if args.models_command == "install":
        if (args.name is None) == (args.from_file is None):
            print("sidecar models install: give a catalogue NAME or --from PATH", file=sys.stderr)
            return 2
        if args.from_file is not None:
            result = install_from_file(root, args.from_file)
        else:
            line = DownloadLine(args.name, quiet=getattr(args, "json", False))
            result = models_install(root, args.name, line.update)
            line.close()
    elif args.models_command == "remove":
        result = models_remove(root, args.name)
    elif args.models_command == "use":
        result = models_use(root, args.name)
    else:
        result = models_register(root, args.path, args.role, args.name)
    _emit(args, {"model": result}, lambda: json.dumps(result, indent=2, ensure_ascii=False))
    return 0


def _model_line(row: Mapping[str, Any]) -> str:
    """One model of ``models list``: in use, name, role, state, where from, and what a person must know."""
    marks = []
    if row["placeholder"]:
        marks.append("placeholder: its translations are refused")
    if row["source"] == "download" and not row["sha256_verified"]:
        marks.append("unverified: no published sha256, pinned at its first download")
    if row["attribution"] and row["licence"].startswith("CC-BY"):
        marks.append(f"credit: {row['attribution']}")
    kind = row["pair"] or row["role"]
    extra = f" ({'; '.join(marks)})" if marks else ""
    return (f"{'*' if row['active'] else ' '} {row['name']:<32} {kind:<15} "
            f"{'installed' if row['installed'] else 'available':<10} {row['source']}{extra}")


def cmd_doctor(args: argparse.Namespace, root: Path) -> int:
    from app.doctor import collect_report, format_report

    report = collect_report(root, probe_models=not args.no_probe)
    _emit(args, report, lambda: format_report(report))
    return 0 if report.get("ok") else 1


def cmd_serve(args: argparse.Namespace, root: Path) -> int:
    from app.server.serve import serve

    return serve(root, args.host, args.port, args.token)


WITHOUT_ENGINE: dict[str, Callable[[argparse.Namespace, Path], int]] = {"models": cmd_models, "doctor": cmd_doctor,
                                                                         "worker": cmd_worker, "serve": cmd_serve}

COMMANDS: dict[str, Callable[[argparse.Namespace, Library], int]] = {
    "add": cmd_add, "run": cmd_run, "status": cmd_status, "retry": cmd_retry, "cancel": cmd_cancel,
    "translate-again": cmd_translate_again,
    "review": cmd_review, "search": cmd_search, "watch": cmd_watch, "workers": cmd_workers,
    "pause": lambda a, lib: _pause_resume(a, lib, True),
    "resume": lambda a, lib: _pause_resume(a, lib, False),
}


@dataclass(frozen=True)
class GuiRequest:
    """``sidecar`` alone, ``sidecar PATH…`` (a file manager's "Open with") or ``sidecar --tray`` (sign-in start)."""

    data_dir: str | None
    paths: list[Path]
    tray: bool
    language: str | None = None  # the windows' language for this run (``--language zh_CN``); None: the setting's


def _ui_language(text: str) -> str:
    code = ui_language_code(text)
    if code is None:
        raise argparse.ArgumentTypeError(f"{text!r}: the windows speak {', '.join(UI_LANGUAGE_CODES)}")
    return code


def _gui_request(parser: argparse.ArgumentParser, argv: Sequence[str]) -> GuiRequest | None:
    commands = {name for action in parser._actions if isinstance(action, argparse._SubParsersAction) for name in action.choices}
    gui = argparse.ArgumentParser(add_help=False)
    gui.add_argument("--data-dir")
    gui.add_argument("--tray", action="store_true")
    gui.add_argument("--language", type=_ui_language)
    gui.add_argument("paths", nargs="*")
    known, rest = gui.parse_known_args(argv)
    if rest or (known.paths and known.paths[0] in commands):
        return None
    return GuiRequest(known.data_dir, [Path(p) for p in known.paths], known.tray, known.language)


def _log_handler() -> logging.Handler:
    """Sidecar's log lines on stderr: one line each, however odd the file names they quote."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLineFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    gui = _gui_request(parser, sys.argv[1:] if argv is None else argv)
    if gui is not None:
        try:
            from app.gui.app import run_gui
        except ImportError as exc:
            print(f"sidecar: the desktop app needs PySide6, which is not installed ({exc}); install it with "
                  "`pip install sidecar[gui]`, or use the commands (`sidecar --help`)", file=sys.stderr)
            return USAGE_EXIT
        logging.basicConfig(level=logging.WARNING, handlers=[_log_handler()])
        return run_gui(gui.paths, resolve_data_dir(gui.data_dir), start_in_tray=gui.tray, ui_language=gui.language)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.command in ("run", "worker", "serve") else logging.WARNING,
                        handlers=[_log_handler()])
    if args.command is None:
        parser.print_help()
        return 0
    try:
        if args.command in WITHOUT_ENGINE:
            return WITHOUT_ENGINE[args.command](args, resolve_data_dir(getattr(args, "data_dir", None)))
        overrides: dict[str, Any] = {}
        if getattr(args, "database_url", None):
            overrides["database_url"] = args.database_url
        if args.command == "run":
            # This process is the engine: a crash report lets the next start tell a crash from a kill.
            overrides["crash_reports"] = True
            if args.workers:
                overrides["workers"] = args.workers
            overrides["ignore_schedule"] = args.ignore_schedule
        lib = Library.open(resolve_data_dir(getattr(args, "data_dir", None)), **overrides)
        try:
            return COMMANDS[args.command](args, lib)
        finally:
            lib.close()  # every model host ends here, and is waited for
    except SidecarError as exc:
        if getattr(args, "json", False):
            print(json.dumps({"error": {"code": exc.code, "message": exc.message}}))
        else:
            print(f"sidecar: {exc.message} ({exc.code})", file=sys.stderr)
        return DATABASE_EXIT if exc.code in DATABASE_CODES else USAGE_EXIT


if __name__ == "__main__":
    sys.exit(main())
