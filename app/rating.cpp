// The skill rating (app/rating.h, docs/RATING.md): decision classes, the
// 0-100 scale and its bands.
#include "rating.h"

#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "answers.h"
#include "json.h"

namespace martiandice::app {

DecisionClass ClassOf(bool optimal, double loss) {
  if (optimal) return DecisionClass::kOptimal;
  if (loss < kErrorFrom) return DecisionClass::kInaccuracy;
  if (loss < kBlunderFrom) return DecisionClass::kError;
  return DecisionClass::kBlunder;
}

const char* ClassName(DecisionClass c) {
  switch (c) {
    case DecisionClass::kOptimal:
      return "optimal";
    case DecisionClass::kInaccuracy:
      return "inaccuracy";
    case DecisionClass::kError:
      return "error";
    case DecisionClass::kBlunder:
      return "blunder";
  }
  return "?";
}

bool IsDecision(const RollAdvice& advice) {
  return advice.options.size() > 1 || (advice.options.size() == 1 && advice.options[0].roll);
}

void RatingTally::Add(bool optimal, double loss) {
  ++decisions;
  ++classes[static_cast<int>(ClassOf(optimal, loss))];
  if (!optimal) total_loss += loss;
}

double RatingTally::MeanLoss() const {
  return decisions == 0 ? 0 : total_loss / static_cast<double>(decisions);
}

const char* RatingBand(double score) {
  if (score >= 100) return "perfect";
  if (score >= 90) return "master";
  if (score >= 75) return "expert";
  if (score >= 50) return "strong";
  if (score >= 25) return "casual";
  return "beginner";
}

std::optional<Rating> Rate(const RatingTally& tally) {
  if (tally.decisions == 0) return std::nullopt;
  // Only a tally with no loss reaches 100: a tiny loss stays below it.
  double score = 100 * std::exp2(-tally.MeanLoss() / kHalfLoss);
  if (tally.total_loss > 0 && score >= 100) score = std::nextafter(100.0, 0.0);
  return Rating{score, RatingBand(score)};
}

std::string RatingText(const Rating& rating) {
  return absl::StrCat("Rating ", static_cast<int>(std::floor(rating.score)), " of 100 (",
                      rating.band, ")");
}

namespace {

std::string Count(std::int64_t n, std::string_view one, std::string_view many) {
  return absl::StrCat(n, " ", std::string(n == 1 ? one : many));
}

}  // namespace

std::string ClassCountsText(const RatingTally& tally) {
  const auto& c = tally.classes;
  return absl::StrCat(Count(c[1], "inaccuracy", "inaccuracies"), ", ",
                      Count(c[2], "error", "errors"), ", ", Count(c[3], "blunder", "blunders"));
}

std::string TallyText(const RatingTally& tally) {
  const std::optional<Rating> rating = Rate(tally);
  if (!rating) return "no decisions";
  return absl::StrCat(
      Count(tally.decisions, "decision", "decisions"), ", ",
      Percent(static_cast<double>(tally.optimal()) / static_cast<double>(tally.decisions)),
      " optimal (", ClassCountsText(tally), "), lost ", Percent(tally.MeanLoss()),
      " a decision: ", absl::AsciiStrToLower(RatingText(*rating)));
}

std::string RatingJson(const RatingTally& tally) {
  const std::optional<Rating> rating = Rate(tally);
  JsonObject object;
  object.Int("decisions", tally.decisions)
      .Int("optimal", tally.classes[0])
      .Int("inaccuracies", tally.classes[1])
      .Int("errors", tally.classes[2])
      .Int("blunders", tally.classes[3])
      .Double("total_loss", tally.total_loss)
      .Double("mean_loss", tally.MeanLoss());
  if (rating) {
    object.Double("score", rating->score).Str("band", rating->band);
  } else {
    object.Null("score").Null("band");
  }
  return object.Build();
}

}  // namespace martiandice::app
