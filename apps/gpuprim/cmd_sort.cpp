// `gpuprim sort FILE.npy -o OUT.npy`: the elements of a NumPy array sorted
// (radix sort, stable), written as a 1-D NumPy array of the input's dtype.
//
// Like numpy.sort(a, axis=None, kind="stable"): the array is read in C order
// and the result is 1-D. Keys are bool, 8/16/32/64-bit integers, float32 or
// float64, in the order of gpuprim/sort_types.hpp: NaNs last (numpy
// does the same), and -0.0 before +0.0 (numpy keeps them in input order).
// --descending reverses the order of every key except NaNs, which stay
// last; equal keys keep their input order in both directions.
//
// --values V.npy moves a second array with the keys (gp::sort_by_key): it
// has one element per key (read in C order, like the keys) of 4 or 8 bytes
// (int32, uint32, float32, int64, uint64, float64), and is written 1-D with
// its dtype to --values-out, or by default next to OUT.npy as
// OUT.values.npy. Passing numpy.arange(a.size) gives numpy.argsort(a,
// axis=None, kind="stable") (for ascending sorts without -0.0).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "dtype.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/sort.hpp"
#include "input_file.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace gpuprim::cli {
namespace {

// Values move as opaque 4- or 8-byte words, whatever their dtype.
using value_words =
    std::variant<std::monostate, std::vector<std::uint32_t>, std::vector<std::uint64_t>>;

template <class T>
std::span<const std::byte> bytes_of(const std::vector<T>& values) {
  return std::as_bytes(std::span<const T>(values));
}

void write_1d(const std::string& path, io::dtype type, std::span<const std::byte> bytes,
              std::uint64_t length) {
  const progress_stage writing("writing " + path);
  io::write_npy(path, type, bytes, std::span<const std::uint64_t>(&length, 1));
}

// Sorts `keys` and the values with them, in place, where b runs.
template <class B, class K>
void sort_keys(B b, std::span<K> keys, value_words& values, sort_order order) {
  auto staged_keys = stage_in_place(b, keys);
  std::visit(
      [&]<class List>(List& list) {
        if constexpr (std::is_same_v<List, std::monostate>) {
          sort(b, staged_keys, order);
        } else {
          auto staged_values = stage_in_place(b, list);
          sort_by_key(b, staged_keys, staged_values, order);
          write_back(list, staged_values);
        }
      },
      values);
  write_back(keys, staged_keys);
}

// Sorts the keys of `array` in place (the host sorts the file's bytes as
// read, no copy) and the values with them; writes both.
template <class B>
void sort_array(B b, io::npy_array& array, value_words& values, const io::npy_array* values_array,
                const sort_options& opts) {
  visit_dtype_but_half(array.type, opts.file, [&]<class T>(std::type_identity<T>) {
    // bool: 0 and 1, sorted as bytes.
    const std::span<stored_t<T>> keys = stored_span<T>(array);
    {
      const progress_stage working("sorting " + std::to_string(keys.size()) + " keys");
      sort_keys(b, keys, values, opts.descending ? sort_order::descending : sort_order::ascending);
    }
    write_1d(opts.output, array.type, std::as_bytes(keys), keys.size());
    std::visit(
        [&]<class List>(const List& list) {
          if constexpr (!std::is_same_v<List, std::monostate>) {
            write_1d(opts.values_output, values_array->type, bytes_of(list), list.size());
          }
        },
        values);
  });
}

// Reads --values: one 4- or 8-byte element per key.
value_words read_values(const io::npy_array& values, const sort_options& opts,
                        std::uint64_t num_keys) {
  const std::size_t bytes = io::dtype_size(values.type);
  if (bytes != 4 && bytes != 8) {
    throw usage_error(opts.values +
                      ": values must have 4- or 8-byte elements (int32, uint32, "
                      "float32, int64, uint64, float64), not " +
                      std::string(io::dtype_name(values.type)));
  }
  if (values.size() != num_keys) {
    throw usage_error(opts.values + ": " + std::to_string(values.size()) + " values, but " +
                      opts.file + " has " + std::to_string(num_keys) + " keys (one value per key)");
  }
  if (bytes == 4) return stored_values<std::uint32_t>(values.bytes);
  return stored_values<std::uint64_t>(values.bytes);
}

// OUT.npy -> OUT.values.npy (OUT -> OUT.values.npy without the suffix).
std::string default_values_output(const std::string& output) {
  std::filesystem::path path(output);
  if (path.extension() == ".npy") path.replace_extension();
  path += ".values.npy";
  return path.string();
}

int run_sort(const sort_options& opts) {
  const backend be = resolve(opts.backend);
  const bool with_values = !opts.values.empty();
  if (with_values && std::filesystem::path(opts.values_output).lexically_normal() ==
                         std::filesystem::path(opts.output).lexically_normal()) {
    throw usage_error("--values-out " + opts.values_output +
                      " is the key output's path; give the sorted values their own file");
  }
  io::npy_array array = read_array(opts.file);
  io::npy_array values_array;
  value_words values;
  if (with_values) {
    values_array = read_array(opts.values);
    values = read_values(values_array, opts, array.size());
  }
  std::visit(
      [&](auto b) { sort_array(b, array, values, with_values ? &values_array : nullptr, opts); },
      be);
  return exit_success;
}

// `gpuprim sort --help`: what the command does, then each of its options.
constexpr command_help help(R"(
sort: Sort the elements of a NumPy .npy array (stable radix sort), flattened in C order like
  numpy.sort(a, axis=None), written to a 1-D .npy array of the same dtype
FILE: The .npy file of keys (bool, int8..int64, uint8..uint64, float32, float64; either byte
  order, C or Fortran order). NaNs sort last; -0.0 before +0.0
--output: Where to write the sorted keys
--descending: Largest first (NaNs still last; equal keys keep their input order)
--values: A .npy array moved with the keys: one element per key, of 4 or 8 bytes (int32, uint32,
  float32, int64, uint64, float64); numpy.arange(a.size) gives the stable argsort
--values-out: Where to write the values in the keys' new order (default: OUT.values.npy next to
  the sorted keys)
--distributed: Under mpirun: each rank reads its own slice of FILE and the ranks sort together
  (sample sort; host or GPU ranks, as --backend), each writing its share of OUTPUT
)");

}  // namespace

command add_sort_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<sort_options>(app);
  add_files(sub, help, {{"FILE", &opts->file}}, opts->output, "OUT.npy");
  sub->add_flag("--descending", opts->descending, help["--descending"]);
  CLI::Option* values =
      sub->add_option("--values", opts->values, help["--values"])->option_text("V.npy");
  sub->add_option("--values-out", opts->values_output, help["--values-out"])
      ->option_text("VOUT.npy")
      ->needs(values);
  add_backend_option(sub, opts->backend);
  sub->add_flag("--distributed", opts->distributed, help["--distributed"]);
  return [opts] {
    if (!opts->values.empty() && opts->values_output.empty()) {
      opts->values_output = default_values_output(opts->output);
    }
    return opts->distributed ? run_distributed(*opts) : run_sort(*opts);
  };
}

}  // namespace gpuprim::cli
