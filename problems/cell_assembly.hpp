#pragma once
// The assembly driver shared by the finite-element generators: a Count functor
// writes each cell's number of triplets to its `count` member, an exclusive scan
// gives each cell's offset, a Write functor (members offset, row, col, val)
// writes them, and coo_to_csr sums the duplicates in a fixed order
// (deterministic). Both functors run through parallel_for on either backend.
//
// The triplets of a large mesh outweigh its matrix many times (a P1 tetrahedron
// writes 16, 16 bytes each, and the sort that sums them doubles its keys and
// values): a 4M-unknown box peaked at 22 GB of device memory assembled whole. So
// the rows are assembled in chunks of about `chunk_triplets` triplets: both
// functors see only the rows in [row_lo, row_hi) (each cell's triplets of those
// rows, written as row - row_lo), each chunk is summed by coo_to_csr and the
// chunks are stacked. A chunk holds every triplet of its rows, in cell order,
// so its sums are those of the whole assembly's rows. The chunks follow from the
// triplet count alone, not from the memory free: the same mesh, the same matrix.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/parallel_for.hpp"
#include "sparse/coo.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/scan.hpp"

namespace saga {

// Triplets a chunk of rows holds at most on a uniform mesh (16 B each: 512 MiB).
inline constexpr std::int64_t kAssemblyChunkTriplets = std::int64_t(1) << 25;

template <class Count, class Write>
CsrMatrix assemble_cell_triplets(Space space, index_t cells, index_t n, Count count_cells, Write write_cells,
                                 std::int64_t chunk_triplets = kAssemblyChunkTriplets) {
  Array<std::int64_t> count(cells, space, "triplets per cell");
  Array<std::int64_t> offset(static_cast<std::size_t>(cells) + 1, space, "triplet offsets");
  count_cells.count = count.data();
  // Each cell's triplets in rows [lo, hi) counted and scanned: their total.
  const auto count_rows = [&](index_t lo, index_t hi) {
    count_cells.row_lo = lo;
    count_cells.row_hi = hi;
    parallel_for(space, cells, count_cells);
    exclusive_scan_total(count, offset);
    return offset.get(cells);
  };
  const std::int64_t total = count_rows(0, n);
  const std::int64_t chunks =
      std::clamp<std::int64_t>((total + chunk_triplets - 1) / std::max<std::int64_t>(chunk_triplets, 1), 1,
                               std::max<index_t>(n, 1));
  std::vector<CsrMatrix> blocks;
  for (std::int64_t c = 0; c < chunks; ++c) {
    const index_t lo = static_cast<index_t>(n * c / chunks), hi = static_cast<index_t>(n * (c + 1) / chunks);
    const std::int64_t triplets = chunks == 1 ? total : count_rows(lo, hi);
    CooMatrix coo;
    coo.rows = hi - lo;
    coo.cols = n;
    coo.row = Array<index_t>(triplets, space, "assembly triplet rows");
    coo.col = Array<index_t>(triplets, space, "assembly triplet columns");
    coo.val = Array<double>(triplets, space, "assembly triplet values");
    write_cells.offset = offset.data();
    write_cells.row = coo.row.data();
    write_cells.col = coo.col.data();
    write_cells.val = coo.val.data();
    write_cells.row_lo = lo;
    write_cells.row_hi = hi;
    parallel_for(space, cells, write_cells);
    if (chunks == 1) return coo_to_csr(coo);
    blocks.push_back(coo_to_csr(coo));
  }
  return stack_rows(std::move(blocks));
}

}  // namespace saga
