"""The compiled callable keeps one library per input signature: a new
shape compiles once, then hits the cache; parameters are passed by the
callable, and updates to them in place are seen. Host libraries persist
on disk across processes."""

import pytest
import torch

import models
import strata.torch as st
from conftest import assert_close
from strata import compiler, runtime, tools


def test_shape_cache():
    model = models.MLP().eval()
    x4, x9 = torch.randn(4, 64), torch.randn(9, 64)
    fn = st.compile(model, (x4,))
    assert fn.cache_info() == (0, 1, 1)           # the example signature
    assert_close(fn(x4), model(x4), "cache_x4")
    assert fn.cache_info() == (1, 1, 1)
    assert_close(fn(x9), model(x9), "cache_x9")    # a new shape: compiles
    assert fn.cache_info() == (1, 2, 2)
    assert_close(fn(x9 * 2), model(x9 * 2), "cache_x9_again")
    assert_close(fn(x4), model(x4), "cache_x4_again")
    assert fn.cache_info() == (3, 2, 2)
    fn(x4.double().float())                       # same signature, new tensor
    fn(x4.to(torch.bfloat16).float())
    assert fn.cache_info().misses == 2


def test_dtype_is_part_of_the_signature():
    lin = torch.nn.Linear(8, 8).eval()
    fn = st.compile(lin, (torch.randn(2, 8),))
    with torch.no_grad():
        lin.to(torch.bfloat16)
    fn(torch.randn(2, 8).to(torch.bfloat16))
    assert fn.cache_info().misses == 2


def test_parameter_updates_in_place_are_seen():
    lin = torch.nn.Linear(8, 3).eval()
    x = torch.randn(5, 8)
    fn = st.compile(lin, (x,))
    with torch.no_grad():
        lin.weight.mul_(2.0)
        lin.bias.add_(1.0)
        assert_close(fn(x), lin(x), "updated_parameters")


def test_non_contiguous_inputs():
    lin = torch.nn.Linear(6, 3).eval()
    x = torch.randn(6, 4).t()
    assert not x.is_contiguous()
    assert_close(st.compile(lin, (x,))(x), lin(x), "non_contiguous")


def test_runs_through_strata_runtime():
    """The artifact is a host library run by strata.runtime, loaded once
    per MLIR text."""
    lin = torch.nn.Linear(8, 3).eval()
    x = torch.randn(2, 8)
    exe = st.compile(lin, (x,)).program_for((x,)).executable
    assert isinstance(exe, runtime.Executable)
    assert exe.device_kind == "host" and exe.functions == ["forward"]
    assert exe.function("forward")["outputs"] == [{"type": "f32", "shape": [2, 3]}]
    assert st.compile(lin, (x,)).program_for((x,)).executable is exe


def test_disk_cache_survives_the_process(tmp_path, monkeypatch):
    """A second process (here: the per-process tables emptied) loads the
    library from STRATA_CACHE_DIR without compiling; another target
    description, or the cache turned off, compiles again."""
    monkeypatch.setenv("STRATA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(compiler, "_artifacts", {})
    monkeypatch.setattr(compiler, "_executables", {})
    lin = torch.nn.Linear(8, 3).eval()
    x = torch.randn(2, 8)
    st.compile(lin, (x,))
    assert len(list(tmp_path.glob("*.so"))) == 1

    def forbidden(*args, **kwargs):
        raise AssertionError("compiled although the library is cached")

    monkeypatch.setattr(compiler, "_artifacts", {})
    monkeypatch.setattr(compiler, "_executables", {})
    monkeypatch.setattr(tools, "compile_mlir", forbidden)
    assert_close(st.compile(lin, (x,))(x), lin(x), "disk_cache_hit")

    monkeypatch.setattr(compiler, "_artifacts", {})
    monkeypatch.setattr(compiler, "_executables", {})
    monkeypatch.setattr(compiler, "_target_identity", lambda target: "another machine")
    with pytest.raises(AssertionError, match="compiled although"):
        st.compile(lin, (x,))
    monkeypatch.setenv("STRATA_CACHE_DIR", "off")
    monkeypatch.setattr(compiler, "_target_identity", lambda target: "")
    with pytest.raises(AssertionError, match="compiled although"):
        st.compile(lin, (x,))
