"""The media servers' "new item" notifications, read as each server sends them.

* Jellyfin (the Webhook plugin, a Generic destination, JSON): ``NotificationType``
  ``ItemAdded`` with ``ItemId``; ``Path`` too when "Send All Properties" is on, else the
  path is asked of the server (:mod:`app.server.media_servers`).
* Emby (Notifications → Webhooks): multipart form with the JSON in the field ``data``
  (newer servers may send the JSON as the body): ``Event`` ``library.new``, ``Item.Path``, ``Item.Id``.
* Plex (Settings → Webhooks): multipart form with the JSON in the field ``payload``:
  ``event`` ``library.new`` and ``Metadata.ratingKey``; the file is asked of the server.
* Tautulli (a Webhook notification agent, JSON data ``{"event": "added", "file": "{file}"}``).

Anything else a server sends (a play, a rating, a test message) is acknowledged and ignored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

JELLYFIN, EMBY, PLEX, TAUTULLI = "jellyfin", "emby", "plex", "tautulli"
SERVERS = (JELLYFIN, EMBY, PLEX, TAUTULLI)


class BadPayload(ValueError):
    """The body is not a notification of that server (400)."""


@dataclass(frozen=True)
class MediaEvent:
    """A new file a server told of: its path as the server sees it (None: ask the server) and the server's own item id."""

    server: str
    item_id: str | None
    path: str | None


def _json(text: str | bytes | None) -> dict[str, Any]:
    try:
        value = json.loads(text or b"")
    except ValueError as exc:
        raise BadPayload(f"the body is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise BadPayload("the body is not a JSON object")
    return value


def read_event(server: str, body: bytes, form: Mapping[str, str] | None) -> MediaEvent | None:
    """The new item in one notification of ``server``; None for a notification of something else.

    ``form`` holds the multipart fields when the body was a form (Emby, Plex), else None.
    """
    if server == JELLYFIN:
        data = _json(body)
        if data.get("NotificationType") != "ItemAdded":
            return None
        if not data.get("ItemId"):
            raise BadPayload("an ItemAdded notification without ItemId")
        return MediaEvent(JELLYFIN, str(data["ItemId"]), str(data["Path"]) if data.get("Path") else None)
    if server == EMBY:
        data = _json(form["data"] if form is not None and "data" in form else body)
        if data.get("Event") != "library.new":
            return None
        item = data.get("Item") or {}
        if not item.get("Path"):
            raise BadPayload("a library.new event without Item.Path")
        return MediaEvent(EMBY, str(item.get("Id") or "") or None, str(item["Path"]))
    if server == PLEX:
        if form is None or "payload" not in form:
            raise BadPayload("Plex sends its event as the multipart field 'payload'")
        data = _json(form["payload"])
        if data.get("event") != "library.new":
            return None
        key = (data.get("Metadata") or {}).get("ratingKey")
        if not key:
            raise BadPayload("a library.new event without Metadata.ratingKey")
        return MediaEvent(PLEX, str(key), None)
    if server == TAUTULLI:
        data = _json(body)
        if data.get("event") != "added":
            return None
        if not data.get("file"):
            raise BadPayload("an added event without file")
        return MediaEvent(TAUTULLI, str(data.get("rating_key") or "") or None, str(data["file"]))
    raise BadPayload(f"no such server: {server}")
