# cmake -DFILE=<path> -P check_absent.cmake: fails when FILE exists (a
# command that failed must leave no output behind).
if(EXISTS "${FILE}")
  message(FATAL_ERROR "${FILE} exists, but the command that should have written it failed")
endif()
