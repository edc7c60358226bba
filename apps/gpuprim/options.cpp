#include "options.hpp"

#include <stdexcept>

namespace gpuprim::cli {

std::vector<std::pair<std::string, std::string>> command_help::entries() const {
  std::vector<std::pair<std::string, std::string>> entries;
  std::string_view rest = block_;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (line.empty()) continue;
    if (line.starts_with("  ")) {
      if (entries.empty()) throw std::logic_error("command_help: a continuation comes first");
      entries.back().second += " ";
      entries.back().second += line.substr(2);
      continue;
    }
    const std::size_t colon = line.find(": ");
    if (colon == std::string_view::npos) {
      throw std::logic_error("command_help: no 'key: ' in '" + std::string(line) + "'");
    }
    entries.emplace_back(std::string(line.substr(0, colon)), std::string(line.substr(colon + 2)));
  }
  if (entries.empty()) throw std::logic_error("command_help: an empty block");
  return entries;
}

CLI::App* command_help::add_subcommand(CLI::App& app) const {
  const auto all = entries();
  return app.add_subcommand(all.front().first, all.front().second);
}

std::string command_help::operator[](std::string_view key) const {
  const auto all = entries();
  for (const auto& [k, text] : all)
    if (k == key) return text;
  throw std::logic_error("command_help: no entry '" + std::string(key) + "' for " +
                         all.front().first);
}

void add_files(CLI::App* command, const command_help& help,
               std::initializer_list<input_file_option> inputs) {
  for (const input_file_option& in : inputs)
    command->add_option(in.name, *in.file, help[in.name])->required()->type_name("");
}

void add_files(CLI::App* command, const command_help& help,
               std::initializer_list<input_file_option> inputs, std::string& output,
               const std::string& output_type) {
  add_files(command, help, inputs);
  command->add_option("-o,--output", output, help["--output"])->required()->type_name(output_type);
}

}  // namespace gpuprim::cli
