#pragma once
// The options of the run's outside sinks, declared once as data (run::OptionSpec): the platform login,
// status and sync, MLflow's `runs push`, and the sinks a training run streams to. Thread-safe to read.

#include "run/option_spec.h"

#include <vector>

namespace osprey::remote {

/// `osprey-cli remote login`: check and store a platform API key.
const std::vector<run::OptionSpec>& remoteLoginOptions();

/// `osprey-cli remote status`: the platform, the key and a project's queue.
const std::vector<run::OptionSpec>& remoteStatusOptions();

/// `osprey-cli remote sync`: send a project's queued events, uploads and records.
const std::vector<run::OptionSpec>& remoteSyncOptions();

/// `osprey-cli runs push`: log a run to an MLflow tracking server.
const std::vector<run::OptionSpec>& runsPushOptions();

/// The sinks `osprey-cli train` streams a run to: the platform and MLflow.
const std::vector<run::OptionSpec>& trainSinkOptions();

} // namespace osprey::remote
