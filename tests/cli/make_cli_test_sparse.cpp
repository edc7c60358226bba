// Writes the small Matrix Market and .npy files of the sparse CLI tests
// (tests/cli/cases.txt) into the directory given as the argument.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpuprim/io/npy.hpp"
#include "support/generator.hpp"

namespace io = gpuprim::io;

namespace {

void text(const std::filesystem::path& p, const std::string& s) {
  std::ofstream(p) << s;
}

}  // namespace

int main(int argc, char** argv) {
  const auto folder = gpuprim::test::output_folder(argc, argv);
  if (!folder) return 2;
  const std::filesystem::path dir = *folder;
  // [[4, 1, 0], [1, 3, 0], [0, 0, 2]], symmetric positive definite.
  text(dir / "spd3.mtx",
       "%%MatrixMarket matrix coordinate real symmetric\n% a comment\n3 3 4\n1 1 4\n2 1 1\n2 2 "
       "3\n3 3 2\n");
  // [[1, 2], [2, 1]]: Jacobi diverges.
  text(dir / "jacobi_diverges.mtx",
       "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 1\n1 2 2\n2 1 2\n2 2 1\n");
  text(dir / "rect.mtx", "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n");
  text(dir / "bad.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 x\n");
  text(dir / "zero_diag.mtx",
       "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n2 1 1\n");
  io::write_npy<double>(dir / "x3.npy", std::vector<double>{1, 2, 3});
  io::write_npy<std::int32_t>(dir / "x3_int.npy", std::vector<std::int32_t>{1, 2, 3});
  io::write_npy<double>(dir / "b3.npy", std::vector<double>{1, 2, 3});
  io::write_npy<double>(dir / "b2.npy", std::vector<double>{1, 1});
  io::write_npy<double>(dir / "b4.npy", std::vector<double>{1, 2, 3, 4});
  io::write_npy<double>(dir / "ones400.npy", std::vector<double>(400, 1.0));  // poisson2d 20
  const std::vector<double> column = {1, 2, 3};
  io::write_npy<double>(dir / "b3_2d.npy", std::span<const double>(column), {3, 1});
  // A x for spd3 and x3: [6, 7, 6].
  io::write_npy<double>(dir / "y3_expected.npy", std::vector<double>{6, 7, 6});
  // rect times [1, 1, 1]: rows [1, 3, 5] and [2, 4, 6].
  io::write_npy<double>(dir / "ones3.npy", std::vector<double>{1, 1, 1});
  io::write_npy<double>(dir / "rect_expected.npy", std::vector<double>{9, 12});
  return 0;
}
