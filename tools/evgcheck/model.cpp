#include "model.hpp"

#include "load.hpp"

namespace evgcheck {

bool model_available() {
    return false;
}

ModelRun run_model(const evg::graph::Problem&, const evg::oracle::Inputs&, const ModelOptions&) {
    throw std::runtime_error("this build of evgcheck has no model runner (evg::graph::run_on_model)");
}

}  // namespace evgcheck
