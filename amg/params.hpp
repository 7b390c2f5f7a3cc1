#pragma once
// Parameters of the smoothed-aggregation setup (the `amg.*` keys of a config
// that shape the hierarchy). Defaults are the reference choices of
// docs/design.md ("Reference choices"). The cycle and smoother parameters live
// with the cycle (solver/cycle_params.hpp).
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/parameters.hpp"
#include "core/types.hpp"

namespace saga {

struct SetupParams {
  double theta = 0.08;            // symmetric strength threshold (docs/aggregation.md: why 0.08)
  // Stop coarsening at or below this many rows; 0 (auto): coarse_size_for().
  index_t coarse_size = 0;
  int max_levels = 10;            // including the finest
  int rho_iterations = 5;         // Lanczos steps for rho(D^-1 A) (docs/profiling.md: why 5)
  double prolongator_omega = 0;   // 0: 4/(3 rho) per level
  std::uint32_t seed = 0;         // MIS-2 hash priorities (per level: seed + level)
  Component spgemm;               // SpGEMM algorithm of the setup ("" = the backend's default)
  Component coarse_solver = "dense_cholesky";
  Component strength = "symmetric";
  Component aggregation = "blocked";
  Component nullspace = "constant";  // amg/nullspace.hpp: constant, file, rigid_body
  // The Galerkin product R (A P) in this many blocks of R's rows, each with
  // only its own rows of A P (0: as many as keep each block's A P within 3/4 of
  // the device memory available then, 1 where it fits; 1 on the host).
  // docs/memory.md.
  int galerkin_slices = 0;
  // Precision of the matrices only the solve phase reads, as stored once the
  // setup has made them: level l's P and R, and its A below the fine level
  // (with the coarse solver's inverse on the coarsest). "float" halves their
  // values' bytes; the fine matrix, every vector and all arithmetic stay double
  // (each value is widened when read). docs/memory.md.
  std::string hierarchy_precision = "double";
  // Apply the smoothed prolongator as (I - ωD⁻¹A) T in the cycle instead of
  // storing P, on levels whose T has one column per aggregate over a constant
  // near-nullspace (the fine level of a scalar problem): P is made for the
  // Galerkin product and freed after it. Saves P's bytes (3D 7-pt: ~41 B per
  // fine unknown) for one more pass over the level's A per prolongation.
  // docs/memory.md.
  bool implicit_prolongator = false;
  // On the device, where the setup (with the Galerkin product in blocks) is
  // estimated not to fit the memory available, store the hierarchy in float
  // and, where even that does not fit, apply P implicitly too: the two
  // settings above, chosen for the user (HierarchyStats::memory_fit says so).
  // docs/memory.md.
  bool fit_memory = true;
  // Store the fine matrix's values in single precision after the setup where
  // every one of them is exactly a float (integer stencils, graph Laplacians,
  // data that came in single precision): lossless — each value widens back to
  // the same double, so every product, iterate and residual is the same bit
  // for bit — and a third fewer bytes for each pass over the fine matrix (12 to
  // 8 per entry with 32-bit columns). docs/memory.md, "Exact single values".
  bool exact_single = true;
  // Precision of the fine matrix's values as the cycle reads them: "float"
  // gives the cycle's sweeps and residuals a single-precision copy of A's
  // values, with A's row offsets and columns read in place, where A's values
  // are not floats already (exact_single): 4 bytes more per fine nonzero, a
  // third fewer bytes for each of the cycle's passes over the fine matrix (an
  // implicit prolongation reads A, so that it stays R's transpose). The Krylov method's products and residual read the
  // doubles, so the answer reaches the same tolerance; the preconditioner is
  // that of A rounded to float on the fine level (iterations may change).
  // With hierarchy_precision float: every matrix the cycle reads in single
  // precision (issue 17's mixed precision). docs/memory.md.
  std::string fine_cycle_precision = "double";
  // Per-level settings: levels[l] overrides keys of level l (setup keys such as
  // theta, and cycle keys: pre_sweeps, post_sweeps, smoother and the smoother's
  // options as "smoother.NAME").
  std::vector<Options> levels;

  template <class V>
  void visit(V& v) {
    v("theta", theta, "symmetric strength threshold: keep a_ij with a_ij^2 >= theta^2 a_ii a_jj", in_range(0, 1));
    v("coarse_size", coarse_size,
      "stop coarsening at or below this many rows (0: 800 on the device with dense_cholesky, which inverts the "
      "coarsest matrix on the GPU; 500 otherwise)",
      zero_is_auto());
    v("max_levels", max_levels, "most levels, the finest included", at_least(1));
    v("rho_iterations", rho_iterations, "Lanczos steps of the rho(D^-1 A) estimate", at_least(1));
    v("prolongator_omega", prolongator_omega, "prolongator smoothing weight", zero_is_auto());
    v("seed", seed, "MIS-2 hash seed (level l uses seed + l)", at_least(0));
    v("galerkin_slices", galerkin_slices,
      "blocks of R's rows the Galerkin product R (A P) is computed in, each with its own rows of A P only "
      "(0: by device memory and the build's offsets; 1: whole)",
      zero_is_auto());
    v("hierarchy_precision", hierarchy_precision,
      "precision P, R and the coarse operators are stored in after the setup: double, or float (half the bytes of "
      "their values; the fine matrix, the vectors and the arithmetic stay double)",
      one_of({"double", "float"}));
    v("implicit_prolongator", implicit_prolongator,
      "apply P as (I - omega D^-1 A) T in the cycle instead of storing it, where T has one column per aggregate "
      "over a constant near-nullspace (less memory, one more pass over A per prolongation)");
    v("fit_memory", fit_memory,
      "where the setup is estimated not to fit the device memory available, store the hierarchy in float and, if "
      "need be, apply P implicitly (hierarchy_precision, implicit_prolongator)");
    v("exact_single", exact_single,
      "store the fine matrix's values in single precision where every one is exactly a float (lossless: the same "
      "results bit for bit, a third fewer bytes per pass over the fine matrix)");
    v("fine_cycle_precision", fine_cycle_precision,
      "precision of the fine matrix's values as the cycle reads them: double, or float (a single-precision copy of "
      "the values for the cycle, 4 B per fine nonzero more; the Krylov method keeps the doubles)",
      one_of({"double", "float"}));
  }
  // The parameters on level l (levels[l] applied; keys of the cycle ignored).
  SetupParams at_level(int l) const;
};

// The coarse size a setup on `space` uses: p.coarse_size, or for 0 (auto)
// 800 rows where dense_cholesky inverts the coarsest matrix on the GPU, 500
// elsewhere. On the H200 the device inverse of the coarsest matrix costs
// 0.4-0.9 ms at 512-775 rows, about one more level's setup, and a level less
// saves its passes in every cycle; the host's dense factorisation grows as n^3
// (docs/profiling.md, "Twenty-sixth session").
index_t coarse_size_for(const SetupParams& p, Space space);

// Keys of amg.levels entries that belong to the cycle (solver/cycle_params.hpp).
const std::set<std::string>& cycle_level_keys();

// Checks every value, the SpGEMM and coarse-solver names (and that they run on
// `space`, when given) and the per-level keys; InputError otherwise.
void validate(const SetupParams& p, std::optional<Space> space = std::nullopt);

}  // namespace saga
