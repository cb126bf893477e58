//===- Logging.h - --log-level for the tools --------------------*- C++ -*-===//
#ifndef STRATA_SUPPORT_LOGGING_H
#define STRATA_SUPPORT_LOGGING_H

#include "llvm/ADT/StringRef.h"

namespace strata {

/// Sets spdlog's level from a --log-level value (trace, debug, info, warn,
/// error, off); logs go to stderr. Returns false for an unknown level.
bool setupLogging(llvm::StringRef level);

} // namespace strata

#endif // STRATA_SUPPORT_LOGGING_H
