#include "amg/hierarchy.hpp"

#include "core/device.hpp"
#include "core/log.hpp"

#include <algorithm>
#include <cmath>
#include <chrono>

#include "amg/aggregation.hpp"
#include "amg/blocks.hpp"
#include "amg/coarse_solver.hpp"
#include "amg/phase_timer.hpp"
#include "amg/smoothed_prolongator.hpp"
#include "amg/spectral_radius.hpp"
#include "amg/strength.hpp"
#include "amg/tentative.hpp"
#include "core/parallel_for.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/csr_ops_functors.hpp"
#include "sparse/spgemm.hpp"
#include "sparse/spmv.hpp"
#include "sparse/transpose.hpp"
#include "sparse/vector_ops.hpp"

#include <set>

namespace saga {

namespace {
// A P at 12 bytes a product (above its nonzeros: about 3x on 3D 7-pt, so the
// memory rule errs towards more blocks); below 256 MiB it stays whole.
double ap_bytes_of(double ap_products) { return 12.0 * ap_products; }
bool ap_stays_whole(double ap_products) { return ap_bytes_of(ap_products) < 256.0 * 1048576; }
}  // namespace

int galerkin_auto_blocks(double ap_products, double ap_nonzeros, double available_bytes, double offset_limit) {
  double blocks = 1.0;
  // Memory: A P within three quarters of what the device has free.
  if (available_bytes >= 0 && !ap_stays_whole(ap_products))
    blocks = std::ceil(ap_bytes_of(ap_products) / std::max(0.75 * available_bytes, 64.0 * 1048576));
  // Offsets: each block's A P nonzeros (the caller's estimate) under the
  // build's offset range; a block that still passes it is split again by the
  // setup.
  blocks = std::max(blocks, std::ceil(ap_nonzeros / offset_limit));
  return static_cast<int>(std::clamp(blocks, 1.0, 256.0));
}

namespace {
// Peak setup allocations beyond A, measured with device::pool_usage() on the
// H100 (tests/gpu/test_amg_gpu.cpp prints them; docs/reliability.md): 182-370
// bytes per row on 2D/3D stencils of 5-27 nonzeros per row, bounded with a
// margin by 330 B per row + 4 B per nonzero (300 before the binned SpGEMM's
// hash rows kept their columns between count and fill: up to 4 B per
// nonzero of the operands, ~60 B per row more); per near-nullspace column beyond
// the first, a row's share of P, R, AP and the coarse B grows (elasticity with
// 6 rigid-body modes: P has 28 nonzeros per row, AP 71). A fixed 4 MiB covers
// what does not grow with the matrix (scan and sort scratch, bins, scalars):
// small problems (4096 rows) peak at 2.5-3.9 MB.
constexpr double kBytesPerRow = 330, kBytesPerNonzero = 4, kBytesPerRowPerColumn = 600;
constexpr double kFixedBytes = 4.0 * 1048576;
// With the Galerkin product in blocks of rows (A P never whole) the setup
// needs less: the peaks in use beyond A and the caller's b and x, measured on
// the H100 (docs/memory.md), 3D 7-pt in blocks 197 B per row with a double
// hierarchy (N = 640), 146 with a float one (N = 674, 8 blocks), 114 with a
// float one and the implicit P (N = 700, 8 blocks; 126 at N = 96, where the
// fixed costs weigh more); 3D 27-pt in 8 blocks 130 (N = 200, double). The
// memory free must exceed the peak in use by what the pool cannot hand out
// (its granularity, scattered free blocks): with 146 B per row free a setup
// whose peak in use is ~126 ran out (GPU test, 4M rows). So 220 / 170 / 130.
constexpr double kBlockedBytesPerRow = 220, kBlockedFloatBytesPerRow = 170, kBlockedImplicitBytesPerRow = 130;
// Both models were measured in the default build; a 64-bit build (docs/design.md,
// "Index widths") holds 8-byte row offsets: 13 B per row more at the setup's
// peak (3D 7-pt N = 512 on the H200: 361 -> 374 B per unknown; 178 / 137 / 130
// against 165 / 138 / 126 B per row at N = 96 in the GPU test).
constexpr double kWideOffsetBytesPerRow = kWideOffsets ? 13 : 0;

// The level's tentative prolongator: from integer weights for a scalar
// problem's constant near-nullspace, else the QR of B per aggregate (B made
// again, Level::near_nullspace, where the fine level's constant one was not kept).
amg::Tentative tentative_of(const Level& L, const amg::Aggregates& ag) {
  if (L.constant_nullspace) return amg::constant_tentative_prolongator(ag, L.weights);
  if (L.B.empty()) return amg::tentative_prolongator(ag, L.near_nullspace(), L.nullspace_columns);
  return amg::tentative_prolongator(ag, L.B, L.nullspace_columns);
}

// Runs one phase of level `lvl`, timed into `sec[phase]`. A failure inside it
// (out of device memory, above all) names the level, the phase and, for the
// products, the SpGEMM: the allocation's message alone says only which array,
// how much and how much was free.
struct PhaseStep {
  PhaseTimer& timer;
  std::map<std::string, double>& sec;
  const char* what;  // "AMG setup" or "AMG resetup"
  int lvl;
  index_t rows;
  std::int64_t nnz;
  std::string spgemm;
  std::map<std::string, std::size_t>* peaks = nullptr;  // device setups: the memory peak of each phase
  template <class F>
  auto operator()(const std::string& phase, F&& f) -> decltype(f()) {
    try {
      if (!peaks) return timer.time(sec[phase], f);
      device::mark_phase_peak();
      struct Record {  // after the phase, also when it returns a value
        std::map<std::string, std::size_t>* peaks;
        const std::string& phase;
        ~Record() {
          try {
            auto& p = (*peaks)[phase];
            p = std::max(p, device::phase_peak());
          } catch (...) {  // a device error surfaces at the next checked call
          }
        }
      };
      Record record{peaks, phase};
      return timer.time(sec[phase], f);
    } catch (const DeviceError& e) {
      const std::string msg =
          fmt::format("{}, level {} ({} rows, {} nonzeros), phase '{}'{}: {}", what, lvl, rows, nnz,
                      setup_phase_label(phase),
                      is_spgemm_phase(phase) ? fmt::format(" with SpGEMM '{}'", spgemm) : std::string(), e.what());
      if (dynamic_cast<const DeviceOutOfMemory*>(&e)) throw DeviceOutOfMemory(msg);
      throw DeviceError(msg);
    }
  }
};

// P = T - ω D⁻¹ (A T): one fused pass where the SpGEMM fuses it (the "AT"
// phase includes the update), else A T and the update.
CsrMatrix smoothed_prolongator(const Level& L, const CsrMatrix& T, double omega, const SpgemmAlgorithm& product,
                               PhaseStep& step, SpgemmStats& ss) {
  if (product.fuses_scaled_add())
    return step("AT", [&] {
      Vector d = L.dinv.clone();
      scale(-omega, d);
      ss = SpgemmStats{};
      return product.multiply_scaled_add(L.A, T, d, T, &ss);
    });
  CsrMatrix AT = step("AT", [&] {
    ss = SpgemmStats{};
    return product.multiply(L.A, T, &ss);
  });
  return step("smooth_update", [&] { return amg::jacobi_smooth_update(T, std::move(AT), L.dinv, omega); });
}

// How many blocks of R's rows the Galerkin product of level L is computed in
// (SetupParams::galerkin_slices): given, or the auto rule (galerkin_auto_blocks)
// from the estimates of A P's products, nnz(A) · nnz(P) / rows(P), and of its
// nonzeros, 3 nnz(P) (1.9-2.7 nnz(P) measured on every seed stencil's first two
// levels, where the products are 2.7-11 times the nonzeros), at most the
// products.
int galerkin_slices(const Level& L, const SetupParams& p) {
  if (p.galerkin_slices > 0) return std::min<index_t>(p.galerkin_slices, std::max<index_t>(1, L.P.cols()));
  const double products = static_cast<double>(L.A.nnz()) * L.P.nnz() / std::max<index_t>(1, L.P.rows());
  const double nonzeros = std::min(products, 3.0 * static_cast<double>(L.P.nnz()));
  const bool on_device = L.A.space() == Space::device;
  // Only large products ask the device what it has free.
  const double available =
      on_device && !ap_stays_whole(products) ? static_cast<double>(device::available_memory()) : -1.0;
  const int blocks = galerkin_auto_blocks(products, nonzeros, available);
  return static_cast<int>(std::min<index_t>(blocks, std::max<index_t>(1, L.P.cols())));
}

// R (A P) in `slices` blocks of R's rows, each handed to take(I0, I1, C_b) with
// C_b = rows [I0, I1) of R (A P); A P's and the products' work counts added
// into ap and ptap, the rows of A P computed into ap_rows. Block b needs the
// rows of A P that are columns of R's rows I0..I1, which lie in [f0, f1] (the
// block's column span, `column_span`), so it computes A[f0..f1, :] P and
// R[I0..I1, f0..f1] times it, and frees both before the next block: peak
// memory holds one block's A P instead of all of it. Where R is not formed yet
// (the setup forms it after the blocks), each block's rows of R are made from
// P: the transpose of P's entries in columns [I0, I1) of rows [f0, f1] (the
// rows with such entries, `row_span_of_columns`), so the setup's peak holds
// neither R nor A P whole. Where aggregates follow
// the row order (grids, most meshes) the spans of the blocks hardly overlap;
// where they do not, each block recomputes more of A P (the time grows, the
// result does not change: each row of A P is the same product).
template <class Take>
void galerkin_blocks(const Level& L, const SpgemmAlgorithm& product, int slices, PhaseStep& step, SpgemmStats& ap,
                     SpgemmStats& ptap, std::int64_t& ap_rows, Take take) {
  auto add = [](SpgemmStats& total, const SpgemmStats& s) {
    total.products += s.products;
    total.nnz_c += s.nnz_c;
    total.workspace_bytes = std::max(total.workspace_bytes, s.workspace_bytes);
    total.slices += s.slices;
    total.offset_bits = std::max(total.offset_bits, s.offset_bits);
  };
  ap.offset_bits = ptap.offset_bits = 32;  // raised by the blocks that read wider offsets
  const index_t nc = L.P.cols();
  const bool have_R = L.R.rows() == nc && nc > 0;
  ap_rows = 0;
  for (int b = 0; b < slices; ++b) {
    const index_t I0 = static_cast<index_t>(static_cast<std::int64_t>(nc) * b / slices);
    const index_t I1 = static_cast<index_t>(static_cast<std::int64_t>(nc) * (b + 1) / slices);
    const std::pair<index_t, index_t> span = step("PtAP", [&] {
      return have_R ? column_span(L.R, I0, I1) : row_span_of_columns(L.P, I0, I1);
    });
    const index_t f0 = span.first, f1 = span.second;  // named, not bound: the lambdas below capture them
    if (f1 < f0) {  // no entries in these rows of R
      take(I0, I1, CsrMatrix::zeros(I1 - I0, nc, L.A.space()));
      continue;
    }
    SpgemmStats s;
    const CsrMatrix AP = step("AP", [&] {
      const CsrMatrix A_rows = row_block(L.A, f0, f1 + 1, 0, -1, true);  // a view of A's entries
      return product.multiply(A_rows, L.P, &s);
    });
    add(ap, s);
    ap_rows += f1 + 1 - f0;
    s = SpgemmStats{};
    CsrMatrix C = step("PtAP", [&] {
      const CsrMatrix R_rows = have_R ? row_block(L.R, I0, I1, f0, f1 + 1 - f0)
                                      : transpose(column_block(row_block(L.P, f0, f1 + 1, 0, -1, true), I0, I1));
      return product.multiply(R_rows, AP, &s);
    });
    add(ptap, s);
    take(I0, I1, std::move(C));
  }
}

// The next level's matrix R (A P), timed as the phases "AP" and "PtAP": whole,
// or in blocks (galerkin_blocks) stacked into one matrix.
// With `single` (the next level's hierarchy_precision is float) the product's
// values are rounded to float, block by block as they are made: the blocks of
// the next matrix then hold 8 bytes per nonzero instead of 12 while the rest
// of the product is computed (docs/memory.md).
CsrMatrix galerkin_product(const Level& L, const SpgemmAlgorithm& product, int slices, bool single, PhaseStep& step,
                           LevelStats& st) {
  SpgemmStats ap, ptap;
  CsrMatrix C;
  if (slices <= 1) {
    const CsrMatrix AP = step("AP", [&] { return product.multiply(L.A, L.P, &ap); });
    C = step("PtAP", [&] { return product.multiply(L.R, AP, &ptap); });
    if (single) step("PtAP", [&] { C.store_values_single(); });
    st.galerkin_ap_rows = L.A.rows();
  } else {
    std::vector<CsrMatrix> blocks;
    galerkin_blocks(L, product, slices, step, ap, ptap, st.galerkin_ap_rows, [&](index_t, index_t, CsrMatrix Cb) {
      if (single) step("PtAP", [&] { Cb.store_values_single(); });
      blocks.push_back(std::move(Cb));
    });
    C = step("PtAP", [&] { return stack_rows(std::move(blocks)); });
  }
  st.spgemm["AP"] = {ap.products, ap.nnz_c, st.seconds["AP"], ap.workspace_bytes, ap.slices, ap.offset_bits};
  st.spgemm["PtAP"] = {ptap.products,      ptap.nnz_c,  st.seconds["PtAP"], ptap.workspace_bytes,
                       ptap.slices,        ptap.offset_bits};
  return C;
}

// The values of next = R (A P) again, in the blocks the setup used (a resetup
// of a level whose A P did not fit whole): each block's rows of the product
// have next's structure there, and their values are copied into next's.
void galerkin_values_in_blocks(const Level& L, const SpgemmAlgorithm& product, int slices, PhaseStep& step,
                               CsrMatrix& next) {
  SpgemmStats ap, ptap;
  std::int64_t ap_rows = 0;
  double* val = next.mutable_val().data();
  galerkin_blocks(L, product, slices, step, ap, ptap, ap_rows, [&](index_t I0, index_t I1, CsrMatrix Cb) {
    step("PtAP", [&] {
      const offset_t b = next.row_ptr().get(I0), e = next.row_ptr().get(I1);
      SAGA_REQUIRE(Cb.nnz() == e - b && first_pattern_difference(row_block(next, I0, I1, 0, -1, true), Cb) < 0,
                   "resetup: rows {}..{} of the Galerkin product have another structure than at the setup", I0,
                   I1 - 1);
      copy_values(Cb, val + b);
    });
  });
}

// A's values rounded to float in a new array, with A's row offsets and columns
// read in place (views): the cycle's fine matrix where
// amg.fine_cycle_precision is float (Level::A_cycle; A outlives it, pattern
// unchanged: a resetup drops it before A is replaced).
CsrMatrix single_precision_values_of(const CsrMatrix& A) {
  const Array<double>& v = A.val();
  Array<float> f(v.size(), A.space(), "cycle's single-precision fine values");
  parallel_for(A.space(), static_cast<std::int64_t>(v.size()), functors::ValuesToSingle{v.data(), f.data()});
  return CsrMatrix(A.rows(), A.cols(),
                   Array<offset_t>::view(const_cast<offset_t*>(A.row_ptr().data()), A.row_ptr().size(), A.space()),
                   Array<index_t>::view(const_cast<index_t*>(A.col().data()), A.col().size(), A.space()),
                   std::move(f));
}

// Level lvl's matrices that only the solve phase reads, stored in single
// precision where its hierarchy_precision says so: P and R, A below the fine
// level (the fine matrix is also the Krylov method's operator, rounded only
// where that loses nothing: exact_single), and on the coarsest the coarse
// solver's inverse. Called once each has no other reader left in the setup;
// on the fine level, also makes the cycle's float copy of A's values
// (fine_cycle_precision). Records the level's bytes as stored.
void store_for_cycle(Level& L, int lvl, const SetupParams& here, amg::CoarseSolver* coarse, LevelStats& st) {
  const bool single = here.hierarchy_precision == "float";
  if (single) {
    L.P.store_values_single();
    L.R.store_values_single();
    if (lvl > 0) L.A.store_values_single();
    if (coarse) coarse->inverse.store_values_single();
  }
  st.exact_single = false;
  // A view of the caller's values (zero-copy embedding) stays in place: no copy is made.
  if (lvl == 0 && here.exact_single && !L.A.single_precision() && L.A.val().owns()) {
    try {
      // Where every value round-trips: the same products bit for bit (one pass converts and checks).
      st.exact_single = L.A.store_values_single_if_exact();
    } catch (const DeviceOutOfMemory&) {  // the float copy is made before the doubles go: no room, no harm
      log_info("the fine matrix stays in double: no device memory for its single-precision copy ({} values)",
               L.A.nnz());
    }
  }
  // The cycle's float copy of the fine values, where A's are doubles: made
  // again after every setup or resetup of A's values (a resetup drops it first).
  L.A_cycle = CsrMatrix();
  st.fine_cycle_single = false;
  if (lvl == 0 && here.fine_cycle_precision == "float" && !L.A.single_precision()) {
    try {
      L.A_cycle = single_precision_values_of(L.A);
      st.fine_cycle_single = true;
    } catch (const DeviceOutOfMemory&) {  // the cycle reads the doubles, as without the option
      log_info("the cycle reads the fine matrix in double: no device memory for its single-precision copy ({} "
               "values)",
               L.A.nnz());
    }
  }
  st.single_precision = single;
  st.matrix_bytes = L.A.bytes() + L.P.bytes() + L.R.bytes() + (coarse ? coarse->inverse.bytes() : 0) +
                    L.A_cycle.val_single().size() * sizeof(float);
}

// Whether level lvl + 1's matrix is made in single precision: its hierarchy is
// (its values are rounded for the cycle anyway). The Galerkin product rounds
// it as it is made, and that level's setup widens the rounded values again, so
// the setup of every coarse level reads the values its cycle will use, whether
// the product ran whole or in blocks, in a setup or a resetup.
bool coarse_in_single(const SetupParams& params, int lvl) {
  return params.at_level(lvl + 1).hierarchy_precision == "float";
}

// Whether level L's P may be applied implicitly: T of one column per aggregate
// over the constant vector (T e = e[g] / Bc[g] on the nodes of aggregate g,
// Bc the aggregate norms: AggregateQr's values exactly), P = T - ωD⁻¹(A T).
bool implicit_prolongator_fits(const Level& L, const SetupParams& here, const amg::Tentative& T) {
  return here.implicit_prolongator && L.B_is_ones && L.nullspace_columns == 1 && L.node_of.empty() && T.dropped == 0;
}

// P (made for the Galerkin product, which is done) dropped for its implicit
// form: the reciprocal aggregate norms and ω (the aggregates are kept anyway).
void make_prolongator_implicit(Level& L, const Vector& aggregate_norms, double omega, LevelStats& st) {
  L.aggregate_scale = aggregate_norms.clone();
  parallel_for(L.aggregate_scale.space(), static_cast<std::int64_t>(L.aggregate_scale.size()),
               functors::Reciprocal{L.aggregate_scale.data()});
  L.prolongator_omega = omega;
  L.P = CsrMatrix();
  st.implicit_prolongator = true;
}
}  // namespace

std::size_t HierarchyStats::matrix_bytes() const {
  std::size_t b = 0;
  for (const auto& l : levels) b += l.matrix_bytes;
  return b;
}

Vector Level::near_nullspace() const { return B_is_ones ? ones(A.rows(), A.space()) : B.clone(); }

namespace {
// The coarse solver of the coarsest level L, given L's near-nullspace (the
// null space of a semi-definite coarse matrix lies in it: amg/coarse_null_space.hpp).
// previous: the last factorisation of this level (a resetup), whose null
// directions are tried first.
amg::CoarseSolver factorise_coarsest(const Level& L, const Component& c, const amg::CoarseSolver* previous = nullptr) {
  const Vector made = L.B.empty() ? L.near_nullspace() : Vector();
  return amg::factorise_coarse(L.A, c, L.B.empty() ? &made : &L.B, L.nullspace_columns, previous);
}
}  // namespace

const std::set<std::string>& cycle_level_keys() {
  static const std::set<std::string> k{"smoother", "pre_sweeps", "post_sweeps"};
  return k;
}

index_t coarse_size_for(const SetupParams& p, Space space) {
  if (p.coarse_size > 0) return p.coarse_size;
  const bool device_inverse =
      space == Space::device && amg::coarse_solvers().resolve(p.coarse_solver, space) == "dense_cholesky";
  return device_inverse ? 800 : 500;
}

SetupParams SetupParams::at_level(int l) const {
  SetupParams p = *this;
  if (l < 0 || static_cast<std::size_t>(l) >= levels.size()) return p;
  Options setup_keys;  // the smoother's own options ("smoother.degree") belong to the cycle
  for (const auto& [k, o] : levels[l].values())
    if (k.rfind("smoother.", 0) != 0) setup_keys.set(k, o.text, o.where);
  read_params(p, setup_keys, fmt::format("amg.levels[{}]", l), cycle_level_keys());
  return p;
}

void validate(const SetupParams& p, std::optional<Space> space) {
  SetupParams copy = p;
  read_params(copy, Options(), "amg");
  spgemm_registry().validate(p.spgemm, space);
  amg::coarse_solvers().validate(p.coarse_solver, space);
  amg::strength_measures().validate(p.strength, space);
  nullspace_sources().validate(p.nullspace, space);
  amg::aggregation_methods().validate(p.aggregation, space);
  for (std::size_t l = 0; l < p.levels.size(); ++l) p.at_level(static_cast<int>(l));
}

std::size_t estimate_setup_bytes(index_t rows, std::int64_t nnz, int nullspace_columns) {
  const double per_row =
      kBytesPerRow + kWideOffsetBytesPerRow + kBytesPerRowPerColumn * std::max(0, nullspace_columns - 1);
  return static_cast<std::size_t>(kFixedBytes + per_row * rows + kBytesPerNonzero * static_cast<double>(nnz));
}

std::size_t estimate_blocked_setup_bytes(index_t rows, int nullspace_columns, const SetupParams& p) {
  const bool single = p.hierarchy_precision == "float";
  const double base = !single ? kBlockedBytesPerRow
                      : p.implicit_prolongator && nullspace_columns == 1 ? kBlockedImplicitBytesPerRow
                                                                           : kBlockedFloatBytesPerRow;
  const double per_row = base + kWideOffsetBytesPerRow + kBytesPerRowPerColumn * std::max(0, nullspace_columns - 1);
  return static_cast<std::size_t>(kFixedBytes + per_row * rows);
}

std::string fit_to_memory(SetupParams& p, index_t rows, const NearNullspace& ns, std::size_t available) {
  if (!p.fit_memory) return "";
  std::vector<std::string> changed;
  const std::size_t before = estimate_blocked_setup_bytes(rows, ns.columns, p);
  if (p.hierarchy_precision == "double" && before > available) {
    p.hierarchy_precision = "float";
    changed.push_back("the hierarchy stored in float");
  }
  const bool implicit_can = ns.columns == 1 && ns.B.empty() && ns.block_size <= 1;
  if (!p.implicit_prolongator && implicit_can && p.hierarchy_precision == "float" &&
      estimate_blocked_setup_bytes(rows, ns.columns, p) > available) {
    p.implicit_prolongator = true;
    changed.push_back("P applied implicitly");
  }
  if (changed.empty()) return "";
  return fmt::format("{}{}: {:.1f} GiB of device memory estimated beyond the matrix, {:.1f} GiB available "
                     "(amg.fit_memory: false keeps the settings)",
                     changed[0], changed.size() > 1 ? " and " + changed[1] : std::string(), before / 1073741824.0,
                     available / 1073741824.0);
}

std::int64_t HierarchyStats::largest_spgemm_workspace() const {
  std::int64_t w = 0;
  for (const LevelStats& L : levels)
    for (const auto& [name, rec] : L.spgemm) w = std::max(w, rec.workspace_bytes);
  return w;
}

double HierarchyStats::spgemm_seconds() const {
  double s = 0;
  for (const auto& [phase, t] : phase_seconds)
    if (is_spgemm_phase(phase)) s += t;
  return s;
}

Hierarchy::Hierarchy(CsrMatrix A, const SetupParams& params, NearNullspace ns,
                     std::shared_ptr<const Executor> exec)
    : params_(params), exec_(exec ? std::move(exec) : active_executor(A.space())) {
  SAGA_REQUIRE(exec_->space() == A.space(), "the matrix lives on the {} but the executor is {}", to_string(A.space()),
               exec_->name());
  ExecutorScope scope(exec_);
  validate(params_, A.space());
  require_system_matrix(A, "AMG");
  const Space s = A.space();
  PhaseTimer timer(s == Space::device);
  const auto t_setup = std::chrono::steady_clock::now();
  check_nullspace(ns, A.rows());
  stats_.estimated_bytes = estimate_setup_bytes(A.rows(), A.nnz(), ns.columns);
  if (A.space() == Space::device) {
    // The whole model counts A P whole; with the block count left to the setup
    // (or given) the Galerkin product runs in blocks where it does not fit, and
    // the setup needs what the blocked model says.
    const std::size_t available = device::available_memory();
    stats_.memory_fit = fit_to_memory(params_, A.rows(), ns, available);
    if (!stats_.memory_fit.empty()) log_info("AMG setup: {}", stats_.memory_fit);
    const std::size_t blocked = estimate_blocked_setup_bytes(A.rows(), ns.columns, params_);
    stats_.estimated_blocked_bytes = blocked;
    const bool blocks = params_.galerkin_slices != 1;
    const std::size_t need = blocks ? std::min(blocked, stats_.estimated_bytes) : stats_.estimated_bytes;
    if (need > available)
      log_warning("the AMG setup of {} rows and {} nonzeros is estimated to need {:.2f} GiB of device memory beyond "
                  "the matrix{} and {:.2f} GiB are available: it may run out (the error then names the level and "
                  "phase); amg.hierarchy_precision: float, amg.implicit_prolongator: true and amg.galerkin_slices "
                  "lower the need (docs/memory.md)",
                  A.rows(), A.nnz(), need / 1073741824.0, blocks ? " with the Galerkin product in blocks" : "",
                  available / 1073741824.0);
    else if (stats_.estimated_bytes > available)
      log_info("the Galerkin products may not fit whole ({:.2f} GiB estimated beyond the matrix, {:.2f} GiB "
               "available): they run in blocks of rows where needed (amg.galerkin_slices, docs/memory.md)",
               stats_.estimated_bytes / 1073741824.0, available / 1073741824.0);
  }
  const bool B_is_ones = ns.B.empty();
  const bool constant_nullspace = B_is_ones && ns.columns == 1 && ns.block_size <= 1;
  if (B_is_ones && !constant_nullspace) ns.B = ones(A.rows(), s);  // the constant path needs no B
  SAGA_REQUIRE(ns.B.empty() || ns.B.space() == s, "near-nullspace and matrix live in different spaces");

  const auto strength = amg::strength_measures().create(params_.strength, s);
  const auto aggregation = amg::aggregation_methods().create(params_.aggregation, s);
  const auto product = spgemm_registry().create(params_.spgemm, s);

  stats_.coarse_size = coarse_size_for(params_, s);
  Level fine;
  fine.A = std::move(A);
  fine.B = std::move(ns.B);
  fine.nullspace_columns = ns.columns;
  fine.B_is_ones = B_is_ones;
  fine.constant_nullspace = constant_nullspace;
  if (ns.block_size > 1) {
    fine.node_of = amg::interleaved_nodes(fine.A.rows(), ns.block_size, s);
    fine.nodes = fine.A.rows() / ns.block_size;
  }
  levels_.push_back(std::move(fine));

  for (;;) {
    Level& L = levels_.back();
    LevelStats st;
    st.rows = L.A.rows();
    st.nnz = L.A.nnz();
    auto& sec = st.seconds;
    for (const auto& p : setup_phases()) sec[p] = 0;
    const int lvl = static_cast<int>(levels_.size()) - 1;
    const SetupParams here = params_.at_level(lvl);
    st.theta = here.theta;
    PhaseStep step{timer, sec, "AMG setup", lvl, L.A.rows(), L.A.nnz(), spgemm_registry().resolve(params_.spgemm, s),
                   s == Space::device ? &st.peak_bytes : nullptr};
    step("other", [&] {
      L.A.store_values_double();  // a coarse matrix made in float (coarse_in_single): its setup reads doubles
      L.dinv = inverse_diagonal(L.A, lvl == 0 ? "matrix" : "coarse matrix");
    });
    const bool coarsest = L.A.rows() <= stats_.coarse_size || lvl + 1 >= params_.max_levels;
    if (coarsest) {
      step("coarse_factorisation", [&] { coarse_ = factorise_coarsest(L, params_.coarse_solver); });
      step("other", [&] { store_for_cycle(L, lvl, here, &coarse_, st); });
      stats_.levels.push_back(std::move(st));
      break;
    }
    // Strength of connection and MIS-2 aggregation at threshold theta (timed
    // into this level's phases; the times add up when called twice), on the
    // node matrix where unknowns come in blocks (amg/blocks.hpp).
    const bool blocks = !L.node_of.empty();
    CsrMatrix node_matrix;
    if (blocks)
      node_matrix = step("strength", [&] { return amg::node_matrix(L.A, L.node_of, L.nodes, *product); });
    const CsrMatrix& G = blocks ? node_matrix : L.A;
    st.nodes = G.rows();
    auto strong = [&](double theta) { return step("strength", [&] { return strength->strong(G, theta); }); };
    auto aggregate = [&](const CsrMatrix& S) {
      return step("aggregation", [&] {
        amg::Aggregates ag = aggregation->aggregate(S, params_.seed + static_cast<std::uint32_t>(lvl),
                                                       amg::AggregationLevel{lvl, L.nullspace_columns});
        if (ag.unaggregated > 0) amg::singletons_for_weak_nodes(G, ag);
        if (blocks) ag = amg::unknowns_aggregates(ag, L.node_of);
        return ag;
      });
    };
    // A node without strong neighbours ends as a singleton aggregate or left
    // out, so where they are more than half the rows the fallback below is
    // certain: theta = 0 at once, without aggregating twice (blocked
    // aggregation on such rows, most nodes members one after another, took
    // 1.5-2 ms on a 29k-row level of the checkerboard problem).
    amg::Aggregates ag;
    CsrMatrix S = strong(here.theta);
    if (here.theta > 0 && !blocks) {
      const index_t lone = step("strength", [&] { return amg::nodes_without_neighbours(S); });
      if (lone > G.rows() / 2) {
        st.theta_fallback = fmt::format("theta = {} leaves {} of {} rows without strong neighbours; theta = 0 used "
                                        "on this level",
                                        here.theta, lone, G.rows());
        log_info("level {}: {}", lvl, st.theta_fallback);
        S = strong(0.0);
        st.theta = 0.0;
      }
    }
    ag = aggregate(S);
    if (st.theta_fallback.empty() && here.theta > 0 && ag.count + ag.unaggregated > G.rows() / 2) {
      // With theta > 0 a coarse operator can lose most of its strong
      // connections (every off-diagonal below theta of the diagonal), and the
      // level would hardly coarsen (many aggregates, or many nodes left out
      // for want of strong neighbours), leaving a huge "coarsest" matrix. Use
      // all connections (theta = 0) on such a level instead.
      st.theta_fallback = fmt::format("theta = {} leaves {} aggregates and {} nodes without strong neighbours for {} "
                                      "rows; theta = 0 used on this level",
                                      here.theta, ag.count, ag.unaggregated, G.rows());
      log_info("level {}: {}", lvl, st.theta_fallback);
      S = CsrMatrix();  // its memory back before the next strength graph
      ag = aggregate(strong(0.0));
      st.theta = 0.0;
    }
    st.aggregates = ag.count;
    st.mis2_rounds = ag.mis2_rounds;
    st.block_colours = ag.block_colours;
    if (static_cast<std::int64_t>(ag.count) * L.nullspace_columns >= L.A.rows() || ag.count == 0) {
      // No coarsening possible (e.g. a diagonal matrix): make this the coarsest.
      log_info("level {}: aggregation does not coarsen ({} aggregates of {} columns for {} rows); stopping", lvl,
               ag.count, L.nullspace_columns, L.A.rows());
      step("coarse_factorisation", [&] { coarse_ = factorise_coarsest(L, params_.coarse_solver); });
      step("other", [&] { store_for_cycle(L, lvl, here, &coarse_, st); });
      st.aggregates = 0;
      stats_.levels.push_back(std::move(st));
      break;
    }
    amg::Tentative T = step("tentative", [&] { return tentative_of(L, ag); });
    st.dropped_columns = T.dropped;
    if (L.B_is_ones) L.B = Vector();  // made again by a resetup that needs it
    L.rho = step("spectral_radius", [&] { return amg::spectral_radius_dinv_a(L.A, L.dinv, here.rho_iterations); });
    st.rho = L.rho;
    const double omega = here.prolongator_omega > 0 ? here.prolongator_omega : 4.0 / (3.0 * L.rho);
    SpgemmStats ss;
    L.P = smoothed_prolongator(L, T.T, omega, *product, step, ss);
    const bool implicit = implicit_prolongator_fits(L, here, T);
    T.T = CsrMatrix();  // freed before the products (16 B per row of this level)
    st.spgemm["AT"] = {ss.products, ss.nnz_c, sec["AT"], ss.workspace_bytes, ss.slices, ss.offset_bits};
    Level next;
    st.galerkin_slices = galerkin_slices(L, here);  // amg.levels[l] may set it per level
    // In blocks, R is formed after the product (each block makes its rows of R
    // from P), when no A P is held any more, and in as many blocks (the sort of
    // a whole transpose takes ~24 B per entry of P besides R).
    if (st.galerkin_slices == 1) {
      try {
        L.R = step("transpose", [&] { return transpose(L.P); });
      } catch (const DeviceOutOfMemory& e) {
        // Near the memory's end (or in a fragmented pool) the whole transpose
        // may not fit where the blocks would: with the block count left to the
        // setup, R is then formed after the product, in its blocks.
        if (here.galerkin_slices > 0 || L.P.cols() < 2) throw;
        log_info("level {}: the transpose of P ran out of device memory; the Galerkin product in 2 blocks ({})", lvl,
                 e.what());
        st.galerkin_slices = 2;
        st.galerkin_retries += 1;
      }
    }
    // With the block count left to the setup, a product that runs out of device
    // memory (the rule's estimate of A P leaves out the workspace of the
    // product that reads it) or past the offsets is computed again in twice as
    // many blocks.
    for (;;) {
      try {
        next.A = galerkin_product(L, *product, st.galerkin_slices, coarse_in_single(params_, lvl), step, st);
        break;
      } catch (const Error& e) {
        // Out of memory, or a block's A P past the offsets of this build
        // (OffsetOverflow: the 32-bit build past 2^31 - 1 nonzeros).
        const bool out_of_memory = dynamic_cast<const DeviceOutOfMemory*>(&e) != nullptr;
        if (!out_of_memory && dynamic_cast<const OffsetOverflow*>(&e) == nullptr) throw;
        const int more = 2 * st.galerkin_slices;
        if (here.galerkin_slices > 0 || more > std::min<index_t>(256, L.P.cols())) throw;
        log_info("level {}: the Galerkin product in {} blocks {}; {} blocks ({})", lvl, st.galerkin_slices,
                 out_of_memory ? "ran out of device memory" : "passed the offsets of this build", more, e.what());
        st.galerkin_slices = more;
        st.galerkin_retries += 1;
        L.R = CsrMatrix();  // blocks make their rows of R from P; R is formed after them
      }
    }
    if (st.galerkin_slices > 1) {
      // With a single-precision hierarchy P is rounded first: R is then made
      // in float from it (the same values as rounding R), and the double P and
      // a double R are never held together.
      if (here.hierarchy_precision == "float") step("other", [&] { L.P.store_values_single(); });
      // Out of memory, R is made again in twice as many blocks (the same R bit
      // for bit), as the products are; a count the user set is kept.
      for (int blocks = st.galerkin_slices;; blocks *= 2) {
        try {
          L.R = step("transpose", [&] { return transpose_in_blocks(L.P, blocks); });
          break;
        } catch (const DeviceOutOfMemory& e) {
          if (here.galerkin_slices > 0 || 2 * blocks > std::min<index_t>(256, L.P.cols())) throw;
          log_info("level {}: R in {} blocks ran out of device memory; {} blocks ({})", lvl, blocks, 2 * blocks,
                   e.what());
        }
      }
    }
    next.B = std::move(T.Bc);
    next.nullspace_columns = L.nullspace_columns;
    next.constant_nullspace = L.constant_nullspace;
    next.weights = std::move(T.coarse_weights);
    if (L.nullspace_columns > 1) {
      next.node_of = std::move(T.coarse_node);
      next.nodes = ag.count;
    }
    L.aggregates = std::move(ag.of_node);
    L.aggregate_count = ag.count;
    L.aggregates_left_out = ag.unaggregated;
    if (implicit) step("other", [&] { make_prolongator_implicit(L, next.B, omega, st); });
    step("other", [&] { store_for_cycle(L, lvl, here, nullptr, st); });
    stats_.levels.push_back(std::move(st));
    levels_.push_back(std::move(next));
  }
  exec_->synchronize();
  stats_.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_setup).count();
  stats_.coarse_pseudo_inverse = coarse_.pseudo_inverse;
  stats_.coarse_null_space_columns = coarse_.null_space_columns;
  stats_.coarse_solver = coarse_.name;
  stats_.strength = amg::strength_measures().resolve(params_.strength, space());
  stats_.aggregation = amg::aggregation_methods().resolve(params_.aggregation, space());
  stats_.spgemm_algorithm = spgemm_registry().resolve(params_.spgemm, space());
  double rows = 0, nnz = 0;
  for (std::size_t l = 0; l < stats_.levels.size(); ++l)
    for (const auto& [phase, bytes] : stats_.levels[l].peak_bytes)
      if (bytes > stats_.peak_bytes) {
        stats_.peak_bytes = bytes;
        stats_.peak_phase = phase;
        stats_.peak_level = static_cast<int>(l);
      }
  for (const auto& l : stats_.levels) {
    rows += l.rows;
    nnz += static_cast<double>(l.nnz);
    for (const auto& [p, t] : l.seconds) stats_.phase_seconds[p] += t;
  }
  stats_.grid_complexity = rows / stats_.levels.front().rows;
  stats_.operator_complexity = nnz / static_cast<double>(stats_.levels.front().nnz);
}

ResetupStats Hierarchy::resetup(CsrMatrix A, const ResetupOptions& options) {
  ExecutorScope scope(exec_);
  const Space s = space();
  const CsrMatrix& old = levels_.front().A;
  require_resetup_matrix(old, A, "hierarchy");
  ResetupStats rs;
  rs.prolongator_refreshed = options.refresh_prolongator;
  for (const Level& L : levels_) rs.prolongator_refreshed = rs.prolongator_refreshed || L.implicit_prolongator();
  PhaseTimer timer(s == Space::device);
  const auto t0 = std::chrono::steady_clock::now();
  if (s == Space::device) device::available_memory();  // the products' budgets start from the driver's count
  const auto product = spgemm_registry().create(params_.spgemm, s);
  const std::string spgemm_name = spgemm_registry().resolve(params_.spgemm, s);
  // The solve phase's copies of the operators (the binned SpMV's sliced rows)
  // go first: the resetup's own products (the Lanczos steps) would otherwise
  // make their values again at its peak. The next cycle makes them again.
  for (Level& L : levels_) {
    spmv_release(L.A);
    spmv_release(L.P);
    spmv_release(L.R);
    if (L.A_cycle.rows() > 0) spmv_release(L.A_cycle);
    L.A_cycle = CsrMatrix();  // views of the old matrix's pattern: made again from the new one (store_for_cycle)
  }
  A.share_structural_analyses(old);  // the same pattern (checked above): its SpMV plan holds
  levels_.front().A = std::move(A);
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    Level& L = levels_[l];
    const int lvl = static_cast<int>(l);
    PhaseStep step{timer, rs.phase_seconds, "AMG resetup", lvl, L.A.rows(), L.A.nnz(), spgemm_name};
    const SetupParams here = params_.at_level(lvl);
    LevelStats& st = stats_.levels[l];
    step("other", [&] {
      L.A.store_values_double();  // rounded below when made (coarse_in_single), as in the setup
      L.dinv = inverse_diagonal(L.A, lvl == 0 ? "matrix" : "coarse matrix");
    });
    if (l + 1 == levels_.size()) {
      step("coarse_factorisation", [&] { coarse_ = factorise_coarsest(L, params_.coarse_solver, &coarse_); });
      step("other", [&] { store_for_cycle(L, lvl, here, &coarse_, st); });
      break;
    }
    // An implicit P is the new matrix's by construction: it is made again for
    // the products (and dropped after them), whatever the options say.
    const bool implicit = L.implicit_prolongator();
    const bool refresh = options.refresh_prolongator || implicit;
    double omega = 0;
    if (refresh) {
      // T again from the kept aggregates and near-nullspace: the same T, so P
      // and the products keep their structure.
      amg::Aggregates ag;
      ag.of_node = std::move(L.aggregates);
      ag.count = L.aggregate_count;
      ag.unaggregated = L.aggregates_left_out;  // the constant tentative prolongator relies on it
      amg::Tentative T = step("tentative", [&] { return tentative_of(L, ag); });
      L.aggregates = std::move(ag.of_node);
      L.rho = step("spectral_radius", [&] { return amg::spectral_radius_dinv_a(L.A, L.dinv, here.rho_iterations); });
      stats_.levels[l].rho = L.rho;
      omega = here.prolongator_omega > 0 ? here.prolongator_omega : 4.0 / (3.0 * L.rho);
      SpgemmStats ss;
      L.P = smoothed_prolongator(L, T.T, omega, *product, step, ss);
      L.R = step("transpose", [&] { return transpose(L.P); });
    }
    // R (A P) in the blocks the setup used where A P did not fit whole; else
    // A P's values into the structure a previous resetup kept, when P was kept
    // too, or the whole product.
    // A P and R (A P) read P, R and write next in double: a hierarchy stored
    // in single precision widens them here (the products then use the rounded
    // P, as the cycle does) and rounds them again below.
    CsrMatrix& next = levels_[l + 1].A;
    step("other", [&] {
      L.P.store_values_double();
      L.R.store_values_double();
      next.store_values_double();
    });
    if (const int slices = st.galerkin_slices; slices > 1) {  // A P did not fit whole
      L.AP = CsrMatrix();
      galerkin_values_in_blocks(L, *product, slices, step, next);
      next.values_changed();
      require_finite(next, fmt::format("the level-{} Galerkin product", l + 1).c_str());
      if (coarse_in_single(params_, lvl)) step("PtAP", [&] { next.store_values_single(); });
      if (implicit) step("other", [&] { make_prolongator_implicit(L, levels_[l + 1].B, omega, st); });
      step("other", [&] { store_for_cycle(L, lvl, here, nullptr, st); });
      continue;
    }
    const bool keep = !refresh && options.keep_products;
    CsrMatrix AP = std::move(L.AP);  // a previous resetup's, or empty
    L.AP = CsrMatrix();  // (a moved-from matrix keeps its dimensions: the next resetup would take it as kept)
    if (keep && AP.rows() == L.A.rows() && AP.cols() == L.P.cols()) {
      step("AP", [&] { product->multiply_numeric(L.A, L.P, AP, nullptr); });
    } else {
      AP = CsrMatrix();  // freed before the new product is allocated
      AP = step("AP", [&] { return product->multiply(L.A, L.P, nullptr); });
    }
    step("PtAP", [&] { product->multiply_numeric(L.R, AP, next, nullptr); });
    if (keep) L.AP = std::move(AP);
    next.values_changed();  // new values: the analyses that read them go, the structural plans stay
    require_finite(next, fmt::format("the level-{} Galerkin product", l + 1).c_str());
    if (coarse_in_single(params_, lvl)) step("PtAP", [&] { next.store_values_single(); });
    if (implicit) step("other", [&] { make_prolongator_implicit(L, levels_[l + 1].B, omega, st); });
    step("other", [&] { store_for_cycle(L, lvl, here, nullptr, st); });
  }
  exec_->synchronize();
  rs.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stats_.coarse_pseudo_inverse = coarse_.pseudo_inverse;
  stats_.coarse_null_space_columns = coarse_.null_space_columns;
  return rs;
}

}  // namespace saga
