// What the module's files share (binding.cpp defines it): the one advisor,
// the calling convention's result (see binding.cpp), and the optional inputs
// read from their `present` bits.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "martiandice/advisor.h"

namespace martiandice::web {

// The module's advisor: tables from TableFolder(), where mdw_add_table puts them.
Advisor& TheAdvisor();
const std::string& TableFolder();
// The call failed: mdw_result() is {"error":...,"input":...,"code":...}; returns 1.
int Fail(const absl::Status& status);
// The call succeeded: mdw_result() is `json`; returns 0.
int Succeed(std::string json);

// A query's optional inputs (mdw_query's): each number counts only when its
// bit is set in `present` (kHas* in binding.cpp: scores 1, seat 2, players 4,
// dice 8, bonus 16, target 32); the others keep QueryInput's defaults.
QueryInput ReadInputs(const char* scores, unsigned present, int seat, int players, int dice,
                      int bonus, int target);

}  // namespace martiandice::web
