// The request model's JSON decoder (app/request_json.h).
#include "request_json.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace martiandice::app {
namespace {

// absl::string_view is not std::string_view on this platform.
std::string_view View(absl::string_view text) { return {text.data(), text.size()}; }

}  // namespace

absl::Status JsonFieldError(const JsonField& field, std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("field ", JsonString(field.key), ": ", std::string(what)));
}

namespace {

absl::Status WrongKind(const JsonField& field, std::string_view expected) {
  return JsonFieldError(field, absl::StrCat("expected ", std::string(expected), ", got ",
                                        std::string(JsonKindName(field.kind))));
}

}  // namespace

absl::Status ReadJsonString(const JsonField& field, std::string& out) {
  if (field.kind != JsonKind::kString) return WrongKind(field, "a string");
  if (absl::Status status = DecodeJsonString(field.raw, out); !status.ok()) {
    return JsonFieldError(field, View(status.message()));
  }
  return absl::OkStatus();
}

namespace {

bool IsIntegerToken(std::string_view token) {
  return token.find_first_of(".eE") == std::string_view::npos;
}

// An integer token as an int (bounded).
std::optional<int> TokenInt(std::string_view token) {
  std::int64_t value = 0;
  if (!IsIntegerToken(token) || token.size() > 11 ||
      !absl::SimpleAtoi(absl::string_view(token.data(), token.size()), &value) ||
      value < INT32_MIN || value > INT32_MAX) {
    return std::nullopt;
  }
  return static_cast<int>(value);
}

absl::Status ReadInt(const JsonField& field, int& out) {
  if (field.kind != JsonKind::kNumber) return WrongKind(field, "an integer");
  const std::optional<int> value = TokenInt(field.raw);
  if (!value) {
    return JsonFieldError(field,
                      absl::StrCat("expected an integer (32 bits), got ", std::string(field.raw)));
  }
  out = *value;
  return absl::OkStatus();
}

absl::Status ReadBool(const JsonField& field, bool& out) {
  if (field.kind != JsonKind::kBool) return WrongKind(field, "true or false");
  out = field.raw == "true";
  return absl::OkStatus();
}

// `scores`: an array of integers, or the CLI's "S0,S1" string; as the string.
absl::Status ReadScores(const JsonField& field, std::string& out) {
  if (field.kind == JsonKind::kString) return ReadJsonString(field, out);
  if (field.kind != JsonKind::kArray) return WrongKind(field, "an array of integers");
  out.clear();
  std::string_view rest = field.raw;
  if (rest.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return JsonFieldError(field, "expected at least one score");
  }
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    while (!item.empty() && std::strchr(" \t\r\n", item.front()) != nullptr) item.remove_prefix(1);
    while (!item.empty() && std::strchr(" \t\r\n", item.back()) != nullptr) item.remove_suffix(1);
    const std::optional<int> value = TokenInt(item);
    if (!value) {
      return JsonFieldError(field,
                            absl::StrCat("expected integers (32 bits), got ", std::string(item)));
    }
    if (!out.empty()) out += ',';
    absl::StrAppend(&out, *value);
  }
  if (out.empty()) return JsonFieldError(field, "expected at least one score");
  return absl::OkStatus();
}

// "eval, best, ... or close".
std::string CommandChoices(std::span<const std::string_view> names) {
  std::string choices;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) choices += i + 1 == names.size() ? " or " : ", ";
    choices += names[i];
  }
  return choices;
}

// Reads `field` into the Request member `slot`, by the field's kind.
absl::Status ReadInto(const JsonField& field, FieldKind kind, const FieldSlot& slot) {
  if (kind == FieldKind::kScores) {
    return ReadScores(field, std::get<std::optional<std::string>*>(slot)->emplace());
  }
  struct Reader {
    const JsonField& field;
    absl::Status operator()(std::string* out) const { return ReadJsonString(field, *out); }
    absl::Status operator()(std::optional<std::string>* out) const {
      return ReadJsonString(field, out->emplace());
    }
    absl::Status operator()(int* out) const { return ReadInt(field, *out); }
    absl::Status operator()(std::optional<int>* out) const { return ReadInt(field, out->emplace()); }
    absl::Status operator()(bool* out) const { return ReadBool(field, *out); }
  };
  return std::visit(Reader{field}, slot);
}

// Whether a text slot holds the empty text.
bool SlotEmpty(const FieldSlot& slot) {
  if (const auto* text = std::get_if<std::string*>(&slot)) return (*text)->empty();
  if (const auto* text = std::get_if<std::optional<std::string>*>(&slot)) {
    return (*text)->has_value() && (**text)->empty();
  }
  return false;
}

}  // namespace

absl::StatusOr<std::size_t> ReadJsonCommand(const FlatJsonParser& parser,
                                            std::span<const std::string_view> names,
                                            std::string& scratch) {
  for (std::size_t i = 0; i < parser.size(); ++i) {
    const JsonField& field = parser.field(i);
    if (field.key != "command") continue;
    if (absl::Status status = ReadJsonString(field, scratch); !status.ok()) return status;
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (names[k] == scratch) return k;
    }
    return JsonFieldError(field, absl::StrCat("unknown command ", JsonString(scratch), "; use ",
                                              CommandChoices(names)));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("missing field \"command\" (", CommandChoices(names), ")"));
}

absl::Status DecodeJsonRequest(const FlatJsonParser& parser, unsigned known, unsigned command,
                               std::string_view command_name, Request& request) {
  request = Request();
  for (std::size_t i = 0; i < parser.size(); ++i) {
    const JsonField& json = parser.field(i);
    const RequestField* field = FindRequestField(json.key);
    if (field == nullptr || (field->commands & known) == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown field ", JsonString(json.key), " (fields: ", RequestFieldNames(known), ")"));
    }
    if ((field->commands & command) == 0) {
      return JsonFieldError(json,
                            absl::StrCat("does not apply to ", std::string(command_name)));
    }
    if (field->kind == FieldKind::kEnvelope) continue;
    const FieldSlot slot = field->slot(request);
    if (absl::Status status = ReadInto(json, field->kind, slot); !status.ok()) return status;
    if ((field->form & kNonEmpty) != 0 && SlotEmpty(slot)) {
      return JsonFieldError(json, kEmptyPathError);
    }
  }
  return CheckRequired(request, command, command_name);
}

}  // namespace martiandice::app
