// Table certification: enumerates, per context, every decision over canonical
// positions and roll outcomes, measures each margin from the stored numbers as
// a reader sees them, and re-verifies the ties with exact rational solves.
#include "certify.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "martiandice/game.h"
#include "table_data.h"
#include "turn_model.h"

namespace martiandice::solver {
namespace {

using internal::TableData;
using internal::TurnModel;

// A decision found tied in doubles that needs an exact look: two positions'
// values (a position's value is max(stop, roll)), or a position's stop
// against its roll (b == -1).
struct NearTie {
  int a, b;
};

class Certifier {
 public:
  Certifier(const TableData& d, CertificationReport* report)
      : d_(d), model_(TurnModel::Get(d.rules)), report_(report) {
    report_->tie_tolerance = d.tie_tolerance;
    report_->error_bound = d.error_bound;
    report_->smallest_margin = HUGE_VAL;
  }

  void Run() {
    for (int seat = 0; seat < d_.players; ++seat) ForEachContext(seat);
    report_->margin_threshold = 2 * d_.error_bound;
    report_->certified =
        report_->smallest_margin > report_->margin_threshold && report_->inexact_ties == 0;
  }

 private:
  // Visits every context of mover `seat` (docs/FORMAT.md index order).
  void ForEachContext(int seat) {
    const int p = d_.players;
    std::vector<int> scores(p, 0);
    for (;;) {
      CertifyContext(seat, scores);
      int j = p - 1;
      for (; j >= 0; --j) {
        const int radix = j < seat ? d_.score_limit : d_.rules.target;
        if (++scores[j] < radix) break;
        scores[j] = 0;
      }
      if (j < 0) return;
    }
  }

  // u(x) for x = 0..M, as a reader computes it (docs/FORMAT.md step 1).
  std::vector<double> Utility(int seat, const std::vector<int>& scores) const {
    const int p = d_.players;
    bool final_round = false;
    for (int j = 0; j < seat; ++j) final_round |= scores[j] >= d_.rules.target;
    std::vector<double> u;
    for (int x = 0; x <= d_.max_turn_score; ++x) {
      std::vector<int> s = scores;
      s[seat] += x;
      if (seat == p - 1 && (final_round || s[seat] >= d_.rules.target)) {
        int top = *std::max_element(s.begin(), s.end());
        u.push_back(s[seat] == top ? 1.0 / std::count(s.begin(), s.end(), top) : 0.0);
      } else {
        u.push_back(d_.Win(d_.ContextIndex(s, (seat + 1) % p))[seat]);
      }
    }
    return u;
  }

  void CertifyContext(int seat, const std::vector<int>& scores) {
    ++report_->contexts;
    const std::int64_t context = d_.ContextIndex(scores, seat);
    std::vector<double> u = Utility(seat, scores);
    // Stop, roll and value of every canonical position, from the table.
    const int n = model_->size();
    stop_.assign(n, 0);
    roll_.assign(n, NAN);
    value_.assign(n, 0);
    const int start = model_->Id(0, 0, 0, 0, 0);
    for (int id = 0; id < n; ++id) {
      const internal::CanonState& s = model_->state(id);
      stop_[id] = u[s.score];
      if (id == start) {
        roll_[id] = d_.Win(context)[seat];
      } else if (s.left > 0) {
        int slot = d_.Slot(s.tanks, s.rays, s.earth[0], s.earth[1], s.earth[2]);
        roll_[id] = s.tanks > s.rays + s.left ? u[0] : (slot >= 0 ? d_.Roll(context, slot) : NAN);
      }
      value_[id] = std::isnan(roll_[id]) ? stop_[id] : std::max(stop_[id], roll_[id]);
    }
    near_.clear();
    for (int id = 0; id < n; ++id) {
      const internal::CanonState& s = model_->state(id);
      if (id != start && s.left > 0 && s.rays + s.earth[0] > 0) {
        Decide(std::abs(stop_[id] - roll_[id]), false, NearTie{id, -1});
      }
      if (s.left > 0) TakeDecisions(id);
    }
    if (!near_.empty()) VerifyExactly(u);
  }

  // Every roll outcome's take decision at group `g` (position after the tanks):
  // q other dice over the untaken types and blanks, rays for the rest.
  void TakeDecisions(int g) {
    const internal::CanonState& s = model_->state(g);
    const int j = s.untaken;
    for (int q = 0; q <= s.left; ++q) {
      const int ray_child = model_->RayChild(g, q);
      for (int c0 = 0; c0 <= (j >= 1 ? q : 0); ++c0) {
        for (int c1 = 0; c1 <= (j >= 2 ? q - c0 : 0); ++c1) {
          for (int c2 = 0; c2 <= (j >= 3 ? q - c0 - c1 : 0); ++c2) {
            if (j == 3 && c0 + c1 + c2 < q) continue;  // no blanks without a taken type
            int options[4], count = 0;
            if (ray_child >= 0) options[count++] = ray_child;
            for (int c : {c0, c1, c2}) {
              if (c > 0) options[count++] = model_->EarthChild(g, c);
            }
            if (count >= 2) CompareOptions(options, count);
          }
        }
      }
    }
  }

  void CompareOptions(const int* options, int count) {
    const BestAndSecondOptions pick = BestAndSecond(value_, options, count);
    const int best = options[pick.best], second = options[pick.second];
    Decide(value_[best] - value_[second], best == second, NearTie{best, second});
  }

  void Decide(double gap, bool symmetric, NearTie tie) {
    ++report_->decisions;
    if (gap > d_.tie_tolerance) {
      report_->smallest_margin = std::min(report_->smallest_margin, gap);
      return;
    }
    ++report_->ties;
    if (symmetric) {
      ++report_->symmetric_ties;
    } else {
      near_.push_back(tie);
    }
  }

  // Phase "exact re-verification": the context's turn solved with rationals
  // from the same utilities (doubles are rationals); a tie stands if the
  // exact values are equal.
  void VerifyExactly(const std::vector<double>& u) {
    auto it = exact_cache_.find(u);
    if (it == exact_cache_.end()) {
      ++report_->exact_solves;
      if (exact_cache_.size() >= 64) exact_cache_.clear();  // bounded memory
      std::vector<Rational> exact_u(u.begin(), u.end());
      it = exact_cache_.emplace(u, internal::SolveExact(*model_, exact_u)).first;
    }
    const internal::ExactTurnValues& e = it->second;
    for (const NearTie& t : near_) {
      Rational a = t.b < 0 ? Stop(e, t.a) : Value(e, t.a);
      Rational b = t.b < 0 ? Roll(e, t.a) : Value(e, t.b);
      if (a == b) {
        ++report_->exact_ties;
      } else {
        ++report_->inexact_ties;
        double gap = std::abs((a - b).convert_to<double>());
        report_->largest_inexact_gap = std::max(report_->largest_inexact_gap, gap);
      }
    }
  }

  Rational Stop(const internal::ExactTurnValues& e, int id) const {
    return Rational(e.utility[model_->state(id).score], e.denominator);
  }
  Rational Roll(const internal::ExactTurnValues& e, int id) const {
    BigInt den = e.denominator;
    for (int i = TurnModel::DenominatorExponent(model_->state(id).left); i > 0; --i) den *= 6;
    return Rational(e.roll[id], den);
  }
  Rational Value(const internal::ExactTurnValues& e, int id) const {
    Rational stop = Stop(e, id);
    if (model_->state(id).left == 0) return stop;
    Rational roll = Roll(e, id);
    return roll > stop ? roll : stop;
  }

  const TableData& d_;
  std::shared_ptr<const TurnModel> model_;
  CertificationReport* report_;
  std::vector<double> stop_, roll_, value_;
  std::vector<NearTie> near_;
  std::map<std::vector<double>, internal::ExactTurnValues> exact_cache_;
};

}  // namespace

BestAndSecondOptions BestAndSecond(const std::vector<double>& values, const int* options,
                                   int count) {
  int best = 0;
  for (int i = 1; i < count; ++i) {
    if (values[options[i]] > values[options[best]]) best = i;
  }
  int second = -1;
  for (int i = 0; i < count; ++i) {
    if (i != best && (second < 0 || values[options[i]] > values[options[second]])) second = i;
  }
  return {best, second};
}

absl::StatusOr<CertificationReport> CertifyTable(const std::string& bytes) {
  absl::StatusOr<GameTable> table = GameTable::FromBytes(bytes);
  if (!table.ok()) return table.status();
  return CertifyTable(*table);
}

absl::StatusOr<CertificationReport> CertifyTable(const GameTable& table) {
  if (table.format_version() != 1) {  // no stored roll values to certify
    return absl::UnimplementedError(
        "certification reads the roll values of a format version 1 table; this one has none");
  }
  auto begin = std::chrono::steady_clock::now();
  CertificationReport report;
  Certifier(table.data(), &report).Run();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return report;
}

}  // namespace martiandice::solver
