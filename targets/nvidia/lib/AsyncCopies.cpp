//===- AsyncCopies.cpp - Asynchronous copies to cp.async ------------------===//
//
// The core's pipelined copies (Attributes.h: kAsyncCopyAttrName,
// kPendingCopyGroupsAttrName) on sm_80 and later: a global-to-shared vector
// copy is one cp.async (nvgpu.device_async_copy, L1 bypassed for 16 bytes),
// the end of a marked lane loop a cp.async.commit_group, a marked barrier a
// cp.async.wait_group N before the bar.sync. The tokens of the nvgpu ops are
// not used: the groups are the lane's, counted by the core's loop structure.
//
//===----------------------------------------------------------------------===//
#include "AsyncCopies.h"

#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace strata::nvidia {

LogicalResult lowerAsyncCopies(scf::ForallOp laneLoop) {
  if (!laneLoop->hasAttr(kAsyncCopyAttrName))
    return success();
  SmallVector<vector::StoreOp> stores;
  laneLoop.getBody()->walk([&](vector::StoreOp store) {
    if (store.getValueToStore().getDefiningOp<vector::LoadOp>() &&
        nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(store.getMemRefType()))
      stores.push_back(store);
  });
  OpBuilder b(laneLoop.getContext());
  for (vector::StoreOp store : stores) {
    auto load = store.getValueToStore().getDefiningOp<vector::LoadOp>();
    VectorType type = store.getVectorType();
    int64_t bytes = type.getNumElements() *
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    if (type.getRank() != 1 || (bytes != 4 && bytes != 8 && bytes != 16))
      return store.emitError("nvidia-grid-to-gpu: an asynchronous copy moves "
                             "4, 8 or 16 bytes, not ")
             << type;
    b.setInsertionPoint(store);
    nvgpu::DeviceAsyncCopyOp::create(
        b, store.getLoc(), nvgpu::DeviceAsyncTokenType::get(b.getContext()),
        store.getBase(), store.getIndices(), load.getBase(), load.getIndices(),
        b.getIndexAttr(type.getNumElements()), /*srcElements=*/Value(),
        bytes == 16 ? b.getUnitAttr() : UnitAttr());
    store.erase();
    if (load->use_empty())
      load.erase();
  }
  b.setInsertionPoint(laneLoop.getBody()->getTerminator());
  NVVM::CpAsyncCommitGroupOp::create(b, laneLoop.getLoc());
  laneLoop->removeAttr(kAsyncCopyAttrName);
  return success();
}

void lowerCopyWaits(Operation *root) {
  root->walk([](gpu::BarrierOp barrier) {
    auto pending =
        barrier->getAttrOfType<IntegerAttr>(kPendingCopyGroupsAttrName);
    if (!pending)
      return;
    OpBuilder b(barrier);
    NVVM::CpAsyncWaitGroupOp::create(b, barrier.getLoc(),
                                     uint32_t(pending.getInt()));
    barrier->removeAttr(kPendingCopyGroupsAttrName);
  });
}

} // namespace strata::nvidia
