// Shipped descriptions injected into IR and read back: the model printed from
// the attribute is the one strata-hw derives from the file.
// RUN: strata-opt %s --strata-attach-target=target=nvidia-h200 | strata-opt --strata-print-target -o /dev/null | FileCheck %s --check-prefix=H200
// RUN: strata-opt %s --strata-attach-target=target=tile-wormhole-n150 | strata-opt --strata-print-target -o /dev/null | FileCheck %s --check-prefix=N150
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-print-target -o /dev/null | FileCheck %s --check-prefix=AVX512

// RUN: strata-opt %s --strata-attach-target=target=nvidia-h200 --mlir-print-op-generic | strata-opt --strata-print-target -o /dev/null > %t.h200.ir
// RUN: strata-hw info nvidia-h200 > %t.h200.hw
// RUN: grep -v '^note:' %t.h200.hw | diff - %t.h200.ir
// RUN: strata-opt %s --strata-attach-target=target=tile-wormhole-n150 | strata-opt --strata-print-target -o /dev/null > %t.n150.ir
// RUN: strata-hw info tile-wormhole-n150 | grep -v '^note:' | diff - %t.n150.ir

// H200-LABEL: nvidia-h200: NVIDIA H200 SXM 141 GB
// H200-NEXT: plugin nvidia, arch sm_90a, clock 1.83 GHz
// H200-NEXT: compute  chip 1 > sm 132 > warpgroup 4 > warp 4 > lane 32
// H200-NEXT: vector   4096-bit per sm, 1 FMA pipe, latency 4, 255 registers: f64 f32 f16 bf16
// H200: f32      61.84 TFLOP/s     vector @sm  (given 67 TFLOP/s)
// H200: bf16     989.4 TFLOP/s     wgmma_m64n256k16_bf16 @warpgroup  (given 989.4 TFLOP/s)
// H200-NEXT: per sm 7.496 TFLOP/s, per warpgroup 1.874 TFLOP/s, per warp 234.2 GFLOP/s
// H200: hbm        dram       140.4 GiB /chip        4.8 TB/s /chip                  500       12.9        412
// H200-NEXT: l2         cache      50 MiB /chip           5.5 TB/s /chip                  260       11.2        360
// H200-NEXT: shared     scratchpad 228 KiB /sm x132       234.2 GB/s /sm (30.92 TB/s)       30       2.00       64.0
// H200-NEXT: engine tma x1: 64 B/cycle, setup 100 cycles
// H200: 1. wgmma_m64n256k16_bf16      64x256x16 bf16*bf16->f32 @warpgroup 512 cycles: 989.4 TFLOP/s
// H200: 12. mma_m16n8k8_tf32           16x8x8 tf32*tf32->f32 @warp 32 cycles: 247.4 TFLOP/s
// H200-NEXT: 13. mma_m8n8k4_f64             8x8x4 f64*f64->f64 @warp 32 cycles: 61.84 TFLOP/s

// N150-LABEL: tile-wormhole-n150: Wormhole n150-class tile chip
// N150-NEXT: plugin tile, arch wormhole_b0, clock 1 GHz
// N150-NEXT: compute  chip 1 > row 8 > core 8
// N150: f32      65.54 TFLOP/s     matmul_tiles_tf32_f32acc @core
// N150-NEXT: per row 8.192 TFLOP/s, per core 1.024 TFLOP/s
// N150-NEXT: bf16     262.1 TFLOP/s     matmul_tiles_bf16_f32acc @core
// N150: dram       dram       12 GiB /chip           288 GB/s /chip                  600        228        910
// N150-NEXT: l1         scratchpad 1.43 MiB /core x64     256 GB/s /core (16.38 TB/s)        8       4.00       16.0
// N150-NEXT: engine noc x2: 29 B/cycle, setup 40 cycles, 32 B flits, 9 cycles/hop
// N150: 1. matmul_tiles_bf16_f32acc   32x32x32 bf16*bf16->f32 @core 16 cycles: 262.1 TFLOP/s
// N150-NEXT: LoFi 262.1 TFLOP/s, HiFi2 131.1 TFLOP/s, HiFi3 87.38 TFLOP/s, HiFi4 65.54 TFLOP/s
// N150-NEXT: 2. matmul_tiles_tf32_f32acc   32x32x32 f32*f32->f32 @core 16 cycles: 65.54 TFLOP/s

// AVX512-LABEL: host-x86-avx512: 2-core slice of an AMD Zen 5 EPYC-class server
// AVX512-NEXT: plugin cpu, arch x86-64-v4, clock 3.5 GHz
// AVX512-NEXT: compute  chip 1 > core 2 > lane 16
// AVX512: f32      448 GFLOP/s       vector @core
// AVX512-NEXT: per core 224 GFLOP/s
// AVX512: dram       dram       16 GiB /chip           45 GB/s /chip                   400       9.96
// AVX512-NOT: matrix
module {
}
