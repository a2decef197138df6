// The request model: every field a request to martiandice can carry (a
// query's objective, set-aside and game, best's roll, a followed game's id
// and entry), the commands each belongs to and needs, and where its value
// goes (Request). Every front end's decoder fills a Request from this one
// table: the command line's options (tools/cli.cpp), a JSON object
// (request_json.h: `serve`) and the WebAssembly module's request slots
// (web/wasm/binding.cpp); the C API's struct (src/c_api.cpp, in the library)
// carries the query's fields only. The values are checked by the library
// (ParseQuery, ParseRoll, the game sessions), once.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "absl/status/status.h"
#include "martiandice/advisor.h"

namespace martiandice::app {

// The commands a field can belong to, as bits: serve's six, review and play
// (the command line's and the WebAssembly module's).
enum RequestCommand : unsigned {
  kEvalRequest = 1,
  kBestRequest = 2,
  kStatsRequest = 4,
  kOpenRequest = 8,
  kEnterRequest = 16,
  kCloseRequest = 32,
  kReviewRequest = 64,
  kPlayRequest = 128,
};
inline constexpr unsigned kEveryRequest = 255;
// serve's commands.
inline constexpr unsigned kServeRequests =
    kEvalRequest | kBestRequest | kStatsRequest | kOpenRequest | kEnterRequest | kCloseRequest;

// A request as a front end receives it, before the library checks it.
struct Request {
  // eval, best: the query; stats: the rules; review: all but the set-aside;
  // open: the game's start (scores, seat, players, tables, rules).
  QueryInput query;
  std::optional<std::string> roll;   // best: the dice just rolled
  std::optional<int> game;           // enter, close: the id `open` answered
  std::optional<std::string> entry;  // enter: one line as `martiandice coach` reads it
  // play (with the query's players, rules and tables): the human seats ("0,2"
  // or "none"; default 0), the bots' policies (one, or one per bot seat;
  // default win), the dice's seed (default: a random one), whether human
  // decisions come with every option's value.
  std::optional<std::string> humans;
  std::optional<std::string> bots;
  std::optional<std::string> seed;
  bool hints = false;
};

// What a field's value is, whatever the syntax.
enum class FieldKind {
  kText,     // a string
  kInteger,  // a 32-bit integer
  kFlag,     // true or false
  kScores,   // every seat's total: "S0,S1[,...]" (JSON also takes an array of integers)
  kEnvelope, // id, command: read by the front end itself, not into a Request
};

// How a field is read beyond its kind (RequestField::form bits).
enum FieldForm : unsigned {
  kSpacesAround = 1u << 0,  // the command line's: an integer with spaces around it (" 1 ")
  kNonEmpty = 1u << 1,      // every front end's: a text that must not be empty (a path)
};
// The error of an empty kNonEmpty field, after its name.
inline constexpr std::string_view kEmptyPathError =
    "expected a table file or a directory, got an empty path";

// Where a field's value goes in a Request.
using FieldSlot = std::variant<std::string*, std::optional<std::string>*, int*,
                               std::optional<int>*, bool*>;

struct RequestField {
  std::string_view name;  // the JSON key; the command line's option is --name
  FieldKind kind;
  unsigned commands;      // RequestCommand bits: where it may appear
  unsigned required;      // RequestCommand bits: where it must appear
  std::string_view what;  // "the dice just rolled": for "missing field" errors
  std::string_view help;  // the command line's help line for eval and best
  FieldSlot (*slot)(Request& request);  // null for kEnvelope
  unsigned form = 0;                     // FieldForm bits
};

// Every field, in the order the command line's help lists them.
std::span<const RequestField> RequestFields();

// The field named `name`, or null.
const RequestField* FindRequestField(std::string_view name);

// "id, command, roll, aside, ...": the names of the fields of the commands
// `commands` (RequestCommand bits: a front end's), for error messages.
std::string RequestFieldNames(unsigned commands);

// OkStatus when `request` has every field `command` (a RequestCommand bit,
// named `command_name`) requires; else InvalidArgument naming the first one
// missing: "best: missing field \"roll\" (the dice just rolled)".
absl::Status CheckRequired(Request& request, unsigned command, std::string_view command_name);

}  // namespace martiandice::app
