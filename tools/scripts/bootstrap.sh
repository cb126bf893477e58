#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine and builds Strata into build/:
# installs the Debian packages that are missing (LLVM/MLIR 22 and the other
# libraries), configures with CMake + Ninja + ccache and builds.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
          lld-22 cmake ninja-build ccache nlohmann-json3-dev libfmt-dev
          libspdlog-dev libgtest-dev libclang-rt-22-dev libomp-22-dev python3
          python3-venv python3-pip binutils)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi
build="$root/build"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
fi
cmake --build "$build"
