//===- Logging.cpp - --log-level for the tools ----------------------------===//
#include "strata/Support/Logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

bool strata::setupLogging(llvm::StringRef level) {
  spdlog::level::level_enum parsed = spdlog::level::from_str(level.str());
  // from_str maps unknown names to `off`; only "off" itself may mean off.
  if (parsed == spdlog::level::off && level != "off")
    return false;
  auto logger = spdlog::stderr_color_mt("strata");
  logger->set_pattern("[%^%l%$] %v");
  logger->set_level(parsed);
  spdlog::set_default_logger(logger);
  return true;
}
