// The C API (include/martiandice/martiandice_c.h) over the advisor
// (martiandice/advisor.h): the md_query's fields as the advisor's inputs, the
// mapping of absl::Status codes to md_status, the per-thread last error, and
// the results copied into the caller's structs. Every entry point catches
// every exception.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "file_kind.h"
#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/martiandice_c.h"
#include "utf8.h"

#ifndef MARTIANDICE_VERSION
#error "MARTIANDICE_VERSION must be defined by the build"
#endif

// The handle is an advisor: its caches of solved turns and loaded tables,
// and where win queries find their tables.
struct md_handle {
  explicit md_handle(martiandice::Advisor::Options options) : advisor(std::move(options)) {}
  martiandice::Advisor advisor;
};

namespace {

using martiandice::Dice;
using martiandice::Then;

// Longest message md_last_error keeps (a message quotes the caller's input).
constexpr std::size_t kMaxErrorBytes = 1024;
// Of a longer message, the bytes kept from its start; the rest come from its
// end, which holds the reason ("...: not a whole number in 0..1000").
constexpr std::size_t kErrorHeadBytes = 256;
constexpr std::string_view kErrorCut = " ... ";

thread_local std::string last_error;

// `text` as UTF-8 that prints on one line: a byte that starts no well-formed
// character, and a control character, written "\xHH". `starts[k]`: whether
// a character or an escape starts at the answer's byte k (k = its size too),
// where it may be cut.
std::string Printable(std::string_view text, std::vector<bool>& starts) {
  std::string out;
  out.reserve(text.size());
  starts.assign(1, true);
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = martiandice::internal::Utf8CharLength(text, i);
    const auto lead = static_cast<unsigned char>(text[i]);
    if (length == 0 || lead < 0x20 || lead == 0x7f ||
        martiandice::internal::IsC1Control(text, i, length)) {
      absl::StrAppend(&out, "\\x", absl::Hex(lead, absl::kZeroPad2));
      ++i;
    } else {
      out.append(text, i, length);
      i += length;
    }
    starts.resize(out.size() + 1, false);
    starts.back() = true;
  }
  return out;
}

md_status Fail(md_status status, std::string_view message) {
  std::vector<bool> starts;
  std::string text = Printable(message, starts);
  if (text.size() > kMaxErrorBytes) {
    std::size_t head = kErrorHeadBytes;
    while (!starts[head]) --head;
    std::size_t tail = text.size() - (kMaxErrorBytes - kErrorCut.size() - head);
    while (!starts[tail]) ++tail;
    text = text.substr(0, head).append(kErrorCut).append(text, tail);
  }
  last_error = std::move(text);
  return status;
}

md_status FromStatus(const absl::Status& status) {
  md_status code = MD_ERR_INTERNAL;
  switch (status.code()) {
    case absl::StatusCode::kOk:
      last_error.clear();
      return MD_OK;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      code = MD_ERR_INVALID_ARGUMENT;
      break;
    case absl::StatusCode::kNotFound:
      code = MD_ERR_NOT_FOUND;
      break;
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kResourceExhausted:
    case absl::StatusCode::kUnavailable:  // a table the system cannot read now (EMFILE, EIO)
      code = MD_ERR_TABLE;
      break;
    case absl::StatusCode::kDataLoss:
      code = MD_ERR_DATA_LOSS;
      break;
    default:
      break;
  }
  return Fail(code, std::string_view(status.message().data(), status.message().size()));
}

// MD_ERR_INTERNAL for the exception `what`; MD_ERR_NO_MEMORY where even its
// message cannot be made ("out of memory" fits std::string's own bytes).
md_status Internal(const char* what) noexcept {
  try {
    return Fail(MD_ERR_INTERNAL, absl::StrCat("internal error: ", what));
  } catch (...) {
    return Fail(MD_ERR_NO_MEMORY, "out of memory");
  }
}

// Runs `body` (returning md_status) with every exception turned into an error.
template <typename Body>
md_status Guard(Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(MD_ERR_NO_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return Internal(e.what());
  } catch (...) {
    return Fail(MD_ERR_INTERNAL, "internal error: unknown exception");
  }
}

// The advisor's query from an md_query and the set-aside. The game fields
// (scores, players, seat) are passed on when set, for the advisor to judge.
absl::StatusOr<martiandice::Query> ReadQuery(const md_query& query, const char* aside) {
  if (query.objective == nullptr) return absl::InvalidArgumentError("objective is NULL");
  martiandice::QueryInput input;
  input.objective = query.objective;
  input.rules = martiandice::Rules{query.rules.dice, query.rules.bonus, query.rules.target};
  input.aside = aside != nullptr ? aside : "";
  if (query.players != 0) input.players = query.players;
  if (query.scores != nullptr && std::string_view(query.objective) != "win") {
    input.scores = "";  // refused by ParseQuery as belonging to the win objective
  } else if (query.scores != nullptr) {
    if (query.players < martiandice::kMinPlayers || query.players > martiandice::kMaxPlayers) {
      return absl::InvalidArgumentError(
          absl::StrCat("players: give the number of scores, ", martiandice::kMinPlayers, " to ",
                       martiandice::kMaxPlayers, " (", query.players, " given)"));
    }
    input.scores = absl::StrJoin(query.scores, query.scores + query.players, ",");
  }
  if (query.scores != nullptr || query.seat != 0) input.seat = query.seat;
  return martiandice::ParseQuery(input);
}

md_then ToThen(Then then) {
  switch (then) {
    case Then::kStop:
      return MD_STOP;
    case Then::kRoll:
      return MD_ROLL;
    case Then::kEither:
      return MD_EITHER;
  }
  return MD_EITHER;
}

void CopyWin(const std::vector<double>& win, int* players, double* out) {
  *players = static_cast<int>(win.size());
  for (std::size_t i = 0; i < win.size() && i < MD_MAX_PLAYERS; ++i) out[i] = win[i];
}

void FillEval(const martiandice::PositionEval& eval, md_eval_result* out) {
  out->dice_left = eval.dice_left;
  out->can_stop = eval.stop.has_value() ? 1 : 0;
  out->stop = eval.stop ? eval.stop->approx : 0;
  out->can_roll = eval.roll.has_value() ? 1 : 0;
  out->roll = eval.roll ? eval.roll->approx : 0;
  out->value = eval.value.approx;
  out->action = ToThen(eval.action);
}

void FillBest(const martiandice::RollAdvice& advice, md_best_result* out) {
  out->turn_over = advice.turn_over ? 1 : 0;
  out->turn_over_score = advice.turn_over_score;
  out->take_count = static_cast<int>(advice.options.size());
  for (std::size_t i = 0; i < advice.options.size() && i < MD_MAX_TAKES; ++i) {
    const martiandice::TakeOption& option = advice.options[i];
    md_take& take = out->takes[i];
    take.take = static_cast<md_face>(option.take);
    take.count = option.count;
    const std::string aside = martiandice::FormatDice(option.aside_after);
    std::snprintf(take.aside_after, sizeof take.aside_after, "%s", aside.c_str());
    take.stop = option.stop.approx;
    take.can_roll = option.roll.has_value() ? 1 : 0;
    take.roll = option.roll ? option.roll->approx : 0;
    take.value = option.value.approx;
    take.then = ToThen(option.then);
    take.optimal = option.optimal ? 1 : 0;
  }
  out->best = advice.best ? *advice.best : -1;
  out->value = advice.value.approx;
}

// `text` with its NUL into the caller's `buffer` of `size` bytes; `what` names
// it in the error ("md_table_path: the path").
md_status Copy(const char* what, const std::string& text, char* buffer, std::size_t size) {
  if (text.size() + 1 > size) {
    return Fail(MD_ERR_INVALID_ARGUMENT,
                absl::StrCat(what, " needs ", text.size() + 1, " bytes, not ", size));
  }
  std::memcpy(buffer, text.c_str(), text.size() + 1);
  return FromStatus(absl::OkStatus());
}

}  // namespace

extern "C" {

const char* md_version(void) { return MARTIANDICE_VERSION; }

md_status md_open(const char* tables, md_handle** out) {
  return Guard([&]() -> md_status {
    if (out == nullptr) return Fail(MD_ERR_INVALID_ARGUMENT, "md_open: out is NULL");
    *out = nullptr;
    martiandice::Advisor::Options options;
    if (tables != nullptr) {
      const martiandice::internal::FileKind kind = martiandice::internal::InspectPath(tables);
      using Type = martiandice::internal::FileKind::Type;
      if (kind.type == Type::kMissing || kind.error == ENOTDIR) {
        return Fail(MD_ERR_NOT_FOUND,
                    absl::StrCat("tables: ", tables, ": no such file or directory"));
      }
      // Not looked at: the system's reason (a loop is the caller's: as LocateTable judges it).
      if (kind.type == Type::kOther && kind.error != 0 && kind.error != ELOOP) {
        return Fail(MD_ERR_TABLE,
                    absl::StrCat("tables: ", tables, ": ", std::strerror(kind.error)));
      }
      if (kind.type == Type::kOther) {  // a FIFO, a device, a loop: no table (a read could block)
        return Fail(MD_ERR_INVALID_ARGUMENT,
                    absl::StrCat("tables: ", tables, " is ", kind.what,
                                 ": give a policy table file or a directory holding them"));
      }
      std::error_code error;
      // Absolute: a later chdir does not move the tables of a handle that
      // has not loaded them yet.
      const std::filesystem::path absolute = std::filesystem::absolute(tables, error);
      options.tables = error ? std::string(tables) : absolute.string();
    }
    *out = new md_handle(std::move(options));
    last_error.clear();
    return MD_OK;
  });
}

void md_close(md_handle* handle) { delete handle; }

void md_query_init(md_query* query) {
  if (query == nullptr) return;
  const martiandice::Rules rules;
  query->rules = md_rules{rules.dice, rules.bonus, rules.target};
  query->objective = "ev";
  query->scores = nullptr;
  query->players = 0;
  query->seat = 0;
}

md_status md_eval(md_handle* handle, const md_query* query, const char* aside,
                  md_eval_result* out) {
  return Guard([&]() -> md_status {
    if (handle == nullptr || query == nullptr || out == nullptr) {
      return Fail(MD_ERR_INVALID_ARGUMENT, "md_eval: handle, query and out must not be NULL");
    }
    *out = md_eval_result{};
    absl::StatusOr<martiandice::Query> request = ReadQuery(*query, aside);
    if (!request.ok()) return FromStatus(request.status());
    absl::StatusOr<martiandice::EvalAnswer> answer = handle->advisor.Evaluate(*request);
    if (!answer.ok()) return FromStatus(answer.status());
    FillEval(answer->eval, out);
    CopyWin(answer->win_probabilities, &out->players, out->win);
    return FromStatus(absl::OkStatus());
  });
}

md_status md_best(md_handle* handle, const md_query* query, const char* aside, const char* roll,
                  md_best_result* out) {
  return Guard([&]() -> md_status {
    if (handle == nullptr || query == nullptr || roll == nullptr || out == nullptr) {
      return Fail(MD_ERR_INVALID_ARGUMENT, "md_best: handle, query, roll and out must not be NULL");
    }
    *out = md_best_result{};
    absl::StatusOr<martiandice::Query> request = ReadQuery(*query, aside);
    if (!request.ok()) return FromStatus(request.status());
    absl::StatusOr<Dice> rolled = martiandice::ParseRoll(*request, roll);
    if (!rolled.ok()) return FromStatus(rolled.status());
    absl::StatusOr<martiandice::BestAnswer> answer = handle->advisor.Best(*request, *rolled);
    if (!answer.ok()) return FromStatus(answer.status());
    FillBest(answer->advice, out);
    CopyWin(answer->win_probabilities, &out->players, out->win);
    return FromStatus(absl::OkStatus());
  });
}

md_status md_table_path(md_handle* handle, const md_query* query, char* buffer, size_t size) {
  return Guard([&]() -> md_status {
    if (handle == nullptr || query == nullptr || buffer == nullptr) {
      return Fail(MD_ERR_INVALID_ARGUMENT,
                  "md_table_path: handle, query and buffer must not be NULL");
    }
    absl::StatusOr<martiandice::Query> request = ReadQuery(*query, nullptr);
    if (!request.ok()) return FromStatus(request.status());
    if (!request->goal.is_win()) {
      return Fail(MD_ERR_INVALID_ARGUMENT, "md_table_path: tables answer the win objective only");
    }
    auto table = handle->advisor.Table(request->rules, request->players);
    if (!table.ok()) return FromStatus(table.status());
    return Copy("md_table_path: the path", (*table)->path, buffer, size);
  });
}

md_status md_fallback_objective(const md_query* query, char* buffer, size_t size) {
  return Guard([&]() -> md_status {
    if (query == nullptr || buffer == nullptr) {
      return Fail(MD_ERR_INVALID_ARGUMENT,
                  "md_fallback_objective: query and buffer must not be NULL");
    }
    absl::StatusOr<martiandice::Query> request = ReadQuery(*query, nullptr);
    if (!request.ok()) return FromStatus(request.status());
    if (!request->goal.is_win()) {
      return Fail(MD_ERR_INVALID_ARGUMENT,
                  "md_fallback_objective: the fallback stands in for the win objective only");
    }
    const std::string name =
        martiandice::FallbackObjective(request->rules, *request->context).name();
    return Copy("md_fallback_objective: the objective", name, buffer, size);
  });
}

const char* md_last_error(void) { return last_error.c_str(); }

const char* md_status_name(md_status status) {
  switch (status) {
    case MD_OK:
      return "MD_OK";
    case MD_ERR_INVALID_ARGUMENT:
      return "MD_ERR_INVALID_ARGUMENT";
    case MD_ERR_NOT_FOUND:
      return "MD_ERR_NOT_FOUND";
    case MD_ERR_TABLE:
      return "MD_ERR_TABLE";
    case MD_ERR_DATA_LOSS:
      return "MD_ERR_DATA_LOSS";
    case MD_ERR_NO_MEMORY:
      return "MD_ERR_NO_MEMORY";
    case MD_ERR_INTERNAL:
      return "MD_ERR_INTERNAL";
  }
  return "?";
}

const char* md_face_name(md_face face) {
  static const char* const kNames[] = {"tank", "ray", "human", "cow", "chicken"};
  const int index = static_cast<int>(face);
  return index >= 0 && index < 5 ? kNames[index] : "?";
}

const char* md_then_name(md_then then) {
  switch (then) {
    case MD_STOP:
      return "stop";
    case MD_ROLL:
      return "roll";
    case MD_EITHER:
      return "either";
  }
  return "?";
}

}  // extern "C"
