//===- Device.cpp - Defaults of the runtime API and the kind registry -----===//
#include "strata/rt/Device.h"

#include <chrono>
#include <fstream>
#include <sstream>

using namespace strata::rt;

Buffer::~Buffer() = default;
Executable::~Executable() = default;
Timer::~Timer() = default;
Device::~Device() = default;

namespace {
/// Wall-clock timer for devices whose launches are synchronous.
class WallTimer final : public Timer {
public:
  void start() override { begin = std::chrono::steady_clock::now(); }
  double stop() override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         begin)
        .count();
  }

private:
  std::chrono::steady_clock::time_point begin;
};

std::vector<ArtifactKind> &registry() {
  static std::vector<ArtifactKind> kinds;
  return kinds;
}
} // namespace

std::unique_ptr<Timer> strata::rt::createWallTimer() {
  return std::make_unique<WallTimer>();
}

std::unique_ptr<Timer> Device::createTimer() { return createWallTimer(); }

bool strata::rt::registerArtifactKind(ArtifactKind kind) {
  registry().push_back(std::move(kind));
  return true;
}

const std::vector<ArtifactKind> &strata::rt::artifactKinds() {
  return registry();
}

Result<std::string> strata::rt::readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error("cannot read '" + path + "'");
  std::stringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

Result<const ArtifactKind *>
strata::rt::artifactKindOf(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error("cannot read '" + path + "'");
  std::string head(4096, '\0');
  in.read(head.data(), long(head.size()));
  head.resize(size_t(in.gcount()));
  for (const ArtifactKind &kind : registry())
    if (kind.recognizes(head))
      return &kind;
  std::string names;
  for (const ArtifactKind &kind : registry())
    names += (names.empty() ? "" : ", ") + kind.name;
  return Status::error("'" + path +
                       "' is not an artifact this runtime can run (expected "
                       "one written by strata-compile --emit=lib: " +
                       names + ")");
}
