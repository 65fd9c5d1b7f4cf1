// The hand-made seed programs of fuzz/corpus/sync_program/ (written there by `sync_program_campaign
// --write-seeds DIR`): the usual pipeline and its classic faults, and the cross-core patterns.
#include "evg/explore/builder.hpp"
#include "sync_program.hpp"

namespace evg::fuzz {

using explore::Chip;
using explore::Program;
using explore::ProgramBuilder;
using explore::Range;
using enum explore::Pipe;

namespace {

struct Mems {
    int g0, g1;
    std::vector<int> local;
};
Mems mems(ProgramBuilder& b) {
    Mems m{b.gm(kBytes, "G0"), b.gm(kBytes, "G1"), {}};
    for (size_t c = 0; c < b.program().topo.cores.size(); ++c)
        m.local.push_back(b.local(static_cast<int>(c), kBytes));
    return m;
}
Range blk(int mem, uint32_t k) {
    return {mem, 32 * k, 32 * k + 32};
}
Range wrd(int mem, uint32_t k) {
    return {mem, 32 * k, 32 * k + 4};
}

Program pipeline(Chip chip, bool wait_copy_in) {
    ProgramBuilder b(chip, false, 1);
    Mems m = mems(b);
    int ub = m.local[0];
    b.copy_in(0, blk(ub, 0), blk(m.g0, 0));
    b.set(0, MTE2, V, 0);
    if (wait_copy_in) b.wait(0, MTE2, V, 0);
    b.vec(0, blk(ub, 1), blk(ub, 0));
    b.set(0, V, MTE3, 0);
    b.wait(0, V, MTE3, 0);
    b.copy_out(0, blk(m.g1, 0), blk(ub, 1));
    return b.program();
}

Program two_vector_ops(Chip chip, bool barrier) {
    ProgramBuilder b(chip, false, 1);
    Mems m = mems(b);
    b.vec(0, blk(m.local[0], 0), blk(m.local[0], 1), blk(m.local[0], 2));
    if (barrier) b.barrier(0, V);
    b.vec(0, blk(m.local[0], 3), blk(m.local[0], 0));
    return b.program();
}

Program flags_only(int which) {
    ProgramBuilder b(Chip::AtlasA2, false, 1);
    Mems m = mems(b);
    if (which == 0) {  // set twice
        b.set(0, MTE2, V, 0);
        b.set(0, MTE2, V, 0);
        b.wait(0, MTE2, V, 0);
        b.wait(0, MTE2, V, 0);
    } else if (which == 1) {  // a wait no set satisfies
        b.copy_in(0, blk(m.local[0], 0), blk(m.g0, 0));
        b.wait(0, MTE2, V, 0);
        b.vec(0, blk(m.local[0], 1), blk(m.local[0], 0));
    } else if (which == 2) {  // a flag left set
        b.set(0, V, MTE3, 0);
    } else {  // a scalar wait orders the copy issued after it
        b.vec(0, blk(m.local[0], 0), blk(m.local[0], 1));
        b.set(0, V, S, 0);
        b.wait(0, V, S, 0);
        b.scalar_read(0, wrd(m.local[0], 0));
        b.copy_out(0, blk(m.g0, 0), blk(m.local[0], 0));
    }
    return b.program();
}

// Mix launch, one block: AIC0 = core 0, AIV0.0 = core 1, AIV0.1 = core 2.
Program handshake(Chip chip) {
    ProgramBuilder b(chip, true, 1);
    Mems m = mems(b);
    b.copy_in(0, blk(m.local[0], 0), blk(m.g0, 0));
    b.cross_set(0, 2, MTE2, 1);
    for (int v = 1; v <= 2; ++v) {
        b.cross_wait(v, 2, MTE3, 1);
        b.copy_out(v, blk(m.g0, static_cast<uint32_t>(v - 1)), blk(m.local[static_cast<size_t>(v)], 0));
    }
    return b.program();
}

// One counter set from two unordered pipes of the AIC.
Program cross_two_setting_pipes() {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    Mems m = mems(b);
    b.copy_in(0, blk(m.local[0], 0), blk(m.g0, 0));
    b.cross_set(0, 2, MTE2, 1);
    b.cross_set(0, 2, FIX, 1);
    b.cross_wait(1, 2, V, 1);
    b.scalar_write(1, wrd(m.g0, 0));
    b.cross_wait(1, 2, V, 1);
    b.cross_wait(2, 2, V, 1);
    b.cross_wait(2, 2, V, 1);
    return b.program();
}

// One flag id used by mode 1 and mode 2 at once.
Program cross_two_modes() {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    Mems m = mems(b);
    b.copy_in(0, blk(m.local[0], 0), blk(m.g0, 1));
    b.cross_set(0, 2, MTE2, 2);
    b.cross_set(1, 1, MTE3, 2);
    b.cross_wait(1, 1, V, 2);
    b.cross_wait(1, 2, V, 2);
    b.cross_set(2, 1, MTE3, 2);
    b.cross_wait(2, 2, V, 2);
    b.scalar_write(2, wrd(m.g0, 1));
    b.cross_wait(2, 1, V, 2);
    return b.program();
}

// Ascend950: two pipes of AIV0.0 wait on one counter; one order deadlocks.
Program cross_two_waiting_pipes() {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    Mems m = mems(b);
    b.cross_set(0, 2, MTE2, 3);
    b.cross_wait(0, 2, MTE2, 0);
    b.cross_set(0, 2, MTE2, 3);
    b.cross_wait(1, 2, V, 3);
    b.vec(1, blk(m.local[1], 0), blk(m.local[1], 1));
    b.cross_set(1, 2, V, 0);
    b.cross_wait(1, 2, MTE3, 3);
    b.copy_out(1, blk(m.g1, 0), blk(m.local[1], 1));
    b.cross_wait(2, 2, V, 3);
    b.cross_set(2, 2, V, 0);
    b.cross_wait(2, 2, V, 3);
    return b.program();
}

// Mix launch: one flag id handed over from mode 1 to mode 2, as the hardware model asks. AIV0.0 stores G0 and
// sets flag 2 (mode 1) from MTE3; AIV0.1 sets it from MTE2; each then tells the AIC on flag 1 (mode 2) from
// the same pipe, so the AIC's wait on that round follows both mode-1 sets, and only then does the AIC use
// flag 2 in mode 2. AIV0.1 reads G0 after its mode-1 wait. Clean; moving a mode-2 set to another pipe than
// the core's mode-1 set breaks the hand-over.
Program cross_modes_handed_over(Chip chip) {
    ProgramBuilder b(chip, true, 1);
    Mems m = mems(b);
    b.cross_wait(0, 2, FIX, 1);
    b.cross_set(0, 2, FIX, 2);
    b.copy_out(1, blk(m.g0, 0), blk(m.local[1], 0));
    b.cross_set(1, 1, MTE3, 2);
    b.cross_set(1, 2, MTE3, 1);
    b.cross_wait(1, 1, MTE2, 2);
    b.cross_wait(1, 2, MTE2, 2);
    b.cross_set(2, 1, MTE2, 2);
    b.cross_set(2, 2, MTE2, 1);
    b.cross_wait(2, 1, MTE2, 2);
    b.copy_in(2, blk(m.local[2], 0), blk(m.g0, 0));
    b.cross_wait(2, 2, MTE2, 2);
    return b.program();
}

}  // namespace

std::vector<std::pair<std::string, explore::Program>> sync_program_seeds() {
    return {
        {"pipeline-a2", pipeline(Chip::AtlasA2, true)},
        {"pipeline-950", pipeline(Chip::Ascend950, true)},
        {"pipeline-missing-wait", pipeline(Chip::AtlasA2, false)},
        {"vector-raw-a2", two_vector_ops(Chip::AtlasA2, false)},
        {"vector-raw-a2-barrier", two_vector_ops(Chip::AtlasA2, true)},
        {"vector-raw-950", two_vector_ops(Chip::Ascend950, false)},
        {"set-twice", flags_only(0)},
        {"missing-set", flags_only(1)},
        {"flag-left", flags_only(2)},
        {"scalar-wait", flags_only(3)},
        {"handshake-a2", handshake(Chip::AtlasA2)},
        {"handshake-950", handshake(Chip::Ascend950)},
        {"cross-two-setting-pipes", cross_two_setting_pipes()},
        {"cross-two-modes", cross_two_modes()},
        {"cross-two-waiting-pipes", cross_two_waiting_pipes()},
        {"cross-modes-handed-over-a2", cross_modes_handed_over(Chip::AtlasA2)},
        {"cross-modes-handed-over-950", cross_modes_handed_over(Chip::Ascend950)},
    };
}

}  // namespace evg::fuzz
