#!/usr/bin/env bash
# Runs the Strata CPU benchmark: installs what it needs, then bench.py with
# the repository's build/bin tools. All arguments go to bench.py, e.g.
#   integration/bench/run.sh --quick
#   integration/bench/run.sh --only gemm_1024,softmax --threads 2
#   integration/bench/run.sh --quick --peers iree
# Environment: STRATA_BIN (default <repo>/build/bin),
# STRATA_BENCH_VENV (default /tmp/strata-bench-venv).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="${STRATA_BIN:-$repo/build/bin}"
venv="${STRATA_BENCH_VENV:-/tmp/strata-bench-venv}"

# Anchors: OpenBLAS and oneDNN from Debian, clang++-22 for the harness.
missing=()
for pkg in libopenblas-dev libdnnl-dev; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "run.sh: installing ${missing[*]}" >&2
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
command -v clang++-22 >/dev/null ||
  { echo "run.sh: clang++-22 is needed to build the harness" >&2; exit 1; }

# Peers: a virtual environment with IREE, only when --peers asks for it.
peers=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
  --peers) peers="${args[i + 1]:-}" ;;
  --peers=*) peers="${args[i]#--peers=}" ;;
  esac
done
if [[ $peers == *iree* || $peers == all ]]; then
  if [[ ! -x $venv/bin/iree-compile ]]; then
    echo "run.sh: creating $venv with iree-base-compiler, iree-base-runtime" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --upgrade pip
    "$venv/bin/pip" install -q iree-base-compiler iree-base-runtime numpy
  fi
fi

for tool in strata-compile strata-hw; do
  [[ -x $bin/$tool ]] ||
    { echo "run.sh: $bin/$tool not found; build Strata first" >&2; exit 1; }
done
exec python3 "$here/bench.py" --bin "$bin" --venv "$venv" "$@"
