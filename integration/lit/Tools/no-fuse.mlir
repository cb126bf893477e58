// --no-fuse runs every op on its own: attention then materializes its
// 256x256 scores, and the MLP's GELU is a separate pass over the matmul's
// result (with fusion neither happens: Transforms/fuse-attention.mlir,
// Transforms/fuse-epilogue.mlir).
// RUN: strata-compile %S/../../../examples/models/attention.mlir --target=host-x86-avx512 --emit=mlir --no-fuse -o - | FileCheck %s --check-prefix=ATT
// RUN: strata-compile %S/../../../examples/models/mlp.mlir --target=host-x86-avx512 --emit=mlir --no-fuse -o - | FileCheck %s --check-prefix=MLP
// RUN: strata-compile %S/../../../examples/models/mlp.mlir --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s --check-prefix=FUSED

// ATT: memref.alloc() {{.*}} : memref<8x256x256xf32>
// The matmul's result is a whole buffer, and the epilogue a second nest.
// MLP: memref.alloc() {{.*}} : memref<128x1024xf32>
// MLP: } {mapping = [#strata.grid<"core">]}
// MLP: math.erf
// FUSED-NOT: memref.alloc() {{.*}} : memref<128x1024xf32>
// FUSED: math.erf
// FUSED: } {mapping = [#strata.grid<"core">]}
// FUSED-NOT: math.erf
