// What the module's files share (binding.cpp defines it): the one advisor,
// the calling convention's result (see binding.cpp), and a call's request
// read from the request slots.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/advisor.h"
#include "request.h"

namespace martiandice::web {

// The module's advisor: tables from TableFolder(), where mdw_add_table puts
// them. Replaced, never cleared in place, by mdw_reset and a replaced table:
// what keeps SharedAdvisor() (a game) goes on with the one it took.
Advisor& TheAdvisor();
std::shared_ptr<Advisor> SharedAdvisor();
const std::string& TableFolder();
// A solve the module takes: tables up to this size (its values take about as
// much again while solving); larger ones belong to `martiandice solve`.
inline constexpr std::uint64_t kMaxModuleTableBytes = 64 << 20;
// The call failed: mdw_result() is {"error":...,"input":...,"code":...}; returns 1.
int Fail(const absl::Status& status);
// The call succeeded: mdw_result() is `json`; returns 0.
int Succeed(std::string json);

// One field of a call's request, as JavaScript writes it (mdw_request): its
// text (text and scores) or number (integers; flags 0 or 1), and whether it
// was given. On wasm32: 12 bytes, the words text, number, given.
struct RequestSlot {
  const char* text;
  std::int32_t number;
  std::int32_t given;
};

// The call's request, from the request slots, decoded for `command` (an
// app::RequestCommand named `name`); the slots are emptied for the next
// call. The request is kept until the next call. Errors (InvalidArgument):
// "field \"x\": does not apply to eval" (or "unknown field"), CheckRequired's.
absl::StatusOr<const app::Request*> ReadRequest(unsigned command, std::string_view name);

}  // namespace martiandice::web
