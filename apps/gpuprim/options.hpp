// The command line's options as types: words that name a choice become an
// enum at the parse boundary (CLI11 checks the word, then maps it), and the
// options of the commands that also run under mpirun (--distributed), one
// struct per command for both of its modes.
#pragma once

#include <CLI/CLI.hpp>

#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backend.hpp"

namespace gpuprim::cli {

// The words of a choice and the values they stand for.
template <class E>
using word_list = std::vector<std::pair<std::string, E>>;

// The first word that stands for `value`.
template <class E>
const std::string& word_of(const word_list<E>& words, E value) {
  for (const auto& [word, v] : words)
    if (v == value) return word;
  throw std::logic_error("word_of: a value without a word");
}

// What --help shows of a choice after the option's name: its words
// ("TEXT:{a,b}"), its words and default ("TEXT:{a,b}=a"), or neither (the
// help text lists them itself).
enum class choice_help { words, words_and_default, none };

// An option taking one of `words` into `value`. An unknown word fails the
// parse with CLI11's "--name: w not in {a,b}".
template <class E>
CLI::Option* add_choice(CLI::App* command, const std::string& name, E& value,
                        const word_list<E>& words, const std::string& help,
                        choice_help shown = choice_help::words) {
  std::vector<std::string> names;
  for (const auto& [word, v] : words)
    names.push_back(word);
  CLI::IsMember member(names);
  if (shown == choice_help::none) member.description("");
  // transform() puts a validator first: the word is checked, then mapped.
  CLI::Option* option = command->add_option(name, value, help)
                            ->transform(CLI::Transformer(words).description(""))
                            ->transform(member)
                            ->type_name(shown == choice_help::none ? "" : "TEXT");
  if (shown == choice_help::words_and_default) option->default_str(word_of(words, value));
  return option;
}

// A command's --help texts, written as one block of "key: text" entries
// (a line indented by two spaces continues the entry before it, joined with
// one space). The first entry is the command: its name and what it does;
// the others are keyed by their option's name (FILE, --output, --op).
class command_help {
 public:
  constexpr explicit command_help(std::string_view block) : block_(block) {}

  // The subcommand of `app` that the block describes, and the options
  // struct its parse fills (shared with the function that runs it).
  template <class Options>
  std::pair<CLI::App*, std::shared_ptr<Options>> add_to(CLI::App& app) const {
    return {add_subcommand(app), std::make_shared<Options>()};
  }
  // An entry's text; throws std::logic_error for a key the block lacks.
  std::string operator[](std::string_view key) const;

 private:
  CLI::App* add_subcommand(CLI::App& app) const;
  // The entries in order, continuations joined.
  std::vector<std::pair<std::string, std::string>> entries() const;

  std::string_view block_;
};

// The command's data files: its inputs, required positional arguments in
// the order given, and, where it writes one, its output (-o,--output,
// required; `output_type` is what --help shows for it). Their help texts
// are the block's entries of the same names ("--output" for the output).
struct input_file_option {
  std::string name;
  std::string* file;
};
void add_files(CLI::App* command, const command_help& help,
               std::initializer_list<input_file_option> inputs);
void add_files(CLI::App* command, const command_help& help,
               std::initializer_list<input_file_option> inputs, std::string& output,
               const std::string& output_type);

// ---- the commands with a --distributed mode ------------------------------------

enum class reduce_op {
  sum,
  min,
  max,
  argmin,
  argmax,
  nansum,
  nanmin,
  nanmax,
  nanargmin,
  nanargmax
};
inline const word_list<reduce_op> reduce_op_words = {{"sum", reduce_op::sum},
                                                     {"min", reduce_op::min},
                                                     {"max", reduce_op::max},
                                                     {"argmin", reduce_op::argmin},
                                                     {"argmax", reduce_op::argmax},
                                                     {"nansum", reduce_op::nansum},
                                                     {"nanmin", reduce_op::nanmin},
                                                     {"nanmax", reduce_op::nanmax},
                                                     {"nanargmin", reduce_op::nanargmin},
                                                     {"nanargmax", reduce_op::nanargmax}};

// nansum .. nanargmax skip NaNs; what they compute otherwise is their
// NaN-propagating twin's (nanmin -> min).
inline bool skips_nan(reduce_op op) {
  return op >= reduce_op::nansum;
}
inline reduce_op with_nan(reduce_op op) {
  return skips_nan(op)
             ? static_cast<reduce_op>(static_cast<int>(op) - static_cast<int>(reduce_op::nansum))
             : op;
}
inline bool is_arg(reduce_op op) {
  return with_nan(op) == reduce_op::argmin || with_nan(op) == reduce_op::argmax;
}
inline bool is_max(reduce_op op) {
  return with_nan(op) == reduce_op::max || with_nan(op) == reduce_op::argmax;
}

enum class scan_op { sum, min, max, nanmin, nanmax };
inline const word_list<scan_op> scan_op_words = {{"sum", scan_op::sum},
                                                 {"min", scan_op::min},
                                                 {"max", scan_op::max},
                                                 {"nanmin", scan_op::nanmin},
                                                 {"nanmax", scan_op::nanmax}};
inline bool is_max(scan_op op) {
  return op == scan_op::max || op == scan_op::nanmax;
}
inline bool skips_nan(scan_op op) {
  return op == scan_op::nanmin || op == scan_op::nanmax;
}

struct reduce_options {
  std::string file;
  reduce_op op = reduce_op::sum;
  backend_request backend = backend_request::automatic;
  bool distributed = false;
};

struct scan_options {
  std::string file;
  std::string output;
  scan_op op = scan_op::sum;
  bool exclusive = false;
  backend_request backend = backend_request::automatic;
  std::string segments;  // a segmented scan's flags or offsets (one process only)
  bool distributed = false;
};

struct sort_options {
  std::string file;
  std::string output;
  bool descending = false;
  std::string values;
  std::string values_output;  // set from `output` when --values is given without it
  backend_request backend = backend_request::automatic;
  bool distributed = false;
};

struct histogram_options {
  std::string file;
  long long bins = 10;
  std::vector<double> range;
  backend_request backend = backend_request::automatic;
  bool distributed = false;
};

// --distributed: the command under mpirun (dist_cli.cpp). It initializes
// MPI, runs the command over the ranks and returns the exit code (2 on any
// rank's error, one line from rank 0). Without MPI it throws usage_error.
// Defined for reduce_options, scan_options, sort_options and
// histogram_options.
template <class Options>
int run_distributed(const Options& options);

}  // namespace gpuprim::cli
