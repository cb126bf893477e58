// RUN: strata-opt %s --split-input-file --strata-print-target -o /dev/null | FileCheck %s
// RUN: strata-opt %s --split-input-file --mlir-print-op-generic -o %t.mlir
// RUN: strata-opt %t.mlir --split-input-file --strata-print-target -o /dev/null | FileCheck %s

// A description written into the IR by hand is read back and its model
// derived: 2 clusters x 4 cores at 1 GHz; 512-bit vectors with one FMA pipe
// give 32 f32 FLOP/cycle per core; a 16x16x16 f16 matrix op every 8 cycles
// gives 1024 FLOP/cycle per core.
// CHECK-LABEL: toy-npu: Toy NPU
// CHECK-NEXT: plugin tile, arch toy1, clock 1 GHz
// CHECK-NEXT: compute  chip 1 > cluster 2 > core 4
// CHECK-NEXT: vector   512-bit per core, 1 FMA pipe, latency 3, 16 registers: f32 f16
// CHECK-NEXT: peaks    type     chip              source
// CHECK-NEXT: f32      256 GFLOP/s       vector @core
// CHECK-NEXT: per cluster 128 GFLOP/s, per core 32 GFLOP/s
// CHECK-NEXT: f16      8.192 TFLOP/s     mm_16x16x16_f16 @core
// CHECK-NEXT: per cluster 4.096 TFLOP/s, per core 1.024 TFLOP/s
// CHECK-NEXT: memory   name       kind       capacity               bandwidth                   latency    f32 F/B    f16 F/B
// CHECK-NEXT: dram       dram       1 GiB /chip            64 GB/s /chip                   300       4.00        128
// CHECK-NEXT: sram       scratchpad 256 KiB /core x8       32 GB/s /core (256 GB/s)          4       1.00       32.0
// CHECK-NEXT: matrix   (preference order)
// CHECK-NEXT: 1. mm_16x16x16_f16            16x16x16 f16*f16->f32 @core 8 cycles: 8.192 TFLOP/s
module attributes {strata.hw = #strata.hw<"toy-npu", {
    name = "toy-npu", plugin = "tile", arch = "toy1",
    summary = "Toy NPU: 2x4 cores at 1 GHz", clock_hz = 1.0e9 : f64,
    compute = [{name = "chip", count = 1}, {name = "cluster", count = 2},
               {name = "core", count = 4}],
    memory = [{name = "dram", kind = "dram", capacity_bytes = 1073741824,
               owner = "chip", bandwidth_bytes_per_s = 6.4e10 : f64,
               latency_cycles = 300, alignment_bytes = 64},
              {name = "sram", kind = "scratchpad", capacity_bytes = 262144,
               owner = "core", bandwidth_bytes_per_s = 3.2e10 : f64,
               latency_cycles = 4, alignment_bytes = 32}],
    vector = {width_bits = 512, element_types = ["f32", "f16"], level = "core",
              fma_pipes = 1, fma_latency_cycles = 3, registers = 16},
    matrix = [{name = "mm_16x16x16_f16", m = 16, n = 16, k = 16, a = "f16",
               b = "f16", acc = "f32", level = "core",
               cycles_per_instruction = 8}]}>} {
}

// -----

// The same chip at twice the clock with a second FMA pipe: every peak
// scales, the bandwidths do not.
// CHECK-LABEL: toy-npu-fast: Toy NPU
// CHECK-NEXT: plugin tile, arch toy1, clock 2 GHz
// CHECK: f32      1.024 TFLOP/s     vector @core
// CHECK-NEXT: per cluster 512 GFLOP/s, per core 128 GFLOP/s
// CHECK-NEXT: f16      16.38 TFLOP/s     mm_16x16x16_f16 @core
// CHECK: dram       dram       1 GiB /chip            64 GB/s /chip                   300       16.0        256
module attributes {strata.hw = #strata.hw<"toy-npu-fast", {
    name = "toy-npu-fast", plugin = "tile", arch = "toy1",
    summary = "Toy NPU: 2x4 cores at 2 GHz", clock_hz = 2.0e9 : f64,
    compute = [{name = "chip", count = 1}, {name = "cluster", count = 2},
               {name = "core", count = 4}],
    memory = [{name = "dram", kind = "dram", capacity_bytes = 1073741824,
               owner = "chip", bandwidth_bytes_per_s = 6.4e10 : f64,
               latency_cycles = 300, alignment_bytes = 64},
              {name = "sram", kind = "scratchpad", capacity_bytes = 262144,
               owner = "core", bandwidth_bytes_per_s = 3.2e10 : f64,
               latency_cycles = 4, alignment_bytes = 32}],
    vector = {width_bits = 512, element_types = ["f32", "f16"], level = "core",
              fma_pipes = 2, fma_latency_cycles = 3, registers = 16},
    matrix = [{name = "mm_16x16x16_f16", m = 16, n = 16, k = 16, a = "f16",
               b = "f16", acc = "f32", level = "core",
               cycles_per_instruction = 8}]}>} {
}
