// `gpuprim searchsorted SORTED.npy QUERIES.npy -o IDX.npy [--side left|right]`:
// where each query would be inserted into the sorted 1-D table to keep it
// sorted, as numpy.searchsorted(sorted, queries, side): int64, the queries'
// shape. NaN sorts last, as in NumPy. The table is checked first (one pass):
// an unsorted one is refused. On the CPU backend (the order family has no
// GPU backend yet).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "backend.hpp"
#include "commands.hpp"
#include "dtype.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/search.hpp"
#include "options.hpp"

namespace gpuprim::cli {
namespace {

enum class search_side { left, right };

struct searchsorted_options {
  std::string sorted;
  std::string queries;
  std::string output;
  search_side side = search_side::left;
  backend_request backend = backend_request::automatic;
};

template <class T>
void search_arrays(const io::npy_array& table, const io::npy_array& queries,
                   const searchsorted_options& opts) {
  using S = stored_t<T>;
  const std::span<const S> s = stored_span<T>(table);
  const std::span<const S> q = stored_span<T>(queries);
  const std::size_t bad = first_unsorted(host, s, nan_last_less{});
  if (bad < s.size()) {
    throw usage_error(opts.sorted + " is not sorted (NaN last): element " +
                      std::to_string(bad + 1) + " is less than element " + std::to_string(bad));
  }
  std::vector<std::int64_t> out(q.size());
  if (opts.side == search_side::right) {
    upper_bound(host, s, q, out, nan_last_less{});
  } else {
    lower_bound(host, s, q, out, nan_last_less{});
  }
  io::write_npy(opts.output, io::dtype::int64, std::as_bytes(std::span<const std::int64_t>(out)),
                queries.shape);
}

int run_searchsorted(const searchsorted_options& opts) {
  if (opts.backend == backend_request::cuda) {
    throw usage_error("--backend cuda is not offered yet: searchsorted runs on the CPU so far");
  }
  const io::npy_array table = io::read_npy(opts.sorted);
  const io::npy_array queries = io::read_npy(opts.queries);
  if (table.shape.size() != 1) {
    throw usage_error(opts.sorted + ": the sorted table must be 1-D (it has " +
                      std::to_string(table.shape.size()) + " axes)");
  }
  if (table.type != queries.type) {
    throw usage_error(opts.queries + " has dtype " + std::string(io::dtype_name(queries.type)) +
                      ", " + opts.sorted + " " + std::string(io::dtype_name(table.type)) +
                      ": give both one dtype");
  }
  visit_dtype_but_half(table.type, opts.sorted, [&]<class T>(std::type_identity<T>) {
    search_arrays<T>(table, queries, opts);
  });
  return exit_success;
}

constexpr command_help help(R"(
searchsorted: Where each query would be inserted into a sorted 1-D NumPy .npy table to keep it
  sorted, as numpy.searchsorted(sorted, queries, side): int64 indices, the queries' shape. NaN sorts
  last, as in NumPy. An unsorted table is refused (the check reads it once). Runs on the CPU (the
  order family has no GPU backend yet)
SORTED: The sorted table, 1-D (bool, int8..int64, uint8..uint64, float32, float64)
QUERIES: The values to look up, any shape, of the table's dtype
--output: Where to write the indices (int64)
--side: left: the first index that keeps the order (numpy's default); right: the last
)");

const word_list<search_side> sides = {{"left", search_side::left}, {"right", search_side::right}};

}  // namespace

command add_searchsorted_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<searchsorted_options>(app);
  add_files(sub, help, {{"SORTED", &opts->sorted}, {"QUERIES", &opts->queries}}, opts->output,
            "IDX.npy");
  add_choice(sub, "--side", opts->side, sides, help["--side"], choice_help::words_and_default);
  add_backend_option(sub, opts->backend)
      ->description(
          "host (the default; cuda is not offered yet: the order family has no GPU backend)");
  return [opts] { return run_searchsorted(*opts); };
}

}  // namespace gpuprim::cli
