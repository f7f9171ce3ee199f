"""Build the double-click app: PyInstaller one-folder, then the archives people download.

Linux: ``dist/Sidecar/`` (the app), ``dist/Sidecar-<version>-linux-x86_64.tar.gz`` and
``dist/sidecar_<version>_amd64.deb``. Windows: ``dist/Sidecar/`` and, when Inno Setup's
``iscc`` is on PATH, ``dist/Sidecar-<version>-windows-x64-setup.exe``. Prints what it
measured (times, sizes, what takes the space, the glibc floor) as a table.

Run it through ``packaging/build`` (Linux: installs what the build needs first) or, on
Windows, ``python packaging\\build.py`` inside the build virtualenv.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import __version__  # noqa: E402
from app.ml.bundled import GEMMA_FILE, gemma_gguf_path, whisper_base_paths  # noqa: E402
from app.ml.whisper_int8 import write_int8_model  # noqa: E402

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)

# What the Qt xcb platform plugin and the libraries dropped from the bundle need from the
# person's system (see HOST_LIBRARY_PREFIXES in sidecar.spec).
DEB_DEPENDS = (
    "libc6 (>= 2.36), libstdc++6 (>= 12), libgcc-s1, zlib1g, libglib2.0-0, libfontconfig1, libfreetype6, "
    "libharfbuzz0b, libpng16-16, libdbus-1-3, libgl1, libegl1, libx11-6, libx11-xcb1, libxcb1, libxkbcommon0, "
    "libxkbcommon-x11-0, libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1, libxcb-image0, libxcb-render-util0, "
    "libxcb-shape0, libxcb-randr0, libxcb-xinerama0, libxcb-xkb1, libxcb-shm0, libxcb-sync1, libxcb-xfixes0, "
    "libxcb-render0, libwayland-client0, libwayland-cursor0, libwayland-egl1"
)

DESKTOP_ENTRY = """[Desktop Entry]
Type=Application
Name=Sidecar
GenericName=Subtitles and image search
Comment=Subtitles for your videos and a search over your images, made offline on this computer
Exec={exec} %F
Icon=sidecar
Terminal=false
Categories=AudioVideo;Video;Graphics;Utility;
MimeType=inode/directory;video/mp4;video/x-matroska;video/webm;video/quicktime;image/jpeg;image/png;image/webp;image/heic;image/heif;image/avif;image/x-adobe-dng;image/x-canon-cr2;image/x-nikon-nef;image/x-sony-arw;image/x-fuji-raf;image/x-olympus-orf;image/x-panasonic-rw2;
StartupWMClass=Sidecar
Keywords=subtitles;transcribe;translate;whisper;search;photos;
"""


def run(cmd: list[str], **kwargs) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kwargs)


def folder_size(path: Path) -> tuple[int, int]:
    size = files = 0
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            size += p.stat().st_size
            files += 1
    return size, files


def mb(n: int) -> str:
    return f"{n / 1e6:,.0f} MB"


def make_icons(out: Path) -> Path:
    """hicolor PNGs (and a Windows .ico) rendered from the one SVG with Qt, offscreen."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([])
    renderer = QSvgRenderer(str(ROOT / "resources" / "sidecar.svg"))
    for size in ICON_SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        renderer.render(painter)
        painter.end()
        target = out / "hicolor" / f"{size}x{size}" / "apps" / "sidecar.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        image.save(str(target))
    scalable = out / "hicolor" / "scalable" / "apps" / "sidecar.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "resources" / "sidecar.svg", scalable)
    from PIL import Image

    Image.open(out / "hicolor" / "256x256" / "apps" / "sidecar.png").save(
        out / "sidecar.ico", sizes=[(s, s) for s in ICON_SIZES if s <= 256])
    del app
    return out


def windows_version_file(out: Path) -> Path:
    numbers = tuple(int(x) for x in re.findall(r"\d+", __version__)[:3]) + (0,)
    numbers = (numbers + (0, 0, 0, 0))[:4]
    text = f"""VSVersionInfo(
  ffi=FixedFileInfo(filevers={numbers}, prodvers={numbers}, mask=0x3f, flags=0x0, OS=0x40004, fileType=0x1,
                    subtype=0x0, date=(0, 0)),
  kids=[StringFileInfo([StringTable('040904B0', [
      StringStruct('CompanyName', 'Sidecar'), StringStruct('FileDescription', 'Sidecar'),
      StringStruct('FileVersion', '{__version__}'), StringStruct('InternalName', 'sidecar'),
      StringStruct('OriginalFilename', 'Sidecar.exe'), StringStruct('ProductName', 'Sidecar'),
      StringStruct('ProductVersion', '{__version__}')])]),
        VarFileInfo([VarStruct('Translation', [1033, 1200])])]
)
"""
    target = out / "version_info.txt"
    target.write_text(text, encoding="utf-8")
    return target


def place_openmp_runtime(app_dir: Path) -> Path | None:
    """Windows: CTranslate2's OpenMP runtime must sit beside the executable (PyInstaller #9216)."""
    import ctranslate2

    candidates = [Path(ctranslate2.__file__).parent / "vcomp140.dll",
                  Path(os.environ.get("SystemRoot", r"C:\Windows")) / "System32" / "vcomp140.dll"]
    for candidate in candidates:
        if candidate.is_file():
            return Path(shutil.copy2(candidate, app_dir / "vcomp140.dll"))
    print("warning: vcomp140.dll not found; install the Visual C++ runtime on the build machine", file=sys.stderr)
    return None


def is_elf(path: Path) -> bool:
    if not path.is_file() or path.is_symlink():
        return False
    with open(path, "rb") as handle:
        return handle.read(4) == b"\x7fELF"


_LOAD_CHECK = """
import ctypes, json, sys
failed = []
for path in json.load(sys.stdin):
    try:
        ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
    except OSError as exc:
        failed.append([path, str(exc)])
print(json.dumps(failed))
"""


def _strip_debug_info(app_dir: Path) -> int:
    """``strip --strip-debug`` every bundled ELF file, keeping only copies that still load.

    Libraries that auditwheel rewrote with patchelf can come out of ``strip`` unloadable
    ("ELF load command address/offset not page-aligned": numpy's OpenBLAS does), so each
    stripped file is loaded once in a fresh process and the original is put back when
    that fails.
    """
    import json

    backups: dict[Path, Path] = {}
    saved = 0
    for path in sorted(app_dir.rglob("*")):
        if not (is_elf(path) and (".so" in path.name or os.access(path, os.X_OK))):
            continue
        backup = path.with_name(path.name + ".unstripped")
        shutil.copy2(path, backup)
        before = path.stat().st_size
        subprocess.run(["strip", "--strip-debug", str(path)], check=True)
        if path.stat().st_size < before:
            backups[path] = backup
            saved += before - path.stat().st_size
        else:
            backup.unlink()
    libraries = [str(p) for p in backups if ".so" in p.name]
    check = subprocess.run([sys.executable, "-c", _LOAD_CHECK], input=json.dumps(libraries), capture_output=True,
                           text=True, check=True, env={"PATH": "/usr/bin:/bin"})
    for path_text, error in json.loads(check.stdout):
        path = Path(path_text)
        print(f"kept unstripped (stripped copy did not load: {error.splitlines()[0][:120]}): {path.name}")
        saved -= backups[path].stat().st_size - path.stat().st_size
        os.replace(backups.pop(path), path)
    for backup in backups.values():
        backup.unlink()
    return saved


def slim_linux_folder(app_dir: Path) -> dict[str, int]:
    """Strip debug info from bundled ELF files and turn byte-identical copies into symlinks.

    Some wheels ship their libraries with debug info (CTranslate2's extension is 65 MB
    with it, 2 MB without) and PyInstaller copies a library's versioned aliases
    (llama.cpp's libllama.so, .so.0, .so.0.5.0) as separate files. Returns bytes saved.
    """
    import hashlib

    saved = {"debug info": _strip_debug_info(app_dir), "duplicate copies": 0}
    seen: dict[tuple[Path, int, str], Path] = {}
    for path in sorted(app_dir.rglob("*.so*"), key=lambda p: (len(p.name), p.name)):
        if not is_elf(path):
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        key = (path.parent, path.stat().st_size, digest)
        original = seen.setdefault(key, path)
        if original != path:
            saved["duplicate copies"] += path.stat().st_size
            path.unlink()
            path.symlink_to(original.name)
    return saved


def glibc_floor(folder: Path) -> tuple[str, str]:
    """The newest GLIBC_ and GLIBCXX_ symbol versions any bundled binary asks for."""
    glibc: set[tuple[int, ...]] = set()
    glibcxx: set[tuple[int, ...]] = set()
    for p in folder.rglob("*"):
        if not is_elf(p):
            continue
        out = subprocess.run(["objdump", "-T", str(p)], capture_output=True, text=True).stdout
        # Only undefined symbols are requirements; a library's own definitions are not.
        for line in out.splitlines():
            if "*UND*" not in line:
                continue
            for kind, version in re.findall(r"\b(GLIBC|GLIBCXX)_(\d+(?:\.\d+)*)\b", line):
                numbers = tuple(int(x) for x in version.split("."))
                (glibc if kind == "GLIBC" else glibcxx).add(numbers)
    def fmt(s: set[tuple[int, ...]]) -> str:
        return ".".join(map(str, max(s))) if s else "-"
    return fmt(glibc), fmt(glibcxx)


def largest_parts(folder: Path, top: int = 10) -> list[tuple[str, int]]:
    """Space by top-level entry of ``_internal`` (one line per package or library family)."""
    internal = folder / "_internal"
    sizes: dict[str, int] = {}
    for p in internal.rglob("*"):
        if p.is_file() and not p.is_symlink():
            rel = p.relative_to(internal).parts
            key = rel[0] if len(rel) > 1 else "(libraries at top)"
            if rel[0] == "resources" and len(rel) > 2:
                key = "/".join(rel[:2])
            sizes[key] = sizes.get(key, 0) + p.stat().st_size
    return sorted(sizes.items(), key=lambda kv: -kv[1])[:top]


def build_tarball(dist: Path, app_dir: Path, icons: Path) -> Path:
    """``Sidecar/`` with the app, a ``Sidecar`` launcher to double-click and the icon."""
    launcher = app_dir / "Sidecar"
    if launcher.is_symlink() or launcher.exists():
        launcher.unlink()
    launcher.symlink_to("sidecar")
    shutil.copy2(icons / "hicolor" / "256x256" / "apps" / "sidecar.png", app_dir / "sidecar.png")
    (app_dir / "sidecar.desktop").write_text(DESKTOP_ENTRY.format(exec="sidecar"), encoding="utf-8")
    target = dist / f"Sidecar-{__version__}-linux-x86_64.tar.gz"
    gzip = "pigz -6" if shutil.which("pigz") else "gzip -6"
    run(["tar", "-C", str(dist), "-cf", str(target), f"--use-compress-program={gzip}", app_dir.name])
    return target


def build_deb(dist: Path, app_dir: Path, icons: Path, work: Path) -> Path:
    """A .deb that installs to /opt/sidecar; removing it never touches the person's data folder."""
    root = work / "deb"
    shutil.rmtree(root, ignore_errors=True)
    opt = root / "opt" / "sidecar"
    opt.parent.mkdir(parents=True)
    shutil.copytree(app_dir, opt, symlinks=True, copy_function=os.link)
    for extra in ("Sidecar", "sidecar.png", "sidecar.desktop"):
        (opt / extra).unlink(missing_ok=True)
    (root / "usr" / "bin").mkdir(parents=True)
    (root / "usr" / "bin" / "sidecar").symlink_to("/opt/sidecar/sidecar")
    apps = root / "usr" / "share" / "applications"
    apps.mkdir(parents=True)
    (apps / "sidecar.desktop").write_text(DESKTOP_ENTRY.format(exec="/opt/sidecar/sidecar"), encoding="utf-8")
    shutil.copytree(icons / "hicolor", root / "usr" / "share" / "icons" / "hicolor")
    installed_kb = folder_size(root)[0] // 1024
    debian = root / "DEBIAN"
    debian.mkdir()
    (debian / "control").write_text(
        f"""Package: sidecar
Version: {__version__}
Architecture: amd64
Maintainer: Sidecar developers <sidecar@localhost>
Installed-Size: {installed_kb}
Depends: {DEB_DEPENDS}
Recommends: ffmpeg
Section: video
Priority: optional
Homepage: https://localhost/sidecar
Description: offline subtitles for videos and search for images
 Sidecar subtitles every video (faster-whisper transcript, local LLM translation,
 bilingual ASS) and indexes every image (OCR, text embedding, optional CLIP) in the
 folders you give it, writing results next to your files. Everything runs on this
 computer. Your library database and models live in ~/.local/share/Sidecar, which
 removing this package leaves in place.
""", encoding="utf-8")
    refresh = "#!/bin/sh\nset -e\ncommand -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q /usr/share/icons/hicolor || true\n" \
              "command -v update-desktop-database >/dev/null && update-desktop-database -q /usr/share/applications || true\n"
    for script in ("postinst", "postrm"):
        (debian / script).write_text(refresh, encoding="utf-8")
        (debian / script).chmod(0o755)
    target = dist / f"sidecar_{__version__}_amd64.deb"
    run(["dpkg-deb", "--root-owner-group", "-Zzstd", "-z6", "--build", str(root), str(target)])
    shutil.rmtree(root, ignore_errors=True)
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--work", type=Path, default=ROOT / "build")
    parser.add_argument("--no-archives", action="store_true", help="only the one-folder app")
    args = parser.parse_args()
    dist, work = args.dist.resolve(), args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}

    start = time.perf_counter()
    gemma = gemma_gguf_path(work / "gemma")
    assert gemma.name == GEMMA_FILE
    whisper = work / "whisper-base-int8"
    if not (whisper / "model.bin").is_file():
        write_int8_model(whisper_base_paths(), whisper)
    icons = make_icons(work / "icons")
    env = dict(os.environ, SIDECAR_GEMMA_GGUF=str(gemma), SIDECAR_WHISPER_INT8_DIR=str(whisper),
               SIDECAR_ICON_ICO=str(icons / "sidecar.ico"))
    if sys.platform == "win32":
        env["SIDECAR_VERSION_FILE"] = str(windows_version_file(work))
    timings["prepare (Gemma joined, Whisper int8, icons)"] = time.perf_counter() - start

    start = time.perf_counter()
    run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN", "--distpath", str(dist),
         "--workpath", str(work / "pyinstaller"), str(ROOT / "packaging" / "sidecar.spec")], env=env)
    timings["PyInstaller"] = time.perf_counter() - start
    app_dir = dist / "Sidecar"
    slimmed: dict[str, int] = {}
    if sys.platform == "win32":
        place_openmp_runtime(app_dir)
    elif sys.platform.startswith("linux"):
        start = time.perf_counter()
        slimmed = slim_linux_folder(app_dir)
        timings["strip debug info, link duplicates"] = time.perf_counter() - start
    size, files = folder_size(app_dir)

    archives: dict[str, int] = {}
    if not args.no_archives and sys.platform.startswith("linux"):
        start = time.perf_counter()
        tarball = build_tarball(dist, app_dir, icons)
        timings["tarball (gzip -6)"] = time.perf_counter() - start
        archives[tarball.name] = tarball.stat().st_size
        start = time.perf_counter()
        deb = build_deb(dist, app_dir, icons, work)
        timings[".deb (zstd -6)"] = time.perf_counter() - start
        archives[deb.name] = deb.stat().st_size
    elif not args.no_archives and sys.platform == "win32" and shutil.which("iscc"):
        start = time.perf_counter()
        run(["iscc", f"/DAppVersion={__version__}", f"/DDistDir={app_dir}", f"/DIconFile={icons / 'sidecar.ico'}",
             f"/O{dist}", str(ROOT / "packaging" / "windows" / "sidecar.iss")])
        timings["Inno Setup installer"] = time.perf_counter() - start
        for setup in dist.glob("Sidecar-*-setup.exe"):
            archives[setup.name] = setup.stat().st_size

    print(f"\nSidecar {__version__} build ({sys.platform})")
    print(f"{'step':<34} {'seconds':>8}")
    for name, seconds in timings.items():
        print(f"{name:<34} {seconds:>8.1f}")
    print(f"\n{'output':<44} {'size':>10}")
    print(f"{'dist/Sidecar/ (' + str(files) + ' files)':<44} {mb(size):>10}")
    for name, n in archives.items():
        print(f"{name:<44} {mb(n):>10}")
    for name, n in slimmed.items():
        print(f"{'pruned: ' + name:<44} {mb(n):>10}")
    print(f"\n{'largest parts of _internal/':<44} {'size':>10}")
    for name, n in largest_parts(app_dir):
        print(f"{name:<44} {mb(n):>10}")
    if sys.platform.startswith("linux"):
        glibc, glibcxx = glibc_floor(app_dir)
        print(f"\nneeds glibc >= {glibc}, libstdc++ GLIBCXX >= {glibcxx} (from the bundled binaries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
