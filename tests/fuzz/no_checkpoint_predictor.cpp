// The fuzz tree builds no torch, so core/assist's checkpoint predictor is not there; BoxPredictor::open
// (box_predictor.cpp, compiled into fuzz_darknet_cfg for the names-file reader) still names it.
#include "assist/predictors_impl.h"

namespace osprey::assist {

Expected<std::unique_ptr<BoxPredictor>> openCheckpointPredictor(const ModelSource& source) {
    return fail(source.model.string() + ": checkpoints are not read in the fuzz build", "unsupported");
}

} // namespace osprey::assist
