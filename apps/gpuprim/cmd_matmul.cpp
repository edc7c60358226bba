// `gpuprim matmul A.npy B.npy -o C.npy [--precision fp32|fp64|tf32|bf16]`:
// the matrix product A @ B of two 2-D float arrays, as NumPy computes it,
// written as a C-ordered .npy file in the inputs' dtype (float64 when either
// input is float64, as NumPy promotes).
//
// --precision is how the products are computed: by default in the result's
// own precision (fp32 for float32, never TF32; fp64 for float64); fp64
// computes in double and rounds the result; tf32 runs fp32 on tensor cores
// (GPU only: the host has no TF32 arithmetic, so --backend host refuses it,
// exit 2, rather than compute something else); bf16 rounds the inputs to
// bfloat16 and accumulates in fp32.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/gemm.hpp"
#include "gpuprim/io/npy.hpp"
#include "input_file.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace gpuprim::cli {
namespace {

// --precision; automatic: the result's own precision (fp32 or fp64).
enum class product_precision { automatic, fp32, fp64, tf32, bf16 };
const word_list<product_precision> precision_words = {{"fp32", product_precision::fp32},
                                                      {"fp64", product_precision::fp64},
                                                      {"tf32", product_precision::tf32},
                                                      {"bf16", product_precision::bf16}};

struct matmul_options {
  std::string a;
  std::string b;
  std::string output;
  product_precision precision = product_precision::automatic;
  backend_request backend = backend_request::automatic;
};

void check_operand(const std::string& path, const io::npy_array& x) {
  if (x.shape.size() != 2) {
    throw usage_error(path + ": matmul takes 2-D arrays; this one has " +
                      std::to_string(x.shape.size()) + " dimension" +
                      (x.shape.size() == 1 ? "" : "s"));
  }
  if (x.type != io::dtype::float32 && x.type != io::dtype::float64) {
    throw usage_error(path + ": dtype " + std::string(io::dtype_name(x.type)) +
                      " is not supported (float32 or float64)");
  }
}

template <class T>
std::vector<T> as_values(const io::npy_array& x) {
  std::vector<T> out(x.size());
  if (x.type == io::dtype::float32) {
    const auto v = x.values<float>();
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<T>(v[i]);
  } else {
    const auto v = x.values<double>();
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<T>(v[i]);
  }
  return out;
}

// C = A B with inputs of type In and output Out (float or double).
template <class In, class Out, class B>
std::vector<Out> multiply(B b, const std::vector<In>& a, const std::vector<In>& b_values,
                          std::size_t m, std::size_t k, std::size_t n, precision mode) {
  using in_view =
      std::conditional_t<is_gpu<B>, device_matrix_view<const In>, matrix_view<const In>>;
  using out_view = std::conditional_t<is_gpu<B>, device_matrix_view<Out>, matrix_view<Out>>;
  const auto staged_a = stage(b, a);
  const auto staged_b = stage(b, b_values);
  auto c = make_output<Out>(b, m * n);
  gemm(b, in_view(staged_a.data(), m, k), in_view(staged_b.data(), k, n), out_view(c.data(), m, n),
       Out{1}, Out{0}, matrix_op::none, matrix_op::none, mode);
  return fetch(std::move(c));
}

template <class T, class R>
std::vector<T> convert(const std::vector<R>& x) {
  std::vector<T> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i] = static_cast<T>(x[i]);
  return out;
}

int run_matmul(const matmul_options& opts) {
  const io::npy_array a = read_array(opts.a);
  check_operand(opts.a, a);
  const io::npy_array b = read_array(opts.b);
  check_operand(opts.b, b);
  const std::size_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  if (b.shape[0] != k) {
    throw usage_error(opts.b + ": shape (" + std::to_string(b.shape[0]) + ", " + std::to_string(n) +
                      ") does not fit " + opts.a + " of shape (" + std::to_string(m) + ", " +
                      std::to_string(k) + "): inner dimensions " + std::to_string(k) + " and " +
                      std::to_string(b.shape[0]) + " differ");
  }
  const bool wide = a.type == io::dtype::float64 || b.type == io::dtype::float64;
  const product_precision mode = opts.precision != product_precision::automatic ? opts.precision
                                 : wide ? product_precision::fp64
                                        : product_precision::fp32;
  const backend be = resolve(opts.backend);
  if (mode == product_precision::tf32 && std::holds_alternative<host_backend>(be)) {
    throw usage_error(
        "--precision tf32 needs the GPU's tensor cores; the host backend has no TF32 (use "
        "--precision fp32 on the host)");
  }

  // Products in the chosen precision; the result in the output dtype.
  std::vector<double> wide_result;
  std::vector<float> narrow_result;
  const progress_stage working("multiplying (" + std::to_string(m) + " x " + std::to_string(k) +
                               ") by (" + std::to_string(k) + " x " + std::to_string(n) + ")");
  std::visit(
      [&](auto on) {
        if (mode == product_precision::fp64) {
          wide_result = multiply<double, double>(on, as_values<double>(a), as_values<double>(b), m,
                                                 k, n, precision::standard);
        } else if (mode == product_precision::bf16) {
          narrow_result = multiply<bfloat16, float>(
              on, as_values<bfloat16>(a), as_values<bfloat16>(b), m, k, n, precision::standard);
        } else {
          narrow_result = multiply<float, float>(
              on, as_values<float>(a), as_values<float>(b), m, k, n,
              mode == product_precision::tf32 ? precision::tf32 : precision::standard);
        }
      },
      be);
  const std::uint64_t shape[] = {m, n};
  const progress_stage writing("writing " + opts.output);
  if (wide) {
    const auto c = wide_result.empty() && !narrow_result.empty() ? convert<double>(narrow_result)
                                                                 : wide_result;
    io::write_npy<double>(opts.output, std::span<const double>(c), shape);
  } else {
    const auto c =
        narrow_result.empty() && !wide_result.empty() ? convert<float>(wide_result) : narrow_result;
    io::write_npy<float>(opts.output, std::span<const float>(c), shape);
  }
  return exit_success;
}

// `gpuprim matmul --help`: what the command does, then each of its options.
constexpr command_help help(R"(
matmul: Matrix product A @ B of two 2-D float32/float64 .npy arrays (shapes (m, k) and (k, n)),
  written as a C-ordered (m, n) .npy array in the inputs' dtype
A: The left matrix, (m, k)
B: The right matrix, (k, n)
--output: Where to write A @ B
--precision: How products are computed: fp32 (the default for float32; never TF32), fp64 (the
  default for float64), tf32 (fp32 on tensor cores; GPU only, the host refuses it), bf16 (inputs
  rounded to bfloat16, fp32 accumulation)
)");

}  // namespace

command add_matmul_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<matmul_options>(app);
  add_files(sub, help, {{"A", &opts->a}, {"B", &opts->b}}, opts->output, "OUT.npy");
  add_choice(sub, "--precision", opts->precision, precision_words, help["--precision"]);
  add_backend_option(sub, opts->backend);
  return [opts] { return run_matmul(*opts); };
}

}  // namespace gpuprim::cli
