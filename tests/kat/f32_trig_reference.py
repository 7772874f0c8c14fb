#!/usr/bin/env python3
"""Correctly rounded binary32 sin, cos and tan of the large and edge
arguments of the known-answer table (its last section: the rows after the
line starting "# f32 sin, cos, tan of large"), computed independently of
laige: pi from Machin's formula in exact integers, the argument reduced
exactly, sin and cos by their Taylor series in 1400-bit fixed point, and
one rounding to nearest-even binary32. Pure Python 3 (no packages).

    python3 tests/kat/f32_trig_reference.py > tests/kat/f32_trig_reference.txt

The output has the table's row format ("f32 sin <x> = <result>", hex bits),
so the same checkers read it: tests/cpp/sim_math_trig_range_test.cpp and
tests/ts/fx_math.test.ts require every laige result to be this one.
"""
import os
import sys

BITS = 1400  # fixed-point fraction bits of every intermediate value
MARK = '# f32 sin, cos, tan of large'


def arctan_inv(n: int, bits: int) -> int:
    """arctan(1/n) * 2^bits, truncated term by term (error < a few units)."""
    x = (1 << bits) // n
    total, k, sign, n2 = x, 1, -1, n * n
    while x:
        x //= n2
        total += sign * (x // (2 * k + 1))
        sign, k = -sign, k + 1
    return total


GUARD = 64
PI = (4 * (4 * arctan_inv(5, BITS + GUARD) - arctan_inv(239, BITS + GUARD))) >> GUARD  # pi * 2^BITS
ONE = 1 << BITS


def exact(b: int):
    """The float with bits b as (sign, m, e): value = sign * m * 2^e."""
    sign = -1 if b >> 31 else 1
    be = (b >> 23) & 0xFF
    frac = b & 0x7FFFFF
    if be == 0:
        return sign, frac, -149
    return sign, frac | 0x800000, be - 150


def sin_cos(r: int):
    """sin and cos of r / 2^BITS, |r| <= pi/4 * 2^BITS, in fixed point."""
    s, c = 0, 0
    term, n = ONE, 0  # r^n / n!
    while True:
        if n % 2 == 0:
            c += -term if n % 4 == 2 else term
        else:
            s += -term if n % 4 == 3 else term
        n += 1
        term = (term * r >> BITS) // n
        if term == 0:
            return s, c


def round_binary32(num: int, den: int) -> int:
    """The bits of num/den rounded to nearest-even binary32 (finite)."""
    neg = (num < 0) != (den < 0)
    num, den = abs(num), abs(den)
    if num == 0:
        return 0x80000000 if neg else 0
    e = num.bit_length() - den.bit_length()  # 2^(e-1) < num/den < 2^(e+1)
    if (num << max(-e, 0)) < (den << max(e, 0)):
        e -= 1  # now 2^e <= num/den < 2^(e+1)
    e = max(e, -126)  # below: subnormal, fixed exponent
    shift = 23 - e  # q = num/den * 2^shift: [2^23, 2^24) for a normal result
    q, rem = divmod(num << shift, den) if shift >= 0 else divmod(num, den << -shift)
    d = den if shift >= 0 else den << -shift
    if 2 * rem > d or (2 * rem == d and q & 1):
        q += 1
    if q == 1 << 24:
        q >>= 1
        e += 1
    assert e <= 127, 'overflow'
    bits = q if q < 1 << 23 else ((e + 127) << 23) | (q - (1 << 23))
    return bits | (0x80000000 if neg else 0)


def reference(fn: str, b: int) -> int:
    sign, m, e = exact(b)
    x = m << (BITS + e)  # |x| * 2^BITS, exact (e >= -149)
    k = (4 * x + PI) // (2 * PI)  # the nearest integer to |x| / (pi/2)
    r = x - k * PI // 2  # |x| - k pi/2, to about 2^(128 - BITS)
    s, c = sin_cos(r)
    sv = [s, c, -s, -c][k % 4]
    cv = [c, -s, -c, s][k % 4]
    if fn == 'sin':
        return round_binary32(sign * sv, ONE)
    if fn == 'cos':
        return round_binary32(cv, ONE)
    return round_binary32(sign * sv, cv)


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, 'math_kat.txt')) as f:
        lines = f.read().split('\n')
    start = next(i for i, line in enumerate(lines) if line.startswith(MARK))
    print('# correctly rounded binary32 sin, cos, tan of the last section of math_kat.txt,')
    print('# by tests/kat/f32_trig_reference.py (exact integers, independent of laige)')
    for line in lines[start + 1:]:
        if not line:
            continue
        _, fn, arg, _, _ = line.split(' ')
        b = int(arg, 16)
        if b & 0x7FFFFFFF == 0:
            continue
        print('f32 %s %s = %08x' % (fn, arg, reference(fn, b)))


if __name__ == '__main__':
    sys.exit(main())
