// The check of a refused call: it throws std::invalid_argument with a
// message that says what was wrong.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace gpuprim::test {

// call() throws std::invalid_argument whose message contains `text`.
template <class Call>
void expect_invalid_argument(Call&& call, const std::string& text) {
  try {
    call();
    ADD_FAILURE() << "no exception; expected one saying '" << text << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

}  // namespace gpuprim::test
