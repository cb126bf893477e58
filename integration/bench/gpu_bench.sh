#!/usr/bin/env bash
# Strata on an NVIDIA GPU next to PyTorch (cuBLAS through torch.matmul, and
# torch.compile), same shapes and types, one table of ratios.
#
#   integration/bench/gpu_bench.sh [--build DIR] [--target NAME] [--quick]
#                                  [--reps N] [--dry-run]
#
# --build DIR   a Strata build to use (default: build/, configured and built
#               with CMake and Ninja when it has no bin/strata-run)
# --target      the description to compile for (default nvidia-h200)
# --quick       one GEMM, one small MLP, one batched GEMM, one attention and
#               one causal attention per type, one tf32 GEMM, one softmax and
#               one layernorm
# --dry-run     print the commands instead of running them (no GPU needed)
#
# Every case is first checked on a smaller problem of the same kind
# (strata-run --check compares with the host reference, which is too slow
# at full size), then timed at full size (strata-run --bench). A case that
# Strata cannot compile or run shows '-' in its column. Needs python3 with
# torch for the PyTorch columns; no network.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build"
target=nvidia-h200
quick=""
reps=20
dry=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --target) target="$2"; shift 2 ;;
    --quick) quick=--quick; shift ;;
    --reps) reps="$2"; shift 2 ;;
    --dry-run) dry=1; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "gpu_bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

# Commands go to fd 3 (the original stderr) in a dry run, past redirections.
exec 3>&2
run() {
  if [ "$dry" = 1 ]; then
    echo "+ $*" >&3
  else
    "$@"
  fi
}

if [ ! -x "$build/bin/strata-run" ]; then
  run cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
  run ninja -C "$build" strata-run strata-compile
fi

work="$(mktemp -d /tmp/strata-gpu-bench.XXXXXX)"
trap 'rm -rf "$work"' EXIT
results="$work/results.jsonl"
: > "$results"

# The check case of a case: the same kind and type, small (gpu_bench.py).
check_case() {
  python3 "$here/gpu_bench.py" check "$1"
}

for case in $(python3 "$here/gpu_bench.py" cases $quick); do
  echo "== $case"
  python3 "$here/gpu_bench.py" mlir "$case" > "$work/$case.mlir"
  small="$(check_case "$case")"
  python3 "$here/gpu_bench.py" mlir "$small" > "$work/$small.mlir"
  # Options of the case's kind (tf32 GEMMs: --allow-tf32), for both runs.
  flags="$(python3 "$here/gpu_bench.py" flags "$case")"
  status=0
  run "$build/bin/strata-run" "$work/$small.mlir" --target="$target" --check \
    $flags > "$work/$case.check" 2>&1 || status=$?
  [ "$dry" = 1 ] || cat "$work/$case.check"
  if [ "$status" = 77 ]; then
    echo "gpu_bench.sh: no GPU or driver here (strata-run exit 77)" >&2
    exit 77
  fi
  strata_ms=""
  if [ "$status" = 0 ]; then
    if run "$build/bin/strata-run" "$work/$case.mlir" --target="$target" \
        --bench --reps="$reps" $flags > "$work/$case.bench" 2>&1; then
      [ "$dry" = 1 ] || strata_ms="$(python3 "$here/gpu_bench.py" parse "$work/$case.bench")"
    fi
    [ "$dry" = 1 ] || cat "$work/$case.bench"
  fi
  if [ -n "$strata_ms" ]; then
    echo "{\"case\": \"$case\", \"strata_ms\": $strata_ms}" >> "$results"
  else
    echo "{\"case\": \"$case\"}" >> "$results"
  fi
  if [ "$dry" = 1 ]; then
    echo "+ python3 $here/gpu_bench.py torch $case --reps $reps" >&3
  else
    python3 "$here/gpu_bench.py" torch "$case" --reps "$reps" >> "$results" ||
      echo "gpu_bench.sh: PyTorch failed on $case" >&2
  fi
done

if [ "$dry" = 0 ]; then
  echo
  python3 "$here/gpu_bench.py" table "$results"
fi
