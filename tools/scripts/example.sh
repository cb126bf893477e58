#!/usr/bin/env bash
# The main job: set up, build, then compile examples/models/mlp.mlir (linear
# layer + bias + GELU) for the host CPU, run it on random inputs, check it
# against the reference lowering and time it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/tools/scripts/bootstrap.sh"
exec "$root/build/bin/strata-run" "$root/examples/models/mlp.mlir" \
  --target=host --check --bench "$@"
