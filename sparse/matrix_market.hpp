#pragma once
// Matrix Market (coordinate) reader and writer. Reads real, integer and
// pattern fields, general and symmetric storage (symmetric is expanded), with
// comments and 1-based indices; every parse error names the file and line.
#include <iosfwd>
#include <string>
#include <vector>

#include "sparse/csr.hpp"

namespace saga {

// Returns a host CSR (duplicates summed, columns sorted).
CsrMatrix read_matrix_market(const std::string& path);
CsrMatrix read_matrix_market(std::istream& in, const std::string& name = "<stream>");

// Writes "coordinate real general" with 17 significant digits (round-trips
// doubles exactly).
void write_matrix_market(const CsrMatrix& A, const std::string& path);
void write_matrix_market(const CsrMatrix& A, std::ostream& out);

// Dense rows x cols array ("array real general", values listed column by
// column in the file), kept row-major: a near-nullspace, node coordinates.
struct DenseMatrix {
  std::int64_t rows = 0, cols = 0;
  std::vector<double> values;  // row-major
};
DenseMatrix read_matrix_market_array(const std::string& path);

// Dense vector as Matrix Market "array real general" (one column).
Vector read_matrix_market_vector(const std::string& path);
void write_matrix_market_vector(const Vector& x, const std::string& path);

}  // namespace saga
