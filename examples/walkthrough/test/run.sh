#!/usr/bin/env bash
# Builds the walkthrough NPU project both ways and checks everything it
# claims (ctest walkthrough-npu):
#   run.sh STRATA_SOURCE STRATA_BUILD WORK_DIR
# 1. installed: install the built Strata, build the plugin against it
#    (find_package), run every program on the simulator with --check, the
#    large description, the bad inputs, the size-direction test, the line
#    count and the docs' commands (docs/walkthrough.md).
# 2. subdir: build Strata's tools from source with the plugin registered
#    statically (add_subdirectory) and check the matmul with them.
set -euo pipefail
src=$1 build=$2 work=$3
here=$(cd "$(dirname "$0")/.." && pwd)
gen=(-G Ninja -DCMAKE_BUILD_TYPE=Release
     -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
command -v ccache >/dev/null && gen+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
filecheck=$(command -v FileCheck || echo /usr/lib/llvm-22/bin/FileCheck)

echo "== the plugin: at most 500 lines of C++ code, no npu in the core"
# Lines of code as cloc counts them: neither blank nor only a comment.
lines=$(cat "$here"/lib/*.cpp "$here"/include/Npu/*.h |
        grep -v '^[[:space:]]*$' | grep -cv '^[[:space:]]*//')
echo "plugin: $lines lines of C++ code (lib/*.cpp, include/Npu/*.h)"
[ "$lines" -le 500 ] || fail "the plugin has $lines lines of code, more than 500"
# (every "npu" in core/, case-insensitive, that is not part of "input")
if grep -rniE '(^|[^i])npu' "$src/core"; then fail "the core names the npu"; fi

echo "== installed: find_package(Strata)"
cmake --install "$build" --prefix "$work/install" >/dev/null
cmake -S "$here" -B "$work/installed" "${gen[@]}" \
  -DCMAKE_PREFIX_PATH="$work/install" >/dev/null
cmake --build "$work/installed" >/dev/null
plugin="$work/installed/libStrataPlugin_npu.so"
bin="$work/install/bin"
run() { "$bin/strata-run" --load-plugin="$plugin" "$@"; }
compile() { "$bin/strata-compile" --load-plugin="$plugin" "$@"; }

for program in "$here"/programs/*.mlir; do
  out=$(run --target="$here/npu.json" "$program" --check) || {
    echo "$out"; fail "$(basename "$program") on npu.json"; }
  echo "$out" | grep -E "cycles|check"
done
out=$(run --target="$here/npu-large.json" "$here/programs/matmul.mlir" --check)
echo "$out" | grep -E "cycles|check"

echo "== npu-lower (test/lower.mlir)"
(cd "$here" && compile --target=npu.json test/lower.mlir --emit=lowered -o - |
  "$filecheck" test/lower.mlir) || fail "test/lower.mlir"

echo "== bad input"
expect_error() { # expect_error PATTERN COMMAND...
  local pattern=$1; shift
  if out=$("$@" 2>&1); then fail "expected an error from: $*"; fi
  echo "$out" | grep -q -- "$pattern" || {
    echo "$out"; fail "expected \"$pattern\" in the error"; }
  echo "$out" | head -3
}
expect_error "intrinsic shape does not divide its tile constraints" \
  compile --target="$here/test/bad/array.json" "$here/programs/matmul.mlir" \
  -o "$work/x"
expect_error "more than the 1024 bytes of 'spad'" \
  compile --target="$here/test/bad/spad.json" "$here/programs/matmul.mlir" \
  -o "$work/x"
expect_error "unsupported.mlir:9:10: error: 'math.sin' op cannot run on the npu" \
  compile --target="$here/npu.json" "$here/test/bad/unsupported.mlir" \
  -o "$work/x"

# (the walkthrough's commands include test/directions.py: smaller
# scratchpads and bigger arrays move tiles and cycles the expected way)
echo "== docs/walkthrough.md: every command and its output"
python3 "$here/test/docs.py" --check "$src/docs/walkthrough.md" \
  --bin "$bin" --plugin "$plugin" --root "$src"

echo "== subdir: add_subdirectory(strata)"
cmake -S "$here" -B "$work/subdir" "${gen[@]}" -DSTRATA_SOURCE="$src" \
  >/dev/null
cmake --build "$work/subdir" --target strata-run >/dev/null
"$work/subdir/bin/strata-run" --target="$here/npu.json" \
  "$here/programs/matmul_ragged.mlir" --check | grep -E "cycles|check"
echo "walkthrough: PASS"
