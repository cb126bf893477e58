#!/usr/bin/env bash
# Runs the front ends' tests (PyTorch and JAX): creates <build>/python-venv
# if it is missing (torch, torchvision, transformers, jax, flax, numpy and
# pytest from PyPI, and this package in editable mode, which also registers
# the "strata" Dynamo backend), then runs pytest on python/tests with the
# Strata tools of <build>/bin.
# Usage: run.sh [BUILD_DIR] [pytest arguments...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
shift || true
venv="$build/python-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import torch, torchvision, transformers, jax, flax, pytest, strata" 2>/dev/null; then
  echo "run.sh: setting up $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip
  # From PyPI (pip's PIP_INDEX_URL/PIP_EXTRA_INDEX_URL may point elsewhere,
  # e.g. at PyTorch's smaller CPU-only wheels); jax's wheels there are the
  # CPU ones.
  "$venv/bin/pip" install --quiet torch torchvision transformers jax flax numpy pytest
  "$venv/bin/pip" install --quiet -e "$root/python" >"$venv/strata-install.log" 2>&1 \
    || { cat "$venv/strata-install.log"; exit 1; }
fi
export STRATA_BIN="$build/bin"
cd "$here"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" "$here"
