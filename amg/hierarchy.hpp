#pragma once
// The smoothed-aggregation hierarchy and its setup (the driver that calls the
// stages of amg/ in order, like PyAMG's smoothed_aggregation_solver):
//   strength -> MIS-2 aggregation -> tentative T -> rho(D^-1 A) ->
//   A·T -> P = T - omega D^-1 A T -> R = P^T -> A·P -> A_c = P^T (A P)
// until the coarse size or the level limit, then a dense direct coarse solver.
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "amg/coarse_solver.hpp"
#include "amg/nullspace.hpp"
#include "amg/params.hpp"
#include "core/executor.hpp"

namespace saga {

// Setup phases, in order, as reported.
inline const std::vector<std::string>& setup_phases() {
  static const std::vector<std::string> p{"strength", "aggregation", "tentative", "spectral_radius", "AT",
                                          "smooth_update", "transpose", "AP", "PtAP", "coarse_factorisation",
                                          "other"};
  return p;
}
inline bool is_spgemm_phase(const std::string& p) { return p == "AT" || p == "AP" || p == "PtAP"; }
// How reports print a phase name.
inline const char* setup_phase_label(const std::string& p) {
  if (p == "AT") return "A·T (SpGEMM)";
  if (p == "AP") return "A·P (SpGEMM)";
  if (p == "PtAP") return "Pᵀ(AP) (SpGEMM)";
  if (p == "spectral_radius") return "rho(D⁻¹A)";
  if (p == "smooth_update") return "P = T - ωD⁻¹AT, unfused";  // fused SpGEMMs form P in "AT"
  if (p == "coarse_factorisation") return "coarse factorisation";
  if (p == "other") return "diagonal etc.";
  return p.c_str();
}

struct SpgemmRecord {
  std::int64_t products = 0, nnz_c = 0;
  double seconds = 0;
  // Device workspace the product took besides C (SpgemmStats::workspace_bytes):
  // with rows too long for a CTA, mostly their slice (dense accumulators'
  // partial rows, the segmented merge's buffers), whose budget follows the
  // free memory (SpgemmOptions::budget_now).
  std::int64_t workspace_bytes = 0;
  int slices = 0;
  // The row offsets' width the product's kernels read (SpgemmStats::offset_bits;
  // in blocks, the widest block's): 32 where a 64-bit build's product fit them.
  int offset_bits = 8 * sizeof(offset_t);
};

struct LevelStats {
  index_t rows = 0;
  std::int64_t nnz = 0;
  index_t aggregates = 0;
  index_t nodes = 0;                       // blocks aggregated (= rows for scalar problems)
  index_t dropped_columns = 0;             // near-nullspace columns an aggregate could not span
  int mis2_rounds = 0;
  int block_colours = 0;                   // amg.aggregation blocked: colours of the block schedule
  double rho = 0;                          // rho(D^-1 A) estimate (0 on the coarsest)
  double theta = 0;                        // strength threshold used (0 where theta > 0 would not coarsen)
  std::string theta_fallback;              // why theta = 0 replaced the configured one (empty: it did not)
  std::map<std::string, double> seconds;   // phase -> time spent building the next level from this one
  std::map<std::string, SpgemmRecord> spgemm;  // AT, AP, PtAP
  // Device setups: saga's device memory in use at its highest during each
  // phase of this level (problem and earlier levels included), in bytes.
  std::map<std::string, std::size_t> peak_bytes;
  // The Galerkin product in blocks of R's rows (SetupParams::galerkin_slices;
  // 1: whole), and the rows of A P computed over all blocks (A's rows when
  // whole; more where the blocks' column spans overlap).
  int galerkin_slices = 1;
  int galerkin_retries = 0;  // products (or P's whole transpose) out of device memory, redone in more blocks
  std::int64_t galerkin_ap_rows = 0;
  // Bytes of this level's A, P and R (and the coarse inverse on the coarsest)
  // as stored after the setup, and whether P, R and a coarse A keep their
  // values in single precision (SetupParams::hierarchy_precision).
  std::size_t matrix_bytes = 0;
  bool single_precision = false;
  // The fine level: A's values are all exactly floats and stored so (lossless,
  // SetupParams::exact_single); counted in matrix_bytes.
  bool exact_single = false;
  // The fine level: the cycle reads a single-precision copy of A's values
  // (SetupParams::fine_cycle_precision; Level::A_cycle, its values' bytes in
  // matrix_bytes).
  bool fine_cycle_single = false;
  bool implicit_prolongator = false;  // P applied as (I - ωD⁻¹A) T, not stored (Level::aggregate_scale)
};

// Device memory a setup of A is estimated to need beyond A itself, at its
// peak: the next levels, P, R, the node matrix and the SpGEMMs' counts and
// bins. A model fitted to measured peaks (docs/reliability.md, "Device
// memory"): bytes per row plus bytes per nonzero, both growing with the
// near-nullspace columns. Not included: the slice of rows too long for a CTA
// (spgemm.md "Long rows"), which takes at most a quarter of the memory free
// when it runs.
std::size_t estimate_setup_bytes(index_t rows, std::int64_t nnz, int nullspace_columns);
// The same with the Galerkin product in blocks of rows (A P never whole), for
// the hierarchy precision and prolongator of `p`: the least a setup needs, by
// the measured peaks (docs/memory.md). The setup warns when even this does not
// fit the device memory available.
std::size_t estimate_blocked_setup_bytes(index_t rows, int nullspace_columns, const SetupParams& p);
// galerkin_slices: auto — the blocks of R's rows the Galerkin product takes,
// from the estimates of A P's products and nonzeros: enough that each block's
// A P (12 B a product) fits three quarters of available_bytes (negative: the
// host, no memory bound; products under 256 MiB stay whole), and that each
// block's nonzeros stay under offset_limit (the build's offsets: without, the
// 32-bit build stopped 3D 7-pt N=640 where memory allowed A P whole). 1 to 256;
// docs/memory.md.
int galerkin_auto_blocks(double ap_products, double ap_nonzeros, double available_bytes,
                         double offset_limit = static_cast<double>(std::numeric_limits<offset_t>::max()));
// amg.fit_memory: where a setup of `rows` rows with near-nullspace `ns` is
// estimated (estimate_blocked_setup_bytes) not to fit `available` bytes, sets
// p's hierarchy_precision to float, and where even that does not fit, its
// implicit_prolongator (only where it applies: one constant near-nullspace
// vector of single unknowns). Neither costs an iteration on the seed suite and
// its variants (docs/memory.md). Returns what it changed and why ("": nothing,
// or p.fit_memory false).
std::string fit_to_memory(SetupParams& p, index_t rows, const NearNullspace& ns, std::size_t available);

struct HierarchyStats {
  std::vector<LevelStats> levels;
  double grid_complexity = 0, operator_complexity = 0;
  double setup_seconds = 0;
  std::size_t estimated_bytes = 0;  // estimate_setup_bytes before the setup
  std::size_t estimated_blocked_bytes = 0;  // estimate_blocked_setup_bytes (the parameters as set up)
  std::string memory_fit;           // what amg.fit_memory changed, and why ("" where nothing)
  std::int64_t largest_spgemm_workspace() const;  // over every level's products
  std::map<std::string, double> phase_seconds;  // summed over levels
  double spgemm_seconds() const;
  bool coarse_pseudo_inverse = false;
  // The pseudo-inverse from a Cholesky inverse shifted along this many null
  // directions of the near-nullspace (0: eigen-decomposition, or no pseudo-inverse).
  int coarse_null_space_columns = 0;
  std::string coarse_solver;     // the coarse-solver component that ran
  index_t coarse_size = 0;       // the coarse size used (coarse_size_for: amg.coarse_size 0 resolved)
  std::string strength, aggregation;  // the strength and aggregation components that ran
  std::string spgemm_algorithm;  // the SpGEMM component that ran
  // Device setups: the phase and level where the device memory peaked, and
  // that peak (LevelStats::peak_bytes); peak_level -1 on the host.
  int peak_level = -1;
  std::string peak_phase;
  std::size_t peak_bytes = 0;
  std::size_t matrix_bytes() const;  // summed over levels
};

struct Level {
  CsrMatrix A;
  // The fine level with amg.fine_cycle_precision float: A's values rounded to
  // float, its row offsets and columns A's own (views), for the cycle's passes
  // (empty otherwise; the Krylov method reads A). Made by the setup and every
  // resetup after A's values (store_for_cycle).
  CsrMatrix A_cycle;
  // The matrix the cycle applies on this level: A_cycle where it was made, A.
  const CsrMatrix& cycle_matrix() const { return A_cycle.rows() > 0 ? A_cycle : A; }
  Vector dinv;      // 1 / diag(A)
  double rho = 0;   // rho(D^-1 A) (0 on the coarsest level)
  CsrMatrix P, R;   // to / from the next coarser level (empty on the coarsest)
  Vector B;         // near-nullspace on this level
  // The fine level's B was the constant vector (no near-nullspace given): it
  // is not kept after the tentative prolongator (8 B per unknown) and is made
  // again where a resetup needs it.
  bool B_is_ones = false;
  // B as a vector of its own (the constant one made again where B_is_ones).
  Vector near_nullspace() const;
  int nullspace_columns = 1;
  // A scalar problem's constant near-nullspace on every level (the fine B was
  // ones, one column, no blocks): T comes from integer weights, the fine-level
  // nodes each node stands for (amg::constant_tentative_prolongator; empty on
  // the fine level: 1 each), and B = sqrt(weights) below the fine level.
  bool constant_nullspace = false;
  Array<index_t> weights;
  // Blocks aggregated together: node of each unknown and the node count (empty:
  // one unknown per node). Fine level: the near-nullspace's block size; coarse
  // levels (k > 1 columns): the unknowns of one aggregate.
  Array<index_t> node_of;
  index_t nodes = 0;
  Array<index_t> aggregates;  // aggregate of each node (empty on the coarsest)
  index_t aggregate_count = 0;
  index_t aggregates_left_out = 0;  // nodes in no aggregate (-1 in `aggregates`)
  // P applied implicitly (SetupParams::implicit_prolongator): P is empty and
  // P e = (I - prolongator_omega D⁻¹A) T e with T e = aggregate_scale[g] e[g]
  // on the nodes of aggregate g (spmv_smoothed_prolongation).
  Vector aggregate_scale;
  double prolongator_omega = 0;
  bool implicit_prolongator() const { return !aggregate_scale.empty(); }
  // A P of the last resetup that kept P (ResetupOptions::keep_products): the
  // next such resetup recomputes only its values into this structure.
  CsrMatrix AP;
};

// Hierarchy::resetup: what to recompute besides the Galerkin products.
struct ResetupOptions {
  // false (the default; AmgX's and AMGCL's reuse): keep P and R, recompute
  // only the coarse operators Pᵀ A P, the diagonals and the coarse solve.
  // true: P again from the new matrix (same aggregates and tentative
  // prolongator, new D⁻¹, ρ and smoothing) — the hierarchy a full setup with the
  // same aggregates gives.
  bool refresh_prolongator = false;
  // With P kept: keep each level's A P after the resetup, so that the next one
  // computes only its values (its symbolic pass and memory allocation are
  // skipped). Costs the memory of the A P products between resetups (the setup's
  // peak held them anyway); false frees them.
  bool keep_products = true;
};
struct ResetupStats {
  double seconds = 0;
  std::map<std::string, double> phase_seconds;  // setup_phases() names, summed over levels
  bool prolongator_refreshed = false;
};

class Hierarchy {
 public:
  // A is used in place (moved in); ns is the near-nullspace and its blocks
  // (default: the constant vector; params.nullspace is not read here — the
  // caller resolves it, app/run.cpp and api/saga.cpp). Runs on `exec` (default:
  // the active executor of A's space), which must be of A's space.
  Hierarchy(CsrMatrix A, const SetupParams& params, NearNullspace ns = {},
            std::shared_ptr<const Executor> exec = nullptr);
  const std::vector<Level>& levels() const { return levels_; }
  const amg::CoarseSolver& coarse() const { return coarse_; }
  const HierarchyStats& stats() const { return stats_; }
  const SetupParams& params() const { return params_; }
  Space space() const { return levels_.front().A.space(); }
  const std::shared_ptr<const Executor>& executor() const { return exec_; }

  // New values of the fine matrix, same pattern (an InputError names the first
  // row that differs): the hierarchy's values recomputed on the kept
  // aggregates (AMGCL's rebuild, AmgX's resetup). The coarse operators get new
  // values in their kept structure (the SpGEMM's numeric phase); the coarsest
  // is factorised again. The aggregates, and so the level sizes, stay.
  ResetupStats resetup(CsrMatrix A, const ResetupOptions& options = {});

 private:
  SetupParams params_;
  std::shared_ptr<const Executor> exec_;
  std::vector<Level> levels_;
  amg::CoarseSolver coarse_;
  HierarchyStats stats_;
};

}  // namespace saga
