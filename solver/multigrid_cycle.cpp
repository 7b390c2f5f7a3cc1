#include "solver/multigrid_cycle.hpp"

#include <algorithm>

#include "core/device.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

namespace saga {

CycleParams CycleParams::at_level(const std::vector<Options>& levels, int l) const {
  CycleParams p = *this;
  if (l < 0 || static_cast<std::size_t>(l) >= levels.size()) return p;
  // Cycle keys of this level; the smoother's name ("smoother" or
  // "smoother.name") and options ("smoother.degree") are split off.
  static const std::set<std::string> other = param_keys<SetupParams>();
  Options cycle_keys, smoother_options;
  const Option* name = nullptr;
  for (const auto& [k, o] : levels[l].values()) {
    if (k == "smoother" || k == "smoother.name")
      name = &o;
    else if (k.rfind("smoother.", 0) == 0)
      smoother_options.set(k.substr(9), o.text, o.where);
    else
      cycle_keys.set(k, o.text, o.where);
  }
  read_params(p, cycle_keys, fmt::format("amg.levels[{}]", l), other);
  if (name && name->text != p.smoother.name) {  // another smoother: only this level's options
    p.smoother = Component(name->text, smoother_options);
    p.smoother.where = name->where;
  } else {  // the same smoother: this level's options over the global ones
    for (const auto& [k, o] : smoother_options.values()) p.smoother.options.set(k, o.text, o.where);
  }
  return p;
}

namespace {
// The device memory the cycle's SpMV copies may take (CycleParams::spmv_copies).
// within_peak: what the process already held at its peak (the setup's, on the
// seed problems) less what is in use now and the Krylov method's vectors, so
// that the copies do not raise the peak. free: at least that, and up to the
// device's free memory (its pool's cached blocks included) less the Krylov
// vectors and a margin of 1/16 of that memory (at least 256 MiB) left to the
// caller and the solve's scratch.
std::size_t copy_room(const std::string& policy, index_t rows, int krylov_vectors) {
  if (policy == "none") return 0;
  const std::size_t krylov =
      static_cast<std::size_t>(std::max(krylov_vectors, 0)) * sizeof(double) * static_cast<std::size_t>(rows);
  const device::PoolUsage u = device::pool_usage();
  std::size_t room = u.peak > u.current + krylov ? u.peak - u.current - krylov : 0;
  if (policy == "free") {
    const std::size_t available = device::available_memory();
    const std::size_t margin = std::max<std::size_t>(std::size_t(256) << 20, available / 16);
    if (available > krylov + margin) room = std::max(room, available - krylov - margin);
  }
  return room;
}
}  // namespace

void validate(const CycleParams& p, const std::vector<Options>& levels, std::optional<Space> space) {
  CycleParams copy = p;
  read_params(copy, Options(), "amg");
  cycles().validate(p.cycle, space);
  smoothers().validate(p.smoother, space);
  // A level with no sweep at all is only restricted and prolonged: its
  // high-frequency error is never reduced and the solve stalls.
  if (p.pre_sweeps + p.post_sweeps == 0)
    throw InputError("amg.pre_sweeps and amg.post_sweeps are both 0: no level would be smoothed and the cycle "
                     "cannot converge; give every level at least one sweep");
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const CycleParams q = p.at_level(levels, static_cast<int>(l));
    smoothers().validate(q.smoother, space);
    if (q.pre_sweeps + q.post_sweeps == 0)
      throw InputError(fmt::format("amg.levels[{}]: pre_sweeps and post_sweeps are both 0: that level would not be "
                                   "smoothed and the cycle cannot converge (the coarsest level is solved directly "
                                   "and needs no entry)",
                                   l));
  }
}

MultigridCycle::MultigridCycle(const Hierarchy& h, const CycleParams& params, int krylov_vectors)
    : h_(&h), params_(params) {
  ExecutorScope scope(h.executor());
  const auto& L = h.levels();
  const Space s = h.space();
  validate(params_, h.params().levels, s);
  shape_ = cycles().create(params_.cycle, s);
  for (std::size_t l = 0; l < L.size(); ++l) {
    const CycleParams here = params_.at_level(h.params().levels, static_cast<int>(l));
    pre_.push_back(here.pre_sweeps);
    post_.push_back(here.post_sweeps);
    r_.emplace_back(L[l].A.rows(), s, "cycle residual");
    if (l + 1 < L.size()) {
      smoothers_.push_back(
          smoothers().create(here.smoother, s, SmootherLevel{L[l].cycle_matrix(), L[l].dinv, L[l].rho}));
      smoother_names_.push_back(smoothers().resolve(here.smoother, s));
      bc_.emplace_back(L[l + 1].A.rows(), s, "cycle coarse right-hand side");
      xc_.emplace_back(L[l + 1].A.rows(), s, "cycle coarse correction");
    } else {
      smoothers_.push_back(nullptr);
      smoother_names_.push_back(h.coarse().name);
      bc_.emplace_back();
      xc_.emplace_back();
    }
  }
  // The SpMV analyses of every operator the cycle applies, made now rather
  // than inside the first solve, with the room the binned SpMV may keep for its
  // copies (amg.spmv_copies).
  std::size_t room =
      s == Space::device && !L.empty() ? copy_room(params_.spmv_copies, L[0].A.rows(), krylov_vectors) : 0;
  for_each_operator([&room](const CsrMatrix& A) { room -= std::min(room, spmv_prepare(A, room)); });
  // Then the small copies (a 64-bit build's 32-bit row offsets) in what is left.
  for_each_operator([&room](const CsrMatrix& A) { room -= std::min(room, spmv_prepare_offsets(A, room)); });
}

void MultigridCycle::for_each_operator(const std::function<void(const CsrMatrix&)>& fn) const {
  const auto& L = h_->levels();
  for (std::size_t l = 0; l < L.size(); ++l) {
    if (L[l].A_cycle.rows() > 0) fn(L[l].A_cycle);  // first: the cycle reads it twice per cycle, A once per iteration
    fn(L[l].A);
    if (l + 1 < L.size()) {
      fn(L[l].R);
      fn(L[l].P);
    }
  }
  fn(h_->coarse().inverse);
}

MultigridCycle::SpmvCopies MultigridCycle::spmv_copies() const {
  SpmvCopies c;
  for_each_operator([&c](const CsrMatrix& A) {
    const std::size_t b = spmv_kept_bytes(A);
    c.bytes += b;
    c.operators += b > 0 ? 1 : 0;
  });
  return c;
}

void MultigridCycle::apply(const Vector& r, Vector& z) const {
  ExecutorScope scope(h_->executor());
  cycle(*shape_, 0, r, z, true);
}

void MultigridCycle::apply_dot(const Vector& r, Vector& z, Scalars& s, int slot) const {
  ExecutorScope scope(h_->executor());
  Scalars* dot = &s;
  cycle(*shape_, 0, r, z, true, &dot, slot);
  if (dot) dot_into(r, z, s, slot);  // the cycle could not fuse it
}

// out = x + P e: P stored, or (I - ωD⁻¹A) T e in one pass over the level's A.
void MultigridCycle::prolong(const Level& L, const Vector& e, const Vector& x, Vector& out) {
  if (L.implicit_prolongator())
    // A itself, not the cycle's float copy: the prolongation must stay R's
    // transpose for the cycle to be symmetric.
    spmv_smoothed_prolongation(L.A, L.dinv, L.prolongator_omega, L.aggregates, L.aggregate_scale, e, x, out);
  else if (&out == &x)
    spmv(1.0, L.P, e, 1.0, out);
  else
    spmv_add(1.0, L.P, e, 1.0, x, out);
}

void MultigridCycle::cycle(const CycleShape& shape, std::size_t l, const Vector& b, Vector& x, bool zero_guess,
                           Scalars** dot, int slot) const {
  const auto& levels = h_->levels();
  if (l + 1 == levels.size()) {
    if (zero_guess) {
      spmv(h_->coarse().inverse, b, x);
    } else {  // x += A_c^-1 (b - A_c x)
      Vector& r = r_[l];
      spmv_residual(levels[l].cycle_matrix(), x, b, r);
      spmv(1.0, h_->coarse().inverse, r, 1.0, x);
    }
    return;
  }
  const Level& L = levels[l];
  const int pre = pre_[l], post = post_[l];
  Vector& r = r_[l];
  if (zero_guess && pre == 0) fill(x, 0.0);
  // A single pre-sweep from zero and the residual it leaves in one pass where
  // the smoother fuses them (damped and L1 Jacobi: the default V(1,1) cycle).
  const bool have_residual = zero_guess && pre == 1 && smoothers_[l]->sweep_from_zero_with_residual(b, x, r);
  if (pre > 0 && !have_residual) smoothers_[l]->smooth(b, x, pre, zero_guess);
  const bool x_zero = zero_guess && pre == 0;
  std::vector<const CycleShape*> visits = shape.coarse_visits();
  // The coarsest level is solved exactly: a second visit would change nothing.
  if (l + 2 == levels.size()) visits.resize(1);
  for (std::size_t g = 0; g < visits.size(); ++g) {
    if (g == 0 && have_residual) {
      // r made with the pre-sweep
    } else if (!x_zero || g > 0) {
      spmv_residual(L.cycle_matrix(), x, b, r);  // one pass: r = b - A x
    } else {
      copy(b, r);
    }
    spmv(L.R, r, bc_[l]);
    cycle(*visits[g], l + 1, bc_[l], xc_[l], true);
    if (post > 0 && g + 1 == visits.size() && smoothers_[l]->sweeps_out_of_place()) {
      // r is free again: r = x + P e, then the first post-sweep reads r and
      // writes x (no copy back).
      prolong(L, xc_[l], x, r);
      smoothers_[l]->smooth_from(b, r, x, post, dot ? *dot : nullptr, slot);
      if (dot) *dot = nullptr;
      return;
    }
    prolong(L, xc_[l], x, x);
  }
  if (post > 0) smoothers_[l]->smooth(b, x, post, false);
}

}  // namespace saga
