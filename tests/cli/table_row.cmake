# gpuprim_split_row(<test> <words...>): one row of a test table
# (tests/cli/cases.txt, tests/dist/cases.txt) split into words, for the
# test named <test>. In every word the placeholders of the caller's
# gpuprim_row_placeholders (a list of "@name@=replacement") are replaced and
# "\n" becomes a line break. Sets, in the caller:
#   row_keys       the words before "--", each <key>=<value> (checked here)
#   row_arguments  the words after "--"
#   row_command    TRUE when the row has a "--"
function(gpuprim_split_row test)
  set(keys)
  set(arguments)
  set(in_arguments FALSE)
  foreach(word IN LISTS ARGN)
    foreach(placeholder IN LISTS gpuprim_row_placeholders)
      string(REGEX MATCH "^(@[a-z]+@)=(.*)$" _ "${placeholder}")
      string(REPLACE "${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}" word "${word}")
    endforeach()
    string(REPLACE "\\n" "\n" word "${word}")
    if(in_arguments)
      list(APPEND arguments "${word}")
    elseif(word STREQUAL "--")
      set(in_arguments TRUE)
    elseif(word MATCHES "^[a-z_]+=")
      list(APPEND keys "${word}")
    else()
      message(FATAL_ERROR "${test}: '${word}' is not <key>=<value>")
    endif()
  endforeach()
  set(row_keys "${keys}" PARENT_SCOPE)
  set(row_arguments "${arguments}" PARENT_SCOPE)
  set(row_command ${in_arguments} PARENT_SCOPE)
endfunction()
