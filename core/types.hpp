#pragma once
// Basic index and location types shared by every layer of saga.
#include <cstddef>
#include <cstdint>
#include <string>

namespace saga {

// Row and column indices are 32-bit. Row offsets (and every nnz count) use
// offset_t. Today offset_t is 32-bit too, which keeps CSR traffic and cuSPARSE
// interop at 4 B per row pointer; every place that could overflow it (SpGEMM
// result size, generator nnz, COO size) goes through checked_offset(), so moving
// to >2^31 nonzeros is a change of this one alias (to int64_t) plus the CUB/cuSPARSE
// index-type flags in sparse/cuda, not a rewrite. Expansion/product counts are
// always 64-bit (std::int64_t) already.
using index_t = std::int32_t;
using offset_t = std::int32_t;

// Where data lives and work runs: the one backend notion of saga. The
// executor (core/executor.hpp) adds which GPU and which stream.
enum class Space { host, device };

inline const char* to_string(Space s) { return s == Space::host ? "host" : "device"; }
// The backend's name in configs and reports: "host" or "cuda".
inline const char* backend_name(Space s) { return s == Space::host ? "host" : "cuda"; }

}  // namespace saga
