// nvidia-register-limit: each kernel's `nvvm.maxnreg` is the most registers
// per thread with which its block fits the SM's register file (allocated
// per warp in units of 256, warps counted in fours), at most the
// description's registers per lane; a kernel whose block size is not known
// is limited as a block of the most threads a block may have.
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --pass-pipeline="builtin.module(gpu.module(nvidia-register-limit{registers=255}))" | FileCheck %s
// RUN: strata-opt %s --pass-pipeline="builtin.module(gpu.module(nvidia-register-limit{registers=255 registers-per-block=32768 max-threads=256}))" | FileCheck %s --check-prefix=HALF
// RUN: strata-opt %s --pass-pipeline="builtin.module(gpu.module(nvidia-register-limit{registers=96}))" | FileCheck %s --check-prefix=CAP

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: llvm.func @threads64
    // CHECK-SAME: nvvm.maxnreg = 255 : i32
    // HALF-LABEL: llvm.func @threads64
    // HALF-SAME: nvvm.maxnreg = 255 : i32
    // CAP-LABEL: llvm.func @threads64
    // CAP-SAME: nvvm.maxnreg = 96 : i32
    llvm.func @threads64() attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 64, 1, 1>} {
      llvm.return
    }
    // 8 warps of 256 registers per thread: the cap.
    // CHECK-LABEL: llvm.func @threads256
    // CHECK-SAME: nvvm.maxnreg = 255 : i32
    // HALF-LABEL: llvm.func @threads256
    // HALF-SAME: nvvm.maxnreg = 128 : i32
    llvm.func @threads256() attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>} {
      llvm.return
    }
    // 65536 / 12 warps / 32 lanes, down to a multiple of 8.
    // CHECK-LABEL: llvm.func @threads384
    // CHECK-SAME: nvvm.maxnreg = 168 : i32
    llvm.func @threads384() attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 128, 3, 1>} {
      llvm.return
    }
    // CHECK-LABEL: llvm.func @threads512
    // CHECK-SAME: nvvm.maxnreg = 128 : i32
    // HALF-LABEL: llvm.func @threads512
    // HALF-SAME: nvvm.maxnreg = 64 : i32
    // CAP-LABEL: llvm.func @threads512
    // CAP-SAME: nvvm.maxnreg = 96 : i32
    llvm.func @threads512() attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 512, 1, 1>} {
      llvm.return
    }
    // 9 warps are allocated as 12.
    // CHECK-LABEL: llvm.func @threads288
    // CHECK-SAME: nvvm.maxnreg = 168 : i32
    llvm.func @threads288() attributes {gpu.kernel, nvvm.kernel, nvvm.reqntid = array<i32: 288, 1, 1>} {
      llvm.return
    }
    // CHECK-LABEL: llvm.func @threads1024
    // CHECK-SAME: nvvm.maxnreg = 64 : i32
    llvm.func @threads1024() attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 1024, 1, 1>} {
      llvm.return
    }
    // CHECK-LABEL: llvm.func @unknown
    // CHECK-SAME: nvvm.maxnreg = 64 : i32
    // HALF-LABEL: llvm.func @unknown
    // HALF-SAME: nvvm.maxnreg = 128 : i32
    llvm.func @unknown() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
    // Not a kernel: no limit of its own.
    // CHECK-LABEL: llvm.func @helper
    // CHECK-NOT: maxnreg
    // CHECK: llvm.return
    llvm.func @helper() {
      llvm.return
    }
  }
}
