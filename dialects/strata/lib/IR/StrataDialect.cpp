//===- StrataDialect.cpp - The strata dialect -----------------------------===//
#include "strata/Dialect/Strata/IR/StrataDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace strata;

#include "strata/Dialect/Strata/IR/StrataDialect.cpp.inc"

/// Names of the entries of the description's array `key` (compute or memory).
static llvm::StringSet<> levelNames(HardwareAttr hw, StringRef key) {
  llvm::StringSet<> names;
  auto levels = dyn_cast_or_null<ArrayAttr>(hw.getDescription().get(key));
  if (!levels)
    return names;
  for (Attribute level : levels)
    if (auto dict = dyn_cast<DictionaryAttr>(level))
      if (auto name = dyn_cast_or_null<StringAttr>(dict.get("name")))
        names.insert(name.getValue());
  return names;
}

/// Checks that every #strata.grid and #strata.mem used under `module` names a
/// level of the module's description.
static LogicalResult verifyLevels(Operation *module, HardwareAttr hw) {
  llvm::StringSet<> compute = levelNames(hw, "compute");
  llvm::StringSet<> memory = levelNames(hw, "memory");
  // Checks every memref type nested in `type` (function types, tuples...).
  auto checkMem = [&](Operation *op, Type type) -> LogicalResult {
    StringRef missing;
    type.walk([&](BaseMemRefType memref) {
      auto mem = dyn_cast_or_null<MemAttr>(memref.getMemorySpace());
      if (mem && missing.empty() && !memory.contains(mem.getLevel()))
        missing = mem.getLevel();
    });
    if (missing.empty())
      return success();
    return op->emitOpError()
           << "uses memory level '" << missing << "', which chip '"
           << hw.getName() << "' does not describe";
  };
  WalkResult result = module->walk([&](Operation *op) -> WalkResult {
    for (Type t : op->getResultTypes())
      if (failed(checkMem(op, t)))
        return WalkResult::interrupt();
    // Types held by attributes: function signatures, memref.global...
    bool bad = false;
    op->getAttrDictionary().walk([&](TypeAttr attr) {
      if (!bad && failed(checkMem(op, attr.getValue())))
        bad = true;
    });
    if (bad)
      return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(checkMem(op, arg.getType())))
            return WalkResult::interrupt();
    auto forall = dyn_cast<scf::ForallOp>(op);
    if (!forall || !forall.getMapping())
      return WalkResult::advance();
    ArrayAttr mapping = *forall.getMapping();
    for (Attribute attr : mapping) {
      auto grid = dyn_cast<GridAttr>(attr);
      if (grid && !compute.contains(grid.getLevel())) {
        op->emitOpError() << "is mapped to compute level '" << grid.getLevel()
                          << "', which chip '" << hw.getName()
                          << "' does not describe";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult StrataDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() == "strata.schedule") {
    if (!isa<ScheduleAttr>(attr.getValue()))
      return op->emitError()
             << "'strata.schedule' must be a #strata.schedule attribute";
    return success();
  }
  // The matrix intrinsic a contraction of the mapped IR maps to (S4).
  if (attr.getName() == "strata.intrinsic") {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'strata.intrinsic' must name an intrinsic";
    return success();
  }
  // Pipelined copies of the mapped IR (S4): a lane loop whose copies are
  // asynchronous, a barrier that first waits for all but N copy groups.
  if (attr.getName() == "strata.async_copy") {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<scf::ForallOp>(op))
      return op->emitError()
             << "'strata.async_copy' must be a unit attribute of an scf.forall";
    return success();
  }
  if (attr.getName() == "strata.pending_copy_groups") {
    auto n = dyn_cast<IntegerAttr>(attr.getValue());
    if (!n || n.getInt() < 0)
      return op->emitError() << "'strata.pending_copy_groups' must be an "
                                "integer >= 0";
    return success();
  }
  // Bulk copies (S4): the stage a copy fills, the stage a barrier awaits.
  if (attr.getName() == "strata.bulk_copy_stage" ||
      attr.getName() == "strata.await_stage") {
    auto n = dyn_cast<IntegerAttr>(attr.getValue());
    bool copy = attr.getName() == "strata.bulk_copy_stage";
    if (!n || n.getInt() < 0 ||
        (copy ? !isa<memref::CopyOp>(op) : !isa<gpu::BarrierOp>(op)))
      return op->emitError()
             << "'" << attr.getName().getValue() << "' must be an integer >= 0 "
             << (copy ? "of a memref.copy" : "of a gpu.barrier");
    return success();
  }
  // The artifact's manifest (JSON text), attached to the module before the
  // plugin lowers it and embedded by the artifact writer.
  if (attr.getName() == "strata.manifest") {
    if (!isa<StringAttr>(attr.getValue()) || !isa<ModuleOp>(op))
      return op->emitError()
             << "'strata.manifest' must be a string attribute of a module";
    return success();
  }
  // A function outlined around bufferization (strata-outline-groups).
  if (attr.getName() == "strata.group") {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<func::FuncOp>(op))
      return op->emitError()
             << "'strata.group' must be a unit attribute of a func.func";
    return success();
  }
  if (attr.getName() != kHardwareAttrName)
    return op->emitError() << "unknown strata attribute '"
                           << attr.getName().getValue() << "'; expected '"
                           << kHardwareAttrName
                           << "', 'strata.schedule', 'strata.intrinsic', "
                              "'strata.async_copy', "
                              "'strata.pending_copy_groups', "
                              "'strata.bulk_copy_stage', "
                              "'strata.await_stage', 'strata.manifest' or "
                              "'strata.group'";
  auto hw = dyn_cast<HardwareAttr>(attr.getValue());
  if (!hw)
    return op->emitError() << "'" << kHardwareAttrName
                           << "' must be a #strata.hw attribute";
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << kHardwareAttrName
                           << "' must be attached to a builtin.module";
  return verifyLevels(op, hw);
}

HardwareAttr strata::getHardwareAttr(Operation *op) {
  for (Operation *cur = op; cur; cur = cur->getParentOp())
    if (auto hw =
            cur->getAttrOfType<HardwareAttr>(StrataDialect::kHardwareAttrName))
      return hw;
  return {};
}
