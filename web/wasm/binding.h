// What the module's files share (binding.cpp defines it): the one advisor,
// the calling convention's result (see binding.cpp), and a call's request
// read as JSON.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "martiandice/advisor.h"
#include "request.h"

namespace martiandice::web {

// The module's advisor: tables from TableFolder(), where mdw_add_table puts them.
Advisor& TheAdvisor();
const std::string& TableFolder();
// The call failed: mdw_result() is {"error":...,"input":...,"code":...}; returns 1.
int Fail(const absl::Status& status);
// The call succeeded: mdw_result() is `json`; returns 0.
int Succeed(std::string json);

// A call's request: `json` (a flat JSON object, serve's fields) decoded for
// `command` (an app::RequestCommand named `name`), as serve decodes a line.
// Errors: the JSON reader's and app::DecodeJsonRequest's.
absl::Status ReadRequest(const char* json, unsigned command, std::string_view name,
                         app::Request& request);

}  // namespace martiandice::web
