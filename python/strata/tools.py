"""Finds the Strata command-line tools and runs strata-compile.

Lookup order: the directory in $STRATA_BIN, then the build tree this
package sits in (<repo>/build/bin), then $PATH.
"""

import os
import shutil
import subprocess
from pathlib import Path

_REPO = Path(__file__).resolve().parents[2]


class ToolNotFoundError(FileNotFoundError):
    """The Strata tools could not be located."""


class StrataCompileError(RuntimeError):
    """strata-compile rejected a program; the message has its diagnostics
    and the path of the MLIR file, kept for inspection."""


def tool_dir():
    """The directory holding strata-compile."""
    env = os.environ.get("STRATA_BIN")
    if env:
        if (Path(env) / "strata-compile").is_file():
            return Path(env)
        raise ToolNotFoundError(f"STRATA_BIN={env} has no strata-compile")
    build = _REPO / "build" / "bin"
    if (build / "strata-compile").is_file():
        return build
    found = shutil.which("strata-compile")
    if found:
        return Path(found).resolve().parent
    raise ToolNotFoundError(
        "cannot find strata-compile: set STRATA_BIN to the directory of the Strata "
        f"tools, build Strata in {_REPO / 'build'}, or put the tools on PATH")


def tool(name):
    return str(tool_dir() / name)


def compile_mlir(mlir_path, out_path, target="host", emit="lib", extra_args=()):
    """Runs `strata-compile IN --target=T --emit=E -o OUT`; raises
    StrataCompileError with the tool's diagnostics when it fails."""
    cmd = [tool("strata-compile"), str(mlir_path), f"--target={target}", f"--emit={emit}",
           "-o", str(out_path), *extra_args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise StrataCompileError(
            f"strata-compile failed (exit {proc.returncode}) on {mlir_path}:\n"
            f"{proc.stderr.strip() or proc.stdout.strip()}\ncommand: {' '.join(cmd)}")
    return out_path
