#pragma once
// The assembly driver shared by the finite-element generators: a Count functor
// writes each cell's number of triplets to its `count` member, an exclusive scan
// gives each cell's offset, a Write functor (members offset, row, col, val)
// writes them, and coo_to_csr sums the duplicates in a fixed order
// (deterministic). Both functors run through parallel_for on either backend.
#include <cstdint>

#include "core/parallel_for.hpp"
#include "sparse/coo.hpp"
#include "sparse/scan.hpp"

namespace saga {

template <class Count, class Write>
CsrMatrix assemble_cell_triplets(Space space, index_t cells, index_t n, Count count_cells, Write write_cells) {
  Array<std::int64_t> count(cells, space, "triplets per cell");
  count_cells.count = count.data();
  parallel_for(space, cells, count_cells);
  Array<std::int64_t> offset(static_cast<std::size_t>(cells) + 1, space, "triplet offsets");
  exclusive_scan_total(count, offset);
  const std::int64_t total = offset.get(cells);
  CooMatrix coo;
  coo.rows = coo.cols = n;
  coo.row = Array<index_t>(total, space, "assembly triplet rows");
  coo.col = Array<index_t>(total, space, "assembly triplet columns");
  coo.val = Array<double>(total, space, "assembly triplet values");
  write_cells.offset = offset.data();
  write_cells.row = coo.row.data();
  write_cells.col = coo.col.data();
  write_cells.val = coo.val.data();
  parallel_for(space, cells, write_cells);
  return coo_to_csr(coo);
}

}  // namespace saga
