// Writes the Matrix Market and .npy files of the solver-stopping CLI tests
// (tests/cli/cases.txt) into the directory given as the argument,
// and removes the outputs those tests must not leave behind.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpuprim/io/mtx.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "support/generator.hpp"

namespace io = gpuprim::io;

int main(int argc, char** argv) {
  const auto folder = gpuprim::test::output_folder(argc, argv);
  if (!folder) return 2;
  const std::filesystem::path dir = *folder;
  for (const char* never :
       {"never_div.npy", "never_zd.npy", "never_x0.npy", "never_x0nan.npy", "never_div_cuda.npy",
        "never_nan_a.npy", "g0.mtx", "gneg.mtx", "gspd0.mtx", "grmat.mtx"})
    std::filesystem::remove(dir / never);
  // 3000 rows, one entry: a(0, 0) = 1, every other row empty.
  {
    const std::size_t n = 3000;
    std::ofstream(dir / "one_entry.mtx") << "%%MatrixMarket matrix coordinate real general\n"
                                         << n << " " << n << " 1\n1 1 1\n";
    io::write_npy<double>(dir / "ones3000.npy", std::vector<double>(n, 1.0));
    // Richardson (omega 1) from 0: x_0 = 1 after one step, every other
    // x_i = k after k steps; it stagnates at k = 500.
    std::vector<double> x(n, 500.0);
    x[0] = 1.0;
    io::write_npy<double>(dir / "one_entry_x500.npy", x);
  }
  // Diagonal 2, 2, 2, 0, 0 (the first zero in row 3).
  std::ofstream(dir / "zero_diag3.mtx") << "%%MatrixMarket matrix coordinate real general\n"
                                        << "5 5 5\n1 1 2\n2 2 2\n3 3 2\n4 2 1\n5 1 1\n";
  io::write_npy<double>(dir / "ones5.npy", std::vector<double>(5, 1.0));
  // A nonsymmetric, diagonally dominant 3 x 3 matrix.
  std::ofstream(dir / "nonsym3.mtx") << "%%MatrixMarket matrix coordinate real general\n"
                                     << "3 3 5\n1 1 4\n1 2 3\n2 2 4\n3 3 4\n3 1 -3.5\n";
  io::write_npy<double>(dir / "b3.npy", std::vector<double>{1, 2, 3});
  // [[4, 1, 0], [1, 3, 0], [0, 0, 2]] times [1, 1, 1]: x0 is the solution.
  std::ofstream(dir / "spd3.mtx") << "%%MatrixMarket matrix coordinate real symmetric\n"
                                  << "3 3 4\n1 1 4\n2 1 1\n2 2 3\n3 3 2\n";
  io::write_npy<double>(dir / "b_exact3.npy", std::vector<double>{5, 4, 2});
  // spd3 with a NaN entry: the residual is NaN from the start.
  std::ofstream(dir / "nan_spd3.mtx") << "%%MatrixMarket matrix coordinate real symmetric\n"
                                      << "3 3 4\n1 1 4\n2 1 nan\n2 2 3\n3 3 2\n";
  io::write_npy<double>(dir / "ones3.npy", std::vector<double>{1, 1, 1});
  io::write_npy<double>(dir / "ones2.npy", std::vector<double>{1, 1});
  io::write_npy<double>(dir / "nan3.npy", std::vector<double>{1, std::nan(""), 1});
  // The 2-D Poisson matrix on a 10 x 10 grid (eigenvalues up to 8):
  // Richardson with omega 1 diverges.
  io::write_mtx((dir / "poisson10.mtx").string(),
                gpuprim::poisson2d<double, std::int64_t>(10).view());
  io::write_npy<double>(dir / "ones100.npy", std::vector<double>(100, 1.0));
  return 0;
}
