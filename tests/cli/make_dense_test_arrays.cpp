// Writes the small .npy inputs of the dense family's command-line tests
// (transpose, matmul) and the files their outputs must equal, byte for byte.
// Matrix products use small integers, exact in every precision tested.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "gpuprim/io/npy.hpp"
#include "support/generator.hpp"

namespace fs = std::filesystem;
namespace io = gpuprim::io;

int main(int argc, char** argv) {
  const auto folder = gpuprim::test::output_folder(argc, argv);
  if (!folder) return 2;
  const std::filesystem::path dir = *folder;
  const fs::path expected = dir / "expected";
  fs::create_directories(expected);

  // transpose: a 3 x 5 float32 matrix, a 2 x 3 x 4 int16 stack, a 1-D array.
  std::vector<float> m35(15), t53(15);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c) {
      m35[r * 5 + c] = static_cast<float>(r * 10 + c) + 0.5f;
      t53[c * 3 + r] = m35[r * 5 + c];
    }
  io::write_npy<float>(dir / "dense_m35.npy", m35, {3, 5});
  io::write_npy<float>(expected / "dense_m35_t.npy", t53, {5, 3});
  std::vector<std::int16_t> s(24), st(24);
  for (int b = 0; b < 2; ++b)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) {
        s[b * 12 + r * 4 + c] = static_cast<std::int16_t>(b * 100 + r * 10 + c - 50);
        st[b * 12 + c * 3 + r] = s[b * 12 + r * 4 + c];
      }
  io::write_npy<std::int16_t>(dir / "dense_stack.npy", s, {2, 3, 4});
  io::write_npy<std::int16_t>(expected / "dense_stack_t.npy", st, {2, 4, 3});
  io::write_npy(dir / "dense_vector.npy", std::vector<float>{1, 2, 3});
  io::write_npy<float>(dir / "dense_empty.npy", std::vector<float>{}, {0, 4});
  io::write_npy<float>(expected / "dense_empty_t.npy", std::vector<float>{}, {4, 0});

  // matmul: A (2 x 3) @ B (3 x 4) in float32 and float64; an int32 matrix.
  const std::vector<double> a{1, 2, 3, 4, 5, 6};
  const std::vector<double> b{1, 0, -1, 2, 3, 1, 0, -2, 0, 2, 1, 1};
  std::vector<double> c(8, 0.0);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int p = 0; p < 3; ++p)
        c[i * 4 + j] += a[i * 3 + p] * b[p * 4 + j];
  const auto to_float = [](const std::vector<double>& x) {
    return std::vector<float>(x.begin(), x.end());
  };
  io::write_npy<float>(dir / "dense_a.npy", to_float(a), {2, 3});
  io::write_npy<float>(dir / "dense_b.npy", to_float(b), {3, 4});
  io::write_npy<float>(expected / "dense_ab.npy", to_float(c), {2, 4});
  io::write_npy<double>(dir / "dense_a64.npy", a, {2, 3});
  io::write_npy<double>(dir / "dense_b64.npy", b, {3, 4});
  io::write_npy<double>(expected / "dense_ab64.npy", c, {2, 4});
  io::write_npy<std::int32_t>(dir / "dense_int.npy", std::vector<std::int32_t>{1, 2, 3, 4, 5, 6},
                              {2, 3});
  // k = 0: NumPy gives zeros.
  io::write_npy<float>(dir / "dense_a_k0.npy", std::vector<float>{}, {2, 0});
  io::write_npy<float>(dir / "dense_b_k0.npy", std::vector<float>{}, {0, 3});
  io::write_npy<float>(expected / "dense_zeros_23.npy", std::vector<float>(6, 0.0f), {2, 3});
  return 0;
}
