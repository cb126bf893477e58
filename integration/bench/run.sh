#!/usr/bin/env bash
# Runs the Strata CPU benchmark: installs what it needs, then bench.py with
# the repository's build/bin tools. All arguments go to bench.py, e.g.
#   integration/bench/run.sh --quick
#   integration/bench/run.sh --only gemm_1024,softmax --threads 2
#   integration/bench/run.sh --quick --peers iree,inductor
# Environment: STRATA_BIN (default <repo>/build/bin),
# STRATA_BENCH_VENV (default /tmp/strata-bench-venv).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="${STRATA_BIN:-$repo/build/bin}"
venv="${STRATA_BENCH_VENV:-/tmp/strata-bench-venv}"

# Which peers --peers asks for.
peers=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
  --peers) peers="${args[i + 1]:-}" ;;
  --peers=*) peers="${args[i]#--peers=}" ;;
  esac
done
want_iree=0 want_torch=0
[[ $peers == *iree* || $peers == all ]] && want_iree=1
[[ $peers == *inductor* || $peers == all ]] && want_torch=1

# Anchors: OpenBLAS and oneDNN from Debian, clang++-22 for the harness;
# g++ for Inductor's generated C++ (its default compiler).
missing=()
pkgs=(libopenblas-dev libdnnl-dev)
((want_torch)) && pkgs+=(g++)
for pkg in "${pkgs[@]}"; do
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

# Peers: one virtual environment, with only what --peers asks for: IREE's
# compiler and runtime, and/or PyTorch for Inductor (plain `pip install
# torch` from PyPI, the only registry these machines reach).
if ((want_iree || want_torch)) && [[ ! -x $venv/bin/python ]]; then
  echo "run.sh: creating $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
fi
if ((want_iree)) && [[ ! -x $venv/bin/iree-compile ]]; then
  echo "run.sh: installing iree-base-compiler, iree-base-runtime in $venv" >&2
  "$venv/bin/pip" install -q iree-base-compiler iree-base-runtime numpy
fi
if ((want_torch)) && ! "$venv/bin/python" -c "import torch" 2>/dev/null; then
  echo "run.sh: installing torch in $venv (a few minutes)" >&2
  "$venv/bin/pip" install -q torch numpy
fi

for tool in strata-compile strata-hw; do
  [[ -x $bin/$tool ]] ||
    { echo "run.sh: $bin/$tool not found; build Strata first" >&2; exit 1; }
done
exec python3 "$here/bench.py" --bin "$bin" --venv "$venv" "$@"
