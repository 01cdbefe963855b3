#pragma once
// The recipe's check figures (unfused, at 640), shared by the fast and the slow detector tests. They are
// declared once, torch-free, in core/planner (the planner sizes workloads with them).

#include "planner/model_figures.h"

namespace osprey::test {

using planner::kModelFigures;
using planner::ModelFigures;

} // namespace osprey::test
