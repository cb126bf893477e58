//===- ValidateUnits.cpp - Vector and matrix units of a description -------===//
//
// The vector and matrix units, their intrinsics and tile layouts, and the
// given peak FLOP/s checked against the ones derived from the units.
//
//===----------------------------------------------------------------------===//

#include "Validator.h"

#include "strata/HW/Model.h"

#include <fmt/format.h>

#include <algorithm>

namespace strata::hw::detail {

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
    if (intrinsic && !intrinsic->accumulator.empty())
      checkAccumulator(desc, *intrinsic, childPath(path, "accumulator"));
    if (intrinsic)
      desc.matrix.push_back(std::move(*intrinsic));
  }
}

// An intrinsic's accumulator is a scratchpad of the level that issues it:
// the schedules count the accumulators against its capacity.
void Validator::checkAccumulator(const Description &desc,
                                 const MatrixIntrinsic &intrinsic,
                                 const std::string &path) {
  std::vector<std::string> pads;
  for (const MemoryLevel &mem : desc.memory)
    if (mem.kind == "scratchpad" && mem.owner == intrinsic.level)
      pads.push_back(mem.name);
  if (std::find(pads.begin(), pads.end(), intrinsic.accumulator) == pads.end())
    error(path, fmt::format("unknown accumulator \"{}\": expected a "
                            "scratchpad owned by \"{}\" ({})",
                            intrinsic.accumulator, intrinsic.level,
                            pads.empty() ? std::string("there is none")
                                         : "one of " + joinQuoted(pads)));
}

std::optional<MatrixIntrinsic>
Validator::validateIntrinsic(const json &value, const std::string &path) {
  if (!expectObject(value, path, "an object describing a matrix intrinsic"))
    return std::nullopt;
  checkKeys(value, path,
            {"name", "m", "n", "k", "a", "b", "acc", "level",
             "cycles_per_instruction", "layout", "fidelities",
             "fidelity_passes", "input_mantissa_bits", "accumulator",
             "operand_bytes_per_cycle", "result_bytes_per_cycle",
             "default_fidelity", "operand_format"});
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
  if (value.contains("input_mantissa_bits")) {
    auto bits = integer(value, path, "input_mantissa_bits", false, 1);
    ok = ok && bits;
    intrinsic.inputMantissaBits = bits.value_or(0);
  }
  if (value.contains("accumulator")) {
    auto level = identifier(value, path, "accumulator", false);
    ok = ok && level;
    intrinsic.accumulator = level.value_or("");
  }
  if (value.contains("operand_format")) {
    auto format = identifier(value, path, "operand_format", false);
    ok = ok && format;
    intrinsic.operandFormat = format.value_or("");
  }
  if (value.contains("default_fidelity")) {
    auto fidelity = identifier(value, path, "default_fidelity", false);
    ok = ok && fidelity;
    if (fidelity &&
        std::find(intrinsic.fidelities.begin(), intrinsic.fidelities.end(),
                  *fidelity) == intrinsic.fidelities.end()) {
      error(childPath(path, "default_fidelity"),
            fmt::format("expected one of the intrinsic's fidelities ({}), "
                        "got \"{}\"",
                        intrinsic.fidelities.empty()
                            ? "it lists none"
                            : joinQuoted(intrinsic.fidelities),
                        *fidelity));
      ok = false;
    }
    intrinsic.defaultFidelity = fidelity.value_or("");
  }
  if (const json *feed =
          member(value, path, "operand_bytes_per_cycle", false, "")) {
    std::string feedPath = childPath(path, "operand_bytes_per_cycle");
    if (expectObject(*feed, feedPath,
                     "{\"one\": R, \"two\": R}: bytes per cycle of one "
                     "operand stream alone and of two together")) {
      checkKeys(*feed, feedPath, {"one", "two"});
      auto one = number(*feed, feedPath, "one", true, Bound::Positive);
      auto two = number(*feed, feedPath, "two", true, Bound::Positive);
      ok = ok && one && two;
      intrinsic.operandBytesPerCycleOne = one.value_or(0);
      intrinsic.operandBytesPerCycleTwo = two.value_or(0);
    } else {
      ok = false;
    }
  }
  if (value.contains("result_bytes_per_cycle")) {
    auto rate =
        number(value, path, "result_bytes_per_cycle", false, Bound::Positive);
    ok = ok && rate;
    intrinsic.resultBytesPerCycle = rate.value_or(0);
  }
  if (!ok)
    return std::nullopt;
  return intrinsic;
}

namespace {

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

} // namespace

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

} // namespace strata::hw::detail
