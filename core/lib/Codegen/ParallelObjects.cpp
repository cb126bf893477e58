//===- ParallelObjects.cpp - Object code of a module on several cores ----===//
//
// A whole network lowers to one module whose code generation (instruction
// selection, scheduling, register allocation) took most of a compile on one
// core (EfficientNet-B0: 10 of 23 s). LLVM contexts are not shared between
// threads, so each part of llvm::SplitModule travels as bitcode to a thread
// that parses it into a context of its own and emits its object file.
//
//===----------------------------------------------------------------------===//
#include "ParallelObjects.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include "llvm/Support/Threading.h"

#include <algorithm>
#include <thread>

using namespace llvm;

static cl::opt<unsigned> codegenThreads(
    "codegen-threads",
    cl::desc("Host code generation in this many parts on as many threads "
             "(default 0: one per usable core, for modules of 20000 "
             "instructions and more; 1: the module whole)"),
    cl::init(0), cl::Hidden);

/// Below this many instructions a module is generated whole.
static constexpr size_t kMinSplitInstructions = 20000;

unsigned strata::codegenParts(const Module &module) {
  size_t instructions = 0, functions = 0;
  for (const Function &fn : module) {
    if (fn.isDeclaration())
      continue;
    ++functions;
    instructions += fn.getInstructionCount();
  }
  if (functions < 2)
    return 1;
  if (codegenThreads != 0)
    return unsigned(std::min<size_t>(codegenThreads, functions));
  if (instructions < kMinSplitInstructions)
    return 1;
  // The cores this process may run on (its affinity mask).
  unsigned cores = llvm::hardware_concurrency().compute_thread_count();
  return unsigned(std::min<size_t>({cores, functions, 16}));
}

Expected<std::vector<std::string>> strata::emitObjectsInParallel(
    Module &module, unsigned parts,
    const std::function<std::unique_ptr<TargetMachine>()> &makeTargetMachine,
    const std::function<Error(Module &, TargetMachine &, StringRef)>
        &emitObject) {
  std::vector<SmallVector<char, 0>> bitcode;
  SplitModule(
      module, parts,
      [&](std::unique_ptr<Module> part) {
        bitcode.emplace_back();
        raw_svector_ostream out(bitcode.back());
        WriteBitcodeToFile(*part, out);
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);

  std::vector<std::string> paths(bitcode.size());
  std::vector<std::string> errors(bitcode.size());
  for (size_t i = 0; i < bitcode.size(); ++i) {
    SmallString<128> path;
    if (std::error_code ec =
            sys::fs::createTemporaryFile("strata-part", "o", path)) {
      for (const std::string &made : paths)
        if (!made.empty())
          sys::fs::remove(made);
      return createStringError("cannot create a temporary object file: " +
                               ec.message());
    }
    paths[i] = path.str().str();
  }
  auto generate = [&](size_t i) {
    LLVMContext context;
    MemoryBufferRef buffer(StringRef(bitcode[i].data(), bitcode[i].size()),
                           "part");
    Expected<std::unique_ptr<Module>> part = parseBitcodeFile(buffer, context);
    if (!part) {
      errors[i] = toString(part.takeError());
      return;
    }
    std::unique_ptr<TargetMachine> tm = makeTargetMachine();
    if (!tm) {
      errors[i] = "no host code generator";
      return;
    }
    if (Error err = emitObject(**part, *tm, paths[i]))
      errors[i] = toString(std::move(err));
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < bitcode.size(); ++i)
    threads.emplace_back(generate, i);
  if (!bitcode.empty())
    generate(0);
  for (std::thread &thread : threads)
    thread.join();
  for (const std::string &error : errors)
    if (!error.empty()) {
      for (const std::string &path : paths)
        sys::fs::remove(path);
      return createStringError("code generation of a module part failed: " +
                               error);
    }
  return paths;
}
