#include "amg/lexicographic_mis2.hpp"

#include "core/dispatch.hpp"

namespace saga::amg {

namespace {
// One sweep in node order: i joins unless a member j < i is within distance 2.
void sweep(const CsrMatrix& S, Array<std::int32_t>& in) {
  const offset_t* rp = S.row_ptr().data();
  const index_t* ci = S.col().data();
  std::int32_t* flag = in.data();
  for (index_t i = 0; i < S.rows(); ++i) {
    bool blocked = false;
    for (offset_t a = rp[i]; a < rp[i + 1] && !blocked; ++a) {
      const index_t j = ci[a];
      blocked = j < i && flag[j];
      for (offset_t b = rp[j]; b < rp[j + 1] && !blocked; ++b) blocked = ci[b] < i && flag[ci[b]];
    }
    flag[i] = !blocked;
  }
}
}  // namespace

Array<std::int32_t> lexicographic_mis2(const CsrMatrix& S) {
  SAGA_REQUIRE(S.rows() == S.cols(), "MIS-2 of a non-square {}x{} graph", S.rows(), S.cols());
  Array<std::int32_t> in(S.rows(), S.space(), "MIS-2 members");
  if (S.space() == Space::host)
    sweep(S, in);
  else
    SAGA_DEVICE_CALL(cuda::lexicographic_mis2(S, in));
  return in;
}

}  // namespace saga::amg
