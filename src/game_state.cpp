// A game being played (martiandice/game_state.h): the moves checked against
// the rules of docs/RULES.md with messages that say what the game waits for,
// the turn's end (the score added, the next seat, the final round and the
// game's end), the winners, the seeded dice and the points still needed.
#include "martiandice/game_state.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fallback_turn.h"
#include "martiandice/rules.h"
#include "martiandice/state_space.h"

namespace martiandice {
namespace {

// The faces a take may choose, in face order.
constexpr std::array<Face, 4> kTakeFaces = {Face::kRay, Face::kHuman, Face::kCow, Face::kChicken};

bool IsLegal(const Dice& aside, const Dice& roll, Face face) {
  if (face == Face::kTank || roll.count(face) == 0) return false;
  return !IsEarthling(face) || aside.count(face) == 0;
}

std::string Plural(Face face) { return absl::StrCat(std::string(FaceName(face)), "s"); }

std::string FaceList(const std::vector<Face>& faces) {
  std::vector<std::string> names;
  for (Face face : faces) names.emplace_back(FaceName(face));
  return absl::StrJoin(names, ", ");
}

// Whether a turn can score `points`: 0 to `dice` earthlings without the
// bonus, 3 to `dice` with it.
bool IsTurnScore(const Rules& rules, int points) {
  if (points >= 0 && points <= rules.dice) return true;
  return rules.bonus > 0 && points >= 3 + rules.bonus && points <= rules.dice + rules.bonus;
}

}  // namespace

std::string_view PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kRoll:
      return "roll";
    case Phase::kTake:
      return "take";
    case Phase::kStopOrRoll:
      return "stop_or_roll";
    case Phase::kOver:
      return "over";
  }
  return "?";
}

std::string_view TurnEndReasonName(TurnEndReason reason) {
  switch (reason) {
    case TurnEndReason::kStopped:
      return "stop";
    case TurnEndReason::kNoLegalTake:
      return "no_legal_take";
    case TurnEndReason::kNoDiceLeft:
      return "no_dice_left";
    case TurnEndReason::kEntered:
      return "entered";
  }
  return "?";
}

absl::StatusOr<GameState> GameState::New(const Rules& rules, int players) {
  if (absl::Status status = ValidateRules(rules); !status.ok()) return status;
  if (absl::Status status = ValidatePlayers(players); !status.ok()) return status;
  return GameState(rules, GameContext{std::vector<int>(players, 0), 0});
}

absl::StatusOr<GameState> GameState::AtTurnStart(const Rules& rules, int players,
                                                 const GameContext& context) {
  if (absl::Status status = ValidateContext(rules, players, context); !status.ok()) return status;
  return GameState(rules, context);
}

bool GameState::final_round() const {
  return FinalRoundBegun(rules_, context_.scores, context_.seat);
}

bool GameState::can_take(Face face) const {
  return phase_ == Phase::kTake && IsFace(face) && IsLegal(aside_, roll_, face);
}

std::vector<Face> GameState::legal_takes() const {
  std::vector<Face> faces;
  if (phase_ != Phase::kTake) return faces;
  for (Face face : kTakeFaces) {
    if (IsLegal(aside_, roll_, face)) faces.push_back(face);
  }
  return faces;
}

std::vector<int> GameState::winners() const {
  std::vector<int> seats;
  if (!over()) return seats;
  for (int seat = 0; seat < players(); ++seat) {
    if (WinShare(context_.scores, seat) > 0.0) seats.push_back(seat);  // the rule's leaders
  }
  return seats;
}

// "cannot take now: the game waits for seat 0 to roll (a turn starts with a roll)"
absl::Status GameState::Expect(Phase phase, std::string_view move) const {
  if (phase_ == phase) return absl::OkStatus();
  std::string waits;
  const int seat = context_.seat;
  switch (phase_) {
    case Phase::kRoll:
      waits = aside_.empty() ? absl::StrCat("seat ", seat, " to roll (a turn starts with a roll)")
                             : absl::StrCat("seat ", seat, " to roll the ", dice_left(),
                                            dice_left() == 1 ? " die left" : " dice left");
      break;
    case Phase::kTake:
      waits = absl::StrCat("seat ", seat, " to take from the roll ", FormatDice(roll_),
                           " (legal: ", FaceList(legal_takes()), ")");
      break;
    case Phase::kStopOrRoll:
      waits = absl::StrCat("seat ", seat, " to stop or roll on");
      break;
    case Phase::kOver:
      return absl::InvalidArgumentError(
          absl::StrCat("cannot ", std::string(move), ": the game is over"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("cannot ", std::string(move), " now: the game waits for ", waits));
}

MoveResult GameState::FinishTurn(int score, TurnEndReason reason) {
  TurnEnd end;
  end.seat = context_.seat;
  end.score = score;
  end.aside = aside_;
  end.reason = reason;
  context_.scores[context_.seat] += score;
  aside_ = Dice();
  before_roll_ = Dice();
  roll_ = Dice();
  if (GameEndsAfterTurn(rules_, context_.scores, context_.seat)) {
    phase_ = Phase::kOver;
    end.game_over = true;
  } else {
    context_.seat = (context_.seat + 1) % players();
    phase_ = Phase::kRoll;
  }
  return MoveResult{end};
}

absl::StatusOr<MoveResult> GameState::Roll(const Dice& roll) {
  if (absl::Status status = Expect(Phase::kRoll, "roll"); !status.ok()) return status;
  if (absl::Status status = ValidateRoll(rules_, aside_, roll); !status.ok()) return status;
  before_roll_ = aside_;
  aside_.add(Face::kTank, roll.count(Face::kTank));
  roll_ = roll;
  phase_ = Phase::kTake;
  for (Face face : kTakeFaces) {
    if (IsLegal(aside_, roll_, face)) return MoveResult{};
  }
  return FinishTurn(turn_score(), TurnEndReason::kNoLegalTake);
}

absl::StatusOr<MoveResult> GameState::Take(Face face) {
  if (absl::Status status = Expect(Phase::kTake, "take"); !status.ok()) return status;
  if (!IsFace(face)) {
    return absl::InvalidArgumentError(absl::StrCat("take: ", static_cast<int>(face),
                                                   " is not a face (0 to 4: tank, ray, human, "
                                                   "cow, chicken)"));
  }
  if (!IsLegal(aside_, roll_, face)) {
    const std::string legal = absl::StrCat(" (legal: ", FaceList(legal_takes()), ")");
    if (face == Face::kTank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tanks are set aside automatically; take a ray, human, cow or chicken", legal));
    }
    if (roll_.count(face) == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("the roll ", FormatDice(roll_), " shows no ", Plural(face), legal));
    }
    return absl::InvalidArgumentError(
        absl::StrCat(Plural(face), " are already set aside this turn", legal));
  }
  aside_.add(face, roll_.count(face));
  roll_ = Dice();
  before_roll_ = Dice();
  if (dice_left() == 0) return FinishTurn(turn_score(), TurnEndReason::kNoDiceLeft);
  phase_ = Phase::kStopOrRoll;
  return MoveResult{};
}

absl::StatusOr<MoveResult> GameState::Stop() {
  if (absl::Status status = Expect(Phase::kStopOrRoll, "stop"); !status.ok()) return status;
  return FinishTurn(turn_score(), TurnEndReason::kStopped);
}

absl::StatusOr<MoveResult> GameState::RollOn() {
  if (absl::Status status = Expect(Phase::kStopOrRoll, "roll on"); !status.ok()) return status;
  phase_ = Phase::kRoll;
  return MoveResult{};
}

absl::StatusOr<MoveResult> GameState::EndTurn(int points) {
  constexpr std::string_view kMove = "enter a whole turn";
  if (absl::Status status = Expect(Phase::kRoll, kMove); !status.ok()) return status;
  if (!aside_.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot ", std::string(kMove), " now: seat ", context_.seat,
                     "'s turn is in progress (set aside ", FormatDice(aside_),
                     "); the game waits for its roll"));
  }
  if (!IsTurnScore(rules_, points)) {
    std::string scores = absl::StrCat("0 to ", rules_.dice);
    if (rules_.bonus > 0 && rules_.dice >= 3) {  // the bonus needs three earthlings
      absl::StrAppend(&scores, ", or ", 3 + rules_.bonus);
      if (rules_.dice > 3) absl::StrAppend(&scores, " to ", rules_.dice + rules_.bonus);
      absl::StrAppend(&scores, " with the bonus");
    }
    return absl::InvalidArgumentError(
        absl::StrCat(points, " points is not a score a turn can have (", scores, ")"));
  }
  return FinishTurn(points, TurnEndReason::kEntered);
}

absl::StatusOr<MoveResult> GameState::Apply(const Move& move) {
  switch (move.kind) {
    case Move::Kind::kRoll:
      return Roll(move.dice);
    case Move::Kind::kTake:
      return Take(move.face);
    case Move::Kind::kStop:
      return Stop();
    case Move::Kind::kRollOn:
      return RollOn();
    case Move::Kind::kEndTurn:
      return EndTurn(move.points);
  }
  return absl::InvalidArgumentError("unknown move kind");
}

DiceRng SeededRng(std::uint64_t seed, std::int64_t game) {
  // SplitMix64's finaliser over the seed and the game number.
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(game) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return DiceRng(z ^ (z >> 31));
}

namespace {

// UniformBelow, inlined (with a constant `n`, the divisions are multiplications).
inline std::uint64_t DrawBelow(DiceRng& rng, std::uint64_t n) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t limit = kMax - kMax % n;
  std::uint64_t r = rng();
  while (r >= limit) r = rng();
  return r % n;
}

}  // namespace

std::uint64_t UniformBelow(DiceRng& rng, std::uint64_t n) { return DrawBelow(rng, n); }

Dice RollDice(int dice, DiceRng& rng) {
  static constexpr std::array<Face, kDieSides> kSides = {Face::kTank,  Face::kRay, Face::kRay,
                                                         Face::kHuman, Face::kCow, Face::kChicken};
  Dice roll;
  for (int i = 0; i < dice; ++i) roll.add(kSides[DrawBelow(rng, kDieSides)], 1);
  return roll;
}

int PointsNeeded(const Rules& rules, const GameContext& context) {
  return internal::FallbackTurnAt(rules, context).needed;
}

}  // namespace martiandice
