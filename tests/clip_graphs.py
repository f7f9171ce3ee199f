"""Small CLIP-shaped ONNX graphs, so the CLIP runtime is tested without real weights.

They honour the model folder contract of :mod:`app.ml.clip` (names, dtypes, shapes)
with deterministic random weights from a seed:

- image tower: ``pixel_values [N,3,224,224]`` → 32×32 average pool (a 7×7 grid per
  channel, so different pictures give different vectors) → flatten ``[N,147]`` →
  fixed projection → ``image_embeds [N,D]``;
- text tower: ``input_ids [N,77]`` int64 → embedding lookup (Gather; padding id 0 maps
  to zeros) → mean over the sequence → fixed projection → ``text_embeds [N,D]``.

Needs the ``onnx`` package (a test dependency only).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR_VERSION = 8  # the IR that introduced opset 17; any onnxruntime ≥ 1.13 reads it
VOCAB = 49408


def _save(graph: onnx.GraphProto, path: Path) -> None:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="sidecar-tests")
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def image_graph(dim: int, rng: np.random.Generator) -> onnx.GraphProto:
    projection = rng.standard_normal((3 * 7 * 7, dim)).astype(np.float32)
    nodes = [
        helper.make_node("AveragePool", ["pixel_values"], ["pooled"], kernel_shape=[32, 32], strides=[32, 32]),
        helper.make_node("Flatten", ["pooled"], ["flat"], axis=1),
        helper.make_node("MatMul", ["flat", "image_projection"], ["image_embeds"]),
    ]
    return helper.make_graph(
        nodes,
        "clip_image_tower",
        [helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, ["N", 3, 224, 224])],
        [helper.make_tensor_value_info("image_embeds", TensorProto.FLOAT, ["N", dim])],
        initializer=[numpy_helper.from_array(projection, "image_projection")],
    )


def text_graph(dim: int, rng: np.random.Generator, width: int = 16) -> onnx.GraphProto:
    embedding = rng.standard_normal((VOCAB, width)).astype(np.float32)
    embedding[0] = 0.0  # id 0 pads the sequence: a zero row keeps the mean about the real tokens
    projection = rng.standard_normal((width, dim)).astype(np.float32)
    nodes = [
        helper.make_node("Gather", ["token_embedding", "input_ids"], ["tokens"], axis=0),
        helper.make_node("ReduceMean", ["tokens"], ["mean"], axes=[1], keepdims=0),
        helper.make_node("MatMul", ["mean", "text_projection"], ["text_embeds"]),
    ]
    return helper.make_graph(
        nodes,
        "clip_text_tower",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["N", 77])],
        [helper.make_tensor_value_info("text_embeds", TensorProto.FLOAT, ["N", dim])],
        initializer=[
            numpy_helper.from_array(embedding, "token_embedding"),
            numpy_helper.from_array(projection, "text_projection"),
        ],
    )


def write_clip_model(folder: Path, dim: int = 64, seed: int = 0) -> Path:
    """Write ``image.onnx`` and ``text.onnx`` into ``folder`` (created) and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    _save(image_graph(dim, rng), folder / "image.onnx")
    _save(text_graph(dim, rng), folder / "text.onnx")
    return folder
