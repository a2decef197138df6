// The request model's table (app/request.h): one row per field.
#include "request.h"

#include <array>

#include "absl/strings/str_cat.h"

namespace martiandice::app {
namespace {

constexpr unsigned kQuery = kEvalRequest | kBestRequest;
constexpr unsigned kGame = kQuery | kOpenRequest | kReviewRequest;  // the win goal's inputs
constexpr unsigned kRules = kGame | kStatsRequest | kPlayRequest;

constexpr std::array<RequestField, 19> kFields = {{
    {"id", FieldKind::kEnvelope, kEveryRequest, 0, "", "", nullptr},
    {"command", FieldKind::kEnvelope, kEveryRequest, 0, "", "", nullptr},
    {"roll", FieldKind::kText, kBestRequest, kBestRequest, "the dice just rolled",
     "The dice just rolled, e.g. '1T 2R 3C 1K'", [](Request& r) -> FieldSlot { return &r.roll; }},
    {"aside", FieldKind::kText, kQuery, 0, "",
     "Dice set aside so far, e.g. '2T 4H' (default: start of the turn)",
     [](Request& r) -> FieldSlot { return &r.query.aside; }},
    {"objective", FieldKind::kText, kQuery | kReviewRequest, 0, "",
     "ev | reach:K | capped:M | final:M/K | win (default: win with --scores, else ev)",
     [](Request& r) -> FieldSlot { return &r.query.objective; }},
    {"exact", FieldKind::kFlag, kQuery | kReviewRequest, 0, "",
     "Solve in exact fractions (also prints p/q)",
     [](Request& r) -> FieldSlot { return &r.query.exact; }},
    {"scores", FieldKind::kScores, kGame, 0, "",
     "win: every seat's game total, seat 0 first, e.g. '12,20'",
     [](Request& r) -> FieldSlot { return &r.query.scores; }},
    {"seat", FieldKind::kInteger, kGame, 0, "", "win: the seat to move (default 0)",
     [](Request& r) -> FieldSlot { return &r.query.seat; }, kSpacesAround},
    {"players", FieldKind::kInteger, kGame | kPlayRequest, 0, "",
     "win: number of players (default: number of scores)",
     [](Request& r) -> FieldSlot { return &r.query.players; }},
    {"tables", FieldKind::kText, kGame | kPlayRequest, 0, "",
     "Policy table file, or a directory holding it (default: search)",
     [](Request& r) -> FieldSlot { return &r.query.tables; }, kNonEmpty},
    {"dice", FieldKind::kInteger, kRules, 0, "", "Dice in a turn (rules variant)",
     [](Request& r) -> FieldSlot { return &r.query.rules.dice; }},
    {"bonus", FieldKind::kInteger, kRules, 0, "", "Points for one of each earthling type",
     [](Request& r) -> FieldSlot { return &r.query.rules.bonus; }},
    {"target", FieldKind::kInteger, kRules, 0, "", "Game total that ends the game",
     [](Request& r) -> FieldSlot { return &r.query.rules.target; }},
    {"game", FieldKind::kInteger, kEnterRequest | kCloseRequest, kEnterRequest | kCloseRequest,
     "the id `open` answered", "", [](Request& r) -> FieldSlot { return &r.game; }},
    {"entry", FieldKind::kText, kEnterRequest, kEnterRequest,
     "a line as `martiandice coach` reads it", "",
     [](Request& r) -> FieldSlot { return &r.entry; }},
    {"humans", FieldKind::kText, kPlayRequest, 0, "",
     "The seats you play, e.g. '0,2', or 'none' (default 0)",
     [](Request& r) -> FieldSlot { return &r.humans; }},
    {"bots", FieldKind::kText, kPlayRequest, 0, "",
     "The bots' policy, or one per bot seat in seat order (default win)",
     [](Request& r) -> FieldSlot { return &r.bots; }},
    {"seed", FieldKind::kText, kPlayRequest, 0, "", "Random seed (0..2^64-1; default: random)",
     [](Request& r) -> FieldSlot { return &r.seed; }},
    {"hints", FieldKind::kFlag, kPlayRequest, 0, "",
     "Every option's value before each of your moves",
     [](Request& r) -> FieldSlot { return &r.hints; }},
}};

// The commands some field is required for.
constexpr unsigned kRequiring = [] {
  unsigned commands = 0;
  for (const RequestField& field : kFields) commands |= field.required;
  return commands;
}();

// Whether the value at `slot` was given: optional values only can be missing.
bool Given(const FieldSlot& slot) {
  if (const auto* text = std::get_if<std::optional<std::string>*>(&slot)) {
    return (*text)->has_value();
  }
  if (const auto* number = std::get_if<std::optional<int>*>(&slot)) return (*number)->has_value();
  return true;
}

}  // namespace

std::span<const RequestField> RequestFields() { return kFields; }

const RequestField* FindRequestField(std::string_view name) {
  for (const RequestField& field : kFields) {
    if (field.name == name) return &field;
  }
  return nullptr;
}

std::string RequestFieldNames(unsigned commands) {
  std::string list;
  for (const RequestField& field : kFields) {
    if ((field.commands & commands) == 0) continue;
    if (!list.empty()) list += ", ";
    list += field.name;
  }
  return list;
}

absl::Status CheckRequired(Request& request, unsigned command, std::string_view command_name) {
  if ((command & kRequiring) == 0) return absl::OkStatus();  // most requests: eval, stats
  for (const RequestField& field : kFields) {
    if ((field.required & command) == 0 || Given(field.slot(request))) continue;
    return absl::InvalidArgumentError(absl::StrCat(std::string(command_name), ": missing field \"",
                                                   std::string(field.name), "\" (",
                                                   std::string(field.what), ")"));
  }
  return absl::OkStatus();
}

}  // namespace martiandice::app
