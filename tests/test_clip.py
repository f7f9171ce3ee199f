"""CLIP preprocessing and tokenization match OpenAI's reference; the runtime works in a model host."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from PIL import Image

from app.ml.spec import ModelSpec
from app.errors import SidecarError
from app.ml.clip import CLIP_MEAN, CLIP_STD, CONTEXT_LENGTH, EOT_TOKEN, SOT_TOKEN, ClipTokenizer, preprocess_batch, resize_and_crop
from app.ml.host import ModelHost
from tests.clip_graphs import write_clip_model

# Expected ids were produced by OpenAI's clip/simple_tokenizer.py over the original
# bpe_simple_vocab_16e6.txt.gz (sha256 924691ac288e54409236115652ad4aa250f48203de50a9e4722a6ecd48d6804a).
KNOWN_IDS = {
    "a photo of a cat": [320, 1125, 539, 320, 2368],
    "A photo of a CAT!": [320, 1125, 539, 320, 2368, 256],
    "猫": [163, 234, 360],
    "東京タワー": [48338, 21078, 105, 34941, 2429, 107, 30391],
    "café &amp; naïve": [15304, 261, 1097, 35689, 563],
    "the screenshot with the invoice number 12345": [518, 12646, 593, 518, 512, 3386, 2842, 272, 273, 274, 275, 276],
}


@pytest.fixture(scope="module")
def tokenizer():
    return ClipTokenizer()


@pytest.mark.parametrize("text,ids", list(KNOWN_IDS.items()))
def test_tokenizer_matches_openai_reference(tokenizer, text, ids):
    assert tokenizer.encode(text) == ids


def test_tokenize_pads_to_context_length_with_start_and_end(tokenizer):
    batch = tokenizer.tokenize(["a photo of a cat", ""])
    assert batch.dtype == np.int64 and batch.shape == (2, CONTEXT_LENGTH)
    assert batch[0, :7].tolist() == [SOT_TOKEN, 320, 1125, 539, 320, 2368, EOT_TOKEN]
    assert not batch[0, 7:].any()
    assert batch[1, :2].tolist() == [SOT_TOKEN, EOT_TOKEN]


def test_long_text_is_truncated_and_still_ends_with_eot(tokenizer):
    row = tokenizer.tokenize([" ".join(["cat"] * 200)])[0]
    assert row[0] == SOT_TOKEN and row[-1] == EOT_TOKEN and (row[1:-1] == 2368).all()


def test_vocab_file_in_the_model_folder_is_used(tmp_path, tokenizer):
    # A tiny vocabulary (header + no merges) gives byte-level tokens: different ids prove the file was read.
    vocab = tmp_path / "bpe_simple_vocab_16e6.txt"
    vocab.write_text("#version: 0.2\n", encoding="utf-8")
    custom = ClipTokenizer(vocab)
    assert custom.encode("cat") != tokenizer.encode("cat")


def test_preprocess_of_a_solid_colour_is_exactly_clip_normalised():
    batch = preprocess_batch([Image.new("RGB", (640, 480), (255, 128, 0))])
    assert batch.shape == (1, 3, 224, 224) and batch.dtype == np.float32
    expected = [(v / 255.0 - m) / s for v, m, s in zip((255, 128, 0), CLIP_MEAN, CLIP_STD)]
    for channel in range(3):
        assert np.allclose(batch[0, channel], expected[channel], atol=1e-5)


def test_preprocess_resizes_the_short_side_and_crops_the_centre():
    stripes = Image.new("RGB", (672, 224))
    for index, colour in enumerate(((255, 0, 0), (0, 255, 0), (0, 0, 255))):
        stripes.paste(colour, (index * 224, 0, index * 224 + 224, 224))
    assert resize_and_crop(stripes).getcolors() == [(224 * 224, (0, 255, 0))]
    tall = Image.new("RGB", (100, 300))
    assert resize_and_crop(tall).size == (224, 224)
    # 300x200 → 336x224 (short side to 224, long side truncated), then a 224 crop at x = 56
    wide = Image.new("RGB", (300, 200))
    wide.paste((255, 255, 255), (0, 0, 150, 200))
    row = np.asarray(resize_and_crop(wide))[112, :, 0]
    assert row[0] == 255 and row[-1] == 0 and abs(int(np.argmin(row > 128)) - (168 - 56)) <= 1


@pytest.fixture(scope="module")
def clip_host(tmp_path_factory):
    folder = write_clip_model(tmp_path_factory.mktemp("clip") / "tiny-clip", dim=64, seed=7)
    host = ModelHost(ModelSpec.of("app.ml.clip:ClipRuntime", model_dir=str(folder), num_threads=1))
    yield host
    host.close()


def test_runtime_in_a_model_host_embeds_images_and_texts(clip_host, tmp_path):
    rng = np.random.default_rng(3)
    first = tmp_path / "a.png"
    Image.fromarray(rng.integers(0, 255, (300, 400, 3), dtype=np.uint8)).save(first)
    copy = tmp_path / "same content.png"
    shutil.copy(first, copy)
    other = tmp_path / "b.jpg"
    Image.new("RGB", (500, 500), (10, 200, 30)).save(other)

    assert clip_host.info["dim"] == 64
    assert clip_host.info["model_id"].startswith("clip-tiny-clip-")
    assert "CPUExecutionProvider" in clip_host.info["providers"]
    vectors = np.asarray(clip_host.call("embed_images", [str(first), str(copy), str(other)]))
    assert vectors.shape == (3, 64)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert float(vectors[0] @ vectors[1]) == pytest.approx(1.0, abs=1e-6)
    assert float(vectors[0] @ vectors[2]) < 0.99

    texts = np.asarray(clip_host.call("embed_texts", ["a photo of a cat", "a photo of a dog", "a photo of a cat"]))
    assert texts.shape == (3, 64)
    assert np.allclose(np.linalg.norm(texts, axis=1), 1.0, atol=1e-5)
    assert float(texts[0] @ texts[2]) == pytest.approx(1.0, abs=1e-6)
    assert float(texts[0] @ texts[1]) < 0.999


def test_runtime_reports_a_corrupt_image_with_its_code(clip_host, tmp_path):
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"nope")
    with pytest.raises(SidecarError) as err:
        clip_host.call("embed_images", [str(bad)])
    assert err.value.code == "corrupt_media"
    assert clip_host.alive


def test_a_folder_without_the_graphs_fails_to_load_with_model_invalid(tmp_path):
    with pytest.raises(SidecarError) as err:
        ModelHost(ModelSpec.of("app.ml.clip:ClipRuntime", model_dir=str(tmp_path)))
    assert err.value.code == "model_invalid"
