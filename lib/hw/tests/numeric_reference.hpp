// Independent reference model for the numeric tests (lib/hw/tests/numeric_*_test.cpp).
//
// The implementation rounds with integer shifts on the bit patterns; this reference instead works on exact
// values in double / long double arithmetic: it finds the two representable neighbours lo <= |x| < hi of the
// destination format (frexp + floor on a power-of-two scaled value, all exact), then picks one by the mode.
// Overflow follows the mode rules of docs/hardware-model.md §7. Decoders use ldexp, not the
// implementation's table.
#pragma once
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "evg/hw/numeric/convert.hpp"

namespace evg::hw::testref {

struct RefFormat {
    int man_bits;       // stored mantissa bits
    int emin;           // exponent of the smallest normal
    double max_finite;  // largest finite value
};
inline const RefFormat kRefHalf{10, -14, 65504.0};
inline const RefFormat kRefBf16{7, -126, std::ldexp(255.0, 120)};  // (2 - 2^-7) * 2^127
inline const RefFormat kRefFloat{23, -126, static_cast<double>(FLT_MAX)};

// Rounds the value `x` (exact in T, not NaN) into `fmt`; returns the exact result (+-Inf on overflow),
// signed.
// +-0 and +-Inf are kept in every mode.
template <class T>
T ref_round(T x, const RefFormat& fmt, RoundMode m) {
    if (x == 0 || std::isinf(x)) return x;
    const bool neg = std::signbit(x);
    const T a = std::fabs(x);
    int e = 0;
    (void)std::frexp(a, &e);  // a = fr * 2^e, fr in [0.5, 1): floor(log2 a) = e - 1
    const int ex = e - 1 > fmt.emin ? e - 1 : fmt.emin;  // binade of the result (subnormals share emin)
    const T quantum = std::ldexp(T(1), ex - fmt.man_bits);
    const T k =
        std::floor(a / quantum);  // exact: power-of-two scaling of an exact value; k < 2^(man_bits + 1)
    const T lo = k * quantum;
    const T hi = (k + 1) * quantum;
    const bool lo_odd = (static_cast<int64_t>(k) & 1) != 0;  // parity of k == parity of lo's encoding
    T r;
    if (lo == a) {
        r = a;
    } else {
        const T mid = (lo + hi) / 2;
        switch (m) {
            case RoundMode::CAST_FLOOR:
                r = neg ? hi : lo;
                break;
            case RoundMode::CAST_CEIL:
                r = neg ? lo : hi;
                break;
            case RoundMode::CAST_TRUNC:
                r = lo;
                break;
            case RoundMode::CAST_ROUND:
                r = a >= mid ? hi : lo;
                break;
            case RoundMode::CAST_ODD:
                r = lo_odd ? lo : hi;
                break;
            case RoundMode::CAST_NONE:
            case RoundMode::CAST_RINT:
            default:
                r = a < mid ? lo : (a > mid ? hi : (lo_odd ? hi : lo));
                break;
        }
    }
    if (r > static_cast<T>(fmt.max_finite)) {
        const T inf = std::numeric_limits<T>::infinity();
        const T mx = static_cast<T>(fmt.max_finite);
        switch (m) {
            case RoundMode::CAST_TRUNC:
            case RoundMode::CAST_ODD:
                r = mx;
                break;
            case RoundMode::CAST_FLOOR:
                r = neg ? inf : mx;
                break;
            case RoundMode::CAST_CEIL:
                r = neg ? mx : inf;
                break;
            default:
                r = inf;
                break;
        }
    }
    return neg ? -r : r;
}

// Rounds to an integral value per mode (std:: functions; ODD: truncate, then move to the odd neighbour).
inline double ref_round_integral(double x, RoundMode m) {
    switch (m) {
        case RoundMode::CAST_FLOOR:
            return std::floor(x);
        case RoundMode::CAST_CEIL:
            return std::ceil(x);
        case RoundMode::CAST_TRUNC:
            return std::trunc(x);
        case RoundMode::CAST_ROUND:
            return std::round(x);
        case RoundMode::CAST_ODD: {
            const double t = std::trunc(x);
            if (t == x || std::fmod(t, 2.0) != 0) return t;
            return x < 0 ? t - 1 : t + 1;
        }
        case RoundMode::CAST_NONE:
        case RoundMode::CAST_RINT:
        default: {
            const double fl = std::floor(x);
            const double d = x - fl;
            const double r = d < 0.5 ? fl : (d > 0.5 ? fl + 1 : (std::fmod(fl, 2.0) == 0 ? fl : fl + 1));
            return std::copysign(r, x);  // IEEE roundToIntegral keeps the sign: -0.3 -> -0
        }
    }
}

// Decoders written with ldexp (independent of the implementation's table); decode_half / decode_bf16 look the
// results up in tables built once from these.
inline double decode_half_ldexp(uint16_t h) {
    const int e = (h >> 10) & 0x1F;
    const int man = h & 0x3FF;
    double v;
    if (e == 0x1F) {
        v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    } else if (e == 0) {
        v = std::ldexp(static_cast<double>(man), -24);
    } else {
        v = std::ldexp(static_cast<double>(1024 + man), e - 25);
    }
    return (h & 0x8000) ? -v : v;
}
inline double decode_bf16_ldexp(uint16_t b) {
    const int e = (b >> 7) & 0xFF;
    const int man = b & 0x7F;
    double v;
    if (e == 0xFF) {
        v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    } else if (e == 0) {
        v = std::ldexp(static_cast<double>(man), -133);
    } else {
        v = std::ldexp(static_cast<double>(128 + man), e - 134);
    }
    return (b & 0x8000) ? -v : v;
}

struct DecodeTables {
    std::vector<double> half, bf16;
    DecodeTables() : half(65536), bf16(65536) {
        for (uint32_t i = 0; i < 65536; ++i) {
            half[i] = decode_half_ldexp(static_cast<uint16_t>(i));
            bf16[i] = decode_bf16_ldexp(static_cast<uint16_t>(i));
        }
    }
};
inline const DecodeTables& decode_tables() {
    static const DecodeTables t;
    return t;
}
inline double decode_half(uint16_t h) {
    return decode_tables().half[h];
}
inline double decode_bf16(uint16_t b) {
    return decode_tables().bf16[b];
}

inline uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
inline float bits_float(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// Same value (bitwise for zeros: the sign must match); NaN never matches.
template <class T>
bool same_value(T a, T b) {
    return a == b && std::signbit(a) == std::signbit(b);
}

// Deterministic 64-bit generator (splitmix64): identical sequences on every platform and compiler.
struct SplitMix64 {
    uint64_t state;
    explicit SplitMix64(uint64_t seed) : state(seed) {}
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
};

// Counts mismatches and keeps the first few messages for the failure report.
struct Mismatches {
    long count = 0;
    std::vector<std::string> first;
    template <class F>
    void add(F&& describe) {
        if (count++ < 10) {
            std::ostringstream os;
            describe(os);
            first.push_back(os.str());
        }
    }
    std::string report() const {
        std::string s = std::to_string(count) + " mismatches; first:";
        for (const auto& m : first) s += "\n  " + m;
        return s;
    }
};

}  // namespace evg::hw::testref
