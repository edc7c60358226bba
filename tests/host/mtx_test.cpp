// Matrix Market reading and writing, on files written by hand here: every
// banner variant, comments and blank lines, symmetric expansion, dense
// arrays, and the bad files the reader must refuse with file and line.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpuprim/io/memory_limit.hpp"
#include "gpuprim/io/mtx.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "support/sparse_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
namespace fs = std::filesystem;

namespace {

fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "gpuprim_mtx_test";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::vector<double> dense_of(const std::string& name, const std::string& text) {
  std::size_t rows = 0, cols = 0;
  auto d = gp::io::read_mtx_dense(write_file(name, text), rows, cols);
  d.insert(d.begin(), {double(rows), double(cols)});
  return d;
}

std::string error_of(const std::string& name, const std::string& text) {
  const fs::path p = write_file(name, text);
  try {
    gp::io::read_mtx(p);
  } catch (const gp::io::format_error& e) {
    return e.what();
  }
  return "no error";
}

// Reading `text` as the file `name` fails with a message that contains
// `message`.
void expect_error(const std::string& name, const std::string& text, const std::string& message) {
  const std::string got = error_of(name, text);
  EXPECT_NE(got.find(message), std::string::npos) << name << ": " << got;
}

}  // namespace

TEST(mtx, coordinate_real_general_with_comments_and_blank_lines) {
  const auto d = dense_of("general.mtx",
                          "%%MatrixMarket matrix coordinate real general\n"
                          "% a comment\n"
                          "\n"
                          "2 3 3\n"
                          "1 1 1.5\n"
                          "\n"
                          "2 3 -2e-1\r\n"
                          "  1   3\t4.0  \n");
  EXPECT_EQ(d, (std::vector<double>{2, 3, 1.5, 0, 4, 0, 0, -0.2}));
}

TEST(mtx, banner_words_in_any_case_integer_and_pattern) {
  EXPECT_EQ(dense_of("int.mtx",
                     "%%MatrixMarket MATRIX Coordinate INTEGER General\n2 2 2\n1 2 7\n2 1 -3\n"),
            (std::vector<double>{2, 2, 0, 7, -3, 0}));
  EXPECT_EQ(dense_of("pattern.mtx",
                     "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 2\n"),
            (std::vector<double>{2, 2, 1, 0, 0, 1}));
}

TEST(mtx, double_field_and_integer_symmetric_coordinates) {
  EXPECT_EQ(
      dense_of("dbl.mtx", "%%MatrixMarket Matrix Coordinate Double General\n1 2 1\n1 2 1.0D+01\n"),
      (std::vector<double>{1, 2, 0, 10}));
  EXPECT_EQ(dense_of("intsym.mtx",
                     "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 -4\n1 1 9\n"),
            (std::vector<double>{2, 2, 9, -4, -4, 0}));
  EXPECT_EQ(dense_of("intskew.mtx",
                     "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 5\n"),
            (std::vector<double>{2, 2, 0, -5, 5, 0}));
  EXPECT_EQ(dense_of("empty_matrix.mtx", "%%MatrixMarket matrix coordinate real general\n0 0 0\n"),
            (std::vector<double>{0, 0}));
  expect_error("bad_int.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 2.5\n",
               "bad_int.mtx:3: bad integer '2.5'");
  expect_error("skew_diag.mtx",
               "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 3\n",
               "zero diagonal");
}

TEST(mtx, symmetric_and_skew_symmetric_halves_are_expanded) {
  EXPECT_EQ(
      dense_of("sym.mtx",
               "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 2\n3 1 5\n2 2 1\n"),
      (std::vector<double>{3, 3, 2, 0, 5, 0, 1, 0, 5, 0, 0}));
  EXPECT_EQ(
      dense_of("skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n"),
      (std::vector<double>{2, 2, 0, -3, 3, 0}));
  EXPECT_EQ(dense_of("sympat.mtx",
                     "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n2 1\n2 2\n"),
            (std::vector<double>{2, 2, 0, 1, 1, 1}));
}

TEST(mtx, array_files_are_column_major) {
  EXPECT_EQ(dense_of("array.mtx",
                     "%%MatrixMarket matrix array real general\n% c\n2 3\n1\n2\n3\n4\n5\n6\n"),
            (std::vector<double>{2, 3, 1, 3, 5, 2, 4, 6}));
  // Symmetric arrays store the lower triangle column by column.
  EXPECT_EQ(
      dense_of("array_sym.mtx", "%%MatrixMarket matrix array integer symmetric\n2 2\n1\n2\n3\n"),
      (std::vector<double>{2, 2, 1, 2, 2, 3}));
  EXPECT_EQ(dense_of("array_skew.mtx", "%%MatrixMarket matrix array real skew-symmetric\n2 2\n4\n"),
            (std::vector<double>{2, 2, 0, -4, 4, 0}));
}

TEST(mtx, read_as_csr_sums_duplicates_and_keeps_empty_rows) {
  const auto p = write_file(
      "dup.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n3 2 1\n1 1 2\n3 2 0.5\n");
  const auto A = gp::io::read_mtx_csr<float, std::int64_t>(p);
  EXPECT_EQ(A.row_offsets(), (std::vector<std::int64_t>{0, 1, 1, 2}));
  EXPECT_EQ(A.col_indices(), (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(A.values(), (std::vector<float>{2.f, 1.5f}));
  const auto one = gp::io::read_mtx_csr<double, int>(
      write_file("one.mtx", "%%MatrixMarket matrix array real general\n1 1\n3\n"));
  EXPECT_EQ(one.values(), (std::vector<double>{3}));
}

TEST(mtx, bad_files_name_the_file_and_line) {
  const std::string ban = "%%MatrixMarket matrix coordinate real general\n";
  const std::string sym = "%%MatrixMarket matrix coordinate real symmetric\n";
  // Each file's name and text, and a part of the message it must give.
  const struct {
    const char* name;
    std::string text;
    const char* message;
  } files[] = {
      {"c.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
       "c.mtx:1: complex"},
      {"h.mtx", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", "h.mtx:1: hermitian"},
      {"nb.mtx", "1 1 1\n1 1 1\n", "nb.mtx:1: not a Matrix Market"},
      {"few.mtx", ban + "2 2 3\n1 1 1\n2 2 1\n", "announces 3 entries but the file has 2"},
      {"many.mtx", ban + "2 2 1\n1 1 1\n2 2 1\n", "many.mtx:4:"},
      {"range.mtx", ban + "2 2 2\n1 1 1\n\n2 3 1\n",
       "range.mtx:5: column index 3 is outside [1, 2]"},
      {"row0.mtx", ban + "2 2 1\n0 1 1\n", "row0.mtx:3: row index 0"},
      {"num.mtx", ban + "2 2 2\n1 1 1\n2 2 1.2.3\n", "num.mtx:4: bad number '1.2.3'"},
      {"idx.mtx", ban + "2 2 1\n1 x 1\n", "idx.mtx:3: bad index 'x'"},
      {"size.mtx", ban + "2 2\n", "size.mtx:2:"},
      {"upper.mtx", sym + "2 2 1\n1 2 1\n", "above the diagonal"},
      {"nsq.mtx", sym + "2 3 0\n", "must be square"},
      {"cols.mtx", ban + "2 2 1\n1 1\n", "cols.mtx:3: expected 3 numbers, found 2"},
      {"empty.mtx", "", "empty file"},
  };
  for (const auto& f : files)
    expect_error(f.name, f.text, f.message);
  try {
    gp::io::read_mtx("/nonexistent/x.mtx");
    FAIL();
  } catch (const gp::io::format_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.mtx: cannot open"), std::string::npos);
  }
}

TEST(mtx, write_then_read_round_trips_exactly) {
  auto rng = gpuprim::test::make_rng(311);
  const auto A = gpuprim::test::random_csr<double, int>(3000, 2000, 5, rng);
  const fs::path p = fs::temp_directory_path() / "gpuprim_mtx_test" / "rt.mtx";
  gp::io::write_mtx(p, A.view());
  const auto B = gp::io::read_mtx_csr<double, int>(p);
  EXPECT_EQ(B.rows(), A.rows());
  EXPECT_EQ(B.cols(), A.cols());
  EXPECT_EQ(B.row_offsets(), A.row_offsets());
  EXPECT_EQ(B.col_indices(), A.col_indices());
  EXPECT_EQ(B.values(), A.values());
  // float values print in float's shortest form.
  const auto F = gp::poisson2d<float, std::int64_t>(5);
  gp::io::write_mtx(p, F.view());
  EXPECT_EQ((gp::io::read_mtx_csr<float, std::int64_t>(p).values()), F.values());
  // Dense arrays.
  const std::vector<double> a = {1, 2.5, -3, 4, 0, 1e-300};
  gp::io::write_mtx(p, gp::matrix_view<const double>(a.data(), 2, 3));
  std::size_t rows = 0, cols = 0;
  EXPECT_EQ(gp::io::read_mtx_dense(p, rows, cols), a);
  EXPECT_EQ(rows, 2u);
  EXPECT_EQ(cols, 3u);
}

TEST(mtx, a_large_file_parses_in_parallel_chunks) {
  // Enough lines for many chunks; every entry must land in its place.
  const auto A = gp::poisson2d<double, std::int64_t>(300);  // 90000 rows, ~450k entries
  const fs::path p = fs::temp_directory_path() / "gpuprim_mtx_test" / "big.mtx";
  gp::io::write_mtx(p, A.view());
  const auto m = gp::io::read_mtx(p);
  ASSERT_EQ(m.values.size(), A.nnz());
  std::size_t k = 0;
  for (std::size_t r = 0; r < A.rows(); ++r) {
    for (auto e = A.row_offsets()[r]; e < A.row_offsets()[r + 1]; ++e, ++k) {
      ASSERT_EQ(m.row_indices[k], static_cast<std::int64_t>(r));
      ASSERT_EQ(m.col_indices[k], A.col_indices()[e]);
      ASSERT_EQ(m.values[k], A.values()[e]);
    }
  }
}

// ---- what scipy.io.mmread refuses (SciPy 1.17), refused the same way -------

TEST(mtx, comment_lines_among_the_entries_are_refused_as_scipy_does) {
  const std::string ban = "%%MatrixMarket matrix coordinate real general\n";
  expect_error("between.mtx", ban + "2 2 2\n1 1 1\n% x\n2 2 1\n",
               "between.mtx:4: a comment line among the entries");
  expect_error("after_size.mtx", ban + "2 2 1\n% x\n1 1 1\n", "after_size.mtx:3: a comment");
  expect_error("at_end.mtx", ban + "2 2 1\n1 1 1\n   % x\n", "at_end.mtx:4: a comment");
  expect_error("array.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\n% x\n2\n",
               "array.mtx:4: a comment");
  // Before the size line they are fine, as are blank lines anywhere.
  EXPECT_EQ(dense_of("ok.mtx", ban + "% a\n\n%b\n1 1 1\n\n1 1 5\n\n"),
            (std::vector<double>{1, 1, 5}));
}

TEST(mtx, the_banner_word_is_case_sensitive_as_in_scipy) {
  expect_error("lower.mtx", "%%matrixmarket matrix coordinate real general\n1 1 0\n",
               "lower.mtx:1: not a Matrix Market file");
  // SciPy also takes a single '%'.
  EXPECT_EQ(dense_of("single.mtx", "%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2\n"),
            (std::vector<double>{1, 1, 2}));
}

TEST(mtx, a_leading_plus_sign_is_refused_as_scipy_does) {
  const std::string ban = "%%MatrixMarket matrix coordinate real general\n";
  expect_error("value.mtx", ban + "1 1 1\n1 1 +1\n", "value.mtx:3: bad number '+1'");
  expect_error("index.mtx", ban + "1 1 1\n+1 1 1\n", "index.mtx:3: bad index '+1'");
  expect_error("int.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 +2\n",
               "int.mtx:3: bad integer '+2'");
  expect_error("size.mtx", ban + "+1 1 0\n", "size.mtx:2: bad size '+1'");
}

// ---- sizes checked before anything is allocated ------------------------------

TEST(mtx, dense_sizes_whose_product_wraps_in_64_bits_are_refused) {
  const std::string dense = "%%MatrixMarket matrix array real general\n";
  for (const std::string size : {"4294967296 4294967296", "8589934592 2147483648"}) {
    EXPECT_NE(error_of("wrap.mtx", dense + size + "\n")
                  .find("wrap.mtx:2: the size line announces "
                        "more than 2^64 entries"),
              std::string::npos)
        << size;
  }
  expect_error("sym.mtx",
               "%%MatrixMarket matrix array real symmetric\n"
               "6074001000 6074001000\n",
               "sym.mtx:2: the size line announces more than 2^64 entries");
}

TEST(mtx, more_entries_than_the_file_can_hold_are_refused) {
  expect_error("dense.mtx", "%%MatrixMarket matrix array real general\n3 3\n1\n2\n3\n",
               "dense.mtx:2: the size line announces 9 entries, but the 6 bytes after it "
               "can hold at most 3");
  expect_error("coo.mtx",
               "%%MatrixMarket matrix coordinate real general\n3 3 "
               "1000000000000\n1 1 1\n",
               "announces 1000000000000 entries, but the 6 bytes after it can hold at most 3");
  // The bound (a line of one character per entry) is exact for the
  // shortest lines, the last without its newline.
  EXPECT_EQ(dense_of("tight.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3"),
            (std::vector<double>{3, 1, 1, 2, 3}));
  expect_error("over.mtx", "%%MatrixMarket matrix array real general\n4 1\n1\n2\n3",
               "announces 4 entries, but the 5 bytes after it can hold at most 3");
}

TEST(mtx, csr_row_offsets_beyond_the_machine_are_refused_with_the_size) {
  // 2^40 rows and one entry: the file reads (as a list of entries), its
  // CSR row offsets would take 8 TiB.
  const fs::path p = write_file("rows.mtx",
                                "%%MatrixMarket matrix coordinate real general\n"
                                "1099511627776 1099511627776 1\n1 1 1\n");
  const gp::io::mtx_matrix m = gp::io::read_mtx(p);
  EXPECT_EQ(m.rows, std::size_t{1} << 40);
  try {
    gp::io::read_mtx_csr<double, std::int64_t>(p);
    ADD_FAILURE() << "no error";
  } catch (const gp::io::format_error& e) {
    EXPECT_NE(
        std::string(e.what()).find(p.string() + ": converting 1099511627776 rows to CSR needs "
                                                "8192 GiB, more than this machine can give"),
        std::string::npos)
        << e.what();
  }
  std::size_t rows = 0, cols = 0;
  EXPECT_THROW(gp::io::read_mtx_dense(p, rows, cols), gp::io::format_error);
  // 2^62 rows: the offsets' size does not fit 64 bits.
  const fs::path sym = write_file("sym62.mtx",
                                  "%%MatrixMarket matrix coordinate real symmetric\n"
                                  "4611686018427387904 4611686018427387904 0\n");
  try {
    gp::io::read_mtx_csr<double, std::int64_t>(sym);
    ADD_FAILURE() << "no error";
  } catch (const gp::io::format_error& e) {
    EXPECT_NE(std::string(e.what()).find("needs more than 2^64 bytes"), std::string::npos)
        << e.what();
  }
}

TEST(mtx, the_memory_limit_decides_how_many_empty_rows_are_plausible) {
  const fs::path p = write_file("million.mtx",
                                "%%MatrixMarket matrix coordinate real general\n"
                                "1000000 1 1\n1 1 1\n");
  gp::io::set_memory_limit(1 << 20);  // 1 MiB: 10^6 + 1 int32 offsets do not fit
  EXPECT_THROW((gp::io::read_mtx_csr<double, std::int32_t>(p)), gp::io::format_error);
  gp::io::set_memory_limit(0);  // the machine's
  EXPECT_EQ((gp::io::read_mtx_csr<double, std::int32_t>(p).rows()), 1000000u);
}

TEST(mtx, text_in_memory_reads_as_the_file_does) {
  const std::string text = "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 4\n3 3 1\n";
  const gp::io::mtx_matrix a = gp::io::read_mtx(write_file("mem.mtx", text));
  const gp::io::mtx_matrix b = gp::io::read_mtx_text(text, "in memory");
  EXPECT_EQ(a.row_indices, b.row_indices);
  EXPECT_EQ(a.col_indices, b.col_indices);
  EXPECT_EQ(a.values, b.values);
  try {
    gp::io::read_mtx_text("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 2 1\n", "mem");
    ADD_FAILURE() << "no error";
  } catch (const gp::io::format_error& e) {
    EXPECT_EQ(std::string(e.what()), "mem:3: column index 2 is outside [1, 1]");
  }
}

TEST(mtx, an_empty_dense_matrix_with_a_huge_side_reads_at_once) {
  // 0 x 2^62: no values, and no loop over the long side (found by fuzzing).
  const fs::path p =
      write_file("wide.mtx", "%%MatrixMarket matrix array real general\n0 4611686018427387904\n");
  const auto A = gp::io::read_mtx_csr<double, std::int64_t>(p);
  EXPECT_EQ(A.rows(), 0u);
  EXPECT_EQ(A.cols(), std::size_t{1} << 62);
  EXPECT_EQ(A.nnz(), 0u);
  // 2^32 x 0: read at once; its CSR row offsets are what needs memory.
  const fs::path tall =
      write_file("tall.mtx", "%%MatrixMarket matrix array real general\n4294967296 0\n");
  EXPECT_EQ(gp::io::read_mtx(tall).rows, std::size_t{1} << 32);
  gp::io::set_memory_limit(1 << 20);
  EXPECT_THROW((gp::io::read_mtx_csr<double, std::int64_t>(tall)), gp::io::format_error);
  gp::io::set_memory_limit(0);
}
