//===- NoDevice.h - The error of a machine without the device ---*- C++ -*-===//
//
// A plugin's createDevice() returns NoDeviceError when the machine has no
// device of its kind (no driver, no GPU): the artifact was built, it only
// cannot run here. strata-run then exits with kNoDeviceExitCode, which the
// test suites treat as a skip (the automake convention).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RUNTIME_NODEVICE_H
#define STRATA_RUNTIME_NODEVICE_H

#include "llvm/Support/Error.h"

#include <string>

namespace strata::runtime {

/// strata-run's exit status when the device is absent.
constexpr int kNoDeviceExitCode = 77; // = rt::kNoDeviceExitCode

class NoDeviceError : public llvm::ErrorInfo<NoDeviceError> {
public:
  static char ID;
  explicit NoDeviceError(std::string text) : text(std::move(text)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string text;
};

} // namespace strata::runtime

#endif // STRATA_RUNTIME_NODEVICE_H
