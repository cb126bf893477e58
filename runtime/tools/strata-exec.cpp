//===- strata-exec.cpp - Run a compiled artifact without the compiler -----===//
//
//   strata-exec ARTIFACT [--entry=F] [--io=DIR] [--input=@x.npy ...]
//               [--expected=@y.npy ...] [--tolerance=T] [--output=@o.npy ...]
//               [--bench] [--reps=N] [--warmup=N] [--seed=S] [--device=N]
//               [--json]
//
// Runs the functions of an artifact written by `strata-compile --emit=lib`
// (or `strata-run --save-io`) on the device it was compiled for, with
// inputs from .npy files or fresh random ones, outputs poisoned first;
// compares outputs with expected .npy files (relative L2 and max-abs
// errors, the manifest's tolerance); times repeated runs (median) and rates
// them against the roofline the manifest carries. Links no MLIR or LLVM.
// Exit status: 0 ok, 1 error, 2 a check failed, 77 no device here.
//
//===----------------------------------------------------------------------===//
#include "strata/rt/Check.h"
#include "strata/rt/Device.h"
#include "strata/rt/Npy.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace strata::rt;
using json = nlohmann::json;

namespace {

const char *kUsage =
    "usage: strata-exec ARTIFACT [--entry=F] [--io=DIR] [--input=@x.npy ...]\n"
    "                   [--expected=@y.npy ...] [--tolerance=T]\n"
    "                   [--output=@out.npy ...] [--bench] [--reps=N]\n"
    "                   [--warmup=N] [--seed=S] [--device=N] [--json]\n"
    "\n"
    "Runs a Strata artifact (strata-compile --emit=lib) on its device.\n"
    "  --entry=F       run only function F (default: every function)\n"
    "  --io=DIR        inputs and expected outputs saved by strata-run\n"
    "                  --save-io=DIR (DIR/io.json)\n"
    "  --input=@FILE   the next input (.npy); missing ones are random\n"
    "  --expected=@FILE  the next output's expected value (.npy)\n"
    "  --tolerance=T   the relative L2 error allowed (default: the\n"
    "                  manifest's, per output); also --check-tol=T\n"
    "  --output=@FILE  write the next output (.npy)\n"
    "  --bench         time --reps runs after --warmup runs (median)\n"
    "  --seed=S        seed of the random inputs (default 1)\n"
    "  --device=N      the device's ordinal (default 0)\n"
    "  --json          one JSON object per function on stdout\n"
    "Exit status: 0 ok, 1 error, 2 a check failed, 77 no device here.\n";

struct Options {
  std::string artifact, entry, io;
  std::vector<std::string> inputs, expected, outputs;
  double tolerance = -1;
  bool bench = false, json = false;
  int reps = 20, warmup = 3, device = 0;
  uint64_t seed = 1;
};

int usageError(const std::string &message) {
  std::cerr << "strata-exec: error: " << message << "\n"
            << "(strata-exec --help for the options)\n";
  return 1;
}

int failWith(const Status &status) {
  std::cerr << "strata-exec: " << (status.isNoDevice() ? "" : "error: ")
            << (status.isNoDevice() ? "no device to run on: " : "")
            << status.message() << "\n";
  return status.isNoDevice() ? kNoDeviceExitCode : 1;
}

/// A file argument, with or without the leading '@'.
std::string fileArgument(const std::string &value) {
  return !value.empty() && value[0] == '@' ? value.substr(1) : value;
}

bool parseNumber(const std::string &text, double &out) {
  char *end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && end && *end == '\0';
}

/// Parses argv; returns an exit status to stop with, or -1 to run.
int parseOptions(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    }
    if (arg.rfind("--", 0) != 0) {
      if (!o.artifact.empty())
        return usageError("more than one artifact: '" + o.artifact + "' and '" +
                          arg + "'");
      o.artifact = arg;
      continue;
    }
    std::string name = arg, value;
    bool hasValue = false;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      hasValue = true;
    }
    auto needValue = [&]() {
      if (hasValue)
        return true;
      if (i + 1 >= argc)
        return false;
      value = argv[++i];
      return true;
    };
    auto integer = [&](int &out, int least) {
      double number;
      if (!needValue() || !parseNumber(value, number) ||
          number != double(int(number)) || number < least)
        return usageError(name + ": expected an integer of at least " +
                          std::to_string(least) + ", got '" + value + "'");
      out = int(number);
      return -1;
    };
    if (name == "--bench" || name == "--json") {
      if (hasValue)
        return usageError(name + " takes no value");
      (name == "--bench" ? o.bench : o.json) = true;
    } else if (name == "--entry" || name == "--io") {
      if (!needValue() || value.empty())
        return usageError(name + ": expected a value");
      (name == "--entry" ? o.entry : o.io) = value;
    } else if (name == "--input" || name == "--expected" ||
               name == "--output") {
      if (!needValue() || fileArgument(value).empty())
        return usageError(name + ": expected @FILE.npy");
      (name == "--input"      ? o.inputs
       : name == "--expected" ? o.expected
                              : o.outputs)
          .push_back(fileArgument(value));
    } else if (name == "--tolerance" || name == "--check-tol") {
      if (!needValue() || !parseNumber(value, o.tolerance) || o.tolerance < 0)
        return usageError("--tolerance: expected a non-negative number, got '" +
                          value + "'");
    } else if (name == "--reps") {
      if (int s = integer(o.reps, 1); s >= 0)
        return s;
    } else if (name == "--warmup") {
      if (int s = integer(o.warmup, 0); s >= 0)
        return s;
    } else if (name == "--device") {
      if (int s = integer(o.device, 0); s >= 0)
        return s;
    } else if (name == "--seed") {
      double number;
      if (!needValue() || !parseNumber(value, number) || number < 0)
        return usageError("--seed: expected a non-negative integer, got '" +
                          value + "'");
      o.seed = uint64_t(number);
    } else {
      return usageError("unknown option '" + name + "'");
    }
  }
  if (o.artifact.empty())
    return usageError("no artifact given");
  return -1;
}

/// Where a function's inputs and expected outputs come from.
struct Io {
  std::vector<std::string> inputs;   ///< "" where random
  std::vector<std::string> expected; ///< "" where unchecked
  std::vector<std::string> outputs;  ///< "" where not written
  uint64_t seed = 1;
};

/// The files strata-run --save-io recorded for `function` in `dir`.
Result<Io> ioFromDirectory(const std::string &dir, const std::string &function,
                           uint64_t seed) {
  std::string path = dir + "/io.json";
  auto text = readFile(path);
  if (!text.ok())
    return Status::error("--io: " + text.status().message() +
                         " (written by strata-run --save-io=DIR)");
  json doc = json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return Status::error(path + ": not a JSON object");
  Io io;
  io.seed = doc.value("seed", seed);
  if (!doc.contains("functions") || !doc["functions"].is_object() ||
      !doc["functions"].contains(function))
    return Status::error(path + ": no entry functions." + function);
  const json &f = doc["functions"][function];
  auto files = [&](const char *key, std::vector<std::string> &out) {
    if (!f.is_object() || !f.contains(key) || !f[key].is_array())
      return Status::error(path + ": functions." + function + "." + key +
                           ": expected an array of file names or null");
    for (const json &name : f[key])
      out.push_back(name.is_string() ? dir + "/" + name.get<std::string>()
                                     : std::string());
    return Status::success();
  };
  if (Status s = files("inputs", io.inputs); !s.ok())
    return s;
  if (Status s = files("expected", io.expected); !s.ok())
    return s;
  return io;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string format(const char *fmt, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), fmt, value);
  return text;
}

/// Runs one function; returns 0, 1 (error) or 2 (a check failed).
int runFunction(Device &device, Executable &exe, const FunctionInfo &info,
                const Io &io, const Options &o) {
  const Signature &sig = info.signature;
  auto fail = [&](const Status &s) {
    return failWith(s.withContext("'" + sig.name + "'"));
  };
  std::vector<std::vector<char>> inputs;
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    const TensorSpec &spec = sig.inputs[i];
    std::string file = i < io.inputs.size() ? io.inputs[i] : "";
    if (file.empty()) {
      inputs.emplace_back(spec.bytes());
      fillRandom(inputs.back().data(), spec, inputSeed(io.seed, i));
      continue;
    }
    auto array = readNpy(file);
    if (!array.ok())
      return fail(array.status());
    if (Status s = checkNpy(*array, spec,
                            "input #" + std::to_string(i) + " (" + file + ")");
        !s.ok())
      return fail(s);
    inputs.push_back(std::move(array->data));
  }
  if (io.inputs.size() > sig.inputs.size())
    return fail(Status::error(std::to_string(io.inputs.size()) +
                              " inputs given, the function takes " +
                              std::to_string(sig.inputs.size())));
  if (io.expected.size() > sig.outputs.size() ||
      io.outputs.size() > sig.outputs.size())
    return fail(Status::error("more output files given than the function's " +
                              std::to_string(sig.outputs.size()) + " outputs"));
  std::vector<NpyArray> expected(sig.outputs.size());
  for (size_t i = 0; i < io.expected.size(); ++i) {
    if (io.expected[i].empty())
      continue;
    auto array = readNpy(io.expected[i]);
    if (!array.ok())
      return fail(array.status());
    if (Status s = checkNpy(*array, sig.outputs[i],
                            "expected output #" + std::to_string(i) + " (" +
                                io.expected[i] + ")");
        !s.ok())
      return fail(s);
    expected[i] = std::move(*array);
  }

  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<void *> args;
  auto add = [&](size_t bytes, const void *contents) {
    auto buffer = device.allocate(bytes);
    if (!buffer.ok())
      return buffer.status();
    args.push_back((*buffer)->address());
    buffers.push_back(std::move(*buffer));
    return device.copyToDevice(*buffers.back(), contents, bytes);
  };
  for (size_t i = 0; i < sig.inputs.size(); ++i)
    if (Status s = add(inputs[i].size(), inputs[i].data()); !s.ok())
      return fail(s);
  std::vector<std::vector<char>> outputs;
  for (const TensorSpec &spec : sig.outputs) {
    outputs.emplace_back(spec.bytes());
    poison(outputs.back().data(), spec);
    if (Status s = add(spec.bytes(), outputs.back().data()); !s.ok())
      return fail(s);
  }
  if (Status s = device.launch(exe, sig, args); !s.ok())
    return fail(s);
  if (Status s = device.synchronize(); !s.ok())
    return fail(s);
  size_t first = sig.inputs.size();
  for (size_t i = 0; i < outputs.size(); ++i)
    if (Status s = device.copyToHost(outputs[i].data(), *buffers[first + i],
                                     outputs[i].size());
        !s.ok())
      return fail(s);

  json record = {{"function", sig.name}, {"checks", json::array()}};
  bool passed = true;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i < io.outputs.size() && !io.outputs[i].empty())
      if (Status s = writeNpy(io.outputs[i], sig.outputs[i], outputs[i].data());
          !s.ok())
        return fail(s);
    if (expected[i].data.empty() && sig.outputs[i].bytes() > 0)
      continue;
    double tol = o.tolerance >= 0 ? o.tolerance
                 : i < info.tolerances.size() && info.tolerances[i] > 0
                     ? info.tolerances[i]
                     : tolerance(sig.outputs[i].type);
    Comparison cmp = compare(outputs[i].data(), expected[i].data.data(),
                             sig.outputs[i], tol);
    passed &= cmp.passed;
    record["checks"].push_back({{"output", i},
                                {"relative_error", cmp.relativeError},
                                {"max_abs_error", cmp.maxAbsError},
                                {"non_finite", cmp.nonFinite},
                                {"tolerance", tol},
                                {"passed", cmp.passed}});
    if (!o.json)
      std::cout << sig.name << ": check result #" << i << " ("
                << sig.outputs[i].str() << "): relative error "
                << format("%.2e", cmp.relativeError) << ", max abs error "
                << format("%.2e", cmp.maxAbsError) << " (tolerance "
                << format("%.1e", tol) << ")"
                << (cmp.nonFinite ? ", " + std::to_string(cmp.nonFinite) +
                                        " non-finite values"
                                  : std::string())
                << (cmp.passed ? " PASS" : " FAIL") << "\n";
  }
  if (!o.json)
    std::cout << sig.name << ": ran on " << device.name() << "\n";

  if (o.bench) {
    for (int rep = 0; rep < o.warmup; ++rep)
      if (Status s = device.launch(exe, sig, args); !s.ok())
        return fail(s);
    std::unique_ptr<Timer> timer = device.createTimer();
    std::vector<double> times;
    for (int rep = 0; rep < o.reps; ++rep) {
      timer->start();
      if (Status s = device.launch(exe, sig, args); !s.ok())
        return fail(s);
      times.push_back(timer->stop());
    }
    if (Status s = device.synchronize(); !s.ok())
      return fail(s);
    double seconds = median(times);
    double fraction =
        info.rooflineSeconds > 0 ? info.rooflineSeconds / seconds : 0;
    record["median_ms"] = seconds * 1e3;
    record["min_ms"] = *std::min_element(times.begin(), times.end()) * 1e3;
    record["reps"] = o.reps;
    record["gflops"] = info.flops / seconds * 1e-9;
    record["gbs"] = info.bytes / seconds * 1e-9;
    record["roofline_fraction"] = fraction;
    if (!o.json)
      std::cout << sig.name << ": median " << format("%.3f", seconds * 1e3)
                << " ms over " << o.reps << " runs, "
                << format("%.2f", info.flops / seconds * 1e-9) << " GFLOP/s, "
                << format("%.2f", info.bytes / seconds * 1e-9) << " GB/s, "
                << format("%.1f", 100 * fraction) << "% of the roofline of "
                << exe.manifest().chip << "\n";
  }
  if (o.json)
    std::cout << record.dump() << "\n";
  return passed ? 0 : 2;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (int status = parseOptions(argc, argv, o); status >= 0)
    return status;
  auto kind = artifactKindOf(o.artifact);
  if (!kind.ok())
    return failWith(kind.status());
  if ((*kind)->validate)
    if (Status s = (*kind)->validate(o.artifact); !s.ok())
      return failWith(s);
  auto device = (*kind)->createDevice(o.device);
  if (!device.ok())
    return failWith(device.status().withContext(o.artifact));
  auto exe = (*device)->load(o.artifact);
  if (!exe.ok())
    return failWith(exe.status());
  const Manifest &manifest = (*exe)->manifest();
  if (manifest.functions.empty())
    return failWith(Status::error(
        o.artifact + ": the artifact has no manifest (its functions' "
                     "signatures): write it with strata-compile --emit=lib"));
  std::vector<const FunctionInfo *> functions;
  for (const FunctionInfo &f : manifest.functions)
    if (o.entry.empty() || f.signature.name == o.entry)
      functions.push_back(&f);
  if (functions.empty()) {
    std::string names;
    for (const FunctionInfo &f : manifest.functions)
      names += (names.empty() ? "" : ", ") + f.signature.name;
    return failWith(Status::error("--entry: '" + o.artifact +
                                  "' has no function '" + o.entry +
                                  "' (it has: " + names + ")"));
  }
  bool perFunctionFiles =
      !o.inputs.empty() || !o.expected.empty() || !o.outputs.empty();
  if (perFunctionFiles && functions.size() > 1)
    return usageError("--input, --expected and --output name one function's "
                      "buffers; choose it with --entry (the artifact has " +
                      std::to_string(functions.size()) + " functions)");
  int status = 0;
  for (const FunctionInfo *f : functions) {
    Io io;
    io.seed = o.seed;
    if (!o.io.empty()) {
      auto fromDir = ioFromDirectory(o.io, f->signature.name, o.seed);
      if (!fromDir.ok())
        return failWith(fromDir.status());
      io = std::move(*fromDir);
    }
    if (!o.inputs.empty())
      io.inputs = o.inputs;
    if (!o.expected.empty())
      io.expected = o.expected;
    io.outputs = o.outputs;
    int result = runFunction(**device, **exe, *f, io, o);
    if (result == 1 || result == kNoDeviceExitCode)
      return result;
    status = std::max(status, result);
  }
  return status;
}
