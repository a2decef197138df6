// `martiandice serve` (tools/serve.h): the bounded line reader, the request
// envelope (id, command; the other fields are the request model's,
// app/request.h, read by its JSON decoder), the table of the
// protocol's commands (Service::Commands: name, summary, answer; the dispatch,
// the errors and --help derive from it), and the loop that answers each
// request through one advisor (martiandice/advisor.h: its solved turns and
// tables are kept between requests) and the one-shot CLI's answers
// (app/answers.h), so responses are the `--json` objects; `stats` answers
// are kept per rules; game sessions are `coach`'s GameSession
// (app/game_session.h) by id, bounded in number and idle time, answered by
// app/session_answers.h.
#include "serve.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "answers.h"
#include "commands.h"
#include "exit_codes.h"
#include "game_session.h"
#include "interrupt.h"
#include "json.h"
#include "martiandice/advisor.h"
#include "martiandice/game_state.h"
#include "martiandice/table.h"
#include "request.h"
#include "request_json.h"
#include "session_answers.h"
#include "support.h"

namespace martiandice {
namespace {

// Bounds on what the service keeps: the advisor's solved turns and tables
// (each dropping its least recently used), and `stats` answers (emptied when
// full, then refilled).
constexpr std::size_t kMaxCachedTurns = 16;
constexpr std::size_t kMaxCachedTables = 4;
constexpr std::size_t kMaxCachedStats = 16;

Advisor::Options ServiceAdvisorOptions() {
  Advisor::Options options;
  options.max_turns = kMaxCachedTurns;
  options.max_tables = kMaxCachedTables;
  return options;
}
// Responses are written in chunks of about this size (and before every wait).
constexpr std::size_t kServeWriteBytes = 1 << 16;

// absl::string_view is not std::string_view on this platform.
std::string_view View(absl::string_view text) { return {text.data(), text.size()}; }

// ---------------------------------------------------------------------------
// Lines, bounded.

// Splits a stream into lines of at most `max_line` bytes without ever holding
// more than a fixed buffer. Reads only what the stream has ready, and calls
// `wait()` before a read that may block.
class LineReader {
 public:
  enum class Result { kLine, kTooLong, kEnd };

  // Once `stop` (possibly null) is set, nothing more is read: the lines
  // already read come out, then kEnd.
  LineReader(std::streambuf* in, std::size_t max_line, const std::atomic<bool>* stop)
      : in_(in),
        max_line_(max_line),
        buffer_(std::max<std::size_t>(4 * max_line, 1 << 16)),
        stop_(stop) {}

  // The next line (without its '\n'; a last line without one counts, but not
  // a line cut by `stop`), or kTooLong for a line over the limit, a "\r"
  // before its end not counted (skipped), or kEnd.
  template <typename Wait>
  Result Next(std::string_view* line, Wait& wait) {
    bool too_long = false;
    for (;;) {
      char* data = buffer_.data();
      const void* newline = std::memchr(data + begin_, '\n', end_ - begin_);
      if (newline != nullptr) {
        const std::size_t start = begin_;
        const std::size_t length = static_cast<const char*>(newline) - (data + start);
        begin_ += length + 1;
        if (too_long || Over(data + start, length)) return Result::kTooLong;
        *line = std::string_view(data + start, length);
        return Result::kLine;
      }
      if (end_ - begin_ > max_line_ + 1) {  // over the limit with no end in sight: drop it
        too_long = true;
        begin_ = end_ = 0;
      } else if (begin_ > 0) {
        std::memmove(data, data + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
      }
      if (!Fill(wait)) {
        const std::size_t start = begin_;
        const std::size_t length = end_ - begin_;
        begin_ = end_ = 0;
        if (Stopped()) return Result::kEnd;  // the rest of a line still coming: no request
        if (too_long || Over(data + start, length)) return Result::kTooLong;
        if (length == 0) return Result::kEnd;
        *line = std::string_view(data + start, length);
        return Result::kLine;
      }
    }
  }

 private:
  bool Stopped() const { return stop_ != nullptr && stop_->load(); }

  // Whether `length` bytes at `line` are over the limit, a last "\r" not counted.
  bool Over(const char* line, std::size_t length) const {
    return length - (length > 0 && line[length - 1] == '\r') > max_line_;
  }

  // Appends what the stream has ready (waiting for at least one byte if
  // nothing is); false at end of input.
  template <typename Wait>
  bool Fill(Wait& wait) {
    if (ended_ || in_ == nullptr || Stopped()) return false;
    std::streamsize ready = in_->in_avail();
    if (ready <= 0) {
      wait();
      if (Stopped()) return false;
      if (in_->sgetc() == std::char_traits<char>::eof()) {
        ended_ = true;  // never read again: a terminal would block after Ctrl-D
        return false;
      }
      ready = std::max<std::streamsize>(in_->in_avail(), 1);
    }
    const auto space = static_cast<std::streamsize>(buffer_.size() - end_);
    const std::streamsize got = in_->sgetn(buffer_.data() + end_, std::min(ready, space));
    if (got <= 0) {
      ended_ = true;
      return false;
    }
    end_ += static_cast<std::size_t>(got);
    return true;
  }

  std::streambuf* in_;
  const std::size_t max_line_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // unread bytes: [begin_, end_)
  std::size_t end_ = 0;
  bool ended_ = false;
  const std::atomic<bool>* stop_;
};

// ---------------------------------------------------------------------------
// Requests.

class Service;

// A command of the protocol (docs/SERVE.md): Service::Commands() has one row
// each.
struct ServeCommand {
  std::string_view name;
  unsigned bit;              // its app::RequestCommand: which fields it takes
  std::string_view summary;  // its line in serve --help
  absl::Status (Service::*answer)(const std::string** json);
};

// The request of a line: its id as JSON ("" if none), its command, its fields.
struct Request {
  std::string id;
  const ServeCommand* command = nullptr;
  app::Request fields;
};

// The id as JSON: a string (re-encoded), a number (as given) or null.
absl::Status ReadId(const JsonField& field, std::string& decoded, std::string& out) {
  switch (field.kind) {
    case JsonKind::kString:
      if (absl::Status status = app::ReadJsonString(field, decoded); !status.ok()) return status;
      out.clear();
      AppendJsonString(out, decoded);
      return absl::OkStatus();
    case JsonKind::kNumber:
    case JsonKind::kNull:
      out.assign(field.raw);
      return absl::OkStatus();
    default:
      return app::JsonFieldError(
          field, absl::StrCat("expected a string, a number or null, got ",
                              std::string(JsonKindName(field.kind))));
  }
}

// {"id":ID,"error":"message"}: `id` is JSON, or empty for null.
void WriteError(std::string& out, std::string_view id, std::string_view message) {
  out += "{\"id\":";
  out += id.empty() ? "null" : id;
  out += ",\"error\":";
  AppendJsonString(out, message);
  out += "}\n";
}

// ---------------------------------------------------------------------------
// Where tables may be read from.

// `path` absolute (from the working directory) and normalised, by its text alone.
std::filesystem::path Lexical(const std::string& path) {
  std::error_code ignored;  // the working directory only
  return std::filesystem::absolute(path, ignored).lexically_normal();
}

// The folders (or files) a request's `tables` may name or name a path inside,
// compared by name: the data search path and --tables-dir.
class TableRoots {
 public:
  explicit TableRoots(const std::vector<std::string>& dirs) {
    for (const std::string& place : TableSearchPath()) roots_.push_back(Lexical(place));
    for (const std::string& dir : dirs) roots_.push_back(Lexical(dir));
  }

  // Whether `tables`, once normalised (".." resolved), is a root or inside one.
  bool Allows(const std::string& tables) const {
    const std::filesystem::path path = Lexical(tables);
    for (const std::filesystem::path& root : roots_) {
      auto r = root.begin(), p = path.begin();
      for (; r != root.end() && p != path.end() && *r == *p; ++r, ++p) {
      }
      // A trailing separator leaves an empty last element in the root.
      if (r == root.end() || (std::next(r) == root.end() && r->empty())) return true;
    }
    return false;
  }

 private:
  std::vector<std::filesystem::path> roots_;
};

absl::Status OutsideRoots(const std::string& tables, int players) {
  return absl::InvalidArgumentError(absl::StrCat(
      "tables: ", tables,
      " is outside the folders this service reads tables from (its data search path and its "
      "--tables-dir folders); generate the table in one of them with `martiandice solve "
      "--players ",
      players, " --out DIR`, or start the service with --tables-dir"));
}

// ---------------------------------------------------------------------------
// The service: parses, answers through the advisor.

class Service {
 public:
  explicit Service(const ServeOptions& options) : options_(options), roots_(options.tables_dirs) {}

  // The protocol's commands, one row each, in the order --help lists them.
  static std::span<const ServeCommand> Commands();
  // Their names, in the same order.
  static std::span<const std::string_view> CommandNames();

  // Appends the response line (newline included) to one request line to `out`.
  void Answer(std::string_view line, std::string& out) {
    request_.id.clear();
    absl::Status status;
    const std::string* json = nullptr;
    try {
      status = Handle(line, &json);
    } catch (const std::exception& e) {
      status = absl::InternalError(absl::StrCat("internal error: ", e.what()));
    } catch (...) {
      status = absl::InternalError("internal error");
    }
    if (!status.ok()) {
      WriteError(out, request_.id, View(status.message()));
      return;
    }
    if (!request_.id.empty()) {  // {"id":ID, then the object's fields
      out += "{\"id\":";
      out += request_.id;
      out += ',';
      out.append(*json, 1);
    } else {
      out += *json;
    }
  }

 private:
  absl::Status Handle(std::string_view line, const std::string** json) {
    // Not a JSON object: no id is echoed (null).
    if (absl::Status status = parser_.Parse(line); !status.ok()) return status;
    if (absl::Status status = ReadRequest(); !status.ok()) return status;
    return (this->*request_.command->answer)(json);
  }

  absl::Status ReadRequest() {
    Request& r = request_;
    for (std::size_t i = 0; i < parser_.size(); ++i) {
      if (parser_.field(i).key != "id") continue;
      if (absl::Status status = ReadId(parser_.field(i), scratch_, r.id); !status.ok()) {
        return status;
      }
    }
    absl::StatusOr<std::size_t> command = app::ReadJsonCommand(parser_, CommandNames(), scratch_);
    if (!command.ok()) return command.status();
    r.command = &Commands()[*command];
    return app::DecodeJsonRequest(parser_, app::kServeRequests, r.command->bit, r.command->name, r.fields);
  }

  absl::Status Stats(const std::string** json) {
    const Rules& rules = request_.fields.query.rules;
    for (const auto& [cached_rules, text] : stats_) {
      if (cached_rules == rules) {
        *json = &text;
        return absl::OkStatus();
      }
    }
    absl::StatusOr<std::string> text = cli::StatsJson(rules);
    if (!text.ok()) return text.status();
    if (stats_.size() == kMaxCachedStats) stats_.clear();
    stats_.emplace_back(rules, *std::move(text));
    *json = &stats_.back().second;
    return absl::OkStatus();
  }

  // eval and best, answered as the one-shot CLI answers them; the advisor's
  // errors name the field ("aside: ...").
  absl::Status Query(const std::string** json) {
    absl::StatusOr<std::string> answer = app::AnswerQuery(
        advisor_, request_.fields, request_.command->bit, app::AnswerFormat::kJson,
        [this](const martiandice::Query& query) {
          // A table not found is the fallback's (app::FallbackFor) or, named, the answer's error.
          return query.goal.is_win() ? Coverage(query.rules, query.players, query.tables).status()
                                     : absl::OkStatus();
        });
    if (!answer.ok()) return answer.status();
    json_ = *std::move(answer);
    *json = &json_;
    return absl::OkStatus();
  }

  // ---- Game sessions.

  struct Game {
    app::GameSession session;
    std::optional<std::string> tables;
    std::chrono::steady_clock::time_point used;
  };

  // Closes the games idle for longer than options_.max_idle.
  void Expire(std::chrono::steady_clock::time_point now) {
    for (auto it = games_.begin(); it != games_.end();) {
      it = now - it->second.used > options_.max_idle ? games_.erase(it) : std::next(it);
    }
  }

  absl::StatusOr<Game*> Find(int id) {
    const auto it = games_.find(id);
    if (it == games_.end()) {
      return absl::InvalidArgumentError(absl::StrCat("game: no open game ", id,
                                                     " (never opened, closed, or idle for over ",
                                                     options_.max_idle.count(), " s)"));
    }
    return &it->second;
  }

  absl::Status Open(const std::string** json) {
    const QueryInput& in = request_.fields.query;
    absl::StatusOr<GameState> start = app::SessionStart(in);
    if (!start.ok()) return start.status();
    const int players = start->players();
    absl::StatusOr<TableCoverage> coverage = Coverage(in.rules, players, in.tables);
    if (!coverage.ok()) return coverage.status();
    const auto now = options_.now();
    Expire(now);
    if (games_.size() >= options_.max_games) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "open: ", games_.size(), " games are open, the most this service keeps: ",
          "close one first (games idle for over ", options_.max_idle.count(), " s are closed)"));
    }
    if (last_game_ == std::numeric_limits<int>::max()) {
      return absl::ResourceExhaustedError("open: every game id is used: restart the service");
    }
    const int id = ++last_game_;
    Game& game =
        games_
            .emplace(id,
                     Game{app::GameSession(*std::move(start), options_.max_undo, /*quit=*/false),
                          in.tables, now})
            .first->second;
    absl::StatusOr<std::string> answer =
        app::SessionOpenJson(advisor_, id, *coverage, game.session, game.tables);
    if (!answer.ok()) {
      games_.erase(id);
      return answer.status();
    }
    return Answered(*std::move(answer), json);
  }

  absl::Status Enter(const std::string** json) {
    const auto now = options_.now();
    Expire(now);
    absl::StatusOr<Game*> game = Find(*request_.fields.game);
    if (!game.ok()) return game.status();
    (*game)->used = now;
    if ((*game)->session.log().text().size() > options_.max_log_bytes) {
      return absl::ResourceExhaustedError(absl::StrCat("entry: the game's log is over ",
                                                       options_.max_log_bytes,
                                                       " bytes, the most a game keeps: close it"));
    }
    absl::StatusOr<std::string> answer = app::SessionEnterJson(
        advisor_, *request_.fields.game, (*game)->session, *request_.fields.entry, (*game)->tables);
    if (!answer.ok()) return answer.status();
    return Answered(*std::move(answer), json);
  }

  absl::Status Close(const std::string** json) {
    Expire(options_.now());
    absl::StatusOr<Game*> game = Find(*request_.fields.game);
    if (!game.ok()) return game.status();
    std::string answer = app::SessionCloseJson(*request_.fields.game, (*game)->session);
    games_.erase(*request_.fields.game);
    return Answered(std::move(answer), json);
  }

  // A session's answer, as the response's line.
  absl::Status Answered(std::string answer, const std::string** json) {
    json_ = std::move(answer);
    json_ += '\n';
    *json = &json_;
    return absl::OkStatus();
  }

  ServeOptions options_;
  std::map<int, Game> games_;
  int last_game_ = 0;

  // The table for (rules, players, tables), as app::GameCoverage finds it
  // (none found is no error unless `tables` names it): refused by name
  // outside the roots; a file refused for its content is not read again
  // while unchanged (the advisor's).
  absl::StatusOr<TableCoverage> Coverage(const Rules& rules, int players,
                                         const std::optional<std::string>& tables) {
    if (tables && !roots_.Allows(*tables)) return OutsideRoots(*tables, players);
    return app::GameCoverage(advisor_, rules, players, tables);
  }

  const TableRoots roots_;
  Advisor advisor_{ServiceAdvisorOptions()};
  FlatJsonParser parser_;
  Request request_;
  std::string scratch_;
  std::string json_;
  std::vector<std::pair<Rules, std::string>> stats_;
};

std::span<const ServeCommand> Service::Commands() {
  static constexpr ServeCommand kCommands[] = {
      {"eval", app::kEvalRequest, "Stop or roll on? The value of a position", &Service::Query},
      {"best", app::kBestRequest, "Which dice to take from \"roll\", then stop or roll?", &Service::Query},
      {"stats", app::kStatsRequest, "The size of a turn's state space", &Service::Stats},
      {"open", app::kOpenRequest, "Follow a game as `martiandice coach` does: its id, state and advice",
       &Service::Open},
      {"enter", app::kEnterRequest, "Apply \"entry\" (one of coach's lines) to \"game\": its state, advice",
       &Service::Enter},
      {"close", app::kCloseRequest, "End \"game\": its final scores and its log", &Service::Close},
  };
  return kCommands;
}

std::span<const std::string_view> Service::CommandNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> list;
    for (const ServeCommand& command : Commands()) list.push_back(command.name);
    return list;
  }();
  return names;
}

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

namespace cli {

std::string ServeHelp() {
  std::string help = R"(
Reads requests from stdin, one JSON object per line, and answers each with one
JSON object per line on stdout, in order, until end of input (exit 0), or
Ctrl-C or SIGTERM (the requests read answered first; exit 130).
Commands (the field "command", required):
)";
  std::size_t width = 0;
  for (const ServeCommand& command : Service::Commands()) {
    width = std::max(width, command.name.size());
  }
  for (const ServeCommand& command : Service::Commands()) {
    absl::StrAppend(&help, "  ", std::string(command.name),
                    std::string(width + 2 - command.name.size(), ' '), std::string(command.summary),
                    "\n");
  }
  help += R"(Other fields: id (any string, number or null; echoed as the response's first
field), and the CLI's options without dashes: objective, exact, aside, roll
(best), scores (an array of integers), seat, players, tables (win only), dice,
bonus, target; open takes players, scores, seat, tables and the rules.
Response: for eval, best and stats the subcommand's --json object (plus id).
At most 64 games are open; a game idle for an hour is closed. A bad request
gets {"id":...,"error":"message"} (id null if unknown) and the service goes
on. Lines over 16384 bytes are refused unread. Output is flushed whenever the
service waits for input. A request's tables must be inside the data search
path or a folder named by --tables-dir (repeatable); outside them it is
refused by its name alone. A table file refused for its content is not read
again until it changes. Protocol, caches and limits: docs/SERVE.md.
  echo '{"id":1,"command":"best","roll":"2T 3R 4H 3C 1K"}' | martiandice serve
)";
  return help;
}

absl::StatusOr<int> RunServe(const CommandOptions& options, const CommandContext& context,
                             std::ostream& out) {
  ServeOptions serve;
  for (const std::string& dir : options.tables_dirs) {
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error)) {
      return absl::InvalidArgumentError(
          dir.empty() ? "--tables-dir: give a folder"
                      : absl::StrCat("--tables-dir: '", dir, "' is not a directory"));
    }
    serve.tables_dirs.push_back(dir);
  }
  std::istringstream no_input;
  // Ctrl-C or SIGTERM: the request in flight and the lines already read are
  // answered, every answer written, then exit 130 (a wait for input ends).
  const InterruptFlag interrupt("", InterruptFlag::Blocked::kInterrupt);
  const int code =
      Serve(context.in ? *context.in : no_input, out, context.err, serve, interrupt.flag());
  return code == kCliExitOk && interrupt.interrupted() ? kCliExitInterrupted : code;
}

}  // namespace cli

std::vector<std::string_view> ServeCommandNames() {
  const std::span<const std::string_view> names = Service::CommandNames();
  return {names.begin(), names.end()};
}

int Serve(std::istream& in, std::ostream& out, std::ostream& err, const ServeOptions& options,
          const std::atomic<bool>* stop) {
  try {
    Service service(options);
    LineReader reader(in.rdbuf(), kServeMaxLineBytes, stop);
    // Responses collect here and go out in large writes: when enough is
    // pending, and whenever the service is about to wait for input (flushed).
    std::string pending;
    pending.reserve(2 * kServeWriteBytes);
    auto write_pending = [&] {
      out.write(pending.data(), static_cast<std::streamsize>(pending.size()));
      pending.clear();
    };
    auto wait = [&] {
      write_pending();
      out.flush();
      cli::WaitForInput(&in, stop);  // a signal ends the wait (LineReader sees `stop`)
    };
    for (;;) {
      std::string_view line;
      const LineReader::Result result = reader.Next(&line, wait);
      if (result == LineReader::Result::kEnd) break;
      if (result == LineReader::Result::kTooLong) {
        WriteError(
            pending, "",
            absl::StrCat("request line longer than ", kServeMaxLineBytes, " bytes; skipped"));
      } else if (!IsBlank(line)) {
        service.Answer(line, pending);
      }
      if (pending.size() >= kServeWriteBytes) write_pending();
      if (!out) break;
    }
    write_pending();
    out.flush();
    return kCliExitOk;  // a failed `out` too: the caller reports it (RunCli)
  } catch (const std::exception& e) {
    err << "martiandice: error: internal error: " << e.what() << "\n";
  } catch (...) {
    err << "martiandice: error: internal error\n";
  }
  return kCliExitInternal;
}

}  // namespace martiandice
