//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
#include "strata/rt/Npy.h"

#include <cstring>
#include <fstream>
#include <sstream>

using namespace strata::rt;

const char *strata::rt::npyDescr(ElementType type) {
  switch (type) {
  case ElementType::F64:
    return "<f8";
  case ElementType::F32:
    return "<f4";
  case ElementType::F16:
    return "<f2";
  case ElementType::BF16:
    return "<u2";
  case ElementType::I64:
    return "<i8";
  case ElementType::I32:
    return "<i4";
  case ElementType::I16:
    return "<i2";
  case ElementType::I8:
    return "|i1";
  case ElementType::I1:
    return "|b1";
  }
  return "?";
}

namespace {
/// The quoted value after `'key':` in a header dict, or "" when absent.
std::string field(const std::string &header, const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return "";
  size_t colon = header.find(':', at);
  if (colon == std::string::npos)
    return "";
  size_t begin = header.find_first_not_of(" ", colon + 1);
  if (begin == std::string::npos)
    return "";
  char open = header[begin];
  if (open == '\'' || open == '"') {
    size_t end = header.find(open, begin + 1);
    return end == std::string::npos ? ""
                                    : header.substr(begin + 1, end - begin - 1);
  }
  if (open == '(') {
    size_t end = header.find(')', begin);
    return end == std::string::npos ? ""
                                    : header.substr(begin, end - begin + 1);
  }
  size_t end = header.find_first_of(",}", begin);
  return header.substr(begin, end == std::string::npos ? std::string::npos
                                                       : end - begin);
}
} // namespace

Result<NpyArray> strata::rt::parseNpy(const std::string &bytes,
                                      const std::string &name) {
  auto fail = [&](const std::string &why) {
    return Status::error(name + ": not a valid .npy file: " + why);
  };
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return fail("no \\x93NUMPY magic");
  unsigned major = uint8_t(bytes[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = uint8_t(bytes[8]) | (size_t(uint8_t(bytes[9])) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail("truncated header");
    headerLength = 0;
    for (int i = 0; i < 4; ++i)
      headerLength |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
    headerStart = 12;
  } else {
    return fail("format version " + std::to_string(major) +
                " (expected 1, 2 or 3)");
  }
  if (headerLength > bytes.size() - headerStart)
    return fail("truncated header");
  std::string header = bytes.substr(headerStart, headerLength);
  NpyArray array;
  array.descr = field(header, "descr");
  if (array.descr.empty())
    return fail("no 'descr' in the header");
  if (field(header, "fortran_order") != "False")
    return fail("only C order (fortran_order False) is supported");
  std::string shape = field(header, "shape");
  if (shape.size() < 2 || shape.front() != '(')
    return fail("no 'shape' tuple in the header");
  std::stringstream dims(shape.substr(1, shape.size() - 2));
  std::string dim;
  int64_t count = 1;
  while (std::getline(dims, dim, ',')) {
    size_t first = dim.find_first_not_of(" ");
    if (first == std::string::npos)
      continue;
    char *end = nullptr;
    long long value = std::strtoll(dim.c_str() + first, &end, 10);
    if (end == dim.c_str() + first || value < 0 || value > (1ll << 40))
      return fail("bad shape " + shape);
    array.shape.push_back(value);
    count *= value;
    if (count > (1ll << 40))
      return fail("shape " + shape + " is too large");
  }
  size_t itemBytes = 0;
  if (array.descr.size() >= 3)
    itemBytes = std::strtoul(array.descr.c_str() + 2, nullptr, 10);
  if (itemBytes == 0 || itemBytes > 16)
    return fail("unsupported descr '" + array.descr + "'");
  if (array.descr[0] == '>' && itemBytes > 1)
    return fail("big-endian data ('" + array.descr + "') is not supported");
  size_t dataStart = headerStart + headerLength;
  size_t want = size_t(count) * itemBytes;
  if (bytes.size() - dataStart != want)
    return fail("expected " + std::to_string(want) + " bytes of data for " +
                shape + " '" + array.descr + "', found " +
                std::to_string(bytes.size() - dataStart));
  array.data.assign(bytes.begin() + long(dataStart), bytes.end());
  return array;
}

Result<NpyArray> strata::rt::readNpy(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error("cannot read '" + path + "'");
  std::stringstream contents;
  contents << in.rdbuf();
  return parseNpy(contents.str(), path);
}

Status strata::rt::writeNpy(const std::string &path, const TensorSpec &spec,
                            const void *data) {
  std::string shape = "(";
  for (int64_t dim : spec.shape)
    shape += std::to_string(dim) + ", ";
  if (spec.shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (spec.shape.size() == 1)
    shape.resize(shape.size() - 1); // "(n,)"
  shape += ")";
  std::string header = std::string("{'descr': '") + npyDescr(spec.type) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so that the data starts at a multiple of 64 bytes.
  size_t total = 10 + header.size() + 1;
  header += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::ofstream out(path, std::ios::binary);
  if (!out)
    return Status::error("cannot write '" + path + "'");
  char preamble[10] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
  preamble[8] = char(header.size() & 0xff);
  preamble[9] = char(header.size() >> 8);
  out.write(preamble, 10);
  out << header;
  out.write(static_cast<const char *>(data), long(spec.bytes()));
  if (!out)
    return Status::error("cannot write '" + path + "'");
  return Status::success();
}

Status strata::rt::checkNpy(const NpyArray &array, const TensorSpec &spec,
                            const std::string &what) {
  bool typeMatches = array.descr == npyDescr(spec.type);
  // Accepted spellings: '=' and '|' for native/byte order, and bf16's bits.
  std::string plain =
      array.descr.size() > 1 ? array.descr.substr(1) : array.descr;
  std::string expected = std::string(npyDescr(spec.type)).substr(1);
  if (plain == expected && array.descr[0] != '>')
    typeMatches = true;
  if (spec.type == ElementType::BF16 &&
      (plain == "u2" || plain == "i2" || plain == "V2"))
    typeMatches = true;
  auto shapeText = [](const std::vector<int64_t> &shape) {
    std::string text;
    for (int64_t dim : shape)
      text += (text.empty() ? "" : "x") + std::to_string(dim);
    return text.empty() ? std::string("scalar") : text;
  };
  if (!typeMatches || array.shape != spec.shape)
    return Status::error(what + ": expected " + shapeText(spec.shape) + " " +
                         elementTypeName(spec.type) + " ('" +
                         npyDescr(spec.type) + "'), found " +
                         shapeText(array.shape) + " '" + array.descr + "'");
  return Status::success();
}
