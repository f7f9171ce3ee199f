"""Jellyfin, Emby, Plex and Tautulli notifications, in the shapes those servers send, queue the right file.

The payloads follow the senders' own code and documentation: the Jellyfin Webhook
plugin's "Send All Properties" object (``DataObjectHelpers.AddBaseItemData``: ``Path``
only when the item has one) and its template-only form (no ``Path``: asked of the
server as ``/Items?Ids=…&Fields=Path``); Emby's multipart field ``data``; Plex's
multipart field ``payload`` with the poster attached as ``thumb`` (the file asked of
``/library/metadata/{ratingKey}``, ``Part@file``); Tautulli's JSON data as its Webhook
agent is told to send it. The servers see the library as ``/media``; the path map turns
that into this test's folder. The engine is not started: the test reads the queue.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests

from app.engine.job_options import JobOptions
from app.settings import Settings
from tests.server.media_server_standin import StandIn, stand_in
from tests.server.serving import Served, serving


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[Served, StandIn, Path]]:
    library = tmp_path / "library"
    (library / "Movies" / "Heat (1995)").mkdir(parents=True)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    with stand_in() as server:
        settings = Settings(target_lang="en", serve_path_map=[f"/media={library}"], jellyfin_url=server.url,
                            jellyfin_token="jf-key", emby_url=server.url, emby_token="emby-key", plex_url=server.url,
                            plex_token="plex-token")
        with serving(tmp_path / "data", settings, start_engine=False) as served:
            served.library.add(library, JobOptions(target_lang="en"))  # the person's library folder
            yield served, server, library


def new_movie(library: Path, name: str = "Heat (1995).mkv") -> Path:
    path = library / "Movies" / "Heat (1995)" / name
    path.write_bytes(b"\x1aE\xdf\xa3 not really a movie" * 10)
    return path


def queued(served: Served, reply: requests.Response) -> Path:
    assert reply.status_code == 202, reply.text
    job = reply.json()["job"]
    items = served.library.items(job)
    assert len(items) == 1
    return Path(items[0].path)


def jellyfin_payload(**extra: Any) -> dict[str, Any]:
    return {"ServerId": "a6b2e3a1c6f84f0b9d1e2f3a4b5c6d7e", "ServerName": "jellyfin", "ServerVersion": "10.10.7",
            "ServerUrl": "http://jellyfin:8096", "NotificationType": "ItemAdded", "Timestamp": "2026-12-05T06:01:02.1234567+00:00",
            "UtcTimestamp": "2026-12-05T06:01:02.1234567Z", "Name": "Heat", "Overview": "", "Tagline": "",
            "ItemId": "1b0c9b5e-8a4f-4c3e-9d6b-2f1e0a7c4d3b", "ItemType": "Movie", "RunTimeTicks": 102_000_000_000,
            "RunTime": "02:50:00", "Year": 1995, **extra}


def test_jellyfin_with_all_properties_queues_its_path(world: tuple[Served, StandIn, Path]) -> None:
    served, _, library = world
    movie = new_movie(library)
    reply = requests.post(f"{served.url}/webhook/jellyfin", timeout=30,
                          json=jellyfin_payload(Path="/media/Movies/Heat (1995)/Heat (1995).mkv", Audio_0_Language="eng"))
    assert queued(served, reply) == movie


def test_jellyfin_without_a_path_asks_the_server(world: tuple[Served, StandIn, Path]) -> None:
    served, server, library = world
    movie = new_movie(library)
    server.paths["1b0c9b5e-8a4f-4c3e-9d6b-2f1e0a7c4d3b"] = "/media/Movies/Heat (1995)/Heat (1995).mkv"
    assert queued(served, requests.post(f"{served.url}/webhook/jellyfin", json=jellyfin_payload(), timeout=30)) == movie
    asked = [r for r in server.requests if r.method == "GET"]
    assert asked[0].path.startswith("/Items?") and asked[0].headers["authorization"] == 'MediaBrowser Token="jf-key"'


def test_emby_library_new_as_multipart_data(world: tuple[Served, StandIn, Path]) -> None:
    served, _, library = world
    movie = new_movie(library)
    data = {"Title": "Heat (1995) was added to Movies", "Date": "2026-12-05T06:01:02.0000000Z", "Event": "library.new",
            "Severity": "Info", "Item": {"Name": "Heat", "ServerId": "f2e1", "Id": "8123", "DateCreated": "2026-12-05T06:00:00.0000000Z",
                                         "Path": "/media/Movies/Heat (1995)/Heat (1995).mkv", "Type": "Movie", "MediaType": "Video"},
            "Server": {"Name": "emby", "Id": "f2e1", "Version": "4.8.10.0"}}
    reply = requests.post(f"{served.url}/webhook/emby", files={"data": (None, json.dumps(data))}, timeout=30)
    assert queued(served, reply) == movie


def test_plex_library_new_asks_plex_for_the_file(world: tuple[Served, StandIn, Path]) -> None:
    served, server, library = world
    movie = new_movie(library)
    server.paths["1936"] = "/media/Movies/Heat (1995)/Heat (1995).mkv"
    payload = {"event": "library.new", "user": True, "owner": True,
               "Account": {"id": 1, "thumb": "https://plex.tv/users/1/avatar", "title": "owner"},
               "Server": {"title": "plex", "uuid": "54664a3d8acc39983675640ec9ce00b70af9cc36"},
               "Metadata": {"librarySectionType": "movie", "ratingKey": "1936", "key": "/library/metadata/1936",
                            "guid": "plex://movie/5d7768", "librarySectionTitle": "Movies", "librarySectionID": 1,
                            "type": "movie", "title": "Heat", "year": 1995, "addedAt": 1764914462}}
    reply = requests.post(f"{served.url}/webhook/plex", timeout=30,
                          files={"payload": (None, json.dumps(payload)), "thumb": ("thumb.jpg", b"\xff\xd8\xff\xe0 jpeg", "image/jpeg")})
    assert queued(served, reply) == movie
    asked = [r for r in server.requests if r.method == "GET"]
    assert asked[0].path == "/library/metadata/1936" and asked[0].headers["x-plex-token"] == "plex-token"


def test_tautulli_added(world: tuple[Served, StandIn, Path]) -> None:
    served, _, library = world
    movie = new_movie(library)
    reply = requests.post(f"{served.url}/webhook/tautulli", timeout=30,
                          json={"event": "added", "file": "/media/Movies/Heat (1995)/Heat (1995).mkv",
                                "filename": "Heat (1995).mkv", "mediatype": "movie"})
    assert queued(served, reply) == movie


def test_other_events_are_acknowledged_and_ignored(world: tuple[Served, StandIn, Path]) -> None:
    served, _, _ = world
    jobs = len(served.library.status())
    for server, kw in [("jellyfin", {"json": jellyfin_payload(NotificationType="PlaybackStart")}),
                       ("plex", {"files": {"payload": (None, json.dumps({"event": "media.play", "Metadata": {"ratingKey": "1"}}))}}),
                       ("emby", {"files": {"data": (None, json.dumps({"Event": "playback.start", "Item": {}}))}}),
                       ("tautulli", {"json": {"event": "watched", "file": "/media/x.mkv"}})]:
        reply = requests.post(f"{served.url}/webhook/{server}", timeout=30, **kw)
        assert reply.status_code == 200 and reply.json()["queued"] is False
    assert len(served.library.status()) == jobs


@pytest.mark.parametrize("path", ["/media/../elsewhere/x.mkv", "/elsewhere/x.mkv", "/media/Movies/link/x.mkv"])
def test_a_path_outside_the_library_is_refused(world: tuple[Served, StandIn, Path], path: str,
                                              caplog: pytest.LogCaptureFixture) -> None:
    served, _, library = world
    outside = library.parent / "elsewhere"
    (outside / "x.mkv").write_bytes(b"x" * 100)
    os.symlink(outside, library / "Movies" / "link")  # a link inside the library that leads out of it
    jobs = len(served.library.status())
    reply = requests.post(f"{served.url}/webhook/tautulli", json={"event": "added", "file": path}, timeout=30)
    assert reply.status_code == 403 and reply.json()["error"] == "outside_library"
    assert len(served.library.status()) == jobs
    assert any("webhook from tautulli refused" in r.getMessage() for r in caplog.records)


def test_a_malformed_notification_is_a_400(world: tuple[Served, StandIn, Path]) -> None:
    served, _, _ = world
    reply = requests.post(f"{served.url}/webhook/jellyfin", data=b"{not json", timeout=30,
                          headers={"content-type": "application/json"})
    assert reply.status_code == 400 and reply.json()["error"] == "invalid_argument"
    reply = requests.post(f"{served.url}/webhook/plex", json={"event": "library.new"}, timeout=30)
    assert reply.status_code == 400


def test_a_watched_folder_counts_as_the_library(tmp_path: Path) -> None:
    watched = tmp_path / "watched"
    watched.mkdir()
    with serving(tmp_path / "data", Settings(target_lang="en"), start_engine=False) as served:
        served.library.store.watches.add(str(watched), {})
        episode = watched / "Show S01E01.mkv"
        episode.write_bytes(b"x" * 100)
        reply = requests.post(f"{served.url}/webhook/tautulli", json={"event": "added", "file": str(episode)}, timeout=30)
        assert queued(served, reply) == episode
        reply = requests.post(f"{served.url}/webhook/tautulli", json={"event": "added", "file": str(watched)}, timeout=30)
        assert reply.status_code == 200 and reply.json()["queued"] is False  # a folder (a series): nothing queued


def test_a_killed_servers_request_jobs_are_removed_at_start(tmp_path: Path) -> None:
    upload = tmp_path / "data" / "serve-uploads" / "x" / "upload.wav"
    with serving(tmp_path / "data", start_engine=False) as served:
        upload.parent.mkdir(parents=True)
        upload.write_bytes(b"RIFF")
        served.library.add_request(upload, JobOptions(target_lang=""), "request_transcribe")
        assert [j.id for j in served.library.status() if j.options.get("request")]
    with serving(tmp_path / "data", start_engine=False) as served:
        assert [j for j in served.library.status() if j.options.get("request")] == []
        assert served.uploads_left() == []
