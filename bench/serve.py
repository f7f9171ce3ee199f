"""``sidecar serve`` under load: 8 concurrent ``/asr`` of a real 30 s clip, the server's memory, and a request during folder work.

    .venv/bin/python bench/serve.py [--requests 8] [--same] [--folder-clips 4]

The clip is three real recordings joined (tests/data/real_speech: JFK's "ask not", CMU
ARCTIC aew a0001–a0003, LibriSpeech 1320; 0.3 s of silence between), 30 s, sent as Bazarr
sends it: 16 kHz mono s16le with ``encode=false``. Each upload ends in a different number
of 10 ms of silence, so each is new content the engine must hear (``--same``: the
identical bytes every time). ``sidecar serve`` runs as its own process (the CLI, on a
fresh data dir); its memory and that of its children (the model hosts) is read from /proc
every 0.1 s.

Table 1: each request's wall time and whether its SRT is correct (it parses, its cues lie
within the clip, and it holds the key words of the two parts whose text is known:
"country" twice, and "danger", "particular", "hands"). Table 2: peak memory of the
server process, of each model host, and of all together, against the acceptance bound:
one Whisper host (the largest child) + 200 MB. Table 3: a folder of ``--folder-clips``
real recordings is added and, once its first item is being transcribed, one ``/asr``
arrives: when it is answered, how many folder items were done. Prints the load average
before and after: the machine's cores are shared. Run by hand; never part of the tests.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pysubs2
import requests

REPO = Path(__file__).resolve().parents[1]
REAL_SPEECH = REPO / "tests" / "data" / "real_speech"
PARTS = ("en_jfk_inaugural.opus", "en_arctic_aew.opus", "en_librispeech_1320.opus")
KEY_WORDS = {"country": 2, "danger": 1, "particular": 1, "hands": 1}
FOLDER_CLIPS = ("en_arctic_axb.opus", "en_librivox_clare.opus", "en_librispeech_3575.opus", "en_librispeech_6829.opus",
                "en_librispeech_8230.opus", "de_thorsten.opus")


def clip_pcm() -> bytes:
    """The three recordings joined with 0.3 s of silence, as 16 kHz mono s16le."""
    inputs: list[str] = []
    for part in PARTS:
        inputs += ["-i", str(REAL_SPEECH / part)]
    chain = "".join(f"[{n}:a]aresample=16000,apad=pad_dur=0.3[a{n}];" for n in range(len(PARTS)))
    chain += "".join(f"[a{n}]" for n in range(len(PARTS))) + f"concat=n={len(PARTS)}:v=0:a=1[out]"
    return subprocess.run(["ffmpeg", "-nostdin", "-v", "error", *inputs, "-filter_complex", chain, "-map", "[out]",
                           "-ac", "1", "-ar", "16000", "-f", "s16le", "-"], check=True, capture_output=True).stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int(Path(entry, "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


class MemorySampler:
    """Peak RSS of the server process, of each descendant, and of all together, sampled every 0.1 s."""

    def __init__(self, pid: int):
        self.pid = pid
        self.peak_main = 0
        self.peak_child: dict[int, int] = {}
        self.peak_total = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(0.1):
            main = rss_kb(self.pid)
            kids = {pid: rss_kb(pid) for pid in descendants(self.pid)}
            self.peak_main = max(self.peak_main, main)
            for pid, kb in kids.items():
                self.peak_child[pid] = max(self.peak_child.get(pid, 0), kb)
            self.peak_total = max(self.peak_total, main + sum(kids.values()))


def words(text: str) -> list[str]:
    return "".join(c.lower() if c.isalpha() else " " for c in text).split()


def correct(srt: str, duration_ms: int) -> tuple[bool, str]:
    try:
        subs = pysubs2.SSAFile.from_string(srt, format_="srt")
    except Exception as exc:  # noqa: BLE001 - any parse failure is an incorrect answer, reported as such
        return False, f"does not parse: {exc}"
    if not subs.events:
        return False, "no cues"
    if any(e.start < 0 or e.end > duration_ms + 500 or e.end <= e.start for e in subs.events):
        return False, "a cue outside the clip"
    heard = words(" ".join(e.plaintext for e in subs.events))
    missing = [w for w, n in KEY_WORDS.items() if heard.count(w) < n]
    return (not missing), (f"missing {missing}" if missing else f"{len(subs.events)} cues, {len(heard)} words")


def start_server(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    log = open(data_dir / "serve.log", "wb")  # noqa: SIM115 - the server's log, kept with its data dir
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--data-dir", str(data_dir), "--port", str(port)],
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/status", timeout=2).ok:
                return proc
        except requests.ConnectionError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"sidecar serve did not start; see {data_dir / 'serve.log'}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()


def asr(url: str, audio: bytes) -> tuple[float, int, str]:
    started = time.time()
    r = requests.post(f"{url}/asr", params={"task": "transcribe", "language": "en", "output": "srt", "encode": "false"},
                      files={"audio_file": audio}, timeout=(5, 3600))
    return time.time() - started, r.status_code, r.text


def concurrent_requests(n: int, same: bool, root: Path) -> None:
    pcm = clip_pcm()
    duration_ms = len(pcm) // 32
    data_dir = root / "concurrent"
    data_dir.mkdir()
    port = free_port()
    proc = start_server(data_dir, port)
    try:
        uploads = [pcm + (b"" if same else b"\x00\x00" * 160 * (i + 1)) for i in range(n)]
        with MemorySampler(proc.pid) as memory:
            began = time.time()
            with concurrent.futures.ThreadPoolExecutor(n) as pool:
                results = list(pool.map(lambda audio: asr(f"http://127.0.0.1:{port}", audio), uploads))
            wall = time.time() - began
    finally:
        stop_server(proc)
    print(f"\n## {n} concurrent /asr of a {duration_ms / 1000:.1f} s real clip ({'identical' if same else 'distinct'} uploads)\n")
    print("| request | seconds | status | correct | what |")
    print("|---|---|---|---|---|")
    for i, (seconds, status, text) in enumerate(results, 1):
        ok, what = correct(text, duration_ms) if status == 200 else (False, text[:80])
        print(f"| {i} | {seconds:.1f} | {status} | {'yes' if ok else 'NO'} | {what} |")
    print(f"\nall {n} answered in {wall:.1f} s\n")
    largest = max(memory.peak_child.values(), default=0)
    bound = largest + 200 * 1024
    print("| process | peak RSS (MB) |")
    print("|---|---|")
    print(f"| sidecar serve (main) | {memory.peak_main / 1024:.0f} |")
    for pid, kb in sorted(memory.peak_child.items(), key=lambda kv: -kv[1]):
        print(f"| child {pid} | {kb / 1024:.0f} |")
    print(f"| **all together** | **{memory.peak_total / 1024:.0f}** |")
    print(f"\nbound (largest child, the Whisper host, + 200 MB): {bound / 1024:.0f} MB -> "
          f"{'within' if memory.peak_total <= bound else 'OVER'}")


def request_during_folder(clips: int, root: Path) -> None:
    data_dir = root / "folder"
    data_dir.mkdir()
    folder = root / "library"
    folder.mkdir()
    for name in FOLDER_CLIPS[:clips]:
        shutil.copy(REAL_SPEECH / name, folder / name)
    (data_dir / "settings.json").write_text(json.dumps({"target_lang": "en"}))
    port = free_port()
    proc = start_server(data_dir, port)
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def status() -> list[dict[str, object]]:
        out = subprocess.run([sys.executable, "-m", "app.cli", "status", "--items", "--json", "--data-dir", str(data_dir)],
                             env=env, capture_output=True, check=False).stdout
        jobs = json.loads(out or b"{}").get("jobs", [])
        return [item for job in jobs if job["folder"] == str(folder) for item in job.get("items", [])]

    try:
        subprocess.run([sys.executable, "-m", "app.cli", "add", str(folder), "--data-dir", str(data_dir)], env=env,
                       check=True, capture_output=True)
        deadline = time.time() + 300
        while time.time() < deadline and not any(i.get("stage") in ("transcribe", "translate", "render", "place",
                                                                         "index_dialogue") or i.get("status") == "completed"
                                                  for i in status()):
            time.sleep(0.5)
        seconds, code, text = asr(f"http://127.0.0.1:{port}", clip_pcm())
        items = status()
        done = sum(1 for i in items if i.get("status") == "completed")
    finally:
        stop_server(proc)
    print(f"\n## one /asr while a folder of {clips} real recordings is worked on\n")
    print("| answered after (s) | status | folder items done when answered | folder items |")
    print("|---|---|---|---|")
    print(f"| {seconds:.1f} | {code} | {done} | {len(items)} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=8)
    parser.add_argument("--same", action="store_true", help="send the identical upload every time")
    parser.add_argument("--folder-clips", type=int, default=4)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} cores")
    root = Path(tempfile.mkdtemp(prefix="sidecar-bench-serve-"))
    try:
        concurrent_requests(args.requests, args.same, root)
        if args.folder_clips:
            request_during_folder(args.folder_clips, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
