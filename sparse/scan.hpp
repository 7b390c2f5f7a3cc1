#pragma once
// Exclusive prefix sums with the total appended: out[0..n] from in[0..n).
#include "sparse/array.hpp"

namespace saga {
void exclusive_scan_total(const Array<std::int32_t>& in, Array<std::int32_t>& out);
void exclusive_scan_total(const Array<std::int64_t>& in, Array<std::int64_t>& out);
}  // namespace saga
