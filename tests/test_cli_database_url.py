"""A wrong or unreachable ``--database-url`` ends any command with one line saying why and exit status 4
(README: PostgreSQL), never a driver traceback; ``--language`` takes the codes the README shows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from app.cli import DATABASE_EXIT, GuiRequest, _gui_request, build_parser
from tests.postgres_server import _free_port


def _sidecar(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", "--data-dir", str(data_dir), *args], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).resolve().parents[1])


@pytest.mark.parametrize("url, code", [
    ("postgresql+psycopg://sidecar@127.0.0.1:{port}/sidecar", "database_unavailable"),  # a closed local port, picked when the test runs
    ("postgres://sidecar@127.0.0.1:{port}/sidecar", "database_unavailable"),  # the scheme servers print is accepted
    ("postgresql+psycopg://sidecar@127.0.0.1:notaport/sidecar", "bad_database_url"),  # malformed
    ("mysql://u@h/db", "bad_database_url"),
])
def test_a_wrong_database_url_prints_one_line_and_exits_4(data_dir: Path, url: str, code: str) -> None:
    done = _sidecar(data_dir, "--database-url", url.format(port=_free_port()), "status")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == DATABASE_EXIT == 4, done.stderr
    assert len(lines) == 1 and lines[0].startswith("sidecar: ") and lines[0].endswith(f"({code})"), done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_a_server_without_that_database_says_so_in_one_line(data_dir: Path, postgres_url: str) -> None:
    missing = make_url(postgres_url).set(database="no_such_library").render_as_string(hide_password=False)
    done = _sidecar(data_dir, "--database-url", missing, "status")
    assert done.returncode == 4, done.stderr
    assert done.stderr.count("\n") == 1 and 'database "no_such_library" does not exist' in done.stderr


@pytest.mark.parametrize("given, code", [("zh_CN", "zh_CN"), ("zh-CN", "zh_CN"), ("de", "de"), ("en", "en")])
def test_language_takes_the_codes_the_readme_shows(given: str, code: str) -> None:
    assert _gui_request(build_parser(), ["--language", given]) == GuiRequest(None, [], False, code)


def test_a_language_the_windows_do_not_speak_is_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _gui_request(build_parser(), ["--language", "fr"])
    assert "the windows speak en, zh_CN, de" in capsys.readouterr().err
