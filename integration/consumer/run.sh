#!/usr/bin/env bash
# Builds the toy vendor project against an installed Strata and runs it:
#   run.sh STRATA_SOURCE STRATA_BUILD WORK_DIR
# find_package: install the built Strata, build the plugin as a loadable
# library, compile and check a program for the toy chip with the installed
# tools. (The add_subdirectory way is built by the walkthrough's test,
# examples/walkthrough/test/run.sh.)
set -euo pipefail
src=$1 build=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
gen=(-G Ninja -DCMAKE_BUILD_TYPE=Release
     -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
command -v ccache >/dev/null && gen+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
rm -rf "$work" && mkdir -p "$work"

echo "== find_package(Strata)"
cmake --install "$build" --prefix "$work/install" >/dev/null
cmake -S "$here/installed" -B "$work/installed" "${gen[@]}" \
  -DCMAKE_PREFIX_PATH="$work/install" >/dev/null
cmake --build "$work/installed" >/dev/null
plugin="$work/installed/libStrataPlugin_toy.so"
"$work/installed/consumer" "$here/toychip/toy.json" "$plugin"
"$work/install/bin/strata-run" --load-plugin="$plugin" \
  --target="$here/toychip/toy.json" "$src/examples/models/softmax.mlir" --check
"$work/install/bin/strata-compile" --load-plugin="$plugin" \
  --target="$here/toychip/toy.json" "$src/examples/models/matmul.mlir" \
  -o "$work/matmul.so"
nm -D "$work/matmul.so" | grep -q _mlir_ciface_matmul
echo "installed tools compiled matmul for the toy chip"

echo "consumer project: PASS"
