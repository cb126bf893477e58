//===- GridToGPU.cpp - Grid levels to gpu.launch --------------------------===//
//
// The mapped IR names compute levels; this pass gives them CUDA meanings:
//   - the level owning the scratchpad (the block level) is the grid: one
//     gpu.launch per forall, block ids in mapping order (dim 0 is x);
//   - a level L inside it has lanesPer(L) threads per instance (the product
//     of the counts of the levels below L): its forall's ids are
//     (tid / lanesPer(L)) mod (instances of L in the enclosing forall's
//     instance), one thread dimension (x) for the whole block;
//   - buffers in the scratchpad's memory space become views, at 16-byte
//     aligned offsets, of the launch's dynamic shared memory, so a block may
//     use more than the 48 KiB of static shared memory.
// A forall whose count does not match the instances it runs on is rejected:
// guarding part of the threads would break the barriers inside.
//
//===----------------------------------------------------------------------===//
#include "GridToGPU.h"
#include "AsyncCopies.h"
#include "BulkCopies.h"
#include "RegisterLimit.h"
#include "SharedAlignment.h"
#include "SwizzledTiles.h"
#include "TensorMapParams.h"

#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Schedule/Attributes.h"
#include "strata/Schedule/HierarchyModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

#include <mutex>

using namespace mlir;

namespace strata::nvidia {
namespace {

/// The grid level of `forall` (all its dims must name the same level).
std::optional<std::string> levelOf(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  if (!mapping || mapping->empty())
    return std::nullopt;
  std::optional<std::string> level;
  for (Attribute a : *mapping) {
    auto grid = dyn_cast<GridAttr>(a);
    if (!grid || (level && *level != grid.getLevel()))
      return std::nullopt;
    level = grid.getLevel().str();
  }
  return level;
}

struct Levels {
  std::string block;
  llvm::StringMap<int64_t> lanesPer; // threads per instance, levels in block
  int64_t maxSharedBytes = 0;        // per block, 0: no limit given
};

Levels levelsOf(const hw::Description &chip, const HierarchyLevels &h) {
  Levels levels;
  levels.block = h.block;
  if (chip.targetOptions.is_object() &&
      chip.targetOptions.contains("max_shared_bytes_per_block") &&
      chip.targetOptions["max_shared_bytes_per_block"].is_number_integer())
    levels.maxSharedBytes =
        chip.targetOptions["max_shared_bytes_per_block"].get<int64_t>();
  int64_t threads = 1;
  for (auto it = chip.compute.rbegin(); it != chip.compute.rend(); ++it) {
    if (it->name == h.block)
      break;
    levels.lanesPer[it->name] = threads;
    threads *= std::max<int64_t>(it->count, 1);
  }
  return levels;
}

/// Static trip counts of a normalized forall (lower bound 0, step 1).
FailureOr<SmallVector<int64_t>> counts(scf::ForallOp forall) {
  SmallVector<int64_t> out;
  for (auto [lb, ub, step] :
       llvm::zip(forall.getStaticLowerBound(), forall.getStaticUpperBound(),
                 forall.getStaticStep())) {
    if (ShapedType::isDynamic(ub))
      return forall.emitError("nvidia-grid-to-gpu: grid loops need static "
                              "bounds");
    if (lb != 0 || step != 1)
      return forall.emitError("nvidia-grid-to-gpu: grid loops need lower "
                              "bound 0 and step 1");
    out.push_back(ub);
  }
  return out;
}

/// Mapping dim of each forall iv (dim 0: innermost, the fastest id).
SmallVector<int64_t> mappingDims(scf::ForallOp forall) {
  SmallVector<int64_t> dims;
  ArrayAttr mapping = *forall.getMapping();
  for (Attribute a : mapping)
    dims.push_back(cast<GridAttr>(a).getDim());
  return dims;
}

/// Threads a launch needs: the largest count x lanesPer of the foralls
/// directly inside the block (nested ones are checked against their parent).
FailureOr<int64_t> blockThreads(scf::ForallOp block, const Levels &levels) {
  int64_t threads = 0;
  WalkResult walk = block.getBody()->walk([&](scf::ForallOp inner) {
    std::optional<std::string> level = levelOf(inner);
    if (!level || !levels.lanesPer.count(*level)) {
      inner.emitError("nvidia-grid-to-gpu: a loop inside a block must map to "
                      "a level inside '")
          << levels.block << "'";
      return WalkResult::interrupt();
    }
    if (inner->getParentOfType<scf::ForallOp>() != block)
      return WalkResult::advance();
    FailureOr<SmallVector<int64_t>> c = counts(inner);
    if (failed(c))
      return WalkResult::interrupt();
    int64_t n = 1;
    for (int64_t v : *c)
      n *= v;
    threads = std::max(threads, n * levels.lanesPer.lookup(*level));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (threads == 0)
    threads = 1;
  return threads;
}

/// Replaces the ivs of `forall` by slices of `tid` and inlines its body.
LogicalResult inlineThreadLoop(scf::ForallOp forall, Value tid,
                               int64_t available, const Levels &levels) {
  std::string level = *levelOf(forall);
  int64_t per = levels.lanesPer.lookup(level);
  FailureOr<SmallVector<int64_t>> c = counts(forall);
  if (failed(c))
    return failure();
  int64_t total = 1;
  for (int64_t v : *c)
    total *= v;
  if (total * per != available)
    return forall.emitError(llvm::formatv(
        "nvidia-grid-to-gpu: {0} instances of '{1}' here run this loop but it "
        "has {2} iterations",
        available / per, level, total));
  // Asynchronous copies are recognized before the loop disappears.
  if (failed(lowerAsyncCopies(forall)))
    return failure();
  ImplicitLocOpBuilder b(forall.getLoc(), forall);
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  Value id = arith::DivUIOp::create(b, tid, cst(per));
  // Linear id to the ivs: mapping dim 0 fastest.
  SmallVector<int64_t> dims = mappingDims(forall);
  SmallVector<Value> ivs(c->size());
  SmallVector<size_t> order(c->size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::sort(order, [&](size_t x, size_t y) { return dims[x] < dims[y]; });
  for (size_t i : order) {
    ivs[i] = arith::RemUIOp::create(b, id, cst((*c)[i]));
    id = arith::DivUIOp::create(b, id, cst((*c)[i]));
  }
  // Nested loops see the threads of one instance of this level.
  Value inner = arith::RemUIOp::create(b, tid, cst(per));
  SmallVector<scf::ForallOp> nested;
  for (Operation &op : forall.getBody()->without_terminator())
    op.walk([&](scf::ForallOp f) {
      if (f->getParentOfType<scf::ForallOp>() == forall)
        nested.push_back(f);
    });
  for (scf::ForallOp f : nested)
    if (failed(inlineThreadLoop(f, inner, per, levels)))
      return failure();
  Block *body = forall.getBody();
  body->getTerminator()->erase();
  b.getInsertionBlock()->getOperations().splice(Block::iterator(forall),
                                                body->getOperations());
  for (auto [iv, v] : llvm::zip(forall.getInductionVars(), ivs))
    iv.replaceAllUsesWith(v);
  forall.erase();
  return success();
}

/// Sets the memory space of every memref type in `op`'s region from
/// `from` to `to`.
void replaceMemorySpace(Operation *root, Attribute from, Attribute to) {
  auto convert = [&](Type t) -> Type {
    auto m = dyn_cast<MemRefType>(t);
    if (!m || m.getMemorySpace() != from)
      return t;
    return MemRefType::get(m.getShape(), m.getElementType(), m.getLayout(), to);
  };
  root->walk([&](Operation *op) {
    for (Value r : op->getResults())
      r.setType(convert(r.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(convert(arg.getType()));
  });
}

LogicalResult convertBlock(scf::ForallOp forall, const Levels &levels,
                           Attribute scratchpad) {
  FailureOr<SmallVector<int64_t>> grid = counts(forall);
  if (failed(grid))
    return failure();
  if (grid->size() > 3)
    return forall.emitError("nvidia-grid-to-gpu: at most 3 grid dimensions");
  FailureOr<int64_t> threads = blockThreads(forall, levels);
  if (failed(threads))
    return failure();
  MLIRContext *ctx = forall.getContext();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  replaceMemorySpace(forall, scratchpad, workgroup);

  // Scratchpad buffers: offsets in the dynamic shared memory.
  int64_t sharedBytes = 0;
  SmallVector<std::pair<memref::AllocOp, int64_t>> buffers;
  WalkResult walk = forall.getBody()->walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (type.getMemorySpace() != workgroup)
      return WalkResult::advance();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
      alloc.emitError("nvidia-grid-to-gpu: scratchpad buffers need a static "
                      "shape and the identity layout");
      return WalkResult::interrupt();
    }
    int64_t bytes = type.getNumElements() *
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    buffers.push_back({alloc, sharedBytes});
    sharedBytes += llvm::alignTo(bytes, 16);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (levels.maxSharedBytes > 0 && sharedBytes > levels.maxSharedBytes)
    return forall.emitError(llvm::formatv(
        "nvidia-grid-to-gpu: the block's scratchpad buffers take {0} bytes; "
        "a block may use {1} (target_options.max_shared_bytes_per_block)",
        sharedBytes, levels.maxSharedBytes));

  SmallVector<int64_t> dims = mappingDims(forall);
  // CUDA's grid limits: 2^31 - 1 blocks along x, 65535 along y and z.
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] > 2)
      return forall.emitError("nvidia-grid-to-gpu: grid dimensions are 0, 1 "
                              "and 2");
    int64_t limit = dims[i] == 0 ? (int64_t(1) << 31) - 1 : 65535;
    if ((*grid)[i] > limit)
      return forall.emitError(llvm::formatv(
          "nvidia-grid-to-gpu: {0} blocks along grid dimension {1}; at most "
          "{2} fit",
          (*grid)[i], dims[i], limit));
  }
  ImplicitLocOpBuilder b(forall.getLoc(), forall);
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, v); };
  SmallVector<Value> sizes(3, Value());
  for (size_t i = 0; i < dims.size(); ++i)
    sizes[dims[i]] = cst((*grid)[i]);
  for (Value &s : sizes)
    if (!s)
      s = cst(1);
  Value shared = arith::ConstantIntOp::create(b, b.getI32Type(), sharedBytes);
  auto launch = gpu::LaunchOp::create(b, sizes[0], sizes[1], sizes[2],
                                      cst(*threads), cst(1), cst(1), shared);
  Block &body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  gpu::TerminatorOp::create(b);
  b.setInsertionPointToStart(&body);
  Value tid = launch.getThreadIds().x;
  SmallVector<Value> blockIds = {launch.getBlockIds().x, launch.getBlockIds().y,
                                 launch.getBlockIds().z};
  Value dynamic;
  if (sharedBytes > 0)
    dynamic = gpu::DynamicSharedMemoryOp::create(
        b, MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                           MemRefLayoutAttrInterface(), workgroup));
  // Move the block's body into the launch.
  Block *from = forall.getBody();
  from->getTerminator()->erase();
  body.getOperations().splice(Block::iterator(body.getTerminator()),
                              from->getOperations());
  for (auto [iv, d] : llvm::zip(forall.getInductionVars(), dims))
    iv.replaceAllUsesWith(blockIds[d]);
  for (auto [alloc, offset] : buffers) {
    b.setInsertionPoint(alloc);
    Value view = memref::ViewOp::create(b, alloc.getType(), dynamic,
                                        cst(offset), ValueRange());
    alloc.replaceAllUsesWith(view);
    SmallVector<Operation *> deallocs;
    for (Operation *user : view.getUsers())
      if (isa<memref::DeallocOp>(user))
        deallocs.push_back(user);
    for (Operation *d : deallocs)
      d->erase();
    alloc.erase();
  }
  if (Attribute a = forall->getAttr(kScheduleAttrName))
    launch->setAttr(kScheduleAttrName, a);
  forall.erase();
  // The thread levels.
  SmallVector<scf::ForallOp> nested;
  for (Operation &op : body.without_terminator())
    op.walk([&](scf::ForallOp f) {
      if (!f->getParentOfType<scf::ForallOp>())
        nested.push_back(f);
    });
  for (scf::ForallOp f : nested)
    if (failed(inlineThreadLoop(f, tid, *threads, levels)))
      return failure();
  lowerCopyWaits(launch);
  return lowerBulkCopies(launch);
}

struct GridToGPU : public PassWrapper<GridToGPU, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GridToGPU)
  StringRef getArgument() const override { return "nvidia-grid-to-gpu"; }
  StringRef getDescription() const override {
    return "Map #strata.grid loops to gpu.launch and thread ids, scratchpad "
           "buffers to dynamic shared memory";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, arith::ArithDialect, memref::MemRefDialect,
                    NVVM::NVVMDialect, nvgpu::NVGPUDialect>();
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<hw::Description> chip = descriptionOf(module);
    if (failed(chip))
      return signalPassFailure();
    std::optional<HierarchyLevels> h = hierarchyLevels(*chip);
    if (!h) {
      module.emitError("nvidia-grid-to-gpu: the description has no "
                       "scratchpad level with thread levels inside");
      return signalPassFailure();
    }
    Levels levels = levelsOf(*chip, *h);
    Attribute scratchpad = MemAttr::get(&getContext(), h->scratchpad);
    SmallVector<scf::ForallOp> blocks;
    module.walk([&](scf::ForallOp f) {
      if (!f->getParentOfType<scf::ForallOp>())
        blocks.push_back(f);
    });
    for (scf::ForallOp f : blocks) {
      if (levelOf(f) != levels.block) {
        f.emitError("nvidia-grid-to-gpu: an outermost grid loop must map to "
                    "'")
            << levels.block << "'";
        return signalPassFailure();
      }
      if (failed(convertBlock(f, levels, scratchpad)))
        return signalPassFailure();
    }
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
  }
};
} // namespace

std::unique_ptr<Pass> createGridToGPUPass() {
  return std::make_unique<GridToGPU>();
}

void registerNvidiaPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    PassRegistration<GridToGPU>();
    registerMatrixOpsPass();
    registerSwizzleTilesPass();
    registerTensorMapParamsPass();
    registerAlignDynamicSharedPass();
    registerRegisterLimitPass();
  });
}

} // namespace strata::nvidia
