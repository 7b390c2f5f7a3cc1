#pragma once
// Device-wide primitives (CUB), instantiated once in primitives.cu so that the
// expensive CUB templates are compiled a single time. All pointers are device
// pointers; temporary storage is allocated on the saga stream.
#include <cstddef>
#include <cstdint>

#include "core/types.hpp"

namespace saga::cuda::prim {

// out[i] = Σ_{j<i} in[j] for i in [0, n]; `out` has n+1 entries (out[n] = total).
void exclusive_scan_total(const std::int32_t* in, std::int32_t* out, std::size_t n);
void exclusive_scan_total(const std::int64_t* in, std::int64_t* out, std::size_t n);
// int32 counts summed in 64 bits (offsets of a matrix past 2^31 nonzeros).
void exclusive_scan_total(const std::int32_t* in, std::int64_t* out, std::size_t n);

// narrow[i] = wide[i] for i in [0, n): row offsets known to fit 32 bits
// (fits_narrow_offsets) copied for the kernels that read them in 32 bits.
void narrow_offsets(const offset_t* wide, std::int32_t* narrow, std::size_t n);

// Stable radix sort of (key, value) pairs on key bits [0, end_bit).
void sort_pairs(const std::uint64_t* keys_in, std::uint64_t* keys_out, const double* vals_in, double* vals_out,
                std::size_t n, int end_bit);

// Stable radix sort of (32-bit key, 32-bit value) pairs on key bits [0, end_bit).
void sort_pairs(const std::uint32_t* keys_in, std::uint32_t* keys_out, const std::int32_t* vals_in,
                std::int32_t* vals_out, std::size_t n, int end_bit);

// Sums the values of equal consecutive keys; returns the number of unique keys.
std::size_t reduce_by_key(const std::uint64_t* keys_in, const double* vals_in, std::uint64_t* keys_out,
                          double* vals_out, std::size_t n);

// Sum of n int64 values (deterministic).
std::int64_t sum(const std::int64_t* in, std::size_t n);

// Number of bits needed to store values in [0, count).
int bits_for(std::int64_t count);

// Given n row-major sorted keys (row << col_bits | col) of a matrix with `rows`
// rows: writes row_ptr[0..rows] (plus `base` on every entry) and col[0..n).
void keys_to_csr(const std::uint64_t* keys, std::size_t n, int rows, int col_bits, offset_t base,
                 offset_t* row_ptr, std::int32_t* col);

}  // namespace saga::cuda::prim
