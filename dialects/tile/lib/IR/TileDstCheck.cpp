//===- TileDstCheck.cpp - The accumulator protocol, where visible --------===//
//
// A compute kernel uses Dst in rounds: acquire_dst, math ops writing Dst,
// commit_dst, wait_dst, pack_tile, release_dst. Each block is scanned in
// order with the state known at its start (released at the kernel's start,
// unknown at the start of a nested region and after a region that changes
// it), so misuse in straight-line code is an error and nothing that depends
// on control flow is guessed at. The emulator checks every case at run time.
//
//===----------------------------------------------------------------------===//
#include "strata/Dialect/Tile/IR/TileDialect.h"
#include "strata/Dialect/Tile/IR/TileVerify.h"

using namespace mlir;
using namespace strata::tile;

namespace {

enum class DstState { Unknown, Released, Acquired, Committed, Waited };

const char *describe(DstState state) {
  switch (state) {
  case DstState::Released:
    return "not acquired (tile.acquire_dst)";
  case DstState::Acquired:
    return "acquired but not committed (tile.commit_dst)";
  case DstState::Committed:
    return "committed but not waited for (tile.wait_dst)";
  case DstState::Waited:
    return "waited for by the pack side until tile.release_dst";
  case DstState::Unknown:
    break;
  }
  return "in an unknown state";
}

bool isHandshake(Operation *op) {
  return isa<AcquireDstOp, CommitDstOp, WaitDstOp, ReleaseDstOp>(op);
}

bool isMathWrite(Operation *op) {
  return isa<MatmulTilesOp, BinaryOp, UnpackTileOp, ReduceOp, UnaryOp,
             UnaryScalarOp, BinaryDstOp, WhereDstOp>(op);
}

/// Scans `block` from `state`; returns the state at its end or failure.
FailureOr<DstState> scan(Block &block, DstState state) {
  for (Operation &op : block) {
    if (op.getNumRegions() > 0) {
      bool changes = false;
      for (Region &region : op.getRegions())
        for (Block &nested : region) {
          if (failed(scan(nested, DstState::Unknown)))
            return failure();
          nested.walk([&](Operation *inner) { changes |= isHandshake(inner); });
        }
      if (changes)
        state = DstState::Unknown;
      continue;
    }
    if (isa<AcquireDstOp>(op)) {
      if (state != DstState::Unknown && state != DstState::Released)
        return op.emitOpError() << "acquires Dst, which is " << describe(state)
                                << "; release it first (tile.release_dst)";
      state = DstState::Acquired;
    } else if (isa<CommitDstOp>(op)) {
      if (state != DstState::Unknown && state != DstState::Acquired)
        return op.emitOpError() << "commits Dst, which is " << describe(state);
      state = DstState::Committed;
    } else if (isa<WaitDstOp>(op)) {
      if (state != DstState::Unknown && state != DstState::Committed)
        return op.emitOpError()
               << "waits for Dst, which is " << describe(state);
      state = DstState::Waited;
    } else if (isa<ReleaseDstOp>(op)) {
      if (state != DstState::Unknown && state != DstState::Waited)
        return op.emitOpError() << "releases Dst, which is " << describe(state);
      state = DstState::Released;
    } else if (isMathWrite(&op)) {
      if (state != DstState::Unknown && state != DstState::Acquired)
        return op.emitOpError() << "writes Dst, which is " << describe(state);
    } else if (isa<PackTileOp>(op)) {
      if (state != DstState::Unknown && state != DstState::Waited)
        return op.emitOpError()
               << "packs from Dst, which is " << describe(state);
    }
  }
  return state;
}

} // namespace

LogicalResult strata::tile::verifyDstProtocol(KernelOp kernel) {
  if (kernel.getBody().empty())
    return success();
  FailureOr<DstState> end = scan(kernel.getBody().front(), DstState::Released);
  if (failed(end))
    return failure();
  if (*end != DstState::Unknown && *end != DstState::Released)
    return kernel.emitOpError()
           << "ends with Dst " << describe(*end)
           << ": every round must end with tile.release_dst";
  return success();
}
