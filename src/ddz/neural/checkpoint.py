"""Network checkpoints in PyTorch's ``torch.save`` format, read and written with the
standard library and numpy (no torch), safely.

A checkpoint is what ``torch.save(model.state_dict(), path)`` writes: an ordered mapping
of parameter names (``"dense1.weight"``) to float32 tensors. Two layouts exist:

* **zip** (torch >= 1.6, the default since): a zip archive whose entries sit in one folder
  (``<name>/``): ``data.pkl`` (the pickled mapping, tensors naming their storages by key),
  ``data/<key>`` (each storage's raw bytes), ``byteorder``, ``version`` and a few more.
* **legacy** (``_use_new_zipfile_serialization=False``, and torch before 1.6): a stream of
  pickles (a magic number, the protocol version 1001, system information, the mapping,
  the list of storage keys), then each storage as an int64 element count and its bytes.

Reading unpickles with an allow-list and runs nothing: the only globals a checkpoint may
name are ``collections.OrderedDict``, ``torch._utils._rebuild_tensor_v2`` (answered by a
function here that only records its arguments) and ``torch.FloatStorage`` or
``torch.HalfStorage`` (names, never called); storages come through ``persistent_load``.
Half-precision (float16) storages are widened to float32 on reading, exactly. Everything
else -- another global (another storage type included), a path leaving the archive's
folder, a file or a storage past ``max_bytes``, a tensor whose view reaches past its
storage, a dtype other than float32 or float16, a truncated or corrupt file -- is a
:class:`ddz.CheckpointError` naming what was wrong, raised before any tensor is built.

Writing produces the zip layout (or the legacy stream) that ``torch.load`` (with its
default ``weights_only=True``) and DouZero's ``DeepAgent`` read: storages 64-byte aligned
in the archive as torch aligns them, float32 or (``dtype="float16"``: half the size, as
the shipped model is) float16, the pickle written opcode by opcode (no torch needed
to name torch's globals). Other architectures of ``ddz`` use the same format, with an
``architecture`` entry (a short text record beside ``data.pkl``) naming them; torch ignores
that record.
"""

from __future__ import annotations

import collections
import io
import os
import pickle
import struct
import zipfile
import zlib
from typing import Any, BinaryIO, Dict, List, Mapping, NamedTuple, Optional, Tuple, Union

import numpy as np

from ..errors import CheckpointError, quote

__all__ = ["Checkpoint", "read_checkpoint", "load_checkpoint", "save_checkpoint", "MAX_BYTES"]

MAX_BYTES = 256 * 2**20
"""The default bound on a checkpoint file, on its archive's records unpacked and on its
storages together: 256 MiB, forty times DouZero's 6 MB files."""
#: the bound on the pickle itself and on the number of archive entries
_MAX_PICKLE = 16 * 2**20
_MAX_ENTRIES = 10_000
_MAX_DIMS = 8
#: the legacy stream's magic number and protocol version (torch.serialization)
_LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
_LEGACY_PROTOCOL = 1001
_ALIGN = 64

Source = Union[str, "os.PathLike[str]", bytes, BinaryIO]


class Checkpoint(NamedTuple):
    """A checkpoint read by :func:`read_checkpoint`.

    :ivar tensors: parameter name -> float32 array (C-contiguous, writable, its own copy),
        in the file's order.
    :ivar format: ``"zip"`` or ``"legacy"``.
    :ivar architecture: the ``architecture`` record of a ``ddz`` checkpoint, else ``None``
        (DouZero's files have none: their architecture is read from their names and shapes).
    :ivar dtype: how the file stores its tensors: ``"float32"``, ``"float16"`` (widened to
        float32 in ``tensors``) or ``"mixed"`` (some of each).
    """

    tensors: Dict[str, np.ndarray]
    format: str
    architecture: Optional[str]
    dtype: str = "float32"


# -- reading -------------------------------------------------------------------------------

class _StorageName:
    """``torch.FloatStorage`` and its kin as a name only (calling one is refused by pickle:
    it is not callable)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


#: the storage types read: torch's name -> numpy dtype (little-endian; the byte order
#: record may turn it). Nothing else is on the allow-list.
_STORAGES = {"FloatStorage": "f4", "HalfStorage": "f2"}
_DTYPE_NAMES = {"f4": "float32", "f2": "float16"}
_ALLOWED = ("collections.OrderedDict, torch._utils._rebuild_tensor_v2, torch.FloatStorage, "
            "torch.HalfStorage")


class _Storage(NamedTuple):
    key: str
    numel: int
    dtype: str = "f4"           # a value of _STORAGES


class _TensorRef(NamedTuple):
    storage: _Storage
    offset: int
    size: Tuple[int, ...]
    stride: Tuple[int, ...]


def _is_int(x: Any) -> bool:
    return type(x) is int


def _rebuild_tensor_v2(storage: Any = None, storage_offset: Any = None, size: Any = None, stride: Any = None,
                       requires_grad: Any = False, backward_hooks: Any = None, metadata: Any = None) -> _TensorRef:
    """What a pickled tensor reduces to: its arguments checked and recorded, nothing built."""
    if not isinstance(storage, _Storage):
        raise CheckpointError(f"a tensor's storage is not a persistent storage reference: {quote(storage)}")
    if not (_is_int(storage_offset) and storage_offset >= 0):
        raise CheckpointError(f"a tensor's storage offset is not an int >= 0: {quote(storage_offset)}")
    for what, t in (("size", size), ("stride", stride)):
        if not (isinstance(t, tuple) and len(t) <= _MAX_DIMS and all(_is_int(v) and v >= 0 for v in t)):
            raise CheckpointError(f"a tensor's {what} is not a tuple of at most {_MAX_DIMS} ints >= 0: {quote(t)}")
    if len(size) != len(stride):
        raise CheckpointError(f"a tensor's size {size} and stride {stride} differ in length")
    if not isinstance(requires_grad, bool):
        raise CheckpointError(f"a tensor's requires_grad is not a bool: {quote(requires_grad)}")
    if backward_hooks is not None and not (isinstance(backward_hooks, dict) and not backward_hooks):
        raise CheckpointError("a tensor with backward hooks: refused")
    if metadata is not None and not (isinstance(metadata, dict) and not metadata):
        raise CheckpointError(f"a tensor with metadata {quote(metadata)}: refused")
    numel = 1
    for v in size:
        numel *= v
    if numel:
        last = storage_offset + sum((s - 1) * st for s, st in zip(size, stride))
        if last >= storage.numel:
            raise CheckpointError(f"a tensor of size {size}, stride {stride} at offset {storage_offset} reaches "
                                  f"element {last} of a storage of {storage.numel}: past the data")
    return _TensorRef(storage, storage_offset, size, stride)


class _Unpickler(pickle.Unpickler):
    """The allow-list: ``OrderedDict``, ``_rebuild_tensor_v2``, storage names."""

    def __init__(self, file: BinaryIO, storages: Optional[Dict[str, _Storage]] = None,
                 max_bytes: int = MAX_BYTES) -> None:
        super().__init__(file)
        self.storages = storages
        self.max_bytes = max_bytes
        self.total = 0

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2") and self.storages is not None:
            return _rebuild_tensor_v2
        if module == "torch" and name in _STORAGES and self.storages is not None:
            return _StorageName(name)
        if module == "torch" and name.endswith("Storage") and self.storages is not None:
            raise CheckpointError(f"a storage of torch.{name}: only float32 (torch.FloatStorage) and float16 "
                                  f"(torch.HalfStorage) are read")
        raise CheckpointError(f"the checkpoint's pickle names {quote(module + '.' + name)}, which is not on the "
                              f"allow-list ({_ALLOWED}): refused, nothing run")

    def persistent_load(self, pid: Any) -> Any:
        if self.storages is None:
            raise CheckpointError("a storage reference outside the checkpoint's mapping")
        if not (isinstance(pid, tuple) and len(pid) in (5, 6) and pid[0] == "storage"):
            raise CheckpointError(f"an unknown persistent reference: {quote(pid)}")
        kind, key, location, numel = pid[1:5]
        if not isinstance(kind, _StorageName):
            raise CheckpointError(f"a storage of no storage type: {quote(kind)}")
        dtype = _STORAGES.get(kind.name)
        if dtype is None:
            raise CheckpointError(f"a storage of torch.{kind.name}: only float32 (torch.FloatStorage) and float16 "
                                  f"(torch.HalfStorage) are read")
        if not (isinstance(key, str) and 0 < len(key) <= 64 and key.isalnum()):
            raise CheckpointError(f"a storage key that is not a short alphanumeric name: {quote(key)}")
        if not (isinstance(location, str) and location.startswith(("cpu", "cuda"))):
            raise CheckpointError(f"a storage on {quote(location)}: only cpu or cuda storages are read")
        if len(pid) == 6 and pid[5] is not None:
            raise CheckpointError(f"a storage view {quote(pid[5])}: refused")
        if not (_is_int(numel) and numel >= 0):
            raise CheckpointError(f"a storage's element count is not an int >= 0: {quote(numel)}")
        known = self.storages.get(key)
        if known is None:
            self.total += int(dtype[1]) * numel
            if self.total > self.max_bytes:
                raise CheckpointError(f"the checkpoint's storages hold more than max_bytes={self.max_bytes} bytes")
            known = self.storages[key] = _Storage(key, numel, dtype)
        elif known.numel != numel or known.dtype != dtype:
            raise CheckpointError(f"storage {key!r} is given {known.numel} elements of {_DTYPE_NAMES[known.dtype]} "
                                  f"and {numel} of {_DTYPE_NAMES[dtype]}")
        return known


def _unpickle(data: BinaryIO, storages: Optional[Dict[str, _Storage]], max_bytes: int) -> Any:
    try:
        return _Unpickler(data, storages, max_bytes).load()
    except CheckpointError:
        raise
    except Exception as e:  # noqa: BLE001 - whatever a corrupt pickle raises, it is the file's fault
        raise CheckpointError(f"the checkpoint's pickle is corrupt or truncated ({type(e).__name__}: "
                              f"{quote(str(e), 120)})") from None


def _mapping(obj: Any) -> Dict[str, _TensorRef]:
    if not isinstance(obj, dict):
        raise CheckpointError(f"the checkpoint holds a {type(obj).__name__}, not a state dict (names -> tensors)")
    for k, v in obj.items():
        if not isinstance(k, str):
            raise CheckpointError(f"a state dict key that is not a str: {quote(k)}")
        if not isinstance(v, _TensorRef):
            raise CheckpointError(f"{k!r} is a {type(v).__name__}, not a tensor")
    return dict(obj)


def _build(refs: Dict[str, _TensorRef], data: Dict[str, np.ndarray]) -> Tuple[Dict[str, np.ndarray], str]:
    """The float32 arrays of the tensors (float16 widened, exactly) and the file's dtype
    (``"float32"``, ``"float16"`` or ``"mixed"``)."""
    out = {}
    kinds = set()
    for name, r in refs.items():
        base = data[r.storage.key]
        view = np.lib.stride_tricks.as_strided(base[r.offset:], shape=r.size,
                                               strides=tuple(base.itemsize * s for s in r.stride), writeable=False)
        out[name] = np.array(view, dtype=np.float32, order="C")
        kinds.add(_DTYPE_NAMES[r.storage.dtype])
    return out, kinds.pop() if len(kinds) == 1 else "mixed" if kinds else "float32"


def _read_bytes(source: Source, max_bytes: int) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif hasattr(source, "read"):
        data = source.read(max_bytes + 1)
        if not isinstance(data, bytes):
            raise CheckpointError(f"a checkpoint file must be opened in binary mode, not {type(data).__name__}")
    elif isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as f:
                data = f.read(max_bytes + 1)
        except OSError as e:
            raise CheckpointError(f"cannot read checkpoint {quote(os.fspath(source))}: {e.strerror or e}") from None
    else:
        raise CheckpointError(f"a checkpoint is a path, bytes or a binary file, not {type(source).__name__}")
    if len(data) > max_bytes:
        raise CheckpointError(f"the checkpoint is larger than max_bytes={max_bytes} bytes")
    return data


def _safe_name(name: str) -> bool:
    parts = name.split("/")
    return not (name.startswith("/") or "\\" in name or ":" in name or "\x00" in name
                or any(p in ("", ".", "..") for p in parts[:-1]) or parts[-1] in (".", ".."))


def _read_zip(data: bytes, max_bytes: int) -> Checkpoint:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, struct.error) as e:
        raise CheckpointError(f"the checkpoint is not a readable zip archive (truncated or corrupt: {e})") from None
    if len(infos) > _MAX_ENTRIES:
        raise CheckpointError(f"the checkpoint's archive has {len(infos)} entries (at most {_MAX_ENTRIES})")
    for i in infos:
        if not _safe_name(i.filename):
            raise CheckpointError(f"the archive entry {quote(i.filename)} leaves its folder: refused")
    pkls = [i for i in infos if i.filename.endswith("/data.pkl") and i.filename.count("/") == 1]
    if len(pkls) != 1:
        raise CheckpointError("the archive has no single <folder>/data.pkl: not a torch.save checkpoint")
    prefix = pkls[0].filename[:-len("data.pkl")]
    if any(not i.filename.startswith(prefix) for i in infos):
        raise CheckpointError(f"the archive's entries are not all in its folder {prefix!r}")
    if sum(i.file_size for i in infos) > max_bytes or pkls[0].file_size > _MAX_PICKLE:
        raise CheckpointError(f"the archive unpacks to more than max_bytes={max_bytes} bytes: refused")
    by_name = {i.filename: i for i in infos}

    def record(name: str, size: Optional[int] = None) -> bytes:
        info = by_name.get(prefix + name)
        if info is None:
            raise CheckpointError(f"the archive has no record {prefix + name!r}")
        if size is not None and info.file_size != size:
            raise CheckpointError(f"record {prefix + name!r} holds {info.file_size} bytes where its storage "
                                  f"needs {size}")
        try:
            with zf.open(info) as f:
                out = f.read(info.file_size + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, ValueError) as e:
            raise CheckpointError(f"record {prefix + name!r} is corrupt or truncated ({e})") from None
        if len(out) != info.file_size:
            raise CheckpointError(f"record {prefix + name!r} is truncated")
        return out

    order = "<"
    if prefix + "byteorder" in by_name:
        text = record("byteorder")
        if text not in (b"little", b"big"):
            raise CheckpointError(f"an unknown byte order {quote(text)}")
        order = "<" if text == b"little" else ">"
    storages: Dict[str, _Storage] = {}
    refs = _mapping(_unpickle(io.BytesIO(record("data.pkl")), storages, max_bytes))
    arrays = {key: np.frombuffer(record("data/" + key, int(s.dtype[1]) * s.numel), order + s.dtype)
              for key, s in storages.items()}
    arch = None
    if prefix + "architecture" in by_name:
        raw = record("architecture")
        if len(raw) > 200:
            raise CheckpointError("the architecture record is longer than 200 bytes")
        arch = raw.decode("utf-8", "replace").strip()
    tensors, dtype = _build(refs, arrays)
    return Checkpoint(tensors, "zip", arch, dtype)


def _read_legacy(data: bytes, max_bytes: int) -> Checkpoint:
    f = io.BytesIO(data)
    if _unpickle(f, None, max_bytes) != _LEGACY_MAGIC:
        raise CheckpointError("the checkpoint is neither a zip archive nor torch's legacy stream (no magic number)")
    if _unpickle(f, None, max_bytes) != _LEGACY_PROTOCOL:
        raise CheckpointError("torch's legacy stream of an unknown protocol version")
    info = _unpickle(f, None, max_bytes)
    order = "<" if not isinstance(info, dict) or info.get("little_endian", True) else ">"
    storages: Dict[str, _Storage] = {}
    refs = _mapping(_unpickle(f, storages, max_bytes))
    keys = _unpickle(f, None, max_bytes)
    if not (isinstance(keys, list) and all(isinstance(k, str) for k in keys)) or sorted(keys) != sorted(storages):
        raise CheckpointError("the legacy stream's storage keys do not match its tensors' storages")
    arrays = {}
    for key in keys:
        head = f.read(8)
        if len(head) != 8:
            raise CheckpointError(f"the legacy stream is truncated before storage {key!r}")
        (n,) = struct.unpack(order + "q", head)
        if n != storages[key].numel:
            raise CheckpointError(f"storage {key!r} holds {n} elements where its tensors say {storages[key].numel}")
        dt = storages[key].dtype
        raw = f.read(int(dt[1]) * n)
        if len(raw) != int(dt[1]) * n:
            raise CheckpointError(f"the legacy stream is truncated in storage {key!r}")
        arrays[key] = np.frombuffer(raw, order + dt)
    tensors, dtype = _build(refs, arrays)
    return Checkpoint(tensors, "legacy", None, dtype)


def _max_bytes_arg(max_bytes: Any) -> int:
    if not (_is_int(max_bytes) and max_bytes > 0):
        raise CheckpointError(f"max_bytes must be an int > 0, not {quote(max_bytes)}")
    return max_bytes


def read_checkpoint(source: Source, *, max_bytes: int = MAX_BYTES) -> Checkpoint:
    """Read a ``torch.save`` checkpoint of float32 or float16 tensors, without torch,
    running nothing.

    :param source: a path, the file's bytes, or a binary file object.
    :param max_bytes: the most bytes the file, and its storages together, may hold
        (default :data:`MAX_BYTES`, 256 MiB).
    :returns: a :class:`Checkpoint` (``tensors``: name -> float32 array, float16 storages
        widened exactly; ``format``: ``"zip"`` or ``"legacy"``; ``architecture``;
        ``dtype``: the file's storage type).
    :raises ddz.CheckpointError: an unreadable or missing file; not one of the two formats;
        truncated or corrupt; a global beyond the allow-list (module docstring); an archive
        entry leaving its folder; sizes past ``max_bytes``; a storage offset or view past its
        storage's data; a dtype other than float32 or float16 (any other storage type
        named by the pickle is refused before anything is read); anything but a mapping
        of names to tensors.
    """
    max_bytes = _max_bytes_arg(max_bytes)
    data = _read_bytes(source, max_bytes)
    if data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06":
        return _read_zip(data, max_bytes)
    if data[:2] == b"\x80\x02":
        return _read_legacy(data, max_bytes)
    raise CheckpointError(f"not a torch.save checkpoint (starts {quote(data[:8])}): neither a zip archive nor "
                          f"torch's legacy pickle stream")


def load_checkpoint(source: Source, *, max_bytes: int = MAX_BYTES) -> Dict[str, np.ndarray]:
    """The tensors of :func:`read_checkpoint`: parameter name -> float32 array (float16
    files widened).

    :raises ddz.CheckpointError: as :func:`read_checkpoint`."""
    return read_checkpoint(source, max_bytes=max_bytes).tensors


# -- writing -------------------------------------------------------------------------------

def _op_str(s: str) -> bytes:
    b = s.encode("utf-8")
    return b"X" + struct.pack("<I", len(b)) + b


def _op_int(n: int) -> bytes:
    return b"J" + struct.pack("<i", n)


def _op_tuple(t: Tuple[int, ...]) -> bytes:
    return b"(" + b"".join(_op_int(v) for v in t) + b"t"


def _state_pickle(arrays: List[Tuple[str, np.ndarray]], legacy: bool, storage: str = "FloatStorage"
                  ) -> Tuple[bytes, List[str]]:
    """The pickle of ``torch.save(state_dict)``, opcode by opcode (protocol 2): an
    ``OrderedDict`` of ``_rebuild_tensor_v2(storage, 0, size, stride, False, OrderedDict())``,
    storage ``k`` being ``("storage", torch.<storage>, key, "cpu", numel[, None])``."""
    out = [b"\x80\x02ccollections\nOrderedDict\n)R("]
    keys = []
    for k, (name, a) in enumerate(arrays):
        key = str(k)
        keys.append(key)
        strides, step = [], 1
        for v in reversed(a.shape):
            strides.append(step)
            step *= v
        out += [_op_str(name), b"ctorch._utils\n_rebuild_tensor_v2\n(",
                b"(", _op_str("storage"), b"ctorch\n" + storage.encode() + b"\n", _op_str(key), _op_str("cpu"), _op_int(a.size),
                b"N" if legacy else b"", b"tQ",
                _op_int(0), _op_tuple(a.shape), _op_tuple(tuple(reversed(strides))), b"\x89",
                b"ccollections\nOrderedDict\n)R", b"tR"]
    out.append(b"u.")
    return b"".join(out), keys


def _state_arg(state: Any, dtype: str = "<f4") -> List[Tuple[str, np.ndarray]]:
    if not isinstance(state, Mapping):
        raise CheckpointError(f"a state dict is a mapping of names to arrays, not {type(state).__name__}")
    out = []
    for name, a in state.items():
        if not isinstance(name, str) or not name:
            raise CheckpointError(f"a state dict name must be a non-empty str: {quote(name)}")
        arr = np.asarray(a)
        if arr.dtype.kind not in "fiu" or arr.ndim > _MAX_DIMS:
            raise CheckpointError(f"{name!r}: an array of real numbers of at most {_MAX_DIMS} dimensions, not "
                                  f"{arr.dtype} of shape {arr.shape}")
        with np.errstate(over="ignore"):
            cast = np.array(arr, dtype=dtype, order="C")
        if dtype != "<f4" and not np.isfinite(cast).all() and np.isfinite(arr).all():
            raise CheckpointError(f"{name!r}: values beyond float16's range (|x| > 65504): write it as float32")
        out.append((name, cast))
    if sum(a.nbytes for _, a in out) > 2**31 - 1:
        raise CheckpointError("a state dict of more than 2 GiB")
    return out


def _aligned_info(name: str, offset: int) -> zipfile.ZipInfo:
    """A stored entry whose data starts on a 64-byte boundary (torch's layout): the local
    header's extra field padded (header id ``FB``, as torch's writer uses)."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    start = offset + 30 + len(name.encode("utf-8")) + 4
    pad = (-start) % _ALIGN
    info.extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
    return info


def save_checkpoint(state: Mapping[str, Any], target: Union[str, "os.PathLike[str]", BinaryIO], *,
                    legacy: bool = False, architecture: Optional[str] = None, dtype: str = "float32") -> None:
    """Write ``state`` (name -> array) as ``torch.save(state_dict)`` does.

    :param state: parameter names to arrays (cast to little-endian ``dtype``), in order.
    :param target: a path (its stem names the archive's folder, as torch names it) or a
        binary file object (folder ``archive``).
    :param legacy: ``True``: torch's legacy stream instead of the zip archive.
    :param architecture: a short name written as the ``architecture`` record (zip only;
        ``None`` for DouZero's network, whose files have none).
    :param dtype: ``"float32"`` (torch.FloatStorage, the default) or ``"float16"``
        (torch.HalfStorage: half the size; values rounded to the nearest float16, about 3
        significant digits). torch's ``load_state_dict`` (DouZero's ``DeepAgent``
        included) casts half tensors into a float32 model; :func:`read_checkpoint` widens
        them to float32.
    :raises ddz.CheckpointError: a state that is not a mapping of non-empty names to real
        arrays; ``architecture`` with ``legacy``; an unknown ``dtype``; a finite value
        that float16 cannot hold (|x| > 65504); an unwritable target.
    """
    if dtype not in ("float32", "float16"):
        raise CheckpointError(f"dtype must be 'float32' or 'float16', not {quote(dtype)}")
    arrays = _state_arg(state, "<f4" if dtype == "float32" else "<f2")
    if legacy not in (True, False):
        raise CheckpointError(f"legacy must be True or False, not {quote(legacy)}")
    if architecture is not None and (legacy or not isinstance(architecture, str) or not 0 < len(architecture) <= 200):
        raise CheckpointError(f"architecture must be a str of 1..200 characters, zip format only: {quote(architecture)}")
    if hasattr(target, "write"):
        folder = "archive"
    elif isinstance(target, (str, os.PathLike)):
        folder = os.path.splitext(os.path.basename(os.fspath(target)))[0] or "archive"
    else:
        raise CheckpointError(f"a checkpoint target is a path or a binary file, not {type(target).__name__}")
    if not folder.isprintable() or "/" in folder or "\\" in folder:
        folder = "archive"
    pkl, keys = _state_pickle(arrays, legacy, "FloatStorage" if dtype == "float32" else "HalfStorage")
    buf = io.BytesIO()
    if legacy:
        for obj in (_LEGACY_MAGIC, _LEGACY_PROTOCOL,
                    {"protocol_version": _LEGACY_PROTOCOL, "little_endian": True,
                     "type_sizes": {"short": 2, "int": 4, "long": 4}}):
            pickle.dump(obj, buf, protocol=2)
        buf.write(pkl)
        pickle.dump(keys, buf, protocol=2)
        for _, a in arrays:
            buf.write(struct.pack("<q", a.size))
            buf.write(a.tobytes())
    else:
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
            def put(name: str, data: bytes) -> None:
                zf.writestr(_aligned_info(f"{folder}/{name}", buf.tell()), data)
            put("data.pkl", pkl)
            put("byteorder", b"little")
            for key, (_, a) in zip(keys, arrays):
                put(f"data/{key}", a.tobytes())
            put("version", b"3\n")
            if architecture is not None:
                put("architecture", architecture.encode("utf-8"))
    try:
        if hasattr(target, "write"):
            target.write(buf.getvalue())  # type: ignore[union-attr]
        else:
            with open(target, "wb") as f:  # type: ignore[arg-type]
                f.write(buf.getvalue())
    except OSError as e:
        raise CheckpointError(f"cannot write checkpoint {quote(target)}: {e.strerror or e}") from None
