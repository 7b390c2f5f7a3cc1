#pragma once
// Basic index and location types shared by every layer of saga.
#include <cstddef>
#include <cstdint>
#include <string>

namespace saga {

// Row and column indices are 32-bit. Row offsets (and every nnz count) use
// offset_t: 32-bit by default, which keeps CSR traffic and cuSPARSE interop at
// 4 B per row pointer, or 64-bit in a build configured with SAGA_OFFSET_BITS=64
// for matrices past 2^31 nonzeros (docs/design.md, "Index widths"). Every place
// that could overflow a 32-bit offset (SpGEMM result size, generator nnz, COO
// size) goes through checked_offset(). Expansion/product counts are always 64-bit.
using index_t = std::int32_t;
#if defined(SAGA_OFFSET_BITS) && SAGA_OFFSET_BITS == 64
#define SAGA_WIDE_OFFSETS 1
using offset_t = std::int64_t;
#elif !defined(SAGA_OFFSET_BITS) || SAGA_OFFSET_BITS == 32
#define SAGA_WIDE_OFFSETS 0
using offset_t = std::int32_t;
#else
#error "SAGA_OFFSET_BITS must be 32 or 64"
#endif
// Whether this build's row offsets are 64-bit: then the SpMV and the SpGEMM
// read 32-bit copies of the offsets of the matrices that fit them.
constexpr bool kWideOffsets = SAGA_WIDE_OFFSETS != 0;
// Whether a matrix of nnz nonzeros may be read with 32-bit positions: its
// offsets fit, with room for a loop that steps a position past the end by up
// to a CTA's threads before it stops.
constexpr bool fits_narrow_offsets(std::int64_t nnz) { return nnz <= INT32_MAX - 4096; }

// Where data lives and work runs: the one backend notion of saga. The
// executor (core/executor.hpp) adds which GPU and which stream.
enum class Space { host, device };

inline const char* to_string(Space s) { return s == Space::host ? "host" : "device"; }
// The backend's name in configs and reports: "host" or "cuda".
inline const char* backend_name(Space s) { return s == Space::host ? "host" : "cuda"; }

}  // namespace saga
