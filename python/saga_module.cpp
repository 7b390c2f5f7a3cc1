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
#include "core/error.hpp"
#include "problems/structured.hpp"
#include "sparse/matrix_market.hpp"

namespace py = pybind11;

namespace {

using Int64Array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// Checked CSR arrays of a square matrix (NumPy has converted the indices to
// int64 and the values to float64): the array lengths here, the contents as
// the C API checks them.
saga::HostCsr host_csr(std::int64_t rows, const Int64Array& indptr, const Int64Array& indices,
                       const DoubleArray& data) {
  if (rows < 1 || rows > 2147483647LL)
    throw saga::InputError(fmt::format("A has {} rows: expected 1 to 2^31 - 1", rows));
  if (indptr.ndim() != 1 || indptr.shape(0) != rows + 1)
    throw saga::InputError(fmt::format("indptr has {} entries for {} rows (expected rows + 1)",
                                       indptr.ndim() == 1 ? indptr.shape(0) : -1, rows));
  const std::int64_t nnz = indptr.data()[rows];
  if (indices.ndim() != 1 || indices.shape(0) != nnz || data.ndim() != 1 || data.shape(0) != nnz)
    throw saga::InputError(fmt::format("indices and data need indptr[-1] = {} entries each (have {} and {})", nnz,
                                       indices.size(), data.size()));
  return saga::capi::checked_host_csr(rows, indptr.data(), indices.data(), data.data());
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

py::tuple csr_tuple(const saga::CsrMatrix& A) {
  const saga::HostCsr h = saga::to_host_csr(A);
  return py::make_tuple(py::array_t<std::int64_t>(py::cast(std::vector<std::int64_t>(h.row_ptr.begin(), h.row_ptr.end()))),
                        py::array_t<std::int64_t>(py::cast(std::vector<std::int64_t>(h.col.begin(), h.col.end()))),
                        py::array_t<double>(py::cast(h.val)), py::make_tuple(h.rows, h.cols));
}

// The Krylov method of a PyAMG-style `accel`: cg means CG preconditioned by
// the cycle; None (here "none") the cycle alone as a stationary solver.
saga::Component krylov_of(const std::string& accel) {
  if (accel == "cg" || accel == "pcg") return saga::Component("pcg");
  if (accel == "none") return saga::Component("amg");
  return saga::Component(accel);  // gmres, fgmres, bicgstab, fcg: checked by the registry
}

class PySolver {
 public:
  PySolver(std::int64_t rows, std::int64_t cols, const Int64Array& indptr, const Int64Array& indices,
           const DoubleArray& data, const std::map<std::string, std::string>& settings, const std::string& backend,
           const std::optional<DoubleArray>& B, int block_size) {
    if (rows != cols) throw saga::InputError(fmt::format("A is {} x {}: saga solves square systems", rows, cols));
    exec_ = saga::Executor::from_name(backend);
    saga::SolverParams unused;
    for (const auto& [key, value] : settings) saga::capi::set_param(amg_, unused, key, value.c_str());
    saga::validate(amg_, exec_->space());
    saga::HostCsr h = host_csr(rows, indptr, indices, data);
    py::gil_scoped_release release;  // the setup runs without Python
    saga::CsrMatrix A = saga::from_host_csr(h, exec_->space());
    A.validate("the matrix");  // sorted, unique columns
    if (B) {
      py::gil_scoped_acquire hold;
      const DoubleArray& b = *B;
      if (b.ndim() != 2 || b.shape(0) != rows)
        throw saga::InputError(fmt::format("B has {} rows, expected one per row of A ({})",
                                           b.ndim() == 2 ? b.shape(0) : -1, rows));
      std::vector<double> values(b.data(), b.data() + b.size());
      saga::NearNullspace ns = saga::user_nullspace(values, rows, b.shape(1), block_size, exec_->space(), "B");
      py::gil_scoped_release again;
      M_ = std::make_unique<saga::AmgPreconditioner>(std::move(A), amg_, std::move(ns), exec_);
    } else {
      M_ = std::make_unique<saga::AmgPreconditioner>(std::move(A), amg_, exec_);
    }
    op_ = std::make_unique<saga::MatrixOperator>(M_->matrix());
  }

  py::tuple solve(const DoubleArray& b, const std::optional<DoubleArray>& x0, double tol, int maxiter,
                  const std::string& accel) {
    const std::size_t n = static_cast<std::size_t>(M_->rows());
    const saga::Space space = exec_->space();
    saga::Vector bv = from_numpy(b, n, space, "b");
    saga::Vector xv = x0 ? from_numpy(*x0, n, space, "x0") : saga::Vector::zeros(n, space, "x");
    saga::SolverParams sp;
    sp.type = krylov_of(accel);
    sp.tolerance = tol;
    sp.max_iterations = maxiter;
    saga::Options check;
    saga::read_params(sp, check, "solve");  // the tolerance and iteration limit in their ranges
    saga::SolveResult r;
    {
      py::gil_scoped_release release;
      saga::ExecutorScope scope(exec_);
      r = saga::krylov_solve(*op_, M_.get(), bv, xv, sp);
    }
    py::dict info;
    info["converged"] = r.converged;
    info["iterations"] = r.iterations;
    info["relative_residual"] = r.relative_residual;
    info["residuals"] = r.residual_history;
    info["seconds"] = r.seconds;
    info["method"] = r.method;
    info["message"] = r.message;
    return py::make_tuple(to_numpy(xv), info);
  }

  // z = M^-1 r: one cycle from a zero guess.
  py::array_t<double> apply(const DoubleArray& r) const {
    const std::size_t n = static_cast<std::size_t>(M_->rows());
    saga::Vector rv = from_numpy(r, n, exec_->space(), "r");
    saga::Vector z(n, exec_->space(), "z");
    {
      py::gil_scoped_release release;
      saga::ExecutorScope scope(exec_);
      M_->apply(rv, z);
    }
    return to_numpy(z);
  }

  py::list levels() const {
    py::list out;
    for (const saga::LevelStats& L : M_->stats().levels) {
      py::dict d;
      d["rows"] = L.rows;
      d["nnz"] = L.nnz;
      d["aggregates"] = L.aggregates;
      d["rho"] = L.rho;
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
    return d;
  }

  // New values on the same pattern (a time or Newton step): the hierarchy
  // recomputed on the kept aggregates (AmgPreconditioner::resetup). A
  // different pattern, size or a NaN is a ValueError and the solver stays as
  // it was.
  double resetup(const Int64Array& indptr, const Int64Array& indices, const DoubleArray& data,
                 bool refresh_prolongator) {
    saga::HostCsr h = host_csr(M_->rows(), indptr, indices, data);
    py::gil_scoped_release release;
    saga::CsrMatrix A = saga::from_host_csr(h, exec_->space());
    A.validate("the matrix");
    saga::ResetupOptions o;
    o.refresh_prolongator = refresh_prolongator;
    const saga::ResetupStats st = M_->resetup(std::move(A), o);
    op_ = std::make_unique<saga::MatrixOperator>(M_->matrix());
    return st.seconds;
  }

  std::string backend() const { return exec_->name(); }
  py::tuple matrix() const { return csr_tuple(M_->matrix()); }

 private:
  std::shared_ptr<const saga::Executor> exec_;
  saga::AmgParams amg_;
  std::unique_ptr<saga::AmgPreconditioner> M_;
  std::unique_ptr<saga::MatrixOperator> op_;
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
  py::class_<PySolver>(m, "Solver")
      .def(py::init<std::int64_t, std::int64_t, const Int64Array&, const Int64Array&, const DoubleArray&,
                    const std::map<std::string, std::string>&, const std::string&, const std::optional<DoubleArray>&,
                    int>(),
           py::arg("rows"), py::arg("cols"), py::arg("indptr"), py::arg("indices"), py::arg("data"),
           py::arg("settings"), py::arg("backend"), py::arg("B"), py::arg("block_size"))
      .def("solve", &PySolver::solve, py::arg("b"), py::arg("x0"), py::arg("tol"), py::arg("maxiter"),
           py::arg("accel"))
      .def("apply", &PySolver::apply, py::arg("r"))
      .def("resetup", &PySolver::resetup, py::arg("indptr"), py::arg("indices"), py::arg("data"),
           py::arg("refresh_prolongator"))
      .def("levels", &PySolver::levels)
      .def("stats", &PySolver::stats)
      .def("backend", &PySolver::backend)
      .def("matrix", &PySolver::matrix);
  m.def(
      "poisson",
      [](const std::string& stencil, int N) {
        if (N < 2) throw saga::InputError(fmt::format("N = {}: expected at least 2 points per direction", N));
        return csr_tuple(saga::poisson(saga::parse_stencil(stencil), N, saga::Space::host));
      },
      py::arg("stencil"), py::arg("N"));
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
