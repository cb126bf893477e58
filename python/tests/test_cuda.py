"""The PyTorch front end on the GPU: the target chosen from the inputs'
device, the checks of devices and targets, and (on a machine with a CUDA
GPU) st.compile and torch.compile on CUDA tensors against eager, in bf16.
Without a GPU, the programs are still compiled for nvidia-h200."""

import sys

import pytest
import torch

import models
import strata.torch as st
from conftest import assert_close
from strata import tools
from strata.torch.export import convert, export_program

stc = sys.modules["strata.torch.compile"]  # the module (st.compile is the function)
CUDA = torch.cuda.is_available()
needs_cuda = pytest.mark.skipif(not CUDA, reason="needs a CUDA GPU")
BF16_TOL = 2e-2


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


@pytest.mark.parametrize("cap,target", [((9, 0), "nvidia-h200"), ((8, 0), "nvidia-a100"),
                                        ((8, 6), "nvidia-a100")])
def test_default_target(monkeypatch, cap, target):
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: cap)
    assert stc.default_target(torch.device("cuda", 0)) == target
    assert stc.default_target("cpu") == "host"


def test_unknown_gpu_asks_for_a_target(monkeypatch):
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: (7, 5))
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda device=None: "Tesla T4")
    with pytest.raises(ValueError, match=r"Tesla T4 \(compute capability 7.5\).*pass target="):
        stc.default_target("cuda:0")


def test_target_device_types():
    assert stc.target_device_type("host") == "cpu"
    assert stc.target_device_type("host-x86-avx2") == "cpu"
    assert stc.target_device_type("nvidia-h200") == "cuda"
    with pytest.raises(ValueError, match="host and NVIDIA targets"):
        stc.target_device_type("tile-wormhole-n150")


def test_target_and_device_must_agree():
    lin = torch.nn.Linear(4, 3).eval()
    with pytest.raises(ValueError, match=r"target 'nvidia-h200' runs on CUDA tensors, the "
                                         r"inputs are on cpu"):
        st.compile(lin, (torch.randn(2, 4),), target="nvidia-h200")


def test_mixed_devices_are_an_error():
    f = st.StrataModule(lambda x, y: x + y)
    with pytest.raises(ValueError, match=r"several devices \(cpu, meta\)"):
        f(torch.randn(3), torch.randn(3, device="meta"))
    lin = torch.nn.Linear(4, 3).to("meta")
    with pytest.raises(ValueError, match=r"parameter 'weight' is on meta, the inputs on cpu"):
        st.compile(lin, (torch.randn(2, 4),))


def test_backend_options():
    from strata.torch.dynamo import strata_backend
    gm = torch.fx.symbolic_trace(torch.nn.Linear(4, 3))
    runner = strata_backend(gm, [], options={"target": "nvidia-h200"})
    assert runner.module.target == "nvidia-h200"
    assert strata_backend(gm, []).module.target is None
    with pytest.raises(ValueError, match="unknown option.*'bogus'"):
        strata_backend(gm, [], options={"bogus": 1})


# --- compiling the front end's programs for the GPU -------------------------

# The GPT-2 block exercises the slices of a packed q/k/v projection (copied
# by strata-strided-slices: kernels take whole buffers) and libdevice calls
# shared by several kernels.
CASES = {
    "mlp": (models.MLP, (16, 64)),
    "gpt2_block": (models.GPT2Block, (2, 32, 64)),
}


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["f32", "bf16"])
@pytest.mark.parametrize("name", ["mlp", "gpt2_block"])
def test_compiles_for_nvidia(name, dtype, tmp_path):
    """The exported MLP and GPT-2 block compile with --target=nvidia-h200
    --emit=lib (a bundle)."""
    if tools.compile_mlir.__module__ != "strata.tools":
        pytest.skip("artifacts compiled beforehand ($STRATA_PREBUILT)")
    cls, shape = CASES[name]
    model = cls().eval().to(dtype)
    program = convert(export_program(model, (torch.randn(*shape, dtype=dtype),)))
    src = tmp_path / f"{name}.mlir"
    src.write_text(program.mlir)
    try:
        tools.compile_mlir(src, tmp_path / f"{name}.json", target="nvidia-h200")
    except tools.StrataCompileError as e:
        if "ptxas" in str(e) and "not found" in str(e):
            pytest.skip(f"no CUDA toolkit: {e}")
        raise
    assert (tmp_path / f"{name}.json").stat().st_size > 0


# --- on a GPU ----------------------------------------------------------------


def _compare(got, want, name, tol):
    assert got.device == want.device and got.dtype == want.dtype
    return assert_close(got, want, name, tol)


@needs_cuda
def test_st_compile_mlp_bf16():
    model = models.MLP().eval().cuda().to(torch.bfloat16)
    x = torch.randn(16, 64, device="cuda", dtype=torch.bfloat16)
    fn = st.compile(model, (x,))
    entry = fn.program_for((x,), {})
    assert entry.executable.device_kind == "cuda"
    with torch.no_grad():
        want = model(x)
    got = fn(x)
    torch.cuda.synchronize()
    _compare(got, want, "cuda_mlp_bf16", BF16_TOL)
    # The parameters stay on the GPU; updating them in place is seen.
    assert all(p.device.type == "cuda" for p in model.parameters())
    with torch.no_grad():
        model.net[0].bias.add_(0.5)
        _compare(fn(x), model(x), "cuda_mlp_bf16_updated", BF16_TOL)


@needs_cuda
def test_st_compile_gpt2_block_bf16():
    model = models.GPT2Block().eval().cuda().to(torch.bfloat16)
    x = torch.randn(2, 32, 64, device="cuda", dtype=torch.bfloat16)
    fn = st.compile(model, (x,), target="nvidia-h200")
    with torch.no_grad():
        want = model(x)
    _compare(fn(x), want, "cuda_gpt2_block_bf16", BF16_TOL)


@needs_cuda
def test_torch_compile_mlp_bf16():
    model = models.MLP().eval().cuda().to(torch.bfloat16)
    x = torch.randn(16, 64, device="cuda", dtype=torch.bfloat16)
    compiled = torch.compile(model, backend="strata", options={"target": "nvidia-h200"})
    with torch.no_grad():
        want = model(x)
        got = compiled(x)
    _compare(got, want, "dynamo_cuda_mlp_bf16", BF16_TOL)
