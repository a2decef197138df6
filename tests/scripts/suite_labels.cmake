# Gives the tests of one doctest suite a ctest label, after doctest_discover_tests
# has added them: run by the tests binary's POST_BUILD step, it lists the suite's
# cases (--test-suite=SUITE --list-test-cases) into CTEST_FILE, which the test
# directory includes after doctest's own file. Expects TEST_EXECUTABLE, SUITE,
# LABEL and CTEST_FILE.
execute_process(
  COMMAND "${TEST_EXECUTABLE}" --test-suite=${SUITE} --list-test-cases --no-intro=true
          --no-version=true
  OUTPUT_VARIABLE output
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "suite_labels: ${TEST_EXECUTABLE} could not list suite ${SUITE}: ${result}")
endif()
string(REPLACE "\n" ";" lines "${output}")
set(script "")
foreach(line IN LISTS lines)
  # doctest frames its list with a rule and a count line.
  if(line STREQUAL "" OR line MATCHES "^===" OR line MATCHES "^\\[doctest\\] ")
    continue()
  endif()
  string(APPEND script "set_tests_properties([==[${line}]==] PROPERTIES LABELS ${LABEL})\n")
endforeach()
file(WRITE "${CTEST_FILE}" "${script}")
