"""The plain records, state names and constants the facade answers with, for the windows.

The views draw what the engine returns (a job's summary, a review, a search hit, a model
row) and label it by name (a state, a hold, a media kind), but they must not import the
engine, the store, the models or the media code: those run on the facade's lanes, and a
view that reached them could block the window. This module is the one place the windows
take those frozen dataclasses, enums and constants from, so the import contract in
``pyproject.toml`` holds with no exception per record.
"""

from __future__ import annotations

from app.engine.background import BATTERY, PAUSED, SCHEDULE, Hold
from app.engine.instances import WorkerView
from app.engine.kinds import MEDIA_KINDS
from app.engine.review_evidence import DiffRow, ReviewEvidence, Side
from app.engine.search import MATCH_MEANING, MATCH_PICTURE, MATCH_TRANSLATED_QUERY, MATCH_TRANSLATION, SearchResult
from app.engine.subtitle_edits import SubtitleDocument
from app.engine.work_hours import ALL_DAY, NEVER_TEXT, BadWorkWindow, Window
from app.media.audio_streams import AudioChoice
from app.media.cue_edits import EditCue
from app.ml.catalogue import ROLE_PURPOSE
from app.ml.model_choice import ModelRow
from app.pipelines.image import SIDECAR_SUFFIX
from app.store.records import AudioStreamFact, ItemFacts, ItemView, JobSummary, LanguageShare, Review
from app.store.states import ItemState, JobSummaryStatus

__all__ = [
    "ALL_DAY", "BATTERY", "MATCH_MEANING", "MATCH_PICTURE", "MATCH_TRANSLATED_QUERY", "MATCH_TRANSLATION",
    "MEDIA_KINDS", "NEVER_TEXT", "PAUSED", "ROLE_PURPOSE", "SCHEDULE", "SIDECAR_SUFFIX",
    "AudioChoice", "AudioStreamFact", "BadWorkWindow", "DiffRow", "EditCue", "Hold", "ItemFacts", "ItemState", "ItemView", "JobSummary",
    "JobSummaryStatus", "LanguageShare", "ModelRow", "Review", "ReviewEvidence", "SearchResult", "Side", "SubtitleDocument",
    "Window", "WorkerView",
]
