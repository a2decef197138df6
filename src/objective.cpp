// Objectives: built-in utilities of the final turn score and their parsing.
#include "martiandice/objective.h"

#include <algorithm>
#include <charconv>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "martiandice/context.h"

namespace martiandice {
namespace {

constexpr int kMaxObjectiveParam = 1000;

absl::StatusOr<int> ParseParam(std::string_view spec, std::string_view number) {
  if (number.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("\"", std::string(spec), "\" is missing its number (e.g. reach:10)"));
  }
  int value = 0;
  // Digits only: from_chars alone takes "-0".
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (number.front() == '-' || ec != std::errc() || end != number.data() + number.size() ||
      value > kMaxObjectiveParam) {
    return absl::InvalidArgumentError(
        absl::StrFormat("in \"%s\", \"%s\" is not a whole number in 0..%d", std::string(spec),
                        std::string(number), kMaxObjectiveParam));
  }
  return value;
}

// final:M/K's M (1..1000) or K (1..kMaxPlayers - 1), `what` naming it.
absl::StatusOr<int> ParseFinalPart(std::string_view spec, std::string_view text,
                                   std::string_view what, int most) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || text.front() == '-' || ec != std::errc() ||
      end != text.data() + text.size() || value < 1 || value > most) {
    return absl::InvalidArgumentError(
        absl::StrFormat("in \"%s\", %s is a whole number in 1..%d, not \"%s\" (e.g. final:7/1)",
                        std::string(spec), std::string(what), most, std::string(text)));
  }
  return value;
}

// final:M/K's "M/K".
absl::StatusOr<Objective> ParseFinal(std::string_view spec, std::string_view numbers) {
  const size_t slash = numbers.find('/');
  absl::StatusOr<int> m = ParseFinalPart(spec, numbers.substr(0, slash),
                                         "M (the points that pass the leader)", kMaxObjectiveParam);
  if (!m.ok()) return m.status();
  if (slash == std::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("\"", std::string(spec),
                     "\" is missing /K, the other seats level with the leader (e.g. final:7/1)"));
  }
  absl::StatusOr<int> k =
      ParseFinalPart(spec, numbers.substr(slash + 1), "K (the other seats level with the leader)",
                     kMaxPlayers - 1);
  if (!k.ok()) return k.status();
  return Objective::FinalRound(*m, *k);
}

}  // namespace

Objective Objective::ExpectedScore() { return Objective(Kind::kExpected, 0, "ev"); }

Objective Objective::ReachAtLeast(int k) {
  return Objective(Kind::kReach, k, absl::StrCat("reach:", k));
}

Objective Objective::Capped(int m) {
  return Objective(Kind::kCapped, m, absl::StrCat("capped:", m));
}

Objective Objective::FinalRound(int m, int k) {
  return Objective(Kind::kFinal, m, absl::StrCat("final:", m, "/", k), k);
}

absl::StatusOr<Objective> Objective::Custom(std::string name, std::vector<Rational> utility) {
  if (utility.empty())
    return absl::InvalidArgumentError("custom objective has an empty utility table");
  Objective objective(Kind::kCustom, 0, std::move(name));
  objective.table_ = std::move(utility);
  return objective;
}

std::string Objective::key() const {
  if (kind_ != Kind::kCustom) return name_;  // the name fixes a built-in's utility
  // Built-in keys are "ev", "reach:K", "capped:M" and "final:M/K": none starts "custom ".
  std::string key = absl::StrCat("custom ", name_.size(), ":", name_);
  for (const Rational& u : table_) absl::StrAppend(&key, ",", FormatRational(u));
  return key;
}

absl::StatusOr<Objective> Objective::Parse(std::string_view spec) {
  if (spec == "ev") return ExpectedScore();
  size_t colon = spec.find(':');
  std::string_view head = spec.substr(0, colon);
  std::string_view number = colon == std::string_view::npos ? "" : spec.substr(colon + 1);
  if (head == "reach" || head == "capped") {
    absl::StatusOr<int> param = ParseParam(spec, number);
    if (!param.ok()) return param.status();
    return head == "reach" ? ReachAtLeast(*param) : Capped(*param);
  }
  if (head == "final") return ParseFinal(spec, number);
  return absl::InvalidArgumentError(absl::StrCat("unknown objective \"", std::string(spec),
                                                 "\" (use ev, reach:K, capped:M or final:M/K)"));
}

std::string Objective::Describe() const {
  switch (kind_) {
    case Kind::kExpected:
      return "expected score";
    case Kind::kReach:
      return absl::StrCat("probability of scoring at least ", param_);
    case Kind::kCapped:
      return absl::StrCat("expected min(score, ", param_, ")");
    case Kind::kFinal:
      return absl::StrCat("chance to score at least ", param_, " and pass the leader (a tie at ",
                          param_ - 1, " with ", tied_, tied_ == 1 ? " seat" : " seats",
                          " counts 1/", tied_ + 1, ")");
    case Kind::kCustom:
      return absl::StrCat("custom utility \"", name_, "\"");
  }
  return name_;
}

Rational Objective::ExactUtility(int score) const {
  switch (kind_) {
    case Kind::kExpected:
      return score;
    case Kind::kReach:
      return score >= param_ ? 1 : 0;
    case Kind::kCapped:
      return std::min(score, param_);
    case Kind::kFinal:
      return score >= param_       ? Rational(1)
             : score == param_ - 1 ? Rational(1, tied_ + 1)
                                   : Rational(0);
    case Kind::kCustom:
      return table_[std::min<size_t>(score, table_.size() - 1)];
  }
  return 0;
}

double Objective::Utility(int score) const {
  switch (kind_) {
    case Kind::kExpected:
      return score;
    case Kind::kReach:
      return score >= param_ ? 1.0 : 0.0;
    case Kind::kCapped:
      return std::min(score, param_);
    case Kind::kFinal:
      return score >= param_ ? 1.0 : score == param_ - 1 ? 1.0 / (tied_ + 1) : 0.0;
    case Kind::kCustom:
      break;
  }
  return ExactUtility(score).convert_to<double>();
}

}  // namespace martiandice
