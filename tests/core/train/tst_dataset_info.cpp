// datasetInfoOf: the one summary of a run's dataset, for the single-process run and every data-parallel
// rank alike; the negatives of both splits are counted (a rank once left them out).
#include "train/dataset_info.h"

#include <QtTest>

using namespace osprey::train;

namespace {

Sample sampleOf(std::int64_t id, int boxes) {
    Sample sample;
    sample.imageId = id;
    sample.path = "/data/img" + std::to_string(id) + ".jpg";
    for (int b = 0; b < boxes; ++b)
        sample.boxes.push_back(SampleBox{b % 2, 1, 2, 30, 40});
    return sample;
}

} // namespace

class TestDatasetInfo : public QObject {
    Q_OBJECT

private slots:
    void countsBothSplitsWithTheirNegatives() {
        ProjectData data;
        data.classNames = {"cat", "dog", "bird"};
        data.train.samples = {sampleOf(1, 2), sampleOf(2, 0), sampleOf(3, 3), sampleOf(4, 0)};
        data.train.boxes = 5;
        data.train.negatives = 2;
        data.val.samples = {sampleOf(5, 1), sampleOf(6, 0)};
        data.val.boxes = 1;
        data.val.negatives = 1;

        const auto info = datasetInfoOf(data);
        QCOMPARE(info.classNames, (std::vector<std::string>{"cat", "dog", "bird"}));
        QCOMPARE(info.trainImages, std::int64_t(4));
        QCOMPARE(info.valImages, std::int64_t(2));
        QCOMPARE(info.trainBoxes, std::int64_t(5));
        QCOMPARE(info.valBoxes, std::int64_t(1));
        QCOMPARE(info.negatives, std::int64_t(3));
    }

    void emptyValSplit() {
        ProjectData data;
        data.classNames = {"a"};
        data.train.samples = {sampleOf(1, 1)};
        data.train.boxes = 1;
        data.train.negatives = 0;
        const auto info = datasetInfoOf(data);
        QCOMPARE(info.trainImages, std::int64_t(1));
        QCOMPARE(info.valImages, std::int64_t(0));
        QCOMPARE(info.valBoxes, std::int64_t(0));
        QCOMPARE(info.negatives, std::int64_t(0));
    }
};

QTEST_APPLESS_MAIN(TestDatasetInfo)
#include "tst_dataset_info.moc"
