// Win queries from a policy table, exactly as docs/FORMAT.md "Answering a
// query" prescribes: the utility of ending the turn with x points, roll values
// from the turn solved over the stored vectors (or by rule), the ranked takes,
// ties within 10^-tie_tolerance_e and the tie convention's pick.
#include "martiandice/win_query.h"

#include <optional>
#include <vector>

#include "absl/strings/str_format.h"
#include "martiandice/rules.h"
#include "martiandice/state_space.h"
#include "table_format.h"
#include "take_options.h"
#include "win_values.h"

namespace martiandice {
namespace {

using internal::TableAccess;
using internal::TableData;
using internal::WinCompare;
using internal::WinValues;

absl::Status CheckContext(const GameTable& table, const GameContext& context) {
  return ValidateContext(table.rules(), table.players(), context);
}

}  // namespace

absl::StatusOr<std::vector<double>> GameTable::WinProbabilities(const GameContext& context) const {
  if (absl::Status s = CheckContext(*this, context); !s.ok()) return s;
  if (absl::Status s = data_->VerifyContext(data_->contexts.Index(context.seat, context.scores));
      !s.ok()) {
    return s;
  }
  return WinValues(*data_, context).WinProbabilities();
}

absl::Status CheckTableMatches(const GameTable& table, const Rules& rules, int players) {
  if (table.players() != players) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the table is for %d players, but the game has %d", table.players(), players));
  }
  const Rules& r = table.rules();
  if (r != rules) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the table is for other rules (%s) than the game's (%s)", RulesText(r), RulesText(rules)));
  }
  return absl::OkStatus();
}

absl::StatusOr<WinEval> EvaluateWin(const GameTable& table, const GameContext& context,
                                    const Dice& aside) {
  if (absl::Status s = CheckContext(table, context); !s.ok()) return s;
  if (absl::Status s = ValidateAside(table.rules(), aside); !s.ok()) return s;
  const TableData& d = TableAccess::Data(table);
  const WinValues values(d, context);
  if (absl::Status s = values.Verify(); !s.ok()) return s;
  WinEval result;
  result.position = internal::EvaluateWinAt(d.rules, values, WinCompare{d.tie_tolerance}, aside);
  result.win_probabilities = values.WinProbabilities();
  return result;
}

absl::StatusOr<WinAdvice> AdviseWin(const GameTable& table, const GameContext& context,
                                    const Dice& aside, const Dice& roll) {
  if (absl::Status s = CheckContext(table, context); !s.ok()) return s;
  if (absl::Status s = ValidateRoll(table.rules(), aside, roll); !s.ok()) return s;
  const TableData& d = TableAccess::Data(table);
  const WinValues values(d, context);
  if (absl::Status s = values.Verify(); !s.ok()) return s;
  WinAdvice result;
  result.advice = internal::AdviseWinTakes(d, values, aside, roll);
  result.win_probabilities = values.WinProbabilities();
  return result;
}

}  // namespace martiandice
