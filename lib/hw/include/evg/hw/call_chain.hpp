// The call chain of an instruction issued from library code: the return addresses on the issuing core's
// stack, kept as an id, and turned into source lines (file, line, function) only for the instructions a
// finding names.
//
// A site (site.hpp) is the line that called the AscendC API: for an instruction issued inside Catlass that is
// a Catlass header's line, and the user's own line (their functor calling a Catlass helper, their kernel
// body) is further up the stack. Chains are captured only in a launch whose Config::call_chains is set (the
// ACL shim sets it for a program's launches) once code directories are registered (register_code_dir), so
// evgcheck's own harnesses pay nothing; they resolve only when the program was built with debug information
// (evgcheck_add_program builds with line tables), in this process (GCC's libbacktrace, and elfutils' libdw
// for an address libbacktrace finds no line for: no program is started), each address once. Without debug
// information a chain resolves to no frame and a finding names the kernel launch as before.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "evg/hw/site.hpp"

namespace evg::hw {

// Whether chains are captured: on once a code directory is registered, unless the environment sets
// EVG_CALL_CHAIN=0.
bool call_chains_on() noexcept;

// The return addresses of the calling thread's stack (a core's fiber stops at its entry), interned in a
// process-wide, thread-safe table: the id, 0 when chains are off. Equal stacks give equal ids.
uint32_t capture_call_chain();

struct ChainFrame {
    std::string file;  // as the debug information names it (a full path, when the compiler was given one)
    uint32_t line = 0;
    std::string function;  // demangled
    SiteOwner owner = SiteOwner::unknown;
    std::string str() const;  // "file.hpp:42" (file name without directories)
};

// The frames of a chain, innermost first, each inlined call its own frame; frames with no source line (no
// debug information) are left out. Resolved once per address and process.
std::vector<ChainFrame> call_chain_frames(uint32_t id);
// The first of the user's lines on a chain ("my_kernel.cpp:40": where the user's code called into the
// library), empty when the chain has none or does not resolve.
std::string first_user_site(uint32_t id);

// Resolves the chains a report or a checker is about to read (their addresses not resolved yet).
void resolve_call_chains(std::span<const uint32_t> ids);

// The graph node a chain's frames say the instruction was issued for, when the instruction's own site names
// none (a copy helper Catlass's visitors call, a user's functor): `label` as a report names it ("AuxLoad
// (deviceX)", with `gm_buffer`, the GM buffer the location touches, when not empty), `identity` what tells
// two nodes apart (the visitor's class, template arguments and all); both empty for a chain of no node. Set
// by the AscendC layer, which knows upstream's visitor files (the node namer of machine.hpp names
// instructions by their own site); Report::set_launch_site and the checker node-slots ask it.
struct ChainNode {
    std::string label;
    std::string identity;
};
using ChainNodeNamer = ChainNode (*)(const std::vector<ChainFrame>& frames, const std::string& gm_buffer);
void set_chain_node_namer(ChainNodeNamer namer);
ChainNodeNamer chain_node_namer();

}  // namespace evg::hw
