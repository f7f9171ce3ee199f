"""Talking back to the media servers: where a new item's file is, and "refresh this item" once its subtitle is placed.

Jellyfin takes its token as ``Authorization: MediaBrowser Token="…"``, Emby as
``X-Emby-Token``, Plex as ``X-Plex-Token``. A refresh runs on its own thread, retried
with a doubling pause; it never holds up placement (the subtitle is already there) and
a refresh that never got through is a note on the item (``media_server_refresh_failed``).
Tokens are sent, never logged. Plain ``urllib``: one request at a time, no new dependency.
"""

from __future__ import annotations

import json
import logging
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Callable

from app.server.webhooks import EMBY, JELLYFIN, PLEX, MediaEvent

log = logging.getLogger(__name__)

TIMEOUT_S = 10.0


@dataclass(frozen=True)
class ServerAccess:
    url: str
    token: str

    def headers(self, server: str) -> dict[str, str]:
        if server == JELLYFIN:
            return {"Authorization": f'MediaBrowser Token="{self.token}"'}
        if server == EMBY:
            return {"X-Emby-Token": self.token}
        return {"X-Plex-Token": self.token, "Accept": "application/xml"}


class ServerUnreachable(Exception):
    """The server did not answer as asked (its status or the network error is the message; never the token)."""


def _call(access: ServerAccess, server: str, method: str, path: str) -> bytes:
    request = urllib.request.Request(access.url.rstrip("/") + path, method=method, headers=access.headers(server),
                                     data=b"" if method in ("POST", "PUT") else None)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as reply:
            return bytes(reply.read())
    except urllib.error.HTTPError as exc:
        raise ServerUnreachable(f"{server} answered {exc.code} to {method} {path}") from exc
    except (urllib.error.URLError, OSError) as exc:
        raise ServerUnreachable(f"{server} did not answer {method} {path}: {getattr(exc, 'reason', exc)}") from exc


def item_path(access: ServerAccess, event: MediaEvent) -> str:
    """The file of ``event``'s item as the server sees it (Jellyfin without "Send All Properties", Plex)."""
    if event.path:
        return event.path
    if event.server == PLEX:
        body = _call(access, PLEX, "GET", f"/library/metadata/{urllib.parse.quote(str(event.item_id))}")
        part = ET.fromstring(body).find(".//Part")
        if part is None or not part.get("file"):
            raise ServerUnreachable(f"plex item {event.item_id} has no file")
        return str(part.get("file"))
    if event.server == JELLYFIN:
        query = urllib.parse.urlencode({"Ids": event.item_id, "Fields": "Path"})
        found = json.loads(_call(access, JELLYFIN, "GET", f"/Items?{query}")).get("Items") or []
        if not found or not found[0].get("Path"):
            raise ServerUnreachable(f"jellyfin item {event.item_id} has no path")
        return str(found[0]["Path"])
    raise ServerUnreachable(f"{event.server} sent no path")


def refresh_request(event: MediaEvent) -> tuple[str, str]:
    """(method, path) that asks ``event``'s server to refresh its item."""
    key = urllib.parse.quote(str(event.item_id))
    if event.server == PLEX:
        return "PUT", f"/library/metadata/{key}/refresh"
    return "POST", f"/Items/{key}/Refresh"


def refresh(access: ServerAccess, event: MediaEvent, attempts: int = 4, first_pause_s: float = 1.0,
            sleep: Callable[[float], None] = time.sleep) -> bool:
    """Ask the server to refresh ``event``'s item, retried with a doubling pause; whether it got through."""
    method, path = refresh_request(event)
    pause = first_pause_s
    for attempt in range(1, attempts + 1):
        try:
            _call(access, event.server, method, path)
            log.info("asked %s to refresh item %s", event.server, event.item_id)
            return True
        except ServerUnreachable as exc:
            log.warning("refresh of %s item %s, attempt %d/%d: %s", event.server, event.item_id, attempt, attempts, exc)
            if attempt < attempts:
                sleep(pause)
                pause *= 2
    return False
