// Elementwise bodies that read a value more than once (a DAG) run on the
// vector engine, their values kept in Dst slots chosen by liveness: GELU in
// its tanh form after a bias add (the sum is read four times), x / (1 +
// exp(-x)) (x read twice: unpacked again for the in-place neg; x / y as
// x * recip(y)), and a body of two inputs whose sum is read by in-place
// ops before its last read (copied to a free slot with max(s, s)). In a
// row program, an input and a per-row vector each read twice are unpacked
// once (not read by a tile.binary from their buffers, which would leave
// their slots empty for the later reads).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER-LABEL: tile.program @gelu_tanh
// LOWER:      tile.unpack_tile @in0[%c0] -> dst[%c0]
// LOWER-NEXT: tile.unpack_tile @in1[%c0] -> dst[%c1]
// LOWER-NEXT: tile.binary_dst add dst[%c0], dst[%c1] -> dst[%c0]
// LOWER-NEXT: tile.binary_dst mul dst[%c0], dst[%c0] -> dst[%c1]
// LOWER-NEXT: tile.binary_dst mul dst[%c1], dst[%c0] -> dst[%c1]
// LOWER-NEXT: tile.unary_scalar mul dst[%c1], 4.471500e-02
// LOWER-NEXT: tile.binary_dst add dst[%c0], dst[%c1] -> dst[%c1]
// LOWER-NEXT: tile.unary_scalar mul dst[%c1], 0.797884583
// LOWER-NEXT: tile.unary tanh dst[%c1]
// LOWER-NEXT: tile.unary_scalar add dst[%c1], 1.000000e+00
// LOWER-NEXT: tile.unary_scalar mul dst[%c0], 5.000000e-01
// LOWER-NEXT: tile.binary_dst mul dst[%c0], dst[%c1] -> dst[%c0]
// LOWER-NEXT: tile.commit_dst
// LOWER:      tile.pack_tile dst[%c0] -> @out[%c0]

// LOWER-LABEL: tile.program @silu
// LOWER:      tile.unpack_tile @in0[%c0] -> dst[%c0]
// LOWER-NEXT: tile.unary neg dst[%c0]
// LOWER-NEXT: tile.unary exp dst[%c0]
// LOWER-NEXT: tile.unary_scalar add dst[%c0], 1.000000e+00
// LOWER-NEXT: tile.unary recip dst[%c0]
// LOWER-NEXT: tile.unpack_tile @in0[%c0] -> dst[%c1]
// LOWER-NEXT: tile.binary_dst mul dst[%c1], dst[%c0] -> dst[%c1]
// LOWER-NEXT: tile.commit_dst
// LOWER:      tile.pack_tile dst[%c1] -> @out[%c0]

// LOWER-LABEL: tile.program @square_diff
// LOWER:      tile.unpack_tile @in0[%c0] -> dst[%c0]
// LOWER-NEXT: tile.unpack_tile @in1[%c0] -> dst[%c1]
// LOWER-NEXT: tile.binary_dst add dst[%c0], dst[%c1] -> dst[%c2]
// LOWER-NEXT: tile.binary_dst sub dst[%c0], dst[%c1] -> dst[%c0]
// LOWER-NEXT: tile.binary_dst max dst[%c2], dst[%c2] -> dst[%c1]
// LOWER-NEXT: tile.unary exp dst[%c1]
// LOWER-NEXT: tile.binary_dst max dst[%c2], dst[%c2] -> dst[%c3]
// LOWER-NEXT: tile.unary tanh dst[%c3]
// LOWER-NEXT: tile.binary_dst mul dst[%c2], dst[%c0] -> dst[%c2]
// LOWER-NEXT: tile.binary_dst add dst[%c2], dst[%c1] -> dst[%c2]
// LOWER-NEXT: tile.binary_dst sub dst[%c2], dst[%c3] -> dst[%c2]
// LOWER-NEXT: tile.commit_dst
// LOWER:      tile.pack_tile dst[%c2] -> @out[%c0]

// LOWER-LABEL: tile.program @row_dag
// LOWER:      tile.unpack_tile @in0[%arg1] -> dst[%c0]
// LOWER-NEXT: tile.unpack_tile @r0[%c0] -> dst[%c1] bcast col
// LOWER-NEXT: tile.binary_dst sub dst[%c0], dst[%c1] -> dst[%c2]
// LOWER-NEXT: tile.unary exp dst[%c2]
// LOWER-NEXT: tile.binary_dst mul dst[%c2], dst[%c0] -> dst[%c2]
// LOWER-NEXT: tile.binary_dst add dst[%c2], dst[%c1] -> dst[%c2]
// LOWER-NEXT: tile.commit_dst
// LOWER:      tile.pack_tile dst[%c2] -> @out[%c0]

// CHECK:      gelu_tanh: ran on tile-wormhole-n150
// CHECK:      gelu_tanh: check result #0 (256x256xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
// CHECK:      silu: ran on tile-wormhole-n150
// CHECK:      silu: check result #0 (256x256xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
// CHECK:      square_diff: ran on tile-wormhole-n150
// CHECK:      square_diff: check result #0 (256x256xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
// CHECK:      row_dag: check result #0 (128x256xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#r = affine_map<(i, j) -> (i)>
func.func @gelu_tanh(%x: tensor<256x256xf32>, %bias: tensor<256xf32>) -> tensor<256x256xf32> {
  %out = tensor.empty() : tensor<256x256xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%out : tensor<256x256xf32>) {
  ^bb0(%xv: f32, %bv: f32, %o: f32):
    %c = arith.constant 0.044715 : f32
    %k = arith.constant 0.7978845608 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %v = arith.addf %xv, %bv : f32
    %x2 = arith.mulf %v, %v : f32
    %x3 = arith.mulf %x2, %v : f32
    %a = arith.mulf %x3, %c : f32
    %b = arith.addf %v, %a : f32
    %s = arith.mulf %b, %k : f32
    %t = math.tanh %s : f32
    %p = arith.addf %t, %one : f32
    %h = arith.mulf %v, %half : f32
    %g = arith.mulf %h, %p : f32
    linalg.yield %g : f32
  } -> tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}
func.func @silu(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %out = tensor.empty() : tensor<256x256xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x256xf32>) outs(%out : tensor<256x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %v : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %v, %d : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}
func.func @square_diff(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %out = tensor.empty() : tensor<256x256xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%out : tensor<256x256xf32>) {
  ^bb0(%av: f32, %bv: f32, %o: f32):
    %s = arith.addf %av, %bv : f32
    %d = arith.subf %av, %bv : f32
    %e = math.exp %s : f32
    %t = math.tanh %s : f32
    %p = arith.mulf %s, %d : f32
    %q = arith.addf %p, %e : f32
    %r = arith.subf %q, %t : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}
func.func @row_dag(%x: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<128xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<128xf32>) -> tensor<128xf32>
  %m = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x256xf32>) outs(%init : tensor<128xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<128xf32>
  %e2 = tensor.empty() : tensor<128x256xf32>
  %o = linalg.generic {indexing_maps = [#id, #r, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<128x256xf32>, tensor<128xf32>) outs(%e2 : tensor<128x256xf32>) {
  ^bb0(%a: f32, %mv: f32, %out: f32):
    %d = arith.subf %a, %mv : f32
    %e = math.exp %d : f32
    %s = arith.mulf %e, %a : f32
    %t = arith.addf %s, %mv : f32
    linalg.yield %t : f32
  } -> tensor<128x256xf32>
  return %o : tensor<128x256xf32>
}
