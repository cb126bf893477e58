"""Shared helpers of the front end's tests: the tolerance check and the
FileCheck runner. The Strata tools are found as the package finds them
($STRATA_BIN, the build tree, PATH); with $STRATA_PREBUILT set (a machine
without strata-compile), artifacts come from that directory instead
(prebuilt.py)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the package
sys.path.insert(0, str(Path(__file__).resolve().parent))  # models.py

TOLERANCE = 1e-4


def rel_err(got, want):
    """Relative L2 error ||got - want|| / ||want|| (inf on NaN/Inf or a
    shape/dtype mismatch)."""
    if got.shape != want.shape or got.dtype != want.dtype:
        return float("inf")
    got, want = got.double(), want.double()
    if not torch.isfinite(got).all():
        return float("inf")
    denom = want.norm().item()
    diff = (got - want).norm().item()
    return diff / denom if denom else diff


def assert_close(got, want, name, tol=TOLERANCE):
    """Asserts each tensor of got (a tensor or nested tuples) is within tol
    of want; prints the errors."""
    gl = got if isinstance(got, (tuple, list)) else [got]
    wl = want if isinstance(want, (tuple, list)) else [want]
    assert len(gl) == len(wl), f"{name}: {len(gl)} results, expected {len(wl)}"
    worst = 0.0
    for g, w in zip(gl, wl):
        if isinstance(w, torch.Tensor) and not w.is_floating_point():
            assert torch.equal(g, w), f"{name}: integer result differs"
            continue
        e = rel_err(g, w)
        worst = max(worst, e)
    print(f"{name}: relative L2 error {worst:.3e}")
    assert worst <= tol, f"{name}: relative L2 error {worst:.3e} > {tol:.0e}"
    return worst


def _filecheck_path():
    for cand in (os.environ.get("FILECHECK"), "/usr/lib/llvm-22/bin/FileCheck",
                 shutil.which("FileCheck-22"), shutil.which("FileCheck")):
        if cand and Path(cand).is_file():
            return cand
    return None


@pytest.fixture
def filecheck():
    """filecheck(text, checks): runs FileCheck with the CHECK lines in
    `checks` on `text`; skips the test when FileCheck is not installed."""
    exe = _filecheck_path()
    if exe is None:
        pytest.skip("FileCheck not found (LLVM 22 tools)")

    def run(text, checks, tmp=None):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".checks", delete=False) as f:
            f.write(checks)
        try:
            proc = subprocess.run([exe, f.name, "--dump-input=fail"], input=text,
                                  capture_output=True, text=True)
        finally:
            os.unlink(f.name)
        assert proc.returncode == 0, f"FileCheck failed:\n{proc.stderr}"
    return run


@pytest.fixture(autouse=True, scope="session")
def _disk_cache(tmp_path_factory):
    """The persistent cache of compiled libraries lives in a directory of
    this run: tests see cold compiles, never a library from an earlier
    build, and share what they compile within the run."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("STRATA_CACHE_DIR", str(tmp_path_factory.mktemp("strata-cache")))
        yield


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


@pytest.fixture(autouse=True, scope="session")
def _prebuilt():
    directory = os.environ.get("STRATA_PREBUILT")
    if not directory:
        yield
        return
    import prebuilt
    from strata import tools
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tools, "compile_mlir", prebuilt.compiler(directory))
        yield
