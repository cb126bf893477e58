"""strata.runtime: artifacts written by strata-compile --emit=lib, loaded
through libStrataRuntime and called on tensors: results against torch, the
manifest, and the errors (wrong type, shape, layout or device, a missing
function, a damaged file, no GPU)."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from conftest import assert_close
from strata import runtime, tools

MLIR = """
func.func @forward(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>)
                     outs(%init : tensor<4x3xf32>) -> tensor<4x3xf32>
  %o = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x3xf32>) outs(%o : tensor<4x3xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @pair(%x: tensor<6xi32>, %y: tensor<6xi32>) -> (tensor<6xi32>, tensor<6xi32>) {
  %e = tensor.empty() : tensor<6xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %y : tensor<6xi32>, tensor<6xi32>) outs(%e : tensor<6xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %t = arith.addi %a, %b : i32
    linalg.yield %t : i32
  } -> tensor<6xi32>
  %f = tensor.empty() : tensor<6xi32>
  %p = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %y : tensor<6xi32>, tensor<6xi32>) outs(%f : tensor<6xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %t = arith.muli %a, %b : i32
    linalg.yield %t : i32
  } -> tensor<6xi32>
  return %s, %p : tensor<6xi32>, tensor<6xi32>
}
"""


def _compile(tmp, target, suffix):
    src = tmp / "small.mlir"
    src.write_text(MLIR)
    return tools.compile_mlir(src, tmp / f"small-{target}{suffix}", target=target)


@pytest.fixture(scope="module")
def host_lib(tmp_path_factory):
    return _compile(tmp_path_factory.mktemp("host"), "host", ".so")


@pytest.fixture(scope="module")
def exe(host_lib):
    return runtime.Executable(host_lib)


def reference(a, b):
    return torch.relu(a @ b)


def test_call_matches_torch(exe):
    a, b = torch.randn(4, 8), torch.randn(8, 3)
    y = exe("forward", a, b)
    assert y.dtype == torch.float32 and y.shape == (4, 3) and y.device.type == "cpu"
    assert_close(y, reference(a, b), "runtime_forward")


def test_outputs_are_written_in_place(exe):
    """Arguments are passed by address: `out` is written, an input that is
    a contiguous view (with a storage offset) is read where it lies."""
    a = torch.randn(3, 4, 8)[1]
    b = torch.randn(8, 3)
    out = torch.full((4, 3), float("nan"))
    assert exe("forward", a, b, out=out) is out
    assert_close(out, reference(a, b), "runtime_out")
    outs = exe.call("forward", [a, b], [torch.empty(4, 3)])
    assert_close(outs[0], reference(a, b), "runtime_call")


def test_several_outputs(exe):
    x = torch.arange(6, dtype=torch.int32)
    y = torch.full((6,), 3, dtype=torch.int32)
    s, p = exe("pair", x, y)
    assert torch.equal(s, x + y) and torch.equal(p, x * y)


def test_many_buffers_are_called_directly(exe, monkeypatch):
    """Host functions taking more buffers than the runtime's host device
    passes are called through the same ABI from Python."""
    monkeypatch.setattr(runtime, "HOST_RUNTIME_MAX_BUFFERS", 0)
    a, b = torch.randn(4, 8), torch.randn(8, 3)
    assert_close(exe("forward", a, b), reference(a, b), "runtime_direct")
    x = torch.arange(6, dtype=torch.int32)
    s, p = exe("pair", x, x)
    assert torch.equal(s, x + x) and torch.equal(p, x * x)


def test_numpy_arrays(exe):
    a = np.random.rand(4, 8).astype(np.float32)
    b = np.random.rand(8, 3).astype(np.float32)
    y = exe("forward", a, b)
    assert isinstance(y, np.ndarray)
    np.testing.assert_allclose(y, np.maximum(a @ b, 0), rtol=1e-5, atol=1e-5)


def test_manifest(exe, host_lib):
    assert exe.device_kind == "host"
    assert exe.device == torch.device("cpu")
    assert sorted(exe.functions) == ["forward", "pair"]
    assert exe.manifest["device_kind"] == "host"
    f = exe.function("forward")
    assert f["inputs"] == [{"type": "f32", "shape": [4, 8]}, {"type": "f32", "shape": [8, 3]}]
    assert f["outputs"] == [{"type": "f32", "shape": [4, 3]}]
    p = exe.function("pair")
    assert [o["type"] for o in p["outputs"]] == ["i32", "i32"]
    assert "forward" in repr(exe)


@pytest.mark.parametrize("case,args,match", [
    ("dtype", lambda: (torch.randn(4, 8).double(), torch.randn(8, 3)),
     r"'forward' input 0: expected f32 \[4, 8\], got torch.float64"),
    ("shape", lambda: (torch.randn(4, 8), torch.randn(3, 8)),
     r"'forward' input 1: expected shape \[8, 3\], got \[3, 8\]"),
    ("contiguity", lambda: (torch.randn(8, 4).t(), torch.randn(8, 3)),
     r"'forward' input 0: expected a contiguous"),
    ("device", lambda: (torch.randn(4, 8, device="meta"), torch.randn(8, 3)),
     r"'forward' input 0: this host artifact takes CPU tensors, got one on meta"),
    ("count", lambda: (torch.randn(4, 8),), r"'forward' takes 2 inputs, 1 given"),
    ("type", lambda: ([0.0] * 32, torch.randn(8, 3)), r"expected a tensor"),
])
def test_argument_errors(exe, case, args, match):
    with pytest.raises(runtime.ArgumentError, match=match):
        exe("forward", *args())


def test_wrong_output(exe):
    a, b = torch.randn(4, 8), torch.randn(8, 3)
    with pytest.raises(runtime.ArgumentError, match=r"'forward' output 0: expected shape"):
        exe("forward", a, b, out=torch.empty(3, 4))
    with pytest.raises(runtime.ArgumentError, match="has 1 outputs, 2 given"):
        exe.call("forward", [a, b], [torch.empty(4, 3), torch.empty(4, 3)])


def test_missing_function(exe):
    with pytest.raises(runtime.StrataRuntimeError, match=r"no function 'backward' \(it has: "):
        exe("backward", torch.randn(4, 8))
    assert issubclass(runtime.StrataRuntimeError, RuntimeError)
    assert runtime.RuntimeError is runtime.StrataRuntimeError


def test_damaged_artifacts(host_lib, tmp_path):
    with pytest.raises(FileNotFoundError, match="no artifact"):
        runtime.Executable(tmp_path / "missing.so")
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"this is not an artifact\n" * 10)
    with pytest.raises(runtime.StrataRuntimeError, match="garbage.bin"):
        runtime.Executable(garbage)
    truncated = tmp_path / "truncated.so"
    truncated.write_bytes(Path(host_lib).read_bytes()[:600])
    with pytest.raises(runtime.StrataRuntimeError, match="truncated.so") as info:
        runtime.Executable(truncated)
    assert not isinstance(info.value, runtime.NoDeviceError)
    empty = tmp_path / "empty.so"
    empty.write_bytes(b"")
    with pytest.raises(runtime.StrataRuntimeError, match="empty.so"):
        runtime.Executable(empty)


def test_release(host_lib):
    exe = runtime.Executable(host_lib)
    exe.release()
    with pytest.raises(runtime.StrataRuntimeError, match="released"):
        exe("forward", torch.randn(4, 8), torch.randn(8, 3))
    with runtime.Executable(host_lib) as e:
        assert e.functions


def test_library_lookup(monkeypatch, tmp_path):
    assert runtime.library_path().name.startswith("libStrataRuntime")
    monkeypatch.setenv("STRATA_RUNTIME_LIB", str(tmp_path / "nowhere.so"))
    with pytest.raises(runtime.LibraryNotFoundError,
                       match=r"nowhere.so \(\$STRATA_RUNTIME_LIB\)"):
        runtime.library_path()


def test_loads_without_torch(host_lib):
    """Loading and reading the manifest import neither torch nor NumPy."""
    code = ("import sys; sys.modules['torch'] = None; sys.modules['numpy'] = None\n"
            "import strata.runtime as r\n"
            f"e = r.Executable({str(host_lib)!r})\n"
            "print(e.device_kind, sorted(e.functions), e.device)\n")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["host", "['forward',", "'pair']", "cpu"]


# --- NVIDIA bundles ---------------------------------------------------------


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    try:
        return _compile(tmp_path_factory.mktemp("nvidia"), "nvidia-h200", ".json")
    except tools.StrataCompileError as e:
        if "ptxas" in str(e):
            pytest.skip(f"no CUDA toolkit to assemble the bundle: {e}")
        raise


@pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is present (test_cuda_bundle runs)")
def test_bundle_without_gpu_raises_no_device(bundle):
    with pytest.raises(runtime.NoDeviceError) as info:
        runtime.Executable(bundle)
    print(info.value)
    assert str(bundle) in str(info.value)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_cuda_bundle(bundle):
    exe = runtime.Executable(bundle)
    assert exe.device_kind == "cuda" and exe.device == torch.device("cuda", exe.ordinal)
    a = torch.randn(4, 8, device="cuda")
    b = torch.randn(8, 3, device="cuda")
    assert_close(exe("forward", a, b), reference(a, b), "runtime_cuda_forward")
    x = torch.arange(6, dtype=torch.int32, device="cuda")
    s, p = exe("pair", x, x)
    assert torch.equal(s, x + x) and torch.equal(p, x * x)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        y = exe("forward", a, b)
    stream.synchronize()
    assert_close(y, reference(a, b), "runtime_cuda_stream")
    with pytest.raises(runtime.ArgumentError, match="runs on cuda"):
        exe("forward", a.cpu(), b)
