// Shared by `gpuprim spmv` and `gpuprim solve`: a Matrix Market matrix read
// as double CSR (int32 indices when they fit, else int64), and a NumPy
// vector read as doubles, both checked before anything is written.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "gpuprim/io/mtx.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/sparse.hpp"
#include "input_file.hpp"
#include "progress.hpp"

namespace gpuprim::cli {

using cli_matrix = std::variant<csr_matrix<double, std::int32_t>, csr_matrix<double, std::int64_t>>;

inline cli_matrix read_cli_matrix(const std::string& file) {
  const progress_stage working("reading " + file);
  io::mtx_matrix m = io::read_mtx(file);
  const std::size_t entries =
      m.format == io::mtx_format::coordinate ? m.values.size() : m.dense.size();
  constexpr auto limit = static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());
  if (m.rows <= limit && m.cols <= limit && entries <= limit) {
    return io::to_csr<double, std::int32_t>(std::move(m), file);
  }
  return io::to_csr<double, std::int64_t>(std::move(m), file);
}

// A 1-D .npy array of numbers as doubles (NumPy's promotion of any real
// dtype against a float64 matrix); `what` names it in messages.
inline std::vector<double> read_cli_vector(const std::string& file, const std::string& what) {
  const io::npy_array a = read_array(file);
  if (a.shape.size() != 1) {
    throw usage_error(file + ": " + what + " must be a 1-D array, but its shape is " +
                      shape_text(a.shape));
  }
  return io::values_as<double>(a);  // float16 too
}

}  // namespace gpuprim::cli
