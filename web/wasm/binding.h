// What the module's files share (binding.cpp defines it): the one advisor,
// and the calling convention's result (see binding.cpp).
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

}  // namespace martiandice::web
