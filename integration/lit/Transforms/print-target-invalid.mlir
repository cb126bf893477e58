// RUN: not strata-opt %s --split-input-file --strata-print-target 2>&1 | FileCheck %s

// CHECK: print-target-invalid.mlir:[[# @LINE + 1]]:1: error: module carries no 'strata.hw' description
module {
}

// -----

// Every error of the description is listed, with its path.
// CHECK: print-target-invalid.mlir:[[# @LINE + 5]]:1: error: invalid 'strata.hw' description:
// CHECK-NEXT: <strata.hw>: error: at /arch: missing required field "arch": expected a string
// CHECK-NEXT: <strata.hw>: error: at /clock_hz: missing required field "clock_hz": expected a number > 0
// CHECK-NEXT: <strata.hw>: error: at /compute: missing required field "compute"
// CHECK-NEXT: <strata.hw>: error: at /memory: missing required field "memory"
module attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = "cpu"}>} {
}

// -----

// CHECK: error: invalid 'strata.hw' description:
// CHECK-NEXT: <strata.hw>: error: at /compute/1/count: expected a positive integer, got 0
// CHECK-NEXT: <strata.hw>: error: at /memory/0/owner: unknown compute level "cluster"
module attributes {strata.hw = #strata.hw<"toy", {
    name = "toy", plugin = "tile", arch = "toy1", clock_hz = 1.0e9 : f64,
    compute = [{name = "chip", count = 1}, {name = "core", count = 0}],
    memory = [{name = "dram", kind = "dram", capacity_bytes = 1073741824,
               owner = "cluster", bandwidth_bytes_per_s = 6.4e10 : f64,
               latency_cycles = 300, alignment_bytes = 64}]}>} {
}
