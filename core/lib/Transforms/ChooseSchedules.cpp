//===- ChooseSchedules.cpp - S3: a schedule for every structured op -------===//
//
// Every linalg op on tensors gets the model's schedule, or the one a
// schedule file gives for it ("<function>/<n>", n counting the function's
// linalg ops from 0). Fills and copies are left to the plugin: they move
// each element once and need no decision.
//
//===----------------------------------------------------------------------===//
#include "strata/Schedule/Attributes.h"
#include "strata/Schedule/ScratchpadModel.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/MemoryBuffer.h"

namespace strata {
#define GEN_PASS_DEF_STRATASCHEDULE
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using namespace strata;

namespace {
/// Vector code over sub-byte elements (i1) has no portable memory layout;
/// such ops are left to the plugin's plain lowering.
bool hasByteElements(linalg::LinalgOp op) {
  for (Value operand : op->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
      return false;
  }
  return true;
}

struct ChooseSchedules : strata::impl::StrataScheduleBase<ChooseSchedules> {
  using StrataScheduleBase::StrataScheduleBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<hw::Description> chip = descriptionOf(module);
    if (failed(chip))
      return signalPassFailure();
    nlohmann::json overrides = nlohmann::json::object();
    if (!scheduleFile.empty()) {
      auto buffer = llvm::MemoryBuffer::getFile(scheduleFile);
      if (!buffer) {
        module.emitError() << "cannot read schedule file '" << scheduleFile
                           << "': " << buffer.getError().message();
        return signalPassFailure();
      }
      overrides = nlohmann::json::parse((*buffer)->getBuffer().str(), nullptr,
                                        /*allow_exceptions=*/false);
      if (overrides.is_discarded() || !overrides.is_object()) {
        module.emitError() << "schedule file '" << scheduleFile
                           << "': expected a JSON object mapping "
                              "\"<function>/<n>\" to schedules";
        return signalPassFailure();
      }
    }
    std::set<std::string> used, scheduled;
    WalkResult result = module.walk([&](func::FuncOp fn) {
      int64_t index = 0;
      WalkResult inner = fn.walk([&](linalg::LinalgOp op) {
        std::string key = (fn.getName() + "/" + llvm::Twine(index++)).str();
        if (!op.hasPureTensorSemantics() ||
            isa<linalg::FillOp, linalg::CopyOp>(op.getOperation()) ||
            !hasByteElements(op))
          return WalkResult::advance();
        LoopNest nest = loopNestOf(op);
        scheduled.insert(key);
        if (overrides.contains(key)) {
          used.insert(key);
          llvm::Expected<Schedule> given = Schedule::fromJson(
              overrides[key], nest.extents.size(), scheduleFile + ":/" + key);
          if (!given) {
            op->emitError() << llvm::toString(given.takeError());
            return WalkResult::interrupt();
          }
          setSchedule(op, *given);
          return WalkResult::advance();
        }
        // A grid of units with scratchpads: the scratchpad model, which
        // fails when the op cannot fit.
        if (gridScratchpad(*chip)) {
          llvm::Expected<Schedule> chosen = chooseScratchpadSchedule(
              nest, *chip, op->getName().getStringRef());
          if (!chosen) {
            op->emitError() << llvm::toString(chosen.takeError());
            return WalkResult::interrupt();
          }
          setSchedule(op, *chosen);
          return WalkResult::advance();
        }
        setSchedule(op, chooseSchedule(nest, *chip));
        return WalkResult::advance();
      });
      return inner.wasInterrupted() ? WalkResult::interrupt()
                                    : WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    for (const auto &[key, value] : overrides.items())
      if (!used.count(key)) {
        std::string known;
        for (const std::string &name : scheduled)
          known += (known.empty() ? "" : ", ") + name;
        module.emitError() << "schedule file '" << scheduleFile << "' names '"
                           << key
                           << "', which is not a scheduled op (expected "
                              "\"<function>/<n>\" of a linalg op; this "
                              "program's are: "
                           << (known.empty() ? "none" : known) << ")";
        return signalPassFailure();
      }
  }
};
} // namespace
