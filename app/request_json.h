// The request model's JSON decoder (app/request.h): a flat JSON object's
// fields (json.h's FlatJsonParser) into a Request, each checked against the
// field table: known, belonging to the command, of its kind. `serve` reads
// its request lines with it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "json.h"
#include "request.h"

namespace martiandice::app {

// "field \"KEY\": WHAT" (InvalidArgument), about a field of the object.
absl::Status JsonFieldError(const JsonField& field, std::string_view what);
// A string field's decoded value into `out`. Errors: JsonFieldError's ("expected
// a string, got a number", a lone surrogate, a NUL).
absl::Status ReadJsonString(const JsonField& field, std::string& out);

// The index in `names` of the object's "command" field. Errors
// (InvalidArgument): no such field ("missing field \"command\" (eval, best
// or stats)"), not a string, or not one of `names` ("field \"command\":
// unknown command \"x\"; use eval, best or stats"). `scratch`: reused memory.
absl::StatusOr<std::size_t> ReadJsonCommand(const FlatJsonParser& parser,
                                            std::span<const std::string_view> names,
                                            std::string& scratch);

// Fills `request` (reset first) from the object's fields for `command` (a
// RequestCommand bit, named `command_name`), `known` the front end's
// commands (RequestCommand bits): a field of none of them is unknown. The
// envelope fields (id, command) are left to the caller. Errors
// (InvalidArgument): "unknown field \"x\" (fields: ...)", "field \"x\": does
// not apply to best", "field \"x\": expected an integer, got a string" and
// the like, CheckRequired's.
absl::Status DecodeJsonRequest(const FlatJsonParser& parser, unsigned known, unsigned command,
                               std::string_view command_name, Request& request);

}  // namespace martiandice::app
