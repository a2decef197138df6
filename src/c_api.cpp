// The C API (include/martiandice/martiandice_c.h) over the C++ library: input
// checks, the handle's caches of solved turns and loaded tables, the mapping
// of absl::Status codes to md_status, and the per-thread last error. Every
// entry point catches every exception.
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "martiandice/dice.h"
#include "martiandice/game.h"
#include "martiandice/martiandice_c.h"
#include "martiandice/objective.h"
#include "martiandice/query.h"
#include "martiandice/rules.h"
#include "martiandice/solver.h"

#ifndef MARTIANDICE_VERSION
#error "MARTIANDICE_VERSION must be defined by the build"
#endif

struct md_handle {
  std::optional<std::string> tables;  // md_open's path; unset: default search
  std::mutex mutex;                   // guards the caches
  // Solved turns by (dice, bonus, target, objective name); tables by (dice, bonus, target,
  // players).
  std::map<std::tuple<int, int, int, std::string>, martiandice::TurnSolution> turns;
  struct LoadedTable {
    martiandice::GameTable table;
    std::string path;
  };
  std::map<std::tuple<int, int, int, int>, LoadedTable> tables_loaded;
};

namespace {

using martiandice::Dice;
using martiandice::GameContext;
using martiandice::GameTable;
using martiandice::Rules;
using martiandice::Then;
using martiandice::TurnSolution;

// Caches are bounded: past this many entries a cache is emptied before adding.
constexpr std::size_t kMaxCachedTurns = 64;
constexpr std::size_t kMaxCachedTables = 4;

thread_local std::string last_error;

md_status Fail(md_status status, std::string message) {
  last_error = std::move(message);
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
      code = MD_ERR_TABLE;
      break;
    case absl::StatusCode::kDataLoss:
      code = MD_ERR_DATA_LOSS;
      break;
    default:
      break;
  }
  return Fail(code, std::string(status.message()));
}

// Runs `body` (returning md_status) with every exception turned into an error.
template <typename Body>
md_status Guard(Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(MD_ERR_NO_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return Fail(MD_ERR_INTERNAL, absl::StrCat("internal error: ", e.what()));
  } catch (...) {
    return Fail(MD_ERR_INTERNAL, "internal error: unknown exception");
  }
}

absl::StatusOr<Dice> ParseArg(const char* text, const char* what) {
  if (text == nullptr) return Dice();
  absl::StatusOr<Dice> dice = martiandice::ParseDice(text);
  if (!dice.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", dice.status().message()));
  }
  return dice;
}

// A checked query: the rules, and either a turn objective or a win context.
struct Request {
  Rules rules;
  std::optional<martiandice::Objective> objective;  // unset for "win"
  GameContext context;
  int players = 0;
};

absl::StatusOr<Request> ReadQuery(const md_query& query) {
  Request request;
  request.rules = Rules{query.rules.dice, query.rules.bonus, query.rules.target};
  if (absl::Status status = martiandice::ValidateRules(request.rules); !status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("invalid rules: ", status.message()));
  }
  if (query.objective == nullptr) return absl::InvalidArgumentError("objective is NULL");
  if (std::strcmp(query.objective, "win") != 0) {
    absl::StatusOr<martiandice::Objective> objective =
        martiandice::Objective::Parse(query.objective);
    if (!objective.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("objective: ", objective.status().message(),
                                                     "; or win, to play for the game"));
    }
    if (query.scores != nullptr || query.players != 0 || query.seat != 0) {
      return absl::InvalidArgumentError(
          "scores, players and seat go with the win objective (set them to NULL, 0, 0)");
    }
    request.objective = *std::move(objective);
    return request;
  }
  if (query.scores == nullptr) {
    return absl::InvalidArgumentError("the win objective needs scores (NULL given)");
  }
  if (query.players < martiandice::kMinPlayers || query.players > martiandice::kMaxPlayers) {
    return absl::InvalidArgumentError(absl::StrCat("players: a game has ", martiandice::kMinPlayers,
                                                   " to ", martiandice::kMaxPlayers,
                                                   " players, not ", query.players));
  }
  if (query.seat < 0 || query.seat >= query.players) {
    return absl::InvalidArgumentError(absl::StrCat("seat ", query.seat, " is out of range for ",
                                                   query.players, " players (0..",
                                                   query.players - 1, ")"));
  }
  request.players = query.players;
  request.context.scores.assign(query.scores, query.scores + query.players);
  request.context.seat = query.seat;
  if (absl::Status status =
          martiandice::ValidateContext(request.rules, request.players, request.context);
      !status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("scores: ", status.message()));
  }
  return request;
}

absl::StatusOr<TurnSolution> Turn(md_handle& handle, const Request& request) {
  const Rules& rules = request.rules;
  const auto key =
      std::make_tuple(rules.dice, rules.bonus, rules.target, request.objective->name());
  std::lock_guard<std::mutex> lock(handle.mutex);
  if (auto it = handle.turns.find(key); it != handle.turns.end()) return it->second;
  absl::StatusOr<TurnSolution> solution = TurnSolution::Solve(rules, *request.objective);
  if (!solution.ok()) return solution.status();
  if (handle.turns.size() >= kMaxCachedTurns) handle.turns.clear();
  handle.turns.emplace(key, *solution);
  return solution;
}

// The table for a win request, from the cache or loaded; `path` gets its file.
absl::StatusOr<GameTable> Table(md_handle& handle, const Request& request,
                                std::string* path = nullptr) {
  const Rules& rules = request.rules;
  const auto key = std::make_tuple(rules.dice, rules.bonus, rules.target, request.players);
  std::lock_guard<std::mutex> lock(handle.mutex);
  auto it = handle.tables_loaded.find(key);
  if (it == handle.tables_loaded.end()) {
    absl::StatusOr<std::string> located =
        martiandice::LocateTable(rules, request.players, handle.tables);
    if (!located.ok()) return located.status();
    absl::StatusOr<GameTable> table = GameTable::Open(*located);
    if (!table.ok()) return table.status();
    if (absl::Status status = martiandice::CheckTableMatches(*table, rules, request.players);
        !status.ok()) {
      return absl::Status(status.code(), absl::StrCat(*located, ": ", status.message()));
    }
    if (handle.tables_loaded.size() >= kMaxCachedTables) handle.tables_loaded.clear();
    it = handle.tables_loaded.emplace(key, md_handle::LoadedTable{*table, *located}).first;
  }
  if (path != nullptr) *path = it->second.path;
  return it->second.table;
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

}  // namespace

extern "C" {

const char* md_version(void) { return MARTIANDICE_VERSION; }

md_status md_open(const char* tables, md_handle** out) {
  return Guard([&]() -> md_status {
    if (out == nullptr) return Fail(MD_ERR_INVALID_ARGUMENT, "md_open: out is NULL");
    *out = nullptr;
    auto handle = std::make_unique<md_handle>();
    if (tables != nullptr) {
      std::error_code error;
      if (!std::filesystem::exists(tables, error)) {
        return Fail(MD_ERR_NOT_FOUND,
                    absl::StrCat("tables: ", tables, ": no such file or directory"));
      }
      handle->tables = tables;
    }
    *out = handle.release();
    last_error.clear();
    return MD_OK;
  });
}

void md_close(md_handle* handle) { delete handle; }

void md_query_init(md_query* query) {
  if (query == nullptr) return;
  const Rules rules;
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
    absl::StatusOr<Request> request = ReadQuery(*query);
    if (!request.ok()) return FromStatus(request.status());
    absl::StatusOr<Dice> dice = ParseArg(aside, "aside");
    if (!dice.ok()) return FromStatus(dice.status());
    if (request->objective) {
      absl::StatusOr<TurnSolution> turn = Turn(*handle, *request);
      if (!turn.ok()) return FromStatus(turn.status());
      absl::StatusOr<martiandice::PositionEval> eval = martiandice::EvaluatePosition(*turn, *dice);
      if (!eval.ok()) return FromStatus(eval.status());
      FillEval(*eval, out);
      return FromStatus(absl::OkStatus());
    }
    absl::StatusOr<GameTable> table = Table(*handle, *request);
    if (!table.ok()) return FromStatus(table.status());
    absl::StatusOr<martiandice::WinEval> eval =
        martiandice::EvaluateWin(*table, request->context, *dice);
    if (!eval.ok()) return FromStatus(eval.status());
    FillEval(eval->position, out);
    CopyWin(eval->win_probabilities, &out->players, out->win);
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
    absl::StatusOr<Request> request = ReadQuery(*query);
    if (!request.ok()) return FromStatus(request.status());
    absl::StatusOr<Dice> set_aside = ParseArg(aside, "aside");
    if (!set_aside.ok()) return FromStatus(set_aside.status());
    absl::StatusOr<Dice> rolled = ParseArg(roll, "roll");
    if (!rolled.ok()) return FromStatus(rolled.status());
    if (request->objective) {
      absl::StatusOr<TurnSolution> turn = Turn(*handle, *request);
      if (!turn.ok()) return FromStatus(turn.status());
      absl::StatusOr<martiandice::RollAdvice> advice =
          martiandice::AdviseRoll(*turn, *set_aside, *rolled);
      if (!advice.ok()) return FromStatus(advice.status());
      FillBest(*advice, out);
      return FromStatus(absl::OkStatus());
    }
    absl::StatusOr<GameTable> table = Table(*handle, *request);
    if (!table.ok()) return FromStatus(table.status());
    absl::StatusOr<martiandice::WinAdvice> advice =
        martiandice::AdviseWin(*table, request->context, *set_aside, *rolled);
    if (!advice.ok()) return FromStatus(advice.status());
    FillBest(advice->advice, out);
    CopyWin(advice->win_probabilities, &out->players, out->win);
    return FromStatus(absl::OkStatus());
  });
}

md_status md_table_path(md_handle* handle, const md_query* query, char* buffer, size_t size) {
  return Guard([&]() -> md_status {
    if (handle == nullptr || query == nullptr || buffer == nullptr) {
      return Fail(MD_ERR_INVALID_ARGUMENT,
                  "md_table_path: handle, query and buffer must not be NULL");
    }
    absl::StatusOr<Request> request = ReadQuery(*query);
    if (!request.ok()) return FromStatus(request.status());
    if (request->objective) {
      return Fail(MD_ERR_INVALID_ARGUMENT, "md_table_path: tables answer the win objective only");
    }
    std::string path;
    absl::StatusOr<GameTable> table = Table(*handle, *request, &path);
    if (!table.ok()) return FromStatus(table.status());
    if (path.size() + 1 > size) {
      return Fail(MD_ERR_INVALID_ARGUMENT, absl::StrCat("md_table_path: the path needs ",
                                                        path.size() + 1, " bytes, not ", size));
    }
    std::memcpy(buffer, path.c_str(), path.size() + 1);
    return FromStatus(absl::OkStatus());
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
