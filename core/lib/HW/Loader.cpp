//===- Loader.cpp - Parse and validate a hardware description -------------===//
//
// Every check reports a Diagnostic with the JSON pointer of the offending
// value and a message saying what was expected; validation goes on after an
// error so that one run lists every problem of a document. Nothing here
// throws out of the public entry points.
//
//===----------------------------------------------------------------------===//

#include "strata/HW/Description.h"
#include "strata/HW/Model.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace strata::hw {
namespace {

using json = nlohmann::json;

/// Documents nesting deeper than this are rejected before anything copies or
/// walks them recursively.
constexpr int kMaxDepth = 64;
/// Largest number of instances of any compute level (product of counts).
constexpr int64_t kMaxUnits = int64_t(1) << 53;

std::string pointerToken(llvm::StringRef token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string childPath(const std::string &path, llvm::StringRef key) {
  return path + "/" + pointerToken(key);
}

std::string childPath(const std::string &path, size_t index) {
  return path + "/" + std::to_string(index);
}

/// A short rendering of a value for messages.
std::string describe(const json &value) {
  if (value.is_structured())
    return std::string("an ") + (value.is_array() ? "array" : "object");
  if (value.is_null())
    return "null";
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 48)
    text = text.substr(0, 45) + "...";
  return value.is_boolean() ? "boolean " + text : text;
}

std::string joinQuoted(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &name : names) {
    if (!out.empty())
      out += ", ";
    out += name;
  }
  return out;
}

/// " (did you mean "x"?)" when one of `candidates` is close to `word`.
std::string suggestion(llvm::StringRef word,
                       const std::vector<std::string> &candidates) {
  std::string best;
  unsigned bestDistance = 3;
  for (const std::string &candidate : candidates) {
    unsigned distance = word.edit_distance(candidate, true, bestDistance);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", best);
}

bool isExtensionKey(llvm::StringRef key) {
  return key.starts_with("x-") || key.starts_with("_comment");
}

bool isPowerOfTwo(int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

/// Level, memory and intrinsic names: [A-Za-z0-9_.-]+.
bool isIdentifier(llvm::StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-';
  });
}

/// The description's own name: [a-z0-9-]+.
bool isDescriptionName(llvm::StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isDigit(c) || (c >= 'a' && c <= 'z') || c == '-';
  });
}

bool withinDepth(const json &value, int depthLeft) {
  if (!value.is_structured())
    return true;
  if (depthLeft == 0)
    return false;
  for (const json &child : value)
    if (!withinDepth(child, depthLeft - 1))
      return false;
  return true;
}

enum class Bound { Positive, NonNegative };

class Validator {
public:
  explicit Validator(const LoadOptions &options) : options(options) {}

  std::vector<Diagnostic> errors;

  void error(std::string path, std::string message) {
    errors.push_back({std::move(path), std::move(message), 0, 0});
  }

  /// The member `key` of `obj`, or nullptr; a missing required member is an
  /// error that says what was expected there.
  const json *member(const json &obj, const std::string &path,
                     llvm::StringRef key, bool required,
                     llvm::StringRef expected) {
    auto it = obj.find(key.str());
    if (it != obj.end())
      return &*it;
    if (required)
      error(childPath(path, key),
            fmt::format("missing required field \"{}\": expected {}", key.str(),
                        expected.str()));
    return nullptr;
  }

  std::optional<std::string> string(const json &obj, const std::string &path,
                                    llvm::StringRef key, bool required) {
    const json *value = member(obj, path, key, required, "a string");
    if (!value)
      return std::nullopt;
    if (!value->is_string()) {
      error(childPath(path, key), "expected a string, got " + describe(*value));
      return std::nullopt;
    }
    return value->get_ref<const std::string &>();
  }

  /// A non-empty string naming something: a level, a memory, an intrinsic.
  std::optional<std::string> identifier(const json &obj,
                                        const std::string &path,
                                        llvm::StringRef key, bool required) {
    std::optional<std::string> value = string(obj, path, key, required);
    if (value && !isIdentifier(*value)) {
      error(childPath(path, key),
            fmt::format("expected a name of letters, digits, '_', '.' or "
                        "'-', got {}",
                        describe(json(*value))));
      return std::nullopt;
    }
    return value;
  }

  std::optional<double> number(const json &obj, const std::string &path,
                               llvm::StringRef key, bool required,
                               Bound bound) {
    const char *expected =
        bound == Bound::Positive ? "a number > 0" : "a number >= 0";
    const json *value = member(obj, path, key, required, expected);
    if (!value)
      return std::nullopt;
    if (!value->is_number()) {
      error(childPath(path, key),
            fmt::format("expected {}, got {}", expected, describe(*value)));
      return std::nullopt;
    }
    double x = value->get<double>();
    if (!std::isfinite(x) || (bound == Bound::Positive && !(x > 0)) ||
        (bound == Bound::NonNegative && !(x >= 0))) {
      error(childPath(path, key),
            fmt::format("expected {}, got {}", expected, describe(*value)));
      return std::nullopt;
    }
    return x;
  }

  std::optional<int64_t> integer(const json &obj, const std::string &path,
                                 llvm::StringRef key, bool required,
                                 int64_t min) {
    std::string expected = min == 1   ? std::string("a positive integer")
                           : min == 0 ? std::string("an integer >= 0")
                                      : fmt::format("an integer >= {}", min);
    const json *value = member(obj, path, key, required, expected);
    if (!value)
      return std::nullopt;
    std::optional<int64_t> result = asInteger(*value);
    if (!result || *result < min) {
      error(childPath(path, key),
            fmt::format("expected {}, got {}", expected, describe(*value)));
      return std::nullopt;
    }
    return result;
  }

  /// The value as an int64 when it is a number with an integral value in
  /// range (JSON writers may print 4.194304e7 for an integer).
  static std::optional<int64_t> asInteger(const json &value) {
    if (value.is_number_unsigned()) {
      uint64_t u = value.get<uint64_t>();
      if (u > uint64_t(INT64_MAX))
        return std::nullopt;
      return int64_t(u);
    }
    if (value.is_number_integer())
      return value.get<int64_t>();
    if (value.is_number_float()) {
      double x = value.get<double>();
      // [-2^63, 2^63) converts exactly; anything else would be UB.
      if (!std::isfinite(x) || x != std::floor(x) ||
          x < -9.2233720368547758e18 || x >= 9.2233720368547758e18)
        return std::nullopt;
      return int64_t(x);
    }
    return std::nullopt;
  }

  /// Report members of `obj` not in `allowed` (extension keys excepted).
  void checkKeys(const json &obj, const std::string &path,
                 const std::vector<std::string> &allowed) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const std::string &key = it.key();
      if (isExtensionKey(key) ||
          std::find(allowed.begin(), allowed.end(), key) != allowed.end())
        continue;
      error(childPath(path, key),
            fmt::format("unknown field \"{}\"{}: expected one of {} (or an "
                        "\"x-\" extension key)",
                        key, suggestion(key, allowed), joinQuoted(allowed)));
    }
  }

  bool expectObject(const json &value, const std::string &path,
                    llvm::StringRef what) {
    if (value.is_object())
      return true;
    error(path,
          fmt::format("expected {}, got {}", what.str(), describe(value)));
    return false;
  }

  /// A compute level named by another field.
  std::optional<std::string>
  computeRef(const json &obj, const std::string &path, llvm::StringRef key) {
    std::optional<std::string> name = string(obj, path, key, true);
    if (!name)
      return std::nullopt;
    if (std::find(computeNames.begin(), computeNames.end(), *name) ==
        computeNames.end()) {
      error(childPath(path, key),
            fmt::format("unknown compute level \"{}\"{}: expected one of {}",
                        *name, suggestion(*name, computeNames),
                        joinQuoted(computeNames)));
      return std::nullopt;
    }
    return name;
  }

  std::optional<std::string>
  elementType(const json &obj, const std::string &path, llvm::StringRef key) {
    std::optional<std::string> type = string(obj, path, key, true);
    if (type && !checkElementType(*type, childPath(path, key)))
      return std::nullopt;
    return type;
  }

  bool checkElementType(const std::string &type, const std::string &path) {
    if (elementTypeBits(type) != 0)
      return true;
    error(path, fmt::format("unknown element type \"{}\"{}: expected one of {}",
                            type, suggestion(type, knownElementTypes()),
                            joinQuoted(knownElementTypes())));
    return false;
  }

  /// Report `name` at `path` if an earlier entry of `seen` has it; true if
  /// the name is new.
  bool checkUnique(std::map<std::string, std::string> &seen,
                   const std::string &name, const std::string &path,
                   llvm::StringRef what) {
    auto [it, inserted] = seen.emplace(name, path);
    if (!inserted)
      error(path, fmt::format("duplicate {} name \"{}\": expected unique "
                              "names (first used at {})",
                              what.str(), name, it->second));
    return inserted;
  }

  void validate(const json &doc, Description &desc);

private:
  void validateCompute(const json &doc, Description &desc);
  void validateMemory(const json &doc, Description &desc);
  std::optional<MovementEngine> validateEngine(const json &value,
                                               const std::string &path);
  void validateVector(const json &doc, Description &desc);
  void validateMatrix(const json &doc, Description &desc);
  std::optional<MatrixIntrinsic> validateIntrinsic(const json &value,
                                                   const std::string &path);
  void validateLayout(const json &layout, const std::string &path,
                      const MatrixIntrinsic &intrinsic, bool shapeKnown);
  void validatePeaks(const json &doc, Description &desc);
  void crossCheckPeaks(const Description &desc);

  const LoadOptions &options;
  std::vector<std::string> computeNames; // distinct level names, even if bad
  std::map<std::string, std::string> intrinsicNames;
};

const std::vector<std::string> kTopLevelKeys = {
    "name",    "plugin", "arch",   "summary", "source",      "clock_hz",
    "compute", "memory", "vector", "matrix",  "peaks_flops", "target_options"};

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

void Validator::validateCompute(const json &doc, Description &desc) {
  const json *compute =
      member(doc, "", "compute", true, "a non-empty array of {name, count}");
  if (!compute)
    return;
  if (!compute->is_array() || compute->empty()) {
    error("/compute", "expected a non-empty array of {name, count}, got " +
                          describe(*compute));
    return;
  }
  std::map<std::string, std::string> seen;
  int64_t units = 1;
  for (size_t i = 0; i < compute->size(); ++i) {
    const json &entry = (*compute)[i];
    std::string path = childPath("/compute", i);
    if (!expectObject(entry, path, "an object {name, count}"))
      continue;
    checkKeys(entry, path, {"name", "count"});
    std::optional<std::string> name = identifier(entry, path, "name", true);
    std::optional<int64_t> count = integer(entry, path, "count", true, 1);
    if (name &&
        checkUnique(seen, *name, childPath(path, "name"), "compute level"))
      computeNames.push_back(*name);
    if (count && units <= kMaxUnits) {
      if (__builtin_mul_overflow(units, *count, &units) || units > kMaxUnits) {
        units = kMaxUnits + 1;
        error(childPath(path, "count"),
              fmt::format("expected the product of counts down to this "
                          "level to be at most 2^53, got {} here",
                          *count));
        count.reset();
      }
    }
    if (name && count)
      desc.compute.push_back({*name, *count});
  }
}

void Validator::validateMemory(const json &doc, Description &desc) {
  const json *memory =
      member(doc, "", "memory", true, "a non-empty array of memory levels");
  if (!memory)
    return;
  if (!memory->is_array() || memory->empty()) {
    error("/memory", "expected a non-empty array of memory levels, farthest "
                     "first, got " +
                         describe(*memory));
    return;
  }
  std::map<std::string, std::string> seen;
  int ownerDepth = -1;
  std::string ownerDepthPath;
  for (size_t i = 0; i < memory->size(); ++i) {
    const json &entry = (*memory)[i];
    std::string path = childPath("/memory", i);
    if (!expectObject(entry, path, "an object describing a memory level"))
      continue;
    checkKeys(entry, path,
              {"name", "kind", "capacity_bytes", "owner",
               "bandwidth_bytes_per_s", "latency_cycles", "alignment_bytes",
               "banks", "engine"});
    MemoryLevel level;
    bool ok = true;
    if (auto name = identifier(entry, path, "name", true)) {
      checkUnique(seen, *name, childPath(path, "name"), "memory level");
      if (std::find(computeNames.begin(), computeNames.end(), *name) !=
          computeNames.end())
        error(childPath(path, "name"),
              fmt::format("memory level name \"{}\" is also a compute level: "
                          "expected names distinct from compute levels",
                          *name));
      level.name = *name;
    } else {
      ok = false;
    }
    if (auto kind = string(entry, path, "kind", true)) {
      static const std::vector<std::string> kinds = {"dram", "cache",
                                                     "scratchpad"};
      if (std::find(kinds.begin(), kinds.end(), *kind) == kinds.end()) {
        error(childPath(path, "kind"),
              fmt::format("unknown memory kind \"{}\"{}: expected one of {}",
                          *kind, suggestion(*kind, kinds), joinQuoted(kinds)));
        ok = false;
      } else {
        level.kind = *kind;
      }
    } else {
      ok = false;
    }
    if (auto capacity = integer(entry, path, "capacity_bytes", true, 1))
      level.capacityBytes = *capacity;
    else
      ok = false;
    if (auto owner = computeRef(entry, path, "owner")) {
      level.owner = *owner;
      int depth =
          int(std::find(computeNames.begin(), computeNames.end(), *owner) -
              computeNames.begin());
      if (depth < ownerDepth)
        error(childPath(path, "owner"),
              fmt::format("expected memory levels farthest first: owner "
                          "\"{}\" is outside the owner \"{}\" of {}",
                          *owner, computeNames[size_t(ownerDepth)],
                          ownerDepthPath));
      else {
        ownerDepth = depth;
        ownerDepthPath = path;
      }
    } else {
      ok = false;
    }
    if (auto bandwidth =
            number(entry, path, "bandwidth_bytes_per_s", true, Bound::Positive))
      level.bandwidthBytesPerS = *bandwidth;
    else
      ok = false;
    if (auto latency =
            number(entry, path, "latency_cycles", true, Bound::NonNegative))
      level.latencyCycles = *latency;
    else
      ok = false;
    if (entry.contains("alignment_bytes")) {
      auto alignment = integer(entry, path, "alignment_bytes", false, 1);
      if (alignment && !isPowerOfTwo(*alignment)) {
        error(childPath(path, "alignment_bytes"),
              fmt::format("expected a power of two, got {}", *alignment));
        alignment.reset();
      }
      if (alignment)
        level.alignmentBytes = *alignment;
      else
        ok = false;
    }
    if (entry.contains("banks")) {
      if (auto banks = integer(entry, path, "banks", false, 0))
        level.banks = *banks;
      else
        ok = false;
    }
    if (const json *engine = member(entry, path, "engine", false, "")) {
      level.engine = validateEngine(*engine, childPath(path, "engine"));
      ok = ok && level.engine.has_value();
    }
    if (ok)
      desc.memory.push_back(std::move(level));
  }
}

std::optional<MovementEngine>
Validator::validateEngine(const json &value, const std::string &path) {
  if (!expectObject(value, path, "an object describing a movement engine"))
    return std::nullopt;
  static const std::vector<std::string> known = {
      "kind",       "setup_latency_cycles", "bytes_per_cycle",
      "flit_bytes", "hop_latency_cycles",   "count"};
  MovementEngine engine;
  bool ok = true;
  if (auto kind = string(value, path, "kind", true)) {
    static const std::vector<std::string> kinds = {"dma", "tma", "noc"};
    if (std::find(kinds.begin(), kinds.end(), *kind) == kinds.end()) {
      error(childPath(path, "kind"),
            fmt::format("unknown engine kind \"{}\"{}: expected one of {}",
                        *kind, suggestion(*kind, kinds), joinQuoted(kinds)));
      ok = false;
    } else {
      engine.kind = *kind;
    }
  } else {
    ok = false;
  }
  if (value.contains("setup_latency_cycles")) {
    auto setup =
        number(value, path, "setup_latency_cycles", false, Bound::NonNegative);
    ok = ok && setup;
    engine.setupLatencyCycles = setup.value_or(0);
  }
  if (auto rate = number(value, path, "bytes_per_cycle", true, Bound::Positive))
    engine.bytesPerCycle = *rate;
  else
    ok = false;
  bool isNoc = engine.kind == "noc";
  if (isNoc || value.contains("flit_bytes")) {
    auto flit = integer(value, path, "flit_bytes", isNoc, isNoc ? 1 : 0);
    ok = ok && flit;
    engine.flitBytes = flit.value_or(0);
  }
  if (value.contains("hop_latency_cycles")) {
    auto hop =
        number(value, path, "hop_latency_cycles", false, Bound::NonNegative);
    ok = ok && hop;
    engine.hopLatencyCycles = hop.value_or(0);
  }
  if (value.contains("count")) {
    auto count = integer(value, path, "count", false, 1);
    ok = ok && count;
    engine.count = count.value_or(1);
  }
  engine.extra = json::object();
  for (auto it = value.begin(); it != value.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end())
      engine.extra[it.key()] = it.value();

  // The one engine-specific field the model reads.
  if (const json *table =
          member(value, path, "bandwidth_by_transfer_size", false, "")) {
    std::string tablePath = childPath(path, "bandwidth_by_transfer_size");
    if (!table->is_array() || table->empty()) {
      error(tablePath, "expected a non-empty array of {bytes, "
                       "bytes_per_cycle}, got " +
                           describe(*table));
      ok = false;
    } else {
      int64_t previous = 0;
      for (size_t i = 0; i < table->size(); ++i) {
        std::string rowPath = childPath(tablePath, i);
        const json &row = (*table)[i];
        if (!expectObject(row, rowPath, "an object {bytes, bytes_per_cycle}")) {
          ok = false;
          continue;
        }
        checkKeys(row, rowPath, {"bytes", "bytes_per_cycle"});
        auto bytes = integer(row, rowPath, "bytes", true, 1);
        auto rate =
            number(row, rowPath, "bytes_per_cycle", true, Bound::Positive);
        ok = ok && bytes && rate;
        if (bytes && *bytes <= previous) {
          error(childPath(rowPath, "bytes"),
                fmt::format("expected transfer sizes in increasing order, "
                            "got {} after {}",
                            *bytes, previous));
          ok = false;
        }
        if (bytes)
          previous = *bytes;
      }
    }
  }
  if (!ok)
    return std::nullopt;
  return engine;
}

void Validator::validateVector(const json &doc, Description &desc) {
  const json *value = member(doc, "", "vector", false, "");
  if (!value)
    return;
  const std::string path = "/vector";
  if (!expectObject(*value, path, "an object describing the vector unit"))
    return;
  checkKeys(*value, path,
            {"width_bits", "element_types", "level", "fma_pipes",
             "fma_latency_cycles", "registers"});
  VectorUnit unit;
  bool ok = true;
  auto width = integer(*value, path, "width_bits", true, 1);
  if (width && (*width < 32 || !isPowerOfTwo(*width))) {
    error(childPath(path, "width_bits"),
          fmt::format("expected a power of two >= 32, got {}", *width));
    width.reset();
  }
  if (width)
    unit.widthBits = *width;
  else
    ok = false;
  if (const json *types = member(*value, path, "element_types", true,
                                 "a non-empty array of element types")) {
    std::string typesPath = childPath(path, "element_types");
    if (!types->is_array() || types->empty()) {
      error(typesPath, "expected a non-empty array of element types, got " +
                           describe(*types));
      ok = false;
    } else {
      std::map<std::string, std::string> seen;
      for (size_t i = 0; i < types->size(); ++i) {
        std::string typePath = childPath(typesPath, i);
        const json &type = (*types)[i];
        if (!type.is_string()) {
          error(typePath,
                "expected an element type name, got " + describe(type));
          ok = false;
          continue;
        }
        const std::string &name = type.get_ref<const std::string &>();
        if (!checkElementType(name, typePath)) {
          ok = false;
          continue;
        }
        checkUnique(seen, name, typePath, "element type");
        if (width && elementTypeBits(name) > *width) {
          error(typePath,
                fmt::format("element type {} ({} bits) is wider than the "
                            "vector: expected at most width_bits = {}",
                            name, elementTypeBits(name), *width));
          ok = false;
        }
        unit.elementTypes.push_back(name);
      }
    }
  } else {
    ok = false;
  }
  if (auto level = computeRef(*value, path, "level"))
    unit.level = *level;
  else
    ok = false;
  if (value->contains("fma_pipes")) {
    auto pipes = integer(*value, path, "fma_pipes", false, 1);
    ok = ok && pipes;
    unit.fmaPipes = pipes.value_or(1);
  }
  if (value->contains("fma_latency_cycles")) {
    auto latency = integer(*value, path, "fma_latency_cycles", false, 1);
    ok = ok && latency;
    unit.fmaLatencyCycles = latency.value_or(4);
  }
  if (value->contains("registers")) {
    auto registers = integer(*value, path, "registers", false, 1);
    ok = ok && registers;
    unit.registers = registers.value_or(16);
  }
  if (ok)
    desc.vector = std::move(unit);
}

void Validator::validateMatrix(const json &doc, Description &desc) {
  const json *matrix = member(doc, "", "matrix", false, "");
  if (!matrix)
    return;
  if (!matrix->is_array()) {
    error("/matrix", "expected an array of matrix intrinsics (possibly "
                     "empty), got " +
                         describe(*matrix));
    return;
  }
  for (size_t i = 0; i < matrix->size(); ++i) {
    std::string path = childPath("/matrix", i);
    std::optional<MatrixIntrinsic> intrinsic =
        validateIntrinsic((*matrix)[i], path);
    if (intrinsic)
      desc.matrix.push_back(std::move(*intrinsic));
  }
}

std::optional<MatrixIntrinsic>
Validator::validateIntrinsic(const json &value, const std::string &path) {
  if (!expectObject(value, path, "an object describing a matrix intrinsic"))
    return std::nullopt;
  checkKeys(value, path,
            {"name", "m", "n", "k", "a", "b", "acc", "level",
             "cycles_per_instruction", "layout", "fidelities",
             "fidelity_passes"});
  MatrixIntrinsic intrinsic;
  bool ok = true;
  if (auto name = identifier(value, path, "name", true)) {
    checkUnique(intrinsicNames, *name, childPath(path, "name"),
                "matrix intrinsic");
    intrinsic.name = *name;
  } else {
    ok = false;
  }
  auto m = integer(value, path, "m", true, 1);
  auto n = integer(value, path, "n", true, 1);
  auto k = integer(value, path, "k", true, 1);
  bool shapeKnown = m && n && k;
  ok = ok && shapeKnown;
  intrinsic.m = m.value_or(0);
  intrinsic.n = n.value_or(0);
  intrinsic.k = k.value_or(0);
  auto a = elementType(value, path, "a");
  auto b = elementType(value, path, "b");
  auto acc = elementType(value, path, "acc");
  ok = ok && a && b && acc;
  intrinsic.aType = a.value_or("");
  intrinsic.bType = b.value_or("");
  intrinsic.accType = acc.value_or("");
  if (auto level = computeRef(value, path, "level"))
    intrinsic.level = *level;
  else
    ok = false;
  if (auto cycles =
          number(value, path, "cycles_per_instruction", true, Bound::Positive))
    intrinsic.cyclesPerInstruction = *cycles;
  else
    ok = false;

  if (const json *layout = member(value, path, "layout", false, "")) {
    std::string layoutPath = childPath(path, "layout");
    if (expectObject(*layout, layoutPath, "an object of layout constraints")) {
      size_t before = errors.size();
      validateLayout(*layout, layoutPath, intrinsic, shapeKnown);
      ok = ok && errors.size() == before;
      intrinsic.layout = *layout;
    } else {
      ok = false;
    }
  }

  const json *fidelities = member(value, path, "fidelities", false, "");
  const json *passes = member(value, path, "fidelity_passes", false, "");
  if (fidelities) {
    std::string fidelitiesPath = childPath(path, "fidelities");
    if (!fidelities->is_array()) {
      error(fidelitiesPath, "expected an array of fidelity names, got " +
                                describe(*fidelities));
      ok = false;
    } else {
      std::map<std::string, std::string> seen;
      for (size_t i = 0; i < fidelities->size(); ++i) {
        std::string fidelityPath = childPath(fidelitiesPath, i);
        const json &fidelity = (*fidelities)[i];
        if (!fidelity.is_string() ||
            !isIdentifier(fidelity.get_ref<const std::string &>())) {
          error(fidelityPath,
                "expected a fidelity name, got " + describe(fidelity));
          ok = false;
          continue;
        }
        const std::string &name = fidelity.get_ref<const std::string &>();
        checkUnique(seen, name, fidelityPath, "fidelity");
        intrinsic.fidelities.push_back(name);
      }
    }
  }
  if (!intrinsic.fidelities.empty() && !passes) {
    error(childPath(path, "fidelity_passes"),
          "missing required field \"fidelity_passes\": expected an object "
          "giving the passes of each fidelity");
    ok = false;
  }
  if (passes) {
    std::string passesPath = childPath(path, "fidelity_passes");
    if (expectObject(*passes, passesPath,
                     "an object {fidelity: passes >= 1}")) {
      for (auto it = passes->begin(); it != passes->end(); ++it) {
        if (std::find(intrinsic.fidelities.begin(), intrinsic.fidelities.end(),
                      it.key()) == intrinsic.fidelities.end()) {
          error(childPath(passesPath, it.key()),
                fmt::format("unknown fidelity \"{}\": expected one of the "
                            "names listed in \"fidelities\" ({})",
                            it.key(),
                            intrinsic.fidelities.empty()
                                ? std::string("none")
                                : joinQuoted(intrinsic.fidelities)));
          ok = false;
          continue;
        }
        if (auto count = integer(*passes, passesPath, it.key(), true, 1))
          intrinsic.fidelityPasses[it.key()] = *count;
        else
          ok = false;
      }
      for (const std::string &fidelity : intrinsic.fidelities)
        if (!passes->contains(fidelity)) {
          error(childPath(passesPath, fidelity),
                fmt::format("missing required field \"{}\": expected the "
                            "passes of fidelity {} (an integer >= 1)",
                            fidelity, fidelity));
          ok = false;
        }
    } else {
      ok = false;
    }
  }
  if (!ok)
    return std::nullopt;
  return intrinsic;
}

/// A 2-element array of positive integers, e.g. "tile": [32, 32].
std::optional<std::pair<int64_t, int64_t>> shape2(Validator &v, const json &obj,
                                                  const std::string &path,
                                                  llvm::StringRef key) {
  const json *value = v.member(obj, path, key, false, "");
  if (!value)
    return std::nullopt;
  std::optional<int64_t> rows, cols;
  if (value->is_array() && value->size() == 2) {
    rows = Validator::asInteger((*value)[0]);
    cols = Validator::asInteger((*value)[1]);
  }
  if (!rows || !cols || *rows < 1 || *cols < 1) {
    v.error(childPath(path, key),
            fmt::format("expected [rows, cols] of two positive integers, got "
                        "{}",
                        describe(*value)));
    return std::nullopt;
  }
  return std::make_pair(*rows, *cols);
}

bool dividesEitherWay(int64_t a, int64_t b) { return a % b == 0 || b % a == 0; }

void Validator::validateLayout(const json &layout, const std::string &path,
                               const MatrixIntrinsic &intrinsic,
                               bool shapeKnown) {
  auto tile = shape2(*this, layout, path, "tile");
  auto face = shape2(*this, layout, path, "face");
  if (tile && face &&
      (tile->first % face->first != 0 || tile->second % face->second != 0))
    error(childPath(path, "face"),
          fmt::format("face [{}, {}] does not divide tile [{}, {}]: expected "
                      "tile dims to be multiples of the face dims",
                      face->first, face->second, tile->first, tile->second));
  if (!tile || !shapeKnown)
    return;
  // A is m x k, B is k x n, C is m x n, all stored as tiles of
  // tile.rows x tile.cols: each of m, n, k must be a multiple of the tile dim
  // it meets (whole tiles) or divide it (a sub-tile operation).
  int64_t rows = tile->first, cols = tile->second;
  bool mOk = dividesEitherWay(intrinsic.m, rows);
  bool nOk = dividesEitherWay(intrinsic.n, cols);
  bool kOk = dividesEitherWay(intrinsic.k, cols) &&
             dividesEitherWay(intrinsic.k, rows);
  if (!(mOk && nOk && kOk))
    error(path,
          fmt::format("intrinsic shape does not divide its tile constraints: "
                      "expected m (vs tile rows), n (vs tile cols) and k (vs "
                      "both) each to be a multiple or a divisor of tile [{}, "
                      "{}], got m={} n={} k={}",
                      rows, cols, intrinsic.m, intrinsic.n, intrinsic.k));
}

void Validator::validatePeaks(const json &doc, Description &desc) {
  const json *peaks = member(doc, "", "peaks_flops", false, "");
  if (!peaks)
    return;
  const std::string path = "/peaks_flops";
  if (!expectObject(*peaks, path, "an object {element type: FLOP/s}"))
    return;
  for (auto it = peaks->begin(); it != peaks->end(); ++it) {
    if (isExtensionKey(it.key()))
      continue;
    if (!checkElementType(it.key(), childPath(path, it.key())))
      continue;
    if (auto flops = number(*peaks, path, it.key(), true, Bound::Positive))
      desc.peakFlops[it.key()] = *flops;
  }
}

void Validator::crossCheckPeaks(const Description &desc) {
  if (desc.peakFlops.empty())
    return;
  DerivedModel model = deriveModel(desc);
  for (const auto &[type, given] : desc.peakFlops) {
    std::string path = childPath("/peaks_flops", type);
    double derived = model.peakFlops(type);
    if (!(derived > 0)) {
      error(path, fmt::format("given peak {:.4g} FLOP/s for {} but no vector "
                              "or matrix unit computes {}: expected a type "
                              "the description's units support",
                              given, type, type));
      continue;
    }
    double ratio = given > derived ? given / derived : derived / given;
    if (ratio > 2.0)
      error(path,
            fmt::format("given peak {:.4g} FLOP/s differs from the derived "
                        "{:.4g} FLOP/s by {:.2f}x: expected them within 2x",
                        given, derived, ratio));
  }
}

/// Tracks object keys while parsing to report duplicates, which nlohmann
/// would otherwise resolve silently by keeping the last value.
class DuplicateKeyTracker {
public:
  explicit DuplicateKeyTracker(std::vector<Diagnostic> &errors)
      : errors(errors) {}

  bool operator()(int, json::parse_event_t event, json &parsed) {
    switch (event) {
    case json::parse_event_t::object_start:
      childStarted();
      stack.push_back({false, 0, {}, {}});
      break;
    case json::parse_event_t::array_start:
      childStarted();
      stack.push_back({true, 0, {}, {}});
      break;
    case json::parse_event_t::key: {
      if (stack.empty() || !parsed.is_string())
        break;
      Frame &frame = stack.back();
      frame.key = parsed.get<std::string>();
      if (!frame.keys.insert(frame.key).second)
        errors.push_back({currentPath(),
                          fmt::format("duplicate key \"{}\": expected each "
                                      "key once in an object",
                                      frame.key),
                          0, 0});
      break;
    }
    case json::parse_event_t::value:
      childStarted();
      break;
    case json::parse_event_t::object_end:
    case json::parse_event_t::array_end:
      if (!stack.empty())
        stack.pop_back();
      break;
    }
    return true;
  }

private:
  struct Frame {
    bool isArray;
    size_t nextIndex;
    std::string key;
    std::set<std::string> keys;
  };

  void childStarted() {
    if (!stack.empty() && stack.back().isArray)
      ++stack.back().nextIndex;
  }

  std::string currentPath() const {
    std::string path;
    for (const Frame &frame : stack)
      path = frame.isArray ? childPath(path, frame.nextIndex - 1)
                           : childPath(path, frame.key);
    return path;
  }

  std::vector<Diagnostic> &errors;
  std::vector<Frame> stack;
};

/// nlohmann's message without its "[json.exception...] parse error at line
/// L, column C: " prefix (the position is reported separately).
std::string parseErrorMessage(const std::string &what) {
  size_t column = what.find("column ");
  size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
  if (colon != std::string::npos)
    return what.substr(colon + 2);
  size_t bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

} // namespace

LoadResult loadDescriptionJson(const nlohmann::json &doc,
                               llvm::StringRef sourceName,
                               const LoadOptions &options) {
  LoadResult result;
  result.sourceName = sourceName.str();
  try {
    if (!withinDepth(doc, kMaxDepth)) {
      result.errors.push_back(
          {"",
           fmt::format("document nests too deeply: expected at most {} "
                       "levels of arrays and objects",
                       kMaxDepth),
           0, 0});
      return result;
    }
    Validator validator(options);
    Description desc;
    validator.validate(doc, desc);
    result.errors = std::move(validator.errors);
    if (result.errors.empty()) {
      desc.document = doc;
      result.description = std::move(desc);
    }
  } catch (const std::exception &e) {
    result.description.reset();
    result.errors.push_back(
        {"", fmt::format("internal error while validating: {}", e.what()), 0,
         0});
  }
  return result;
}

LoadResult parseDescription(llvm::StringRef text, llvm::StringRef sourceName,
                            const LoadOptions &options) {
  LoadResult result;
  result.sourceName = sourceName.str();
  std::vector<Diagnostic> duplicates;
  json doc;
  try {
    DuplicateKeyTracker tracker(duplicates);
    doc = json::parse(text.begin(), text.end(), std::ref(tracker));
  } catch (const json::parse_error &e) {
    // e.byte is the 1-based index of the character that stopped the parser.
    size_t offset = std::min<size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    llvm::StringRef before = text.take_front(offset);
    size_t lastNewline = before.rfind('\n');
    Diagnostic diag;
    diag.line = int(std::min<size_t>(before.count('\n') + 1, INT32_MAX));
    diag.column = int(std::min<size_t>(lastNewline == llvm::StringRef::npos
                                           ? offset + 1
                                           : offset - lastNewline,
                                       INT32_MAX));
    diag.message = "malformed JSON: " + parseErrorMessage(e.what());
    result.errors.push_back(std::move(diag));
    return result;
  } catch (const std::exception &e) {
    result.errors.push_back(
        {"",
         fmt::format("malformed JSON: {}: expected a JSON document", e.what()),
         0, 0});
    return result;
  }
  LoadResult loaded = loadDescriptionJson(doc, sourceName, options);
  if (!duplicates.empty()) {
    loaded.description.reset();
    loaded.errors.insert(loaded.errors.begin(), duplicates.begin(),
                         duplicates.end());
  }
  return loaded;
}

LoadResult loadDescriptionFile(llvm::StringRef path,
                               const LoadOptions &options) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    LoadResult result;
    result.sourceName = path.str();
    result.errors.push_back(
        {"",
         fmt::format("cannot read the file ({}): expected a readable JSON "
                     "hardware description",
                     buffer.getError().message()),
         0, 0});
    return result;
  }
  return parseDescription((*buffer)->getBuffer(), path, options);
}

} // namespace strata::hw
