// runTraining: the setup, then the epoch loop, and the run's last event (finished or failed).
#include "train/trainer.h"

#include "train/emitter_impl.h"
#include "train/epoch_loop_impl.h"
#include "train/training_setup_impl.h"

#include <cmath>
#include <sstream>

namespace osprey::train {

Expected<TrainResult> runTraining(const run::TrainConfig& config, const TrainInputs& inputs) {
    if (!inputs.events)
        return fail("runTraining: no event sink given");
    detail::Emitter emitter(*inputs.events);
    Expected<TrainResult> result = fail("training did not run");
    try {
        auto parts = detail::TrainingSetup(config, inputs, emitter).build();
        if (parts)
            result = detail::EpochLoop(config, inputs, emitter, std::move(parts).value()).run();
        else
            result = fail(parts.error());
    } catch (const c10::Error& error) {
        result = fail(std::string("torch error: ") + error.what_without_backtrace());
    } catch (const std::exception& error) {
        result = fail(std::string("error: ") + error.what());
    }
    if (!result && inputs.distributed) {
        // A collective fails when another rank died; the launcher records which one and why.
        const auto cause = inputs.distributed->supervisorFailure(3);
        if (!cause.empty())
            result = fail(cause + " (on rank " + std::to_string(inputs.distributed->rank()) + ": " +
                          result.message() + ")");
    }
    run::TrainEvent event;
    if (!result) {
        event.type = run::TrainEvent::Type::Failed;
        event.message = result.message();
        emitter.emit(std::move(event));
        return result;
    }
    event.type = run::TrainEvent::Type::Finished;
    event.status = result->status;
    event.epoch = result->epochsCompleted;
    event.bestEpoch = result->bestEpoch;
    event.bestFitness = result->bestFitness;
    event.bestPath = result->bestWeights.string();
    event.lastPath = result->lastWeights.string();
    std::ostringstream message;
    if (result->status == "stopped")
        message << "Training stopped on request after " << result->epochsCompleted
                << " completed epochs; resume with resume=true. ";
    else if (result->status == "early_stopped")
        message << "Training stopped early after " << result->epochsCompleted << " epochs. ";
    else
        message << result->epochsCompleted << " epochs completed in " << std::lround(result->seconds)
                << " s. ";
    message << "Best fitness (mAP50-95) " << result->bestFitness << " at epoch " << result->bestEpoch << ".";
    event.message = message.str();
    emitter.emit(std::move(event));
    return result;
}

} // namespace osprey::train
