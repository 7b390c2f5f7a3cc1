// saga's Python extension, `saga._saga` (python/saga/__init__.py is the interface
// users call): an AMG preconditioner built from CSR arrays, its cycle, Krylov
// solves with a method and tolerance per call, the hierarchy's statistics, the
// problem generators, the Matrix Market reader and `saga solve` on a config.
// C++ errors arrive as Python exceptions with the same message: InputError ->
// ValueError, UnavailableError (no GPU) -> RuntimeError, DeviceError ->
// MemoryError or RuntimeError (pybind11's translators below).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "api/saga.hpp"
#include "api/saga_c_internal.hpp"
#include "app/config.hpp"
#include "app/run.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "problems/structured.hpp"
#include "sparse/matrix_market.hpp"

namespace py = pybind11;

namespace {

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

void require_rows(std::int64_t rows) {
  if (rows < 1 || rows > 2147483647LL)
    throw saga::InputError(fmt::format("A has {} rows: expected 1 to 2^31 - 1", rows));
}

// A square n x n matrix over the caller's CSR arrays in `space` (int32 or, with
// `wide`, int64 indices): 32-bit indices used in place, 64-bit ones narrowed
// once into the matrix's own copy (CsrMatrix::view checks their range); the
// values in place.
saga::CsrMatrix view_of(std::int64_t rows, std::int64_t nnz, const void* indptr, const void* indices,
                        const double* data, bool wide, saga::Space space) {
  if (wide)
    return saga::CsrMatrix::view(rows, rows, nnz, static_cast<const std::int64_t*>(indptr),
                                 static_cast<const std::int64_t*>(indices), data, space);
  return saga::CsrMatrix::view(static_cast<saga::index_t>(rows), static_cast<saga::index_t>(rows),
                               static_cast<saga::offset_t>(nnz), static_cast<const std::int32_t*>(indptr),
                               static_cast<const std::int32_t*>(indices), data, space);
}

// A square CSR matrix from NumPy arrays (python/saga/__init__.py hands int32 or
// int64 indices, float64 values, C-contiguous): viewed where NumPy holds it and
// copied once to `space`. The contents are checked by CsrMatrix::validate
// where the copy lives (a kernel on the GPU), so nothing walks the arrays on
// the host.
saga::CsrMatrix matrix_from_numpy(std::int64_t rows, const py::array& indptr, const py::array& indices,
                                  const DoubleArray& data, saga::Space space) {
  require_rows(rows);
  if (indptr.ndim() != 1 || indptr.shape(0) != rows + 1)
    throw saga::InputError(fmt::format("indptr has {} entries for {} rows (expected rows + 1)",
                                       indptr.ndim() == 1 ? indptr.shape(0) : -1, rows));
  const bool wide = indptr.dtype().is(py::dtype::of<std::int64_t>());
  if (!wide && !indptr.dtype().is(py::dtype::of<std::int32_t>()))
    throw saga::InputError("indptr must be int32 or int64");
  if (!indices.dtype().is(indptr.dtype())) throw saga::InputError("indices must have indptr's integer type");
  if (!(indptr.flags() & py::array::c_style) || !(indices.flags() & py::array::c_style))
    throw saga::InputError("indptr and indices must be contiguous");
  const std::int64_t nnz = wide ? static_cast<const std::int64_t*>(indptr.data())[rows]
                                : static_cast<const std::int32_t*>(indptr.data())[rows];
  if (indices.ndim() != 1 || indices.shape(0) != nnz || data.ndim() != 1 || data.shape(0) != nnz)
    throw saga::InputError(fmt::format("indices and data need indptr[-1] = {} entries each (have {} and {})", nnz,
                                       indices.size(), data.size()));
  const saga::CsrMatrix view = view_of(rows, nnz, indptr.data(), indices.data(), data.data(), wide, saga::Space::host);
  py::gil_scoped_release release;
  saga::CsrMatrix A = view.to(space);
  A.validate("the matrix");  // sorted, unique columns in range
  return A;
}

// What a caller says is in GPU memory (a CuPy array's pointer), checked.
void require_in_gpu(std::uintptr_t p, const std::string& what) {
  if (!saga::device::is_device_pointer(reinterpret_cast<void*>(p)))
    throw saga::InputError(fmt::format("{} is not in GPU memory", what));
}

// A square CSR matrix over the caller's device arrays (CuPy's, from their
// __cuda_array_interface__), used in place (64-bit indices narrowed once, as
// view_of does). Checked on the GPU.
saga::CsrMatrix matrix_on_device(std::int64_t rows, std::int64_t nnz, std::uintptr_t indptr, std::uintptr_t indices,
                                 std::uintptr_t data, int index_bytes) {
  require_rows(rows);
  if (index_bytes != 4 && index_bytes != 8) throw saga::InputError("indptr and indices must be int32 or int64");
  require_in_gpu(indptr, "A's indptr");
  if (nnz > 0) {  // an empty matrix's indices and data may be null
    require_in_gpu(indices, "A's indices");
    require_in_gpu(data, "A's data");
  }
  py::gil_scoped_release release;
  saga::CsrMatrix A = view_of(rows, nnz, reinterpret_cast<const void*>(indptr), reinterpret_cast<const void*>(indices),
                              reinterpret_cast<const double*>(data), index_bytes == 8, saga::Space::device);
  A.validate("the matrix");
  return A;
}

// A vector of n doubles in GPU memory (a CuPy array's pointer), in place.
saga::Vector device_vector(std::uintptr_t p, std::size_t n, const char* what) {
  if (n > 0) require_in_gpu(p, what);
  return saga::Vector::view(reinterpret_cast<double*>(p), n, saga::Space::device);
}

py::array_t<double> to_numpy(const saga::Vector& v) {
  py::array_t<double> out(static_cast<py::ssize_t>(v.size()));
  v.copy_to_host(out.mutable_data());
  return out;
}

saga::Vector from_numpy(const DoubleArray& a, std::size_t n, saga::Space space, const char* what) {
  if (a.ndim() != 1 || static_cast<std::size_t>(a.shape(0)) != n)
    throw saga::InputError(fmt::format("{} has shape ({}), expected ({},)", what,
                                       a.ndim() == 1 ? std::to_string(a.shape(0)) : "not 1-D", n));
  saga::Vector v(n, space, what);
  v.copy_from_host(a.data(), n);
  return v;
}

// A matrix's CSR arrays as NumPy arrays, as saga holds them (int32 columns;
// int32 row offsets, int64 in a build with SAGA_OFFSET_BITS=64).
py::tuple csr_tuple(const saga::CsrMatrix& A) {
  const saga::HostCsr h = saga::to_host_csr(A);
  return py::make_tuple(py::array_t<saga::offset_t>(static_cast<py::ssize_t>(h.row_ptr.size()), h.row_ptr.data()),
                        py::array_t<std::int32_t>(static_cast<py::ssize_t>(h.col.size()), h.col.data()),
                        py::array_t<double>(static_cast<py::ssize_t>(h.val.size()), h.val.data()),
                        py::make_tuple(h.rows, h.cols));
}

// The Krylov method of a PyAMG-style `accel`: cg means CG preconditioned by
// the cycle; None (here "none") the cycle alone as a stationary solver.
saga::Component krylov_of(const std::string& accel) {
  if (accel == "cg" || accel == "pcg") return saga::Component("pcg");
  if (accel == "none") return saga::Component("amg");
  return saga::Component(accel);  // gmres, fgmres, bicgstab, fcg: checked by the registry
}

py::dict info_of(const saga::SolveResult& r) {
  py::dict info;
  info["converged"] = r.converged;
  info["iterations"] = r.iterations;
  info["relative_residual"] = r.relative_residual;
  info["residuals"] = r.residual_history;
  info["seconds"] = r.seconds;
  info["method"] = r.method;
  info["message"] = r.message;
  info["launch"] = r.launch;
  return info;
}

// The matrix of a setup or resetup: NumPy arrays, or device pointers.
struct MatrixSource {
  std::int64_t rows = 0;
  // host: NumPy arrays
  std::optional<py::array> indptr, indices;
  std::optional<DoubleArray> data;
  // device: pointers, nnz and the index width
  std::int64_t nnz = 0;
  std::uintptr_t d_indptr = 0, d_indices = 0, d_data = 0;
  int index_bytes = 4;
  bool on_device() const { return !indptr; }
};

class PySolver {
 public:
  PySolver(const MatrixSource& src, const std::map<std::string, std::string>& settings, const std::string& backend,
           const std::optional<DoubleArray>& B, int block_size) {
    exec_ = saga::Executor::from_name(backend);
    if (src.on_device() && exec_->space() != saga::Space::device)
      throw saga::InputError("A is in GPU memory but the backend is \"host\" (use backend=\"cuda\" or \"auto\")");
    saga::SolverParams unused;
    for (const auto& [key, value] : settings) saga::capi::set_param(amg_, unused, key, value.c_str());
    saga::validate(amg_, exec_->space());
    std::optional<saga::NearNullspace> ns;
    if (B) {
      const DoubleArray& b = *B;
      if (b.ndim() != 2 || b.shape(0) != src.rows)
        throw saga::InputError(fmt::format("B has {} rows, expected one per row of A ({})",
                                           b.ndim() == 2 ? b.shape(0) : -1, src.rows));
      std::vector<double> values(b.data(), b.data() + b.size());
      ns = saga::user_nullspace(values, src.rows, b.shape(1), block_size, exec_->space(), "B");
    }
    saga::ExecutorScope scope(exec_);
    saga::CsrMatrix A = matrix_of(src);
    py::gil_scoped_release release;  // the setup runs without Python
    if (ns)
      M_ = std::make_unique<saga::AmgPreconditioner>(std::move(A), amg_, std::move(*ns), exec_);
    else
      M_ = std::make_unique<saga::AmgPreconditioner>(std::move(A), amg_, exec_);
    op_ = std::make_unique<saga::MatrixOperator>(M_->matrix());
    exec_->synchronize();
  }

  py::tuple solve(const DoubleArray& b, const std::optional<DoubleArray>& x0, double tol, int maxiter,
                  const std::string& accel) {
    const std::size_t n = static_cast<std::size_t>(M_->rows());
    const saga::Space space = exec_->space();
    saga::ExecutorScope scope(exec_);
    saga::Vector bv = from_numpy(b, n, space, "b");
    saga::Vector xv = x0 ? from_numpy(*x0, n, space, "x0") : saga::Vector::zeros(n, space, "x");
    const saga::SolveResult r = run(bv, xv, tol, maxiter, accel);
    return py::make_tuple(to_numpy(xv), info_of(r));
  }

  // The same on the GPU arrays of the caller: x holds the initial guess (the
  // Python side zeroes it or copies x0 there) and receives the solution.
  py::dict solve_device(std::uintptr_t b, std::uintptr_t x, double tol, int maxiter, const std::string& accel) {
    require_gpu("a solve on GPU arrays");
    const std::size_t n = static_cast<std::size_t>(M_->rows());
    saga::ExecutorScope scope(exec_);
    const saga::Vector bv = device_vector(b, n, "b");
    saga::Vector xv = device_vector(x, n, "x");
    return info_of(run(bv, xv, tol, maxiter, accel));
  }

  // z = M^-1 r: one cycle from a zero guess.
  py::array_t<double> apply(const DoubleArray& r) const {
    const std::size_t n = static_cast<std::size_t>(M_->rows());
    saga::ExecutorScope scope(exec_);
    saga::Vector rv = from_numpy(r, n, exec_->space(), "r");
    saga::Vector z(n, exec_->space(), "z");
    {
      py::gil_scoped_release release;
      M_->apply(rv, z);
    }
    return to_numpy(z);
  }

  void apply_device(std::uintptr_t r, std::uintptr_t z) const {
    require_gpu("a cycle on GPU arrays");
    const std::size_t n = static_cast<std::size_t>(M_->rows());
    saga::ExecutorScope scope(exec_);
    const saga::Vector rv = device_vector(r, n, "r");
    saga::Vector zv = device_vector(z, n, "z");
    py::gil_scoped_release release;
    M_->apply(rv, zv);
    exec_->synchronize();  // z is the caller's (its stream reads it next)
  }

  py::list levels() const {
    py::list out;
    for (const saga::LevelStats& L : M_->stats().levels) {
      py::dict d;
      d["rows"] = L.rows;
      d["nnz"] = L.nnz;
      d["aggregates"] = L.aggregates;
      d["rho"] = L.rho;
      d["matrix_bytes"] = L.matrix_bytes;          // A, P and R as stored after the setup
      d["single_precision"] = L.single_precision;  // amg.hierarchy_precision: float
      d["exact_single"] = L.exact_single;          // the fine matrix's values, all exact floats, stored as float
      d["fine_cycle_single"] = L.fine_cycle_single;  // the cycle reads a float copy of the fine values
      d["implicit_prolongator"] = L.implicit_prolongator;  // P applied as (I - wD^-1 A) T, not stored
      out.append(d);
    }
    return out;
  }

  py::dict stats() const {
    const saga::HierarchyStats& s = M_->stats();
    py::dict d;
    d["setup_seconds"] = s.setup_seconds;
    d["phase_seconds"] = s.phase_seconds;
    d["spgemm_seconds"] = s.spgemm_seconds();
    d["operator_complexity"] = s.operator_complexity;
    d["grid_complexity"] = s.grid_complexity;
    d["coarse_pseudo_inverse"] = s.coarse_pseudo_inverse;          // the coarsest matrix is singular
    d["coarse_null_space_columns"] = s.coarse_null_space_columns;  // shifted out (0: eigen-decomposition)
    // Device setups: the memory peak of each phase of each level (empty on the host).
    py::list peaks;
    for (const saga::LevelStats& L : s.levels) peaks.append(py::dict(py::cast(L.peak_bytes)));
    d["phase_peak_bytes"] = peaks;
    d["peak_bytes"] = s.peak_bytes;
    d["peak_level"] = s.peak_level;
    d["peak_phase"] = s.peak_phase;
    return d;
  }

  // New values on the same pattern (a time or Newton step): the hierarchy
  // recomputed on the kept aggregates (AmgPreconditioner::resetup). A
  // different pattern, size or a NaN is a ValueError and the solver stays as
  // it was.
  double resetup(const MatrixSource& src, bool refresh_prolongator) {
    if (src.rows != M_->rows())
      throw saga::InputError(fmt::format("A has {} rows, the solver was set up for {}", src.rows, M_->rows()));
    if (src.on_device()) require_gpu("a resetup from GPU arrays");
    saga::ExecutorScope scope(exec_);
    saga::CsrMatrix A = matrix_of(src);
    py::gil_scoped_release release;
    saga::ResetupOptions o;
    o.refresh_prolongator = refresh_prolongator;
    kept_.reset();  // its CUDA graph holds the old arrays' pointers
    const saga::ResetupStats st = M_->resetup(std::move(A), o);
    op_ = std::make_unique<saga::MatrixOperator>(M_->matrix());
    exec_->synchronize();
    return st.seconds;
  }

  std::string backend() const { return exec_->name(); }
  bool on_gpu() const { return exec_->space() == saga::Space::device; }
  py::tuple matrix() const { return csr_tuple(M_->matrix()); }

 private:
  saga::CsrMatrix matrix_of(const MatrixSource& src) const {
    if (!src.on_device()) return matrix_from_numpy(src.rows, *src.indptr, *src.indices, *src.data, exec_->space());
    return matrix_on_device(src.rows, src.nnz, src.d_indptr, src.d_indices, src.d_data, src.index_bytes);
  }
  void require_gpu(const char* what) const {
    if (exec_->space() != saga::Space::device)
      throw saga::InputError(fmt::format("{}: the solver lives on the host (set it up with backend=\"cuda\")", what));
  }
  // The Krylov solve of b from the guess in x (x receives the solution).
  saga::SolveResult run(const saga::Vector& b, saga::Vector& x, double tol, int maxiter, const std::string& accel) {
    saga::SolverParams sp;
    sp.type = krylov_of(accel);
    sp.tolerance = tol;
    sp.max_iterations = maxiter;
    saga::Options check;
    saga::read_params(sp, check, "solve");  // the tolerance and iteration limit in their ranges
    py::gil_scoped_release release;
    saga::SolveResult r = saga::krylov_solve(*op_, M_.get(), b, x, sp, kept_);
    exec_->synchronize();
    return r;
  }

  std::shared_ptr<const saga::Executor> exec_;
  saga::AmgParams amg_;
  std::unique_ptr<saga::AmgPreconditioner> M_;
  std::unique_ptr<saga::MatrixOperator> op_;
  // What CG kept from the last solve (its vectors and CUDA graph, saga::KrylovState):
  // the next solve of the same accel and maxiter into the same x array replays it.
  std::unique_ptr<saga::KrylovState> kept_;
};

}  // namespace

// The message without the source location SAGA_REQUIRE appends (" [file:line]"),
// as `saga solve` prints it without --verbose.
std::string user_message(const char* what) {
  std::string m = what;
  const auto at = m.rfind(" [");
  if (at != std::string::npos && m.back() == ']' && m.find(':', at) != std::string::npos &&
      (m.find(".cpp:", at) != std::string::npos || m.find(".cu:", at) != std::string::npos ||
       m.find(".hpp:", at) != std::string::npos))
    m.resize(at);
  return m;
}

PYBIND11_MODULE(_saga, m) {
  m.doc() = "saga's compiled core; use the saga package (python/saga/__init__.py)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const saga::InputError& e) {
      PyErr_SetString(PyExc_ValueError, user_message(e.what()).c_str());
    } catch (const saga::UnavailableError& e) {
      PyErr_SetString(PyExc_RuntimeError, user_message(e.what()).c_str());
    } catch (const saga::DeviceError& e) {
      PyErr_SetString(std::string(e.what()).find("out of memory") != std::string::npos ? PyExc_MemoryError
                                                                                      : PyExc_RuntimeError,
                      user_message(e.what()).c_str());
    }
  });
  m.attr("version") = SAGA_VERSION;
  py::class_<MatrixSource>(m, "MatrixSource")
      .def_static(
          "host",
          [](std::int64_t rows, const py::array& indptr, const py::array& indices, const DoubleArray& data) {
            MatrixSource s;
            s.rows = rows;
            s.indptr = indptr;
            s.indices = indices;
            s.data = data;
            return s;
          },
          py::arg("rows"), py::arg("indptr"), py::arg("indices"), py::arg("data"))
      .def_static(
          "device",
          [](std::int64_t rows, std::int64_t nnz, std::uintptr_t indptr, std::uintptr_t indices, std::uintptr_t data,
             int index_bytes) {
            MatrixSource s;
            s.rows = rows;
            s.nnz = nnz;
            s.d_indptr = indptr;
            s.d_indices = indices;
            s.d_data = data;
            s.index_bytes = index_bytes;
            return s;
          },
          py::arg("rows"), py::arg("nnz"), py::arg("indptr"), py::arg("indices"), py::arg("data"),
          py::arg("index_bytes"));
  py::class_<PySolver>(m, "Solver")
      .def(py::init<const MatrixSource&, const std::map<std::string, std::string>&, const std::string&,
                    const std::optional<DoubleArray>&, int>(),
           py::arg("matrix"), py::arg("settings"), py::arg("backend"), py::arg("B"), py::arg("block_size"))
      .def("solve", &PySolver::solve, py::arg("b"), py::arg("x0"), py::arg("tol"), py::arg("maxiter"),
           py::arg("accel"))
      .def("solve_device", &PySolver::solve_device, py::arg("b"), py::arg("x"), py::arg("tol"), py::arg("maxiter"),
           py::arg("accel"))
      .def("apply", &PySolver::apply, py::arg("r"))
      .def("apply_device", &PySolver::apply_device, py::arg("r"), py::arg("z"))
      .def("resetup", &PySolver::resetup, py::arg("matrix"), py::arg("refresh_prolongator"))
      .def("levels", &PySolver::levels)
      .def("stats", &PySolver::stats)
      .def("backend", &PySolver::backend)
      .def("on_gpu", &PySolver::on_gpu)
      .def("matrix", &PySolver::matrix);
  m.def(
      "poisson",
      [](const std::string& stencil, int N, const std::string& boundary) {
        if (N < 2) throw saga::InputError(fmt::format("N = {}: expected at least 2 points per direction", N));
        if (boundary != "dirichlet" && boundary != "neumann")
          throw saga::InputError(fmt::format("boundary '{}': expected dirichlet or neumann", boundary));
        return csr_tuple(saga::poisson(saga::make_stencil_spec(saga::parse_stencil(stencil), {}, {}, boundary == "neumann"),
                                       N, saga::Space::host));
      },
      py::arg("stencil"), py::arg("N"), py::arg("boundary") = "dirichlet");
  m.def(
      "read_matrix_market", [](const std::string& path) { return csr_tuple(saga::read_matrix_market(path)); },
      py::arg("path"));
  m.def(
      "solve_config",
      [](const std::string& path, const std::vector<std::string>& overrides) {
        const saga::RunConfig config = saga::load_config(path, overrides);
        saga::RunResult r;
        {
          py::gil_scoped_release release;
          r = saga::run_solve(config);
        }
        return saga::to_json(r).dump();
      },
      py::arg("path"), py::arg("overrides"));
}
