//===- BundleLoaderTest.cpp - Bad bundles give errors, not crashes --------===//
//
// The runtime reads bundles from files that may be truncated or edited by
// hand: each case is one clear error naming the file.
//
//===----------------------------------------------------------------------===//
#include "BundleFormat.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

using namespace strata;
using namespace strata::nvidia;

namespace {

std::string seedBundle() {
  std::ifstream in(STRATA_BUNDLE_SEED);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(BundleLoader, ReadsTheSeedWithItsManifest) {
  auto b = Bundle::parse(seedBundle(), "seed.json");
  ASSERT_TRUE(b.ok()) << b.status().message();
  ASSERT_TRUE(b->manifest.has_value());
  EXPECT_EQ(b->manifest->functions.at(0).signature.name, "mlp");
  EXPECT_EQ(b->cubin.substr(0, 4), "\x7f"
                                   "ELF");
  // What the writer produces is recognized from its first bytes.
  EXPECT_TRUE(looksLikeBundle(b->serialize().substr(0, 64)));
  auto again = Bundle::parse(b->serialize(), "again.json");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->cubin, b->cubin);
}

TEST(BundleLoader, TruncatedFilesAreErrors) {
  std::string text = seedBundle();
  for (size_t cut : {size_t(0), size_t(1), text.size() / 3, text.size() / 2,
                     text.size() - 2}) {
    auto b = Bundle::parse(text.substr(0, cut), "cut.json");
    ASSERT_FALSE(b.ok()) << cut;
    EXPECT_NE(b.status().message().find("cut.json"), std::string::npos);
  }
}

TEST(BundleLoader, HandEditsAreErrors) {
  auto edited = [](const char *from, const char *to) {
    std::string text = seedBundle();
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, std::strlen(from), to);
    auto b = Bundle::parse(text, "edited.json");
    return b.ok() ? std::string() : b.status().message();
  };
  EXPECT_NE(edited("\"buffer\": 0", "\"buffer\": 9").find("out of range"),
            std::string::npos);
  EXPECT_NE(edited("\"grid\": [4, 2, 1]", "\"grid\": \"x\"").find("malformed"),
            std::string::npos);
  EXPECT_NE(edited("f0VMRgIBAQ==", "f0VM*gIBAQ==").find("not base64"),
            std::string::npos);
  EXPECT_NE(edited("\"bf16\", \"shape\"", "\"q4\", \"shape\"")
                .find("manifest functions[0].inputs[0].type"),
            std::string::npos);
  EXPECT_NE(edited("\"version\": 1", "\"version\": 2")
                .find("not a strata nvidia bundle"),
            std::string::npos);
}

TEST(BundleLoader, Base64RoundTrips) {
  for (std::string bytes :
       {std::string(), std::string("a"), std::string("ab"), std::string("abc"),
        std::string("\0\xff\x10\x7f", 4)}) {
    auto back = decodeBase64(encodeBase64(bytes));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, bytes);
  }
  EXPECT_FALSE(decodeBase64("abc").has_value());
  EXPECT_FALSE(decodeBase64("a=bc").has_value());
}

} // namespace
