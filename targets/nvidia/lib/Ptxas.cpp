//===- Ptxas.cpp - Assembling PTX with the CUDA toolkit's ptxas -----------===//
#include "Ptxas.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace strata::nvidia;

std::optional<std::string> strata::nvidia::findPtxas() {
  if (const char *explicitPath = std::getenv("STRATA_PTXAS"))
    return llvm::sys::fs::can_execute(explicitPath)
               ? std::optional<std::string>(explicitPath)
               : std::nullopt;
  const char *cudaPath = std::getenv("CUDA_PATH");
  for (const char *root : {cudaPath, "/usr/local/cuda"}) {
    if (!root)
      continue;
    llvm::SmallString<128> path(root);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return path.str().str();
  }
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return std::nullopt;
}

std::optional<std::string> strata::nvidia::findLibdevice() {
  for (const char *var : {"CUDA_PATH", "CUDA_HOME"}) {
    const char *root = std::getenv(var);
    if (!root)
      continue;
    llvm::SmallString<128> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(path))
      return path.str().str();
  }
  if (llvm::sys::fs::exists("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"))
    return std::string("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  return std::nullopt;
}

namespace {
/// Files removed when it goes out of scope.
struct TempFiles {
  llvm::SmallVector<llvm::SmallString<128>> paths;
  ~TempFiles() {
    for (auto &p : paths)
      llvm::sys::fs::remove(p);
  }
  llvm::Expected<llvm::StringRef> make(llvm::StringRef suffix) {
    llvm::SmallString<128> path;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("strata-ptxas", suffix, path))
      return llvm::createStringError(ec, "cannot create a temporary file");
    paths.push_back(path);
    return llvm::StringRef(paths.back());
  }
};

llvm::Expected<std::string> readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read " + path);
  return (*buffer)->getBuffer().str();
}
} // namespace

llvm::Expected<Assembled> strata::nvidia::runPtxas(const std::string &ptxas,
                                                   llvm::StringRef ptx,
                                                   llvm::StringRef arch) {
  TempFiles files;
  auto input = files.make("ptx");
  auto output = files.make("cubin");
  auto log = files.make("log");
  if (!input || !output || !log)
    return llvm::joinErrors(
        input.takeError(),
        llvm::joinErrors(output.takeError(), log.takeError()));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(*input, ec);
    if (ec)
      return llvm::createStringError(ec, "cannot write " + *input);
    os << ptx;
  }
  std::string archFlag = ("-arch=" + arch).str();
  llvm::SmallVector<llvm::StringRef> args = {ptxas,  archFlag, "-O3",  "-v",
                                             *input, "-o",     *output};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, *log, *log};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0,
                                     &message);
  auto text = readFile(*log);
  if (!text)
    return text.takeError();
  if (rc != 0)
    return llvm::createStringError(
        llvm::formatv("ptxas failed for {0} (exit {1}{2}):\n{3}", arch, rc,
                      message.empty() ? "" : ", " + message, *text)
            .str());
  auto cubin = readFile(*output);
  if (!cubin)
    return cubin.takeError();
  return Assembled{std::move(*cubin), std::move(*text)};
}

llvm::StringMap<KernelResources>
strata::nvidia::parsePtxasLog(llvm::StringRef log) {
  constexpr llvm::StringLiteral entry = "Compiling entry function '";
  llvm::StringMap<KernelResources> kernels;
  KernelResources *current = nullptr;
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    // "ptxas info : Compiling entry function 'k' for 'sm_90a'" starts a
    // kernel's report; its "Used ..." line follows the function properties.
    if (size_t at = line.find(entry); at != llvm::StringRef::npos) {
      llvm::StringRef name = line.drop_front(at + entry.size());
      current = &kernels[name.take_until([](char c) { return c == '\''; })];
      continue;
    }
    size_t at = line.find("Used ");
    if (!current || at == llvm::StringRef::npos)
      continue;
    // "Used 168 registers, used 1 barriers, 1024 bytes smem, 400 bytes
    // cmem[0]"; older versions write static shared memory as "N+M bytes".
    llvm::SmallVector<llvm::StringRef> fields;
    line.drop_front(at).split(fields, ',');
    for (llvm::StringRef field : fields) {
      field = field.trim();
      int64_t value = 0;
      if (field.consume_front("Used ") && field.consume_back(" registers")) {
        if (!field.getAsInteger(10, value))
          current->registers = value;
      } else if (field.consume_back(" bytes smem")) {
        llvm::SmallVector<llvm::StringRef> parts;
        field.split(parts, '+');
        current->staticSharedBytes = 0;
        for (llvm::StringRef part : parts)
          if (!part.trim().getAsInteger(10, value))
            current->staticSharedBytes += value;
      }
    }
  }
  return kernels;
}
