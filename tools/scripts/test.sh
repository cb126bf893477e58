#!/usr/bin/env bash
# The whole test suite: set up, build, then run GoogleTest and the lit suite
# (FileCheck, execution and consumer-project tests) through ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/tools/scripts/bootstrap.sh"
cd "$root/build"
ctest --output-on-failure "$@"
