//===- WarpgroupMma.cpp - wgmma contractions to nvgpu ---------------------===//
//
// The core emits one vector.contract per k fragment (m64 x nN x k16) on a
// warpgroup's rows of the A tile and the whole B tile. The contractions of
// one k tile (at k = 0, 16, ... of the same tiles) are one
// nvgpu.warpgroup.mma: upstream's lowering issues a wgmma.mma_async per
// k16 step between wgmma.fence and commit/wait, advancing the descriptors
// inside the 128-byte swizzle (A: K-major, 32 bytes per step; B: MN-major
// panels of 64 rows of 128 bytes, `transposeB`). The descriptors take the
// swizzle (and B's panel stride) from a tensor map's type only: the map is
// a placeholder the lowering never reads, with or without TMA.
//
// The wait is for all groups (0): the pipeline refills a k tile's buffer
// right after the next barrier, so its wgmma must be complete by then.
// Copies by the threads (cp.async) reach the tensor core's async proxy
// only after a fence.proxy.async, issued before each of the loop's
// barriers (each follows the wait for the copies).
//
//===----------------------------------------------------------------------===//
#include "WarpgroupMma.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace strata::nvidia {
namespace {

constexpr int64_t kWarpgroupRows = 64;

/// A placeholder tensor map whose type carries the 128-byte swizzle of a
/// rows x cols box of `elem`.
Value swizzleMap(OpBuilder &b, Location loc, int64_t rows, int64_t cols,
                 Type elem) {
  MLIRContext *ctx = b.getContext();
  auto box = MemRefType::get({rows, cols}, elem, MemRefLayoutAttrInterface(),
                             b.getI64IntegerAttr(3));
  auto type = nvgpu::TensorMapDescriptorType::get(
      ctx, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  return UnrealizedConversionCastOp::create(b, loc, TypeRange{type},
                                            ValueRange{})
      .getResult(0);
}

/// The nvgpu.warpgroup.mma of the k tile whose first contraction is
/// `contract` (reading its tiles at k = 0), accumulating into `acc`.
FailureOr<Value> warpgroupMma(OpBuilder &b, vector::ContractionOp contract,
                              Value acc, IRMapping &map) {
  auto lhs = contract.getLhs().getDefiningOp<vector::TransferReadOp>();
  auto rhs = contract.getRhs().getDefiningOp<vector::TransferReadOp>();
  Location loc = contract.getLoc();
  if (!lhs || !rhs)
    return contract.emitError("nvidia-matrix-ops: a wgmma contraction reads "
                              "its operands from shared-memory tiles");
  auto aTile = cast<MemRefType>(lhs.getBase().getType());
  auto bTile = cast<MemRefType>(rhs.getBase().getType());
  Type elem = aTile.getElementType();
  // wgmma reads 32-bit (tf32) operands only K-major, and upstream's
  // nvgpu.warpgroup.mma takes B MN-major (transposeB) with tf32-typed
  // descriptors: f32 products use the warps' mma.sync m16n8k8 instead.
  if (elem.isF32())
    return contract.emitError("nvidia-matrix-ops: wgmma on f32 (tf32) "
                              "operands is not lowered; describe "
                              "mma_m16n8k8_tf32 for f32 products");
  int64_t tileK = aTile.getDimSize(1);
  int64_t n = cast<VectorType>(contract.getResultType()).getDimSize(1);
  int64_t rowBytes = tileK * llvm::divideCeil(elem.getIntOrFloatBitWidth(), 8);
  std::optional<int64_t> col = getConstantIntValue(rhs.getIndices()[1]);
  if (rowBytes != 128 || bTile.getDimSize(0) != tileK ||
      bTile.getDimSize(1) != n || !col || *col != 0)
    return contract.emitError("nvidia-matrix-ops: wgmma needs k tiles of 128 "
                              "bytes and each warpgroup's B tile whole (")
           << aTile << ", " << bTile << ")";
  // The warpgroup's 64 rows of A: 128-byte rows, a whole number of atoms.
  Value row = map.lookupOrDefault(lhs.getIndices()[0]);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value aRows = memref::SubViewOp::create(
      b, loc, map.lookupOrDefault(lhs.getBase()),
      ArrayRef<OpFoldResult>{row, zero},
      ArrayRef<OpFoldResult>{b.getIndexAttr(kWarpgroupRows),
                             b.getIndexAttr(tileK)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  auto shared = b.getI64IntegerAttr(3);
  auto descA = nvgpu::WarpgroupMatrixDescriptorType::get(
      b.getContext(), MemRefType::get({kWarpgroupRows, tileK}, elem,
                                      MemRefLayoutAttrInterface(), shared));
  auto descB = nvgpu::WarpgroupMatrixDescriptorType::get(
      b.getContext(),
      MemRefType::get({tileK, n}, elem, MemRefLayoutAttrInterface(), shared));
  // A's box is its 64 rows; B's is a panel of tileK rows (the descriptor's
  // leading byte offset: from one panel of 64 columns to the next).
  Value a = nvgpu::WarpgroupGenerateDescriptorOp::create(
      b, loc, descA, aRows, swizzleMap(b, loc, kWarpgroupRows, tileK, elem));
  Value bd = nvgpu::WarpgroupGenerateDescriptorOp::create(
      b, loc, descB, map.lookupOrDefault(rhs.getBase()),
      swizzleMap(b, loc, tileK, tileK, elem));
  return nvgpu::WarpgroupMmaOp::create(b, loc, acc.getType(), a, bd,
                                       /*waitGroup=*/uint64_t(0),
                                       /*transposeA=*/UnitAttr(),
                                       b.getUnitAttr(), acc)
      .getResult();
}
} // namespace

LogicalResult lowerWarpgroupLoop(RewriterBase &rw, scf::ForOp loop) {
  Location loc = loop.getLoc();
  rw.setInsertionPoint(loop);
  SmallVector<Value> inits;
  for (Value init : loop.getInitArgs()) {
    auto type = dyn_cast<VectorType>(init.getType());
    if (!type || type.getRank() != 2 || !type.getElementType().isF32() ||
        !matchPattern(init, m_AnyZeroFloat()))
      return loop.emitError("nvidia-matrix-ops: a wgmma k loop carries zero "
                            "f32 accumulators");
    auto acc = nvgpu::WarpgroupAccumulatorType::get(rw.getContext(), type);
    inits.push_back(nvgpu::WarpgroupMmaInitAccumulatorOp::create(rw, loc, acc));
  }
  auto next = scf::ForOp::create(rw, loc, loop.getLowerBound(),
                                 loop.getUpperBound(), loop.getStep(), inits);
  IRMapping map;
  map.map(loop.getInductionVar(), next.getInductionVar());
  for (auto [from, to] :
       llvm::zip(loop.getRegionIterArgs(), next.getRegionIterArgs()))
    map.map(from, to);
  rw.setInsertionPointToStart(next.getBody());
  for (Operation &op : loop.getBody()->getOperations()) {
    auto contract = dyn_cast<vector::ContractionOp>(op);
    if (!contract) {
      if (isa<gpu::BarrierOp>(op))
        NVVM::FenceProxyOp::create(
            rw, op.getLoc(), NVVM::ProxyKind::async_shared,
            NVVM::SharedSpaceAttr::get(rw.getContext(),
                                       NVVM::SharedSpace::shared_cta));
      rw.clone(op, map);
      continue;
    }
    // Later k fragments of a k tile are part of its first one's mma.
    Value acc = map.lookupOrDefault(contract.getAcc());
    auto lhs = contract.getLhs().getDefiningOp<vector::TransferReadOp>();
    std::optional<int64_t> k =
        lhs ? getConstantIntValue(lhs.getIndices()[1]) : std::nullopt;
    if (k && *k != 0) {
      map.map(contract.getResult(), acc);
      continue;
    }
    FailureOr<Value> mma = warpgroupMma(rw, contract, acc, map);
    if (failed(mma))
      return failure();
    map.map(contract.getResult(), *mma);
  }
  // The results: each written to the staging tile by its warpgroup, whose
  // rows the store derives from the thread id (64 rows per warpgroup).
  for (auto [old, result] : llvm::zip(loop.getResults(), next.getResults())) {
    for (Operation *user : llvm::make_early_inc_range(old.getUsers())) {
      auto write = dyn_cast<vector::TransferWriteOp>(user);
      std::optional<int64_t> col =
          write ? getConstantIntValue(write.getIndices()[1]) : std::nullopt;
      if (!write || !col || *col != 0)
        return loop.emitError("nvidia-matrix-ops: wgmma accumulators are "
                              "stored whole, one warpgroup per 64 rows");
      // The store takes a 64-row destination but indexes its rows by the
      // block's warp id (16 per warp): the view starts at the staging tile's
      // origin, so that warpgroup g writes rows 64 g to 64 g + 63.
      rw.setInsertionPoint(write);
      auto staging = cast<MemRefType>(write.getBase().getType());
      auto acc = cast<nvgpu::WarpgroupAccumulatorType>(result.getType());
      int64_t rows = acc.getFragmented().getDimSize(0),
              cols = staging.getDimSize(1);
      if (!staging.getLayout().isIdentity() || staging.getRank() != 2 ||
          acc.getFragmented().getDimSize(1) != cols)
        return loop.emitError("nvidia-matrix-ops: wgmma accumulators are "
                              "stored into whole rows of a staging tile");
      Value view = memref::ReinterpretCastOp::create(
          rw, write.getLoc(),
          MemRefType::get({rows, cols}, staging.getElementType(),
                          StridedLayoutAttr::get(rw.getContext(), 0, {cols, 1}),
                          staging.getMemorySpace()),
          write.getBase(), 0, ArrayRef<int64_t>{rows, cols},
          ArrayRef<int64_t>{cols, 1});
      nvgpu::WarpgroupMmaStoreOp::create(rw, write.getLoc(), result, view);
      rw.eraseOp(write);
    }
  }
  rw.eraseOp(loop);
  return success();
}

} // namespace strata::nvidia
