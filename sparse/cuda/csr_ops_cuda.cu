// Device instantiations of the csr_ops functors.
#include "core/parallel_for.cuh"
#include "sparse/csr_ops_functors.hpp"

SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ExtractDiagonal<double>)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ExtractDiagonal<float>)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::Reciprocal)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::FillInt32)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::NarrowIndex)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::PatternDiffers)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::CheckCsrRow)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ScaleRows)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::AddRows)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RowAbsSums<double>)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RowAbsSums<float>)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RandomUniform)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RebaseRowPtr)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ShiftColumns)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::CopyValues)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ValuesToSingle)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ValuesToDouble)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RowsColumnSpan)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RowsWithColumnsIn)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ColumnBlockRows)
