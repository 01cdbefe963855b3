#pragma once
// Private: the concrete BoxPredictor sources, created by BoxPredictor::open.

#include "assist/box_predictor.h"

namespace osprey::assist {

Expected<std::unique_ptr<BoxPredictor>> openCheckpointPredictor(const ModelSource& source);
Expected<std::unique_ptr<BoxPredictor>> openOnnxPredictor(const ModelSource& source);
Expected<std::unique_ptr<BoxPredictor>> openDarknetPredictor(const ModelSource& source);

} // namespace osprey::assist
