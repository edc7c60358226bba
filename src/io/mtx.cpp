// Matrix Market reader and writer (gpuprim/io/mtx.hpp), written for this
// library: no Debian or PyPI package offers a C++ reader that parses in
// parallel and reports line numbers the way the CLI needs.
//
// Shape of the reader:
//  1. Read the whole file into memory.
//  2. Parse the banner and the size line (skipping comments and blanks);
//     the entry count it implies, in 64 bits, must fit the rest of the file.
//  3. Split the rest into one chunk per thread, each ending at a newline.
//  4. Count each chunk's data lines and newlines (in parallel); prefix sums
//     give every chunk its first entry and its first line number, and the
//     total is checked against the size line's count.
//  5. Parse each chunk's lines into their places (in parallel). Each chunk
//     keeps its first error; the error of the earliest line is thrown.
//  6. Expand symmetric halves.
#include "gpuprim/io/mtx.hpp"

#include <omp.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <numeric>
#include <string_view>
#include <system_error>

#include "gpuprim/io/memory_limit.hpp"

namespace gpuprim::io {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, std::size_t line,
                       const std::string& what) {
  throw format_error(path.string() + (line ? ":" + std::to_string(line) : std::string()) + ": " +
                     what);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A word of the banner and what it means.
template <class E>
struct banner_word {
  std::string_view word;
  E value;
};

// Sets `out` to the value of `word` in `table`; false when it is not there.
template <class E, std::size_t N>
bool read_word(std::string_view word, const banner_word<E> (&table)[N], E& out) {
  for (const banner_word<E>& w : table) {
    if (w.word == word) {
      out = w.value;
      return true;
    }
  }
  return false;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// Splits a line into whitespace-separated tokens (at most `max`; returns
// the count, or max + 1 when there are more).
int tokens(std::string_view line, std::string_view* out, int max) {
  int count = 0;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i]))
      ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i]))
      ++i;
    if (count == max) return max + 1;
    out[count++] = line.substr(start, i - start);
  }
  return count;
}

bool blank_or_comment(std::string_view line) {
  for (char c : line) {
    if (c == '%') return true;
    if (!is_space(c)) return false;
  }
  return true;
}

bool is_blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), is_space);
}

// Numbers as scipy.io.mmread reads them: no leading '+'.
bool parse_int(std::string_view s, std::int64_t& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool parse_double(std::string_view s, double& v) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec == std::errc::result_out_of_range) {
    // Overflow or underflow: what strtod gives (inf or a denormal / zero).
    const std::string copy(s);
    v = std::strtod(copy.c_str(), nullptr);
    return true;
  }
  if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return true;
  // Fortran's 1.0D+03.
  if (r.ec == std::errc() && (*r.ptr == 'd' || *r.ptr == 'D')) {
    std::string copy(s);
    copy[static_cast<std::size_t>(r.ptr - s.data())] = 'e';
    return parse_double(copy, v);
  }
  return false;
}

struct cursor {
  std::string_view text;
  std::size_t pos = 0;
  std::size_t line = 0;  // the number of the line last returned

  bool next(std::string_view& out) {
    if (pos >= text.size()) return false;
    const std::size_t end = text.find('\n', pos);
    const std::size_t stop = end == std::string_view::npos ? text.size() : end;
    out = text.substr(pos, stop - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++line;
    return true;
  }
};

std::string read_whole_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) fail(path, 0, std::string("cannot open (") + std::strerror(errno) + ")");
  file.seekg(0, std::ios::end);
  const std::streamoff size = file.tellg();
  if (size < 0) fail(path, 0, "cannot read");
  std::string text;
  resize_checked(text, static_cast<std::uint64_t>(size), path, "reading the file");
  file.seekg(0);
  file.read(text.data(), size);
  if (!file) fail(path, 0, "cannot read");
  return text;
}

struct chunk_error {
  std::size_t line = 0;  // 0: none
  std::string what;
};

}  // namespace

mtx_matrix read_mtx(const std::filesystem::path& path) {
  return read_mtx_text(read_whole_file(path), path);
}

mtx_matrix read_mtx_text(std::string_view text, const std::filesystem::path& path) {
  cursor c{text};
  std::string_view line;

  // 2. Banner.
  if (!c.next(line)) fail(path, 0, "empty file (no %%MatrixMarket banner)");
  std::string_view words[6];
  const int banner_words = tokens(line, words, 5);
  // The banner word exactly as scipy.io.mmread takes it (it also takes a
  // single '%'); the other words in any case.
  if (banner_words < 1 || (words[0] != "%%MatrixMarket" && words[0] != "%MatrixMarket")) {
    fail(path, 1, "not a Matrix Market file (the first line must start with %%MatrixMarket)");
  }
  if (banner_words != 5) {
    fail(path, 1, "the banner must be '%%MatrixMarket matrix <format> <field> <symmetry>'");
  }
  if (lower(words[1]) != "matrix") {
    fail(path, 1, "object '" + std::string(words[1]) + "' is not supported (only 'matrix')");
  }
  mtx_matrix m;
  const std::string format = lower(words[2]), field = lower(words[3]), symmetry = lower(words[4]);
  // Each banner word read through its table; words refused with a reason
  // (complex, hermitian) are told apart from unknown ones.
  static constexpr banner_word<mtx_format> format_words[] = {{"coordinate", mtx_format::coordinate},
                                                             {"array", mtx_format::array}};
  static constexpr banner_word<mtx_field> field_words[] = {{"real", mtx_field::real},
                                                           {"double", mtx_field::real},
                                                           {"integer", mtx_field::integer},
                                                           {"pattern", mtx_field::pattern}};
  static constexpr banner_word<mtx_symmetry> symmetry_words[] = {
      {"general", mtx_symmetry::general},
      {"symmetric", mtx_symmetry::symmetric},
      {"skew-symmetric", mtx_symmetry::skew_symmetric}};
  if (!read_word(format, format_words, m.format)) {
    fail(path, 1, "format '" + std::string(words[2]) + "' is neither coordinate nor array");
  }
  if (!read_word(field, field_words, m.field)) {
    if (field == "complex") {
      fail(path, 1, "complex matrices are not supported (real, integer or pattern only)");
    }
    fail(path, 1, "unknown field '" + std::string(words[3]) + "'");
  }
  if (!read_word(symmetry, symmetry_words, m.symmetry)) {
    if (symmetry == "hermitian") {
      fail(path, 1, "hermitian matrices are not supported (they are complex)");
    }
    fail(path, 1, "unknown symmetry '" + std::string(words[4]) + "'");
  }
  if (m.format == mtx_format::array && m.field == mtx_field::pattern) {
    fail(path, 1, "an array file cannot have the pattern field");
  }

  // Size line.
  std::int64_t size_values[3] = {0, 0, 0};
  std::size_t size_line = 0;
  for (;;) {
    if (!c.next(line)) fail(path, c.line, "no size line");
    if (blank_or_comment(line)) continue;
    size_line = c.line;
    std::string_view t[4];
    const int want = m.format == mtx_format::coordinate ? 3 : 2;
    const int got = tokens(line, t, 3);
    if (got != want) {
      fail(path, c.line,
           m.format == mtx_format::coordinate
               ? "the size line must be 'rows columns entries'"
               : "the size line of an array file must be 'rows columns'");
    }
    for (int k = 0; k < want; ++k) {
      if (!parse_int(t[k], size_values[k]) || size_values[k] < 0) {
        fail(path, c.line, "bad size '" + std::string(t[k]) + "'");
      }
    }
    break;
  }
  m.rows = static_cast<std::size_t>(size_values[0]);
  m.cols = static_cast<std::size_t>(size_values[1]);
  if (m.symmetry != mtx_symmetry::general && m.rows != m.cols) {
    fail(path, size_line,
         "a symmetric or skew-symmetric matrix must be square (it is " + std::to_string(m.rows) +
             " x " + std::to_string(m.cols) + ")");
  }
  // The entry count, in 64 bits with overflow checks (rows * cols of a
  // dense file wraps to 0 for 2^32 x 2^32), and then against what the rest
  // of the file can hold: each entry is a line of at least one character,
  // and every line but the last ends in '\n'. (A tighter bound per format
  // would preempt the exact count below, whose messages say more; nothing
  // is allocated before that count either.)
  std::optional<std::uint64_t> announced;
  if (m.format == mtx_format::coordinate) {
    announced = static_cast<std::uint64_t>(size_values[2]);
  } else if (m.symmetry == mtx_symmetry::general) {
    announced = checked_product(m.rows, m.cols);
  } else {
    // n (n + 1) / 2 (symmetric) or n (n - 1) / 2 (skew), halving the even factor.
    const std::uint64_t n = m.rows;
    const std::uint64_t other = m.symmetry == mtx_symmetry::symmetric ? n + 1 : (n ? n - 1 : 0);
    announced = n % 2 == 0 ? checked_product(n / 2, other) : checked_product(n, other / 2);
  }
  const std::string_view data = text.substr(c.pos);
  const std::size_t first_line = c.line + 1;
  const std::uint64_t room = (data.size() + 1) / 2;
  if (!announced || *announced > room) {
    const std::string count = announced ? std::to_string(*announced) : "more than 2^64";
    fail(path, size_line,
         "the size line announces " + count + " entries, but the " + std::to_string(data.size()) +
             " bytes after it can hold at most " + std::to_string(room));
  }
  const std::size_t expected = static_cast<std::size_t>(*announced);

  // 3. Chunks of the data lines, each ending after a newline.
  const int threads = omp_get_max_threads();
  const std::size_t parts = std::max<std::size_t>(
      1, std::min<std::size_t>(static_cast<std::size_t>(threads) * 4, data.size() / (1 << 16) + 1));
  std::vector<std::size_t> bounds(parts + 1, data.size());
  bounds[0] = 0;
  for (std::size_t p = 1; p < parts; ++p) {
    std::size_t at = std::max(bounds[p - 1], data.size() * p / parts);
    if (at < data.size()) {
      const std::size_t nl = data.find('\n', at == 0 ? 0 : at - 1);
      at = nl == std::string_view::npos ? data.size() : nl + 1;
    }
    bounds[p] = at;
  }

  // 4. Count. Comment lines come only before the size line (scipy.io.mmread
  // refuses them among the entries); blank lines are skipped anywhere.
  std::vector<std::size_t> entries(parts + 1, 0), newlines(parts + 1, 0);
  std::vector<std::size_t> first_comment(parts, 0);  // chunk-relative line, 0: none
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(parts); ++p) {
    cursor k{data.substr(bounds[p], bounds[p + 1] - bounds[p])};
    std::string_view l;
    std::size_t count = 0;
    while (k.next(l)) {
      if (is_blank(l)) continue;
      if (blank_or_comment(l) && !first_comment[p]) first_comment[p] = k.line;
      ++count;
    }
    entries[p + 1] = count;
    newlines[p + 1] = k.line;
  }
  std::partial_sum(entries.begin(), entries.end(), entries.begin());
  std::partial_sum(newlines.begin(), newlines.end(), newlines.begin());
  for (std::size_t p = 0; p < parts; ++p) {
    if (first_comment[p]) {
      fail(path, first_line + newlines[p] + first_comment[p] - 1,
           "a comment line among the entries (comments may only come before the size line)");
    }
  }
  const std::size_t found = entries[parts];
  if (found != expected) {
    // The line of entry number expected + 1, or the last line.
    std::size_t where = first_line + (newlines[parts] ? newlines[parts] - 1 : 0);
    if (found > expected) {
      cursor k{data};
      std::string_view l;
      std::size_t seen = 0;
      while (k.next(l)) {
        if (!is_blank(l) && ++seen == expected + 1) break;
      }
      where = first_line + k.line - 1;
    }
    fail(path, where,
         "the size line (line " + std::to_string(size_line) + ") announces " +
             std::to_string(expected) + " entries but the file has " + std::to_string(found));
  }

  // 5. Parse.
  const bool coordinate = m.format == mtx_format::coordinate;
  const bool pattern = m.field == mtx_field::pattern;
  const bool integer = m.field == mtx_field::integer;
  if (coordinate) {
    m.row_indices.resize(expected);
    m.col_indices.resize(expected);
    m.values.resize(expected);
  } else {
    m.values.resize(expected);
  }
  std::vector<chunk_error> errors(parts);
  const std::int64_t rows = size_values[0], cols = size_values[1];
  const mtx_symmetry sym = m.symmetry;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(parts); ++p) {
    cursor k{data.substr(bounds[p], bounds[p + 1] - bounds[p])};
    std::string_view l;
    std::size_t e = entries[p];
    const std::size_t line0 = first_line + newlines[p];
    auto error = [&](const std::string& what) { errors[p] = {line0 + k.line - 1, what}; };
    while (k.next(l)) {
      if (is_blank(l)) continue;
      std::string_view t[4];
      const int want = (coordinate ? 2 : 0) + (pattern ? 0 : 1);
      const int got = tokens(l, t, 3);
      if (got != want) {
        error("expected " + std::to_string(want) + " numbers, found " +
              (got > 3 ? std::string("more") : std::to_string(got)));
        break;
      }
      if (coordinate) {
        std::int64_t i = 0, j = 0;
        if (!parse_int(t[0], i) || !parse_int(t[1], j)) {
          error("bad index '" + std::string(!parse_int(t[0], i) ? t[0] : t[1]) + "'");
          break;
        }
        if (i < 1 || i > rows) {
          error("row index " + std::to_string(i) + " is outside [1, " + std::to_string(rows) + "]");
          break;
        }
        if (j < 1 || j > cols) {
          error("column index " + std::to_string(j) + " is outside [1, " + std::to_string(cols) +
                "]");
          break;
        }
        if (sym != mtx_symmetry::general && j > i) {
          error("entry (" + std::to_string(i) + ", " + std::to_string(j) +
                ") is above the diagonal of a symmetric file (only the lower triangle is stored)");
          break;
        }
        m.row_indices[e] = i - 1;
        m.col_indices[e] = j - 1;
      }
      double v = 1.0;
      if (!pattern) {
        const std::string_view s = t[coordinate ? 2 : 0];
        if (integer) {
          std::int64_t iv = 0;
          if (!parse_int(s, iv)) {
            error("bad integer '" + std::string(s) + "'");
            break;
          }
          v = static_cast<double>(iv);
        } else if (!parse_double(s, v)) {
          error("bad number '" + std::string(s) + "'");
          break;
        }
      }
      if (coordinate && sym == mtx_symmetry::skew_symmetric &&
          m.row_indices[e] == m.col_indices[e] && v != 0.0) {
        error("a skew-symmetric matrix has a zero diagonal, but entry (" + std::string(t[0]) +
              ", " + std::string(t[1]) + ") is " + std::string(t[2]));
        break;
      }
      m.values[e] = v;
      ++e;
    }
  }
  for (const chunk_error& err : errors) {
    if (err.line) fail(path, err.line, err.what);
  }

  // 6. Symmetric halves; dense arrays to row-major.
  if (coordinate) {
    if (sym != mtx_symmetry::general) {
      const double sign = sym == mtx_symmetry::skew_symmetric ? -1.0 : 1.0;
      std::size_t off = 0;
      for (std::size_t k = 0; k < expected; ++k)
        off += m.row_indices[k] != m.col_indices[k];
      m.row_indices.resize(expected + off);
      m.col_indices.resize(expected + off);
      m.values.resize(expected + off);
      std::size_t out = expected;
      for (std::size_t k = 0; k < expected; ++k) {
        if (m.row_indices[k] == m.col_indices[k]) continue;
        m.row_indices[out] = m.col_indices[k];
        m.col_indices[out] = m.row_indices[k];
        m.values[out] = sign * m.values[k];
        ++out;
      }
    }
  } else {
    // Bounded by the file: rows * cols values (general), or n^2 from the
    // n (n +- 1) / 2 of a symmetric file.
    resize_checked(
        m.dense, *checked_product(m.rows, m.cols), path,
        "a dense " + std::to_string(m.rows) + " x " + std::to_string(m.cols) + " matrix");
    std::size_t k = 0;
    if (m.dense.empty()) {
      // 0 x n or n x 0: nothing to place (and n may be 2^62).
    } else if (sym == mtx_symmetry::general) {
      for (std::size_t j = 0; j < m.cols; ++j)
        for (std::size_t i = 0; i < m.rows; ++i)
          m.dense[i * m.cols + j] = m.values[k++];
    } else {
      const double sign = sym == mtx_symmetry::skew_symmetric ? -1.0 : 1.0;
      const std::size_t skip = sym == mtx_symmetry::skew_symmetric ? 1 : 0;
      for (std::size_t j = 0; j < m.cols; ++j) {
        for (std::size_t i = j + skip; i < m.rows; ++i) {
          const double v = m.values[k++];
          m.dense[i * m.cols + j] = v;
          if (i != j) m.dense[j * m.cols + i] = sign * v;
        }
      }
    }
    m.values.clear();
    m.values.shrink_to_fit();
  }
  return m;
}

template <class T, class I>
csr_matrix<T, I> read_mtx_csr(const std::filesystem::path& path) {
  return to_csr<T, I>(read_mtx(path), path);
}

template <class T, class I>
csr_matrix<T, I> to_csr(mtx_matrix&& m, const std::filesystem::path& path) {
  const auto limit = static_cast<std::size_t>(std::numeric_limits<I>::max());
  auto too_big = [&] {
    fail(path, 0,
         "the matrix (" + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
             ") has more rows, columns or entries than its " + std::to_string(sizeof(I) * 8) +
             "-bit indices can hold");
  };
  if (m.rows > limit || m.cols > limit) too_big();
  // Row offsets for every row, empty ones included: the one size of the
  // conversion the file cannot bound (a 70-byte file may declare 2^40 rows).
  check_memory(path, checked_product(m.rows + 1, sizeof(I)),
               "converting " + std::to_string(m.rows) + " rows to CSR");
  std::vector<I> r, c;
  std::vector<T> v;
  if (m.format == mtx_format::coordinate) {
    const std::size_t n = m.values.size();
    if (n > limit) too_big();
    r.resize(n);
    c.resize(n);
    v.resize(n);
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < static_cast<std::int64_t>(n); ++k) {
      r[k] = static_cast<I>(m.row_indices[k]);
      c[k] = static_cast<I>(m.col_indices[k]);
      v[k] = static_cast<T>(m.values[k]);
    }
  } else if (!m.dense.empty()) {
    for (std::size_t i = 0; i < m.rows; ++i) {
      for (std::size_t j = 0; j < m.cols; ++j) {
        const double x = m.dense[i * m.cols + j];
        if (x == 0.0) continue;
        r.push_back(static_cast<I>(i));
        c.push_back(static_cast<I>(j));
        v.push_back(static_cast<T>(x));
      }
    }
    if (v.size() > limit) too_big();
  }
  const std::size_t rows = m.rows, cols = m.cols;
  m = mtx_matrix{};  // release before the conversion needs its own copies
  return coo_to_csr<T, I>(rows, cols, r, c, v);
}

std::vector<double> read_mtx_dense(const std::filesystem::path& path, std::size_t& rows,
                                   std::size_t& cols) {
  mtx_matrix m = read_mtx(path);
  rows = m.rows;
  cols = m.cols;
  if (m.format == mtx_format::array) return std::move(m.dense);
  std::vector<double> dense;
  const std::optional<std::uint64_t> count = checked_product(m.rows, m.cols);
  check_memory(path, count ? checked_product(*count, sizeof(double)) : std::nullopt,
               "a dense " + std::to_string(m.rows) + " x " + std::to_string(m.cols) + " matrix");
  resize_checked(dense, *count, path,
                 "a dense " + std::to_string(m.rows) + " x " + std::to_string(m.cols) + " matrix");
  for (std::size_t k = 0; k < m.values.size(); ++k)
    dense[static_cast<std::size_t>(m.row_indices[k]) * m.cols +
          static_cast<std::size_t>(m.col_indices[k])] += m.values[k];
  return dense;
}

namespace {

template <class T>
char* put_value(char* p, char* end, T v) {
  return std::to_chars(p, end, v).ptr;  // shortest form that reads back exactly
}

void write_text_parts(const std::filesystem::path& path, const std::string& head,
                      const std::vector<std::string>& parts) {
  std::FILE* f = std::fopen(path.string().c_str(), "wb");
  if (!f) fail(path, 0, std::string("cannot write (") + std::strerror(errno) + ")");
  bool ok = std::fwrite(head.data(), 1, head.size(), f) == head.size();
  for (const std::string& s : parts)
    ok = ok && std::fwrite(s.data(), 1, s.size(), f) == s.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) {
    std::filesystem::remove(path);
    fail(path, 0, "cannot write (disk full?)");
  }
}

}  // namespace

template <class T, class I>
void write_mtx(const std::filesystem::path& path, const csr_view<T, I>& A) {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n% written by gpuprim\n" +
                           std::to_string(A.rows) + " " + std::to_string(A.cols) + " " +
                           std::to_string(A.nnz()) + "\n";
  // Rows formatted in parallel, one string per part of equal work.
  const std::size_t parts = A.rows ? static_cast<std::size_t>(omp_get_max_threads()) * 4 : 0;
  std::vector<std::string> text(parts);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(parts); ++p) {
    const std::size_t first = host_impl::balanced_row_start(A.row_offsets.data(), A.rows, p, parts);
    const std::size_t last =
        host_impl::balanced_row_start(A.row_offsets.data(), A.rows, p + 1, parts);
    std::string& out = text[p];
    out.resize(static_cast<std::size_t>(A.row_offsets[last] - A.row_offsets[first]) * 64);
    char* q = out.data();
    char* end = out.data() + out.size();
    for (std::size_t r = first; r < last; ++r) {
      for (I k = A.row_offsets[r]; k < A.row_offsets[r + 1]; ++k) {
        q = std::to_chars(q, end, r + 1).ptr;
        *q++ = ' ';
        q = std::to_chars(q, end, static_cast<std::int64_t>(A.col_indices[k]) + 1).ptr;
        *q++ = ' ';
        q = put_value(q, end, A.values[k]);
        *q++ = '\n';
      }
    }
    out.resize(static_cast<std::size_t>(q - out.data()));
  }
  write_text_parts(path, head, text);
}

template <class T>
void write_mtx(const std::filesystem::path& path, matrix_view<const T> A) {
  const std::string head = "%%MatrixMarket matrix array real general\n% written by gpuprim\n" +
                           std::to_string(A.rows()) + " " + std::to_string(A.cols()) + "\n";
  std::vector<std::string> text(A.cols());
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t j = 0; j < static_cast<std::int64_t>(A.cols()); ++j) {
    std::string& out = text[j];
    out.resize(A.rows() * 32);
    char* q = out.data();
    char* end = out.data() + out.size();
    for (std::size_t i = 0; i < A.rows(); ++i) {
      q = put_value(q, end, A(i, j));
      *q++ = '\n';
    }
    out.resize(static_cast<std::size_t>(q - out.data()));
  }
  write_text_parts(path, head, text);
}

template csr_matrix<float, std::int32_t> to_csr(mtx_matrix&&, const std::filesystem::path&);
template csr_matrix<float, std::int64_t> to_csr(mtx_matrix&&, const std::filesystem::path&);
template csr_matrix<double, std::int32_t> to_csr(mtx_matrix&&, const std::filesystem::path&);
template csr_matrix<double, std::int64_t> to_csr(mtx_matrix&&, const std::filesystem::path&);
template csr_matrix<float, std::int32_t> read_mtx_csr(const std::filesystem::path&);
template csr_matrix<float, std::int64_t> read_mtx_csr(const std::filesystem::path&);
template csr_matrix<double, std::int32_t> read_mtx_csr(const std::filesystem::path&);
template csr_matrix<double, std::int64_t> read_mtx_csr(const std::filesystem::path&);
template void write_mtx(const std::filesystem::path&, const csr_view<float, std::int32_t>&);
template void write_mtx(const std::filesystem::path&, const csr_view<float, std::int64_t>&);
template void write_mtx(const std::filesystem::path&, const csr_view<double, std::int32_t>&);
template void write_mtx(const std::filesystem::path&, const csr_view<double, std::int64_t>&);
template void write_mtx(const std::filesystem::path&, matrix_view<const float>);
template void write_mtx(const std::filesystem::path&, matrix_view<const double>);

}  // namespace gpuprim::io
