// `gpuprim reduce|scan|sort|histogram ... --distributed` under mpirun: each
// rank reads its own contiguous slice of the input .npy (from its offset in
// the file, never the whole file), runs the gp::mpi algorithm, and writes
// its slice of the output at its offset of one .npy file whose header rank 0
// writes; rank 0 prints what the one-process command prints. The output
// files are the one-process command's, byte for byte for integers and sorts
// (float sums: within the usual rounding, the terms being grouped by rank).
//
// --backend host: host ranks (gp::mpi{comm}). --backend cuda (the default
// when a GPU is present, as for the one-process commands): GPU ranks
// (gp::mpi{comm, gp::cuda}); each rank uses device (its rank on its node) %
// (the node's devices), so ranks may share a GPU, copies its slice there and
// its results back. Both run the same code, in the types the GPU library
// precompiles (as the one-process GPU paths do: 8- and 16-bit integers
// compared in 32 bits, integer sums in 64), converted value for value.
//
// Errors: every step that can fail on one rank alone (reading, writing,
// device memory) is followed by an agreement between the ranks, so no rank
// waits in a collective for one that gave up; then every rank exits 2 and
// rank 0 prints the first failing rank's message on one line.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "dtype.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/dist/histogram.hpp"
#include "gpuprim/dist/reduce.hpp"
#include "gpuprim/dist/scan.hpp"
#include "gpuprim/dist/sort.hpp"
#include "gpuprim/io/npy.hpp"
#include "histogram_output.hpp"
#include "options.hpp"

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gpuprim::cli {
namespace {

// Thrown on every rank when some rank failed; `what` is that rank's message.
class dist_failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `step` on every rank; when it throws on any rank, throws the first
// failing rank's message on all of them.
void on_all_ranks(MPI_Comm comm, const std::function<void()>& step) {
  std::string message;
  try {
    step();
  } catch (const std::exception& e) {
    message = e.what();
    if (message.empty()) message = "error";
  }
  const int failed = message.empty() ? mpi_size(comm) : mpi_rank(comm);
  int first = 0;
  MPI_Allreduce(&failed, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == mpi_size(comm)) return;
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  message.resize(length);
  MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
  throw dist_failure(message);
}

// This rank's slice of the input file.
struct input_slice {
  io::npy_info info;
  std::uint64_t begin = 0;
  std::vector<std::byte> bytes;

  template <class T>
  std::vector<stored_t<T>> as() const {
    return stored_values<T>(bytes);
  }
};

input_slice read_slice(MPI_Comm comm, const std::string& file) {
  input_slice in;
  on_all_ranks(comm, [&] {
    in.info = io::read_npy_info(file);
    const auto [begin, end] = even_slice(in.info.size(), mpi_rank(comm), mpi_size(comm));
    in.begin = begin;
    in.bytes = io::read_npy_slice(file, in.info, begin, end - begin);
  });
  return in;
}

// One 1-D .npy file of `total` elements of `type`: rank 0 writes the header
// and sizes the file, then each rank writes its elements from `begin`.
void write_slices(MPI_Comm comm, const std::string& path, io::dtype type, std::uint64_t total,
                  std::uint64_t begin, std::span<const std::byte> bytes) {
  const std::uint64_t shape[1] = {total};
  on_all_ranks(comm, [&] {
    if (mpi_rank(comm) == 0) io::create_npy(path, type, shape);
  });
  on_all_ranks(comm, [&] {
    if (!bytes.empty()) io::write_npy_slice(path, type, shape, begin, bytes);
  });
}

// Calls f(std::vector<T>) with the slice as its own element type (bool as
// uint8; not float16).
template <class F>
void with_values(const input_slice& in, F&& f) {
  visit_dtype(in.info.type, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_same_v<T, half>) {
      throw usage_error("unsupported dtype");
    } else {
      f(in.as<T>());
    }
  });
}

// ---- where a rank's local work runs -------------------------------------------

// The ranks and the backend of their local work: host ranks keep their
// slice where it is, GPU ranks copy it to their device and the results back
// (the staging helpers of backend.hpp).
struct ranks {
  MPI_Comm comm;
  backend local;
};

// Calls f(b, local): gp::mpi{comm} over host ranks, or gp::mpi{comm,
// gp::cuda} over GPU ranks, and the local backend.
template <class F>
void with_backend(const ranks& r, F&& f) {
  std::visit([&](auto local) { f(mpi<decltype(local)>{r.comm, local}, local); }, r.local);
}

// stage(local, v) and make_output<T>(local, n), agreed between the ranks
// (device memory can run out on one rank alone).
template <class Local, class T>
auto placed(MPI_Comm comm, Local local, const std::vector<T>& v) {
  decltype(stage(local, v)) out{};
  on_all_ranks(comm, [&] { out = stage(local, v); });
  return out;
}
// On the host the result is a span of v: never of a temporary.
template <class Local, class T>
auto placed(MPI_Comm comm, Local local, std::vector<T>&& v) = delete;
template <class T, class Local>
auto made(MPI_Comm comm, Local local, std::size_t n) {
  decltype(make_output<T>(local, n)) out{};
  on_all_ranks(comm, [&] { out = make_output<T>(local, n); });
  return out;
}

// ---- reduce ------------------------------------------------------------------

template <class B, class Local, class T>
std::string dist_reduce_values(B b, Local local, const std::vector<T>& values, reduce_op op,
                               std::uint64_t total) {
  const bool skip_nan = skips_nan(op);
  const reduce_op plain = with_nan(op);
  const nan_rule rule = skip_nan ? nan_rule::skip : nan_rule::propagate;
  if (plain == reduce_op::sum) {
    if constexpr (std::is_floating_point_v<T>) {
      const auto in = placed(b.comm, local, values);
      const double s = skip_nan ? transform_reduce(b, in, 0.0, plus{}, nan_to_zero{})
                                : reduce(b, in, 0.0, plus{});
      return number_text(s);
    } else {
      const std::vector<std::uint64_t> wide(values.begin(), values.end());
      const std::uint64_t s = reduce(b, placed(b.comm, local, wide), std::uint64_t{0}, plus{});
      if constexpr (std::is_signed_v<T>) return number_text(static_cast<std::int64_t>(s));
      return number_text(s);
    }
  }
  const std::string& name = word_of(reduce_op_words, plain);
  if (total == 0) throw usage_error("cannot take the " + name + " of an empty array");
  if constexpr (std::is_floating_point_v<T>) {
    if (skip_nan) {
      const bool mine_all_nan =
          std::all_of(values.begin(), values.end(), [](T x) { return std::isnan(x); });
      const auto all = detail::allgather(b.comm, static_cast<std::uint8_t>(mine_all_nan));
      if (std::all_of(all.begin(), all.end(), [](std::uint8_t x) { return x != 0; })) {
        if (is_arg(op)) {
          throw usage_error("all values are NaN: nan" + name + " has no answer (numpy raises)");
        }
        if (mpi_rank(b.comm) == 0) {
          std::fprintf(stderr, "gpuprim reduce: warning: all values are NaN, nan%s is nan\n",
                       name.c_str());
        }
      }
    }
  }
  using E = widened_small_t<T>;
  const std::vector<E> converted(values.begin(), values.end());
  const auto in = placed(b.comm, local, converted);  // on the host: a span of `converted`
  const auto found = is_max(op) ? max_element(b, in, rule) : min_element(b, in, rule);
  const std::string value = number_text(static_cast<T>(found.value));
  return is_arg(op) ? value + " " + number_text(found.index) : value;
}

void run_on_ranks(const ranks& rk, const reduce_options& r) {
  const input_slice in = read_slice(rk.comm, r.file);
  std::string result;
  with_backend(rk, [&](auto b, auto local) {
    on_all_ranks(rk.comm, [&] {
      try {
        with_values(in, [&](const auto& values) {
          result = dist_reduce_values(b, local, values, r.op, in.info.size());
        });
      } catch (const usage_error& e) {
        throw usage_error(r.file + ": " + e.what());
      }
    });
  });
  if (mpi_rank(rk.comm) == 0) std::printf("%s\n", result.c_str());
}

// ---- scan --------------------------------------------------------------------

template <class O, class C>
std::vector<std::byte> bytes_as(const std::vector<C>& values) {
  using storage = std::conditional_t<std::is_same_v<O, bool>, std::uint8_t, O>;
  std::vector<std::byte> bytes(values.size() * sizeof(storage));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const storage x = static_cast<storage>(static_cast<O>(values[i]));
    std::memcpy(bytes.data() + i * sizeof x, &x, sizeof x);
  }
  return bytes;
}

// This rank's slice of the scan of the whole array, computed where `local`
// runs.
template <class B, class Local, class C, class Op>
std::vector<C> scanned(B b, Local local, const std::vector<C>& values, bool exclusive, C init,
                       Op op) {
  const auto in = placed(b.comm, local, values);
  auto out = made<C>(b.comm, local, values.size());
  if (exclusive) {
    exclusive_scan(b, in, out, init, op);
  } else {
    inclusive_scan(b, in, out, op);
  }
  return fetch(std::move(out));
}

template <class C, class Op>
std::vector<C> scanned(const ranks& rk, const std::vector<C>& values, bool exclusive, C init,
                       Op op) {
  std::vector<C> result;
  with_backend(
      rk, [&](auto b, auto local) { result = scanned(b, local, values, exclusive, init, op); });
  return result;
}

template <class T>
void dist_scan_values(const ranks& rk, const std::vector<T>& values, const scan_options& r,
                      const input_slice& in) {
  const MPI_Comm comm = rk.comm;
  std::vector<std::byte> out;
  io::dtype out_type = in.info.type;
  if (r.op == scan_op::sum) {
    // As `gpuprim scan`: integers in uint64 (written int64 or uint64), floats in their type.
    using C = scan_sum_t<T>;
    using O = scan_sum_output_t<T>;
    const std::vector<C> wide(values.begin(), values.end());
    const std::vector<C> result = scanned(rk, wide, r.exclusive, C{0}, plus{});
    // numpy bool counts as int64 (like the one-process command).
    if (in.info.type == io::dtype::bool8) {
      out = bytes_as<std::int64_t>(result);
      out_type = io::dtype::int64;
    } else {
      out = bytes_as<O>(result);
      out_type = io::dtype_of<O>;
    }
  } else {
    const bool max = is_max(r.op);
    const bool skip_nan = skips_nan(r.op);  // nanmin / nanmax
    using C = widened_small_t<T>;
    using limits = std::numeric_limits<T>;
    const T init = extreme_identity<T>(max);
    // min / max: gp::minimum / maximum propagate NaN. nanmin / nanmax
    // (numpy.fmin.accumulate): NaNs count as the identity, and inclusive
    // outputs before the first number of the whole array go back to NaN.
    std::vector<C> converted(values.size()), result;
    std::uint8_t seen = 0;
    std::vector<std::uint8_t> before_first(values.size(), 0);
    for (std::size_t i = 0; i < values.size(); ++i) {
      bool is_nan = false;
      if constexpr (std::is_floating_point_v<T>) is_nan = skip_nan && std::isnan(values[i]);
      converted[i] = static_cast<C>(is_nan ? init : values[i]);
      seen = seen || !is_nan;
      before_first[i] = !seen;
    }
    const auto seen_by = detail::allgather(comm, seen);
    const bool seen_before = std::any_of(seen_by.begin(), seen_by.begin() + mpi_rank(comm),
                                         [](std::uint8_t s) { return s != 0; });
    auto run = [&](auto op) {
      result = scanned(rk, converted, r.exclusive, static_cast<C>(init), op);
    };
    if (max) {
      run(maximum{});
    } else {
      run(minimum{});
    }
    // An output that combines no number yet is NaN, the identity of
    // fmin / fmax: inclusive out[i] when in[0..i] are all NaN, exclusive
    // out[i] when in[0..i-1] are (out[0] always), so that exclusive out[i]
    // is inclusive out[i - 1] as in the one-process command.
    if constexpr (std::is_floating_point_v<T>) {
      if (skip_nan && !seen_before) {
        for (std::size_t i = 0; i < result.size(); ++i) {
          const bool no_number_yet = r.exclusive ? i == 0 || before_first[i - 1] : before_first[i];
          if (no_number_yet) result[i] = limits::quiet_NaN();
        }
      }
    }
    out = bytes_as<T>(result);
  }
  write_slices(comm, r.output, out_type, in.info.size(), in.begin, out);
}

void run_on_ranks(const ranks& rk, const scan_options& r) {
  const MPI_Comm comm = rk.comm;
  const input_slice in = read_slice(comm, r.file);
  with_values(in, [&](const auto& values) {
    using T = typename std::remove_cvref_t<decltype(values)>::value_type;
    if (in.info.type == io::dtype::bool8 && r.op != scan_op::sum) {
      // Written back as numpy bool.
      const std::vector<std::uint32_t> wide(values.begin(), values.end());
      std::vector<std::uint32_t> result;
      auto run = [&](auto op, std::uint32_t init) {
        result = scanned(rk, wide, r.exclusive, init, op);
      };
      if (is_max(r.op)) {
        run(maximum{}, 0u);
      } else {
        run(minimum{}, 1u);
      }
      write_slices(comm, r.output, io::dtype::bool8, in.info.size(), in.begin,
                   bytes_as<bool>(result));
      return;
    }
    dist_scan_values<T>(rk, values, r, in);
  });
}

// ---- sort --------------------------------------------------------------------

// Sorts this rank's keys (and values, as 4- or 8-byte words W) together
// with the other ranks' where `local` runs; this rank's share of the sorted
// keys and values comes back as bytes.
template <class B, class Local, class K, class W>
sort_report sorted_share(B b, Local local, const std::vector<K>& keys, const std::vector<W>* values,
                         sort_order order, std::vector<std::byte>& keys_bytes,
                         std::vector<std::byte>& values_bytes) {
  auto as_bytes = [](const auto& v) {
    return std::vector<std::byte>(reinterpret_cast<const std::byte*>(v.data()),
                                  reinterpret_cast<const std::byte*>(v.data() + v.size()));
  };
  const auto k = placed(b.comm, local, keys);
  auto k_out = made<K>(b.comm, local, 0);
  sort_report report;
  if (values) {
    const auto v = placed(b.comm, local, *values);
    auto v_out = made<W>(b.comm, local, 0);
    report = sort_by_key(b, k, v, k_out, v_out, order);
    values_bytes = as_bytes(fetch(std::move(v_out)));
  } else {
    report = sort(b, k, k_out, order);
  }
  keys_bytes = as_bytes(fetch(std::move(k_out)));
  return report;
}

void run_on_ranks(const ranks& rk, const sort_options& r) {
  const MPI_Comm comm = rk.comm;
  const input_slice in = read_slice(comm, r.file);
  const sort_order order = r.descending ? sort_order::descending : sort_order::ascending;
  input_slice values_in;
  const bool has_values = !r.values.empty();
  if (has_values) {
    values_in = read_slice(comm, r.values);
    on_all_ranks(comm, [&] {
      const std::size_t bytes = io::dtype_size(values_in.info.type);
      if (bytes != 4 && bytes != 8) {
        throw usage_error(r.values +
                          ": values must have 4- or 8-byte elements (int32, uint32, "
                          "float32, int64, uint64, float64), not " +
                          std::string(io::dtype_name(values_in.info.type)));
      }
      if (values_in.info.size() != in.info.size()) {
        throw usage_error(r.values + ": " + std::to_string(values_in.info.size()) +
                          " values, but " + r.file + " has " + std::to_string(in.info.size()) +
                          " keys (one value per key)");
      }
    });
  }
  with_values(in, [&](const auto& keys) {
    sort_report report;
    std::vector<std::byte> keys_bytes, values_bytes;
    with_backend(rk, [&](auto b, auto local) {
      if (!has_values) {
        const std::vector<std::uint32_t>* none = nullptr;
        report = sorted_share(b, local, keys, none, order, keys_bytes, values_bytes);
      } else if (io::dtype_size(values_in.info.type) == 4) {
        const std::vector<std::uint32_t> v = values_in.as<std::uint32_t>();
        report = sorted_share(b, local, keys, &v, order, keys_bytes, values_bytes);
      } else {
        const std::vector<std::uint64_t> v = values_in.as<std::uint64_t>();
        report = sorted_share(b, local, keys, &v, order, keys_bytes, values_bytes);
      }
    });
    write_slices(comm, r.output, in.info.type, report.total, report.offset, keys_bytes);
    if (has_values) {
      write_slices(comm, r.values_output, values_in.info.type, report.total, report.offset,
                   values_bytes);
    }
    if (mpi_rank(comm) == 0) {
      std::fprintf(stderr,
                   "gpuprim sort: %d ranks, largest share %llu of %llu (imbalance %.2f %%), "
                   "local %.3f s, exchange %.3f s (rank 0)\n",
                   mpi_size(comm), static_cast<unsigned long long>(report.largest),
                   static_cast<unsigned long long>(report.total), 100 * report.imbalance,
                   report.local_seconds, report.exchange_seconds);
    }
  });
}

// ---- histogram ---------------------------------------------------------------

// The min and max of a rank's values in their own dtype D, as numpy's
// a.min() / a.max() see them (a NaN makes both NaN), merged over the ranks
// in rank order. Plain data, so that MPI ranks can exchange it.
template <class D>
struct histogram_extent {
  bool any = false;      // at least one value
  bool nan = false;      // a NaN among them
  bool numbers = false;  // a value that is not NaN; lo and hi are over those
  D lo{}, hi{};

  void add(D v) {
    any = true;
    const auto x = histogram_number(v);
    if (x != x) {
      nan = true;
      return;
    }
    if (!numbers || x < histogram_number(lo)) lo = v;
    if (!numbers || histogram_number(hi) < x) hi = v;
    numbers = true;
  }
  // The extent of two parts of the data.
  static histogram_extent merged(histogram_extent a, const histogram_extent& b) {
    a.any = a.any || b.any;
    a.nan = a.nan || b.nan;
    if (b.numbers) {
      if (!a.numbers || histogram_number(b.lo) < histogram_number(a.lo)) a.lo = b.lo;
      if (!a.numbers || histogram_number(a.hi) < histogram_number(b.hi)) a.hi = b.hi;
      a.numbers = true;
    }
    return a;
  }
};

// numpy.histogram(a, bins, range)'s bins for data of dtype D: the given
// --range LO HI (read as float64, as Python floats), else [min, max] of the
// data (an error when that is not finite: a NaN or an infinity), else (0, 1)
// for no data.
template <class D>
numpy_bins ranks_numpy_bins(const std::vector<double>& range, const histogram_extent<D>& e) {
  if (!range.empty()) return numpy_bins::with_range<D>(range[0], range[1]);
  if (!e.any) return numpy_bins::of_empty<D>();
  if (e.nan) {
    if constexpr (std::is_floating_point_v<D>) {
      const D nan = std::numeric_limits<D>::quiet_NaN();
      return numpy_bins::of_data<D>(nan, nan);
    } else if constexpr (std::is_same_v<D, half>) {
      const half nan = half::from_bits(0x7E00);
      return numpy_bins::of_data<D>(nan, nan);
    }
  }
  return numpy_bins::of_data<D>(e.lo, e.hi);
}

// The one-process command's histogram (numpy.histogram's bins) of values
// of dtype D, binned as samples of
// histogram_sample_t<D>; the default range is the [min, max] over all ranks.
template <class D>
void dist_histogram_values(const ranks& rk, const std::vector<D>& values,
                           const histogram_options& r) {
  const MPI_Comm comm = rk.comm;
  histogram_extent<D> extent;
  if (r.range.empty()) {
    std::optional<histogram_extent<D>> mine;
    if (!values.empty()) {
      mine.emplace();
      for (const D v : values)
        mine->add(v);
    }
    const auto all = detail::combine_in_rank_order(comm, mine, histogram_extent<D>::merged);
    if (all) extent = *all;
  }
  numpy_bins bins;
  on_all_ranks(comm, [&] { bins = ranks_numpy_bins<D>(r.range, extent); });
  const auto samples = histogram_samples(std::span<const D>(values));
  std::vector<std::uint64_t> counts;
  std::uint64_t left_out = 0;
  with_backend(rk, [&](auto b, auto local) {
    const auto placed_samples = placed(comm, local, samples);
    auto c = made<std::uint64_t>(comm, local, static_cast<std::size_t>(r.bins));
    left_out = histogram_even(b, placed_samples, c, bins);
    counts = fetch(std::move(c));
  });
  if (mpi_rank(comm) == 0) print_numpy_histogram(counts, left_out, bins);
}

void run_on_ranks(const ranks& rk, const histogram_options& r) {
  check_histogram_bins(r.bins);
  const input_slice in = read_slice(rk.comm, r.file);
  visit_dtype(in.info.type,
              [&]<class T>(std::type_identity<T>) { dist_histogram_values(rk, in.as<T>(), r); });
}

// GPU ranks: device (rank on this node) % (devices), so ranks on one node
// spread over its GPUs and share them when there are more ranks.
void use_node_device(MPI_Comm comm) {
  const int devices = cuda_device_count();
  const int device = mpi_node_rank(comm) % devices;
#if GPUPRIM_HAS_CUDA
  on_all_ranks(comm, [&] {
    const cudaError_t code = cudaSetDevice(device);
    if (code != cudaSuccess) {
      throw std::runtime_error("cudaSetDevice(" + std::to_string(device) +
                               "): " + cudaGetErrorString(code));
    }
  });
#else
  (void)device;
#endif
}

const char* command_name(const reduce_options&) {
  return "reduce";
}
const char* command_name(const scan_options&) {
  return "scan";
}
const char* command_name(const sort_options&) {
  return "sort";
}
const char* command_name(const histogram_options&) {
  return "histogram";
}

}  // namespace

template <class Options>
int run_distributed(const Options& options) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(nullptr, nullptr);
  const MPI_Comm comm = MPI_COMM_WORLD;
  int code = exit_success;
  std::string message;
  try {
    // Every rank sees the same devices (one node) and throws alike.
    const ranks rk{comm, resolve(options.backend)};
    if (std::holds_alternative<cuda_backend>(rk.local)) use_node_device(comm);
    run_on_ranks(rk, options);
  } catch (const std::exception& e) {
    // dist_failure: every rank is here with the same message. Anything else
    // was thrown alike on every rank (a bad argument).
    message = e.what();
    code = exit_bad_input;
  }
  if (code != exit_success && mpi_rank(comm) == 0) {
    for (char& c : message)
      if (c == '\n' || c == '\r') c = ' ';
    std::fprintf(stderr, "gpuprim %s: %s\n", command_name(options), message.c_str());
  }
  std::fflush(stdout);
  MPI_Finalize();
  return code;
}

template int run_distributed(const reduce_options&);
template int run_distributed(const scan_options&);
template int run_distributed(const sort_options&);
template int run_distributed(const histogram_options&);

}  // namespace gpuprim::cli
