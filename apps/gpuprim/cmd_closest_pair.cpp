// `gpuprim closest-pair POINTS`: the two nearest points of a set in 2-D or
// 3-D, printed as one line "i j distance" (0-based row indices, i < j; the
// distance with 17 significant digits, enough to round-trip a double).
//
// POINTS is a NumPy .npy array of shape (n, 2) or (n, 3) (float32 and
// float64 are used as they are; float16, bool and integer arrays are
// converted to float64), or a .csv file of 2 or 3 numeric columns per line, comma
// separated, with an optional header line (a first line that is not all
// numbers). Ties go to the lexicographically smallest (i, j), as
// gp::closest_pair defines them. Fewer than 2 points, a bad shape, a NaN or
// infinite coordinate, or a CSV line that does not parse (its line number
// is given) exit 2 with one line naming the file.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "gpuprim/closest_pair.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/io/npy.hpp"
#include "input_file.hpp"
#include "options.hpp"
#include "point_csv.hpp"
#include "progress.hpp"

namespace gpuprim::cli {
namespace {

const word_list<closest_pair_algorithm> algorithm_words = {
    {"auto", closest_pair_algorithm::automatic},
    {"brute", closest_pair_algorithm::brute_force},
    {"tiled", closest_pair_algorithm::tiled},
    {"dc", closest_pair_algorithm::divide_and_conquer},
    {"grid", closest_pair_algorithm::grid}};

struct closest_pair_options {
  std::string file;
  closest_pair_algorithm algorithm = closest_pair_algorithm::automatic;
  backend_request backend = backend_request::automatic;
};

// Points as rows of `dim` coordinates.
template <class T>
struct point_table {
  std::vector<T> values;
  std::size_t rows = 0;
  int dim = 2;
};

// Above this many points the GPU brute force says up front what it will do
// (the device reports no progress; counting would slow the kernel).
constexpr std::size_t cuda_brute_notice_points = 200000;

template <class T>
closest_pair_result solve(host_backend b, const point_table<T>& table,
                          closest_pair_algorithm algorithm) {
  const double pairs = 0.5 * double(table.rows) * double(table.rows > 0 ? table.rows - 1 : 0);
  char what[96];
  std::snprintf(what, sizeof what, "closest pair of %zu points (brute force: %.3g pairs)",
                table.rows, pairs);
  progress_stage working(algorithm == closest_pair_algorithm::brute_force
                             ? what
                             : "closest pair of " + std::to_string(table.rows) + " points");
  // The host brute force says how far it is (the library counts the pairs
  // only when asked, once a second).
  closest_pair_progress progress;
  progress.report = [&working](double fraction, double) { working.fraction(fraction); };
  progress.interval = 0.5;
  return closest_pair(b, matrix_view<const T>(table.values.data(), table.rows, table.dim),
                      algorithm, progress);
}

template <class T>
closest_pair_result solve(cuda_backend b, const point_table<T>& table,
                          closest_pair_algorithm algorithm) {
  if (algorithm == closest_pair_algorithm::brute_force && table.rows > cuda_brute_notice_points) {
    const double pairs = 0.5 * double(table.rows) * double(table.rows - 1);
    std::fprintf(stderr,
                 "gpuprim closest-pair: brute force over %zu points: %.3g pairs on the GPU, "
                 "no progress until it ends\n",
                 table.rows, pairs);
  }
  const progress_stage working("closest pair of " + std::to_string(table.rows) +
                               " points on the GPU");
  const device_vector<T> d = to_device(table.values);
  return closest_pair(b, device_matrix_view<const T>(d.data(), table.rows, table.dim), algorithm);
}

// The points of a .csv file, or of a .npy array of shape (n, 2) or (n, 3):
// float32 as it is, float64 as it is, every other dtype converted to
// float64 (float16, bool, integers: exactly, but for integers beyond 2^53).
std::variant<point_table<float>, point_table<double>> read_points(const std::string& file) {
  if (has_extension(file, ".csv")) {
    point_csv csv = read_point_csv(file);
    return point_table<double>{std::move(csv.values), csv.rows, csv.dim};
  }
  const io::npy_array array = read_array(file);
  if (array.shape.size() != 2 || (array.shape[1] != 2 && array.shape[1] != 3)) {
    throw usage_error(file + ": shape " + shape_text(array.shape) +
                      "; points must have shape (n, 2) or (n, 3)");
  }
  const auto rows = static_cast<std::size_t>(array.shape[0]);
  const int dim = static_cast<int>(array.shape[1]);
  if (array.type == io::dtype::float32) {
    const auto values = array.values<float>();
    return point_table<float>{{values.begin(), values.end()}, rows, dim};
  }
  return point_table<double>{io::values_as<double>(array), rows, dim};
}

int run_closest_pair(const closest_pair_options& opts) {
  const backend be = resolve(opts.backend);
  const auto points = read_points(opts.file);
  closest_pair_result r;
  try {
    r = std::visit([&](auto b, const auto& table) { return solve(b, table, opts.algorithm); }, be,
                   points);
  } catch (const std::invalid_argument& e) {
    std::string message = e.what();
    const std::string prefix = "gpuprim::closest_pair: ";
    if (message.rfind(prefix, 0) == 0) message = message.substr(prefix.size());
    throw usage_error(opts.file + ": " + message);
  }
  std::printf("%zu %zu %.17g\n", r.i, r.j, r.distance);
  return exit_success;
}

// `gpuprim closest-pair --help`: what the command does, then each of its options.
constexpr command_help help(R"(
closest-pair: The two nearest points of a 2-D or 3-D point set: prints 'i j distance' (0-based
  rows, i < j; ties to the smallest (i, j))
POINTS: A .npy array of shape (n, 2) or (n, 3) (float32/float64; float16, integers and bool as
  float64), or a .csv file of 2 or 3 numeric columns (optional header)
--algorithm: auto (by n), brute (every pair: O(n^2), about 5e11 pairs for 10^6 points; progress on
  stderr once a second on the host), tiled (every pair, in tiles: O(n^2) too), dc (divide and
  conquer, O(n log n)) or grid
)");

}  // namespace

command add_closest_pair_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<closest_pair_options>(app);
  add_files(sub, help, {{"POINTS", &opts->file}});
  add_choice(sub, "--algorithm", opts->algorithm, algorithm_words, help["--algorithm"],
             choice_help::words_and_default);
  add_backend_option(sub, opts->backend);
  return [opts] { return run_closest_pair(*opts); };
}

}  // namespace gpuprim::cli
