// Instructions are recycled per thread: an executed one goes back to a small pool with the storage of its
// access list and op name kept, and the next instruction issued on the thread reuses it. A launch issues up
// to millions of instructions; reuse spares each of them the allocation of the Instr, its access list
// (growing 1, 2, 4) and often its name.
#pragma once
#include <memory>

#include "evg/hw/instruction.hpp"

namespace evg::hw {

// An instruction with every field as a default-constructed Instr has it (its vectors and string empty).
std::unique_ptr<Instr> take_instr();
// Gives a finished instruction back (it is reset at once: its exec and clock snapshot are released here).
void recycle_instr(std::unique_ptr<Instr> in);

}  // namespace evg::hw
