#pragma once
// Coordinate (triplet) matrices and conversion to and from CSR.
#include "sparse/csr.hpp"

namespace saga {

struct CooMatrix {
  index_t rows = 0, cols = 0;
  Array<index_t> row, col;
  Array<double> val;
  Space space() const { return row.space(); }
  std::size_t entries() const { return row.size(); }
};

// CSR from triplets in any order: duplicates are summed, columns sorted.
// Indices out of range are an InputError.
CsrMatrix coo_to_csr(const CooMatrix& coo);
// Triplets of a CSR matrix in row-major order.
CooMatrix csr_to_coo(const CsrMatrix& A);

}  // namespace saga
