"""Artifacts compiled beforehand, for machines that run Strata's artifacts
but have no strata-compile (a GPU machine with Python and torch only).

`gpu_check.py prepare DIR` compiles the programs of the GPU tests into
DIR/prebuilt, keyed by target and the MLIR function's signature line; with
$STRATA_PREBUILT=DIR/prebuilt the tests' strata-compile calls copy the
artifact from there instead (conftest.py).
"""

import hashlib
import shutil
from pathlib import Path


def signature_line(mlir):
    """The `func.func @name(args) -> results` line of an MLIR text."""
    for line in mlir.splitlines():
        if line.strip().startswith("func.func"):
            return line.strip().rstrip("{").strip()
    raise ValueError("no func.func in the MLIR text")


def key(target, mlir):
    return hashlib.sha256(f"{target}\n{signature_line(mlir)}".encode()).hexdigest()[:20]


def store(directory, target, mlir, artifact):
    """Copies `artifact` (compiled from `mlir` for `target`) into directory."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    k = key(target, mlir)
    shutil.copyfile(artifact, directory / f"{k}{Path(artifact).suffix}")
    (directory / f"{k}.mlir").write_text(mlir)
    return k


def compiler(directory):
    """A stand-in for strata.tools.compile_mlir that copies prebuilt
    artifacts from directory."""
    directory = Path(directory)

    def compile_mlir(mlir_path, out_path, target="host", emit="lib", extra_args=()):
        from strata.tools import ToolNotFoundError
        mlir = Path(mlir_path).read_text()
        k = key(target, mlir)
        src = directory / f"{k}{Path(out_path).suffix}"
        if not src.is_file():
            raise ToolNotFoundError(
                f"no artifact compiled beforehand for {mlir_path} ({target}, key {k}) in "
                f"{directory}; its signature: {signature_line(mlir)}")
        shutil.copyfile(src, out_path)
        return out_path

    return compile_mlir
