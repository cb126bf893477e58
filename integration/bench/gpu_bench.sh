#!/usr/bin/env bash
# Strata on an NVIDIA GPU next to PyTorch (cuBLAS through torch.matmul,
# scaled_dot_product_attention on its flash and cuDNN backends, and
# torch.compile), same shapes and types, one table of ratios.
#
# In two halves, for a GPU machine with only bash, python3, PyTorch and the
# CUDA driver (no LLVM, no MLIR, no Strata build, no network):
#
#   gpu_bench.sh --build-only DIR [--target T] [--quick] [--cases REGEX]
#                [--build B]
#       here, next to a Strata build: compiles every case into DIR
#       (strata-compile --emit=lib), prepares the check of its small case
#       (strata-run --check --save-io: the host reference's outputs), copies
#       strata-exec, libStrataRuntime.so and these two scripts into DIR
#   DIR/gpu_bench.sh --run DIR [--reps N] [--no-compile] [--no-torch]
#                [--cases REGEX] [--budget S]
#       there: checks each case (strata-exec --io), times it (strata-exec
#       --bench), times PyTorch, prints the table (also in DIR/results)
#
#   gpu_bench.sh [--build B] [--target T] [--quick] [--cases REGEX]
#                [--reps N] [--no-compile] [--no-torch]
#       both halves in one place (builds Strata into B first when needed)
#
# --build B     the Strata build to use (default: build/ of this checkout)
# --target T    the description to compile for (default nvidia-h200)
# --quick       about ten cases: one of each kind, four attention shapes
# --cases REGEX only the cases whose name matches REGEX (extended regex)
# --reps N      timed runs of each (default 20)
# --no-compile  no torch.compile column (its compiles take most of a --run)
# --no-torch    no PyTorch columns at all (Strata's checks and times only)
# --budget S    seconds a --run may take: torch.compile is skipped for the
#               cases left when they are spent (default 420)
# --dry-run     print the commands instead of running them (no GPU, no
#               build needed)
#
# A case Strata cannot compile or run shows '-' and the reason under the
# table. Exit status: 0, 2 when a check failed, 77 when there is no GPU or
# driver (strata-exec's 77), 1 on other errors.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build"
mode=all
dir=""
target=nvidia-h200
quick=""
regex=""
reps=20
nocompile=""
notorch=0
budget=420
dry=0

die() {
  echo "gpu_bench.sh: $*" >&2
  exit 1
}

need_value() {
  [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) need_value "$@"; mode=build; dir="$2"; shift 2 ;;
    --run) need_value "$@"; mode=run; dir="$2"; shift 2 ;;
    --build) need_value "$@"; build="$(cd "$2" && pwd)" || exit 1; shift 2 ;;
    --target) need_value "$@"; target="$2"; shift 2 ;;
    --quick) quick=--quick; shift ;;
    --cases) need_value "$@"; regex="$2"; shift 2 ;;
    --reps) need_value "$@"; reps="$2"; shift 2 ;;
    --no-compile) nocompile=--no-compile; shift ;;
    --no-torch) notorch=1; shift ;;
    --budget) need_value "$@"; budget="$2"; shift 2 ;;
    --dry-run) dry=1; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "--reps: expected a positive count, got '$reps'"
[[ "$budget" =~ ^[0-9]+$ ]] || die "--budget: expected seconds, got '$budget'"

# Commands go to fd 3 (the original stderr) in a dry run, past redirections.
exec 3>&2
run() {
  if [ "$dry" = 1 ]; then
    echo "+ $*" >&3
  else
    "$@"
  fi
}

# runlog LOG COMMAND...: runs COMMAND, its output to LOG.
runlog() {
  local log="$1"
  shift
  if [ "$dry" = 1 ]; then
    echo "+ $*" >&3
    return 0
  fi
  "$@" > "$log" 2>&1 < /dev/null
}

# The first line of FILE that says "error" (else its first line).
first_error() {
  { grep -i -m1 error "$1" || head -n1 "$1"; } 2>/dev/null | cut -c1-200
}

# --- Here: compile the cases into DIR ----------------------------------------

build_only() {
  local dir="$1" py="$here/gpu_bench.py"
  local compiler="$build/bin/strata-compile" runner="$build/bin/strata-run"
  local exe="$build/bin/strata-exec" lib="$build/lib/libStrataRuntime.so"
  if [ "$dry" = 0 ]; then
    local f
    for f in "$compiler" "$runner" "$exe" "$lib"; do
      [ -e "$f" ] || die "$f: not built (cmake --build $build --target strata-compile strata-run strata-exec)"
    done
  fi
  # CASE CHECK FLAGS a line (flags of the kind: --allow-tf32 for tf32
  # GEMMs); the MLIR of both written into DIR.
  local plan write=()
  if [ "$dry" = 0 ]; then
    mkdir -p "$dir" || die "cannot create $dir"
    rm -rf "$dir/cases" "$dir/checks" "$dir/results" "$dir/bin" "$dir/lib"
    mkdir -p "$dir/bin" "$dir/lib" || exit 1
    : > "$dir/cases.txt"
    write=(--write "$dir")
  fi
  plan="$(python3 "$py" plan $quick ${regex:+--match "$regex"} ${write[@]+"${write[@]}"})" || exit 1
  [ -n "$plan" ] || die "no case matches '$regex'"
  local case small flags cdir status count=0 compiled=0 checks=0 prepared=0
  declare -A seen
  while read -r case small flags; do
    count=$((count + 1))
    cdir="$dir/cases/$case"
    echo "== $case"
    # The full-size case, timed there.
    if runlog "$cdir/compile.log" "$compiler" "$cdir/case.mlir" \
        --target="$target" --emit=lib -o "$cdir/full.json" $flags; then
      compiled=$((compiled + 1))
      [ "$dry" = 1 ] || rm -f "$cdir/compile.log"
    else
      rm -f "$cdir/full.json"
      echo "   not compiled: $(first_error "$cdir/compile.log")"
    fi
    # Its check (shared by the cases of one kind and type): the artifact,
    # the reference's outputs (the inputs come back from io.json's seed).
    if [ -z "${seen[$small]:-}" ]; then
      seen[$small]=1
      checks=$((checks + 1))
      runlog "$dir/checks/$small.log" "$runner" "$dir/checks/$small.mlir" \
        --target="$target" --check --save-io="$dir/checks/$small" \
        --save-io-outputs-only $flags
      status=$?
      # 77: compiled and saved, no GPU here to run it (the usual case).
      if [ "$dry" = 1 ]; then
        :
      elif [ "$status" != 0 ] && [ "$status" != 77 ] && [ "$status" != 2 ]; then
        echo "   check $small not prepared: $(first_error "$dir/checks/$small.log")"
        rm -rf "$dir/checks/$small"
      elif [ ! -f "$dir/checks/$small/io.json" ]; then
        echo "   check $small not prepared: strata-run wrote no $dir/checks/$small/io.json"
        rm -rf "$dir/checks/$small"
      else
        prepared=$((prepared + 1))
        [ "$status" != 2 ] || echo "   check $small failed on this machine's GPU"
        rm -f "$dir/checks/$small.log"
      fi
    fi
    [ "$dry" = 1 ] || echo "$case $small" >> "$dir/cases.txt"
  done <<< "$plan"

  # What runs there: strata-exec finds the runtime through $ORIGIN/../lib.
  run cp "$exe" "$dir/bin/strata-exec"
  if [ "$dry" = 1 ]; then
    run cp -L "$lib"* "$dir/lib/"
  else
    cp -L "$lib"* "$dir/lib/" || exit 1
  fi
  run cp "$here/gpu_bench.sh" "$here/gpu_bench.py" "$here/gpu_bench_mlir.py" "$dir/"
  [ "$dry" = 1 ] && return 0
  echo "$target" > "$dir/target"
  if command -v objdump > /dev/null; then
    # The C and C++ libraries the GPU machine needs at least.
    local versions
    versions="$(objdump -T "$dir/bin/strata-exec" "$dir"/lib/*.so* 2>/dev/null |
      grep -oE '(GLIBC|GLIBCXX)_[0-9.]+' | sort -u -V |
      awk -F_ '{ v[$1] = $2 } END { printf "glibc %s, libstdc++ GLIBCXX_%s", v["GLIBC"], v["GLIBCXX"] }')"
    echo "strata-exec needs $versions or newer"
  fi
  if command -v ldd > /dev/null; then
    local missing
    missing="$(ldd "$dir/bin/strata-exec" 2>/dev/null | grep -E 'not found|libLLVM|libMLIR')"
    if [ -n "$missing" ]; then
      echo "gpu_bench.sh: warning: strata-exec needs libraries the GPU machine may lack:" >&2
      echo "$missing" >&2
    fi
  fi
  local bytes
  bytes="$(du -sb "$dir" | cut -f1)"
  echo
  echo "$count cases, $compiled compiled; $checks checks, $prepared prepared"
  python3 "$py" estimate $quick ${regex:+--match "$regex"} --reps "$reps"
  echo "$dir: $(awk -v b="$bytes" 'BEGIN { printf "%.1f MiB", b / 1048576 }')"
  [ "$bytes" -le $((40 * 1048576)) ] ||
    echo "gpu_bench.sh: warning: $dir is over 40 MiB" >&2
  [ "$mode" != build ] || echo "On the GPU machine: bash $dir/gpu_bench.sh --run $dir"
  [ "$compiled" -gt 0 ] || die "no case compiled"
}

# --- There: check, time, compare ---------------------------------------------

# The artifact strata-run --save-io wrote into an io folder.
find_artifact() {
  local f
  for f in "$1/artifact" "$1"/artifact.*; do
    if [ -f "$f" ]; then
      echo "$f"
      return
    fi
  done
  echo "$1/artifact"
}

# exec_run STEM COMMAND...: STEM.out, .err, .rc; stops at exit 77.
exec_run() {
  local stem="$1"
  shift
  if [ "$dry" = 1 ]; then
    echo "+ $*" >&3
    return 0
  fi
  local limit=()
  ! command -v timeout > /dev/null || limit=(timeout 300)
  ${limit[@]+"${limit[@]}"} "$@" > "$stem.out" 2> "$stem.err" < /dev/null
  local status=$?
  echo "$status" > "$stem.rc"
  case "$status" in
    77)
      cat "$stem.err" >&2
      echo "gpu_bench.sh: no GPU or driver here (strata-exec exit 77): run --run on the GPU machine" >&2
      exit 77 ;;
    124) echo "error: timed out after 300 s" >> "$stem.err" ;;
    126|127) cat "$stem.err" >&2; die "strata-exec could not start" ;;
  esac
}

run_dir() {
  local dir="$1" py="$1/gpu_bench.py" exe="$1/bin/strata-exec"
  [ -f "$py" ] || py="$here/gpu_bench.py"
  local start
  start="$(date +%s)"
  if [ "$dry" = 0 ]; then
    [ -f "$dir/cases.txt" ] || die "$dir/cases.txt: not found (prepare $dir with gpu_bench.sh --build-only $dir)"
    [ -x "$exe" ] || die "$exe: not found or not executable"
    command -v python3 > /dev/null || die "python3 not found"
  fi
  # The cases (CASE CHECK a line): DIR's, or in a dry run without them,
  # those --build-only would write.
  local lines
  if [ -f "$dir/cases.txt" ]; then
    lines="$(cat "$dir/cases.txt")"
  else
    lines="$(python3 "$py" plan $quick)"
  fi
  local results="$dir/results"
  local rows="$results/results.jsonl"
  if [ "$dry" = 0 ]; then
    rm -rf "$results"
    mkdir -p "$results" || die "cannot write $results"
    : > "$rows"
    : > "$results/cases.txt"
  fi
  local case small cstem bstem
  declare -A checked
  while read -r case small _; do
    [ -n "$case" ] || continue
    if [ -n "$regex" ] && ! [[ "$case" =~ $regex ]]; then
      continue
    fi
    echo "== $case"
    [ "$dry" = 1 ] || echo "$case" >> "$results/cases.txt"
    cstem="$results/check-$small"
    bstem="$results/$case"
    if [ -z "${checked[$small]:-}" ]; then
      checked[$small]=1
      if [ "$dry" = 1 ] || [ -f "$dir/checks/$small/io.json" ]; then
        exec_run "$cstem" "$exe" "$(find_artifact "$dir/checks/$small")" \
          --io="$dir/checks/$small" --json
      else
        echo unprepared > "$cstem.rc"
        if [ -f "$dir/checks/$small.log" ]; then
          first_error "$dir/checks/$small.log" > "$cstem.err"
        else
          echo "strata-run --save-io wrote no io.json" > "$cstem.err"
        fi
      fi
    fi
    if [ "$dry" = 1 ] || [ -f "$dir/cases/$case/full.json" ]; then
      exec_run "$bstem" "$exe" "$dir/cases/$case/full.json" --bench \
        --reps "$reps" --json
    else
      echo uncompiled > "$bstem.rc"
      cp "$dir/cases/$case/compile.log" "$bstem.err" 2>/dev/null
    fi
    if [ "$dry" = 0 ]; then
      echo -n "   "
      python3 "$py" row "$case" "$cstem" "$bstem" 2>&1 >> "$rows" ||
        die "cannot read strata-exec's results of $case"
    fi
  done <<< "$lines"

  # PyTorch in one process: its start-up once, the compiles in the budget.
  local deadline=$((start + budget))
  if [ "$notorch" = 1 ]; then
    :
  elif [ "$dry" = 1 ]; then
    echo "== PyTorch"
    echo "+ python3 $py baselines $results/cases.txt --reps $reps $nocompile --deadline $deadline" >&3
  else
    echo "== PyTorch"
    python3 "$py" baselines "$results/cases.txt" --reps "$reps" $nocompile \
      --deadline "$deadline" >> "$rows" ||
      echo "gpu_bench.sh: PyTorch failed (above): its columns show '-'" >&2
  fi
  if [ "$dry" = 1 ]; then
    echo "+ python3 $py table $rows" >&3
    return 0
  fi
  echo
  python3 "$py" table "$rows" | tee "$results/table.txt"
  echo "(--run took $(( $(date +%s) - start )) s; results in $results)"
  if grep -q '"check": "FAIL"' "$rows"; then
    return 2
  fi
  return 0
}

case "$mode" in
  build) build_only "$dir" ;;
  run) run_dir "$dir"; exit $? ;;
  all)
    [ ! -f "$here/cases.txt" ] ||
      die "$here holds compiled cases: bash $here/gpu_bench.sh --run $here"
    # Both halves here: build Strata when needed, then a temporary DIR.
    if [ ! -x "$build/bin/strata-run" ] || [ ! -x "$build/bin/strata-exec" ]; then
      [ -f "$build/CMakeCache.txt" ] ||
        run cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
      run cmake --build "$build" --target strata-compile strata-run strata-exec ||
        die "the build failed"
    fi
    work="$(mktemp -d /tmp/strata-gpu-bench.XXXXXX)" || exit 1
    trap 'rm -rf "$work"' EXIT
    build_only "$work" || exit $?
    run_dir "$work"
    exit $? ;;
esac
