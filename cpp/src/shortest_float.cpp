// shortest_float.cpp - shortest round-trip float text with exact integer
// arithmetic (laige/detail/shortest_float.h).
//
// The value is m * 2^e exactly. Scaled so that value / 10^X = R / S with
// R / S in [1, 10), the digits come one at a time (d = floor(R / S), then
// R -= d * S, R *= 10): after n digits the value is (prefix + R / S) units
// of 10^(X - n + 1). Half the gap to the neighbouring doubles above and
// below, M+ / S and M- / S in the same units, tell whether a candidate reads
// back: the prefix itself when R < M- (or R == M- and m is even: a decimal
// exactly halfway between two doubles reads as the even one), the prefix
// plus one unit when S - R < M+ (or equal and m even). For n = 1, 2, ...
// the candidate is the n-digit decimal nearest to the value (ties to even);
// when it does not read back, the next decimal up (which can, at a power of
// two, where the gap below is half the gap above). The first that reads
// back is the answer: the same digits as the correctly rounded printf
// "%.*e" checked with strtod, which this replaces.
#include "laige/detail/shortest_float.h"

#include <cstdint>
#include <cstring>

namespace laige::detail {

namespace {

// An unsigned integer of up to 40 x 32 bits, little-endian words. The
// largest value the algorithm builds is below 2^1150 (S for the smallest
// subnormal: 2^1076 times 10 per digit step stays on R and M+-, which stay
// below 10 S and 2^60 S), so 1280 bits never overflow.
struct Big {
  static constexpr int kWords = 40;
  std::uint32_t w[kWords];
  int n = 0;  // words in use; w[n - 1] != 0 unless n == 0

  void set(std::uint64_t v) noexcept {
    n = 0;
    while (v != 0) {
      w[n++] = static_cast<std::uint32_t>(v);
      v >>= 32;
    }
  }
  void mulSmall(std::uint32_t m) noexcept {
    std::uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t t = std::uint64_t{w[i]} * m + carry;
      w[i] = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    if (carry != 0 && n < kWords) w[n++] = static_cast<std::uint32_t>(carry);
  }
  void mulPow10(int k) noexcept {
    for (; k >= 9; k -= 9) mulSmall(1000000000u);
    static constexpr std::uint32_t kPow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    if (k > 0) mulSmall(kPow10[k]);
  }
  void shiftLeft(int bits) noexcept {
    if (n == 0) return;
    const int words = bits / 32;
    const int rest = bits % 32;
    int top = n + words + 1;
    if (top > kWords) top = kWords;
    for (int i = top - 1; i >= 0; --i) {
      const int src = i - words;
      std::uint32_t v = 0;
      if (src >= 0 && src < n) v = w[src] << rest;
      if (rest != 0 && src - 1 >= 0 && src - 1 < n) v |= w[src - 1] >> (32 - rest);
      w[i] = v;
    }
    n = top;
    while (n > 0 && w[n - 1] == 0) --n;
  }
  // *this -= b (b <= *this).
  void sub(const Big& b) noexcept {
    std::int64_t borrow = 0;
    for (int i = 0; i < n; ++i) {
      std::int64_t t = static_cast<std::int64_t>(w[i]) - borrow - (i < b.n ? static_cast<std::int64_t>(b.w[i]) : 0);
      borrow = t < 0 ? 1 : 0;
      w[i] = static_cast<std::uint32_t>(t + (borrow << 32));
    }
    while (n > 0 && w[n - 1] == 0) --n;
  }
  // The remainder of *this / d; *this becomes the quotient.
  std::uint32_t divSmall(std::uint32_t d) noexcept {
    std::uint64_t r = 0;
    for (int i = n - 1; i >= 0; --i) {
      const std::uint64_t t = (r << 32) | w[i];
      w[i] = static_cast<std::uint32_t>(t / d);
      r = t % d;
    }
    while (n > 0 && w[n - 1] == 0) --n;
    return static_cast<std::uint32_t>(r);
  }
};

// a + b (no capacity concern: a, b < 2^1200).
Big sum(const Big& a, const Big& b) noexcept {
  Big r;
  const int n = a.n > b.n ? a.n : b.n;
  std::uint64_t carry = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t t = std::uint64_t{i < a.n ? a.w[i] : 0u} + (i < b.n ? b.w[i] : 0u) + carry;
    r.w[i] = static_cast<std::uint32_t>(t);
    carry = t >> 32;
  }
  r.n = n;
  if (carry != 0 && n < Big::kWords) r.w[r.n++] = static_cast<std::uint32_t>(carry);
  return r;
}

// -1, 0, 1 as a <, ==, > b.
int compare(const Big& a, const Big& b) noexcept {
  if (a.n != b.n) return a.n < b.n ? -1 : 1;
  for (int i = a.n - 1; i >= 0; --i) {
    if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
  }
  return 0;
}

// A positive finite value m * 2^e; `lowerCloser`: m is the smallest
// mantissa of its binade (not the lowest binade), so the double below is
// half as far as the one above.
struct Decoded {
  std::uint64_t m;
  int e;
  bool lowerCloser;
};

int bitLength(std::uint64_t v) noexcept {
  int n = 0;
  for (; v != 0; v >>= 1) ++n;
  return n;
}

// Digits (no dot) and the decimal exponent of the first one.
struct Digits {
  char d[24];
  int n;
  int exponent;
};

Digits shortestDigits(const Decoded& v, int maxDigits) noexcept {
  Big r, s, mPlus, mMinus;
  // value = R / S, M+ / S = half the gap above, M- / S = half the gap below; all times 4.
  if (v.e >= 0) {
    r.set(v.m);
    r.shiftLeft(v.e + 2);
    s.set(4);
    mPlus.set(2);
    mPlus.shiftLeft(v.e);
    mMinus.set(v.lowerCloser ? 1 : 2);
    mMinus.shiftLeft(v.e);
  } else {
    r.set(v.m * 4);
    s.set(1);
    s.shiftLeft(2 - v.e);
    mPlus.set(2);
    mMinus.set(v.lowerCloser ? 1 : 2);
  }
  // X ~ floor(log10(value)) from floor(log2(value)) (1233 / 4096 ~ log10(2)), then exact.
  const int log2 = v.e + bitLength(v.m) - 1;
  int x = (log2 * 1233) >> 12;
  if (x >= 0) {
    s.mulPow10(x);
  } else {
    r.mulPow10(-x);
    mPlus.mulPow10(-x);
    mMinus.mulPow10(-x);
  }
  Big ten = s;
  ten.mulSmall(10);
  while (compare(r, ten) >= 0) {
    s.mulSmall(10);
    ten.mulSmall(10);
    ++x;
  }
  while (compare(r, s) < 0) {
    r.mulSmall(10);
    mPlus.mulSmall(10);
    mMinus.mulSmall(10);
    --x;
  }
  const bool even = (v.m & 1) == 0;
  Digits out{};
  out.exponent = x;
  for (int n = 1; n <= maxDigits; ++n) {
    if (n > 1) {
      r.mulSmall(10);
      mPlus.mulSmall(10);
      mMinus.mulSmall(10);
    }
    int digit = 0;
    while (compare(r, s) >= 0) {
      r.sub(s);
      ++digit;
    }
    out.d[n - 1] = static_cast<char>('0' + digit);
    out.n = n;
    const int half = compare(sum(r, r), s);
    const bool nearestIsUp = half > 0 || (half == 0 && (digit & 1) != 0);
    const int low = compare(r, mMinus);
    const bool downReadsBack = low < 0 || (low == 0 && even);
    const int high = compare(sum(r, mPlus), s);
    const bool upReadsBack = high > 0 || (high == 0 && even);
    // The nearest first; when it is the prefix and fails, the next one up.
    // (When the nearest is the one up and fails, the next up, farther
    // still from the value on the same side, fails too.) 17 digits (9 for
    // a float) always read back.
    bool up = false;
    if (nearestIsUp ? upReadsBack : downReadsBack) {
      up = nearestIsUp;
    } else if (!nearestIsUp && upReadsBack) {
      up = true;
    } else if (n < maxDigits) {
      continue;
    } else {
      up = nearestIsUp;
    }
    if (up) {
      int i = n - 1;
      for (; i >= 0 && out.d[i] == '9'; --i) out.d[i] = '0';
      if (i < 0) {
        out.d[0] = '1';
        ++out.exponent;
      } else {
        ++out.d[i];
      }
    }
    break;
  }
  while (out.n > 1 && out.d[out.n - 1] == '0') --out.n;
  return out;
}

// The exact decimal digits of the integer m * 2^e (< 10^22 here); returns the count.
int integerDigits(const Decoded& v, char* out) noexcept {
  Big b;
  // e < 0: the value is below 2^53, and an integer, so m has -e (< 53) low zero bits.
  b.set(v.e < 0 ? v.m >> -v.e : v.m);
  if (v.e > 0) b.shiftLeft(v.e);
  char rev[32];
  int n = 0;
  do {
    rev[n++] = static_cast<char>('0' + b.divSmall(10));
  } while (b.n != 0 && n < 32);
  for (int i = 0; i < n; ++i) out[i] = rev[n - 1 - i];
  return n;
}

int putExponent(char* out, int exponent) noexcept {
  int len = 0;
  out[len++] = 'e';
  out[len++] = exponent < 0 ? '-' : '+';
  const int e = exponent < 0 ? -exponent : exponent;
  if (e >= 100) out[len++] = static_cast<char>('0' + e / 100);
  out[len++] = static_cast<char>('0' + e / 10 % 10);
  out[len++] = static_cast<char>('0' + e % 10);
  return len;
}

std::size_t layout(bool negative, const Decoded* v, int maxDigits, char* out, std::size_t cap) noexcept {
  char result[48];
  int len = 0;
  if (negative) result[len++] = '-';
  if (v == nullptr) {
    result[len++] = '0';
  } else {
    const Digits g = shortestDigits(*v, maxDigits);
    const int n = g.n;
    const int exponent = g.exponent;
    const int sciLength = n + (n > 1 ? 1 : 0) + (exponent <= -100 || exponent >= 100 ? 5 : 4);
    const int fixedLength = exponent >= n - 1 ? exponent + 1 : (exponent >= 0 ? n + 1 : n + 1 - exponent);
    if (fixedLength > sciLength) {
      result[len++] = g.d[0];
      if (n > 1) {
        result[len++] = '.';
        std::memcpy(result + len, g.d + 1, static_cast<std::size_t>(n - 1));
        len += n - 1;
      }
      len += putExponent(result + len, exponent);
    } else if (exponent >= n - 1) {
      len += integerDigits(*v, result + len);
    } else if (exponent >= 0) {
      std::memcpy(result + len, g.d, static_cast<std::size_t>(exponent + 1));
      len += exponent + 1;
      result[len++] = '.';
      std::memcpy(result + len, g.d + exponent + 1, static_cast<std::size_t>(n - exponent - 1));
      len += n - exponent - 1;
    } else {
      result[len++] = '0';
      result[len++] = '.';
      for (int z = 0; z < -exponent - 1; ++z) result[len++] = '0';
      std::memcpy(result + len, g.d, static_cast<std::size_t>(n));
      len += n;
    }
  }
  const std::size_t size = static_cast<std::size_t>(len) < cap ? static_cast<std::size_t>(len) : cap;
  std::memcpy(out, result, size);
  return size;
}

}  // namespace

std::size_t shortestDouble(double value, char* out, std::size_t cap) noexcept {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const bool negative = (bits >> 63) != 0;
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  if (biased == 0 && fraction == 0) return layout(negative, nullptr, 17, out, cap);
  Decoded v;
  v.m = biased == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
  v.e = (biased == 0 ? 1 : biased) - 1075;
  v.lowerCloser = fraction == 0 && biased > 1;
  return layout(negative, &v, 17, out, cap);
}

std::size_t shortestFloat(float value, char* out, std::size_t cap) noexcept {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const bool negative = (bits >> 31) != 0;
  const std::uint32_t fraction = bits & ((1u << 23) - 1);
  const int biased = static_cast<int>((bits >> 23) & 0xff);
  if (biased == 0 && fraction == 0) return layout(negative, nullptr, 9, out, cap);
  Decoded v;
  v.m = biased == 0 ? fraction : fraction | (1u << 23);
  v.e = (biased == 0 ? 1 : biased) - 150;
  v.lowerCloser = fraction == 0 && biased > 1;
  return layout(negative, &v, 9, out, cap);
}

}  // namespace laige::detail
