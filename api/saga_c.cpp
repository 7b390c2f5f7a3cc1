// The C API (api/saga_c.h) over the C++ API: each call runs inside guard(),
// which turns every exception into a status and the thread's last error.
#include "api/saga_c.h"
#include "api/saga_c_internal.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "api/saga.hpp"
#include "core/device.hpp"
#include "core/parameters.hpp"

struct saga_solver_t {
  std::shared_ptr<const saga::Executor> exec;
  saga::AmgParams amg;
  saga::SolverParams params;
  std::unique_ptr<saga::Solver> solver;
  saga::HostCsr pattern;  // the setup's CSR (values of the last setup), for resetup; rows only for a device setup
  // saga_solver_setup_device(_i64): the matrix's index arrays, views of the caller's
  // where their width is saga's, converted copies otherwise (setup_on_device).
  saga::Array<saga::offset_t> device_row_ptr;
  saga::Array<saga::index_t> device_col;
  saga::offset_t device_nnz = -1;  // -1: the setup was from host arrays
  saga::SolveResult last;
  saga::ResetupStats last_resetup;
  bool solved = false;
};

namespace {
thread_local std::string last_error;

template <class F>
saga_status guard(F&& f) {
  try {
    f();
    last_error.clear();
    return SAGA_OK;
  } catch (const saga::InputError& e) {
    last_error = e.what();
    return SAGA_ERROR_INPUT;
  } catch (const saga::UnavailableError& e) {
    last_error = e.what();
    return SAGA_ERROR_UNAVAILABLE;
  } catch (const saga::DeviceError& e) {
    last_error = e.what();
    return SAGA_ERROR_DEVICE;
  } catch (const std::logic_error& e) {  // call order
    last_error = e.what();
    return SAGA_ERROR_STATE;
  } catch (const std::bad_alloc&) {
    last_error = "host out of memory";
    return SAGA_ERROR_INTERNAL;
  } catch (const std::exception& e) {
    last_error = e.what();
    return SAGA_ERROR_INTERNAL;
  } catch (...) {
    last_error = "unknown error";
    return SAGA_ERROR_INTERNAL;
  }
}

void require(const void* p, const char* what) {
  if (!p) throw saga::InputError(fmt::format("{} is a null pointer", what));
}

// A pointer declared a device pointer: not null and addressable by the GPU
// (cudaPointerGetAttributes), so that a host array given by mistake is an
// error message rather than an illegal memory access.
void require_device(const void* p, const char* what) {
  require(p, what);
  if (!saga::device::is_device_pointer(p))
    throw saga::InputError(fmt::format("{} is not a device pointer (host memory given to a *_device call; pass "
                                       "memory from cudaMalloc or use the host-array call)",
                                       what));
}
saga_solver_t& live(saga_solver s) {
  if (!s) throw saga::InputError("the solver handle is null (saga_solver_create first)");
  return *s;
}
saga::Solver& set_up(saga_solver s) {
  saga_solver_t& h = live(s);
  if (!h.solver) throw std::logic_error("the solver is not set up yet (saga_solver_setup first)");
  return *h.solver;
}

template <class I>
saga::HostCsr host_csr(std::int64_t n, const I* row_ptr, const I* col, const double* val) {
  require(row_ptr, "row_ptr");
  require(col, "col");
  require(val, "val");
  if (n <= 0 || n > 2147483647LL) throw saga::InputError(fmt::format("n = {}: expected 1 to 2^31 - 1 rows", n));
  const std::int64_t nnz = static_cast<std::int64_t>(row_ptr[n]);
  constexpr long long max_nnz = std::numeric_limits<saga::offset_t>::max();  // the build's offset width
  if (row_ptr[0] != 0 || nnz < 0 || nnz > max_nnz)
    throw saga::InputError(fmt::format("row_ptr[0] = {}, row_ptr[n] = {}: expected 0 and 0 to {} nonzeros",
                                       static_cast<long long>(row_ptr[0]), static_cast<long long>(nnz), max_nnz));
  saga::HostCsr h{static_cast<saga::index_t>(n), static_cast<saga::index_t>(n), {}, {}, {}};
  h.row_ptr.resize(n + 1);
  for (std::int64_t i = 0; i <= n; ++i) {
    if (row_ptr[i] < 0 || row_ptr[i] > nnz || (i > 0 && row_ptr[i] < row_ptr[i - 1]))
      throw saga::InputError(fmt::format("row_ptr[{}] = {} is not between row_ptr[{}] and row_ptr[n] = {}", i,
                                         static_cast<long long>(row_ptr[i]), i > 0 ? i - 1 : 0,
                                         static_cast<long long>(nnz)));
    h.row_ptr[i] = static_cast<saga::offset_t>(row_ptr[i]);
  }
  h.col.resize(nnz);
  for (std::int64_t k = 0; k < nnz; ++k) {
    if (col[k] < 0 || col[k] >= n)
      throw saga::InputError(fmt::format("col[{}] = {} is outside [0, {})", k, static_cast<long long>(col[k]), n));
    h.col[k] = static_cast<saga::index_t>(col[k]);
  }
  h.val.assign(val, val + nnz);
  return h;
}

template <class I>
saga_status setup(saga_solver s, std::int64_t n, const I* row_ptr, const I* col, const double* val) {
  return guard([&] {
    saga_solver_t& h = live(s);
    saga::HostCsr csr = host_csr(n, row_ptr, col, val);
    saga::CsrMatrix A = saga::from_host_csr(csr, h.exec->space());
    A.validate("the matrix");  // sorted, unique columns
    h.solver.reset();
    h.solver = std::make_unique<saga::Solver>(std::move(A), h.amg, h.params, h.exec);
    h.pattern = std::move(csr);
    h.device_row_ptr = saga::Array<saga::offset_t>();
    h.device_col = saga::Array<saga::index_t>();
    h.device_nnz = -1;
    h.solved = false;
  });
}

// The handle's GPU executor, for the device-pointer calls.
const std::shared_ptr<const saga::Executor>& gpu(const saga_solver_t& h, const char* call) {
  if (h.exec->space() != saga::Space::device)
    throw saga::InputError(fmt::format("{}: the handle runs on the host (create it with backend \"cuda\")", call));
  return h.exec;
}

// The device setups (32- and 64-bit indices): the caller's arrays checked and
// used in place where their width is saga's (offset_t row offsets, index_t
// columns), converted once otherwise (64-bit columns narrowed; 32-bit row
// offsets widened in a 64-bit-offset build). The handle keeps the index arrays,
// views or converted copies, where the numeric resetups find them.
template <class I>
void setup_on_device(saga_solver_t& h, const char* call, I n, I nnz, const I* row_ptr, const I* col,
                     const double* val) {
  saga::ExecutorScope scope(gpu(h, call));
  require_device(row_ptr, "row_ptr");
  if (nnz > 0) {
    require_device(col, "col");
    require_device(val, "val");
  }
  saga::CsrMatrix A = saga::CsrMatrix::view(n, n, nnz, row_ptr, col, val, saga::Space::device);
  const saga::index_t rows = A.rows();
  const saga::offset_t z = A.nnz();
  saga::Array<saga::offset_t> rp = std::move(A.mutable_row_ptr());  // a view stays a view when moved
  saga::Array<saga::index_t> ci = std::move(A.mutable_col());
  A = saga::CsrMatrix::view(rows, rows, z, rp.data(), ci.data(), val, saga::Space::device);
  A.validate("the matrix");  // on the GPU: monotone row_ptr, sorted unique columns in range
  h.solver.reset();
  h.solver = std::make_unique<saga::Solver>(std::move(A), h.amg, h.params, h.exec);
  h.device_row_ptr = std::move(rp);
  h.device_col = std::move(ci);
  h.pattern = saga::HostCsr{rows, rows, {}, {}, {}};
  h.device_nnz = z;
  h.solved = false;
}

// The caller's n host doubles as a vector in `space` (one copy).
saga::Vector vector_of(const double* p, std::size_t n, saga::Space space, const char* what) {
  require(p, what);
  saga::Vector v(n, space, what);
  v.copy_from_host(p, n);
  return v;
}
}  // namespace

void saga::capi::set_last_error(const std::string& message) { last_error = message; }

namespace {
// A scalar key of a parameter struct, or not.
template <class P>
bool has_key(const std::string& key) {
  for (const auto& p : saga::list_params(P{}))
    if (p.key == key) return true;
  return false;
}

// "amg.smoother" / "amg.smoother.omega": a component's name or option.
bool set_component(saga::Component& c, const std::string& rest, const std::string& name, const char* value) {
  if (rest == name) {
    c = saga::Component(value);
    return true;
  }
  if (rest.rfind(name + ".", 0) == 0) {
    c.options.set(rest.substr(name.size() + 1), value);
    return true;
  }
  return false;
}
}  // namespace

void saga::capi::set_param(saga::AmgParams& amg_params, saga::SolverParams& solver_params, const std::string& key,
               const char* value) {
  const std::string amg = "amg.", solver = "solver.";
  if (key == "amg.omega") {  // the configs' shorthand for the smoother's weight ("auto": its own default)
    const std::string v = value;
    if (v == "auto" || v == "0") return;
    return set_param(amg_params, solver_params, "amg.smoother.omega", value);
  }
  if (key.rfind(amg, 0) == 0) {
    const std::string k = key.substr(amg.size());
    saga::Options o;
    o.set(k, value);
    if (has_key<saga::SetupParams>(k))
      return saga::read_params(static_cast<saga::SetupParams&>(amg_params), o, "amg");
    if (has_key<saga::CycleParams>(k))
      return saga::read_params(static_cast<saga::CycleParams&>(amg_params), o, "amg");
    for (auto [name, c] :
         {std::pair{"smoother", &amg_params.smoother}, std::pair{"cycle", &amg_params.cycle},
          std::pair{"coarse_solver", &amg_params.coarse_solver}, std::pair{"strength", &amg_params.strength},
          std::pair{"aggregation", &amg_params.aggregation}, std::pair{"spgemm", &amg_params.spgemm}})
      if (set_component(*c, k, name, value)) return;
  } else if (key.rfind(solver, 0) == 0) {
    const std::string k = key.substr(solver.size());
    if (has_key<saga::SolverParams>(k)) {
      saga::Options o;
      o.set(k, value);
      return saga::read_params(solver_params, o, "solver");
    }
    if (set_component(solver_params.type, k, "type", value)) return;
    if (set_component(solver_params.preconditioner, k, "preconditioner", value)) return;
    solver_params.type.options.set(k, value);  // an option of the Krylov method (restart, ...), checked at setup
    return;
  }
  throw saga::InputError(fmt::format(
      "unknown parameter '{}' (amg.KEY or solver.KEY as in docs/config.md, e.g. amg.theta, amg.smoother.omega, "
      "solver.tolerance)",
      key));
}


extern "C" {

const char* saga_version(void) { return SAGA_VERSION; }
const char* saga_last_error(void) { return last_error.c_str(); }

saga_status saga_solver_create(saga_solver* solver, const char* backend) {
  return guard([&] {
    require(solver, "the handle to create");
    *solver = nullptr;
    auto h = std::make_unique<saga_solver_t>();
    h->exec = saga::Executor::from_name(backend ? backend : "auto");
    *solver = h.release();
  });
}

void saga_solver_destroy(saga_solver solver) { delete solver; }

saga_status saga_solver_set(saga_solver solver, const char* key, const char* value) {
  return guard([&] {
    saga_solver_t& h = live(solver);
    require(key, "key");
    require(value, "value");
    if (h.solver) throw std::logic_error("parameters are set before saga_solver_setup");
    saga::AmgParams amg = h.amg;  // a bad value leaves the handle as it was
    saga::SolverParams params = h.params;
    saga::capi::set_param(amg, params, key, value);
    saga::validate(amg, h.exec->space());
    saga::validate(params, h.exec->space());
    h.amg = std::move(amg);
    h.params = std::move(params);
  });
}

saga_status saga_solver_set_many(saga_solver solver, const char* settings) {
  saga_status st = guard([&] { require(settings, "settings"); });
  if (st != SAGA_OK) return st;
  std::string all(settings);
  for (char& c : all)
    if (c == ';') c = '\n';
  std::size_t at = 0;
  while (at <= all.size()) {
    const std::size_t end = std::min(all.find('\n', at), all.size());
    std::string line = all.substr(at, end - at);
    at = end + 1;
    const auto trim = [](std::string x) {
      const auto a = x.find_first_not_of(" \t\r"), b = x.find_last_not_of(" \t\r");
      return a == std::string::npos ? std::string() : x.substr(a, b - a + 1);
    };
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) {
      last_error = fmt::format("setting '{}': expected key=value", line);
      return SAGA_ERROR_INPUT;
    }
    st = saga_solver_set(solver, trim(line.substr(0, eq)).c_str(), trim(line.substr(eq + 1)).c_str());
    if (st != SAGA_OK) return st;
  }
  return SAGA_OK;
}

saga_status saga_solver_setup(saga_solver solver, int32_t n, const int32_t* row_ptr, const int32_t* col,
                              const double* val) {
  return setup(solver, n, row_ptr, col, val);
}

saga_status saga_solver_setup_i64(saga_solver solver, int64_t n, const int64_t* row_ptr, const int64_t* col,
                                  const double* val) {
  return setup(solver, n, row_ptr, col, val);
}

saga_status saga_solver_setup_device(saga_solver solver, int32_t n, int32_t nnz, const int32_t* row_ptr,
                                     const int32_t* col, const double* val) {
  return guard([&] { setup_on_device(live(solver), "saga_solver_setup_device", n, nnz, row_ptr, col, val); });
}

saga_status saga_solver_setup_device_i64(saga_solver solver, int64_t n, int64_t nnz, const int64_t* row_ptr,
                                         const int64_t* col, const double* val) {
  return guard([&] { setup_on_device(live(solver), "saga_solver_setup_device_i64", n, nnz, row_ptr, col, val); });
}

saga_status saga_solver_resetup_device(saga_solver solver, const double* val, int refresh_prolongator) {
  return guard([&] {
    saga::Solver& s = set_up(solver);
    saga_solver_t& h = *solver;
    if (h.device_nnz < 0) throw std::logic_error("saga_solver_resetup_device after a setup from host arrays");
    require_device(val, "val");
    saga::ExecutorScope scope(h.exec);
    saga::ResetupOptions o;
    o.refresh_prolongator = refresh_prolongator != 0;
    const std::int32_t n = h.pattern.rows;
    h.last_resetup = s.resetup(
        saga::CsrMatrix::view(n, n, h.device_nnz, h.device_row_ptr.data(), h.device_col.data(), val,
                              saga::Space::device),
        o);
  });
}

saga_status saga_solver_set_stream(saga_solver solver, void* stream) {
  return guard([&] {
    saga_solver_t& h = live(solver);
    if (h.solver) throw std::logic_error("the stream is set before saga_solver_setup");
    h.exec = saga::Executor::cuda_on_stream(stream, gpu(h, "saga_solver_set_stream")->device_id());
  });
}

saga_status saga_solver_apply_device(saga_solver solver, const double* r, double* z) {
  return guard([&] {
    const saga::Solver& s = set_up(solver);
    saga::ExecutorScope scope(gpu(*solver, "saga_solver_apply_device"));
    require_device(r, "r");
    require_device(z, "z");
    const std::size_t n = static_cast<std::size_t>(solver->pattern.rows);
    const saga::Vector rv = saga::Vector::view(const_cast<double*>(r), n, saga::Space::device);
    saga::Vector zv = saga::Vector::view(z, n, saga::Space::device);
    s.preconditioner().apply(rv, zv);
  });
}

saga_status saga_solver_solve_device(saga_solver solver, const double* b, double* x) {
  return guard([&] {
    const saga::Solver& s = set_up(solver);
    saga::ExecutorScope scope(gpu(*solver, "saga_solver_solve_device"));
    require_device(b, "b");
    require_device(x, "x");
    const std::size_t n = static_cast<std::size_t>(solver->pattern.rows);
    const saga::Vector bv = saga::Vector::view(const_cast<double*>(b), n, saga::Space::device);
    saga::Vector xv = saga::Vector::view(x, n, saga::Space::device);
    solver->last = s.solve(bv, xv);
    solver->solved = true;
  });
}

saga_status saga_solver_resetup(saga_solver solver, const double* val, int refresh_prolongator) {
  return guard([&] {
    saga::Solver& s = set_up(solver);
    saga_solver_t& h = *solver;
    if (h.device_nnz >= 0) throw std::logic_error("saga_solver_resetup after a device setup (saga_solver_resetup_device)");
    saga::HostCsr csr = h.pattern;
    require(val, "val");
    csr.val.assign(val, val + csr.val.size());
    saga::ResetupOptions o;
    o.refresh_prolongator = refresh_prolongator != 0;
    h.last_resetup = s.resetup(saga::from_host_csr(csr, h.exec->space()), o);
    h.pattern.val = std::move(csr.val);
  });
}

saga_status saga_solver_apply(saga_solver solver, const double* r, double* z) {
  return guard([&] {
    const saga::Solver& s = set_up(solver);
    require(z, "z");
    const std::size_t n = static_cast<std::size_t>(solver->pattern.rows);
    const saga::Space sp = solver->exec->space();
    saga::ExecutorScope scope(solver->exec);
    const saga::Vector rv = vector_of(r, n, sp, "r");
    saga::Vector zv(n, sp, "z");
    s.preconditioner().apply(rv, zv);
    zv.copy_to_host(z);
  });
}

saga_status saga_solver_solve(saga_solver solver, const double* b, double* x) {
  return guard([&] {
    const saga::Solver& s = set_up(solver);
    require(x, "x");
    const std::size_t n = static_cast<std::size_t>(solver->pattern.rows);
    const saga::Space sp = solver->exec->space();
    const saga::Vector bv = vector_of(b, n, sp, "b");
    saga::Vector xv = vector_of(x, n, sp, "x");
    solver->last = s.solve(bv, xv);
    solver->solved = true;
    xv.copy_to_host(x);
  });
}

saga_status saga_solver_result(saga_solver solver, int* iterations, int* converged, double* relative_residual) {
  return guard([&] {
    set_up(solver);
    if (!solver->solved) throw std::logic_error("no solve yet (saga_solver_solve first)");
    if (iterations) *iterations = solver->last.iterations;
    if (converged) *converged = solver->last.converged ? 1 : 0;
    if (relative_residual) *relative_residual = solver->last.relative_residual;
  });
}

saga_status saga_solver_residual_history(saga_solver solver, double* history, int capacity, int* length) {
  return guard([&] {
    set_up(solver);
    if (!solver->solved) throw std::logic_error("no solve yet (saga_solver_solve first)");
    require(length, "length");
    if (capacity > 0) require(history, "history");
    const auto& h = solver->last.residual_history;
    const int n = static_cast<int>(std::min<std::size_t>(h.size(), capacity > 0 ? capacity : 0));
    for (int i = 0; i < n; ++i) history[i] = h[i];
    *length = n;
  });
}

saga_status saga_solver_setup_seconds(saga_solver solver, const char* phase, int resetup, double* seconds) {
  return guard([&] {
    const saga::Solver& s = set_up(solver);
    require(seconds, "seconds");
    const auto& phases = resetup ? solver->last_resetup.phase_seconds : s.stats().phase_seconds;
    if (!phase) {
      *seconds = resetup ? solver->last_resetup.seconds : s.stats().setup_seconds;
      return;
    }
    const auto it = phases.find(phase);
    if (it == phases.end()) {
      std::string known;
      for (const auto& p : saga::setup_phases()) known += (known.empty() ? "" : ", ") + p;
      const auto& all = saga::setup_phases();
      if (std::find(all.begin(), all.end(), std::string(phase)) != all.end()) {  // a phase that did not run
        *seconds = 0;
        return;
      }
      throw saga::InputError(fmt::format("unknown setup phase '{}' (known: {})", phase, known));
    }
    *seconds = it->second;
  });
}

saga_status saga_solver_release_workspace(saga_solver solver) {
  return guard([&] { set_up(solver).release_workspace(); });
}

saga_status saga_solver_hierarchy(saga_solver solver, int* levels, double* operator_complexity) {
  return guard([&] {
    const saga::Solver& s = set_up(solver);
    if (levels) *levels = static_cast<int>(s.stats().levels.size());
    if (operator_complexity) *operator_complexity = s.stats().operator_complexity;
  });
}

}  // extern "C"
