#pragma once
// Exclusive prefix sums with the total appended: out[0..n] from in[0..n).
#include "sparse/array.hpp"

namespace saga {
void exclusive_scan_total(const Array<std::int32_t>& in, Array<std::int32_t>& out);
void exclusive_scan_total(const Array<std::int64_t>& in, Array<std::int64_t>& out);
// int32 counts summed in 64 bits, e.g. row lengths into the offsets of a 64-bit-offset build.
void exclusive_scan_total(const Array<std::int32_t>& in, Array<std::int64_t>& out);
}  // namespace saga
