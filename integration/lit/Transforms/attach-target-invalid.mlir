// RUN: not strata-opt %s --strata-attach-target=target=bogus-chip 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not strata-opt %s --strata-attach-target 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not strata-opt %s --strata-attach-target=target=%t.missing.json 2>&1 | FileCheck %s --check-prefix=MISSING -DFILE=%t.missing.json
// RUN: not strata-opt %s --strata-attach-target=target=%inputs/invalid-fields.json 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not strata-opt %s --strata-attach-target=target=host-x86-avx2 2>&1 | FileCheck %s --check-prefix=LEVELS

// NONE: error: cannot attach target '':
// NONE-NEXT: no target given

// MISSING: error: cannot attach target '[[FILE]]':
// MISSING-NEXT: [[FILE]]: error: cannot read the file

// Every error of the file is listed.
// BAD: error: cannot attach target '{{.*}}invalid-fields.json':
// BAD-NEXT: invalid-fields.json: error: at /name:
// BAD-NEXT: invalid-fields.json: error: at /clock_hz:
// BAD-NEXT: invalid-fields.json: error: at /compute/1/count:
// BAD: invalid-fields.json: error: at /clock_mhz: unknown field

// A chip that lacks a level the program uses is refused once attached.
// LEVELS: error: 'func.func' op uses memory level 'shared', which chip 'host-x86-avx2' does not describe

// UNKNOWN: attach-target-invalid.mlir:[[# @LINE + 2]]:1: error: cannot attach target 'bogus-chip':
// UNKNOWN-NEXT: unknown target 'bogus-chip'; expected one of: host, host-x86-avx2, host-x86-avx512, nvidia-a100, nvidia-h100-sxm, nvidia-h200, tile-blackhole-p150, tile-wormhole-n150, or a path to a .json description
module {
  func.func @uses_shared(%a: memref<4xf32, #strata.mem<"shared">>) {
    return
  }
}
