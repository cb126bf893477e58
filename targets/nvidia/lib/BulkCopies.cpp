//===- BulkCopies.cpp - Bulk copies to TMA and mbarriers ------------------===//
//
// A bulk copy of an R x C tile of a row-major global array into a shared
// tile becomes, in thread 0: mbarrier.arrive.expect_tx(bytes) on its
// stage's mbarrier, then one cp.async.bulk.tensor per 128-byte column panel
// (box R x 128 bytes, the 128-byte swizzle of SwizzledTiles.cpp: panel j
// lands R * 128 bytes after panel j - 1). Each stage's mbarrier expects one
// arrival per copy of the stage, so its phase completes when every copy's
// bytes have arrived. The core's contract (Attributes.h) makes the wait of
// k-loop iteration `it` one for phase `it`: try_wait.parity(it mod 2).
//
// The tensor maps (one per global array and box) are created on the host
// before the launch from the array itself (nvgpu.tma.create.descriptor of
// the function's buffer); kernels receive them as arguments.
//
//===----------------------------------------------------------------------===//
#include "BulkCopies.h"

#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace strata::nvidia {
namespace {

/// Wait limit of one try_wait round (the lowering retries until it passes).
constexpr int64_t kWaitTicks = 10000000;

int64_t bytesOf(Type elem) {
  return llvm::divideCeil(elem.getIntOrFloatBitWidth(), 8);
}

/// The host-side tensor map of `array` (a buffer defined outside `launch`)
/// for boxes of rows x (128 bytes), created once before the launch.
Value tensorMap(gpu::LaunchOp launch, Value array, int64_t rows,
                llvm::DenseMap<std::pair<Value, int64_t>, Value> &maps) {
  auto key = std::make_pair(array, rows);
  if (Value map = maps.lookup(key))
    return map;
  ImplicitLocOpBuilder b(launch.getLoc(), launch);
  auto type = cast<MemRefType>(array.getType());
  Type elem = type.getElementType();
  int64_t cols = 128 / bytesOf(elem);
  auto box = MemRefType::get({rows, cols}, elem, MemRefLayoutAttrInterface(),
                             b.getI64IntegerAttr(3));
  auto mapType = nvgpu::TensorMapDescriptorType::get(
      b.getContext(), box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  Value unranked = memref::CastOp::create(
      b, UnrankedMemRefType::get(elem, type.getMemorySpace()), array);
  Value map = nvgpu::TmaCreateDescriptorOp::create(
      b, mapType, unranked,
      ValueRange{arith::ConstantIndexOp::create(b, rows),
                 arith::ConstantIndexOp::create(b, cols)});
  maps[key] = map;
  return map;
}

/// Thread 0's TMA loads for `copy`, completing on mbarrier `stage`.
LogicalResult
lowerCopy(memref::CopyOp copy, Value barriers, Value isFirst,
          gpu::LaunchOp launch,
          llvm::DenseMap<std::pair<Value, int64_t>, Value> &maps) {
  auto box = copy.getSource().getDefiningOp<memref::SubViewOp>();
  auto tile = copy.getTarget().getDefiningOp<memref::ViewOp>();
  auto tileType = cast<MemRefType>(copy.getTarget().getType());
  Type elem = tileType.getElementType();
  int64_t rows = tileType.getDimSize(0), cols = tileType.getDimSize(1);
  int64_t panelCols = 128 / bytesOf(elem);
  if (!box || !tile || box.getSourceType().getRank() != 2 ||
      !box.getSourceType().getLayout().isIdentity() ||
      launch->isAncestor(box.getSource().getParentBlock()->getParentOp()) ||
      cols % panelCols || rows > 256)
    return copy.emitError("nvidia-grid-to-gpu: a bulk copy moves a tile of "
                          "at most 256 rows of multiples of 128 bytes from a "
                          "row-major kernel argument into a shared buffer");
  Value map = tensorMap(launch, box.getSource(), rows, maps);
  ImplicitLocOpBuilder b(copy.getLoc(), copy);
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  auto stage =
      cst(copy->getAttrOfType<IntegerAttr>(kBulkCopyStageAttrName).getInt());
  SmallVector<Value> at;
  for (OpFoldResult o : box.getMixedOffsets())
    at.push_back(getValueOrCreateConstantIndexOp(b, b.getLoc(), o));
  auto ifOp = scf::IfOp::create(b, isFirst);
  b.setInsertionPointToStart(ifOp.thenBlock());
  nvgpu::MBarrierArriveExpectTxOp::create(
      b, barriers, cst(rows * cols * bytesOf(elem)), stage, Value());
  std::optional<int64_t> shift = getConstantIntValue(tile.getByteShift());
  if (!shift)
    return copy.emitError("nvidia-grid-to-gpu: a bulk copy's buffer needs a "
                          "constant offset");
  auto panelType =
      MemRefType::get({rows, panelCols}, elem, MemRefLayoutAttrInterface(),
                      tileType.getMemorySpace());
  for (int64_t j = 0; j < cols / panelCols; ++j) {
    Value dst =
        memref::ViewOp::create(b, panelType, tile.getSource(),
                               cst(*shift + j * rows * 128), ValueRange());
    // Coordinates innermost first: the column, then the row.
    Value x = arith::AddIOp::create(b, at[1], cst(j * panelCols));
    nvgpu::TmaAsyncLoadOp::create(b, dst, barriers, map, ValueRange{x, at[0]},
                                  stage, Value(), Value());
  }
  copy.erase();
  return success();
}
} // namespace

LogicalResult lowerBulkCopies(gpu::LaunchOp launch) {
  SmallVector<memref::CopyOp> copies;
  int64_t stages = 0;
  // A stage is filled several times (prologue, refills): one fill is one
  // copy into each of its buffers.
  llvm::DenseMap<int64_t, llvm::SmallPtrSet<Operation *, 2>> perStage;
  launch.getBody().walk([&](memref::CopyOp copy) {
    if (auto stage = copy->getAttrOfType<IntegerAttr>(kBulkCopyStageAttrName)) {
      copies.push_back(copy);
      stages = std::max(stages, stage.getInt() + 1);
      perStage[stage.getInt()].insert(copy.getTarget().getDefiningOp());
    }
  });
  if (copies.empty())
    return success();
  MLIRContext *ctx = launch.getContext();
  Block &body = launch.getBody().front();
  ImplicitLocOpBuilder b(launch.getLoc(), &body, body.begin());
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  // One mbarrier per stage, initialized by thread 0 before any copy.
  auto group = nvgpu::MBarrierGroupType::get(
      ctx, gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup),
      unsigned(stages));
  Value barriers = nvgpu::MBarrierCreateOp::create(b, group);
  Value isFirst = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                        launch.getThreadIds().x, cst(0));
  {
    auto ifOp = scf::IfOp::create(b, isFirst);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    // Every fill of a stage is the same copies: that many arrivals.
    for (int64_t s = 0; s < stages; ++s)
      nvgpu::MBarrierInitOp::create(b, barriers, cst(perStage[s].size()),
                                    cst(s), Value());
    // The initialized barriers are visible to the TMA unit (async proxy).
    NVVM::FenceMbarrierInitOp::create(b);
  }
  gpu::BarrierOp::create(b);
  llvm::DenseMap<std::pair<Value, int64_t>, Value> maps;
  for (memref::CopyOp copy : copies)
    if (failed(lowerCopy(copy, barriers, isFirst, launch, maps)))
      return failure();
  // Waits: phase `it` of the stage in k-loop iteration `it`.
  WalkResult walk = launch.getBody().walk([&](gpu::BarrierOp barrier) {
    auto stage = barrier->getAttrOfType<IntegerAttr>(kAwaitStageAttrName);
    if (!stage)
      return WalkResult::advance();
    auto loop = barrier->getParentOfType<scf::ForOp>();
    if (!loop) {
      barrier.emitError("nvidia-grid-to-gpu: a barrier awaiting a stage must "
                        "be in the k loop");
      return WalkResult::interrupt();
    }
    ImplicitLocOpBuilder w(barrier.getLoc(), barrier);
    Value odd = arith::AndIOp::create(w, loop.getInductionVar(),
                                      arith::ConstantIndexOp::create(w, 1));
    Value parity = arith::CmpIOp::create(w, arith::CmpIPredicate::ne, odd,
                                         arith::ConstantIndexOp::create(w, 0));
    nvgpu::MBarrierTryWaitParityOp::create(
        w, barriers, parity, arith::ConstantIndexOp::create(w, kWaitTicks),
        arith::ConstantIndexOp::create(w, stage.getInt()));
    barrier->removeAttr(kAwaitStageAttrName);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

} // namespace strata::nvidia
