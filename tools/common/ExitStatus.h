//===- ExitStatus.h - The exit statuses of the strata-* tools ---*- C++ -*-===//
//
// Every tool exits with one of these (docs/tools.md, EXIT STATUS). They are
// those of strata-exec, which links no LLVM and spells them on its own.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TOOLS_EXITSTATUS_H
#define STRATA_TOOLS_EXITSTATUS_H

namespace strata::tool {

enum ExitStatus : int {
  /// Done; every check passed.
  kExitSuccess = 0,
  /// A bad option or input, a failed compilation or run.
  kExitError = 1,
  /// The program ran, but a result differs from the reference (--check).
  /// Kept apart from errors: scripts tell "wrong on this chip" from "could
  /// not run" (integration/bench/gpu_bench.sh does).
  kExitCheckFailed = 2,
  /// Compiled, but this machine has no device to run it on: automake's
  /// "skip" status, which test suites do not count as a failure (the
  /// runtime's rt::kNoDeviceExitCode).
  kExitNoDevice = 77,
};

} // namespace strata::tool

#endif // STRATA_TOOLS_EXITSTATUS_H
