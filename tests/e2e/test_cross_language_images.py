"""A Chinese sign through the real image pipeline with the real zh→en package installed (issue 38).

RapidOCR reads 大阪, the text-embedding stage translates the line through the installed
package, ``place`` indexes the translation, and the library's search finds the sign by
"Osaka" and says it matched the translation of 大阪; a Chinese query is translated into
the library's English and finds the English sign.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main as cli
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.search import MATCH_TRANSLATED_QUERY, MATCH_TRANSLATION
from app.pipelines.image import image_pipeline
from tests.opus_mt import zh_en_package
from tests.rendered_images import render_text_image

pytestmark = pytest.mark.e2e


def test_osaka_finds_the_chinese_sign_and_a_chinese_query_finds_the_english_one(
        tmp_path: Path, data_dir: Path, fast_config) -> None:
    assert cli(["models", "install", "--from", str(zh_en_package()), "--data-dir", str(data_dir), "--json"]) == 0
    pics = tmp_path / "pics"
    sign = render_text_image(pics / "sign.png", ["大阪"])
    paris = render_text_image(pics / "paris.png", ["Palais du LOUVRE"])
    lib = Library(data_dir, {"image": image_pipeline(data_dir)}, fast_config)
    try:
        lib.add(pics, JobOptions(kind="image"))
        lib.start()
        lib.run_until_idle()
        hits = lib.search("Osaka", kind="image")
        assert [h.path for h in hits] == [str(sign)]
        assert (hits[0].match, hits[0].match_text) == (MATCH_TRANSLATION, "大阪")
        hits = lib.search("卢浮宫", kind="image")
        assert hits and hits[0].path == str(paris)
        assert hits[0].match == MATCH_TRANSLATED_QUERY and "louvre" in hits[0].match_text.lower()
    finally:
        lib.close()
