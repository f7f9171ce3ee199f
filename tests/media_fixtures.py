"""pytest plugin: the session-scoped ``media`` fixture (real generated media, see tests/media.py).

Test modules that need it import it (``from tests.media_fixtures import media``);
it can also be registered once with ``pytest_plugins = ["tests.media_fixtures"]``.
"""

from __future__ import annotations

import pytest

from tests.media import MediaFactory


@pytest.fixture(scope="session")
def media(tmp_path_factory: pytest.TempPathFactory) -> MediaFactory:
    """Lazily generated, session-cached test media."""
    return MediaFactory(tmp_path_factory.mktemp("media"))
