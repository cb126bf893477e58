// strata-run on the tile chip: each matmul is compiled by the core and the
// tile plugin, run on the emulator, checked against the host reference and
// timed by the cycle model. Shapes that are not whole tiles are padded in
// DRAM (never computed wrong): 100x70x50 runs on 4x3 cores.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// The same compiler for the 13x10 grid of the Blackhole-class chip:
// RUN: strata-run %s --target=tile-blackhole-p150 --entry=matmul_odd --check | FileCheck %s --check-prefix=P150

// P150:      matmul_odd: ran on tile-blackhole-p150
// P150:      matmul_odd: check result #0 (100x70xf32): relative error {{0.00e\+00|[0-9.]+e-0[6-9]}} (tolerance 1.0e-04) PASS

// CHECK:      matmul_1024: ran on tile-wormhole-n150
// CHECK-NEXT: cycle model (tile-wormhole-n150 at 1.00 GHz): {{[0-9]+}} cycles
// CHECK-NEXT:   bound: {{compute|noc|dram}}
// CHECK-NEXT:   matrix engine: 32768 tile matmuls at HiFi2, {{[0-9.]+}}% utilization
// CHECK-NEXT:   DRAM: {{[0-9.]+}} MB moved
// CHECK:      matmul_1024: check result #0 (1024x1024xf32): relative error {{0.00e\+00|[0-9.]+e-0[6-9]}} (tolerance 1.0e-04) PASS
func.func @matmul_1024(%a: tensor<1024x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1024x1024xbf16>, tensor<1024x1024xbf16>)
                     outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}

// CHECK:      matmul_odd: ran on tile-wormhole-n150
// CHECK:        matrix engine: 24 tile matmuls at HiFi2
// CHECK:      matmul_odd: check result #0 (100x70xf32): relative error {{0.00e\+00|[0-9.]+e-0[6-9]}} (tolerance 1.0e-04) PASS
func.func @matmul_odd(%a: tensor<100x50xbf16>, %b: tensor<50x70xbf16>) -> tensor<100x70xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<100x70xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<100x70xf32>) -> tensor<100x70xf32>
  %c = linalg.matmul ins(%a, %b : tensor<100x50xbf16>, tensor<50x70xbf16>)
                     outs(%init : tensor<100x70xf32>) -> tensor<100x70xf32>
  return %c : tensor<100x70xf32>
}

// A bf16 result: the emulator accumulates in f32 and rounds once, the
// reference rounds every sum to bf16; the two agree within bf16's
// tolerance.
// CHECK:      matmul_bf16: ran on tile-wormhole-n150
// CHECK:      matmul_bf16: check result #0 (256x256xbf16): relative error {{.*}} (tolerance 2.0e-02) PASS
func.func @matmul_bf16(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<256x256xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%empty : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  %c = linalg.matmul ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>)
                     outs(%init : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}
