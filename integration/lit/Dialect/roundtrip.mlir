// RUN: strata-opt %s --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file | strata-opt --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file --mlir-print-op-generic | strata-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @grid_and_mem
// CHECK: memref<64x64xf32, #strata.mem<"l1">>
// CHECK: mapping = [#strata.grid<"core">, #strata.grid<"core", 1>]
func.func @grid_and_mem(%buf: memref<64x64xf32, #strata.mem<"l1">>) {
  scf.forall (%i, %j) in (8, 8) {
  } {mapping = [#strata.grid<"core">, #strata.grid<"core", 1>]}
  return
}

// -----

// The default dimension 0 is elided; other dimensions are printed.
// CHECK-LABEL: func.func @grid_dims
// CHECK: mapping = [#strata.grid<"core">, #strata.grid<"core", 2>, #strata.grid<"core", 1>]
func.func @grid_dims() {
  scf.forall (%i, %j, %k) in (2, 2, 2) {
  } {mapping = [#strata.grid<"core", 0>, #strata.grid<"core", 2>, #strata.grid<"core", 1>]}
  return
}

// -----

// Level names may use letters, digits, '_' and '-'.
// CHECK-LABEL: func.func @level_names
// CHECK-SAME: memref<16xf32, #strata.mem<"L1_sram-0">>
// CHECK-SAME: memref<?x8xi32, #strata.mem<"dram">>
// CHECK: mapping = [#strata.grid<"tensix-core_2">]
func.func @level_names(%a: memref<16xf32, #strata.mem<"L1_sram-0">>,
                       %b: memref<?x8xi32, #strata.mem<"dram">>) {
  scf.forall (%i) in (4) {
  } {mapping = [#strata.grid<"tensix-core_2">]}
  return
}

// -----

// Values and results in a memory level; copies between levels.
// CHECK-LABEL: func.func @copy_between_levels
// CHECK: %[[L1:.*]] = memref.alloc() : memref<32x32xf32, #strata.mem<"l1">>
// CHECK: memref.copy %{{.*}}, %[[L1]] : memref<32x32xf32, #strata.mem<"dram">> to memref<32x32xf32, #strata.mem<"l1">>
// CHECK: memref.dealloc %[[L1]] : memref<32x32xf32, #strata.mem<"l1">>
func.func @copy_between_levels(%src: memref<32x32xf32, #strata.mem<"dram">>) {
  %l1 = memref.alloc() : memref<32x32xf32, #strata.mem<"l1">>
  memref.copy %src, %l1 : memref<32x32xf32, #strata.mem<"dram">> to memref<32x32xf32, #strata.mem<"l1">>
  memref.dealloc %l1 : memref<32x32xf32, #strata.mem<"l1">>
  return
}

// -----

// A description rides on the module; the levels used exist in it.
// CHECK: module attributes {strata.hw = #strata.hw<"toy-chip", {
// CHECK-SAME: compute = [{count = 1 : i64, name = "chip"}, {count = 4 : i64, name = "core"}]
// CHECK-SAME: memory = [{name = "dram"}, {name = "l1"}]
// CHECK-SAME: name = "toy-chip"
// CHECK-SAME: plugin = "cpu"
// CHECK-LABEL: func.func @with_description
// CHECK-SAME: memref<8x8xf32, #strata.mem<"dram">>
// CHECK: memref.alloc() : memref<8x8xf32, #strata.mem<"l1">>
// CHECK: mapping = [#strata.grid<"core">]
module attributes {strata.hw = #strata.hw<"toy-chip", {name = "toy-chip", plugin = "cpu",
    compute = [{name = "chip", count = 1}, {name = "core", count = 4}],
    memory = [{name = "dram"}, {name = "l1"}]}>} {
  func.func @with_description(%a: memref<8x8xf32, #strata.mem<"dram">>) {
    scf.forall (%i) in (4) {
      %t = memref.alloc() : memref<8x8xf32, #strata.mem<"l1">>
      memref.dealloc %t : memref<8x8xf32, #strata.mem<"l1">>
    } {mapping = [#strata.grid<"core">]}
    return
  }
}

// -----

// Nested objects, arrays, integers, floats and booleans of a description
// are kept as they are.
// CHECK: module attributes {strata.hw = #strata.hw<"nested", {
// CHECK-SAME: clock_hz = 1.500000e+09 : f64
// CHECK-SAME: name = "nested"
// CHECK-SAME: plugin = "cpu"
// CHECK-SAME: target_options = {fast = true, flags = ["a", "b"], level = 3 : i64}
module attributes {strata.hw = #strata.hw<"nested", {name = "nested", plugin = "cpu",
    clock_hz = 1.5e9 : f64,
    target_options = {level = 3 : i64, flags = ["a", "b"], fast = true}}>} {
}
