#include "problems/generators/variant_params.hpp"

#include <fmt/format.h>

namespace saga {

std::string VariantParams::describe() const {
  std::string s;
  if (!anisotropy().is_isotropic()) s += fmt::format(", anisotropy eps={} angle={}", epsilon, angle);
  if (coefficient != "constant" && coefficient != "groups" && contrast != 1.0)
    s += fmt::format(", {} coefficient contrast={} blocks={}", coefficient, contrast, blocks);
  return s;
}

}  // namespace saga
