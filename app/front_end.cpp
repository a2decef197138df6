// What the front ends share besides the answers (app/front_end.h).
#include "front_end.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "martiandice/query.h"
#include "martiandice/table.h"

namespace martiandice::app {

absl::Status CheckRules(const Rules& rules) {
  if (absl::Status status = ValidateRules(rules); !status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("invalid rules: ", status.message()));
  }
  return absl::OkStatus();
}

absl::Status CheckPlayers(int players, std::string_view name) {
  absl::Status status = ValidatePlayers(players);
  return status.ok() ? status : InputError(name, status);
}

std::optional<std::uint64_t> ReadDigits(const std::string& text) {
  std::uint64_t value = 0;
  // Digits only: SimpleAtoi alone would take "+3" and " 3".
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
      !absl::SimpleAtoi(text, &value)) {
    return std::nullopt;
  }
  return value;
}

absl::StatusOr<std::uint64_t> ReadSeed(const std::string& text, std::string_view name) {
  if (std::optional<std::uint64_t> seed = ReadDigits(text)) return *seed;
  return InputError(name, absl::StrCat("expected an integer in 0..2^64-1, got '", text, "'"));
}

absl::Status TableError(const Rules& rules, int players, const absl::Status& status) {
  std::string message(status.message());
  if (message.find("martiandice solve") == std::string::npos) {
    absl::StrAppend(&message, " (generate the table with: ", TableSolveCommand(rules, players),
                    ")");
  }
  return absl::InvalidArgumentError(message);
}

absl::StatusOr<std::shared_ptr<const LoadedTable>> LoadTable(
    Advisor& advisor, const Rules& rules, int players, const std::optional<std::string>& tables) {
  absl::StatusOr<std::shared_ptr<const LoadedTable>> table = advisor.Table(rules, players, tables);
  if (!table.ok()) return TableError(rules, players, table.status());
  return table;
}

absl::StatusOr<TableCoverage> GameCoverage(Advisor& advisor, const Rules& rules, int players,
                                           const std::optional<std::string>& tables) {
  absl::StatusOr<TableCoverage> coverage = advisor.Coverage(rules, players, tables);
  if (!coverage.ok()) return TableError(rules, players, coverage.status());
  if (tables && !coverage->table) {  // a named table is not there
    return TableError(rules, players, absl::NotFoundError(coverage->reason));
  }
  return coverage;
}

}  // namespace martiandice::app
