//===- Scheduler.cpp - Running the kernel instances cooperatively ---------===//
//
// Round robin over the live instances, each run until it blocks or ends.
// A round in which no instance executed anything means every live instance
// waits for another: a deadlock, reported with what each one waits for
// (it can never be a livelock, since an instance only stops when blocked).
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace strata::tile;

/// Instances listed in a deadlock report before the rest are counted.
static constexpr int kReportedInstances = 12;

LogicalResult Machine::run() {
  while (true) {
    bool anyProgress = false, anyLive = false;
    for (Instance &inst : instances) {
      if (inst.finished)
        continue;
      ++stats.switches;
      bool progressed = false;
      Step step = runInstance(inst, progressed);
      if (step == Step::Failed)
        return failure();
      anyProgress |= progressed;
      anyLive |= !inst.finished;
    }
    if (!anyLive)
      return success();
    if (anyProgress)
      continue;

    // Deadlock: report the first blocked op with every blocked kernel.
    std::vector<Instance *> blocked;
    for (Instance &inst : instances)
      if (!inst.finished)
        blocked.push_back(&inst);
    InFlightDiagnostic diag = blocked.front()->blockedOp->emitError()
                              << "deadlock: all " << blocked.size()
                              << " unfinished kernels are blocked";
    for (size_t i = 0; i < blocked.size(); ++i) {
      Instance &inst = *blocked[i];
      if (int(i) == kReportedInstances) {
        diag.attachNote() << "and " << blocked.size() - i
                          << " more blocked kernels";
        break;
      }
      diag.attachNote(inst.blockedOp->getLoc())
          << stringifyKernelKind(inst.kind) << " kernel on core [" << inst.row
          << ", " << inst.col << "] " << inst.blockedReason;
    }
    return failure();
  }
}
