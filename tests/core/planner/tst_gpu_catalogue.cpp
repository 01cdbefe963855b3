// The catalogue is data: the shipped file parses, user overrides replace and add entries, and every
// malformed entry is named (index, name and field) in the error.
#include "planner/gpu_catalogue.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace osprey::planner;

namespace {

std::string oneGpu(const std::string& fields) {
    return R"({"version": 1, "gpus": [
      {"name": "Good", "vram_gb": 24, "fp32_tflops": 80, "bf16_tflops": 160, "bandwidth_gbs": 1000,
       "price_per_hour": 1.0, "price_source": "test", "price_date": "2026-01-01"},
      {)" + fields +
           "}]}";
}

} // namespace

class TestGpuCatalogue : public QObject {
    Q_OBJECT
private slots:
    void shippedCatalogueHasTheArticlesFigures() {
        const auto catalogue = parseCatalogue(shippedCatalogueJson(), "gpus.json");
        QVERIFY2(catalogue, catalogue ? "" : catalogue.message().c_str());
        QCOMPARE(catalogue->version, 1);
        QVERIFY(catalogue->gpus.size() >= 14);
        const struct {
            const char* name;
            double vram, price;
        } table[] = {{"RTX 4090", 24, 0.89},
                     {"A100 SXM", 80, 1.79},
                     {"RTX PRO 6000", 96, 2.49},
                     {"H100 SXM", 80, 3.99},
                     {"B200", 180, 7.99}};
        for (const auto& row : table) {
            const GpuSpec* gpu = catalogue->find(row.name);
            QVERIFY2(gpu, row.name);
            QCOMPARE(gpu->vramGb, row.vram);
            QVERIFY(gpu->pricePerHour);
            QCOMPARE(*gpu->pricePerHour, row.price);
            QVERIFY(!gpu->priceSource.empty() && !gpu->priceDate.empty() && !gpu->specSource.empty());
            QVERIFY(gpu->bf16Tflops > gpu->fp32Tflops || gpu->name == "RTX 3090");
        }
        QCOMPARE(catalogue->find("rtx 4090")->purchasePrice.value_or(0), 3000.0);
        QCOMPARE(catalogue->referencePoints.size(), std::size_t(3));
    }

    void malformedEntriesAreNamed() {
        const struct {
            const char* fields;
            const char* expected;
        } cases[] = {
            {R"("name": "Bad", "vram_gb": -1, "fp32_tflops": 1, "bf16_tflops": 1, "bandwidth_gbs": 1)",
             "f.json: entry 2 (\"Bad\"): field 'vram_gb' must be a positive number"},
            {R"("name": "Bad", "vram_gb": 8, "fp32_tflops": 1, "bf16_tflops": 1)",
             "f.json: entry 2 (\"Bad\"): field 'bandwidth_gbs' is missing"},
            {R"("vram_gb": 8)", "f.json: entry 2: field 'name' is missing"},
            {R"("name": "Bad", "vram_gb": "24", "fp32_tflops": 1, "bf16_tflops": 1, "bandwidth_gbs": 1)",
             "f.json: entry 2 (\"Bad\"): field 'vram_gb' must be a positive number"},
            {R"("name": "Bad", "tier": "huge", "vram_gb": 8, "fp32_tflops": 1, "bf16_tflops": 1, "bandwidth_gbs": 1)",
             "f.json: entry 2 (\"Bad\"): field 'tier' must be light, balanced or heavy, not 'huge'"},
            {R"("name": "Bad", "vram_gb": 8, "fp32_tflops": 1, "bf16_tflops": 1, "bandwidth_gbs": 1, "price_per_hour": 2)",
             "f.json: entry 2 (\"Bad\"): field 'price_source' is missing: a price needs its source and date"},
            {R"("name": "good", "vram_gb": 8, "fp32_tflops": 1, "bf16_tflops": 1, "bandwidth_gbs": 1)",
             "f.json: entry 2 (\"good\"): field 'name' repeats an earlier entry's name"},
        };
        for (const auto& c : cases) {
            const auto parsed = parseCatalogue(oneGpu(c.fields), "f.json");
            QVERIFY2(!parsed, c.fields);
            QCOMPARE(QString::fromStdString(parsed.message()), QString::fromUtf8(c.expected));
        }
        const auto syntax = parseCatalogue("{\"version\": 1,\n \"gpus\": [,]}", "f.json");
        QVERIFY(!syntax);
        QVERIFY2(syntax.message().rfind("f.json: line 2, column", 0) == 0, syntax.message().c_str());
        const auto newer = parseCatalogue(R"({"version": 9, "gpus": []})", "f.json");
        QVERIFY(!newer);
        QCOMPARE(newer.error().code, std::string("newer_version"));
    }

    void userOverridesReplaceAndAdd() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("planner/gpus.json").toStdString();
        GpuSpec cheaper = *parseCatalogue(shippedCatalogueJson(), "x")->find("RTX 4090");
        cheaper.pricePerHour = 0.69;
        cheaper.priceSource = "my provider";
        QVERIFY(saveUserGpu(file, cheaper));
        GpuSpec mine{
            .name = "My Card", .vramGb = 12, .fp32Tflops = 10, .bf16Tflops = 40, .bandwidthGbs = 500};
        QVERIFY(saveUserGpu(file, mine));
        const auto merged = loadCatalogue(file);
        QVERIFY2(merged, merged ? "" : merged.message().c_str());
        QCOMPARE(*merged->find("RTX 4090")->pricePerHour, 0.69);
        QVERIFY(merged->find("RTX 4090")->userEdited);
        QVERIFY(merged->find("My Card"));
        QVERIFY(!merged->find("My Card")->pricePerHour);
        const auto shippedCount = parseCatalogue(shippedCatalogueJson(), "x")->gpus.size();
        QCOMPARE(merged->gpus.size(), shippedCount + 1);
        QVERIFY(*removeUserGpu(file, "my card"));
        QVERIFY(!*removeUserGpu(file, "my card"));
        QCOMPARE(loadCatalogue(file)->gpus.size(), shippedCount);

        std::ofstream(file) << oneGpu(R"("name": "Broken", "vram_gb": 0)");
        const auto broken = loadCatalogue(file);
        QVERIFY(!broken);
        QVERIFY2(broken.message().find("entry 2 (\"Broken\"): field 'vram_gb'") != std::string::npos,
                 broken.message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestGpuCatalogue)
#include "tst_gpu_catalogue.moc"
