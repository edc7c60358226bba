// libFuzzer target: a Matrix Market file in memory through read_mtx_text
// and the CSR conversion `gpuprim spmv` and `solve` use. A format_error is
// the expected answer to a bad file; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"
#include "gpuprim/io/mtx.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    gpuprim::io::mtx_matrix m = gpuprim::io::read_mtx_text(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.mtx");
    const std::size_t rows = m.rows;
    const auto csr = gpuprim::io::to_csr<double, std::int64_t>(std::move(m), "fuzz.mtx");
    if (csr.row_offsets().size() != rows + 1) __builtin_trap();
  } catch (const gpuprim::io::format_error&) {
  }
  return 0;
}
