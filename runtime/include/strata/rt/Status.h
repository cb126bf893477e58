//===- Status.h - Errors of the runtime library -----------------*- C++ -*-===//
//
// The runtime links no LLVM, so it has its own error type: a Status is ok,
// an error with a message, or "no device" (the artifact is fine, this
// machine cannot run it: exit status 77, a skip). Result<T> is a value or a
// failed Status.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RT_STATUS_H
#define STRATA_RT_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace strata::rt {

/// The exit status of a tool when the device is absent (automake's skip).
constexpr int kNoDeviceExitCode = 77;

class Status {
public:
  enum class Code { Ok = 0, Error = 1, NoDevice = kNoDeviceExitCode };

  Status() = default;
  static Status success() { return Status(); }
  static Status error(std::string message) {
    return Status(Code::Error, std::move(message));
  }
  static Status noDevice(std::string message) {
    return Status(Code::NoDevice, std::move(message));
  }

  bool ok() const { return code_ == Code::Ok; }
  bool isNoDevice() const { return code_ == Code::NoDevice; }
  Code code() const { return code_; }
  const std::string &message() const { return message_; }
  /// The same failure with `context` in front of its message.
  Status withContext(const std::string &context) const {
    return ok() ? *this : Status(code_, context + ": " + message_);
  }

private:
  Status(Code code, std::string message)
      : code_(code), message_(std::move(message)) {}
  Code code_ = Code::Ok;
  std::string message_;
};

/// A value, or the Status of why there is none.
template <typename T> class Result {
public:
  Result(T value) : value_(std::move(value)) {}
  Result(Status status) : status_(std::move(status)) {
    assert(!status_.ok() && "a Result without a value needs a failure");
  }
  bool ok() const { return value_.has_value(); }
  const Status &status() const { return status_; }
  T &operator*() { return *value_; }
  const T &operator*() const { return *value_; }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }

private:
  std::optional<T> value_;
  Status status_;
};

} // namespace strata::rt

#endif // STRATA_RT_STATUS_H
