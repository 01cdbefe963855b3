#pragma once
// The options of running a detector over images, declared once as data (run::OptionSpec): `predict`
// (files and videos), `autolabel` (a project's images, stored for review) and `review` (the queue of model
// boxes to check). The thresholds come from core/model's thresholdOptions(). Thread-safe to read.

#include "run/option_spec.h"

#include <vector>

namespace osprey::assist {

/// `osprey-cli predict`: a detector on an image, a video or a folder of them.
const std::vector<run::OptionSpec>& predictOptions();

/// `osprey-cli autolabel`: proposals on a project's images, stored as source=model.
const std::vector<run::OptionSpec>& autoLabelOptions();

/// `osprey-cli review`: the images whose model boxes need review.
const std::vector<run::OptionSpec>& reviewOptions();

} // namespace osprey::assist
