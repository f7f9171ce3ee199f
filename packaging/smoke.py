"""Smoke test of a built app, the way a person's machine runs it: no venv, no PYTHONPATH.

``packaging/smoke DIST_DIR`` runs every command of the frozen app under ``env -i`` with
``PATH=/usr/bin:/bin`` and checks: ``--version``; ``doctor --json`` (every bundled model
loadable, sqlite-vec loaded); ``add`` + ``run --until-idle`` on a generated folder (one
speech clip, a text image, an iPhone HEIC and a camera DNG) writes the subtitles and the
images' sidecar JSONs (so libheif and LibRaw ship in the app), and
``search`` finds both; while it runs every model-host process is the frozen executable;
the GUI shows its window under Xvfb; the ``.deb`` unpacks and its ``sidecar --version``
runs. Media is generated here with the test suite's own generators (espeak-ng, ffmpeg,
Pillow), so this script runs with the development venv's Python; the app never does.
Prints a table of what it measured. Exits non-zero on the first broken promise.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import __version__  # noqa: E402
from tests.media import SHORT_ENGLISH_KEY_WORDS, SHORT_ENGLISH_TEXT, mux, speak  # noqa: E402
from tests.opus_mt import test_cache  # noqa: E402
from PIL import Image  # noqa: E402

import app.media.images  # noqa: E402, F401 - registers pillow-heif with Pillow, which writes the HEIC photo
from tests.rendered_images import render_text_image, write_dng  # noqa: E402

WINDOWS = sys.platform == "win32"
CLEAN_PATH = r"C:\Windows\System32;C:\Windows" if WINDOWS else "/usr/bin:/bin"
PASSED: list[str] = []


class SmokeFailure(Exception):
    pass


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeFailure(message)
    PASSED.append(message)
    print(f"ok   {message}", flush=True)


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """What a desktop session gives a program: no venv, no PYTHONPATH, a plain PATH."""
    env = {"PATH": CLEAN_PATH, "HOME": str(home), "LANG": "C.UTF-8"}
    if WINDOWS:
        env.update({name: os.environ[name] for name in ("SystemRoot", "TEMP", "TMP") if name in os.environ})
        env.update(USERPROFILE=str(home), LOCALAPPDATA=str(home / "AppData" / "Local"),
                   APPDATA=str(home / "AppData" / "Roaming"))
    env.update(extra)
    return env


def frozen(exe: Path, args: list[str], home: Path, timeout: float = 600, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), *args], env=clean_env(home, **extra), capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (model hosts are children of the engine process)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    found: set[int] = set()
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def exe_of(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return None


def make_library(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True)
    wav = speak(SHORT_ENGLISH_TEXT, "en-us", folder.parent / "speech.wav")
    video = mux(wav, folder / "Weather report.mp4")
    image = render_text_image(folder / "receipt.png", ["INVOICE 4711", "parking permit"])
    phone = folder / "IMG_0001.heic"
    Image.open(render_text_image(folder.parent / "phone.png", ["FERRY 0815"])).save(phone)
    camera = write_dng(folder / "DSC_0002.dng", Image.open(render_text_image(folder.parent / "camera.png", ["MENU 2024"])))
    return {"video": video, "image": image, "phone": phone, "camera": camera}


def run_engine(exe: Path, data: Path, home: Path) -> tuple[subprocess.CompletedProcess, dict[int, str]]:
    """``run --until-idle`` while watching which executables its children are."""
    proc = subprocess.Popen([str(exe), "--data-dir", str(data), "run", "--until-idle", "--json"],
                            env=clean_env(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL)
    seen: dict[int, str] = {}
    while proc.poll() is None and not WINDOWS:
        for pid in descendants(proc.pid):
            if pid not in seen:
                target = exe_of(pid)
                if target:
                    seen[pid] = target
        time.sleep(0.05)
    out, err = proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), seen


def window_appears(exe: Path, data: Path, home: Path, timeout: float = 60) -> float:
    """Start the GUI on a private Xvfb display; seconds until a top-level window named Sidecar is mapped."""
    display = f":{os.getpid() % 500 + 100}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    gui = None
    try:
        deadline = time.monotonic() + 10
        while subprocess.run(["xdpyinfo", "-display", display], capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                raise SmokeFailure(f"Xvfb did not start on {display}")
            time.sleep(0.1)
        start = time.perf_counter()
        gui = subprocess.Popen([str(exe), "--data-dir", str(data)], env=clean_env(home, DISPLAY=display),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            tree = subprocess.run(["xwininfo", "-root", "-tree", "-display", display],
                                  capture_output=True, text=True).stdout
            if any('"Sidecar' in line and "x" in line for line in tree.splitlines()) and gui.poll() is None:
                return time.perf_counter() - start
            if gui.poll() is not None:
                raise SmokeFailure(f"the GUI exited with {gui.returncode}: {gui.stdout.read()[-2000:]}")
            time.sleep(0.1)
        raise SmokeFailure(f"no Sidecar window within {timeout:.0f} s")
    finally:
        if gui is not None and gui.poll() is None:
            gui.terminate()
            try:
                gui.wait(timeout=20)
            except subprocess.TimeoutExpired:
                gui.kill()
        xvfb.terminate()
        xvfb.wait(timeout=10)


def best_of(n: int, fn) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description="Smoke-test a built Sidecar (dist folder from packaging/build).")
    parser.add_argument("dist", type=Path)
    args = parser.parse_args()
    dist = args.dist.resolve()
    exe = dist / "Sidecar" / ("sidecar-cli.exe" if WINDOWS else "sidecar")
    check(exe.is_file() and os.access(exe, os.X_OK), f"{exe} is an executable")
    numbers: dict[str, str] = {}
    work = Path(tempfile.mkdtemp(prefix="sidecar-smoke-"))
    try:
        home = work / "home"
        home.mkdir()
        data = work / "data"

        done = frozen(exe, ["--version"], home)
        check(done.returncode == 0 and __version__ in done.stdout, f"--version prints {__version__} ({done.stdout.strip()})")

        start = time.perf_counter()
        done = frozen(exe, ["--data-dir", str(data), "doctor", "--json"], home)
        numbers["doctor (all models probed)"] = f"{time.perf_counter() - start:.1f} s"
        report = json.loads(done.stdout)
        check(report["sqlite"].get("sqlite_vec_version") is not None and report["sqlite"].get("fts5"),
              f"doctor: sqlite-vec {report['sqlite'].get('sqlite_vec_version')} loaded, FTS5 present")
        bundled = [m for m in report["models"] if m["source"] == "bundled"]
        check(len(bundled) >= 4 and all(m.get("loadable") is True for m in bundled),
              "doctor: every bundled model loads: " + ", ".join(f"{m['name']}={m.get('loadable')}" for m in bundled))
        check(done.returncode == 0 and report["ok"], f"doctor --json exits 0 (problems: {report.get('problems')})")
        check("llama" not in done.stderr.lower(), f"doctor writes no llama.cpp log lines to stderr ({done.stderr[-300:]!r})")

        media = make_library(work / "Library")
        done = frozen(exe, ["--data-dir", str(data), "add", str(work / "Library"), "--target-lang", "de", "--json"], home)
        check(done.returncode == 0 and json.loads(done.stdout)["jobs"][0]["total"] == 4,
              f"add queues the clip and the three images ({done.stdout.strip()[:200]})")
        start = time.perf_counter()
        done, children = run_engine(exe, data, home)
        numbers["run --until-idle (1 clip + 3 images)"] = f"{time.perf_counter() - start:.1f} s"
        check(done.returncode == 0, f"run --until-idle exits 0 ({done.stdout[-500:]} {done.stderr[-1500:]})")
        if not WINDOWS:
            check(len(children) >= 2 and all(Path(t) == exe for t in children.values()),
                  f"every model-host process is the frozen executable ({sorted(set(children.values()))}, "
                  f"{len(children)} processes)")
        video = media["video"]
        transcript = video.with_name("Weather report.en.srt")
        translation = video.with_name("Weather report.de.srt")
        text = transcript.read_text(encoding="utf-8") if transcript.is_file() else "(missing)"
        heard = " ".join(text.lower().split())
        check(all(word in heard for word in SHORT_ENGLISH_KEY_WORDS),
              f"{transcript.name} written with the spoken words ({text[-300:]!r})")
        # No en→de translator is installed (the default translator is the OPUS-MT package of each pair): the
        # transcript is written and the item waits, named, for its translator; never a silent nothing.
        shown = frozen(exe, ["--data-dir", str(data), "status", "--items", "--json"], home)
        items = {Path(i["path"]).name: i for job in json.loads(shown.stdout)["jobs"] for i in job.get("items", [])}
        result = items.get(video.name, {}).get("result")
        check(not translation.is_file() and result == "waiting_for_translator",
              f"no {translation.name}: the item waits for the en→de translator (result {result!r})")
        # The real zh→en OPUS-MT package (test set-up's cache) installed from its file, then real Mandarin speech
        # translated by the frozen app: CTranslate2's Marian and SentencePiece must be inside the build.
        package = test_cache() / "translate-zh_en-1_9.argosmodel"
        check(package.is_file(), f"the zh→en package of the test set-up is at {package} (scripts/fetch-test-models)")
        done = frozen(exe, ["--data-dir", str(data), "models", "install", "--from", str(package), "--json"], home)
        check(done.returncode == 0 and json.loads(done.stdout)["model"]["pair"] == "zh→en",
              f"models install --from installs the zh→en package offline ({done.stdout[-300:]} {done.stderr[-300:]})")
        mandarin = work / "Mandarin"
        mandarin.mkdir()
        shutil.copyfile(ROOT / "tests" / "data" / "speech" / "mandarin.ogg", mandarin / "talk.ogg")
        done = frozen(exe, ["--data-dir", str(data), "add", str(mandarin), "--target-lang", "en", "--json"], home)
        start = time.perf_counter()
        done, _ = run_engine(exe, data, home)
        numbers["run --until-idle (29 s of Mandarin, zh→en)"] = f"{time.perf_counter() - start:.1f} s"
        english = mandarin / "talk.en.srt"
        lines = english.read_text(encoding="utf-8") if english.is_file() else "(missing)"
        check(english.is_file() and sum(ch.isascii() and ch.isalpha() for ch in lines) > 100,
              f"{english.name} translated from Mandarin by the frozen OPUS-MT runtime ({lines[-200:]!r})")
        sidecar_json = media["image"].with_name("receipt.png.sidecar.json")
        check(sidecar_json.is_file() and "4711" in sidecar_json.read_text(encoding="utf-8"),
              f"{sidecar_json.name} written with the OCR text")
        for key, words in (("phone", "0815"), ("camera", "2024")):
            sidecar_json = media[key].with_name(media[key].name + ".sidecar.json")
            check(sidecar_json.is_file() and words in sidecar_json.read_text(encoding="utf-8"),
                  f"{sidecar_json.name} written with the OCR text (the app decodes HEIC and raw previews)")

        done = frozen(exe, ["--data-dir", str(data), "search", "parking permit", "--kind", "image", "--json"], home)
        results = json.loads(done.stdout)["results"]
        check(bool(results) and Path(results[0]["path"]) == media["image"], "search finds the image by its text")
        done = frozen(exe, ["--data-dir", str(data), "search", "subtitle machine", "--kind", "dialogue", "--json"], home)
        results = json.loads(done.stdout)["results"]
        check(bool(results) and Path(results[0]["path"]) == video and results[0]["start"] is not None,
              f"search finds the spoken line with its time ({results[:1]})")

        numbers["--version (frozen, median of 5)"] = f"{best_of(5, lambda: frozen(exe, ['--version'], home)):.2f} s"
        numbers["doctor --no-probe (frozen, median of 3)"] = (
            f"{best_of(3, lambda: frozen(exe, ['--data-dir', str(data), 'doctor', '--no-probe'], home)):.2f} s")
        if WINDOWS:
            installers = sorted(dist.glob("Sidecar-*-windows-x64-setup.exe"))
            check(len(installers) == 1, f"one installer in {dist}")
            return _finish(numbers)

        seconds = window_appears(exe, work / "gui-data", home)
        check(seconds > 0, f"the window shows under Xvfb ({seconds:.1f} s after the start)")
        numbers["cold start to the window (frozen)"] = f"{seconds:.2f} s"

        venv_sidecar = ROOT / ".venv" / "bin" / "sidecar"
        if venv_sidecar.exists():
            numbers["doctor --no-probe (venv, median of 3)"] = f"{best_of(3, lambda: subprocess.run([str(venv_sidecar), '--data-dir', str(data), 'doctor', '--no-probe'], capture_output=True)):.2f} s"

        debs = sorted(dist.glob("sidecar_*_amd64.deb"))
        check(len(debs) == 1, f"one .deb in {dist}")
        unpacked = work / "deb"
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(unpacked)], check=True)
        done = frozen(unpacked / "opt" / "sidecar" / "sidecar", ["--version"], home)
        check(done.returncode == 0 and __version__ in done.stdout, "the .deb unpacks and its sidecar --version runs")
        control = subprocess.run(["dpkg-deb", "-f", str(debs[0]), "Depends"], capture_output=True, text=True).stdout
        check("libxcb-cursor0" in control and (unpacked / "usr" / "share" / "applications" / "sidecar.desktop").is_file(),
              "the .deb declares the xcb libraries and installs a desktop entry")
        tarballs = sorted(dist.glob("Sidecar-*-linux-x86_64.tar.gz"))
        check(len(tarballs) == 1, f"one tarball in {dist}")
    except SmokeFailure as exc:
        print(f"FAIL {exc}", file=sys.stderr)
        print(f"smoke: {len(PASSED)} passed, 1 failed")
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return _finish(numbers)


def _finish(numbers: dict[str, str]) -> int:
    print(f"\n{'smoke measurement':<44} {'value':>10}")
    for name, value in numbers.items():
        print(f"{name:<44} {value:>10}")
    print(f"smoke: {len(PASSED)} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
