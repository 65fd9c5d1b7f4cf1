// A model hook, not an AscendC call: while a NodeScope lives, the core the calling kernel code runs on is
// running the graph node `label`, and every instruction it issues (and every violation found at its issue)
// names that node beside its source line. The EVG framework opens one around each node's callbacks
// (TreeVisitor, TopologicalVisitor, DynamicVisitor); node code never needs it. Scopes nest: the destructor
// restores the node that was current before. Outside a kernel it does nothing.
#pragma once
#include <cstdint>
#include <string_view>

namespace evg::hw {
class Core;
}

namespace evg::ascendc {

class NodeScope {
  public:
    explicit NodeScope(std::string_view label);
    ~NodeScope();
    NodeScope(const NodeScope&) = delete;
    NodeScope& operator=(const NodeScope&) = delete;

  private:
    hw::Core* core_ = nullptr;
    int32_t previous_ = -1;
};

}  // namespace evg::ascendc
