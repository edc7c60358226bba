// `gpuprim unique FILE.npy -o OUT.npy [--counts C.npy] [--consecutive]`:
// the unique elements of a NumPy array, as numpy.unique(a) (sorted, one NaN,
// last; --counts: return_counts), or with --consecutive the run-length
// encoding of the array as it is (the first element of each run of equal
// consecutive elements and, with --counts, each run's length; NaN never
// equals NaN there, as torch.unique_consecutive). The array is read in C
// order; the results are 1-D, the unique elements of the input's dtype,
// the counts int64. On either backend: the library's radix sort (stable) and
// run_length_encode.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "backend.hpp"
#include "commands.hpp"
#include "dtype.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/select.hpp"
#include "gpuprim/sort.hpp"
#include "options.hpp"

namespace gpuprim::cli {
namespace {

struct unique_options {
  std::string file;
  std::string output;
  std::string counts;
  bool consecutive = false;
  bool distributed = false;
  backend_request backend = backend_request::automatic;
};

// The type the keys are sorted and encoded as on backend B: on the host the
// stored type; on the GPU one the selections precompile (int8 and the 2-byte
// integers widened to 4 bytes, which keeps their order and equality).
template <class B, class S>
using run_key_t =
    std::conditional_t<is_gpu<B> && (sizeof(S) == 2 || std::is_same_v<S, std::int8_t>),
                       std::conditional_t<std::is_signed_v<S>, std::int32_t, std::uint32_t>, S>;

// numpy.unique's equality (NaNs equal) for the sorted form, == for the runs.
template <class K, class Eq, class B>
std::size_t encode(B b, const std::vector<K>& keys, std::vector<K>& unique_keys,
                   std::vector<std::int64_t>& counts) {
  const auto staged = stage(b, keys);
  auto u = make_output<K>(b, keys.size());
  auto c = make_output<std::int64_t>(b, keys.size());
  const std::size_t k = run_length_encode(b, staged, u, c, Eq{});
  unique_keys = fetch(std::move(u));
  counts = fetch(std::move(c));
  unique_keys.resize(k);
  counts.resize(k);
  return k;
}

void write_1d(const std::string& path, io::dtype type, std::span<const std::byte> bytes,
              std::uint64_t length) {
  io::write_npy(path, type, bytes, std::span<const std::uint64_t>(&length, 1));
}

template <class B>
void unique_array(B b, const io::npy_array& array, const unique_options& opts) {
  visit_dtype_but_half(array.type, opts.file, [&]<class T>(std::type_identity<T>) {
    using S = stored_t<T>;
    using K = run_key_t<B, S>;
    const std::vector<S> stored = stored_values<T>(array.bytes);
    std::vector<K> keys(stored.begin(), stored.end());
    if (!opts.consecutive) {
      auto staged = stage_in_place(b, keys);
      sort(b, staged);
      write_back(keys, staged);
    }
    std::vector<K> unique_keys;
    std::vector<std::int64_t> counts;
    if (opts.consecutive) {
      encode<K, equal_to>(b, keys, unique_keys, counts);
    } else {
      encode<K, same_value>(b, keys, unique_keys, counts);
    }
    const std::vector<S> out(unique_keys.begin(), unique_keys.end());
    write_1d(opts.output, array.type, std::as_bytes(std::span<const S>(out)), out.size());
    if (!opts.counts.empty()) {
      write_1d(opts.counts, io::dtype::int64, std::as_bytes(std::span<const std::int64_t>(counts)),
               counts.size());
    }
  });
}

int run_unique(const unique_options& opts) {
  if (opts.distributed) {
    throw usage_error(
        "--distributed is not offered: each rank's runs at the edges of its slice "
        "would need its neighbours' edge keys and the ranks' counts gathered; sort with "
        "`gpuprim sort --distributed`, then run unique on the sorted file");
  }
  if (!opts.counts.empty() && std::filesystem::path(opts.counts).lexically_normal() ==
                                  std::filesystem::path(opts.output).lexically_normal()) {
    throw usage_error("--counts " + opts.counts +
                      " is the unique output's path; give the counts their own file");
  }
  const backend be = resolve(opts.backend);
  const io::npy_array array = io::read_npy(opts.file);
  std::visit([&](auto b) { unique_array(b, array, opts); }, be);
  return exit_success;
}

constexpr command_help help(R"(
unique: The unique elements of a NumPy .npy array, flattened in C order, as numpy.unique(a): sorted,
  NaNs counted as one value, last (written as a 1-D .npy array of the input's dtype). Where the input
  holds both -0.0 and 0.0 the zero written is -0.0 (the radix sort orders it first)
FILE: The .npy file (bool, int8..int64, uint8..uint64, float32, float64; either byte order, C or
  Fortran order)
--output: Where to write the unique elements
--counts: Also write how often each unique element occurs (int64), as return_counts=True
--consecutive: The run-length encoding of the array as it is, not sorted: the first element of each
  run of equal consecutive elements (and with --counts each run's length); NaN never equals NaN,
  as torch.unique_consecutive
--distributed: Not offered: a rank's runs at the edges of its slice would need its neighbours' edge
  keys; sort with `gpuprim sort --distributed`, then run unique on the sorted result
)");

}  // namespace

command add_unique_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<unique_options>(app);
  add_files(sub, help, {{"FILE", &opts->file}}, opts->output, "OUT.npy");
  sub->add_option("--counts", opts->counts, help["--counts"])->option_text("COUNTS.npy");
  sub->add_flag("--consecutive", opts->consecutive, help["--consecutive"]);
  add_backend_option(sub, opts->backend);
  sub->add_flag("--distributed", opts->distributed, help["--distributed"]);
  return [opts] { return run_unique(*opts); };
}

}  // namespace gpuprim::cli
