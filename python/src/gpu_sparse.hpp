// GPU helpers of the sparse bindings (bind_sparse.cpp), defined in
// sparse_check.cu: a check of a CSR matrix's structure in device memory
// (with the row statistics the library's SpMV chooses its kernel by) and
// the squared norm of a vector. Both synchronize on `stream` (they return
// host values).
#pragma once

#include <cstddef>
#include <cstdint>

#include "dtypes.hpp"
#include "gpuprim/core/macros.hpp"

namespace gpuprim::python::gpu {

enum class csr_defect : int {
  none = 0,
  first_offset,    // offsets[0] != 0
  decreasing,      // offsets[r + 1] < offsets[r]
  past_end,        // offsets[r + 1] > nnz
  last_offset,     // offsets[rows] != nnz
  column_outside,  // a column index outside [0, cols)
};

struct csr_check_result {
  csr_defect defect = csr_defect::none;
  std::int64_t row = -1;  // the first row with a defect
  std::size_t max_row = 0;
  std::size_t empty_rows = 0;
};

// Checks the row offsets (and, with check_columns, the column indices) of a
// rows x cols CSR matrix of nnz entries with `index` (int32 / int64)
// indices; rows >= 1.
csr_check_result check_csr(dtype index, const void* offsets, const void* columns, std::size_t rows,
                           std::size_t cols, std::size_t nnz, bool check_columns, stream_t stream);

}  // namespace gpuprim::python::gpu

#if !GPUPRIM_HAS_CUDA
#include "arrays.hpp"

namespace gpuprim::python::gpu {
inline csr_check_result check_csr(dtype, const void*, const void*, std::size_t, std::size_t,
                                  std::size_t, bool, stream_t) {
  no_cuda("sparse");
}
}  // namespace gpuprim::python::gpu
#endif
