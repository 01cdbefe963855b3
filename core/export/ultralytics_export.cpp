#include "export/onnx_export.h"

#include "model/weights.h"

namespace osprey::exporter {

std::filesystem::path defaultUltralyticsPath(const std::filesystem::path& weights) {
    return model::defaultUltralyticsPath(weights);
}

Expected<UltralyticsExportReport> exportUltralytics(const std::filesystem::path& weights,
                                                    const std::filesystem::path& out) {
    const std::filesystem::path file = out.empty() ? defaultUltralyticsPath(weights) : out;
    auto written = model::exportUltralytics(weights, file);
    if (!written)
        return fail(written.error());
    return UltralyticsExportReport{file, written->bytesAfter, written->tensors, written->usedEma};
}

} // namespace osprey::exporter
