// Replays the fuzz corpus and every input a fuzzer ever crashed on (tests/fuzz/regressions/<target>/)
// through the same entry points the libFuzzer targets use (tests/fuzz/fuzz_targets.h), in the default
// build: an input that crashed once must never crash again. The model readers' targets (pickle, torch_zip,
// darknet_cfg) replay in builds with core/model and core/assist (LibTorch).
#include "fuzz/fuzz_targets.h"
#ifdef OSPREY_FUZZ_MODEL_TARGETS
#include "fuzz/fuzz_model_targets.h"
#endif

#include <QtTest>

#include <fstream>
#include <iterator>
#include <map>

namespace fs = std::filesystem;

namespace {

using Entry = void (*)(const std::uint8_t*, std::size_t);

const std::map<std::string, Entry>& targets() {
    static const std::map<std::string, Entry> map = {
        {"yolo_labels", &osprey::fuzz::yoloLabels}, {"data_yaml", &osprey::fuzz::dataYaml},
        {"coco_json", &osprey::fuzz::cocoJson},     {"voc_xml", &osprey::fuzz::vocXml},
        {"events", &osprey::fuzz::events},          {"jpeg", &osprey::fuzz::jpeg},
#ifdef OSPREY_FUZZ_MODEL_TARGETS
        {"pickle", &osprey::fuzz::pickle},          {"torch_zip", &osprey::fuzz::torchZip},
        {"darknet_cfg", &osprey::fuzz::darknetCfg},
#endif
    };
    return map;
}

/// Runs every file of tests/fuzz/<kind>/<target>/; returns how many.
int replay(const std::string& kind, const std::string& target, Entry entry) {
    const fs::path dir = fs::path(OSPREY_SOURCE_DIR) / "tests" / "fuzz" / kind / target;
    int count = 0;
    std::error_code ec;
    for (const auto& file : fs::directory_iterator(dir, ec)) {
        std::ifstream in(file.path(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        ++count;
    }
    return count;
}

} // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    void corpusAndCrashersReplay_data() {
        QTest::addColumn<QString>("target");
        for (const auto& [name, entry] : targets())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }
    void corpusAndCrashersReplay() {
        QFETCH(QString, target);
        const std::string name = target.toStdString();
        const int seeds = replay("corpus", name, targets().at(name));
        QVERIFY2(seeds >= 2, "every target keeps at least two seeds in tests/fuzz/corpus/<target>");
        replay("regressions", name, targets().at(name));
    }
    void cleanupTestCase() {
        std::error_code ec;
        fs::remove_all(osprey::fuzz::scratch(), ec);
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
