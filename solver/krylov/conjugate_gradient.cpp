#include "solver/krylov/conjugate_gradient.hpp"

#include "core/device.hpp"
#include "solver/krylov/common.hpp"
#include "sparse/cg_ops.hpp"
#include "sparse/vector_ops.hpp"

namespace saga::krylov {

SolveResult conjugate_gradient(const LinearOperator& A, const LinearOperator* M, const Vector& b, Vector& x,
                               const SolverParams& p, bool flexible, const CgLaunch& launch) {
  Run run(A, M, b, x, p);
  if (run.done()) return run.finish();
  const Space s = A.space();
  const std::size_t n = A.rows();
  Vector r(n, s, "CG residual"), q(n, s, "CG direction");
  // Zeroed: flexible CG's first z . Aq reads it before any A q was written
  // (its value is not used then, but compute-sanitizer initcheck flags the read).
  Vector Aq = Vector::zeros(n, s, "CG A*direction");
  // z = M r lives only from the preconditioner to the new direction, A q only
  // from the product to the update of r: plain CG keeps both in one vector
  // (8 B per unknown less); flexible CG reads z and the previous A q together.
  Vector z_own = flexible ? Vector(n, s, "CG preconditioned residual") : Vector();
  Vector& z = flexible ? z_own : Aq;
  if (run.start(b, x, r, Aq)) return run.finish();
  // Scalars and the history of ||r|| (entry 0: the initial residual) on the
  // vectors' side; the host reads them at each convergence check.
  Scalars S(cg_slot::history + static_cast<std::size_t>(p.max_iterations) + 1, s);
  {
    std::vector<double> head(cg_slot::history + 1, 0.0);
    head[cg_slot::count] = 1.0;
    head[cg_slot::history] = run.result.residual_history.back() * run.bnorm();
    S.set_head(head);
  }
  // One iteration, rotated so that it ends with the update of r (the check
  // follows it; nothing is computed past convergence).
  const auto iteration = [&] {
    precondition_dot(M, r, z, S, cg_slot::rz);  // z = M r, s[rz] = r . z (fused where M can)
    if (flexible) dot_into(z, Aq, S, cg_slot::zAq);
    cg_direction(S, z, q, flexible);
    A.apply_dot(q, Aq, S, cg_slot::qAq);
    cg_step(S, q, Aq, x, r);
  };
  const bool graph_safe = A.graph_safe() && (!M || M->graph_safe());
  IterationLauncher launcher(iteration, s, launch.graph == "auto", graph_safe);
  SolveResult& res = run.result;
  int recorded = 1;  // history entries the host has seen
  while (res.iterations < p.max_iterations) {
    const int k = std::min(launch.check_every, p.max_iterations - res.iterations);
    for (int i = 0; i < k; ++i) launcher.run();
    const std::vector<double> h = S.head(cg_slot::history + recorded + k);  // the one host wait
    const int count = static_cast<int>(h[cg_slot::count]);
    std::vector<double> norms(h.begin() + cg_slot::history + recorded, h.begin() + cg_slot::history + count);
    recorded = count;
    const bool stop = run.record_batch(norms);
    if (stop) break;
    if (h[cg_slot::status] != 0.0) {
      run.stop(fmt::format("breakdown at iteration {}: q^T A q = {:.3e} <= 0 (the matrix or the preconditioner is "
                           "not SPD)",
                           res.iterations, h[cg_slot::qAq]),
               h[cg_slot::history + count - 1]);
      break;
    }
  }
  res.launch = launcher.mode();
  res.launch_note = launcher.note();
  return run.finish();
}

}  // namespace saga::krylov
