#include "options.hpp"

#include <stdexcept>

namespace gpuprim::cli {

command_help::command_help(std::string_view block) {
  while (!block.empty()) {
    const std::size_t end = block.find('\n');
    const std::string_view line = block.substr(0, end);
    block = end == std::string_view::npos ? std::string_view{} : block.substr(end + 1);
    if (line.empty()) continue;
    if (line.starts_with("  ")) {
      if (entries_.empty()) throw std::logic_error("command_help: a continuation comes first");
      entries_.back().second += " ";
      entries_.back().second += line.substr(2);
      continue;
    }
    const std::size_t colon = line.find(": ");
    if (colon == std::string_view::npos) {
      throw std::logic_error("command_help: no 'key: ' in '" + std::string(line) + "'");
    }
    entries_.emplace_back(std::string(line.substr(0, colon)), std::string(line.substr(colon + 2)));
  }
  if (entries_.empty()) throw std::logic_error("command_help: an empty block");
}

CLI::App* command_help::add_to(CLI::App& app) const {
  return app.add_subcommand(entries_.front().first, entries_.front().second);
}

const std::string& command_help::operator[](std::string_view key) const {
  for (const auto& [k, text] : entries_)
    if (k == key) return text;
  throw std::logic_error("command_help: no entry '" + std::string(key) + "' for " +
                         entries_.front().first);
}

}  // namespace gpuprim::cli
