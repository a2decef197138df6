// The WebAssembly module's C functions, called by the JavaScript package
// (web/src/martiandice.js): a thin layer over the front-end layer (app/). A
// call's request is the request model's (app/request.h) in one struct, the
// module's request slots (mdw_request: one slot per field, in the model's
// order, which mdw_request_fields names), decoded here; its values are
// checked by the library (ParseQuery, ParseRoll, ...). The answers are the
// command line's `--json` objects, written by the same code (app/answers.h),
// so the package and `martiandice eval/best --json` cannot differ. Tables are registered from
// bytes: checked, then kept in the module's in-memory file system (TableFolder()), where the
// advisor finds them as it finds tables in a folder given to --tables.
//
// Calling convention: every mdw_* function that can fail returns 0 on
// success, else 1; either way mdw_result() is the text of the call's result
// (a JSON object), kept until the next call. On failure it is
// {"error":"message","input":"aside"|null,"code":"INVALID_ARGUMENT"}.
// The module is single-threaded: one call at a time.
//
// Built natively too, for the benchmark's figures (web/bench/native.cpp).
//
// The game of `play` (a GameState with seats and bots) is game.cpp's mdw_game_*
// functions, and the coach's game (serve's game sessions) coach.cpp's
// mdw_coach_*, in the same convention, sharing this file's advisor (binding.h).
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else  // the native build of the benchmark (web/bench/native.cpp): the same code
#define EMSCRIPTEN_KEEPALIVE
#endif

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "answers.h"
#include "binding.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "request.h"

#ifndef MARTIANDICE_VERSION
#error "MARTIANDICE_VERSION must be defined by the build"
#endif

namespace {

using martiandice::Advisor;
using martiandice::JsonObject;

}  // namespace

namespace martiandice::web {

// Where registered tables live: the module's in-memory file system; natively
// (the benchmark), the folder $MARTIANDICE_WEB_TABLES.
const std::string& TableFolder() {
#ifdef __EMSCRIPTEN__
  static const std::string folder = "/tables";
#else
  static const std::string folder = [] {
    const char* env = std::getenv("MARTIANDICE_WEB_TABLES");
    return std::string(env != nullptr ? env : "martiandice-web-tables");
  }();
#endif
  return folder;
}

// The requests the module takes: mdw_query's, mdw_review's, mdw_coach_open's
// and mdw_game_new's.
constexpr unsigned kModuleRequests = app::kEvalRequest | app::kBestRequest | app::kReviewRequest |
                                     app::kOpenRequest | app::kPlayRequest;

std::string result;  // mdw_result()

namespace {

// The request slots (binding.h's RequestSlot), one per field of the model.
constexpr std::size_t kMaxSlots = 32;
RequestSlot slots[kMaxSlots];
app::Request request;  // the last call's, decoded (kept: no allocation per call)

absl::Status SlotError(const app::RequestField& field, std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("field \"", std::string(field.name), "\": ", std::string(what)));
}

// Slot `slot`'s value into the Request member `target`, by its type.
struct SlotReader {
  const RequestSlot& slot;
  void operator()(std::string* out) const { *out = slot.text != nullptr ? slot.text : ""; }
  void operator()(std::optional<std::string>* out) const {
    out->emplace(slot.text != nullptr ? slot.text : "");
  }
  void operator()(int* out) const { *out = slot.number; }
  void operator()(std::optional<int>* out) const { out->emplace(slot.number); }
  void operator()(bool* out) const { *out = slot.number != 0; }
};

}  // namespace

namespace {

std::shared_ptr<Advisor> advisor;

// Where no table is registered for a game: how the package's user gives one
// (the folder searched is the module's own, of no use to name).
std::string MissingTable(const Rules& rules, int players) {
  std::string message =
      absl::StrCat("no policy table ", TableFileName(rules, players), " for ", players,
                   " players (", RulesText(rules), "); none registered: ");
  const Rules official;
  if (rules == official && (players == 2 || players == 3)) {  // OFFICIAL_TABLE_PLAYERS
    absl::StrAppend(&message, "loadTable(officialTableUrl(", players, ")) registers the package's");
    return message;
  }
  absl::StrAppend(&message, "give its file to loadTable or addTable (`",
                  TableSolveCommand(rules, players), "` makes it)");
  if (TableBytes(rules, players) <= kMaxModuleTableBytes) {
    absl::StrAppend(&message, ", or make it here with solveTable({players: ", players);
    if (rules.dice != official.dice) absl::StrAppend(&message, ", dice: ", rules.dice);
    if (rules.bonus != official.bonus) absl::StrAppend(&message, ", bonus: ", rules.bonus);
    if (rules.target != official.target) absl::StrAppend(&message, ", target: ", rules.target);
    absl::StrAppend(&message, "})");
  }
  return message;
}

}  // namespace

std::shared_ptr<Advisor> SharedAdvisor() {
  if (!advisor) {
    Advisor::Options options;
    options.tables = TableFolder();
    options.missing_table = MissingTable;
    advisor = std::make_shared<Advisor>(options);
  }
  return advisor;
}

Advisor& TheAdvisor() { return *SharedAdvisor(); }

std::string_view View(absl::string_view text) { return {text.data(), text.size()}; }

int Fail(const absl::Status& status) {
  JsonObject object;
  object.Str("error", View(status.message()));
  if (const std::optional<std::string> input = martiandice::InputName(status)) {
    object.Str("input", *input);
  } else {
    object.Null("input");
  }
  object.Str("code", absl::StatusCodeToString(status.code()));
  result = std::move(object).Build();
  return 1;
}

int Succeed(std::string json) {
  result = std::move(json);
  return 0;
}

absl::StatusOr<const app::Request*> ReadRequest(unsigned command, std::string_view name) {
  const std::span<const app::RequestField> fields = app::RequestFields();
  absl::Status status;
  request = app::Request();
  for (std::size_t i = 0; i < fields.size() && status.ok(); ++i) {
    if (slots[i].given == 0) continue;
    const app::RequestField& field = fields[i];
    if ((field.commands & kModuleRequests) == 0) {
      status = SlotError(field, "unknown field");
    } else if ((field.commands & command) == 0) {
      status = SlotError(field, absl::StrCat("does not apply to ", std::string(name)));
    } else if (field.kind != app::FieldKind::kEnvelope) {
      std::visit(SlotReader{slots[i]}, field.slot(request));
    }
  }
  for (RequestSlot& slot : slots) slot.given = 0;  // the next call starts empty
  if (!status.ok()) return status;
  if (absl::Status missing = app::CheckRequired(request, command, name); !missing.ok()) {
    return missing;
  }
  return &request;
}

}  // namespace martiandice::web

using namespace martiandice::web;  // NOLINT: this file's own helpers

extern "C" {

// The result of the last call (see the calling convention above).
EMSCRIPTEN_KEEPALIVE const char* mdw_result() { return result.c_str(); }

// The size in bytes of mdw_result()'s text, without its NUL: the package
// decodes exactly those bytes instead of searching for the end.
EMSCRIPTEN_KEEPALIVE std::size_t mdw_result_size() { return result.size(); }

// The library's version ("0.1.0").
EMSCRIPTEN_KEEPALIVE const char* mdw_version() { return MARTIANDICE_VERSION; }

// The request slots: the struct JavaScript fills before a call that takes a
// request (mdw_query, mdw_review, mdw_coach_open, mdw_game_new).
EMSCRIPTEN_KEEPALIVE RequestSlot* mdw_request() { return slots; }

// Which field each request slot holds: {"slot_bytes":B,"fields":[names, in
// slot order]}.
EMSCRIPTEN_KEEPALIVE int mdw_request_fields() {
  using martiandice::app::RequestField;
  std::vector<std::string> names;
  for (const RequestField& field : martiandice::app::RequestFields()) {
    names.push_back(martiandice::JsonString(field.name));
  }
  if (names.size() > kMaxSlots) {
    return Fail(absl::InternalError("more request fields than request slots"));
  }
  return Succeed(JsonObject()
                     .Int("slot_bytes", sizeof(RequestSlot))
                     .Raw("fields", martiandice::JsonArray(names))
                     .Build());
}

// An `eval` or `best` query: the request slots hold "command" ("eval" or
// "best") and the query's fields. Its result is the CLI's `--json` object.
EMSCRIPTEN_KEEPALIVE int mdw_query() {
  using namespace martiandice;  // NOLINT: this function's names
  static const std::size_t command_slot =  // found once: the model's rows are fixed
      app::FindRequestField("command") - app::RequestFields().data();
  const char* command = slots[command_slot].given != 0 ? slots[command_slot].text : nullptr;
  const bool best = command != nullptr && std::string_view(command) == "best";
  if (!best && (command == nullptr || std::string_view(command) != "eval")) {
    for (RequestSlot& slot : slots) slot.given = 0;
    return Fail(InputError("command", "expected \"eval\" or \"best\""));
  }
  const unsigned bit = best ? app::kBestRequest : app::kEvalRequest;
  absl::StatusOr<const app::Request*> fields = ReadRequest(bit, best ? "best" : "eval");
  if (!fields.ok()) return Fail(fields.status());
  absl::StatusOr<std::string> answer =
      app::AnswerQuery(TheAdvisor(), **fields, bit, app::AnswerFormat::kJson);
  if (!answer.ok()) return Fail(answer.status());
  return Succeed(*std::move(answer));
}

// Registers a policy table from its `size` bytes: checked as the library
// reads a file (GameTable::FromBytes), then stored as TableFolder()/<its
// usual name>, replacing a table of the same rules and players. Result:
// {"table":PATH,"players":N,"rules":{...},"error_bound":E,"format_version":V}.
EMSCRIPTEN_KEEPALIVE int mdw_add_table(const std::uint8_t* bytes, std::size_t size) {
  const std::string_view data(reinterpret_cast<const char*>(bytes), size);
  absl::StatusOr<martiandice::GameTable> table = martiandice::GameTable::FromBytes(data);
  if (!table.ok()) return Fail(table.status());
  std::error_code error;
  std::filesystem::create_directories(TableFolder(), error);
  const std::string path = absl::StrCat(
      TableFolder(), "/", martiandice::TableFileName(table->rules(), table->players()));
  const bool replaced = std::filesystem::exists(path, error);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) return Fail(absl::InternalError(absl::StrCat("cannot write ", path)));
  }
  // The advisor keeps loaded tables by source: a replaced one must be reread
  // (by a new advisor; an open game keeps its own, SharedAdvisor()).
  if (replaced) advisor.reset();
  JsonObject object;
  object.Str("table", path)
      .Int("players", table->players())
      .Raw("rules", martiandice::app::RulesJson(table->rules()))
      .Raw("error_bound", martiandice::JsonDouble(table->error_bound()))
      .Int("format_version", table->format_version());
  return Succeed(std::move(object).Build());
}

// Unregisters the table mdw_add_table stored at `path` (its result's
// "table"): the file is deleted, so its memory is freed, and later calls get
// a new advisor (an open game keeps its own, with what it loaded). Result:
// {"removed":B}, false where no such table is stored. Errors: InvalidArgument
// for a path outside TableFolder().
EMSCRIPTEN_KEEPALIVE int mdw_remove_table(const char* path) {
  const std::filesystem::path file(path != nullptr ? path : "");
  if (file.parent_path() != std::filesystem::path(TableFolder()) || file.filename().empty() ||
      file.filename() == "." || file.filename() == "..") {
    return Fail(absl::InvalidArgumentError(
        absl::StrCat("not a registered table's path: '", file.string(), "'")));
  }
  std::error_code error;
  const bool removed = std::filesystem::remove(file, error);
  if (error) {
    return Fail(
        absl::InternalError(absl::StrCat("cannot remove ", file.string(), ": ", error.message())));
  }
  if (removed) advisor.reset();
  return Succeed(JsonObject().Bool("removed", removed).Build());
}

// Forgets every solved turn and loaded table (the registered tables stay):
// later calls get a new advisor, an open game keeps its own.
EMSCRIPTEN_KEEPALIVE void mdw_reset() { advisor.reset(); }

}  // extern "C"
