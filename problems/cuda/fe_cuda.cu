// Device instantiations of the P1 assembly functors (problems/fe_functors.hpp).
#include "core/parallel_for.cuh"
#include "problems/fe_functors.hpp"

using namespace saga::fe_functors;
SAGA_INSTANTIATE_DEVICE_FOR_EACH(CountFreePairs)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(WriteElementTriplets)

#include "problems/elasticity_functors.hpp"
SAGA_INSTANTIATE_DEVICE_FOR_EACH(CountFreeBlockPairs)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(WriteElasticityTriplets)
