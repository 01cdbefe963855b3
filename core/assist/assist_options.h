#pragma once
// The options of running a detector over images, declared once as data (run::OptionSpec): `predict`
// (files and videos), `autolabel` (a project's images, stored for review), `review` (the queue of model
// boxes to check) and `select` (what to label next). The thresholds come from core/model's
// thresholdOptions(). Thread-safe to read.

#include "run/option_spec.h"

#include <vector>

namespace osprey::assist {

/// `osprey-cli predict`: a detector on an image, a video or a folder of them.
const std::vector<run::OptionSpec>& predictOptions();

/// `osprey-cli autolabel`: proposals on a project's images, stored as source=model.
const std::vector<run::OptionSpec>& autoLabelOptions();

/// `osprey-cli review`: the images whose model boxes need review.
const std::vector<run::OptionSpec>& reviewOptions();

/// `osprey-cli select`: the unlabelled images worth labelling next (label_selector.h).
const std::vector<run::OptionSpec>& selectOptions();

} // namespace osprey::assist
