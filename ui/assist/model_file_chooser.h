#pragma once
// Asking for a model file for proposals and auto-label: an Osprey checkpoint (.pt), an ONNX detector
// (.onnx, with an optional names file beside it) or a Darknet .cfg with its .weights and names file (taken
// from beside the .cfg when they are there, otherwise asked for). GUI thread only.

#include "assist/box_predictor.h"

#include <QString>
#include <optional>

class QWidget;

namespace osprey::ui {

/// Shows the file dialogs; nullopt when the user cancels any of them.
std::optional<assist::ModelSource> askForModelSource(QWidget* parent, const QString& title,
                                                     const QString& startFolder);

} // namespace osprey::ui
