//===- ValidateTopLevel.cpp - Top-level fields of a description -----------===//
//
// The description's identity, clock, target options and the order in which
// its sections are checked.
//
//===----------------------------------------------------------------------===//

#include "Validator.h"

#include <fmt/format.h>

#include <algorithm>

namespace strata::hw::detail {
namespace {

const std::vector<std::string> kTopLevelKeys = {
    "name",    "plugin", "arch",   "summary", "source",      "clock_hz",
    "compute", "memory", "vector", "matrix",  "peaks_flops", "target_options"};

} // namespace

void Validator::validate(const json &doc, Description &desc) {
  if (!doc.is_object()) {
    error("", "expected a JSON object at the top level, got " + describe(doc));
    return;
  }
  const std::string root;

  if (auto name = string(doc, root, "name", true)) {
    if (isDescriptionName(*name))
      desc.name = *name;
    else
      error("/name",
            fmt::format("expected a name of lowercase letters, digits and "
                        "'-', got {}",
                        describe(json(*name))));
  }
  if (auto plugin = string(doc, root, "plugin", true)) {
    const std::vector<std::string> &known = options.knownPlugins;
    if (plugin->empty())
      error("/plugin", "expected a non-empty plugin name");
    else if (!known.empty() &&
             std::find(known.begin(), known.end(), *plugin) == known.end())
      error("/plugin",
            fmt::format("unknown plugin \"{}\"{}: expected one of {}", *plugin,
                        suggestion(*plugin, known), joinQuoted(known)));
    else
      desc.plugin = *plugin;
  }
  if (auto arch = string(doc, root, "arch", true)) {
    if (arch->empty())
      error("/arch", "expected a non-empty architecture string");
    else
      desc.arch = *arch;
  }
  if (auto summary = string(doc, root, "summary", false))
    desc.summary = *summary;
  if (const json *source = member(doc, root, "source", false, "")) {
    if (!source->is_array()) {
      error("/source",
            "expected an array of strings, got " + describe(*source));
    } else {
      for (size_t i = 0; i < source->size(); ++i)
        if (!(*source)[i].is_string())
          error(childPath("/source", i),
                "expected a string, got " + describe((*source)[i]));
    }
  }
  if (auto clock = number(doc, root, "clock_hz", true, Bound::Positive))
    desc.clockHz = *clock;

  validateCompute(doc, desc);
  validateMemory(doc, desc);
  validateVector(doc, desc);
  validateMatrix(doc, desc);
  validatePeaks(doc, desc);

  if (const json *extra = member(doc, root, "target_options", false, "")) {
    if (expectObject(*extra, "/target_options", "an object"))
      desc.targetOptions = *extra;
  }

  checkKeys(doc, root, kTopLevelKeys);

  if (errors.empty())
    crossCheckPeaks(desc);
}

} // namespace strata::hw::detail
