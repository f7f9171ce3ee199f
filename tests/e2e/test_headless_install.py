"""A server or NAS install leaves the desktop app out (`pip install .`, no `gui` extra).

The venv built here holds everything the test venv has except PySide6 and shiboken6,
so it is what `pip install .` gives; every command must work in it, and the bare
`sidecar` (the window) must say what is missing instead of a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.rendered_images import render_text_image

QT_DISTRIBUTIONS = ("pyside6", "shiboken6", "pytestqt", "pytest_qt")


@pytest.fixture(scope="module")
def headless_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("headless") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    target = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                 capture_output=True, text=True, check=True).stdout.strip())
    source = Path(sysconfig.get_path("purelib"))
    for entry in source.iterdir():
        if not entry.name.lower().startswith(QT_DISTRIBUTIONS):
            (target / entry.name).symlink_to(entry)
    return python


def sidecar(python: Path, data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "QT_QPA_PLATFORM")}
    return subprocess.run([str(python), "-m", "app", "--data-dir", str(data), *args], capture_output=True, text=True,
                          timeout=600, env=env, cwd=Path(__file__).resolve().parents[2])


def test_the_headless_venv_really_has_no_qt(headless_python: Path) -> None:
    done = subprocess.run([str(headless_python), "-c", "import PySide6"], capture_output=True, text=True)
    assert done.returncode != 0 and "PySide6" in done.stderr


def test_every_command_runs_without_qt(headless_python: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    library = tmp_path / "Scans"
    image = render_text_image(library / "permit.png", ["parking permit", "zone 4711"])

    done = sidecar(headless_python, data, "add", str(library), "--json")
    assert done.returncode == 0, done.stderr
    job = json.loads(done.stdout)["jobs"][0]["id"]
    done = sidecar(headless_python, data, "run", "--until-idle", "--json")
    assert done.returncode == 0, done.stderr
    assert image.with_name("permit.png.sidecar.json").is_file()
    done = sidecar(headless_python, data, "search", "parking permit", "--json")
    assert done.returncode == 0 and Path(json.loads(done.stdout)["results"][0]["path"]) == image, done.stderr

    done = sidecar(headless_python, data, "status", "--items", "--json")
    assert json.loads(done.stdout)["jobs"][0]["done"] == 1
    for args in (("pause", "--all"), ("resume", "--all"), ("retry", str(job), "--job"), ("review", "list"),
                 ("watch", "list"), ("models", "list"), ("doctor", "--no-probe")):
        done = sidecar(headless_python, data, *args, "--json")
        assert done.returncode == 0, (args, done.stderr)
    done = sidecar(headless_python, data, "doctor", "--no-probe", "--json")
    tray = json.loads(done.stdout)["tray"]
    assert tray["ok"] is False and "PySide6" in tray["error"]
    done = sidecar(headless_python, data, "cancel", str(job), "--json")
    assert done.returncode == 0 and image.with_name("permit.png.sidecar.json").is_file()


def test_the_window_without_qt_says_what_to_install(headless_python: Path, tmp_path: Path) -> None:
    done = sidecar(headless_python, tmp_path / "data")
    assert done.returncode == 2
    assert "pip install sidecar[gui]" in done.stderr and "Traceback" not in done.stderr
