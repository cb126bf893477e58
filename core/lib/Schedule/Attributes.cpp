//===- Attributes.cpp - Schedules in the IR -------------------------------===//
#include "strata/Schedule/Attributes.h"
#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Target/TargetRegistry.h"

using namespace mlir;
using namespace strata;

FailureOr<hw::Description> strata::descriptionOf(ModuleOp module) {
  HardwareAttr hw = getHardwareAttr(module);
  if (!hw)
    return module.emitError()
           << "module carries no 'strata.hw' description; attach one with "
              "--strata-attach-target=target=NAME";
  hw::LoadResult result = TargetRegistry::get().validate(
      attributeToJson(hw.getDescription()), "<strata.hw>",
      /*requirePlugin=*/false);
  if (!result)
    return module.emitError() << "invalid 'strata.hw' description:\n"
                              << result.formatErrors();
  return *result.description;
}

FailureOr<std::optional<hw::Description>>
strata::attachedDescription(ModuleOp module) {
  if (!getHardwareAttr(module))
    return std::optional<hw::Description>();
  FailureOr<hw::Description> chip = descriptionOf(module);
  if (failed(chip))
    return failure();
  return std::optional<hw::Description>(std::move(*chip));
}

LoopNest strata::loopNestOf(linalg::LinalgOp op) {
  LoopNest nest;
  for (int64_t extent : op.getStaticLoopRanges())
    // A dynamic extent is taken as large: the model then tiles it fully.
    nest.extents.push_back(ShapedType::isDynamic(extent) ? 1 << 20 : extent);
  for (utils::IteratorType type : op.getIteratorTypesArray())
    nest.reduction.push_back(type == utils::IteratorType::reduction);
  for (OpOperand &operand : op->getOpOperands()) {
    LoopNest::Operand entry;
    entry.output = op.isDpsInit(&operand);
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (AffineExpr expr : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      entry.dims.push_back(dim ? int64_t(dim.getPosition()) : -1);
      if (!dim)
        expr.walk([&](AffineExpr sub) {
          if (auto d = dyn_cast<AffineDimExpr>(sub);
              d && !llvm::is_contained(entry.windowLoops, d.getPosition()))
            entry.windowLoops.push_back(d.getPosition());
        });
    }
    llvm::raw_string_ostream(nest.elementTypes.emplace_back())
        << getElementTypeOrSelf(operand.get().getType());
    nest.operands.push_back(std::move(entry));
  }
  Type element = getElementTypeOrSelf(op->getOperand(0).getType());
  if (op->getNumResults() > 0)
    element = getElementTypeOrSelf(op->getResult(0).getType());
  if (element.isIntOrFloat())
    nest.elementBytes =
        std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
  // Arithmetic per iteration: the ops of the body other than its yield.
  if (!op->getRegions().empty() && !op->getRegion(0).empty())
    nest.flopsPerIteration =
        std::max<double>(1, double(op.getBlock()->getOperations().size()) - 1);
  return nest;
}

void strata::setSchedule(Operation *op, const Schedule &schedule) {
  auto fields = cast<DictionaryAttr>(
      jsonToAttribute(op->getContext(), schedule.toJson()));
  op->setAttr(kScheduleAttrName, ScheduleAttr::get(op->getContext(), fields));
}

FailureOr<std::optional<Schedule>> strata::getSchedule(Operation *op,
                                                       size_t loops) {
  auto attr = op->getAttrOfType<ScheduleAttr>(kScheduleAttrName);
  if (!attr)
    return std::optional<Schedule>();
  llvm::Expected<Schedule> schedule =
      Schedule::fromJson(attributeToJson(attr.getFields()), loops, "schedule");
  if (!schedule)
    return op->emitError() << "malformed strata.schedule: "
                           << llvm::toString(schedule.takeError());
  return std::optional<Schedule>(std::move(*schedule));
}
