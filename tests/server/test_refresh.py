"""Once a webhook's file has its subtitle placed, its server is asked to refresh the item, as each server expects.

Loopback stand-ins record the method, path and headers of each request. The job runs
on the real store and scheduler with fake stages (tests/engine_stages.py), whose last
stage places a subtitle through the step protocol. A server that keeps failing is
retried with a doubling pause and then leaves the note ``media_server_refresh_failed``
on the item; the tokens never reach the log.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Iterator

import pytest

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.server.media_servers import ServerAccess, refresh
from app.server.refresh_follower import RefreshFollower
from app.server.webhooks import MediaEvent
from app.store.states import ItemState
from tests.engine_stages import fake_pipeline, make_media
from tests.server.media_server_standin import StandIn, stand_in

TOKENS = {"jellyfin": "jf-secret-1", "emby": "emby-secret-2", "plex": "plex-secret-3"}


@pytest.fixture
def placed(tmp_path: Path, data_dir: Path) -> Iterator[tuple[Library, int, int]]:
    """A finished job of one file whose subtitle was placed: (library, job id, item id)."""
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, EngineConfig(workers=1, poll_interval=0.02, progress_interval=0.0))
    try:
        make_media(tmp_path / "library", 1)
        job = lib.add(tmp_path / "library", JobOptions(target_lang="en"))
        lib.start()
        lib.run_until_idle()
        (item,) = lib.items(job.id)
        assert item.status == ItemState.COMPLETED and list((tmp_path / "library").glob("*.test.srt"))
        yield lib, job.id, item.id
    finally:
        lib.close()


def follow_once(lib: Library, job_id: int, server: StandIn, event: MediaEvent) -> None:
    follower = RefreshFollower(lib, refresher=functools.partial(refresh, first_pause_s=0.01))
    follower.follow(job_id, ServerAccess(server.url, TOKENS[event.server]), event)
    follower.check()
    follower.stop()  # waits for the refresh threads


@pytest.mark.parametrize(("event", "method", "path", "header", "value"), [
    (MediaEvent("jellyfin", "1b0c9b5e-8a4f-4c3e-9d6b-2f1e0a7c4d3b", None), "POST",
     "/Items/1b0c9b5e-8a4f-4c3e-9d6b-2f1e0a7c4d3b/Refresh", "authorization", f'MediaBrowser Token="{TOKENS["jellyfin"]}"'),
    (MediaEvent("emby", "8123", "/media/x.mkv"), "POST", "/Items/8123/Refresh", "x-emby-token", TOKENS["emby"]),
    (MediaEvent("plex", "1936", None), "PUT", "/library/metadata/1936/refresh", "x-plex-token", TOKENS["plex"]),
])
def test_each_server_is_asked_to_refresh_its_item(placed: tuple[Library, int, int], event: MediaEvent, method: str,
                                                  path: str, header: str, value: str,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    lib, job_id, item_id = placed
    with stand_in() as server:
        server.fail_refreshes = 2  # a server busy at first: retried, then it takes the request
        follow_once(lib, job_id, server, event)
    assert [(r.method, r.path) for r in server.refreshes()] == [(method, path)] * 3
    assert all(r.headers[header] == value for r in server.refreshes())
    assert lib.items(job_id)[0].notes == ()
    assert TOKENS[event.server] not in caplog.text


def test_a_refresh_that_never_gets_through_is_a_note_on_the_item(placed: tuple[Library, int, int],
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    lib, job_id, _ = placed
    with stand_in() as server:
        server.fail_refreshes = 100
        follow_once(lib, job_id, server, MediaEvent("jellyfin", "abc", None))
    assert len(server.refreshes()) == 4  # the attempts, then it gives up
    assert lib.items(job_id)[0].notes == ("media_server_refresh_failed",)
    assert TOKENS["jellyfin"] not in caplog.text


def test_an_item_not_finished_asks_nothing_yet(tmp_path: Path, data_dir: Path) -> None:
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, EngineConfig(workers=1, poll_interval=0.02, progress_interval=0.0))
    try:
        make_media(tmp_path / "library", 1)
        job = lib.add(tmp_path / "library", JobOptions(target_lang="en"))  # the engine is not started: still pending
        with stand_in() as server:
            follow_once(lib, job.id, server, MediaEvent("plex", "7", None))
        assert server.requests == []
    finally:
        lib.close()
