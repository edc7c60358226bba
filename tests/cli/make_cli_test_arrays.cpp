// Writes the small .npy files the CLI tests read (and a few broken ones)
// into the directory given as the only argument.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "gpuprim/io/npy.hpp"
#include "support/generator.hpp"

namespace fs = std::filesystem;
namespace io = gpuprim::io;

namespace {

void write_text(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

int main(int argc, char** argv) {
  const auto folder = gpuprim::test::output_folder(argc, argv);
  if (!folder) return 2;
  const std::filesystem::path dir = *folder;

  io::write_npy(dir / "float32.npy", std::vector<float>{0.5f, 1.25f, -2.0f, 3.5f});  // sum 3.25
  // float32(0.1) ten times: 1.0000000149011612 when summed in double.
  io::write_npy(dir / "tenths.npy", std::vector<float>(10, 0.1f));
  // 3 x 4 int32: min -7 at 6, max 42 first at 5.
  const std::vector<std::int32_t> matrix = {3, 8, 1, 0, 9, 42, -7, 5, 2, 42, 11, 4};
  io::write_npy<std::int32_t>(dir / "int32_matrix.npy", matrix, {3, 4});
  // Sums that overflow the element type.
  io::write_npy(dir / "int8.npy", std::vector<std::int8_t>{-128, -1, 127, -100});  // -102
  io::write_npy(dir / "uint8.npy", std::vector<std::uint8_t>(1000, 255));          // 255000
  io::write_npy(dir / "int16.npy", std::vector<std::int16_t>{-32768, 5, -32768, 32767});
  const bool flags[] = {true, false, true, true};
  io::write_npy(dir / "bool.npy", std::span<const bool>(flags));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  io::write_npy(dir / "float64_nan.npy", std::vector<double>{nan, 2.5, -1.5, nan});
  // The largest floats below the exact edges 1e-05 and 2e-05 of 100000 bins
  // over [0, 1]: numpy.histogram rounds those edges to float32, to these
  // very values, so each starts its bin.
  io::write_npy(dir / "below_edges.npy",
                std::vector<float>{9.999999747378752e-06f, 1.9999999494757503e-05f});
  io::write_npy(dir / "all_nan.npy",
                std::vector<float>(3, std::numeric_limits<float>::quiet_NaN()));
  io::write_npy(dir / "empty.npy", std::vector<float>{});
  const std::int64_t scalar = -9000000000;
  io::write_npy<std::int64_t>(dir / "scalar.npy", std::span<const std::int64_t>(&scalar, 1), {});

  // Scans: the inputs above, and what `gpuprim scan` must write for them,
  // byte for byte as numpy.save writes numpy's result.
  const fs::path expected = dir / "expected";
  fs::create_directories(expected);
  // np.cumsum of float32 [0.5, 1.25, -2.0, 3.5]: exact in float32.
  io::write_npy(expected / "cumsum_float32.npy", std::vector<float>{0.5f, 1.75f, -0.25f, 3.25f});
  io::write_npy(expected / "exclusive_cumsum_float32.npy",
                std::vector<float>{0.0f, 0.5f, 1.75f, -0.25f});
  io::write_npy(expected / "cummax_float32.npy", std::vector<float>{0.5f, 1.25f, 1.25f, 3.5f});
  // The 3 x 4 matrix flattened; int32 sums become int64.
  io::write_npy(expected / "cumsum_int32_matrix.npy",
                std::vector<std::int64_t>{3, 11, 12, 12, 21, 63, 56, 61, 63, 105, 116, 120});
  io::write_npy(expected / "cummin_int32_matrix.npy",
                std::vector<std::int32_t>{3, 3, 1, 0, 0, 0, -7, -7, -7, -7, -7, -7});
  io::write_npy(expected / "exclusive_cummin_int32_matrix.npy",
                std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::max(), 3, 3, 1, 0, 0,
                                          0, -7, -7, -7, -7, -7});
  // Past int32's range: numpy widens to int64 first.
  io::write_npy(dir / "int32_big.npy", std::vector<std::int32_t>{2147483647, 2147483647, -5});
  io::write_npy(expected / "cumsum_int32_big.npy",
                std::vector<std::int64_t>{2147483647, 4294967294, 4294967289});
  io::write_npy(expected / "cumsum_int8.npy", std::vector<std::int64_t>{-128, -129, -2, -102});
  std::vector<std::uint64_t> uint8_sums(1000);
  for (std::size_t i = 0; i < uint8_sums.size(); ++i)
    uint8_sums[i] = 255 * (i + 1);
  io::write_npy(expected / "cumsum_uint8.npy", uint8_sums);
  io::write_npy(expected / "cumsum_bool.npy", std::vector<std::int64_t>{1, 1, 2, 3});
  // np.fmin.accumulate of [nan, 2.5, -1.5, nan]: NaN until the first number.
  io::write_npy(expected / "cummin_float64_nan.npy", std::vector<double>{nan, 2.5, -1.5, -1.5});
  // --exclusive of the same: out[i] is the inclusive out[i-1], out[0] the
  // identity, NaN for nanmin / nanmax (not -inf / +inf, issue 41).
  io::write_npy(expected / "exclusive_cumnanmax_float64_nan.npy",
                std::vector<double>{nan, nan, 2.5, 2.5});
  io::write_npy(expected / "exclusive_cumnanmin_float64_nan.npy",
                std::vector<double>{nan, nan, 2.5, -1.5});
  io::write_npy(expected / "cumsum_empty.npy", std::vector<float>{});
  io::write_npy(expected / "cumsum_scalar.npy", std::vector<std::int64_t>{-9000000000});

  // Segmented scans: seven int32 values in segments [0, 3), [3, 5), [5, 7),
  // given as bool head flags, as uint8 head flags (any nonzero byte starts a
  // segment; element 0 starts one unflagged) and as int64 / uint64 offsets
  // (the uint64 ones with an empty segment, which changes nothing).
  io::write_npy(dir / "segment_values.npy", std::vector<std::int32_t>{1, 2, 3, 4, 5, 6, 7});
  const bool segment_heads[] = {true, false, false, true, false, true, false};
  io::write_npy(dir / "segment_flags_bool.npy", std::span<const bool>(segment_heads));
  io::write_npy(dir / "segment_flags_uint8.npy", std::vector<std::uint8_t>{0, 0, 0, 7, 0, 1, 0});
  io::write_npy(dir / "segment_offsets_int64.npy", std::vector<std::int64_t>{0, 3, 5, 7});
  io::write_npy(dir / "segment_offsets_uint64.npy", std::vector<std::uint64_t>{0, 3, 3, 5, 7});
  io::write_npy(expected / "segmented_cumsum.npy", std::vector<std::int64_t>{1, 3, 6, 4, 9, 6, 13});
  io::write_npy(expected / "exclusive_segmented_cumsum.npy",
                std::vector<std::int64_t>{0, 1, 3, 0, 4, 0, 6});
  // float32.npy [0.5, 1.25, -2.0, 3.5] by bool.npy [1, 0, 1, 1].
  io::write_npy(expected / "segmented_cumsum_float32.npy",
                std::vector<float>{0.5f, 1.75f, -2.0f, 3.5f});
  // float64_nan.npy [nan, 2.5, -1.5, nan] by bool.npy: a segment's outputs
  // are NaN until its first number.
  io::write_npy(expected / "segmented_cummin_float64_nan.npy",
                std::vector<double>{nan, 2.5, -1.5, nan});
  // The rows of int32_matrix.npy as segments.
  io::write_npy(dir / "matrix_row_offsets.npy", std::vector<std::int64_t>{0, 4, 8, 12});
  io::write_npy(expected / "segmented_cummin_int32_matrix.npy",
                std::vector<std::int32_t>{3, 3, 1, 0, 9, 9, -7, -7, 2, 2, 2, 2});
  // Offsets that do not partition float32.npy's four values.
  io::write_npy(dir / "offsets_past_end.npy", std::vector<std::int64_t>{0, 2, 5});
  io::write_npy(dir / "offsets_decreasing.npy", std::vector<std::int64_t>{0, 3, 1, 4});

  // Sorts (`gpuprim sort`): what numpy.sort(a, kind="stable") gives, with
  // gpuprim's order of -0.0 before +0.0; descending is the reverse with
  // NaNs still last; values move with their keys (equal keys keep their
  // input order).
  io::write_npy(dir / "sort_int32.npy",
                std::vector<std::int32_t>{5, -3, 2147483647, 0, -3, -2147483647 - 1, 7, 5});
  io::write_npy(expected / "sort_int32.npy",
                std::vector<std::int32_t>{-2147483647 - 1, -3, -3, 0, 5, 5, 7, 2147483647});
  io::write_npy(expected / "sort_int32_descending.npy",
                std::vector<std::int32_t>{2147483647, 7, 5, 5, 0, -3, -3, -2147483647 - 1});
  // Values: the input positions (numpy.arange), as uint32 and as float64.
  io::write_npy(dir / "sort_positions_uint32.npy",
                std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
  io::write_npy(expected / "argsort_int32.npy", std::vector<std::uint32_t>{5, 1, 4, 3, 0, 7, 6, 2});
  io::write_npy(expected / "argsort_int32_descending.npy",
                std::vector<std::uint32_t>{2, 6, 0, 7, 3, 1, 4, 5});
  io::write_npy(dir / "sort_positions_float64.npy",
                std::vector<double>{0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0});
  io::write_npy(expected / "argsort_int32_float64.npy",
                std::vector<double>{5.0, 1.0, 4.0, 3.0, 0.0, 7.0, 6.0, 2.0});
  const float fnan = std::numeric_limits<float>::quiet_NaN();
  const float finf = std::numeric_limits<float>::infinity();
  io::write_npy(dir / "sort_float32.npy",
                std::vector<float>{1.5f, fnan, 0.0f, -finf, -0.0f, -2.5f, fnan, finf, -0.0f});
  io::write_npy(expected / "sort_float32.npy",
                std::vector<float>{-finf, -2.5f, -0.0f, -0.0f, 0.0f, 1.5f, finf, fnan, fnan});
  io::write_npy(expected / "sort_float32_descending.npy",
                std::vector<float>{finf, 1.5f, 0.0f, -0.0f, -0.0f, -2.5f, -finf, fnan, fnan});
  io::write_npy(dir / "sort_positions9_int64.npy",
                std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8});
  io::write_npy(expected / "argsort_float32.npy",
                std::vector<std::int64_t>{3, 5, 4, 8, 2, 0, 7, 1, 6});
  io::write_npy(expected / "argsort_float32_descending.npy",
                std::vector<std::int64_t>{7, 0, 2, 4, 8, 5, 3, 1, 6});
  // The 3 x 4 int32 matrix above, flattened and sorted.
  io::write_npy(expected / "sort_int32_matrix.npy",
                std::vector<std::int32_t>{-7, 0, 1, 2, 3, 4, 5, 8, 9, 11, 42, 42});
  io::write_npy(expected / "sort_uint8.npy", std::vector<std::uint8_t>(1000, 255));
  const bool sorted_flags[] = {false, true, true, true};
  io::write_npy(expected / "sort_bool.npy", std::span<const bool>(sorted_flags));
  io::write_npy(expected / "sort_scalar.npy", std::vector<std::int64_t>{-9000000000});

  // Broken files.
  write_text(dir / "corrupt.npy", "this is a text file, not an array\n");
  std::string header = io::npy_header(io::dtype::float32, std::vector<std::uint64_t>{4});
  write_text(dir / "truncated.npy", header + std::string(8, '\0'));  // 2 of 4 floats
  std::string big_endian = header;
  big_endian.replace(big_endian.find("<f4"), 3, ">f4");
  // [1.5, -2.0, 0.25, 4.0], most significant byte first: numpy.load reads it.
  std::string complex = header;
  complex.replace(complex.find("<f4"), 3, "<c8");
  write_text(dir / "complex64.npy", complex + std::string(32, '\0'));
  write_text(dir / "big_endian.npy",
             big_endian + std::string("\x3f\xc0\0\0\xc0\0\0\0\x3e\x80\0\0\x40\x80\0\0", 16));
  return 0;
}
