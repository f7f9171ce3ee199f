"""The per-image document gathers tags, name words, EXIF and OCR text, most telling first."""

from __future__ import annotations

import pytest

from app.media.describe import MAX_PASSAGES, PASSAGE_CHARS, build_document, name_tokens, passages, path_tokens, zero_shot_tags


@pytest.mark.parametrize(
    "name,tokens",
    [
        ("IMG_20210704_beachTrip", ["img", "20210704", "beach", "trip"]),
        ("myCatPhoto2", ["my", "cat", "photo", "2"]),
        ("HTMLParser-v2 final", ["html", "parser", "v", "2", "final"]),
        ("猫の写真_2020", ["猫の写真", "2020"]),
        ("Screenshot 2024-01-05 at 10.11.12", ["screenshot", "2024", "01", "05", "at", "10", "11", "12"]),
        ("", []),
    ],
)
def test_name_tokens_split_like_people_name_files(name, tokens):
    assert name_tokens(name) == tokens


def test_path_tokens_include_the_nearest_folder():
    assert path_tokens("/home/me/Holidays 2021/IMG_0042.jpg") == ["img", "0042", "holidays", "2021"]


def test_document_puts_tags_exif_then_ocr_without_labels_or_name_words():
    result = build_document(
        ocr_text="Invoice  number\n4471",
        exif={"date_taken": "2021-07-04T12:34:56", "camera_make": "Canon", "camera_model": "Canon EOS R5"},
        tags=["document", "paper"],
    )
    assert result["document"].split("\n") == [
        "document paper",
        "2021-07-04 July 2021 Canon EOS R5",
        "Invoice number 4471",
    ]
    assert result["ocr_text"] == "Invoice  number\n4471"
    assert result["tags"] == ["document", "paper"]


def test_long_ocr_is_cut_in_the_document_but_kept_in_ocr_text():
    words = "word " * 3000
    result = build_document(ocr_text=words)
    assert len(result["document"]) < 2100
    assert len(result["ocr_text"]) > 10000


def test_zero_shot_tags_pick_the_labels_closest_to_the_image():
    labels = ["cat", "dog", "car"]
    vectors = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    assert zero_shot_tags([0.9, 0.2, 0.0], labels, vectors) == ["cat"]
    assert zero_shot_tags([0.5, 0.5, 0.0], labels, vectors) == ["cat", "dog"]
    assert zero_shot_tags([1.0, 0.0, 0.0], [], []) == []


def test_a_long_ocr_text_is_cut_into_short_passages_of_whole_lines_and_a_short_one_is_not():
    news = ("【素敵な四季を探す旅】\n春分\n農村の学校で、伝統演劇の特別クラス\n浙江省\n"
            "三星堆の文化財レプリカが大阪・関西万博で展示へ\n\n  中国テイストの   ストリートダンスでダンスバトルを盛り上げる….")
    found = passages(news)
    assert found == ["【素敵な四季を探す旅】 春分 農村の学校で、伝統演劇の特別クラス 浙江省 三星堆の文化財レプリカが大阪・関西万博で展示へ",
                     "中国テイストの ストリートダンスでダンスバトルを盛り上げる…."]  # spaces folded, empty lines dropped
    assert all(len(p) <= PASSAGE_CHARS for p in found)
    assert passages("SPEED LIMIT\n50") == [] and passages("") == []  # one passage: the document's vector says it
    long_line = "x" * (PASSAGE_CHARS + 10)
    assert passages(f"{long_line}\nshort") == [long_line, "short"]  # a line is never split
    assert len(passages("\n".join(f"line {n} of a long scanned page" for n in range(200)))) == MAX_PASSAGES
