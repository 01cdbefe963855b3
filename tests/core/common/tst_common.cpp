#include "common/atomic_file.h"
#include "common/half_float.h"
#include "common/hash.h"
#include "common/strings.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstdint>

using namespace osprey;

class TestCommon : public QObject {
    Q_OBJECT
private slots:
    void convertsHalfPrecision() {
        // Every half survives float and back (NaNs stay NaNs).
        for (std::uint32_t h = 0; h <= 0xFFFFU; ++h) {
            const auto bits = static_cast<std::uint16_t>(h);
            const float value = osprey::halfToFloat(bits);
            if (std::isnan(value))
                QVERIFY(std::isnan(osprey::halfToFloat(osprey::floatToHalf(value))));
            else
                QCOMPARE(osprey::floatToHalf(value), bits);
        }
        QCOMPARE(osprey::floatToHalf(1.0f), std::uint16_t(0x3C00));
        QCOMPARE(osprey::floatToHalf(-2.0f), std::uint16_t(0xC000));
        QCOMPARE(osprey::floatToHalf(65504.0f), std::uint16_t(0x7BFF));
        QCOMPARE(osprey::floatToHalf(65520.0f), std::uint16_t(0x7C00)); // rounds up to infinity
        QCOMPARE(osprey::floatToHalf(1e10f), std::uint16_t(0x7C00));
        QCOMPARE(osprey::floatToHalf(-0.0f), std::uint16_t(0x8000));
        // Ties go to even: 1 + 2^-11 is halfway between 1 and the next half.
        QCOMPARE(osprey::floatToHalf(1.0f + std::ldexp(1.0f, -11)), std::uint16_t(0x3C00));
        QCOMPARE(osprey::floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), std::uint16_t(0x3C02));
        QCOMPARE(osprey::floatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)),
                 std::uint16_t(0x3C01));
        // Subnormals: 2^-24 is the smallest; 2^-25 is a tie with zero (even); 3 * 2^-25 rounds to 2.
        QCOMPARE(osprey::floatToHalf(std::ldexp(1.0f, -24)), std::uint16_t(0x0001));
        QCOMPARE(osprey::floatToHalf(std::ldexp(1.0f, -25)), std::uint16_t(0x0000));
        QCOMPARE(osprey::floatToHalf(3 * std::ldexp(1.0f, -25)), std::uint16_t(0x0002));
        QCOMPARE(osprey::floatToHalf(-std::ldexp(1.0f, -30)), std::uint16_t(0x8000));
        // The largest subnormal rounds up into the smallest normal.
        QCOMPARE(osprey::floatToHalf(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -26)), std::uint16_t(0x0400));
        QVERIFY(std::isnan(osprey::halfToFloat(osprey::floatToHalf(std::nanf("")))));
    }

    void parsesNumbersStrictly() {
        QCOMPARE(parseDouble("0.25").value(), 0.25);
        QCOMPARE(parseDouble(" -1e3 ").value(), -1000.0);
        QVERIFY(!parseDouble("0.5x").has_value());
        QVERIFY(!parseDouble("").has_value());
        QCOMPARE(parseInt("42").value(), 42LL);
        QVERIFY(!parseInt("4.2").has_value());
        QCOMPARE(parseBool("Yes").value(), true);
        QCOMPARE(parseBool("0").value(), false);
        QVERIFY(!parseBool("maybe").has_value());
    }
    void splitsAndTrims() {
        const auto parts = splitWhitespace("  0 0.5\t0.25  1 ");
        QCOMPARE(parts.size(), size_t(4));
        QCOMPARE(std::string(parts[1]), std::string("0.5"));
        QCOMPARE(split("a,,b", ',').size(), size_t(3));
        QCOMPARE(std::string(trim("\n x \r")), std::string("x"));
    }
    void editDistanceSuggests() {
        QCOMPARE(editDistance("epoch", "epochs"), 1);
        QCOMPARE(editDistance("kitten", "sitting"), 3);
        QCOMPARE(editDistance("", "abc"), 3);
    }
    void pluralAgreesWithTheCount() {
        QCOMPARE(plural(1, "box", "boxes"), std::string("1 box"));
        QCOMPARE(plural(0, "box", "boxes"), std::string("0 boxes"));
        QCOMPARE(plural(3, "image", "images"), std::string("3 images"));
    }
    void hashIsStableAndSensitive() {
        QCOMPARE(hashBytes("abc"), hashBytes("abc"));
        QVERIFY(hashBytes("abc") != hashBytes("abd"));
        QVERIFY(hashBytes("a") != hashBytes(std::string_view("a\0", 2)));
        QCOMPARE(toHex(0x1234abcdULL), std::string("000000001234abcd"));
    }
    void atomicWriteReplacesAndReads() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "sub" / "file.txt";
        QVERIFY(writeFileAtomic(path, "first").hasValue());
        QVERIFY(writeFileAtomic(path, "second").hasValue());
        const auto text = readFile(path);
        QVERIFY(text.hasValue());
        QCOMPARE(*text, std::string("second"));
        // No temporary files are left beside the target.
        int entries = 0;
        for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(path.parent_path()))
            ++entries;
        QCOMPARE(entries, 1);
        QCOMPARE(hashFileHex(path).value(), toHex(hashBytes("second")));
        const auto missing = readFile(path.parent_path() / "nope.txt");
        QVERIFY(!missing.hasValue());
        QVERIFY(missing.message().find("nope.txt") != std::string::npos);
    }

    // readFile reads what the file holds, in one read when the file system reports its size: binary bytes
    // (zeros, 0xFF) whole at several sizes, an empty file, a /proc file that reports size 0, and a folder
    // as an error naming it (an ifstream opens a folder on Linux and reads nothing).
    void readFileReadsWholeFiles() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        for (const size_t size : {size_t{0}, size_t{1}, size_t{4095}, size_t{4096}, size_t{300001}}) {
            std::string bytes(size, '\0');
            for (size_t i = 0; i < size; ++i)
                bytes[i] = static_cast<char>((i * 131 + 7) % 256);
            const auto path = root / ("file" + std::to_string(size));
            QVERIFY(writeFileAtomic(path, bytes).hasValue());
            const auto read = readFile(path);
            QVERIFY(read.hasValue());
            QCOMPARE(read->size(), size);
            QVERIFY(*read == bytes);
        }
        const auto stat = readFile("/proc/self/stat");
        QVERIFY(stat.hasValue());
        // "pid (name) state ...": more than the 0 bytes the file reports.
        QVERIFY(stat->find(')') != std::string::npos);
        const auto folder = readFile(root);
        QVERIFY(!folder.hasValue());
        QVERIFY(folder.message().find(root.string()) != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCommon)
#include "tst_common.moc"
