// Mmad on shapes that do not fill their fractals, with operands written only in part: the values it writes
// into L0C and the written-shadow it leaves there. The expectations are computed here element by element from
// the operand layouts (docs/hardware-model.md: L0A zZ on AtlasA2 and zN on Ascend950, L0B nZ, L0C NZ with
// 16-column fractals) and the rule that C(i, j) is written iff the k elements of row i of A and of column j
// of B were (and, when accumulating, C(i, j) itself).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "evg/hw/core.hpp"
#include "evg/hw/device.hpp"
#include "evg/hw/memory.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;
using evg::hw::MemKind;

struct Shape {
    uint64_t m, n, k;
    bool init;
};

uint64_t up(uint64_t x, uint64_t a) {
    return (x + a - 1) / a * a;
}

// One trial: random bytes in L0A and L0B (a written-shadow drawn row, column and element-wise), one Mmad,
// then C's values and shadow against the element-wise rule. Returns the first disagreement, or "".
template <class E, class Acc>
std::string trial(evg::hw::ArchId arch, Shape s, std::mt19937_64& rng) {
    const uint64_t es = sizeof(E), c0 = 32 / es;
    const uint64_t mp = up(s.m, 16), np = up(s.n, 16), kp = up(s.k, c0);
    const bool zz = arch == evg::hw::ArchId::AtlasA2;
    const auto a_off = [&](uint64_t i, uint64_t kk) {
        return zz ? (i / 16) * kp * 16 + (kk / c0) * 16 * c0 + (i % 16) * c0 + kk % c0
                  : (kk / c0) * mp * c0 + i * c0 + kk % c0;
    };
    const auto b_off = [&](uint64_t kk, uint64_t j) { return (kk / c0) * np * c0 + j * c0 + kk % c0; };
    const auto c_off = [&](uint64_t i, uint64_t j) { return (j / 16) * mp * 16 + i * 16 + j % 16; };
    // Which elements are written: most, with whole rows of A, columns of B and single elements left out.
    std::bernoulli_distribution rare(0.15), few(0.03);
    const bool whole = rare(rng);  // every operand element written: the fast path
    std::vector<uint8_t> aw(mp * kp, 1), bw(kp * np, 1), cw(mp * np, 1);
    if (!whole) {
        // The K padding (k to kp), which Mmad does not read, is left unwritten in half the trials, as a load
        // of k elements leaves it.
        const bool pad = std::bernoulli_distribution(0.5)(rng);
        for (uint64_t i = 0; i < mp; ++i) {
            const bool row = rare(rng);
            for (uint64_t kk = 0; kk < kp; ++kk) aw[a_off(i, kk)] = !(row || few(rng) || (kk >= s.k && !pad));
        }
        for (uint64_t j = 0; j < np; ++j) {
            const bool col = rare(rng);
            for (uint64_t kk = 0; kk < kp; ++kk) bw[b_off(kk, j)] = !(col || few(rng) || (kk >= s.k && !pad));
        }
        for (auto& w : cw) w = !few(rng);
    }
    std::vector<E> a(mp * kp), b(kp * np);
    std::vector<Acc> c_in(mp * np);
    std::uniform_int_distribution<int> small(-4, 4);
    for (auto& x : a) x = E(static_cast<float>(small(rng)));
    for (auto& x : b) x = E(static_cast<float>(small(rng)));
    for (auto& x : c_in) x = static_cast<Acc>(small(rng));

    std::vector<Acc> got(mp * np);
    std::vector<uint8_t> got_w(mp * np * sizeof(Acc));  // a flag per byte
    evg::hw::Config cfg;
    cfg.arch = arch;
    cfg.checks = evg::hw::CheckerConfig::none();
    evg::hw::Device dev(cfg);
    dev.launch(1, evg::hw::KernelType::aic_only, [&] {
        evg::hw::Core& core = evg::hw::current_core();
        // The operands as a load would leave them: bytes, their shadow, and the pages noted.
        const auto place = [](evg::hw::Memory* mem, const void* bytes, const std::vector<uint8_t>& w,
                              uint64_t size) {
            std::memcpy(mem->data(), bytes, w.size() * size);
            mem->note_touch(0, w.size() * size);
            for (uint64_t e = 0; e < w.size(); ++e) mem->mark_written(e * size, size, w[e] != 0);
        };
        place(core.local(MemKind::L0A), a.data(), aw, es);
        place(core.local(MemKind::L0B), b.data(), bw, es);
        if (!s.init) place(core.local(MemKind::L0C), c_in.data(), cw, sizeof(Acc));
        LocalTensor<E> l0a(TPosition::A2, 0, static_cast<uint32_t>(mp * kp));
        LocalTensor<E> l0b(TPosition::B2, 0, static_cast<uint32_t>(kp * np));
        LocalTensor<Acc> l0c(TPosition::CO1, 0, static_cast<uint32_t>(mp * np));
        MmadParams p(static_cast<uint16_t>(s.m), static_cast<uint16_t>(s.n), static_cast<uint16_t>(s.k));
        p.cmatrixInitVal = s.init;
        p.disableGemv = true;
        Mmad(l0c, l0a, l0b, p);
        PipeBarrier<PIPE_ALL>();
        evg::hw::Memory* lc = core.local(MemKind::L0C);
        std::memcpy(got.data(), lc->data(), got.size() * sizeof(Acc));
        lc->read_written(0, got_w.size(), got_w.data());
    });
    const auto value = [](E x) {
        if constexpr (std::is_same_v<E, half>)
            return evg::hw::to_float(x);
        else
            return static_cast<Acc>(x);
    };
    for (uint64_t i = 0; i < mp; ++i)
        for (uint64_t j = 0; j < np; ++j) {
            bool row = true, col = true;
            Acc sum = s.init ? Acc(0) : c_in[c_off(i, j)];
            for (uint64_t kk = 0; kk < s.k; ++kk) {
                row = row && aw[a_off(i, kk)];
                col = col && bw[b_off(kk, j)];
                sum = static_cast<Acc>(sum + value(a[a_off(i, kk)]) * value(b[b_off(kk, j)]));
            }
            const bool want_w = row && col && (s.init || cw[c_off(i, j)]);
            const uint8_t* f = got_w.data() + c_off(i, j) * sizeof(Acc);
            const bool got_written = f[0] && f[1] && f[2] && f[3];
            const bool mixed = (f[0] || f[1] || f[2] || f[3]) && !got_written;
            const std::string at = "C(" + std::to_string(i) + ", " + std::to_string(j) + ")";
            if (got[c_off(i, j)] != sum)
                return at + " is " + std::to_string(got[c_off(i, j)]) + ", not " + std::to_string(sum);
            if (mixed || got_written != want_w)
                return at + (want_w ? " is not marked written" : " is marked written") + " (rows of A " +
                       (row ? "written" : "not written") + ", column of B " +
                       (col ? "written" : "not written") + ")";
        }
    return "";
}

// Shapes: every fractal edge case of m and n (1, 15, 16, 17, 31, 32, 33), k across c0 and beyond.
template <class E, class Acc>
void check(evg::hw::ArchId arch) {
    std::mt19937_64 rng(53);
    const uint64_t edges[] = {2, 15, 16, 17, 31, 32, 33, 48};
    std::uniform_int_distribution<uint64_t> pick(0, 7), kd(1, 80);
    for (int t = 0; t < 60; ++t) {
        const Shape s{edges[pick(rng)], edges[pick(rng)], kd(rng), t % 3 != 0};
        const std::string d = trial<E, Acc>(arch, s, rng);
        ASSERT_EQ(d, "") << "m " << s.m << " n " << s.n << " k " << s.k << (s.init ? " init" : " accumulate")
                         << " (trial " << t << ")";
    }
}

class MmadShadow : public ::testing::TestWithParam<evg::hw::ArchId> {};

TEST_P(MmadShadow, HalfProductsAndTheirShadowFollowTheElementRule) {
    check<half, float>(GetParam());
}

TEST_P(MmadShadow, Int8ProductsAndTheirShadowFollowTheElementRule) {
    check<int8_t, int32_t>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(BothArchs, MmadShadow,
                         ::testing::Values(evg::hw::ArchId::AtlasA2, evg::hw::ArchId::Ascend950),
                         [](const auto& info) {
                             return std::string(info.param == evg::hw::ArchId::AtlasA2 ? "AtlasA2"
                                                                                       : "Ascend950");
                         });

}  // namespace
