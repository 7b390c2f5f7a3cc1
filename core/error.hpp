#pragma once
// Error reporting: every failure is an exception whose message says what
// failed and where (file:line of the check, plus the caller's context).
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace saga {

// Base class of all saga errors.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Invalid user input (shapes, files, configs, matrices).
struct InputError : Error {
  using Error::Error;
};
// A requested backend or feature is not available in this build or machine.
struct UnavailableError : Error {
  using Error::Error;
};
// A device call failed (CUDA runtime, cuSPARSE, kernel launch, out of memory).
struct DeviceError : Error {
  using Error::Error;
};
// The device could not hold an allocation (device::allocate): a DeviceError
// that a caller able to use less memory (the blocked Galerkin product) may catch.
struct DeviceOutOfMemory : DeviceError {
  using DeviceError::DeviceError;
};

// A count past this build's offsets (a matrix or product of more than
// 2^31 - 1 nonzeros in the 32-bit build: checked_offset). An InputError; the
// setup catches it where a product can be computed in smaller blocks.
struct OffsetOverflow : InputError {
  using InputError::InputError;
};

// "msg [file:line]": how every saga error names the check that raised it.
std::string at_source(const std::string& msg, const char* file, int line);
[[noreturn]] void throw_input_error(const std::string& msg, const char* file, int line);

}  // namespace saga

// SAGA_REQUIRE(cond, fmt, args...): throws InputError with a formatted message
// when cond is false.
#define SAGA_REQUIRE(cond, ...)                                                    \
  do {                                                                             \
    if (!(cond)) ::saga::throw_input_error(fmt::format(__VA_ARGS__), __FILE__, __LINE__); \
  } while (0)
