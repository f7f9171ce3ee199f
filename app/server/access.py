"""Who may talk to ``sidecar serve``: closed by default.

On a loopback address the server answers anyone on this machine. Bound anywhere else it
refuses to start without a token, and then every request but the connection test must
carry it: ``Authorization: Bearer <token>``, or as the password of HTTP basic auth
(``http://sidecar:<token>@host:9000`` in a client that takes only a URL, such as Bazarr's
endpoint field), or ``?token=`` (the media servers' webhook URLs). Compared in constant time;
the token is never logged.
"""

from __future__ import annotations

import base64
import hmac
import ipaddress
from typing import Mapping

from app.codes import Code
from app.errors import SidecarError


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the server on this machine (``localhost`` counts; a name that is not an address does not)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_binding(host: str, token: str) -> None:
    """Refuse to listen beyond loopback without a token (SPEC §21: closed by default)."""
    if not is_loopback(host) and not token:
        raise SidecarError(f"serving on {host} needs a token: set serve_token in the settings (or --token); "
                           "without one only a loopback address is allowed", code=Code.UNAUTHORIZED)


def presented_token(headers: Mapping[str, str], query: Mapping[str, str]) -> str | None:
    """The token a request carries, from whichever of the three places it uses; None without one."""
    auth = headers.get("authorization", "")
    scheme, _, value = auth.partition(" ")
    if scheme.lower() == "bearer":
        return value.strip()
    if scheme.lower() == "basic":
        try:
            return base64.b64decode(value.strip()).decode("utf-8").partition(":")[2]
        except (ValueError, UnicodeDecodeError):
            return None
    return query.get("token")


def allowed(token: str, headers: Mapping[str, str], query: Mapping[str, str]) -> bool:
    """Whether the request may be served: no token configured (loopback only), or the right one presented."""
    if not token:
        return True
    given = presented_token(headers, query)
    return given is not None and hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8"))
