"""Checkpoints in torch.save's format without torch (issue 43 item 1): files torch wrote
(a checked-in fixture everywhere; fresh ones where torch imports), what ddz writes read by
torch, and malicious or broken files refused with a CheckpointError, running nothing."""

from __future__ import annotations

import io
import os
import pathlib
import pickle
import zipfile

import numpy as np
import pytest

from ddz import CheckpointError, DdzError
from ddz.neural import load_checkpoint, read_checkpoint, save_checkpoint

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "neural"
#: what tests/data/neural/tiny_*.ckpt hold (written by torch 2.13.0: a view with an offset
#: and strides sharing its base's storage, a scalar, an empty tensor)
_W = np.arange(12, dtype=np.float32).reshape(3, 4) / 8 - 0.5
TINY = {"w": _W, "view": _W[1:, ::2], "b": np.array([1.5, -2.25], np.float32),
        "scalar": np.array(3.0, np.float32), "empty": np.zeros((0, 3), np.float32)}


def _same(got, want):
    assert list(got) == list(want)
    for k in want:
        assert got[k].dtype == np.float32 and got[k].shape == np.shape(want[k]), k
        assert np.array_equal(got[k], want[k]), k


@pytest.mark.parametrize("name, fmt", [("tiny_zip.ckpt", "zip"), ("tiny_legacy.ckpt", "legacy")])
def test_reads_the_files_torch_wrote(name, fmt):
    c = read_checkpoint(DATA / name)
    assert c.format == fmt and c.architecture is None
    _same(c.tensors, TINY)
    # a path, bytes and a file object alike; arrays are fresh and writable
    raw = (DATA / name).read_bytes()
    _same(load_checkpoint(raw), TINY)
    _same(load_checkpoint(io.BytesIO(raw)), TINY)
    c.tensors["w"][0, 0] = 7
    assert c.tensors["view"][0, 0] == 0


@pytest.mark.parametrize("legacy", [False, True])
def test_half_precision_write_then_read(tmp_path, legacy):
    """dtype="float16" halves the storages; reading widens them to float32 exactly."""
    rng = np.random.default_rng(2)
    state = {"w": rng.standard_normal((64, 32)).astype(np.float32), "b": rng.standard_normal(64) * 1e-3}
    path16, path32 = tmp_path / "h.ckpt", tmp_path / "f.ckpt"
    save_checkpoint(state, path16, legacy=legacy, dtype="float16")
    save_checkpoint(state, path32, legacy=legacy)
    c = read_checkpoint(path16)
    assert c.dtype == "float16" and read_checkpoint(path32).dtype == "float32"
    _same(c.tensors, {k: np.asarray(v).astype(np.float16).astype(np.float32) for k, v in state.items()})
    assert path16.stat().st_size < 0.6 * path32.stat().st_size
    # float16 -> float32 -> float16 is exact: written again, the same bytes
    again = io.BytesIO()
    save_checkpoint(c.tensors, again, legacy=legacy, dtype="float16")
    first = io.BytesIO()
    save_checkpoint(state, first, legacy=legacy, dtype="float16")
    assert again.getvalue() == first.getvalue()
    with pytest.raises(CheckpointError, match="float16's range"):
        save_checkpoint({"w": np.array([70000.0])}, tmp_path / "x.ckpt", dtype="float16")
    with pytest.raises(CheckpointError, match="dtype"):
        save_checkpoint(state, tmp_path / "x.ckpt", dtype="float64")


@pytest.mark.parametrize("legacy", [False, True])
def test_write_then_read(tmp_path, legacy):
    rng = np.random.default_rng(1)
    state = {"a.weight": rng.standard_normal((5, 7)).astype(np.float32), "a.bias": rng.standard_normal(5),
             "s": np.float32(2.5), "e": np.zeros((0,), np.float32)}
    path = tmp_path / "m.ckpt"
    save_checkpoint(state, path, legacy=legacy)
    c = read_checkpoint(path)
    assert c.format == ("legacy" if legacy else "zip")
    _same(c.tensors, {k: np.asarray(v, np.float32) for k, v in state.items()})


def test_zip_layout_is_torchs(tmp_path):
    """One folder named after the file, data.pkl first, storages 64-byte aligned, stored."""
    path = tmp_path / "landlord.ckpt"
    save_checkpoint(TINY, path, architecture="test-arch")
    zf = zipfile.ZipFile(path)
    names = zf.namelist()
    assert names[0] == "landlord/data.pkl" and "landlord/version" in names and "landlord/byteorder" in names
    raw = path.read_bytes()
    for info in zf.infolist():
        assert info.compress_type == zipfile.ZIP_STORED
        if "/data/" in info.filename:
            start = info.header_offset + 30 + len(info.filename) + int.from_bytes(
                raw[info.header_offset + 28:info.header_offset + 30], "little")
            assert start % 64 == 0, info.filename
    assert read_checkpoint(path).architecture == "test-arch"


# -- with torch ------------------------------------------------------------------------------

def test_torch_reads_what_ddz_writes_and_ddz_reads_what_torch_writes(tmp_path):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    lstm, lin = torch.nn.LSTM(6, 4, batch_first=True), torch.nn.Linear(10, 3)
    state = {**{"lstm." + k: v for k, v in lstm.state_dict().items()},
             **{"lin." + k: v for k, v in lin.state_dict().items()}}
    want = {k: v.numpy() for k, v in state.items()}
    for legacy in (False, True):
        theirs = tmp_path / f"t{int(legacy)}.ckpt"
        torch.save(state, theirs, _use_new_zipfile_serialization=not legacy)
        _same(load_checkpoint(theirs), want)
        ours = tmp_path / f"o{int(legacy)}.ckpt"
        save_checkpoint(want, ours, legacy=legacy)
        back = torch.load(ours)                         # weights_only=True, torch's default
        assert list(back) == list(want)
        assert all(torch.equal(back[k], state[k]) for k in state)
    back = torch.load(tmp_path / "o0.ckpt", mmap=True)  # the aligned storages map as torch's do
    assert all(torch.equal(back[k], state[k]) for k in state)


def test_half_precision_both_ways_with_torch(tmp_path):
    """float16: torch's half tensors read (widened exactly); ddz's half files loaded by torch
    as half tensors of the same values, and cast into a float32 module by load_state_dict."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(1)
    lin = torch.nn.Linear(6, 3)
    half = {k: v.half() for k, v in lin.state_dict().items()}
    half["view"] = half["weight"][1:, ::2]                     # an offset, strides, a shared storage
    want = {k: v.float().numpy() for k, v in half.items()}
    for legacy in (False, True):
        theirs = tmp_path / f"t{int(legacy)}.ckpt"
        torch.save(half, theirs, _use_new_zipfile_serialization=not legacy)
        c = read_checkpoint(theirs)
        assert c.dtype == "float16"
        _same(c.tensors, want)
        ours = tmp_path / f"o{int(legacy)}.ckpt"
        save_checkpoint({k: v for k, v in want.items() if k != "view"}, ours, legacy=legacy, dtype="float16")
        back = torch.load(ours)                                # weights_only=True
        assert all(back[k].dtype == torch.float16 and torch.equal(back[k], half[k]) for k in back)
        fresh = torch.nn.Linear(6, 3)
        fresh.load_state_dict(back)
        assert torch.equal(fresh.weight, half["weight"].float())


# -- refused ---------------------------------------------------------------------------------

def _rezip(src: bytes, change) -> bytes:
    """The archive ``src`` with each ``(name, data)`` replaced by ``change(name, data)``
    (a list of entries)."""
    zin = zipfile.ZipFile(io.BytesIO(src))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zout:
        for i in zin.infolist():
            for name, data, *how in change(i.filename, zin.read(i)):
                zout.writestr(name, data, *how)
    return out.getvalue()


class _Evil:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def _zip_with_pickle(pkl: bytes) -> bytes:
    return _rezip((DATA / "tiny_zip.ckpt").read_bytes(),
                  lambda n, d: [(n, pkl if n.endswith("data.pkl") else d)])


def test_a_pickle_that_would_run_a_command_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    evil = pickle.dumps(_Evil(marker), protocol=2)
    inside = pickle.dumps({"w": _Evil(marker)}, protocol=2)
    legacy = b"".join(pickle.dumps(x, protocol=2) for x in (0x1950A86A20F9469CFC6C, 1001, {})) + evil
    for raw in (_zip_with_pickle(evil), _zip_with_pickle(inside), legacy, evil,
                pickle.dumps(_Evil(marker), protocol=4)):
        with pytest.raises(CheckpointError, match="allow-list|not a torch.save"):
            load_checkpoint(raw)
    assert not marker.exists()
    assert issubclass(CheckpointError, DdzError)


def test_builtins_and_storage_calls_are_refused():
    raw = (DATA / "tiny_zip.ckpt").read_bytes()
    pkl = zipfile.ZipFile(io.BytesIO(raw)).read("tiny_zip/data.pkl")
    for old, new, text in [(b"collections\nOrderedDict", b"builtins\neval\n", "allow-list"),
                           (b"torch\nFloatStorage", b"torch\nDoubleStorage", "only float32"),
                           (b"torch\nFloatStorage", b"torch\nBFloat16Storage", "only float32"),
                           (b"torch\nFloatStorage", b"torch\nLongStorage", "only float32"),
                           (b"torch\nFloatStorage", b"torch\nUntypedStorage", "only float32"),
                           (b"torch\nFloatStorage", b"torch\nload", "allow-list"),
                           # a half storage over float32's bytes: its record is twice too long
                           (b"torch\nFloatStorage", b"torch\nHalfStorage", "needs 24"),
                           (b"_rebuild_tensor_v2", b"_rebuild_parameter", "allow-list")]:
        with pytest.raises(CheckpointError, match=text):
            load_checkpoint(_zip_with_pickle(pkl.replace(old, new, 1)))


def test_truncated_and_corrupt_files():
    for name in ("tiny_zip.ckpt", "tiny_legacy.ckpt"):
        raw = (DATA / name).read_bytes()
        for cut in (0, 1, 3, 40, len(raw) // 2, len(raw) - 30, len(raw) - 1):
            with pytest.raises(CheckpointError):
                load_checkpoint(raw[:cut])
    raw = bytearray((DATA / "tiny_zip.ckpt").read_bytes())
    at = raw.index(b"\x00\x00\x00\xbf")         # inside storage 0's bytes (-0.5): the CRC fails
    raw[at + 3] ^= 0xFF
    with pytest.raises(CheckpointError, match="corrupt"):
        load_checkpoint(bytes(raw))
    for junk in (b"", b"hello", b"\x80\x02K\x01.", np.zeros(100, np.uint8).tobytes()):
        with pytest.raises(CheckpointError):
            load_checkpoint(junk)


def test_paths_leaving_the_archive_are_refused():
    raw = (DATA / "tiny_zip.ckpt").read_bytes()
    for bad in ("../evil", "tiny_zip/../../evil", "/etc/evil", "tiny_zip\\..\\evil", "C:/evil"):
        with pytest.raises(CheckpointError, match="leaves its folder"):
            load_checkpoint(_rezip(raw, lambda n, d: [(n, d)] + ([(bad, b"x")] if n == "tiny_zip/version" else [])))


def test_size_bombs_are_refused():
    raw = (DATA / "tiny_zip.ckpt").read_bytes()
    bomb = _rezip(raw, lambda n, d: [(n, d)] + ([("tiny_zip/extra", b"\0" * 2**22, zipfile.ZIP_DEFLATED)]
                                                 if n == "tiny_zip/version" else []))
    assert len(bomb) < 2**16
    with pytest.raises(CheckpointError, match="max_bytes"):
        load_checkpoint(bomb, max_bytes=2**20)
    with pytest.raises(CheckpointError, match="max_bytes"):
        load_checkpoint(raw, max_bytes=100)
    pkl = zipfile.ZipFile(io.BytesIO(raw)).read("tiny_zip/data.pkl")
    huge = pkl.replace(b"K\x0ct", b"J\xff\xff\xff\x7ft", 1)   # storage 0: 2**31 - 1 elements
    assert huge != pkl
    with pytest.raises(CheckpointError, match="max_bytes"):
        load_checkpoint(_zip_with_pickle(huge))
    for bad in (0, -1, 1.5, True, None):
        with pytest.raises(CheckpointError, match="max_bytes"):
            load_checkpoint(raw, max_bytes=bad)


def test_views_past_the_data_are_refused(tmp_path):
    raw = (DATA / "tiny_zip.ckpt").read_bytes()
    pkl = zipfile.ZipFile(io.BytesIO(raw)).read("tiny_zip/data.pkl")
    # "view" sits at offset 4 (BININT1 4) of storage 0 (12 elements): move it to 8
    at = pkl.index(b"Q", pkl.index(b"view"))
    assert pkl[at + 1:at + 3] == b"K\x04"
    with pytest.raises(CheckpointError, match="past the data"):
        load_checkpoint(_zip_with_pickle(pkl[:at + 2] + b"\x08" + pkl[at + 3:]))
    # the storage's record shorter than its elements
    short = _rezip(raw, lambda n, d: [(n, d[:-4] if n.endswith("data/0") else d)])
    with pytest.raises(CheckpointError, match="needs 48"):
        load_checkpoint(short)


def test_not_a_state_dict(tmp_path):
    for obj in ([1, 2], {"a": 1}, {1: 2}):
        with pytest.raises(CheckpointError, match="state dict|not a tensor|not a str"):
            load_checkpoint(_zip_with_pickle(pickle.dumps(obj, protocol=2)))
    with pytest.raises(CheckpointError, match="cannot read"):
        load_checkpoint(tmp_path / "missing.ckpt")
    with pytest.raises(CheckpointError, match="path, bytes"):
        load_checkpoint(12)


def test_bad_states_to_write(tmp_path):
    for state, text in [([1], "mapping"), ({"": np.zeros(2)}, "non-empty"), ({"a": np.array(["x"])}, "real"),
                        ({3: np.zeros(2)}, "non-empty str")]:
        with pytest.raises(CheckpointError, match=text):
            save_checkpoint(state, tmp_path / "x.ckpt")
    with pytest.raises(CheckpointError, match="architecture"):
        save_checkpoint(TINY, tmp_path / "x.ckpt", legacy=True, architecture="a")
    with pytest.raises(CheckpointError, match="cannot write"):
        save_checkpoint(TINY, tmp_path / "no" / "x.ckpt")
