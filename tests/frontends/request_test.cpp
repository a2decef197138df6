// The request model (app/request.h) and its decoders: every row's kind
// matches where its value goes; the JSON decoder (app/request_json.h) fills
// each field, refuses unknown, misplaced, mistyped and missing fields with
// the texts serve answers; the command line's options are the model's rows
// (each eval and best field is an option of the same name, --help in the
// model's order); and a query decoded from JSON and from the command line
// gives the same Request.
#include "request.h"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <variant>

#include "answers.h"
#include "cli_test_util.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "request_json.h"

namespace martiandice {
namespace {

using app::FieldKind;
using app::Request;
using app::RequestField;

absl::Status Decode(const std::string& json, unsigned command, const std::string& name,
                    Request& request) {
  FlatJsonParser parser;
  if (absl::Status status = parser.Parse(json); !status.ok()) return status;
  return app::DecodeJsonRequest(parser, app::kEveryRequest, command, name, request);
}

std::string DecodeError(const std::string& json, unsigned command, const std::string& name) {
  Request request;
  const absl::Status status = Decode(json, command, name, request);
  return std::string(status.message());
}

TEST_CASE("request model: every row's slot fits its kind, and each slot is its own") {
  Request request;
  std::set<const void*> slots;
  for (const RequestField& field : app::RequestFields()) {
    CAPTURE(field.name);
    CHECK(app::FindRequestField(field.name) == &field);
    CHECK((field.required & ~field.commands) == 0);  // needed only where it may appear
    const bool has_slot = field.slot != nullptr;
    if (field.kind == FieldKind::kEnvelope) {
      CHECK(!has_slot);
      continue;
    }
    REQUIRE(has_slot);
    const app::FieldSlot slot = field.slot(request);
    const void* address = std::visit([](auto* p) -> const void* { return p; }, slot);
    CHECK(slots.insert(address).second);
    switch (field.kind) {
      case FieldKind::kFlag:
        CHECK(std::holds_alternative<bool*>(slot));
        break;
      case FieldKind::kInteger:
        CHECK((std::holds_alternative<int*>(slot) ||
               std::holds_alternative<std::optional<int>*>(slot)));
        break;
      case FieldKind::kScores:
        CHECK(std::holds_alternative<std::optional<std::string>*>(slot));
        break;
      default:
        CHECK((std::holds_alternative<std::string*>(slot) ||
               std::holds_alternative<std::optional<std::string>*>(slot)));
    }
    if (field.required != 0) CHECK(!field.what.empty());
  }
  CHECK(app::FindRequestField("color") == nullptr);
}

TEST_CASE("request model: the JSON decoder fills every field of best and of play") {
  Request request;
  REQUIRE(Decode(R"({"command":"best","id":7,"objective":"reach:10","exact":true,)"
                 R"("aside":"2T 4H","roll":"1R 1H","scores":[ 12 , 20 ],"seat":1,"players":2,)"
                 R"("tables":"/t","dice":12,"bonus":4,"target":30})",
                 app::kBestRequest, "best", request)
              .ok());
  const QueryInput& q = request.query;
  CHECK(q.objective == std::optional<std::string>("reach:10"));
  CHECK(q.exact);
  CHECK(q.aside == "2T 4H");
  CHECK(request.roll == std::optional<std::string>("1R 1H"));
  CHECK(q.scores == std::optional<std::string>("12,20"));
  CHECK(q.seat == std::optional<int>(1));
  CHECK(q.players == std::optional<int>(2));
  CHECK(q.tables == std::optional<std::string>("/t"));
  CHECK(q.rules == Rules{12, 4, 30});

  REQUIRE(Decode(R"({"command":"play","humans":"none","bots":"win,ev","seed":"42","hints":true})",
                 app::kPlayRequest, "play", request)
              .ok());
  CHECK(request.humans == std::optional<std::string>("none"));
  CHECK(request.bots == std::optional<std::string>("win,ev"));
  CHECK(request.seed == std::optional<std::string>("42"));
  CHECK(request.hints);
  // Decoding starts from a fresh request: nothing of the last one is left.
  CHECK(request.query.aside.empty());
  CHECK(!request.roll.has_value());
  CHECK(request.query.rules == Rules{});
}

TEST_CASE("request model: the JSON decoder's errors") {
  CHECK(DecodeError(R"({"color":1})", app::kEvalRequest, "eval") ==
        "unknown field \"color\" (fields: " + app::RequestFieldNames(app::kEveryRequest) + ")");
  // serve's fields: those of its six commands, not play's.
  CHECK(app::RequestFieldNames(app::kServeRequests) ==
        "id, command, roll, aside, objective, exact, scores, seat, players, tables, dice, bonus, "
        "target, game, entry");
  FlatJsonParser parser;
  Request request;
  REQUIRE(parser.Parse(R"({"humans":"0"})").ok());
  CHECK(app::DecodeJsonRequest(parser, app::kServeRequests, app::kEvalRequest, "eval", request)
            .message() ==
        "unknown field \"humans\" (fields: " + app::RequestFieldNames(app::kServeRequests) + ")");
  CHECK(DecodeError(R"({"roll":"1R"})", app::kEvalRequest, "eval") ==
        "field \"roll\": does not apply to eval");
  CHECK(DecodeError(R"({"humans":"0"})", app::kEvalRequest, "eval") ==
        "field \"humans\": does not apply to eval");
  CHECK(DecodeError(R"({"seat":"1"})", app::kEvalRequest, "eval") ==
        "field \"seat\": expected an integer, got a string");
  CHECK(DecodeError(R"({"seat":1.5})", app::kEvalRequest, "eval") ==
        "field \"seat\": expected an integer (32 bits), got 1.5");
  CHECK(DecodeError(R"({"exact":1})", app::kEvalRequest, "eval") ==
        "field \"exact\": expected true or false, got a number");
  CHECK(DecodeError(R"({"scores":[1,2.5]})", app::kEvalRequest, "eval") ==
        "field \"scores\": expected integers (32 bits), got 2.5");
  CHECK(DecodeError(R"({"scores":[2147483648,0]})", app::kEvalRequest, "eval") ==
        "field \"scores\": expected integers (32 bits), got 2147483648");
  CHECK(DecodeError(R"({})", app::kBestRequest, "best") ==
        "best: missing field \"roll\" (the dice just rolled)");
  CHECK(DecodeError(R"({"entry":"stop"})", app::kEnterRequest, "enter") ==
        "enter: missing field \"game\" (the id `open` answered)");
  CHECK(DecodeError(R"({"game":1})", app::kEnterRequest, "enter") ==
        "enter: missing field \"entry\" (a line as `martiandice coach` reads it)");
}

TEST_CASE("request model: the JSON command field") {
  constexpr std::string_view kNames[] = {"eval", "best", "stats"};
  FlatJsonParser parser;
  std::string scratch;
  REQUIRE(parser.Parse(R"({"command":"best"})").ok());
  CHECK(*app::ReadJsonCommand(parser, kNames, scratch) == 1);
  REQUIRE(parser.Parse(R"({"command":"solve"})").ok());
  CHECK(app::ReadJsonCommand(parser, kNames, scratch).status().message() ==
        "field \"command\": unknown command \"solve\"; use eval, best or stats");
  REQUIRE(parser.Parse(R"({})").ok());
  CHECK(app::ReadJsonCommand(parser, kNames, scratch).status().message() ==
        "missing field \"command\" (eval, best or stats)");
}

TEST_CASE("request model: the command line's eval and best options are the model's rows") {
  for (const auto& row :
       {std::pair<std::string, unsigned>{"eval", app::kEvalRequest}, {"best", app::kBestRequest}}) {
    const auto& command = row.first;  // named: clang 14 captures no binding
    const auto& bit = row.second;
    CAPTURE(command);
    const cli_test::CliRun help = cli_test::Run({command, "--help"});
    REQUIRE(help.code == 0);
    std::size_t last = 0;
    for (const RequestField& field : app::RequestFields()) {
      if (field.kind == FieldKind::kEnvelope || (field.commands & bit) == 0) continue;
      CAPTURE(field.name);
      const std::size_t at = help.out.find("--" + std::string(field.name) + " ");
      REQUIRE(at != std::string::npos);
      CHECK(at > last);  // in the model's order
      last = at;
      CHECK(help.out.find(std::string(field.help), at) != std::string::npos);
    }
  }
}

TEST_CASE("request model: a query from JSON and from the command line answer alike") {
  // The same query through both decoders: the CLI's --json answer is the
  // answer to the JSON request, decoded and answered by the same layer.
  const cli_test::CliRun cli = cli_test::Run(
      {"best", "--aside", "2T 4H", "--roll", "1T 2R 3C 1K", "--objective", "reach:8", "--json"});
  REQUIRE(cli.code == 0);
  Request request;
  REQUIRE(Decode(R"({"command":"best","aside":"2T 4H","roll":"1T 2R 3C 1K","objective":"reach:8"})",
                 app::kBestRequest, "best", request)
              .ok());
  Advisor advisor;
  const absl::StatusOr<Query> query = ParseQuery(request.query);
  REQUIRE(query.ok());
  const absl::StatusOr<Dice> roll = ParseRoll(*query, *request.roll);
  REQUIRE(roll.ok());
  const absl::StatusOr<BestAnswer> answer = app::Best(advisor, *query, *roll);
  REQUIRE(answer.ok());
  CHECK(app::BestJson(*query, *roll, *answer) == cli.out);
}

}  // namespace
}  // namespace martiandice
