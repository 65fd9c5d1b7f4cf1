// Writing explorer programs by hand: one call per op, memories declared as they are needed.
#pragma once
#include <string>

#include "evg/explore/model.hpp"

namespace evg::explore {

class ProgramBuilder {
  public:
    ProgramBuilder(Chip chip, bool mix, int block_dim) {
        p_.topo = make_topology(chip, mix, block_dim);
        p_.cores.resize(p_.topo.cores.size());
    }
    int gm(uint32_t size, std::string name = {}) {
        return mem(name.empty() ? "GM" + std::to_string(p_.mems.size()) : std::move(name), size, -1);
    }
    int local(int core, uint32_t size) { return mem(p_.topo.core_name(core) + ".local", size, core); }

    // Each returns the op's index on its core.
    int copy_in(int core, Range dst, Range src) { return add(core, data(OpKind::copy_in, dst, src, {})); }
    int copy_out(int core, Range dst, Range src) { return add(core, data(OpKind::copy_out, dst, src, {})); }
    int vec(int core, Range dst, Range a, Range b = {}) { return add(core, data(OpKind::vec, dst, a, b)); }
    int scalar_read(int core, Range src) { return add(core, data(OpKind::scalar_read, {}, src, {})); }
    int scalar_write(int core, Range dst) { return add(core, data(OpKind::scalar_write, dst, {}, {})); }
    int set(int core, Pipe src, Pipe dst, int id) { return add(core, flag(OpKind::set_flag, src, dst, id)); }
    int wait(int core, Pipe src, Pipe dst, int id) {
        return add(core, flag(OpKind::wait_flag, src, dst, id));
    }
    int barrier(int core, Pipe p) {
        Op op;
        op.kind = OpKind::barrier;
        op.pipe = p;
        return add(core, op);
    }
    int cross_set(int core, int mode, Pipe p, int flag) {
        return add(core, cross(OpKind::cross_set, mode, p, flag));
    }
    int cross_wait(int core, int mode, Pipe p, int flag) {
        return add(core, cross(OpKind::cross_wait, mode, p, flag));
    }

    // The global id (as findings name it) of a core's op.
    int id(int core, int index) const { return p_.op_id(core, index); }
    const Program& program() const { return p_; }
    Program& program() { return p_; }

  private:
    Program p_;
    int mem(std::string name, uint32_t size, int owner) {
        p_.mems.push_back({std::move(name), size, owner});
        return static_cast<int>(p_.mems.size()) - 1;
    }
    int add(int core, Op op) {
        auto& ops = p_.cores.at(static_cast<size_t>(core));
        ops.push_back(op);
        return static_cast<int>(ops.size()) - 1;
    }
    static Op data(OpKind k, Range dst, Range a, Range b) {
        Op op;
        op.kind = k;
        op.dst = dst;
        op.src0 = a;
        op.src1 = b;
        return op;
    }
    static Op flag(OpKind k, Pipe src, Pipe dst, int id) {
        Op op;
        op.kind = k;
        op.event = {src, dst};
        op.id = id;
        return op;
    }
    static Op cross(OpKind k, int mode, Pipe p, int flag) {
        Op op;
        op.kind = k;
        op.mode = mode;
        op.pipe = p;
        op.flag = flag;
        return op;
    }
};

}  // namespace evg::explore
