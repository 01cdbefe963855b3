// The check a Darknet .cfg passes before OpenCV DNN reads it (issue 22): the real Yolo-Fastest cfgs pass
// with their input size; what made OpenCV 4.6 divide by zero (groups=b, found by fuzz_darknet_cfg) or
// index past its layers is refused with the file, line and field; a hostile cfg opened as a predictor
// gives that error instead of killing the process.
#include "assist/box_predictor.h"
#include "assist/darknet_cfg_impl.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

fs::path write(const QTemporaryDir& dir, const std::string& name, const std::string& text) {
    const fs::path path = fs::path(dir.path().toStdString()) / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

const char* kNet = "[net]\nwidth=64\nheight=32\nchannels=3\n\n";

} // namespace

class TestDarknetCfg : public QObject {
    Q_OBJECT
private slots:
    void realCfgsPass() {
        const fs::path dir = fs::path(OSPREY_SHARED_DIR) / "fixtures" / "models" / "yolo-fastest-1.1";
        if (!fs::exists(dir / "yolo-fastest-1.1.cfg"))
            QSKIP("../shared/fixtures/models/yolo-fastest-1.1 is absent");
        for (const char* name : {"yolo-fastest-1.1.cfg", "yolo-fastest-1.1-xl.cfg"}) {
            const auto cfg = assist::readDarknetCfg(dir / name);
            QVERIFY2(cfg, cfg ? "" : cfg.message().c_str());
            QCOMPARE(cfg->width, 320);
            QCOMPARE(cfg->height, 320);
            QVERIFY(cfg->layers > 50);
        }
    }

    void refusesWhatOpenCvTrusts_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("says");
        QTest::newRow("groups=b (SIGFPE in OpenCV)") << "[convolutional]\nfilters=2\nsize=1\ngroups=b\n"
                                                     << "line 9: [convolutional] groups=b";
        QTest::newRow("groups=0") << "[convolutional]\nfilters=2\nsize=1\ngroups=0\n"
                                  << "groups=0";
        QTest::newRow("negative stride") << "[maxpool]\nsize=2\nstride=-2\n"
                                         << "stride=-2";
        QTest::newRow("huge filters") << "[convolutional]\nfilters=99999999999\nsize=1\n"
                                      << "filters=";
        QTest::newRow("route ahead") << "[convolutional]\nfilters=2\nsize=1\n[route]\nlayers=3\n"
                                     << "layer 3 does not come before layer 1";
        QTest::newRow("route before the first") << "[route]\nlayers=-1\n"
                                                << "does not come before layer 0";
        QTest::newRow("shortcut text") << "[convolutional]\nfilters=2\nsize=1\n[shortcut]\nfrom=x\n"
                                       << "'x' is not a whole number";
        QTest::newRow("negative mask") << "[yolo]\nmask=0,-1\nclasses=2\nnum=3\n"
                                       << "negative anchor index";
        QTest::newRow("no key=value") << "[convolutional]\nfilters\n"
                                      << "expected key=value";
        // fuzz_darknet_cfg: size=34000 made OpenCV allocate 37 GB of weights.
        QTest::newRow("huge kernel") << "[convolutional]\nfilters=16\nsize=34000\n"
                                     << "268435456 weights";
        // fuzz_darknet_cfg: a [route] whose layers= key was garbled made OpenCV read past its list (SEGV).
        QTest::newRow("route without layers") << "[convolutional]\nfilters=2\nsize=1\n[route]\nlayerz=-1\n"
                                              << "[route] without layers=";
        QTest::newRow("shortcut without from") << "[convolutional]\nfilters=2\nsize=1\n[shortcut]\n"
                                               << "[shortcut] without from=";
        QTest::newRow("groups not dividing") << "[convolutional]\nfilters=4\nsize=1\ngroups=2\n"
                                             << "groups=2 does not divide its 3 input channels";
    }
    void refusesWhatOpenCvTrusts() {
        QFETCH(QString, body);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const auto path = write(dir, "m.cfg", kNet + body.toStdString());
        const auto cfg = assist::readDarknetCfg(path);
        QVERIFY(!cfg);
        QVERIFY2(cfg.message().find(says.toStdString()) != std::string::npos, cfg.message().c_str());
        QVERIFY(cfg.message().starts_with(path.string()));
    }

    void needsNetFirstAndLayers() {
        QTemporaryDir dir;
        auto cfg = assist::readDarknetCfg(write(dir, "a.cfg", "[convolutional]\nfilters=2\nsize=1\n"));
        QVERIFY(!cfg);
        QVERIFY2(cfg.message().find("first section must be [net]") != std::string::npos,
                 cfg.message().c_str());
        cfg = assist::readDarknetCfg(write(dir, "b.cfg", kNet));
        QVERIFY(!cfg);
        QVERIFY2(cfg.message().find("no layers") != std::string::npos, cfg.message().c_str());
    }

    void hostileCfgIsAnErrorNotACrash() {
        QTemporaryDir dir;
        const auto cfg =
            write(dir, "m.cfg", std::string(kNet) + "[convolutional]\nfilters=2\nsize=1\ngroups=b\n");
        const auto weights = write(dir, "m.weights", std::string(20 + 4096, '\0'));
        const auto names = write(dir, "m.names", "a\nb\n");
        auto predictor = assist::BoxPredictor::open({cfg, weights, names, "cpu"});
        QVERIFY(!predictor);
        QVERIFY2(predictor.message().find("groups=b") != std::string::npos, predictor.message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestDarknetCfg)
#include "tst_darknet_cfg.moc"
