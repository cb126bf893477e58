// linalg.pack (with a padding value) becomes a pad, a reshape and a
// transpose; linalg.unpack a transpose, a reshape and a slice: neither
// bufferizes as it is ("op was not bufferized": MLIR's Linalg/CPU
// pack-dynamic-inner-tile.mlir and unpack-dynamic-inner-tile.mlir). Run,
// a 3x4 matrix packs into 2x2 tiles padded with 9 and unpacks back.
// RUN: strata-opt %s --strata-decompose-aggregates | FileCheck %s
// RUN: strata-mlir-runner %s -e main | FileCheck %s --check-prefix=RUN1

// CHECK-LABEL: func.func @pack
// CHECK: tensor.pad
// CHECK: tensor.expand_shape
// CHECK: linalg.transpose
// CHECK-NOT: linalg.pack
// CHECK-LABEL: func.func @unpack
// CHECK: linalg.transpose
// CHECK: tensor.collapse_shape
// CHECK: tensor.extract_slice
// CHECK-NOT: linalg.unpack
func.func @pack(%a: tensor<3x4xi32>) -> tensor<2x2x2x2xi32> {
  %pad = arith.constant 9 : i32
  %e = tensor.empty() : tensor<2x2x2x2xi32>
  %p = linalg.pack %a padding_value(%pad : i32) inner_dims_pos = [0, 1]
      inner_tiles = [2, 2] into %e : tensor<3x4xi32> -> tensor<2x2x2x2xi32>
  return %p : tensor<2x2x2x2xi32>
}
func.func @unpack(%p: tensor<2x2x2x2xi32>) -> tensor<3x4xi32> {
  %e = tensor.empty() : tensor<3x4xi32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [2, 2]
      into %e : tensor<2x2x2x2xi32> -> tensor<3x4xi32>
  return %u : tensor<3x4xi32>
}

// The tiles in order: rows 0-1 x cols 0-1, rows 0-1 x cols 2-3, then row 2
// and the padding row.
// RUN1: sizes = [2, 2, 2, 2]
// RUN1-NEXT: {{\[\[\[\[}}0,    1],
// RUN1-NEXT: {{^ *}}[4,    5]],
// RUN1-NEXT: {{^ *}}{{\[\[}}2,    3],
// RUN1-NEXT: {{^ *}}[6,    7]]],
// RUN1-NEXT: {{^ *}}{{\[\[\[}}8,    9],
// RUN1-NEXT: {{^ *}}[9,    9]],
// RUN1-NEXT: {{^ *}}{{\[\[}}10,    11],
// RUN1-NEXT: {{^ *}}[9,    9]]]]
// RUN1: sizes = [3, 4]
// RUN1-NEXT: {{\[\[}}0,   1,   2,   3],
// RUN1-NEXT: [4,   5,   6,   7],
// RUN1-NEXT: [8,   9,   10,   11]]
func.func private @printMemrefI32(tensor<*xi32>)
func.func @main() {
  %a = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %p = call @pack(%a) : (tensor<3x4xi32>) -> tensor<2x2x2x2xi32>
  %u = call @unpack(%p) : (tensor<2x2x2x2xi32>) -> tensor<3x4xi32>
  %pc = tensor.cast %p : tensor<2x2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%pc) : (tensor<*xi32>) -> ()
  %uc = tensor.cast %u : tensor<3x4xi32> to tensor<*xi32>
  call @printMemrefI32(%uc) : (tensor<*xi32>) -> ()
  return
}
