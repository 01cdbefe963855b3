#pragma once
// A BatchSource over synthetic images for the engine's tests: `images` random side x side images with one
// box each, in batches of `batch`, the same every epoch (the seed is the image's index).

#include "train/batch_source.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>

namespace osprey::test {

class SyntheticSource : public train::BatchSource {
public:
    SyntheticSource(int images, int batch, int side = 64) : m_images(images), m_batch(batch), m_side(side) {}
    int imageCount() const override { return m_images; }
    int batchesPerEpoch() const override { return (m_images + m_batch - 1) / m_batch; }
    void startEpoch(const train::EpochPlan&) override { m_next = 0; }
    std::optional<train::HostBatch> next() override {
        if (m_next >= m_images)
            return std::nullopt;
        train::HostBatch batch;
        batch.count = std::min(m_batch, m_images - m_next);
        batch.width = batch.height = m_side;
        std::mt19937 random(static_cast<unsigned>(m_next));
        batch.pixels.resize(static_cast<size_t>(batch.count) * m_side * m_side * 3);
        for (auto& value : batch.pixels)
            value = static_cast<std::uint8_t>(random() % 256);
        const float scale = static_cast<float>(m_side) / 64.0f;
        for (int i = 0; i < batch.count; ++i)
            batch.boxes.push_back(
                {i, (m_next + i) % 2, (8.0f + i) * scale, 10.0f * scale, (40.0f + i) * scale, 44.0f * scale});
        m_next += batch.count;
        return batch;
    }

private:
    int m_images, m_batch, m_side, m_next = 0;
};

} // namespace osprey::test
