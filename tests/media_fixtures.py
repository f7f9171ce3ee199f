"""pytest plugin: the session-scoped ``media`` fixture (real generated media, see tests/media.py).

Registered for the whole suite by ``pytest_plugins`` in tests/conftest.py.
"""

from __future__ import annotations

import pytest

from tests.media import MediaFactory


@pytest.fixture(scope="session")
def media(tmp_path_factory: pytest.TempPathFactory) -> MediaFactory:
    """Lazily generated, session-cached test media."""
    return MediaFactory(tmp_path_factory.mktemp("media"))
