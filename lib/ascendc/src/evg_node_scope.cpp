#include "ascendc/evg_node_scope.hpp"

#include "evg/hw/core.hpp"

namespace evg::ascendc {

NodeScope::NodeScope(std::string_view label) : core_(hw::current_core_or_null()) {
    if (core_) previous_ = core_->enter_node(label);
}

NodeScope::~NodeScope() {
    if (core_) core_->leave_node(previous_);
}

}  // namespace evg::ascendc
