#pragma once
// The pictures of a run folder, with Ultralytics' file names so that habits and scripts carry over:
// results.png (every results.csv column over the epochs), PR_curve.png, F1_curve.png, P_curve.png,
// R_curve.png (per class and all classes, the best-F1 confidence marked), confusion_matrix.png and
// confusion_matrix_normalized.png (with background), and labels.jpg (the dataset at a glance: instances per
// class, box layout, centre and width/height heat maps). Drawn headless (OpenCV and FreeType, no Qt), class
// names in Chinese included. The numbers behind them are results.csv and curves.json (run/run_curves.h).
// Every file is written atomically. Thread-safe (no shared state but the font cache).

#include "common/expected.h"
#include "common/label_box.h"
#include "run/run_curves.h"
#include "run/run_files.h"
#include "run/run_folder.h"

#include <filesystem>
#include <string>
#include <vector>

namespace osprey::plot {

/// Where a chart's data lies in its picture: the plot area in pixels and its data ranges (for tests and
/// for a viewer that shows the value under the mouse).
struct PlotArea {
    int x = 0, y = 0, width = 0, height = 0; ///< pixels, top-left origin
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;   ///< data at the left, right, bottom and top edges
    /// The pixel of a data point.
    double pixelX(double x) const;
    double pixelY(double y) const;
};

enum class CurveKind { PrecisionRecall, F1, Precision, Recall };
/// "PR_curve.png", "F1_curve.png", "P_curve.png", "R_curve.png" (run::RunFolder's names).
const char* curveFileName(CurveKind kind);

Status writeResultsPlot(const std::filesystem::path& file, const run::ResultsTable& results);
Expected<PlotArea> writeCurvePlot(const std::filesystem::path& file, const run::RunCurves& curves,
                                  CurveKind kind);
Expected<PlotArea> writeConfusionMatrix(const std::filesystem::path& file, const run::RunCurves& curves,
                                        bool normalized);
Status writeLabelsPlot(const std::filesystem::path& file, const std::vector<std::string>& classNames,
                       const std::vector<LabelBox>& boxes);

/// One image of a batch picture: interleaved RGB (HWC), with its boxes in the image's pixels.
struct BatchImage {
    int width = 0, height = 0;
    const unsigned char* rgb = nullptr; ///< width * height * 3 bytes, owned by the caller
    struct Box {
        int classIndex = 0;
        float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
        float score = -1; ///< a detection's confidence, shown after the name; negative for a label
    };
    std::vector<Box> boxes;
};

/// Ultralytics' train_batchN.jpg: the first 16 images of a batch in a square grid, as the network saw them
/// (augmented, letterboxed), each box drawn with its class name (and a detection's score); at most 1920
/// pixels a side. Also val_batchN_labels.jpg and val_batchN_pred.jpg.
Status writeBatchPicture(const std::filesystem::path& file, const std::vector<BatchImage>& images,
                         const std::vector<std::string>& classNames);

/// True when the font the pictures are drawn with has a glyph for every character of `utf8` (so Chinese
/// class names do not come out as boxes); false when no font was found.
bool fontCovers(const std::string& utf8);

/// Writes every picture the run folder has the numbers for (results.csv, curves.json) and, with `labels`,
/// labels.jpg. Returns the files written; a run folder with neither file is an error that says so.
Expected<std::vector<std::filesystem::path>> writeRunPlots(const std::filesystem::path& runDir,
                                                           const std::vector<std::string>& classNames = {},
                                                           const std::vector<LabelBox>* labels = nullptr);

} // namespace osprey::plot
