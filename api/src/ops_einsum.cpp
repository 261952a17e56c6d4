// jnp.einsum and jnp.flip (composites.h): einsum as diagonals, sums and a sequence of
// dot_generals, the pair contracted next chosen greedily by result size.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"

namespace strata {

Array flip(const Array& x, Axes axes, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "flip");
  IntList dims = api::normalize_axes("flip", axes, av);
  if (dims.empty()) return x;
  return lax::bind1(prim::kRev, {x}, Params{{"dimensions", dims}}, loc);
}

namespace {

// An operand with one label a dimension: letters are their char code, the `...` dimensions
// negative (-1 the last of them), so that they align from the right as NumPy broadcasts.
struct Term {
  Array x;
  std::vector<int> labels;
};

std::string label_name(int l) { return l >= 0 ? std::string(1, static_cast<char>(l)) : "..."; }

// Parses one operand's subscripts against its rank.
std::vector<int> parse_term(const std::string& s, int64_t rank, int& ellipsis_rank, size_t which) {
  std::vector<int> letters;
  int ellipsis_at = -1;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 3, "...") == 0) {
      if (ellipsis_at >= 0) throw ValueError("einsum: operand " + std::to_string(which) + " has two ellipses in '" + s + "'");
      ellipsis_at = static_cast<int>(letters.size());
      i += 2;
    } else if (std::isalpha(static_cast<unsigned char>(s[i]))) {
      letters.push_back(s[i]);
    } else {
      throw ValueError("einsum: unexpected character '" + std::string(1, s[i]) + "' in subscripts '" + s + "'");
    }
  }
  // rank < 0: the output, whose `...` is every operand's broadcast `...` dimensions.
  int64_t ell = rank < 0 ? (ellipsis_at >= 0 ? ellipsis_rank : 0) : rank - static_cast<int64_t>(letters.size());
  if (ell < 0 || (ellipsis_at < 0 && ell != 0))
    throw ValueError("einsum: operand " + std::to_string(which) + " has rank " + std::to_string(rank) + " but subscripts '" +
                     s + "'");
  std::vector<int> labels;
  for (int i = 0; i <= static_cast<int>(letters.size()); ++i) {
    if (i == ellipsis_at)
      for (int64_t e = ell; e > 0; --e) labels.push_back(static_cast<int>(-e));
    if (i < static_cast<int>(letters.size())) labels.push_back(letters[i]);
  }
  ellipsis_rank = std::max(ellipsis_rank, static_cast<int>(ell));
  return labels;
}

// Sums away the labels of t that `keep` does not hold, after taking diagonals of repeated ones.
void reduce_term(Term& t, const std::set<int>& keep, const SourceLocation& loc) {
  for (bool again = true; again;) {  // diagonals: x * eye over the pair, summed over the second
    again = false;
    for (size_t i = 0; i < t.labels.size() && !again; ++i)
      for (size_t j = i + 1; j < t.labels.size() && !again; ++j) {
        if (t.labels[i] != t.labels[j]) continue;
        const Shape& s = t.x.shape();
        Shape es(s.size(), 1);
        es[i] = s[i];
        es[j] = s[j];
        Array ri = lax::bind1(prim::kIota, {}, Params{{"dtype", DType::i32}, {"shape", IntList(es.begin(), es.end())}, {"dimension", int64_t(i)}}, loc);
        Array rj = lax::bind1(prim::kIota, {}, Params{{"dtype", DType::i32}, {"shape", IntList(es.begin(), es.end())}, {"dimension", int64_t(j)}}, loc);
        Array eye = api::convert(equal(ri, rj, loc), {t.x.dtype(), false}, loc);
        t.x = lax::reduce_sum(multiply(t.x, eye, loc), {static_cast<int64_t>(j)}, loc);
        t.labels.erase(t.labels.begin() + static_cast<long>(j));
        again = true;
      }
  }
  IntList axes;
  std::vector<int> kept;
  for (size_t i = 0; i < t.labels.size(); ++i) {
    if (keep.count(t.labels[i])) kept.push_back(t.labels[i]);
    else axes.push_back(static_cast<int64_t>(i));
  }
  if (!axes.empty()) t.x = lax::reduce_sum(t.x, axes, loc);
  t.labels = kept;
}

// The labels still needed after operands `a` and `b` are combined: the output's and those of
// every other operand.
std::set<int> needed(const std::vector<Term>& terms, size_t a, size_t b, const std::vector<int>& out) {
  std::set<int> keep(out.begin(), out.end());
  for (size_t i = 0; i < terms.size(); ++i)
    if (i != a && i != b) keep.insert(terms[i].labels.begin(), terms[i].labels.end());
  return keep;
}

Term contract(const Term& l, const Term& r, const std::set<int>& keep, const SourceLocation& loc) {
  IntList lb, rb, lc, rc;
  std::vector<int> labels;
  for (size_t i = 0; i < l.labels.size(); ++i) {
    auto it = std::find(r.labels.begin(), r.labels.end(), l.labels[i]);
    if (it == r.labels.end()) continue;
    int64_t j = it - r.labels.begin();
    if (keep.count(l.labels[i])) {
      lb.push_back(static_cast<int64_t>(i));
      rb.push_back(j);
      labels.push_back(l.labels[i]);
    } else {
      lc.push_back(static_cast<int64_t>(i));
      rc.push_back(j);
    }
  }
  for (int v : l.labels)
    if (std::find(r.labels.begin(), r.labels.end(), v) == r.labels.end()) labels.push_back(v);
  for (int v : r.labels)
    if (std::find(l.labels.begin(), l.labels.end(), v) == l.labels.end()) labels.push_back(v);
  TypeSpec t = promote_types(api::spec(l.x, "einsum"), api::spec(r.x, "einsum"));
  return {lax::dot_general(api::convert(l.x, t, loc), api::convert(r.x, t, loc), lc, rc, lb, rb, loc), labels};
}

}  // namespace

Array einsum(const std::string& subscripts, const std::vector<Array>& operands, SourceLocation loc) {
  std::string spec;
  for (char c : subscripts)
    if (!std::isspace(static_cast<unsigned char>(c))) spec.push_back(c);
  size_t arrow = spec.find("->");
  std::string lhs = spec.substr(0, arrow);
  std::vector<std::string> inputs;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    inputs.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (inputs.size() != operands.size())
    throw ValueError("einsum: subscripts '" + subscripts + "' name " + std::to_string(inputs.size()) + " operands, but got " +
                     std::to_string(operands.size()));
  std::vector<Term> terms;
  int ellipsis_rank = 0;
  for (size_t i = 0; i < operands.size(); ++i) {
    const AbstractValue& av = api::aval(operands[i], "einsum");
    terms.push_back({operands[i], parse_term(inputs[i], static_cast<int64_t>(av.shape.size()), ellipsis_rank, i)});
  }
  // Each label's size; size-1 dimensions broadcast (NumPy), others must agree.
  std::map<int, int64_t> size;
  for (size_t i = 0; i < terms.size(); ++i)
    for (size_t d = 0; d < terms[i].labels.size(); ++d) {
      int64_t n = terms[i].x.shape()[d];
      auto [it, fresh] = size.emplace(terms[i].labels[d], n);
      if (fresh || it->second == n || n == 1) continue;
      if (it->second != 1)
        throw ShapeError("einsum: label '" + label_name(terms[i].labels[d]) + "' has size " + std::to_string(it->second) +
                         " and " + std::to_string(n) + " (operand " + std::to_string(i) + ", " + api::aval(terms[i].x, "einsum").str() + ")");
      it->second = n;
    }
  std::vector<int> out;
  if (arrow == std::string::npos) {  // implicit: the `...` dimensions, then labels used once, sorted
    std::map<int, int> count;
    for (const Term& t : terms)
      for (int l : t.labels) count[l] += 1;
    for (int e = ellipsis_rank; e > 0; --e) out.push_back(-e);
    for (auto [l, c] : count)
      if (l >= 0 && c == 1) out.push_back(l);
  } else {
    int out_ellipsis = ellipsis_rank;
    out = parse_term(spec.substr(arrow + 2), -1, out_ellipsis, operands.size());
  }
  for (Term& t : terms) {  // broadcast size-1 dimensions up front
    Shape s = t.x.shape(), want = s;
    for (size_t d = 0; d < s.size(); ++d) want[d] = size[t.labels[d]];
    if (want != s) t.x = broadcast_to(t.x, want, loc);
  }
  for (size_t i = 0; i < terms.size(); ++i) reduce_term(terms[i], needed(terms, i, i, out), loc);
  while (terms.size() > 1) {
    size_t best_a = 0, best_b = 1;
    double best = -1;
    for (size_t a = 0; a < terms.size(); ++a)
      for (size_t b = a + 1; b < terms.size(); ++b) {
        std::set<int> keep = needed(terms, a, b, out), labels(terms[a].labels.begin(), terms[a].labels.end());
        labels.insert(terms[b].labels.begin(), terms[b].labels.end());
        double result = 1;
        for (int l : labels)
          if (keep.count(l)) result *= static_cast<double>(size[l]);
        if (best < 0 || result < best) best = result, best_a = a, best_b = b;
      }
    Term t = contract(terms[best_a], terms[best_b], needed(terms, best_a, best_b, out), loc);
    terms.erase(terms.begin() + static_cast<long>(best_b));
    terms[best_a] = std::move(t);
    reduce_term(terms[best_a], needed(terms, best_a, best_a, out), loc);
  }
  Term& t = terms[0];
  reduce_term(t, std::set<int>(out.begin(), out.end()), loc);
  std::vector<int> perm;
  for (int l : out) {
    auto it = std::find(t.labels.begin(), t.labels.end(), l);
    if (it == t.labels.end()) throw ValueError("einsum: output label '" + label_name(l) + "' appears in no operand of '" + subscripts + "'");
    perm.push_back(static_cast<int>(it - t.labels.begin()));
  }
  if (perm.size() != t.labels.size()) throw ValueError("einsum: output subscripts of '" + subscripts + "' repeat a label");
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int>(i);
  return identity ? t.x : transpose(t.x, perm, loc);
}

}  // namespace strata
