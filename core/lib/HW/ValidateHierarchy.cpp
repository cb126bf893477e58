//===- ValidateHierarchy.cpp - Compute and memory hierarchy ---------------===//
//
// The compute levels, the memory levels and the movement engines between
// them.
//
//===----------------------------------------------------------------------===//

#include "Validator.h"

#include <fmt/format.h>

#include <algorithm>

namespace strata::hw::detail {

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
               "banks", "async_copy", "bulk_tensor_copy", "engine"});
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
    if (entry.contains("async_copy")) {
      const json &async = entry["async_copy"];
      if (async.is_boolean()) {
        level.asyncCopy = async.get<bool>();
      } else {
        error(childPath(path, "async_copy"),
              "expected true or false, got " + describe(async));
        ok = false;
      }
    }
    if (entry.contains("bulk_tensor_copy")) {
      const json &bulk = entry["bulk_tensor_copy"];
      if (!bulk.is_boolean()) {
        error(childPath(path, "bulk_tensor_copy"),
              "expected true or false, got " + describe(bulk));
        ok = false;
      } else if (bulk.get<bool>() && !level.asyncCopy) {
        error(childPath(path, "bulk_tensor_copy"),
              "bulk tensor copies are asynchronous copies: expected "
              "\"async_copy\": true on this level too");
        ok = false;
      } else {
        level.bulkTensorCopy = bulk.get<bool>();
      }
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

} // namespace strata::hw::detail
