// RUN: strata-opt %s --split-input-file --strata-attach-target=target=host-x86-avx2 | FileCheck %s --check-prefix=AVX2
// RUN: strata-opt %s --split-input-file --strata-attach-target=target=nvidia-h200 | FileCheck %s --check-prefix=H200
// RUN: strata-opt %s --split-input-file --strata-attach-target=target=tile-wormhole-n150 | FileCheck %s --check-prefix=N150
// RUN: strata-opt %s --split-input-file --strata-attach-target=target=%inputs/toy-npu.json | FileCheck %s --check-prefix=FILE
// RUN: strata-opt %s --split-input-file --strata-attach-target=target=host | FileCheck %s --check-prefix=HOST
// RUN: strata-opt %s --split-input-file --strata-attach-target=target=host-x86-avx2 | strata-opt --split-input-file | FileCheck %s --check-prefix=AVX2

// The whole description rides on the module, under the chip's name.
// AVX2: module attributes {strata.hw = #strata.hw<"host-x86-avx2", {arch = "x86-64-v3", clock_hz = 3.000000e+09 : f64, compute = [{count = 1 : i64, name = "chip"}, {count = 8 : i64, name = "core"}, {count = 8 : i64, name = "lane"}]
// AVX2-SAME: {alignment_bytes = 64 : i64, bandwidth_bytes_per_s = 1.920000e+11 : f64, capacity_bytes = 32768 : i64, kind = "cache", latency_cycles = 4 : i64, name = "l1", owner = "core"}]
// AVX2-SAME: name = "host-x86-avx2", plugin = "cpu"
// AVX2-SAME: target_options = {cache_line_bytes = 64 : i64, cpu = "haswell", features = ["avx2", "fma", "f16c", "bmi2"]}
// AVX2-SAME: vector = {element_types = ["f64", "f32", "i32", "i16", "i8"], fma_latency_cycles = 5 : i64, fma_pipes = 2 : i64, level = "core", registers = 16 : i64, width_bits = 256 : i64}}>}
// AVX2-LABEL: func.func @kernel

// A chip whose plugin is not built in can still be injected.
// H200: module attributes {strata.hw = #strata.hw<"nvidia-h200", {arch = "sm_90a", clock_hz = 1.830000e+09 : f64
// H200-SAME: {count = 132 : i64, name = "sm"}, {count = 4 : i64, name = "warpgroup"}
// H200-SAME: name = "wgmma_m64n256k16_bf16"
// H200-SAME: name = "nvidia-h200", peaks_flops = {bf16 = 9.894000e+14 : f64
// H200-SAME: plugin = "nvidia"
// H200-LABEL: func.func @kernel

// N150: module attributes {strata.hw = #strata.hw<"tile-wormhole-n150", {arch = "wormhole_b0"
// N150-SAME: {count = 8 : i64, name = "row"}, {count = 8 : i64, name = "core"}
// N150-SAME: name = "tile-wormhole-n150", plugin = "tile"
// N150-LABEL: func.func @kernel

// FILE: module attributes {strata.hw = #strata.hw<"toy-npu", {arch = "toy1", clock_hz = 1.000000e+09 : f64, compute = [{count = 1 : i64, name = "chip"}, {count = 2 : i64, name = "cluster"}, {count = 4 : i64, name = "core"}], matrix = [{a = "f16", acc = "f32", b = "f16", cycles_per_instruction = 8 : i64, k = 16 : i64, level = "core", m = 16 : i64, n = 16 : i64, name = "mm_16x16x16_f16"}], memory = [{alignment_bytes = 64 : i64, bandwidth_bytes_per_s = 6.400000e+10 : f64, capacity_bytes = 1073741824 : i64, kind = "dram", latency_cycles = 300 : i64, name = "dram", owner = "chip"}, {alignment_bytes = 32 : i64, bandwidth_bytes_per_s = 3.200000e+10 : f64, capacity_bytes = 262144 : i64, kind = "scratchpad", latency_cycles = 4 : i64, name = "sram", owner = "core"}], name = "toy-npu", plugin = "tile", summary = "Toy NPU: 2x4 cores at 1 GHz", vector = {element_types = ["f32", "f16"], fma_latency_cycles = 3 : i64, fma_pipes = 1 : i64, level = "core", registers = 16 : i64, width_bits = 512 : i64}}>}
// FILE-LABEL: func.func @kernel

// The running machine, detected.
// HOST: module attributes {strata.hw = #strata.hw<"host", {arch = "{{[^"]+}}"
// HOST-SAME: name = "chip"
// HOST-SAME: name = "dram"
// HOST-SAME: name = "host", plugin = "cpu"
// HOST-LABEL: func.func @kernel

func.func @kernel(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// An attached description replaces the one already there.
// AVX2: module attributes {strata.hw = #strata.hw<"host-x86-avx2",
// AVX2-NOT: "old"
// AVX2-LABEL: func.func @replaced
// H200: module attributes {strata.hw = #strata.hw<"nvidia-h200",
// H200-NOT: "old"
// N150: module attributes {strata.hw = #strata.hw<"tile-wormhole-n150",
// FILE: module attributes {strata.hw = #strata.hw<"toy-npu",
// HOST: module attributes {strata.hw = #strata.hw<"host",
module attributes {strata.hw = #strata.hw<"old", {name = "old", plugin = "cpu"}>} {
  func.func @replaced() {
    return
  }
}
