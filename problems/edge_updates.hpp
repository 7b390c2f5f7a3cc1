#pragma once
// Updates that keep an SPD matrix SPD: new weighted couplings w (e_i - e_j)(e_i - e_j)^T
// between random pairs of unknowns (a graph that gains edges, an FE model that
// gains springs). As triplets (i,i,+w) (j,j,+w) (i,j,-w) (j,i,-w) for
// DcsrMatrix::insert; a pair repeated in the batch simply adds up.
#include <cstdint>
#include <vector>

#include "sparse/coo.hpp"

namespace saga {

// `edges` random pairs i != j of [0, n), weights uniform in [weight/2, weight],
// reproducible from `seed`. n >= 2.
CooMatrix edge_updates(index_t n, std::int64_t edges, double weight, std::uint64_t seed, Space space);

// The same on couplings the matrix already has (pairs i != j with a_ij stored,
// drawn from its pattern given as host row_ptr and col): the pattern stays,
// only values change (a coefficient that changes between time steps). A
// matrix without off-diagonal entries gets none.
CooMatrix coupling_updates(const std::vector<offset_t>& row_ptr, const std::vector<index_t>& col, std::int64_t edges,
                           double weight, std::uint64_t seed, Space space);

}  // namespace saga
